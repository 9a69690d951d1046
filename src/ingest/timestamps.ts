/**
 * Leading-timestamp recognition and normalisation to the F4 profile (§6.2: YYYY-MM-DDTHH:MM:SS(.f+)?Z,
 * UTC only). Works on a "byte string" (latin1 view of the UTF-8 bytes: one char per byte), so offsets
 * are byte offsets and every pattern below is ASCII-only.
 *
 * Outcomes: `instant` — normalised exactly and re-checked with the protocol's own F4 validator;
 * `recognized` — a timestamp shape that cannot be normalised exactly (no year, no clock, no date):
 * it counts for classification but NEVER yields a value; `none`.
 *
 * Normalised exactly: ISO-like `YYYY-MM-DD` / `YYYY/MM/DD`, then `T`, `t` or a space, `HH:MM:SS`,
 * optional `.`/`,` fraction (comma → dot, digits kept as written), then a zone: `Z`/`z`, `UTC`,
 * `GMT`, or a numeric offset `±HH:MM` / `±HHMM` (converted to UTC by exact arithmetic — the
 * reference gives up on non-zero offsets); no zone ⇒ read as UTC (the reference's reading, noted in
 * the report). Apache/NCSA `DD/Mon/YYYY:HH:MM:SS ±HHMM`. Bracketed forms: only the text inside the
 * first `[…]` is read.
 */
import { isProtocolTimestamp } from '../protocol/timestamp.js';

export type LeadingTimestamp = { kind: 'none' } | { kind: 'recognized'; end: number; zoneless?: false } | { kind: 'instant'; value: string; end: number; zoneless: boolean };

const NONE: LeadingTimestamp = { kind: 'none' };

const ISO = /(\d{4})([-/])(\d{2})\2(\d{2})(?:[Tt ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,12}))?)?/y;
const ZONE = / ?(Z|z|UTC|GMT|[+-]\d{2}:?\d{2})(?![A-Za-z0-9])/y;
const APACHE = /(\d{2})\/(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\/(\d{4}):(\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,12}))? ([+-]\d{4})/y;
const SYSLOG = /(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) {1,2}\d{1,2} \d{2}:\d{2}:\d{2}/y;
const CLOCK = /\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?![0-9])/y;
const MONTHS: Record<string, number> = { Jan: 1, Feb: 2, Mar: 3, Apr: 4, May: 5, Jun: 6, Jul: 7, Aug: 8, Sep: 9, Oct: 10, Nov: 11, Dec: 12 };

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function daysIn(y: number, m: number): number {
  return m === 2 ? (isLeap(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;
}

/**
 * Exact UTC rendering of a civil time at a fixed offset (minutes east of UTC), or undefined when a
 * field is out of range or the result leaves years 0000–9999. The seconds field (0–60: a leap second
 * stays a leap second) and the fraction are carried over untouched; only Y-M-D h:m move.
 */
export function normalise(y: number, mo: number, d: number, h: number, mi: number, s: number, fraction: string, offsetMinutes: number): string | undefined {
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || s > 60) return undefined;
  let year = y;
  let month = mo;
  let day = d;
  let hour = h;
  let minute = mi;
  if (offsetMinutes !== 0) {
    const date = new Date(0);
    date.setUTCFullYear(y, mo - 1, d);
    date.setUTCHours(h, mi - offsetMinutes, 0, 0);
    year = date.getUTCFullYear();
    month = date.getUTCMonth() + 1;
    day = date.getUTCDate();
    hour = date.getUTCHours();
    minute = date.getUTCMinutes();
    if (year < 0 || year > 9999) return undefined;
  }
  const frac = fraction === '' ? '' : `.${fraction}`;
  const value = `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}:${two(s)}${frac}Z`;
  // F4 guard: nothing outside the profile is ever emitted.
  return isProtocolTimestamp(value) ? value : undefined;
}

function offsetOf(zone: string): number | undefined {
  if (zone === 'Z' || zone === 'z' || zone === 'UTC' || zone === 'GMT') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (!m) return undefined;
  const hh = Number(m[2]);
  const mm = Number(m[3]);
  if (hh > 23 || mm > 59) return undefined;
  return (m[1] === '-' ? -1 : 1) * (hh * 60 + mm);
}

function parseAt(s: string, at: number, limit: number): LeadingTimestamp {
  ISO.lastIndex = at;
  let m = ISO.exec(s);
  if (m && m.index + m[0].length <= limit) {
    let end = at + m[0].length;
    if (end < limit && isDigit(s.charCodeAt(end))) return NONE;
    if (m[5] === undefined) return { kind: 'recognized', end };
    let offset = 0;
    let zoneless = true;
    ZONE.lastIndex = end;
    const z = ZONE.exec(s);
    if (z && z.index + z[0].length <= limit) {
      const o = offsetOf(z[1]!);
      if (o === undefined) return { kind: 'recognized', end: end + z[0].length };
      offset = o;
      zoneless = false;
      end += z[0].length;
    }
    const value = normalise(Number(m[1]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]), Number(m[7]), m[8] ?? '', offset);
    return value === undefined ? { kind: 'recognized', end } : { kind: 'instant', value, end, zoneless };
  }
  APACHE.lastIndex = at;
  m = APACHE.exec(s);
  if (m && m.index + m[0].length <= limit) {
    const end = at + m[0].length;
    const offset = offsetOf(m[8]!);
    const value = offset === undefined ? undefined : normalise(Number(m[3]), MONTHS[m[2]!]!, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]), m[7] ?? '', offset);
    return value === undefined ? { kind: 'recognized', end } : { kind: 'instant', value, end, zoneless: false };
  }
  SYSLOG.lastIndex = at;
  m = SYSLOG.exec(s);
  if (m && m.index + m[0].length <= limit) return { kind: 'recognized', end: at + m[0].length };
  CLOCK.lastIndex = at;
  m = CLOCK.exec(s);
  if (m && m.index + m[0].length <= limit) return { kind: 'recognized', end: at + m[0].length };
  return NONE;
}

