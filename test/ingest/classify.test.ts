// Segmentation and classification: every paste shape the issue lists lands on its rung of the ladder,
// and each distiller keeps what matters and says what it left out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blocksOf, looksLikePath } from '../../src/ingest/classify.js';
import { distillCode, distillLog, distillStack, distillTable } from '../../src/ingest/distill.js';
import { indexLines } from '../../src/ingest/lines.js';
import { inferColumn, inferColumns, parseTable, splitCsvRecords } from '../../src/ingest/table.js';
import { ingest } from '../../src/ingest/index.js';
import { ALIGNED_TABLE, CODE, CSV_QUOTED, PIPE_TABLE, TRACES, TSV_TABLE } from './samples.js';

function kinds(text: string): string[] {
  const ix = indexLines(Buffer.from(text, 'utf8').toString('latin1'));
  return blocksOf(ix).map((b) => (b.delimiter ? `${b.kind}:${b.delimiter}` : b.kind));
}

describe('ingest: classification ladder', () => {
  for (const [lang, trace] of Object.entries(TRACES)) {
    it(`a ${lang} stack trace is one stack block`, () => assert.deepEqual(kinds(trace), ['stack']));
  }
  it('a Python chained traceback (blank lines and the chain marker) stays one trace', () => {
    const chained = `${TRACES.python}\n\nDuring handling of the above exception, another exception occurred:\n\n${TRACES.python.replace('ValueError', 'KeyError')}`;
    assert.deepEqual(kinds(chained), ['stack']);
  });
  it('tables: pipe (Markdown), tab, CSV with quoting, whitespace-aligned', () => {
    assert.deepEqual(kinds(PIPE_TABLE), ['table:pipe']);
    assert.deepEqual(kinds(TSV_TABLE), ['table:tab']);
    assert.deepEqual(kinds(CSV_QUOTED), ['table:csv']);
    assert.deepEqual(kinds(ALIGNED_TABLE), ['table:aligned']);
  });
  it('timestamped and weak logs; a log with blank lines stays one log', () => {
    const log = ['2026-07-20T18:00:00Z INFO start', '2026-07-20T18:00:01Z WARN slow', '2026-07-20T18:00:02Z INFO ok'].join('\n');
    assert.deepEqual(kinds(log), ['log']);
    assert.deepEqual(kinds(`${log}\n\n${log.replace(/18:00/g, '18:05')}`), ['log']);
    assert.deepEqual(kinds('[worker-1] ERROR queue full\n[worker-2] INFO drained\n[worker-1] INFO resumed'), ['log']);
  });
  it('fenced code (even if it looks like a log), unfenced code, prose, a path', () => {
    assert.deepEqual(kinds('```\n2026-07-20T18:00:00Z ERROR x\n2026-07-20T18:00:01Z ERROR y\n```'), ['code']);
    assert.deepEqual(kinds('~~~ts\nconst a = 1;\n'), ['code'], 'an unterminated fence runs to the end');
    assert.deepEqual(kinds(CODE), ['code']);
    assert.deepEqual(kinds('I think the pool is too small.\n\nAlso the retries never back off.'), ['prose']);
    assert.deepEqual(kinds('src/net/retry.rs'), ['path']);
    assert.deepEqual(kinds('src/net/retry.rs\n./docs/retry.md\n/etc/app.toml'), ['path'], 'a list of paths');
    const r = ingest({ intent: 'x', attachments: ['src/net/retry.rs\n./docs/retry.md\nsrc/net/retry.rs'] });
    assert.deepEqual(r.query.anchors, ['src/net/retry.rs', './docs/retry.md']);
    assert.deepEqual(
      r.report.map((e) => e.lines),
      ['L1', 'L2', 'L3'],
    );
    assert.deepEqual(kinds('a\u0000b\u0000c\u0000d\u0001\u0002'), ['binary']);
  });
  it('path references: rooted, with an extension, file://; not URLs, host names or bare words', () => {
    for (const p of ['./src/net', '../x/y', '~/notes.md', '/etc/hosts', 'net.rs', 'src/a/b', 'file:///tmp/x', 'example.com/x.rs', 'C:\\src\\app.cs']) {
      assert.equal(looksLikePath(p), true, p);
    }
    for (const p of ['https://example.com/x', 'example.com/path', 'src', 'two words', '']) assert.equal(looksLikePath(p), false, p);
  });
});

