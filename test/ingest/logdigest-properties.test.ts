// Property tests (fast-check) for the template-mining log distiller (docs/interpretations.md §68): over
// generated structured logs (access, logfmt, JSON lines, free text, blank lines) —
// - elisions are explicit: every line of the block is either quoted (`L<n> ` + the line verbatim) or named
//   by the closing `elided` ranges, never both, never neither;
// - a 5xx among 2xx is never lost: it is quoted verbatim with its line number;
// - the template tree is a partition: every line is in exactly one template, whose fixed tokens it carries;
// - through ingest(): frames pass the frame checks and [full] is the exact bytes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { checkFrame } from '../../src/protocol/index.js';
import { ingest } from '../../src/ingest/index.js';
import { DrainTree, tokenise } from '../../src/ingest/drain.js';
import { digestLog } from '../../src/ingest/logdigest.js';
import { requery } from './helpers.js';

const d2 = fc.integer({ min: 0, max: 59 }).map((n) => String(n).padStart(2, '0'));
const ip = fc.tuple(fc.integer({ min: 1, max: 254 }), fc.integer({ min: 0, max: 255 })).map(([a, b]) => `10.0.${b}.${a}`);
const path = fc.constantFrom('/api/v2/orders', '/api/v2/cart', '/healthz', '/static/app.js', '/login', '/api/v2/users/42');
const method = fc.constantFrom('GET', 'POST', 'PUT');
const ok = fc.constantFrom(200, 200, 201, 204, 304);
const word = fc.constantFrom('retry', 'pool', 'flushed', 'cache', 'miss', 'worker', 'é', '文脈', 'done', 'key=v', '"q"', '→');
const access = (status: fc.Arbitrary<number>) =>
  fc
    .tuple(ip, d2, d2, method, path, status, fc.integer({ min: 0, max: 9000 }))
    .map(([i, m, s, me, p, st, b]) => `${i} - - [01/Dec/2026:10:${m}:${s} +0000] "${me} ${p} HTTP/1.1" ${st} ${b} "-" "curl/8.5.0"`);
const logfmt = fc
  .tuple(d2, d2, fc.constantFrom('info', 'debug', 'warn'), path, ok, fc.integer({ min: 1, max: 900 }))
  .map(([m, s, l, p, st, d]) => `time=2026-12-01T10:${m}:${s}Z level=${l} msg="request handled" path=${p} status=${st} duration=${d}ms`);
const json = fc
  .tuple(
    d2,
    d2,
    fc.constantFrom('info', 'debug'),
    path,
    fc.integer({ min: 0x10000000, max: 0x7fffffff }).map((n) => n.toString(16)),
    fc.integer({ min: 1, max: 900 }),
  )
  .map(([m, s, l, p, id, d]) => JSON.stringify({ ts: `2026-12-01T10:${m}:${s}.000Z`, level: l, msg: 'request completed', request_id: `req-${id}`, route: p, duration_ms: d }));
const text = fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));
const line = fc.oneof(
  { weight: 4, arbitrary: access(ok) },
  { weight: 3, arbitrary: logfmt },
  { weight: 3, arbitrary: json },
  { weight: 1, arbitrary: text },
  { weight: 1, arbitrary: fc.constant('') },
);
const log = fc.array(line, { minLength: 1, maxLength: 250 });

/** Parse a digest: quoted line numbers → text, and the elided line numbers. */
function parse(digest: string): { quoted: Map<number, string>; elided: number[] } {
  const quoted = new Map<number, string>();
  const elided: number[] = [];
  for (const l of digest.split('\n')) {
    const q = /^L(\d+) (.*)$/s.exec(l);
    if (q) {
      assert.ok(!quoted.has(Number(q[1])), `line ${q[1]} quoted twice`);
      quoted.set(Number(q[1]), q[2]!);
      continue;
    }
    const e = /^elided \(in \[full\]\): lines (.*?)(?: \(\d+ blank lines?\))?$/.exec(l);
    if (e) {
      for (const part of e[1]!.split(', ')) {
        const [a, b] = part.split('–').map(Number) as [number, number?];
        for (let k = a; k <= (b ?? a); k++) elided.push(k);
      }
    }
  }
  return { quoted, elided };
}

