/**
 * Wire evidence (docs/interpretations.md §61): the exact envelopes a scenario sent to the target and the lines it received,
 * with direction, connection and the time since the scenario started. It travels as a cucumber attachment
 * of media type application/x-ndjson (one WireEntry per line) and is read back into the JSON report
 * (`findings[].evidence`), the JUnit failure body, the bug reports and coverage.html.
 *
 * A huge line is clipped to EVIDENCE_LINE_LIMIT bytes; the entry then says so and states the full byte count
 * (docs/interpretations.md §61). Nothing is dropped silently: an entry cap is reported as a count.
 */

/** Bytes of one line kept in evidence; longer lines are clipped and say by how much. */
export const EVIDENCE_LINE_LIMIT = 4_096;
/** Entries kept per scenario transcript (later ones are counted, not kept). */
export const EVIDENCE_MAX_ENTRIES = 200;

export interface WireEntry {
  /** sent: harness → target; received: target → harness. */
  direction: 'sent' | 'received';
  /** Which connection: "shared", "fresh-1", … (provider suite) or the scripted provider's label (host suite). */
  connection: string;
  /** Milliseconds since the scenario started; negative = before it (the shared handshake); null = not recorded. */
  t_ms: number | null;
  /** The line as it crossed the wire (without its newline), clipped to EVIDENCE_LINE_LIMIT bytes. */
  line: string;
  /** UTF-8 byte length of the full line. */
  bytes: number;
  /** Set when `line` was clipped. */
  clipped?: true;
  /** Set on a deliberately malformed probe line written raw. */
  raw?: true;
  /** The transport's error code when the received bytes could not be framed/decoded. */
  error?: string;
  /** A note for the reader (e.g. "entries dropped"). */
  note?: string;
  /** For a clipped line that is an envelope: what the clipped part held (type, id, frame count and ids). */
  summary?: string;
}

/** One phrase about a clipped envelope line, from the full line: `frames reply id=q-2: 6 frames (a, b, …)`. */
export function summarizeLine(line: string): string | undefined {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const env = v as Record<string, unknown>;
  const parts = [`${typeof env.type === 'string' ? env.type : 'untyped'} envelope${typeof env.id === 'string' ? ` id=${env.id}` : ''}`];
  const result = env.result && typeof env.result === 'object' ? (env.result as Record<string, unknown>) : undefined;
  if (result && Array.isArray(result.frames)) {
    const ids = result.frames.map((f) => (f && typeof f === 'object' && typeof (f as Record<string, unknown>).id === 'string' ? String((f as Record<string, unknown>).id) : '?'));
    parts.push(`${ids.length} frame${ids.length === 1 ? '' : 's'} (${ids.slice(0, 12).join(', ')}${ids.length > 12 ? ', …' : ''})`);
  }
  if (result) {
    const others = Object.keys(result).filter((k) => k !== 'frames');
    if (others.length > 0) parts.push(`result members: ${others.join(', ')}`);
  }
  return parts.join(': ');
}

/** Clip a line to `limit` UTF-8 bytes without splitting a character. */
export function clipLine(line: string, limit = EVIDENCE_LINE_LIMIT): { line: string; bytes: number; clipped: boolean } {
  // most lines fit: their bytes are counted, not copied out
  const bytes = Buffer.byteLength(line, 'utf8');
  if (bytes <= limit) return { line, bytes, clipped: false };
  const buf = Buffer.from(line, 'utf8');
  let end = limit;
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return { line: buf.subarray(0, end).toString('utf8'), bytes, clipped: true };
}

export function wireEntry(e: { direction: WireEntry['direction']; connection: string; t_ms: number | null; line: string; raw?: boolean; error?: string }): WireEntry {
  const c = clipLine(e.line);
  const out: WireEntry = { direction: e.direction, connection: e.connection, t_ms: e.t_ms, line: c.line, bytes: c.bytes };
  if (c.clipped) {
    out.clipped = true;
    const summary = summarizeLine(e.line);
    if (summary !== undefined) out.summary = summary;
  }
  if (e.raw) out.raw = true;
  if (e.error !== undefined) out.error = e.error;
  return out;
}

/** One attachment body: one JSON entry per line. */
export function encodeTranscript(entries: readonly WireEntry[]): string {
  return entries.map((e) => JSON.stringify(e)).join('\n');
}

/** Read an attachment body back; lines that are not entries are skipped (a foreign x-ndjson attachment). */
export function decodeTranscript(body: string): WireEntry[] {
  const out: WireEntry[] = [];
  for (const line of body.split('\n')) {
    if (line.trim() === '') continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    const e = v as Partial<WireEntry>;
    if ((e.direction === 'sent' || e.direction === 'received') && typeof e.connection === 'string' && typeof e.line === 'string' && typeof e.bytes === 'number') {
      out.push(e as WireEntry);
    }
  }
  return out;
}

/** A human-readable transcript (JUnit bodies, bug reports, text output). */
export function formatTranscript(entries: readonly WireEntry[]): string {
  return entries
    .map((e) => {
      const arrow = e.direction === 'sent' ? '>>' : '<<';
      const at = e.t_ms === null ? '' : `${e.t_ms >= 0 ? '+' : ''}${e.t_ms} ms `;
      const tail = [e.clipped ? `[clipped: ${e.bytes} bytes in full${e.summary ? `; ${e.summary}` : ''}]` : '', e.error ? `[${e.error}]` : '', e.raw ? '[raw probe]' : '', e.note ?? '']
        .filter((s) => s !== '')
        .join(' ');
      return `${arrow} ${e.connection} ${at}${e.line}${tail ? ` ${tail}` : ''}`;
    })
    .join('\n');
}

/**
 * Collects a scenario's wire entries from the connections it uses. `tap()` returns the listener to hand
 * to a connection; entries beyond EVIDENCE_MAX_ENTRIES are counted and reported as one note entry.
 */
export class WireRecorder {
  readonly entries: WireEntry[] = [];
  private dropped = 0;
  private readonly t0 = Date.now();

  add(e: { direction: WireEntry['direction']; connection: string; line: string; at?: number; raw?: boolean; error?: string }): void {
    if (this.entries.length >= EVIDENCE_MAX_ENTRIES) {
      this.dropped++;
      return;
    }
    this.entries.push(wireEntry({ ...e, t_ms: (e.at ?? Date.now()) - this.t0 }));
  }

  /** The transcript, with a final note entry when entries were dropped. */
  transcript(): WireEntry[] {
    if (this.dropped === 0) return [...this.entries];
    return [
      ...this.entries,
      { direction: 'received', connection: '-', t_ms: null, line: '', bytes: 0, note: `${this.dropped} later entr${this.dropped === 1 ? 'y' : 'ies'} not kept (cap ${EVIDENCE_MAX_ENTRIES})` },
    ];
  }
}
