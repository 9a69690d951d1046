/**
 * A byte-exact line index over one attachment. The attachment is viewed as a "byte string"
 * (latin1: one char per byte) so every offset is a byte offset and no byte is ever translated:
 * a block's [full] bytes are an exact slice of the input (§6.2 "no line-ending translation").
 *
 * Terminators: `\n`, `\r\n` and a lone `\r` all end a line (mixed endings are counted and noted);
 * a terminator at the very end adds no line. Offsets are kept in typed arrays, never one object per
 * line, so a 50 MB paste costs a few bytes per line of index.
 */

export interface LineIndex {
  /** The attachment as a byte string (latin1 view). */
  readonly s: string;
  readonly count: number;
  /** Byte offset where line i starts. */
  readonly start: Uint32Array;
  /** Byte offset where line i's content ends (before its terminator). */
  readonly end: Uint32Array;
  readonly lf: number;
  readonly crlf: number;
  readonly cr: number;
  /** Length in bytes of the longest line. */
  readonly longest: number;
  /** Per line: LINE_CONTENT, LINE_BLANK (spaces/tabs only) or LINE_FENCE (``` or ~~~ after indentation). */
  readonly shape: Uint8Array;
  /** Per line: 1 when its bytes equal the previous line's (identical-line runs, computed while indexing). */
  readonly same: Uint8Array;
}

export const LINE_CONTENT = 0;
export const LINE_BLANK = 1;
export const LINE_FENCE = 2;

function shapeOf(s: string, a: number, b: number): number {
  if (a === b) return LINE_BLANK;
  const c = s.charCodeAt(a);
  // fast path: a line starting with anything but indentation or a fence character is content
  if (c !== 32 && c !== 9 && c !== 12 && c !== 11 && c !== 96 && c !== 126) return LINE_CONTENT;
  if (isBlankRange(s, a, b)) return LINE_BLANK;
  const i = skipSpace(s, a, b);
  return s.startsWith('```', i) || s.startsWith('~~~', i) ? LINE_FENCE : LINE_CONTENT;
}

/** s[a, a+n) === s[b, b+n), compared from the end (neighbouring log lines mostly differ in their tail). */
function sameBytes(s: string, a: number, b: number, n: number): boolean {
  for (let k = n - 1; k >= 0; k--) if (s.charCodeAt(a + k) !== s.charCodeAt(b + k)) return false;
  return true;
}

class Growable {
  a: Uint32Array;
  n = 0;
  constructor(capacity: number) {
    this.a = new Uint32Array(Math.max(16, capacity));
  }
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Uint32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
  done(): Uint32Array {
    return this.a.subarray(0, this.n);
  }
}

export function indexLines(s: string): LineIndex {
  const guess = Math.ceil(s.length / 48) + 16;
  const starts = new Growable(guess);
  const ends = new Growable(guess);
  let lf = 0;
  let crlf = 0;
  let cr = 0;
  let longest = 0;
  const n = s.length;
  let pos = 0;
  const hasCr = s.indexOf('\r') >= 0;
  let shape = new Uint8Array(guess);
  let same = new Uint8Array(guess);
  let prevStart = 0;
  let prevEnd = 0;
  while (pos < n) {
    let nl = s.indexOf('\n', pos);
    let lineEnd: number;
    let next: number;
    if (hasCr) {
      const c = s.indexOf('\r', pos);
      if (c >= 0 && (nl < 0 || c < nl)) {
        if (c + 1 === nl) {
          crlf++;
          lineEnd = c;
          next = nl + 1;
        } else {
          cr++;
          lineEnd = c;
          next = c + 1;
        }
      } else if (nl >= 0) {
        lf++;
        lineEnd = nl;
        next = nl + 1;
      } else {
        lineEnd = n;
        next = n;
      }
    } else if (nl >= 0) {
      lf++;
      lineEnd = nl;
      next = nl + 1;
    } else {
      nl = n;
      lineEnd = n;
      next = n;
    }
    const k = starts.n;
    if (k === shape.length) {
      const grown = new Uint8Array(shape.length * 2);
      grown.set(shape);
      shape = grown;
      const grownSame = new Uint8Array(same.length * 2);
      grownSame.set(same);
      same = grownSame;
    }
    shape[k] = shapeOf(s, pos, lineEnd);
    if (k > 0 && lineEnd - pos === prevEnd - prevStart && sameBytes(s, pos, prevStart, lineEnd - pos)) same[k] = 1;
    prevStart = pos;
    prevEnd = lineEnd;
    starts.push(pos);
    ends.push(lineEnd);
    if (lineEnd - pos > longest) longest = lineEnd - pos;
    pos = next;
  }
  const lines = starts.n;
  return { s, count: lines, start: starts.done(), end: ends.done(), lf, crlf, cr, longest, shape: shape.subarray(0, lines), same: same.subarray(0, lines) };
}

/** Spaces, tabs, form feeds and vertical tabs only (never U+00A0: in the byte view that is a UTF-8 continuation byte). */
export function isBlankRange(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 12 && c !== 11) return false;
  }
  return true;
}

/** Index of the first non-space/tab char in [from, to), or `to`. */
export function skipSpace(s: string, from: number, to: number): number {
  let i = from;
  while (i < to) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 9) break;
    i++;
  }
  return i;
}

/** ASCII-whitespace trim (never trims U+00A0, a UTF-8 continuation byte in the byte view). */
export function asciiTrim(t: string): string {
  let a = 0;
  let b = t.length;
  while (a < b && isWs(t.charCodeAt(a))) a++;
  while (b > a && isWs(t.charCodeAt(b - 1))) b--;
  return a === 0 && b === t.length ? t : t.slice(a, b);
}

function isWs(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11;
}

/** Decode a byte string (latin1 view) back to the text its UTF-8 bytes spell. */
export function bytesToText(byteString: string): string {
  return Buffer.from(byteString, 'latin1').toString('utf8');
}

/**
 * Cut a byte-string line to at most `max` bytes without splitting a UTF-8 sequence, with an explicit
 * marker saying how many bytes were left out.
 */
export function clipLine(line: string, max: number, marker: (text: string) => string = (t) => t): string {
  if (line.length <= max) return line;
  let cut = max;
  while (cut > 0 && (line.charCodeAt(cut) & 0xc0) === 0x80) cut--;
  return `${line.slice(0, cut)}${marker(` … (${line.length - cut} more bytes of this line)`)}`;
}
