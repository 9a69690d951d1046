/**
 * Protocol timestamps (§6.2 F4): `YYYY-MM-DDTHH:MM:SS(.f+)?Z`, a strict subset of RFC 3339 —
 * uppercase `T`, uppercase `Z`, UTC only; no lowercase `t`, no space separator, no numeric
 * offset. We also require a real calendar instant (the schema regex alone accepts
 * `2026-13-45T25:61:61Z`): month 1–12, day valid for the month (Gregorian leap years),
 * hour ≤ 23, minute ≤ 59, second ≤ 60 (a leap second is representable).
 */

// `\d` without the `u` flag is ASCII 0-9 only.
const TIMESTAMP_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?Z$/;

interface Parts {
  fields: [number, number, number, number, number, number];
  fraction: string;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function parse(value: unknown): Parts | undefined {
  if (typeof value !== 'string') return undefined;
  const m = TIMESTAMP_RE.exec(value);
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (month < 1 || month > 12) return undefined;
  if (day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  return { fields: [year, month, day, hour, minute, second], fraction: m[7] ?? '' };
}

function digitsAt(s: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) {
    const c = s.charCodeAt(i) - 0x30;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

// F4: YYYY-MM-DDTHH:MM:SS(.f+)?Z, calendar-valid, UTC `Z` only. The same test as parse() (TIMESTAMP_RE + the
// calendar), without the match arrays: validate runs it on every frame timestamp.
export function isProtocolTimestamp(value: unknown): value is string {
  if (typeof value !== 'string' || value.length < 20) return false;
  const s = value;
  if (s.charCodeAt(4) !== 0x2d || s.charCodeAt(7) !== 0x2d || s.charCodeAt(10) !== 0x54 || s.charCodeAt(13) !== 0x3a || s.charCodeAt(16) !== 0x3a) return false;
  if (s.charCodeAt(s.length - 1) !== 0x5a) return false;
  if (s.length === 20) {
    // no fraction
  } else if (s.charCodeAt(19) !== 0x2e || s.length < 22 || digitsAt(s, 20, s.length - 21) < 0) {
    return false;
  }
  const year = digitsAt(s, 0, 4);
  const month = digitsAt(s, 5, 2);
  const day = digitsAt(s, 8, 2);
  const hour = digitsAt(s, 11, 2);
  const minute = digitsAt(s, 14, 2);
  const second = digitsAt(s, 17, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return false;
  if (month < 1 || month > 12) return false;
  if (day < 1 || day > daysInMonth(year, month)) return false;
  return hour <= 23 && minute <= 59 && second <= 60;
}

/**
 * Chronological comparison of two protocol timestamps (negative, 0, positive), or undefined
 * when either is not one. Plain string order is wrong once fractions differ in length
 * (`…:00.5Z` sorts before `…:00Z` as text).
 */
export function compareProtocolTimestamps(a: unknown, b: unknown): number | undefined {
  const pa = parse(a);
  const pb = parse(b);
  if (!pa || !pb) return undefined;
  for (let i = 0; i < pa.fields.length; i++) {
    const d = pa.fields[i]! - pb.fields[i]!;
    if (d !== 0) return Math.sign(d);
  }
  const width = Math.max(pa.fraction.length, pb.fraction.length);
  const fa = pa.fraction.padEnd(width, '0');
  const fb = pb.fraction.padEnd(width, '0');
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}

/**
 * Render a Date in the protocol profile: `YYYY-MM-DDTHH:MM:SSZ`, or with `.mmm` when the
 * instant has a millisecond part, so each instant has one spelling. Throws RangeError for an
 * invalid Date or a year outside 0000–9999 (caller error, not wire input).
 */
export function formatProtocolTimestamp(date: Date): string {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('formatProtocolTimestamp: invalid Date');
  const year = date.getUTCFullYear();
  if (year < 0 || year > 9999) {
    throw new RangeError(`formatProtocolTimestamp: year ${year} is outside 0000-9999`);
  }
  const two = (n: number) => String(n).padStart(2, '0');
  const base = `${String(year).padStart(4, '0')}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}` + `T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`;
  const millis = date.getUTCMilliseconds();
  return millis === 0 ? `${base}Z` : `${base}.${String(millis).padStart(3, '0')}Z`;
}
