// Named transport failures. Every failure the wire can produce is one of these classes, with a stable
// `code` and a message that starts with the rule it concerns (S2.1 framing, C7 TLS, H4 correlation, …).
// None of them ever carries request headers or credential material (C8): URLs are passed through
// `redactUrl` before they reach a message.

/** The default cap on one NDJSON line and on one HTTP body (docs/interpretations.md §12; reference host 16 MiB). */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

export type TransportErrorCode =
  | 'line_too_long'
  | 'body_too_large'
  | 'invalid_utf8'
  | 'eof_mid_line'
  | 'timeout'
  | 'peer_closed'
  | 'connection_closed'
  | 'spawn_failed'
  | 'http_status'
  | 'network'
  | 'invalid_url'
  | 'insecure_transport'
  | 'not_an_envelope'
  | 'literal_newline'
  | 'correlation';

export class TransportError extends Error {
  readonly code: TransportErrorCode;
  constructor(code: TransportErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** S2.1: a line (bytes before its `\n`) grew past the cap. Raised as soon as the pending bytes exceed it. */
export class LineTooLongError extends TransportError {
  readonly limit: number;
  /** Bytes of the offending line seen when the cap was crossed (> limit). */
  readonly seenBytes: number;
  constructor(limit: number, seenBytes: number, code: 'line_too_long' | 'body_too_large' = 'line_too_long', message?: string) {
    super(code, message ?? `S2.1: line exceeds ${limit} bytes (${seenBytes} bytes seen without a newline)`);
    this.limit = limit;
    this.seenBytes = seenBytes;
  }
}

/** An HTTP body over the cap: the HTTP binding's counterpart of LineTooLongError (instanceof both). */
export class BodyTooLargeError extends LineTooLongError {
  constructor(limit: number, seenBytes: number, where: string) {
    super(limit, seenBytes, 'body_too_large', `S2.1: HTTP ${where} body exceeds ${limit} bytes (${seenBytes} bytes seen)`);
  }
}

/** A line (or HTTP body) that is not well-formed UTF-8. */
export class InvalidUtf8Error extends TransportError {
  /** 1-based line number within the stream (0 for an HTTP body). */
  readonly line: number;
  /** Byte offset of the start of the line within the stream. */
  readonly streamOffset: number;
  /** Byte offset of the first invalid byte within the line. */
  readonly byteInLine: number;
  /** Lossy (U+FFFD) decoding of the line, for diagnostics. */
  readonly lossyText: string;
  constructor(line: number, streamOffset: number, byteInLine: number, lossyText: string, what = `line ${line}`) {
    super(
      'invalid_utf8',
      `S2.1: ${what} is not valid UTF-8 (first invalid byte at offset ${byteInLine} of the ${line > 0 ? 'line' : 'body'}` + (line > 0 ? `, stream offset ${streamOffset + byteInLine})` : ')'),
    );
    this.line = line;
    this.streamOffset = streamOffset;
    this.byteInLine = byteInLine;
    this.lossyText = lossyText;
  }
}

/** The stream ended in the middle of a line (bytes after the last `\n`). */
export class EofMidLineError extends TransportError {
  readonly pendingBytes: number;
  /** Lossy decoding of the pending bytes, truncated, for diagnostics. */
  readonly preview: string;
  constructor(pendingBytes: number, preview: string) {
    super('eof_mid_line', `S2.1: stream ended mid-line (${pendingBytes} bytes after the last newline): ${JSON.stringify(preview)}`);
    this.pendingBytes = pendingBytes;
    this.preview = preview;
  }
}

/** What a request was, for a timeout message: `query id "q-3"`, `handshake contextgraph/2.0`. */
export function describeOutstanding(envelope: unknown): string {
  if (envelope === null || typeof envelope !== 'object') return 'a request';
  const e = envelope as Record<string, unknown>;
  const type = typeof e.type === 'string' ? e.type : 'an envelope';
  if (type === 'handshake') return `handshake ${typeof e.protocol_version === 'string' ? e.protocol_version : ''}`.trim();
  return typeof e.id === 'string' ? `${type} id ${JSON.stringify(e.id)}` : `${type} (no id)`;
}

export type TimeoutWhat = 'handshake' | 'request' | 'read' | 'write' | 'shutdown';

/** A bounded wait expired. `failFast` marks a read refused because the target already stalled earlier. */
export class TimeoutError extends TransportError {
  readonly what: TimeoutWhat;
  readonly ms: number;
  readonly failFast: boolean;
  /** For failFast errors: how long the target has been unresponsive. */
  readonly unresponsiveForMs: number | undefined;
  constructor(what: TimeoutWhat, ms: number, opts: { failFast?: boolean; unresponsiveForMs?: number; detail?: string } = {}) {
    const failFast = opts.failFast ?? false;
    const msg = failFast ? `${what}: target unresponsive since ${opts.unresponsiveForMs ?? 0} ms (an earlier read timed out); failing fast` : `${what} timed out after ${ms} ms`;
    super('timeout', opts.detail ? `${msg}: ${opts.detail}` : msg);
    this.what = what;
    this.ms = ms;
    this.failFast = failFast;
    this.unresponsiveForMs = opts.unresponsiveForMs;
  }
}

export interface PeerExit {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
}

/** The peer went away: EOF on its stdout, EPIPE on its stdin, or the process exited. */
export class PeerClosedError extends TransportError {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The last bytes the peer wrote to stderr (bounded), if captured. */
  readonly stderrTail: string;
  constructor(during: string, exit: Partial<PeerExit> = {}, stderrTail = '', options?: { cause?: unknown }) {
    const how = exit.exitCode != null ? `exit code ${exit.exitCode}` : exit.signal != null ? `signal ${exit.signal}` : 'exit status not yet known';
    const tail = stderrTail.trim();
    super('peer_closed', `peer closed ${during} (${how})${tail ? `; stderr tail: ${clip(tail, 2000, true)}` : ''}`, options);
    this.exitCode = exit.exitCode ?? null;
    this.signal = exit.signal ?? null;
    this.stderrTail = stderrTail;
  }
}

/** The harness itself closed the connection while an operation was pending (not a peer failure). */
export class ConnectionClosedError extends TransportError {
  constructor(what: string) {
    super('connection_closed', `${what}: connection was closed by the harness`);
  }
}

export class SpawnError extends TransportError {
  readonly program: string;
  constructor(program: string, cause: unknown) {
    super('spawn_failed', `spawn failed: ${program}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.program = program;
  }
}

export class HttpStatusError extends TransportError {
  readonly status: number;
  readonly url: string;
  /** The start of the response body (bounded, credential-scrubbed). */
  readonly bodySnippet: string;
  constructor(status: number, url: string, bodySnippet: string) {
    super('http_status', `HTTP ${status} from ${url}${bodySnippet ? `: ${bodySnippet}` : ''}`);
    this.status = status;
    this.url = url;
    this.bodySnippet = bodySnippet;
  }
}

/** The HTTP exchange failed below the HTTP layer (connection refused, reset, TLS failure, DNS). */
export class NetworkError extends TransportError {
  readonly url: string;
  readonly errno: string | undefined;
  constructor(url: string, cause: unknown) {
    const errno = cause && typeof cause === 'object' && 'code' in cause ? String((cause as { code: unknown }).code) : undefined;
    const detail = cause instanceof Error ? cause.message : String(cause);
    super('network', `request to ${url} failed: ${detail}`);
    this.url = url;
    this.errno = errno;
  }
}

export class InvalidUrlError extends TransportError {
  constructor(reason: string) {
    super('invalid_url', `invalid provider url: ${reason}`);
  }
}

/** C7: plaintext http:// to a non-loopback host, refused before any socket is opened. */
export class InsecureTransportError extends TransportError {
  readonly host: string;
  constructor(host: string, message?: string) {
    super('insecure_transport', message ?? `C7: refusing plaintext http:// to non-loopback host ${host}; a non-loopback provider must be reached over https://`);
    this.host = host;
  }
}

/** A line or body that is not a JSON object with a string `type` member. */
export class NotAnEnvelopeError extends TransportError {
  readonly reason: string;
  /** The start of the offending text (bounded). */
  readonly preview: string;
  constructor(reason: string, text: string) {
    const preview = clip(text, 200);
    super('not_an_envelope', `S2: not an envelope (${reason}): ${JSON.stringify(preview)}`);
    this.reason = reason;
    this.preview = preview;
  }
}

/** S2.1-no-newline: an encoded envelope would contain a literal newline. */
export class LiteralNewlineError extends TransportError {
  constructor() {
    super('literal_newline', 'S2.1-no-newline: an envelope MUST NOT contain a literal newline');
  }
}

/** H4: a reply could not be matched to the request it answers. */
export class CorrelationError extends TransportError {
  /** The id the reply carried (undefined when it carried none). */
  readonly gotId: unknown;
  /** The ids that were waiting for a reply. */
  readonly pendingIds: string[];
  readonly envelope: unknown;
  constructor(gotId: unknown, pendingIds: string[], envelope: unknown) {
    const got = gotId === undefined ? '<absent>' : JSON.stringify(gotId);
    const type = envelope && typeof envelope === 'object' ? String((envelope as { type?: unknown }).type) : '?';
    super('correlation', `H4 violated: reply "${type}" carries id ${got}, which matches no pending request (pending: ${pendingIds.map((i) => JSON.stringify(i)).join(', ') || 'none'})`);
    this.gotId = gotId;
    this.pendingIds = pendingIds;
    this.envelope = envelope;
  }
}

/** Truncate text for a message; `tail` keeps the end instead of the start. */
export function clip(text: string, max: number, tail = false): string {
  if (text.length <= max) return text;
  return tail ? `…${text.slice(text.length - max)}` : `${text.slice(0, max)}…`;
}

/** Render a URL for messages: userinfo (which is credential material, C8) is replaced by `<redacted>`. */
export function redactUrl(url: string | URL): string {
  let u: URL;
  try {
    u = new URL(String(url));
  } catch {
    return '<unparseable url>';
  }
  if (u.username || u.password) {
    u.username = 'redacted';
    u.password = '';
  }
  return u.toString().replace('//redacted@', '//<redacted>@');
}