describe('ingest: template-mining log distiller (properties)', () => {
  it('every line is quoted verbatim with its number or named as elided — exactly one of the two', () => {
    fc.assert(
      fc.property(log, fc.integer({ min: 1, max: 500 }), (lines, first) => {
        const digest = digestLog(lines.join('\n'), { firstLineNo: first, terms: [] });
        const { quoted, elided } = parse(digest);
        const seen = new Set<number>();
        for (const n of elided) {
          assert.ok(!seen.has(n) && !quoted.has(n), `line ${n} both elided and quoted (or elided twice)`);
          seen.add(n);
        }
        lines.forEach((l, i) => {
          const no = first + i;
          if (quoted.has(no)) assert.equal(quoted.get(no), l, `line ${no} is not verbatim`);
          else assert.ok(seen.has(no), `line ${no} neither quoted nor elided`);
        });
        assert.equal(quoted.size + seen.size, lines.length);
        assert.match(digest, new RegExp(`^\\[${lines.length}-line log`));
        assert.equal(digestLog(lines.join('\n'), { firstLineNo: first, terms: [] }), digest, 'deterministic');
      }),
      { numRuns: 150 },
    );
  });
  it('a 5xx among 2xx in an access log is quoted verbatim with its line number', () => {
    fc.assert(
      fc.property(fc.array(access(ok), { minLength: 10, maxLength: 300 }), access(fc.constantFrom(500, 502, 503, 504)), fc.nat(), (lines, bad, at) => {
        const k = at % (lines.length + 1);
        const all = [...lines.slice(0, k), bad, ...lines.slice(k)];
        const { quoted } = parse(digestLog(all.join('\n'), { firstLineNo: 1, terms: [] }));
        assert.equal(quoted.get(k + 1), bad, `the 5xx at line ${k + 1} is not quoted`);
      }),
      { numRuns: 150 },
    );
  });
  it('the template tree partitions the lines; each line carries its template’s fixed tokens', () => {
    fc.assert(
      fc.property(log, (lines) => {
        const tree = new DrainTree();
        const keys = lines.filter((l) => l.trim() !== '').map((l) => tokenise(l).tokens.map((t) => t.key));
        keys.forEach((k, i) => tree.add(k, i));
        const owner = new Map<number, number>();
        for (const t of tree.templates) {
          for (const m of t.members) {
            assert.ok(!owner.has(m), `line ${m} in two templates`);
            owner.set(m, t.id);
            assert.equal(keys[m]!.length, t.keys.length);
            t.keys.forEach((k, pos) => {
              if (k !== '<*>') assert.equal(keys[m]![pos], k, `line ${m} pos ${pos}`);
            });
          }
        }
        assert.equal(owner.size, keys.length);
      }),
      { numRuns: 150 },
    );
  });
  it('through ingest(): every frame passes the frame checks and [full] is the exact bytes', () => {
    fc.assert(
      fc.property(log, fc.constantFrom('why are orders failing', 'why', 'is the cart slow'), (lines, intent) => {
        const paste = `${lines.join('\n')}\n`;
        const r = ingest({ intent, attachments: [paste] });
        for (const f of r.frames) assert.deepEqual(checkFrame(f, `/${f.id}`), [], f.id);
        const full = requery(r, ['full']);
        for (const f of full) {
          assert.ok(paste.includes(f.content!), `${f.id}: [full] is not a slice of the paste`);
          assert.equal(`sha256:${createHash('sha256').update(f.content!, 'utf8').digest('hex')}`, f.content_digest);
        }
      }),
      { numRuns: 60 },
    );
  });
});
