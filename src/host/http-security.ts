// The host's HTTP transport rules (§4.2): C4 (a non-loopback provider is egress whatever it claims), C7 (TLS
// for every non-loopback provider, refused before any byte — or DNS query — leaves) and C8 (no credential in
// any log line or surfaced error). Also the host's log sink, which is redacting by construction.
import { inspect } from 'node:util';
import { scrubCredential, REDACTED_CREDENTIAL, type Credential } from '../transport/credential.js';
import { InsecureTransportError, InvalidUrlError, redactUrl } from '../transport/errors.js';
import { checkProviderUrl, isLoopbackHost } from '../transport/loopback.js';
import { HostError, InsecureTransport, TransportFailure } from './errors.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface LogEntry {
  level: LogLevel;
  /** Starts with the anchor or rule id when the entry concerns one. Already redacted when it reaches a sink. */
  message: string;
  routingId?: string;
}

/** Where the host writes its diagnostics. Default: nothing (a library never writes to the console unasked). */
export type LogSink = (entry: LogEntry) => void;

export interface HttpTarget {
  url: URL;
  /** The URL as logs and errors show it (userinfo replaced by `<redacted>`). */
  displayUrl: string;
  /** Decision 11: `localhost`, 127.0.0.0/8 or ::1. */
  loopback: boolean;
}

/**
 * Parse a provider URL and apply C7 before anything touches the network. Throws InsecureTransport (C7) for
 * plaintext http:// to a non-loopback host, TransportFailure for an unusable URL. `allowPlaintextRemote`
 * exists only to build a deliberately misbehaving host; it is off by default.
 */
export function checkHttpTarget(url: string | URL, opts: { allowPlaintextRemote?: boolean; routingId?: string } = {}): HttpTarget {
  let parsed: URL;
  try {
    parsed = checkProviderUrl(url, !opts.allowPlaintextRemote);
  } catch (err) {
    if (err instanceof InsecureTransportError) throw new InsecureTransport(err.host, { routingId: opts.routingId });
    if (err instanceof InvalidUrlError) throw new TransportFailure(err.message, { routingId: opts.routingId, cause: err });
    throw err;
  }
  return { url: parsed, displayUrl: redactUrl(parsed), loopback: isLoopbackHost(parsed.hostname) };
}

/**
 * C4: the effective egress of a provider. A non-loopback HTTP provider is egress whatever its handshake says
 * (the transport knows where the bytes go). `loopbackHttpIsEgress` makes every HTTP provider egress, as the
 * reference host does (a loopback listener can relay); `trustEgressClaim` disables C4 (misbehaving host only).
 */
export function effectiveEgress(
  declared: boolean,
  transport: 'stdio' | 'http',
  loopback: boolean,
  policy: { loopbackHttpIsEgress?: boolean; trustEgressClaim?: boolean } = {},
): { egress: boolean; forcedBy?: 'C4' | 'policy' } {
  if (declared) return { egress: true };
  if (transport !== 'http' || policy.trustEgressClaim) return { egress: false };
  if (!loopback) return { egress: true, forcedBy: 'C4' };
  if (policy.loopbackHttpIsEgress) return { egress: true, forcedBy: 'policy' };
  return { egress: false };
}

const BEARER_RE = /\b(bearer)\s+[\x21-\x7e]+/gi;
const AUTH_HEADER_RE = /("?authorization"?\s*[:=]\s*"?)[^"\r\n,}]+/gi;

/**
 * C8: scrubs every known credential token, and anything shaped like a bearer header, out of text. The host
 * registers each Credential it is given; the tokens themselves are held in a private field.
 */
export class Redactor {
  readonly #credentials: Credential[] = [];

  add(credential: Credential | undefined): void {
    if (credential && !this.#credentials.includes(credential)) this.#credentials.push(credential);
  }

  scrub(text: string): string {
    let out = text;
    for (const c of this.#credentials) out = scrubCredential(out, c);
    return out.replace(BEARER_RE, `$1 ${REDACTED_CREDENTIAL}`).replace(AUTH_HEADER_RE, `$1${REDACTED_CREDENTIAL}`);
  }

  /** Scrub an error in place (message, stack, string fields, the cause chain) and return it. */
  scrubError<E>(err: E, depth = 0): E {
    if (!(err instanceof Error) || depth > 5) return err;
    err.message = this.scrub(err.message);
    if (err.stack) err.stack = this.scrub(err.stack);
    const fields = err as unknown as Record<string, unknown>;
    for (const key of Object.keys(fields)) {
      const v = fields[key];
      if (typeof v === 'string') {
        try {
          fields[key] = this.scrub(v);
        } catch {
          /* read-only field: leave it */
        }
      }
    }
    if (err.cause !== undefined) this.scrubError(err.cause, depth + 1);
    return err;
  }

  [inspect.custom](): string {
    return `Redactor(${this.#credentials.length} credential(s), values <redacted>)`;
  }

  toJSON(): string {
    return `Redactor(<redacted>)`;
  }
}

/** A sink that scrubs before it writes. Entries are never dropped; a throwing sink is contained. */
export function redactingSink(sink: LogSink | undefined, redactor: Redactor): LogSink {
  if (!sink) return () => undefined;
  return (entry) => {
    const safe: LogEntry = { level: entry.level, message: redactor.scrub(entry.message) };
    if (entry.routingId !== undefined) safe.routingId = redactor.scrub(entry.routingId);
    try {
      sink(safe);
    } catch {
      /* a faulty log sink must not take a query down with it */
    }
  };
}

/** Convert anything thrown into a HostError (unknown failures become TransportFailure), scrubbed. */
export function asHostError(err: unknown, redactor: Redactor, routingId?: string): HostError {
  if (err instanceof HostError) return redactor.scrubError(err);
  const message = err instanceof Error ? err.message : String(err);
  return redactor.scrubError(new TransportFailure(`unexpected failure: ${message}`, { routingId, cause: err instanceof Error ? err : undefined }));
}
