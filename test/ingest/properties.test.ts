// Property tests (fast-check): for any paste, every served frame passes the frame checks of src/protocol,
// every [full] is byte-exact (and the store's bytes always are), no non-blank input line is left out of
// the report, and no timestamp outside the F4 profile is ever emitted.
import assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { checkFrame, isProtocolTimestamp } from '../../src/protocol/index.js';
import { createIngestProvider, ingest, leadingTimestamp, type IngestResult } from '../../src/ingest/index.js';
import type { ContextFrame } from '../../generated/types/index.js';

const sha = (b: Uint8Array | string) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const d2 = fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, '0'));
const stamp = fc
  .tuple(
    fc.integer({ min: 0, max: 9999 }),
    d2,
    d2,
    d2,
    d2,
    d2,
    fc.constantFrom('', ',250', '.5', '.123456789'),
    fc.constantFrom('', 'Z', 'z', ' UTC', '+02:00', '-0530', '+00:00', ' GMT', '+99:99'),
    fc.constantFrom(' ', 'T', 't', '/'),
  )
  .map(([y, mo, d, h, mi, s, f, z, sep]) => {
    const date = sep === '/' ? `${String(y).padStart(4, '0')}/${mo}/${d} ` : `${String(y).padStart(4, '0')}-${mo}-${d}${sep}`;
    return `${date}${h}:${mi}:${s}${f}${z}`;
  });
const level = fc.constantFrom('INFO', 'WARN', 'ERROR', 'DEBUG', 'FATAL', 'notice', '');
const word = fc.constantFrom('retry', 'pool', 'é', '文脈', '😀', 'x', '42', '"q"', 'a,b', '|', '\t', '  ', '</frame>');
const words = fc.array(word, { maxLength: 8 }).map((w) => w.join(' '));
const line = fc.oneof(
  fc.tuple(stamp, level, words).map(([t, l, w]) => `${t} ${l} ${w}`),
  fc.tuple(fc.constantFrom('[', ''), stamp, fc.constantFrom(']', '')).map(([a, t, b]) => `${a}${t}${b} ${'msg'}`),
  words.map((w) => `\tat com.acme.${w.replace(/\W/g, '') || 'X'}.run(Run.java:1)`),
  fc.constantFrom(
    'java.lang.IllegalStateException: boom',
    'Traceback (most recent call last):',
    '  File "a.py", line 1, in f',
    'panic: boom',
    "thread 'main' panicked at src/a.rs:1:1:",
    'Caused by: x.YError: z',
  ),
  fc.tuple(words, words, fc.integer()).map(([a, b, n]) => `${a},"${b.replace(/"/g, '""')}",${n}`),
  fc.tuple(words, words).map(([a, b]) => `| ${a} | ${b} |`),
  fc.constantFrom('```', '~~~', 'fn main() {', '}', 'const a = 1;', './src/net', '/abs/path.rs', 'https://example.com/x', ''),
  words,
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);
const eol = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r', '\n\n');
const textAttachment = fc.array(fc.tuple(line, eol), { maxLength: 60 }).map((ls) => ls.map(([l, e]) => l + e).join(''));
const attachment: fc.Arbitrary<Uint8Array | string> = fc.oneof(
  { weight: 5, arbitrary: textAttachment },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }) },
  { weight: 1, arbitrary: fc.tuple(textAttachment, fc.uint8Array({ maxLength: 8 })).map(([t, b]) => Buffer.concat([Buffer.from(t), Buffer.from(b), Buffer.from(t)])) },
);
const paste = fc.array(attachment, { minLength: 1, maxLength: 4 });

function served(r: IngestResult, representation: string): ContextFrame[] {
  const p = createIngestProvider(r.store, { transport: false });
  const env = p.handle({ type: 'query', query: { goal: 'g', max_frames: 1000, max_tokens: 1e9, representation_preferences: [representation] } }).envelopes[0] as unknown as {
    result: { frames: ContextFrame[] };
  };
  return env.result.frames;
}

const RUNS = { numRuns: 150 };

