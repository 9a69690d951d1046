// F4 normalisation of leading log timestamps: every shape that can be normalised exactly is, and every
// other shape yields no instant — never a string outside the profile.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isProtocolTimestamp } from '../../src/protocol/index.js';
import { leadingTimestamp, startsWithTimestamp } from '../../src/ingest/timestamps.js';

function instant(line: string): string | undefined {
  const t = leadingTimestamp(line, 0, line.length);
  return t.kind === 'instant' ? t.value : undefined;
}
function kind(line: string): string {
  return leadingTimestamp(line, 0, line.length).kind;
}

describe('ingest: timestamps → F4', () => {
  it('normalises comma fractions, brackets, slash dates, T/t/space, UTC spellings', () => {
    assert.equal(instant('2026-07-20 18:00:01,123 INFO x'), '2026-07-20T18:00:01.123Z');
    assert.equal(instant('[2026-07-20 18:00:01] INFO x'), '2026-07-20T18:00:01Z');
    assert.equal(instant('2026/07/20 18:00:01 x'), '2026-07-20T18:00:01Z');
    assert.equal(instant('2026-07-20t18:00:01z x'), '2026-07-20T18:00:01Z');
    assert.equal(instant('2026-07-20 18:00:01 UTC x'), '2026-07-20T18:00:01Z');
    assert.equal(instant('2026-07-20 18:00:01 GMT x'), '2026-07-20T18:00:01Z');
    assert.equal(instant('2026-07-20T18:00:01+00:00 x'), '2026-07-20T18:00:01Z');
    assert.equal(instant('2026-07-20T18:00:01-0000 x'), '2026-07-20T18:00:01Z');
    assert.equal(instant('  2026-07-20T18:00:01.5Z x'), '2026-07-20T18:00:01.5Z');
  });
  it('converts numeric offsets exactly (the reference drops them), across midnight, months and years', () => {
    assert.equal(instant('2026-07-20T18:00:01+02:00 x'), '2026-07-20T16:00:01Z');
    assert.equal(instant('2026-01-01T01:30:00+0530 x'), '2025-12-31T20:00:00Z');
    assert.equal(instant('2024-02-28T23:00:00-02:00 x'), '2024-02-29T01:00:00Z');
    assert.equal(instant('2016-12-31T23:59:60Z leap'), '2016-12-31T23:59:60Z');
    assert.equal(instant('[20/Jul/2026:18:00:01 +0200] "GET /"'), '2026-07-20T16:00:01Z');
  });
  it('recognises but never emits what cannot be normalised exactly', () => {
    for (const line of [
      'Jul 20 18:00:01 host sshd[1]: x',
      '18:00:01 worker ready',
      '2026-07-20 deploy',
      '2026-02-30 10:00:00 x',
      '2026-07-20 25:00:00 x',
      '2026-07-20T18:00:01+25:00 x',
      '[2026-13-01 00:00:00] x',
    ]) {
      assert.equal(instant(line), undefined, line);
      assert.equal(kind(line), 'recognized', line);
    }
    for (const line of ['INFO no time here', '12345 items', '[2026-07-20 18:00:01 no close', '20260720T180001Z']) assert.equal(kind(line), 'none', line);
  });
  it('the fast classification test agrees with the full parser', () => {
    for (const line of ['2026-07-20 18:00:01,123 INFO x', '[2026-07-20 18:00:01] x', '[2026-07-20 x', 'Jul 20 18:00:01 h', '18:00:01 x', 'x 18:00:01', '2026-07-201', '  2026/07/20 x', '']) {
      assert.equal(startsWithTimestamp(line, 0, line.length), kind(line) !== 'none', line);
    }
  });
  it('every instant is F4', () => {
    for (const line of ['2026-07-20 18:00:01,123456789 x', '0001-01-01T00:30:00+01:00 x', '9999-12-31T23:59:59-01:00 x']) {
      const v = instant(line);
      assert.ok(v === undefined || isProtocolTimestamp(v), `${line} → ${v}`);
    }
    assert.equal(instant('9999-12-31T23:59:59-01:00 x'), undefined, 'the year 10000 is outside F4');
  });
});
