// The HTTP channel: one POST per exchange (src/transport HttpConnection). C7 is checked by the caller before
// this object exists (checkHttpTarget) and again by the transport on every request; the credential lives
// inside the transport's private options and is never read here (C8).
import type { LookupFunction } from 'node:net';
import { HttpConnection } from '../transport/http-client.js';
import type { Credential } from '../transport/credential.js';
import { BodyTooLargeError, HttpStatusError, InsecureTransportError, InvalidUtf8Error, NetworkError, NotAnEnvelopeError, TimeoutError, TransportError } from '../transport/errors.js';
import type { RawEnvelope } from '../transport/ndjson.js';
import type { Transcript } from '../transport/transcript.js';
import { isKnownEnvelopeType } from '../protocol/envelope-types.js';
import { warning } from '../protocol/findings.js';
import { CorrelationMismatch, HandshakeFailed, HostError, InsecureTransport, MalformedReply, ProviderTimeout, TransportFailure } from './errors.js';
import { isPayloadBearing, type Channel, type ChannelShutdown, type ExchangeOptions } from './connection-channel.js';
import type { HostFinding } from './connection-handshake.js';
import type { HttpTarget, LogSink } from './http-security.js';

export interface HttpChannelOptions {
  credential?: Credential;
  lookup?: LookupFunction;
  ca?: string | Buffer | Array<string | Buffer>;
  headers?: Record<string, string>;
  /** Transport-level bound per POST; the host's own per-exchange bound is passed to each call. */
  timeoutMs?: number;
  /** Misbehaving-host switch only: let the transport send plaintext to a non-loopback host. */
  allowPlaintextRemote?: boolean;
  log?: LogSink;
}

export class HttpChannel implements Channel {
  readonly transport = 'http' as const;
  readonly target: string;
  readonly loopback: boolean;
  readonly findings: HostFinding[] = [];
  routingId: string | undefined;
  readonly #conn: HttpConnection;
  readonly #log: LogSink;
  #correlation = false;
  #closed = false;

