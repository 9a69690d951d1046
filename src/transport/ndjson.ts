// NDJSON framing for the stdio binding (spec "Transport": exactly one envelope per line; an envelope MUST NOT
// contain a literal newline). Generic: no protocol logic beyond "a JSON object tagged by a string `type`".
//
// LineSplitter turns a byte stream into lines incrementally. It never holds more than `maxLineBytes` of a
// pending line (plus the chunk being scanned): the error is raised as soon as the pending bytes of one line
// exceed the cap, and the rest of that line is discarded up to its newline, after which splitting resumes.
import { DEFAULT_MAX_LINE_BYTES, EofMidLineError, InvalidUtf8Error, LineTooLongError, LiteralNewlineError, NotAnEnvelopeError, TransportError, clip } from './errors.js';

/** What to do with bytes after the last newline when the stream ends. */
export type EofMidLinePolicy =
  /** Deliver them as a final line marked `terminated: false` (what the reference host does). */
  | 'deliver'
  /** Report an EofMidLineError instead. */
  | 'error';

export interface LineSplitterOptions {
  /** Cap on the bytes of one line, excluding its `\n` (default 16 MiB). */
  maxLineBytes?: number;
  /** Default 'deliver'. */
  eofMidLine?: EofMidLinePolicy;
}

export type LineItem =
  | {
      kind: 'line';
      /** The decoded line, without `\n` and without one trailing `\r`. */
      text: string;
      /** 1-based line number in the stream. */
      line: number;
      /** Byte offset of the line's first byte in the stream. */
      offset: number;
      /** false only for a final line delivered at EOF without a newline. */
      terminated: boolean;
    }
  | { kind: 'error'; error: TransportError; line: number };

const NL = 0x0a;
const CR = 0x0d;

const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lossyDecoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** Index of the first byte that makes `bytes` ill-formed UTF-8, or -1 when it is well-formed. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const c = bytes[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c === 0xe0) lo = 0xa0;
      else if (c === 0xed) hi = 0x9f; // no UTF-16 surrogates
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c === 0xf0) lo = 0x90;
      else if (c === 0xf4) hi = 0x8f; // nothing above U+10FFFF
    } else return i;
    for (let k = 1; k <= need; k++) {
      if (i + k >= n) return i; // truncated sequence
      const b = bytes[i + k]!;
      if (k === 1 ? b < lo || b > hi : b < 0x80 || b > 0xbf) return i;
    }
    i += need + 1;
  }
  return -1;
}

/**
 * Strict UTF-8 decoding; throws InvalidUtf8Error (line 0 / offset 0 describe an HTTP body).
 * `what` names the thing in the message ("line 3", "HTTP response body").
 */
export function decodeUtf8Strict(bytes: Uint8Array, line = 0, streamOffset = 0, what?: string): string {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    const at = Math.max(0, firstInvalidUtf8(bytes));
    throw new InvalidUtf8Error(line, streamOffset, at, lossyDecoder.decode(bytes), what ?? (line > 0 ? `line ${line}` : 'body'));
  }
}

const precedingLinesOf = new WeakMap<TransportError, string[]>();

/** For an error thrown by `LineSplitter.push`/`end`: the lines completed before it in the same call. */
export function linesBeforeError(err: unknown): string[] {
  return (err instanceof TransportError && precedingLinesOf.get(err)) || [];
}

export class LineSplitter {
  readonly maxLineBytes: number;
  readonly eofMidLine: EofMidLinePolicy;
  private pending: Buffer[] = [];
  private pendingLen = 0;
  /** Discarding the rest of an over-long line up to its newline. */
  private skipping = false;
  /** Lines finished so far (the current line is number `finished + 1`). */
  private finished = 0;
  /** Stream offset of the current line's first byte. */
  private lineStart = 0;
  /** Total bytes pushed. */
  private consumed = 0;
  private ended = false;
  private deferred: LineItem[] = [];
  private lastUnterminated = false;

  constructor(opts: LineSplitterOptions = {}) {
    this.maxLineBytes = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.eofMidLine = opts.eofMidLine ?? 'deliver';
    if (!Number.isSafeInteger(this.maxLineBytes) || this.maxLineBytes < 1) throw new RangeError('maxLineBytes must be a positive integer');
  }

  /** Bytes currently held for an unfinished line (never more than maxLineBytes). */
  get pendingBytes(): number {
    return this.pendingLen;
  }

  /** True once `end()` delivered a final line that had no newline. */
  get deliveredUnterminatedLine(): boolean {
    return this.lastUnterminated;
  }

