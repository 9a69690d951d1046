// A bounded record of the raw lines (or HTTP bodies) that crossed a connection, for wire inspection.
// Oldest entries are dropped first once either cap is reached; a single over-long line is stored truncated.

export interface TranscriptEntry {
  direction: 'in' | 'out';
  /** The line as sent/received, without its `\n` (lossy text for undecodable input, '' when unavailable). */
  line: string;
  /** Milliseconds since the connection was opened. */
  at: number;
  /** Set on a final inbound line that had no newline at EOF. */
  unterminated?: true;
  /** Set when `line` was cut to fit the transcript's byte cap. */
  truncated?: true;
  /** Set on an outbound entry written with sendRaw (a deliberately malformed probe, exempt from wire checks). */
  raw?: true;
  /** The TransportError code when the inbound bytes could not be framed/decoded. */
  error?: string;
  /**
   * Set on an inbound HTTP response with an empty body (204, or any 2xx with no bytes): no reply. The HTTP
   * binding carries one envelope per body, so an empty body is silence, never a line to frame-check.
   */
  noReply?: true;
}

export interface TranscriptOptions {
  /** Default 10 000 entries; 0 keeps nothing (the onLine hook still fires). */
  maxEntries?: number;
  /** Default 8 MiB of line text (counted in UTF-16 code units, i.e. string length). */
  maxChars?: number;
  /** Called with every entry, before capping, with the full untruncated line. */
  onLine?: (entry: TranscriptEntry) => void;
}

export class Transcript {
  readonly entries: TranscriptEntry[] = [];
  private chars = 0;
  private droppedCount = 0;
  private readonly maxEntries: number;
  private readonly maxChars: number;
  private readonly onLine: ((entry: TranscriptEntry) => void) | undefined;
  private readonly t0 = Date.now();

  constructor(opts: TranscriptOptions = {}) {
    this.maxEntries = opts.maxEntries ?? 10_000;
    this.maxChars = opts.maxChars ?? 8 * 1024 * 1024;
    this.onLine = opts.onLine;
  }

  /** Entries dropped from the front because of the caps. */
  get dropped(): number {
    return this.droppedCount;
  }

  record(entry: Omit<TranscriptEntry, 'at'>): void {
    const full: TranscriptEntry = { ...entry, at: Date.now() - this.t0 };
    if (this.onLine) {
      try {
        this.onLine(full);
      } catch (err) {
        // A faulty hook must not take the reader down with it; it is reported, not swallowed.
        process.emitWarning(`transcript onLine hook threw: ${(err as Error)?.message ?? String(err)}`);
      }
    }
    if (this.maxEntries === 0) {
      this.droppedCount++;
      return;
    }
    let stored = full;
    const perLine = Math.floor(this.maxChars / 4);
    if (full.line.length > perLine) stored = { ...full, line: full.line.slice(0, perLine), truncated: true };
    this.entries.push(stored);
    this.chars += stored.line.length;
    while (this.entries.length > this.maxEntries || (this.chars > this.maxChars && this.entries.length > 1)) {
      const old = this.entries.shift()!;
      this.chars -= old.line.length;
      this.droppedCount++;
    }
  }
}
