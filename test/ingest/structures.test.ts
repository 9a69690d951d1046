// The structure readings of docs/interpretations.md §120–§124, one case each: fixed-width columns read from the
// data, what differs (outliers, rare values, markers), JSON paths, records and their trailer, key/value
// groups, one budget per paste, and times only where a template puts times.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ingest } from '../../src/ingest/index.js';
import { indexLines } from '../../src/ingest/lines.js';
import { blocksOf } from '../../src/ingest/classify.js';
import { fixedWidthSpans, parseTable } from '../../src/ingest/table.js';
import { analyse, numberOf, outliers } from '../../src/ingest/salience.js';
import { distillJson } from '../../src/ingest/jsondoc.js';
import { distillRecords, findRecords } from '../../src/ingest/records.js';
import { findTimestamp } from '../../src/ingest/drain.js';
import { digestLog } from '../../src/ingest/logdigest.js';

const kinds = (text: string) => blocksOf(indexLines(text)).map((b) => b.kind);

describe('ingest: structures (§120–§124)', () => {
  it('fixed-width columns come from the data: a single-space header splits where the data does, a value with spaces stays one cell, a two-word header with a blank column stays one', () => {
    const df = [
      'Filesystem      Size  Used Avail Use% Mounted on',
      'udev             32G     0   32G   0% /dev',
      '/dev/nvme1n1    492G  492G    0G 100% /var/lib/postgresql',
      'tmpfs           6.3G  2.9M  6.3G   1% /run',
    ];
    const t = parseTable(df.join('\n'), 'aligned');
    assert.deepEqual(t.header, ['Filesystem', 'Size', 'Used', 'Avail', 'Use%', 'Mounted on']);
    assert.deepEqual(t.rows[1], ['/dev/nvme1n1', '492G', '492G', '0G', '100%', '/var/lib/postgresql']);
    assert.deepEqual(kinds(df.join('\n')), ['table']);
    const docker = [
      'CONTAINER ID   STATUS                       NAMES',
      'a1b2c3d4e5f6   Up 3 hours                   api-1',
      '0f9e8d7c6b5a   Exited (137) 4 minutes ago   worker-3',
      '77aa88bb99cc   Up 2 days                    web-2',
    ];
    assert.deepEqual(parseTable(docker.join('\n'), 'aligned').rows[1], ['0f9e8d7c6b5a', 'Exited (137) 4 minutes ago', 'worker-3']);
    const k = ['NAME    READY   NOMINATED NODE   READINESS GATES', 'api-1   1/1     <none>           <none>', 'api-2   1/1     <none>           <none>'];
    assert.deepEqual(parseTable(k.join('\n'), 'aligned').header, ['NAME', 'READY', 'NOMINATED NODE', 'READINESS GATES']);
    assert.equal(fixedWidthSpans(['one two', 'three four']), undefined, 'no column of spaces on every line: no table');
  });

  it('what differs: an outlier stands apart by twice the range of the rest (linear or log scale); a uniform spread has none', () => {
    assert.deepEqual([...outliers([0, 1, 31, 32, 32, 32, 0, 0, 100, 32, 1])], [8]);
    assert.deepEqual([...outliers([10400, 10401, 10402, 10403, 10404, 10405, 10406])], []);
    assert.deepEqual([...outliers([2.7e10, 7.2e10, 3.77e7, 4.0e10, 9.7e10, 2.5e10, 3.6e10])], [2]);
    assert.deepEqual([...outliers([5, 5, 5, 5, 6])], [4], 'all alike but one');
    assert.equal(numberOf('98G'), 98e9);
    assert.equal(numberOf('1.12s'), 1120);
    assert.equal(numberOf('44%'), 44);
    assert.equal(numberOf('-18,450.00'), -18450);
    assert.equal(numberOf('web-1'), undefined);
  });

  it('what differs: a rare value of a categorical field, a marker, a discriminating term of the question; a term every item carries tells nothing', () => {
    const items = Array.from({ length: 20 }, (_, i) => ({
      fields: [['status', i === 7 ? 'CrashLoopBackOff' : 'Running'] as const, ['node', `n-${i}`] as const],
      text: `pod-${i} ${i === 7 ? 'CrashLoopBackOff' : 'Running'}${i === 12 ? ' failed probe' : ''} pod`,
    }));
    const a = analyse(items, ['pod', 'probe']);
    const kept = a.marked.map((m, i) => (m.score > 0 ? i : -1)).filter((i) => i >= 0);
    assert.deepEqual(kept, [7, 12]);
    assert.ok(a.marked[12]!.tags.includes('marker "failed"') && a.marked[12]!.tags.includes('mentions "probe"'));
    assert.ok(a.summaries.includes('status: Running ×19, CrashLoopBackOff ×1'));
  });

  it('a JSON document: its records are the largest collection of record-like objects, a kept object keeps its path and lines, every other line is named', () => {
    const doc = { page: 2, items: Array.from({ length: 12 }, (_, i) => ({ id: 500 + i, state: i === 9 ? 'failed' : 'ok', attempts: i === 9 ? 40 : 1, tags: [{ k: 'a', v: String(i) }] })) };
    const text = JSON.stringify(doc, null, 2);
    assert.deepEqual(kinds(text), ['json']);
    const d = distillJson(text, 1, [], 600).text;
    assert.match(d, /^\[JSON document: 12 objects at \$\.items\[\], 5 fields; lines 1–\d+\]/);
    assert.match(d, /\n\$\.items\[9\] \(lines \d+–\d+; [^\n]*\):\nL\d+ {5}\{\nL\d+ {7}"id": 509,\nL\d+ {7}"state": "failed",/);
    assert.match(d, /\nelided \(in \[full\]\): lines 1–\d+, \d+–\d+$/);
    assert.deepEqual(kinds('{"a":1}\n{"a":2}\n{"a":3}\n'), ['log'], 'JSON lines stay a log');
  });

  it('repeated records: a key line that recurs splits them; the trailer after the last record is quoted; a record that differs is quoted whole', () => {
    const lines = ['# audit report', ''];
    for (let i = 0; i < 8; i++) lines.push(`pkg-${i}  <1.${i}.0`, `Severity: ${i === 5 ? 'critical' : 'moderate'}`, `pkg-${i} issue - https://example.test/${i}`, `node_modules/pkg-${i}`, '');
    lines.push('8 vulnerabilities (7 moderate, 1 critical)');
    const split = findRecords(lines)!;
    assert.equal(split.starts.length, 8);
    assert.equal(lines[split.starts[0]!], 'pkg-0  <1.0.0', 'a record starts after the blank line before its key line');
    const d = distillRecords(lines.join('\n'), 1, [], 600).text;
    assert.match(d, /\nrecord 6 of 8, lines 28–31 \(Severity "critical" \(1 of 8\)[^\n]*\):\npkg-5 {2}<1\.5\.0\nSeverity: critical\n/);
    assert.match(d, /\nafter the records \(lines 43–43\):\n8 vulnerabilities \(7 moderate, 1 critical\)\n/);
    assert.equal(findRecords(Array.from({ length: 30 }, (_, i) => `2026-12-01T10:00:${String(i).padStart(2, '0')}Z INFO tick ${i}`)), undefined, 'a log is not records');
  });

  it('one budget for the whole paste: the block the question points at gets the larger share', () => {
    const table = (name: string) =>
      ['host          state     load', ...Array.from({ length: 120 }, (_, i) => `${name}-${String(i).padStart(3, '0')}    ${i % 40 === 7 ? 'degraded' : 'ok      '}  ${(i % 9) + 1}.0`)].join('\n');
    const r = ingest({
      intent: 'why is the billing cluster degraded',
      attachments: [
        { name: 'a.txt', content: table('search') },
        { name: 'b.txt', content: table('billing') },
      ],
    });
    const cost = (n: string) => r.frames.find((f) => r.report.find((e) => e.attachment === n && e.became.outcome === 'frame' && e.became.id === f.id))!.token_cost;
    assert.ok(cost('b.txt') >= cost('a.txt'), `${cost('a.txt')} vs ${cost('b.txt')}`);
    for (const f of r.frames) assert.ok(f.token_cost * 10 < f.canonical_token_cost! * 3, `${f.title}: ${f.canonical_token_cost} → ${f.token_cost}`);
  });

  it('times only where a template puts times: a MAC address or hex bytes are no clock, and no time range is read from them', () => {
    assert.equal(findTimestamp('lladdr 08:90:08:41:02:08 STALE'), undefined);
    assert.equal(findTimestamp('0x0010:  0890 0841 12:30:00:ff'), undefined);
    assert.equal(findTimestamp('at 25:61:99 nothing'), undefined);
    assert.equal(findTimestamp('done at 12:34:56 ok')?.clock, '12:34:56');
    const lines = Array.from(
      { length: 30 },
      (_, i) => `neighbour 10.20.0.${10 + i} dev eth0 lladdr ${i === 5 ? '08:90:08:41:02:08' : `0${i % 10}:1${i % 7}:2a:3b:4c:5d`} ${i === 22 ? 'FAILED' : 'STALE'}`,
    );
    const d = digestLog(lines.join('\n'), { firstLineNo: 1, terms: [] });
    assert.match(d, /^\[30-line log · 1 template · 1 anomalous line\]/);
    assert.ok(!/\d\d:\d\d:\d\d–/.test(d), d);
  });

  it('three or four objects: the one whose value differs from the value all others share is kept, never "no object differs"', () => {
    const item = (status: string, score: number, tags: string[]) => ({ id: 1000, name: 'api', status, score, tags, meta: { region: 'eu', ok: false } });
    const items = [item('active', 0, ['api', 'api']), item('active', 0, ['api', 'api', 'api']), item('locked', 100_000, ['api', 'api', 'api']), item('active', 0, ['api', 'api', 'auth'])];
    const served = ingest({ intent: 'why', attachments: [`${JSON.stringify({ page: 1, data: { items } }, null, 4)}\n`] })
      .frames.map((f) => f.content ?? '')
      .join('\n');
    assert.match(served, /kept 1 of 4 objects/);
    assert.match(served, /"status": "locked"/);
    assert.doesNotMatch(served, /no object differs/);
    // three that all differ: none stands apart
    const { marked } = analyse(
      ['a', 'b', 'c'].map((v) => ({ fields: [['status', v]] as Array<[string, string]>, text: v })),
      [],
    );
    assert.deepEqual(
      marked.map((m) => m.score),
      [0, 0, 0],
    );
  });
});