/**
 * The timestamp a line starts with, in s[from, to). Leading spaces/tabs are skipped; a line starting
 * with `[` is read only up to its first `]` (none ⇒ no timestamp). `end` is where the timestamp (or
 * its closing bracket) ends.
 */
export function leadingTimestamp(s: string, from: number, to: number): LeadingTimestamp {
  let i = from;
  while (i < to && (s.charCodeAt(i) === 32 || s.charCodeAt(i) === 9)) i++;
  if (i >= to) return NONE;
  if (s.charCodeAt(i) === 91 /* [ */) {
    const close = s.indexOf(']', i + 1);
    if (close < 0 || close >= to) return NONE;
    const inner = parseAt(s, i + 1, close);
    if (inner.kind === 'none') return NONE;
    return { ...inner, end: close + 1 };
  }
  return parseAt(s, i, to);
}

function d(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
}

/**
 * Whether a line starts with a timestamp of any recognised shape — the classification question, which
 * needs no normalisation. The common ISO shape is decided on char codes alone (a 50 MB log asks this
 * once per line); everything else goes through leadingTimestamp.
 */
export function startsWithTimestamp(s: string, from: number, to: number): boolean {
  let i = from;
  while (i < to && (s.charCodeAt(i) === 32 || s.charCodeAt(i) === 9)) i++;
  if (i >= to) return false;
  const c = s.charCodeAt(i);
  const bracket = c === 91;
  const j = bracket ? i + 1 : i;
  if (j + 10 <= to && d(s, j) && d(s, j + 1) && d(s, j + 2) && d(s, j + 3)) {
    const sep = s.charCodeAt(j + 4);
    if ((sep === 45 || sep === 47) && s.charCodeAt(j + 7) === sep && d(s, j + 5) && d(s, j + 6) && d(s, j + 8) && d(s, j + 9)) {
      if (j + 10 === to || !d(s, j + 10)) {
        if (!bracket) return true;
        const close = s.indexOf(']', j);
        return close >= 0 && close < to;
      }
    }
  }
  const first = bracket ? s.charCodeAt(j) : c;
  // every other shape starts with a digit (clock, Apache) or a capital month initial (syslog)
  if (!(first >= 48 && first <= 57) && !(first >= 65 && first <= 90)) return false;
  return leadingTimestamp(s, from, to).kind !== 'none';
}

/** Convenience for a whole (ASCII) string, e.g. a table cell: the F4 instant it normalises to, if any. */
export function normaliseTimestampText(text: string): string | undefined {
  const t = leadingTimestamp(text, 0, text.length);
  return t.kind === 'instant' && t.end === text.length ? t.value : undefined;
}
