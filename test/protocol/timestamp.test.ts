import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareProtocolTimestamps, formatProtocolTimestamp, isProtocolTimestamp } from '../../src/protocol/timestamp.js';

const cases: Array<[unknown, boolean, string]> = [
  ['2026-07-20T18:00:00Z', true, 'plain'],
  ['2026-07-20T18:00:00.5Z', true, 'one fraction digit'],
  ['2026-07-20T18:00:00.123456789Z', true, 'many fraction digits'],
  ['2024-02-29T00:00:00Z', true, 'leap day in a leap year'],
  ['2000-02-29T00:00:00Z', true, 'leap day, divisible by 400'],
  ['1900-02-29T00:00:00Z', false, 'no leap day in 1900 (divisible by 100)'],
  ['2023-02-29T00:00:00Z', false, 'no leap day in 2023'],
  ['2026-04-31T00:00:00Z', false, 'April has 30 days'],
  ['2026-12-31T23:59:60Z', true, 'leap second 60'],
  ['2026-12-31T23:59:61Z', false, 'second 61'],
  ['2026-07-20T24:00:00Z', false, 'hour 24'],
  ['2026-07-20T23:60:00Z', false, 'minute 60'],
  ['2026-13-01T00:00:00Z', false, 'month 13'],
  ['2026-00-01T00:00:00Z', false, 'month 0'],
  ['2026-01-00T00:00:00Z', false, 'day 0'],
  ['2026-01-32T00:00:00Z', false, 'day 32'],
  ['2026-13-45T25:61:61Z', false, 'schema-regex-valid nonsense'],
  ['2026-07-20t18:00:00Z', false, 'lowercase t'],
  ['2026-07-20T18:00:00z', false, 'lowercase z'],
  ['2026-07-20 18:00:00Z', false, 'space separator'],
  ['2026-07-20T18:00:00+00:00', false, 'numeric offset'],
  ['2026-07-20T18:00:00', false, 'no zone'],
  ['2026-07-20T18:00:00.Z', false, 'empty fraction'],
  ['2026-07-20T18:00Z', false, 'no seconds'],
  ['26-07-20T18:00:00Z', false, 'two-digit year'],
  ['2026-7-20T18:00:00Z', false, 'one-digit month'],
  ['2026-07-20T18:00:00Z\n', false, 'trailing newline'],
  ['２026-07-20T18:00:00Z', false, 'fullwidth digit'],
  ['last tuesday', false, 'prose'],
  ['', false, 'empty'],
  [null, false, 'null'],
  [1721498400, false, 'number'],
];
for (const [value, ok, why] of cases) {
  test(`F4: isProtocolTimestamp(${JSON.stringify(value)}) = ${ok} (${why})`, () => assert.equal(isProtocolTimestamp(value), ok));
}

test('formatProtocolTimestamp renders seconds, or milliseconds when present, and round-trips', () => {
  assert.equal(formatProtocolTimestamp(new Date(Date.UTC(2026, 6, 20, 18, 0, 0))), '2026-07-20T18:00:00Z');
  assert.equal(formatProtocolTimestamp(new Date(Date.UTC(2024, 1, 29, 1, 2, 3, 45))), '2024-02-29T01:02:03.045Z');
  assert.equal(formatProtocolTimestamp(new Date(Date.parse('0005-01-01T00:00:00Z'))), '0005-01-01T00:00:00Z');
  for (const ms of [0, 1, 951782400000, 1784570400123, 253402300799999]) {
    const s = formatProtocolTimestamp(new Date(ms));
    assert.ok(isProtocolTimestamp(s), s);
    assert.equal(Date.parse(s), ms);
  }
});

test('formatProtocolTimestamp rejects an invalid Date and years outside 0000-9999', () => {
  assert.throws(() => formatProtocolTimestamp(new Date(Number.NaN)), RangeError);
  assert.throws(() => formatProtocolTimestamp(new Date(Date.parse('+010000-01-01T00:00:00Z'))), RangeError);
});

test('compareProtocolTimestamps orders chronologically, not as text', () => {
  assert.equal(compareProtocolTimestamps('2026-01-01T00:00:00Z', '2026-01-01T00:00:00.5Z'), -1); // text order says +1
  assert.equal(compareProtocolTimestamps('2026-01-01T00:00:00.50Z', '2026-01-01T00:00:00.5Z'), 0);
  assert.equal(compareProtocolTimestamps('2026-01-02T00:00:00Z', '2026-01-01T23:59:60Z'), 1);
  assert.equal(compareProtocolTimestamps('2027-01-01T00:00:00Z', '2026-12-31T00:00:00Z'), 1);
  assert.equal(compareProtocolTimestamps('2026-01-01T00:00:00Z', 'nope'), undefined);
});