  /** Split a chunk; framing errors are returned as items (never thrown), so a reader can keep going. */
  pushItems(chunk: Uint8Array | string): LineItem[] {
    if (this.ended) throw new Error('LineSplitter: push after end');
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const items: LineItem[] = [];
    const base = this.consumed;
    this.consumed += buf.length;
    let start = 0;
    while (start < buf.length) {
      const nl = buf.indexOf(NL, start);
      const end = nl === -1 ? buf.length : nl;
      if (this.skipping) {
        if (nl === -1) break;
        this.skipping = false;
        this.finishLine(base + nl + 1);
        start = nl + 1;
        continue;
      }
      const seen = this.pendingLen + (end - start);
      if (seen > this.maxLineBytes) {
        items.push({ kind: 'error', error: new LineTooLongError(this.maxLineBytes, seen), line: this.finished + 1 });
        this.pending = [];
        this.pendingLen = 0;
        if (nl === -1) {
          this.skipping = true;
          break;
        }
        this.finishLine(base + nl + 1);
        start = nl + 1;
        continue;
      }
      if (nl === -1) {
        // Copy: the tail must not pin the caller's (possibly large or pooled) chunk.
        this.pending.push(Buffer.from(buf.subarray(start)));
        this.pendingLen += buf.length - start;
        break;
      }
      const piece = buf.subarray(start, nl);
      const bytes = this.pendingLen > 0 ? Buffer.concat([...this.pending, piece]) : piece;
      items.push(this.decode(bytes, true));
      this.pending = [];
      this.pendingLen = 0;
      this.finishLine(base + nl + 1);
      start = nl + 1;
    }
    return items;
  }

  /** Signal end of stream; returns the final unterminated line (policy 'deliver') or an EofMidLine error item. */
  endItems(): LineItem[] {
    if (this.ended) return [];
    this.ended = true;
    if (this.skipping) {
      this.skipping = false;
      return []; // the over-long line was already reported
    }
    if (this.pendingLen === 0) return [];
    const bytes = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingLen = 0;
    if (this.eofMidLine === 'error') {
      return [{ kind: 'error', error: new EofMidLineError(bytes.length, clip(lossyDecoder.decode(bytes), 200)), line: this.finished + 1 }];
    }
    this.lastUnterminated = true;
    return [this.decode(bytes, false)];
  }

  /**
   * Strict convenience over pushItems: returns the complete lines, or throws the first framing error.
   * When it throws, `linesBeforeError(err)` gives the lines completed before the error in this call, and
   * whatever followed the error in the chunk is returned (or thrown) by the next push()/end() call.
   */
  push(chunk: Uint8Array | string): string[] {
    return this.unwrap([...this.takeDeferred(), ...this.pushItems(chunk)]);
  }

  /** Strict convenience over endItems (see push). */
  end(): string[] {
    return this.unwrap([...this.takeDeferred(), ...this.endItems()]);
  }

  private takeDeferred(): LineItem[] {
    const d = this.deferred;
    this.deferred = [];
    return d;
  }

  private unwrap(items: LineItem[]): string[] {
    const lines: string[] = [];
    for (let i = 0; i < items.length; i++) {
      const it = items[i]!;
      if (it.kind === 'line') {
        lines.push(it.text);
        continue;
      }
      this.deferred = items.slice(i + 1);
      precedingLinesOf.set(it.error, lines);
      throw it.error;
    }
    return lines;
  }

  private finishLine(nextLineStart: number): void {
    this.finished++;
    this.lineStart = nextLineStart;
  }

  private decode(bytes: Buffer, terminated: boolean): LineItem {
    const line = this.finished + 1;
    const offset = this.lineStart;
    const body = bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.subarray(0, bytes.length - 1) : bytes;
    try {
      return { kind: 'line', text: decodeUtf8Strict(body, line, offset), line, offset, terminated };
    } catch (err) {
      return { kind: 'error', error: err as TransportError, line };
    }
  }
}

/** Serialise one envelope as an NDJSON line (JSON + `\n`). Asserts S2.1-no-newline. */
export function encodeLine(envelope: unknown): string {
  const json = JSON.stringify(envelope);
  if (json === undefined) throw new TypeError('encodeLine: value is not JSON-serialisable');
  if (json.includes('\n')) throw new LiteralNewlineError();
  return `${json}\n`;
}

/** An envelope as far as framing is concerned: a JSON object tagged by a string `type`. */
export interface RawEnvelope {
  type: string;
  [member: string]: unknown;
}

/**
 * Parse one line (or HTTP body) as an envelope. Returns the object, or a NotAnEnvelopeError (returned, not
 * thrown) when the text is not JSON, not an object, or has no string `type`. No schema validation here.
 */
export function parseEnvelopeLine(line: string): RawEnvelope | NotAnEnvelopeError {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return new NotAnEnvelopeError(`invalid JSON: ${(err as Error).message}`, line);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return new NotAnEnvelopeError(`a JSON ${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}, not an object`, line);
  }
  if (typeof (value as { type?: unknown }).type !== 'string') {
    return new NotAnEnvelopeError('object has no string "type" member', line);
  }
  return value as RawEnvelope;
}
