// Splits a byte stream into NDJSON lines incrementally (S2.1: one message per line), for `validate`.
// Lines end at LF (0x0A never occurs inside a multi-byte UTF-8 sequence, so splitting bytes is safe); one
// trailing CR is dropped (CRLF tolerated); a UTF-8 BOM at the very start of the stream is dropped, as the
// whole-file TextDecoder did. A line that is not valid UTF-8 is reported as such (text undefined), never thrown.
// Not the wire's splitter: src/transport/ndjson.ts's LineSplitter caps a line's length and turns framing
// faults into named transport errors (a live peer); this one reads a file a user handed `validate`, whole lines
// of any length.
// State held between chunks: the bytes of the one line still open (a huge line is held whole, nothing else).
import { isUtf8 } from 'node:buffer';

/** `text` is the line without its LF / CRLF; undefined when its bytes are not valid UTF-8. */
export type LineHandler = (lineNumber: number, text: string | undefined) => void;

export class FileLineSplitter {
  private pending: Buffer[] = [];
  private line = 0;
  private started = false;
  /** Most chunk pieces ever held for one open line (instrumentation for the bounded-memory test). */
  maxPendingPieces = 0;

  constructor(private readonly onLine: LineHandler) {}

  push(input: Buffer | Uint8Array | string): void {
    let chunk = typeof input === 'string' ? Buffer.from(input, 'utf8') : Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    if (!this.started) {
      // The BOM check needs the first 3 bytes: hold tiny first chunks until there are 3 (or the stream ends).
      if (this.pending.length > 0) {
        chunk = Buffer.concat([...this.pending, chunk]);
        this.pending = [];
      }
      if (chunk.length < 3) {
        if (chunk.length > 0) this.pending.push(chunk);
        return;
      }
      this.started = true;
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) chunk = chunk.subarray(3);
    }
    let start = 0;
    const first = chunk.indexOf(10);
    if (first === -1) {
      if (chunk.length > 0) this.hold(chunk);
      return;
    }
    if (this.pending.length > 0) {
      this.pending.push(chunk.subarray(0, first));
      const bytes = Buffer.concat(this.pending);
      this.pending = [];
      this.emitBytes(bytes);
      start = first + 1;
    }
    const last = chunk.lastIndexOf(10);
    if (last >= start) {
      const region = chunk.subarray(start, last);
      // Fast path: the complete lines of this chunk decoded and split at once.
      if (isUtf8(region)) {
        for (const piece of region.toString('utf8').split('\n')) this.emitText(piece);
      } else {
        let at = start;
        while (at <= last) {
          const nl = chunk.indexOf(10, at);
          this.emitBytes(chunk.subarray(at, nl));
          at = nl + 1;
        }
      }
    }
    if (last + 1 < chunk.length) this.hold(chunk.subarray(last + 1));
  }

  /** The stream ended: a final line without LF is still a line. */
  end(): void {
    if (!this.started) {
      // fewer than 3 bytes in all: no BOM fits; split them as they are
      const bytes = Buffer.concat(this.pending);
      this.pending = [];
      this.started = true;
      if (bytes.length > 0) this.push(bytes);
    }
    if (this.pending.length > 0) {
      const bytes = Buffer.concat(this.pending);
      this.pending = [];
      this.emitBytes(bytes);
    }
  }

  private hold(piece: Buffer): void {
    this.pending.push(piece);
    if (this.pending.length > this.maxPendingPieces) this.maxPendingPieces = this.pending.length;
  }

  private emitBytes(bytes: Buffer): void {
    if (!isUtf8(bytes)) {
      this.line += 1;
      this.onLine(this.line, undefined);
      return;
    }
    this.emitText(bytes.toString('utf8'));
  }

  private emitText(text: string): void {
    this.line += 1;
    this.onLine(this.line, text.charCodeAt(text.length - 1) === 13 ? text.slice(0, -1) : text);
  }
}
