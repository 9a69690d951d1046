// Property tests (fast-check) for the structure distillers (docs/interpretations.md §120–§124): over generated
// fixed-width tables, JSON documents (arrays of objects, nested records, minified), repeated records and
// key/value reports, through ingest() —
// - every non-blank line of a compacted block is quoted verbatim (`L<n> ` + the line, or the line itself)
//   or named by an elision marker's line ranges (`elided (in [full]): lines …`, `… (<r> more rows: lines …)`,
//   `… (lines a–b … elided) …`);
// - every frame passes the frame checks, and [full] is the exact bytes (its sha256 is the canonical hash);
// - an odd row / object / record planted in the middle is kept verbatim.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { checkFrame } from '../../src/protocol/index.js';
import { ingest, type IngestResult } from '../../src/ingest/index.js';
import { requery } from './helpers.js';

const word = fc.constantFrom('api', 'web', 'worker', 'cache', 'db', 'queue', 'batch', 'edge', 'auth', 'search');
const state = fc.constantFrom('Running', 'Running', 'Running', 'Running', 'Ready', 'Up 3 hours', 'Up 2 days');

/** A fixed-width table as `ps`, `df` or `kubectl` print it: columns as wide as their widest cell, 2+ spaces apart. */
const fixedWidth = fc
  .tuple(fc.integer({ min: 6, max: 70 }), fc.nat(), fc.constantFrom(2, 3), fc.boolean())
  .chain(([rows, seed, gap, odd]) =>
    fc.tuple(
      fc.array(fc.tuple(word, state, fc.integer({ min: 0, max: 99 }), fc.integer({ min: 1, max: 900 })), { minLength: rows, maxLength: rows }),
      fc.constant(seed),
      fc.constant(gap),
      fc.constant(odd),
    ),
  )
  .map(([rows, seed, gap, odd]) => {
    const header = ['NAME', 'STATUS', 'CPU%', 'MEM (MiB)', 'NODE NAME'];
    const cells = rows.map(([w, s, c, m], i) => [
      `${w}-${(seed + i * 7919).toString(36)}`,
      odd && i === Math.floor(rows.length / 2) ? 'CrashLoopBackOff' : s,
      `${odd && i === Math.floor(rows.length / 2) ? 100 : c}%`,
      String(m),
      `node-${i % 3}`,
    ]);
    const all = [header, ...cells];
    const widths = header.map((_, c) => Math.max(...all.map((r) => r[c]!.length)));
    const line = (r: string[]) =>
      r
        .map((v, c) => (c === 2 || c === 3 ? v.padStart(widths[c]!) : v.padEnd(widths[c]!)))
        .join(' '.repeat(gap))
        .trimEnd();
    return { text: all.map(line).join('\n'), odd: odd ? line(cells[Math.floor(rows.length / 2)]!) : undefined };
  });

const jsonDoc = fc
  .tuple(
    fc.array(
      fc.record({
        id: fc.integer({ min: 1000, max: 9999 }),
        name: word,
        status: fc.constantFrom<string>('active', 'active', 'active', 'pending'),
        score: fc.integer({ min: 0, max: 100 }),
        tags: fc.array(word, { maxLength: 3 }),
        meta: fc.record({ region: fc.constantFrom('eu', 'us'), ok: fc.boolean() }),
      }),
      { minLength: 3, maxLength: 60 },
    ),
    fc.constantFrom(0, 2, 4),
    fc.boolean(),
    fc.boolean(),
  )
  .map(([objs, indent, odd, nested]) => {
    if (odd) objs[Math.floor(objs.length / 2)] = { ...objs[Math.floor(objs.length / 2)]!, status: 'locked', score: 100_000 };
    const doc = nested ? { page: 1, data: { items: objs } } : objs;
    return { text: JSON.stringify(doc, null, indent), odd: odd ? '"status": "locked"' : undefined, indent };
  });

const records = fc
  .tuple(
    fc.array(fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 100, max: 99999 }), word), { minLength: 3, maxLength: 40 }),
    fc.boolean(),
    fc.boolean(),
    fc.integer({ min: 1, max: 10 }),
    fc.integer({ min: 0, max: 6 }),
  )
  .map(([recs, odd, blankSeparated, preamble, trailer]) => {
    const out: string[] = ['/usr/sbin/mysqld, Version: 8.0.39. started with:', ...Array.from({ length: preamble - 1 }, (_, i) => `option ${i} = on`)];
    recs.forEach(([q, rows, user], i) => {
      const slow = odd && i === Math.floor(recs.length / 2);
      if (blankSeparated) out.push('');
      out.push(
        `# Time: 2026-12-01T09:${String(i % 60).padStart(2, '0')}:00.000000Z`,
        `# User@Host: ${user}[${user}] @  [10.0.0.${i % 250}]  Id: ${1000 + i}`,
        `# Query_time: ${slow ? 98 : q}.000100  Lock_time: 0.000100 Rows_sent: 1  Rows_examined: ${slow ? 99999999 : rows}`,
        `SELECT * FROM t${i % 4} WHERE id = ${rows};`,
      );
    });
    if (trailer > 0) out.push('', ...Array.from({ length: trailer }, (_, i) => `summary ${i}: ${recs.length} queries`));
    return { text: out.join('\n'), odd: odd ? '# Query_time: 98.000100' : undefined };
  });