describe('ingest: properties (fast-check)', () => {
  it('every served frame, in every representation, passes the frame checks of src/protocol', () => {
    fc.assert(
      fc.property(paste, (atts) => {
        const r = ingest({ intent: 'why', attachments: atts });
        for (const rep of ['compact', 'full', 'reference']) {
          for (const f of served(r, rep)) assert.deepEqual(checkFrame(f, `/${f.id}`), [], `${rep} ${f.id}`);
        }
        for (const f of r.frames) assert.deepEqual(checkFrame(f, `/${f.id}`), []);
      }),
      RUNS,
    );
  });
  it('every [full] is byte-exact: the store holds the exact bytes under canonical_content_hash; valid UTF-8 comes back unchanged on the wire', () => {
    fc.assert(
      fc.property(paste, (atts) => {
        const r = ingest({ intent: 'why', attachments: atts });
        const full = new Map(served(r, 'full').map((f) => [f.id, f]));
        for (const f of r.frames) {
          const bytes = r.store.resolveBytes(f.id)!;
          assert.equal(sha(bytes), f.canonical_content_hash);
          const g = full.get(f.id)!;
          if (isUtf8(bytes)) {
            assert.equal(g.content_fidelity, 'exact');
            assert.ok(Buffer.from(g.content!, 'utf8').equals(Buffer.from(bytes)), f.id);
            assert.equal(g.content_digest, f.canonical_content_hash);
          } else {
            assert.equal(g.content_fidelity, 'normalized');
            assert.equal(g.content_digest, sha(g.content!));
          }
        }
      }),
      RUNS,
    );
  });
  it('no non-blank line of any attachment is left out of the report', () => {
    fc.assert(
      fc.property(paste, (atts) => {
        const r = ingest({ intent: 'why', attachments: atts.map((content, i) => ({ name: `a${i}`, content })) });
        atts.forEach((content, i) => {
          const text = Buffer.from(typeof content === 'string' ? Buffer.from(content) : content).toString('latin1');
          const lines = text.split(/\r\n|\n|\r/);
          if (lines.at(-1) === '') lines.pop();
          const covered = new Set<number>();
          for (const e of r.report.filter((x) => x.attachment === `a${i}` && x.lines)) {
            const [a, b] = e.lines!.slice(1).split('-').map(Number) as [number, number?];
            for (let k = a; k <= (b ?? a); k++) covered.add(k);
          }
          lines.forEach((l, k) => {
            if (/[^ \t\f\v]/.test(l)) assert.ok(covered.has(k + 1), `a${i} line ${k + 1} ${JSON.stringify(l)} not covered`);
          });
        });
      }),
      RUNS,
    );
  });
  it('no timestamp outside the F4 profile is ever emitted (frames, and the normaliser on any text)', () => {
    fc.assert(
      fc.property(paste, (atts) => {
        const r = ingest({ intent: 'why', attachments: atts });
        for (const f of [...r.frames, ...served(r, 'full')]) {
          for (const k of ['valid_from', 'valid_to', 'recorded_at'] as const) if (f[k] !== undefined) assert.ok(isProtocolTimestamp(f[k]), `${k} ${f[k]}`);
        }
      }),
      RUNS,
    );
    fc.assert(
      fc.property(
        fc.oneof(
          stamp,
          fc.string(),
          fc.tuple(fc.constantFrom('[', ''), stamp, fc.string()).map(([a, b, c]) => a + b + c),
        ),
        (text) => {
          const t = leadingTimestamp(text, 0, text.length);
          if (t.kind === 'instant') assert.ok(isProtocolTimestamp(t.value), `${text} → ${t.value}`);
        },
      ),
      { numRuns: 2000 },
    );
  });
  it('the same paste in any attachment order serves the same frames', () => {
    fc.assert(
      fc.property(paste, fc.integer(), (atts, seed) => {
        const shuffled = [...atts].sort(() => 0).reverse();
        if (seed % 2) shuffled.push(shuffled.shift()!);
        assert.deepEqual(ingest({ intent: 'why', attachments: shuffled }).frames, ingest({ intent: 'why', attachments: atts }).frames);
      }),
      { numRuns: 80 },
    );
  });
});