  constructor(target: HttpTarget, opts: HttpChannelOptions = {}) {
    this.target = target.displayUrl;
    this.loopback = target.loopback;
    this.#log = opts.log ?? (() => undefined);
    try {
      this.#conn = new HttpConnection(target.url, {
        ...(opts.credential ? { credential: opts.credential } : {}),
        ...(opts.lookup ? { lookup: opts.lookup } : {}),
        ...(opts.ca !== undefined ? { ca: opts.ca } : {}),
        ...(opts.headers ? { headers: opts.headers } : {}),
        ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
        requireTls: !opts.allowPlaintextRemote,
        // The host fails fast itself where it matters; an HTTP provider may recover between requests.
        failFastAfterTimeout: false,
      });
    } catch (err) {
      if (err instanceof InsecureTransportError) throw new InsecureTransport(err.host);
      throw new TransportFailure(err instanceof Error ? err.message : String(err), { cause: err });
    }
  }

  get transcript(): Transcript {
    return this.#conn.transcript;
  }

  async handshake(version: string, timeoutMs: number): Promise<RawEnvelope> {
    let reply: RawEnvelope | null;
    try {
      reply = await this.#conn.request({ type: 'handshake', protocol_version: version }, timeoutMs);
    } catch (err) {
      throw this.#mapError(err, 'handshake', timeoutMs);
    }
    if (reply === null) throw new HandshakeFailed(`${this.target} answered the handshake with an empty body (204); expected handshake_ack`, { routingId: this.routingId, anchor: 'S2-wire-shape' });
    return reply;
  }

  start(correlation: boolean): void {
    this.#correlation = correlation;
  }

  async exchange(envelope: Record<string, unknown>, opts: ExchangeOptions): Promise<RawEnvelope> {
    if (this.#closed) throw new TransportFailure('the connection was closed by the host', { routingId: this.routingId });
    let reply: RawEnvelope | null;
    try {
      reply = await this.#conn.request(envelope, opts.timeoutMs);
    } catch (err) {
      throw this.#mapError(err, opts.kind, opts.timeoutMs);
    }
    if (reply === null) throw new MalformedReply(`${this.target} answered a ${opts.kind} with an empty body (204); expected an envelope`, { routingId: this.routingId });
    if (!isKnownEnvelopeType(reply.type)) {
      // Tolerated, never a crash (S2.1-unknown-type) — but it cannot answer this exchange.
      throw new MalformedReply(
        `${this.target} answered a ${opts.kind} with an envelope of unknown type ${JSON.stringify(reply.type)}${isPayloadBearing(reply) ? ' (payload-bearing)' : ''}; it answers nothing this host sent`,
        { routingId: this.routingId, anchor: 'S2.1-unknown-type' },
      );
    }
    if (this.#correlation && opts.id !== undefined && (reply.type === 'frames' || reply.type === 'error' || reply.type === 'verified')) {
      const got = reply.id;
      if (got !== opts.id) {
        if (reply.type === 'verified' && (got === undefined || got === null)) {
          this.findings.push({
            ...warning('S9-verify-correlation', '/id', `verified reply omits the verify's id ${JSON.stringify(opts.id)}; a correlating provider SHOULD echo it`),
            ...(this.routingId !== undefined ? { routingId: this.routingId } : {}),
          });
        } else {
          throw new CorrelationMismatch([opts.id], got, reply.type, { routingId: this.routingId });
        }
      }
    }
    return reply;
  }

  async shutdown(graceMs: number): Promise<ChannelShutdown> {
    const t0 = Date.now();
    let clean = true;
    // Best effort: the remote process is not ours to reap.
    await this.#conn.request({ type: 'shutdown' }, graceMs).catch((err: unknown) => {
      clean = false;
      this.#log({ level: 'debug', message: `shutdown POST to ${this.target} failed: ${err instanceof Error ? err.message : String(err)}`, ...(this.routingId ? { routingId: this.routingId } : {}) });
    });
    await this.close();
    return { clean, killed: false, exitCode: null, signal: null, elapsedMs: Date.now() - t0 };
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#conn.close();
  }

  #mapError(err: unknown, phase: 'handshake' | 'query' | 'verify', timeoutMs: number): HostError {
    const routingId = this.routingId ?? this.target;
    if (err instanceof HostError) return err;
    if (err instanceof InsecureTransportError) return new InsecureTransport(err.host, { routingId: this.routingId });
    if (err instanceof TimeoutError) return new ProviderTimeout(phase, err.ms || timeoutMs, { routingId, detail: err.message, cause: err });
    if (err instanceof HttpStatusError) {
      const what = err.status === 401 ? 'unauthorized (401): the provider refused the credential, or none was given' : `HTTP status ${err.status}`;
      return new TransportFailure(`${this.target} answered the ${phase} with ${what}`, { routingId, status: err.status, cause: err });
    }
    if (err instanceof NetworkError) return new TransportFailure(`${phase} to ${this.target} failed below HTTP: ${err.message}`, { routingId, cause: err });
    if (err instanceof NotAnEnvelopeError || err instanceof InvalidUtf8Error || err instanceof BodyTooLargeError) {
      return phase === 'handshake'
        ? new HandshakeFailed(`${this.target} answered the handshake with a body that is not an envelope: ${err.message}`, { routingId, anchor: 'S2-wire-shape', cause: err })
        : new MalformedReply(`${this.target} answered the ${phase} with a body that is not an envelope: ${err.message}`, { routingId, cause: err });
    }
    if (err instanceof TransportError) return new TransportFailure(err.message, { routingId, cause: err });
    return new TransportFailure(`HTTP failure: ${err instanceof Error ? err.message : String(err)}`, { routingId, cause: err });
  }
}