const keyValue = fc.tuple(fc.array(fc.tuple(word, fc.integer({ min: 1, max: 900 }), fc.integer({ min: 1, max: 90 })), { minLength: 6, maxLength: 40 }), fc.boolean()).map(([ks, odd]) => {
  const out = ['     checks.........................: 98.71%', '     http_reqs......................: 165643'];
  ks.forEach(([w, a, b], i) => {
    const slow = odd && i === Math.floor(ks.length / 2);
    out.push(`       { name:${w}${i} }`.padEnd(32) + `: avg=${slow ? '9.81s' : `${a}ms`} min=${b}ms p(95)=${slow ? '29.7s' : `${a + b}ms`}`);
  });
  out.push('     vus............................: 4');
  return { text: out.join('\n'), odd: odd ? 'p(95)=29.7s' : undefined };
});

const structure = fc.oneof(fixedWidth, jsonDoc, records, keyValue);

/** Line ranges named by elision markers (`lines 5–34, 36`), as line numbers. */
function elidedNumbers(distillate: string): Set<number> {
  const out = new Set<number>();
  for (const l of distillate.split('\n')) {
    if (!/elided|more rows?/.test(l)) continue;
    for (const m of l.matchAll(/lines? (\d+(?:–\d+)?(?:, \d+(?:–\d+)?)*)/g)) {
      for (const part of m[1]!.split(', ')) {
        const [a, b] = part.split('–').map(Number) as [number, number?];
        for (let k = a; k <= (b ?? a); k++) out.add(k);
      }
    }
  }
  return out;
}

/** Every compacted frame accounts for every non-blank line of its block. */
function accountForEveryLine(r: IngestResult, paste: string): void {
  const lines = paste.split(/\r\n|\n|\r/);
  for (const e of r.report) {
    if (e.became.outcome !== 'frame' || !e.lines) continue;
    const id = e.became.id;
    const art = r.store.artifacts.find((a) => a.id === id)!;
    if (!art.compacted) continue;
    const m = /^L(\d+)(?:-(\d+))?$/.exec(e.lines)!;
    const a = Number(m[1]);
    const b = Number(m[2] ?? m[1]);
    const out = art.inline.split('\n');
    const asIs = new Set(out);
    const elided = elidedNumbers(art.inline);
    for (let no = a; no <= b; no++) {
      const l = lines[no - 1]!;
      if (l.trim() === '') continue;
      const ok = asIs.has(`L${no} ${l}`) || out.some((x) => x.startsWith(`L${no} ${l}  ← `)) || asIs.has(l) || elided.has(no);
      assert.ok(ok, `${art.kind} ${e.lines}: line ${no} ${JSON.stringify(l)} is neither quoted nor named as elided:\n${art.inline}`);
    }
  }
}

describe('ingest: structure distillers (properties)', () => {
  it('every line of a table, JSON document, records or key/value block is quoted or named as elided; [full] is the exact bytes', () => {
    fc.assert(
      fc.property(structure, fc.constantFrom('why', 'which one is locked', 'what is slow'), (s, intent) => {
        const paste = `${s.text}\n`;
        const r = ingest({ intent, attachments: [paste] });
        for (const f of r.frames) assert.deepEqual(checkFrame(f, `/${f.id}`), [], f.id);
        accountForEveryLine(r, paste);
        for (const f of requery(r, ['full'])) {
          assert.ok(paste.includes(f.content!), `${f.id}: [full] is not a slice of the paste`);
          assert.equal(`sha256:${createHash('sha256').update(f.content!, 'utf8').digest('hex')}`, f.content_digest);
        }
      }),
      { numRuns: 120 },
    );
  });
  it('an odd row, object, record or line planted in the middle is served verbatim', () => {
    fc.assert(
      fc.property(structure, (s) => {
        fc.pre(s.odd !== undefined && !('indent' in s && s.indent === 0));
        const r = ingest({ intent: 'why', attachments: [`${s.text}\n`] });
        const served = r.frames.map((f) => f.content ?? '').join('\n');
        assert.ok(served.includes(s.odd!), `the odd one out is not served:\n${served}`);
      }),
      { numRuns: 120 },
    );
  });
});
