// The hand-written grammar checks validate runs on every frame accept exactly what the regexes did.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { isWellFormedDigest, sha256Digest } from '../../src/protocol/digest.js';
import { isProtocolTimestamp } from '../../src/protocol/timestamp.js';

const DIGEST_RE = /^sha256:[0-9a-f]{64}$/;
const TIMESTAMP_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?Z$/;

function oracleTimestamp(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const m = TIMESTAMP_RE.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as number[];
  const leap = (year! % 4 === 0 && year! % 100 !== 0) || year! % 400 === 0;
  const dim = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month!) ? 30 : 31;
  return month! >= 1 && month! <= 12 && day! >= 1 && day! <= dim && hour! <= 23 && minute! <= 59 && second! <= 60;
}

/** Strings near the grammar: a valid-looking skeleton with characters swapped, dropped or added. */
const nearTimestamp = fc
  .tuple(
    fc.integer({ min: 0, max: 9999 }),
    fc.integer({ min: 0, max: 13 }),
    fc.integer({ min: 0, max: 32 }),
    fc.integer({ min: 0, max: 25 }),
    fc.integer({ min: 0, max: 61 }),
    fc.integer({ min: 0, max: 61 }),
    fc.option(fc.stringMatching(/^[0-9]{0,12}$/)),
    fc.array(fc.tuple(fc.nat(30), fc.constantFrom('', 'x', '0', '9', '.', 'Z', 'z', 'T', 't', '-', ':', ' ', '٣', '+')), { maxLength: 2 }),
  )
  .map(([y, mo, d, h, mi, s, frac, edits]) => {
    const p = (n: number, w: number) => String(n).padStart(w, '0');
    let text = `${p(y, 4)}-${p(mo, 2)}-${p(d, 2)}T${p(h, 2)}:${p(mi, 2)}:${p(s, 2)}${frac === null ? '' : `.${frac}`}Z`;
    for (const [at, ch] of edits) text = text.slice(0, at) + ch + text.slice(at + (ch === '' ? 1 : 0));
    return text;
  });

test('isProtocolTimestamp accepts exactly the F4 regex + calendar', () => {
  fc.assert(
    fc.property(fc.oneof(nearTimestamp, fc.string(), fc.anything()), (v) => isProtocolTimestamp(v) === oracleTimestamp(v)),
    { numRuns: 20_000 },
  );
  for (const v of ['2024-02-29T00:00:00Z', '2023-02-29T00:00:00Z', '2026-01-01T23:59:60.000001Z', '2026-01-01T00:00:00.Z', '2026-01-01T00:00:00Zx', '2026-13-01T00:00:00Z']) {
    assert.equal(isProtocolTimestamp(v), oracleTimestamp(v), v);
  }
});

test('isWellFormedDigest accepts exactly /^sha256:[0-9a-f]{64}$/', () => {
  const nearDigest = fc.tuple(fc.stringMatching(/^[0-9a-fA-Fg]{62,66}$/), fc.constantFrom('sha256:', 'SHA256:', 'sha256', 'sha512:', '')).map(([hex, prefix]) => prefix + hex);
  fc.assert(
    fc.property(fc.oneof(nearDigest, fc.string(), fc.anything()), (v) => isWellFormedDigest(v) === (typeof v === 'string' && DIGEST_RE.test(v))),
    { numRuns: 20_000 },
  );
  assert.equal(isWellFormedDigest(`sha256:${'a'.repeat(64)}\n`), false);
});

test('sha256Digest equals createHash for strings (UTF-8, lone surrogates) and bytes', () => {
  fc.assert(
    fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.string(), fc.uint8Array()), (v) => {
      const want = `sha256:${createHash('sha256')
        .update(v as never)
        .digest('hex')}`;
      return sha256Digest(v) === want;
    }),
    { numRuns: 5_000 },
  );
});