describe('ingest: distillers', () => {
  it('stack traces keep the header, the top frames and every Caused by, and count what they elide', () => {
    const java = [
      'java.lang.RuntimeException: boom',
      ...Array.from({ length: 20 }, (_, i) => `\tat a.B.m${i}(B.java:${i})`),
      'Caused by: java.io.IOException: disk full',
      ...Array.from({ length: 10 }, (_, i) => `\tat c.D.n${i}(D.java:${i})`),
    ].join('\n');
    const out = distillStack(java).text.split('\n');
    assert.equal(out[0], 'java.lang.RuntimeException: boom');
    assert.equal(out[1], '\tat a.B.m0(B.java:0)');
    assert.ok(out.includes('… (15 more frames: lines 7–21)'));
    assert.ok(out.includes('Caused by: java.io.IOException: disk full'));
    assert.equal(out.at(-1), '… (7 more frames: lines 26–32)');
  });
  it('a Python traceback keeps its most recent frames (they are last) and the exception line', () => {
    const py = ['Traceback (most recent call last):', ...Array.from({ length: 12 }, (_, i) => `  File "/a/m${i}.py", line ${i}, in f${i}\n    call${i}()`), "KeyError: 'listen_port'"].join('\n');
    const out = distillStack(py).text.split('\n');
    assert.deepEqual(out.slice(0, 2), ['Traceback (most recent call last):', '… (7 more frames: lines 2–15)']);
    assert.ok(out.includes('  File "/a/m11.py", line 11, in f11') && out.includes('    call11()'));
    assert.equal(out.at(-1), "KeyError: 'listen_port'");
  });
  it('Go and Rust frames travel with their location lines', () => {
    const go = ['panic: boom', '', 'goroutine 1 [running]:', ...Array.from({ length: 10 }, (_, i) => `main.f${i}()\n\t/src/m.go:${i} +0x1d`)].join('\n');
    const g = distillStack(go).text;
    assert.match(g, /main\.f4\(\)\n\t\/src\/m\.go:4 \+0x1d\n… \(5 more frames: lines 14–23\)$/);
    const rs = ["thread 'main' panicked at src/a.rs:1:1:", 'boom', ...Array.from({ length: 10 }, (_, i) => `   ${i}: sym${i}\n             at ./src/a.rs:${i}:1`)].join('\n');
    assert.match(distillStack(rs).text, /4: sym4\n {13}at \.\/src\/a\.rs:4:1\n… \(5 more frames: lines 13–22\)$/);
  });
  it('tables: shape, typed columns with ranges, the header and sample rows, the rows left out', () => {
    const t = distillTable(CSV_QUOTED, 'csv').text.split('\n');
    assert.equal(t[0], '[4 rows × 6 columns]');
    assert.equal(t[1], 'columns: id int 1..4 · name text · comment text? · amount float? 7.25..100.00 · active bool · seen_at timestamp? 2026-03-01T10:00:00Z..2026-03-03T09:15:00Z');
    assert.equal(t[2], 'id | name | comment | amount | active | seen_at', 'multi-line cells: rows are shown as parsed cells');
    assert.equal(t.at(-1), '… (1 more row: through line 6)', 'multi-line records: the elided rows end at the block end');
  });
  it('CSV quoting: commas and doubled quotes inside quotes, quoted newlines', () => {
    const rec = splitCsvRecords(CSV_QUOTED).map((r) => r.map((c) => c.text));
    assert.equal(rec.length, 5);
    assert.deepEqual(rec[1]!.slice(1, 3), ['Smith, Jane', 'said "hello", then left']);
    assert.equal(rec[2]![2], 'multi\nline note');
  });
  it('column types: int, float, percent, currency (symbols, codes, parentheses), bool, timestamp, text, nullable, empty', () => {
    const type = (vs: string[]) => {
      const c = inferColumn('c', vs);
      return `${c.type}${c.nullable ? '?' : ''}`;
    };
    assert.equal(type(['1', '22', '1,234']), 'int');
    assert.equal(type(['1.5', '2', '.25']), 'float');
    assert.equal(type(['1%', '2.5%', '']), 'percent?');
    assert.equal(type(['$1.00', '€2', '(£3.50)', '12 USD', '¥40']), 'currency');
    assert.equal(type(['true', 'FALSE', 'n/a']), 'bool?');
    assert.equal(type(['2026-01-01T00:00:00Z', '2026-01-02 10:00:00', '-']), 'timestamp?');
    assert.equal(type(['a', '1']), 'text');
    assert.equal(type(['', 'null', 'NaN']), 'empty?');
    assert.equal(type(['1,23']), 'text', 'thousands groups are 3 digits');
  });
  it('Markdown separator rows are not data; aligned cells split on two or more spaces', () => {
    const p = parseTable(PIPE_TABLE, 'pipe');
    assert.deepEqual(p.header, ['host', 'cpu', 'mem']);
    assert.equal(p.rows.length, 3);
    assert.deepEqual(
      inferColumns(p).map((c) => c.type),
      ['text', 'percent', 'float'],
    );
    assert.deepEqual(parseTable(ALIGNED_TABLE, 'aligned').rows[1], ['worker-x2', '0/1', 'Pending', '3']);
  });
  it('long code keeps its head, its declarations and its tail, with the line counts left out', () => {
    const code = Array.from({ length: 60 }, (_, i) => (i === 30 ? 'export function middle(x: number) {' : `  const v${i} = ${i};`)).join('\n');
    const out = distillCode(code).text.split('\n');
    assert.equal(out.length, 12 + 1 + 1 + 1 + 6);
    assert.ok(out.includes('export function middle(x: number) {'));
    assert.ok(out.includes('… (18 lines elided: lines 13–30) …') && out.includes('… (23 lines elided: lines 32–54) …'));
  });
  it('a block that would not shrink is served verbatim; prose is never summarised', () => {
    const r = ingest({ intent: 'x', attachments: [TRACES.node!, 'short note'] });
    for (const a of r.store.artifacts) {
      assert.equal(a.compacted, false);
      assert.equal(a.method, 'verbatim');
      assert.equal(a.inline, Buffer.from(a.bytes).toString('utf8'));
    }
  });
});

describe('ingest: alert words follow the log level casing', () => {
  const view = (t: string) => indexLines(Buffer.from(t, 'utf8').toString('latin1'));
  const many = (f: (i: number) => string) => Array.from({ length: 40 }, (_, i) => f(i)).join('\n');
  it('capital levels: ERROR and Error lines are alerts; a lowercase "error" in an INFO message is not', () => {
    const t = many((i) => `2026-07-20T18:00:${String(i).padStart(2, '0')}Z ${i === 5 ? 'ERROR boom' : i === 9 ? 'INFO retry after error' : i === 20 ? 'INFO Error budget spent' : 'INFO fine'}`);
    const ix = view(t);
    const out = distillLog(ix, 0, ix.count - 1).text;
    assert.match(out, /^\[40-line log; 2 error line\(s\)\]/);
    assert.ok(out.includes('Z ERROR boom\n') && out.includes('Z INFO Error budget spent\n'), out);
    assert.ok(!out.includes('Z INFO retry after error'), 'not quoted as an alert line (only counted in a gap marker)');
  });
  it('lowercase levels (zap / logrus style): any casing counts', () => {
    const t = many((i) => `2026-07-20T18:00:${String(i).padStart(2, '0')}Z\t${i === 5 ? 'error\tboom' : i === 9 ? 'warn\tslow' : 'info\tfine'}`);
    const ix = view(t);
    assert.match(distillLog(ix, 0, ix.count - 1).text, /^\[40-line log; 1 error, 1 warn line\(s\)\]/);
  });
});
