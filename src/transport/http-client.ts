// The HTTP binding, client side: one envelope POSTed as the request body, one envelope read back as the
// response body (SPEC.md §2 "Transport bindings", as the public reference host does). Every exchange is bounded by a total deadline.
//
// C7: `http:` to a non-loopback host is refused in the constructor — before any DNS lookup or socket.
// C8: the bearer credential only ever reaches the `authorization` header; errors name the URL (userinfo
// redacted) and never carry headers, and any echo of the token in a response body is scrubbed.
import type http from 'node:http';
import type https from 'node:https';
import { createRequire } from 'node:module';
import type { LookupFunction } from 'node:net';
import { authorizationHeader, scrubCredential, type Credential } from './credential.js';
import { BodyTooLargeError, DEFAULT_MAX_LINE_BYTES, HttpStatusError, NetworkError, TimeoutError, TransportError, clip, describeOutstanding, redactUrl } from './errors.js';
import { checkProviderUrl, isLoopbackHost } from './loopback.js';
import { decodeUtf8Strict, parseEnvelopeLine, type RawEnvelope } from './ndjson.js';
import { Transcript, type TranscriptEntry } from './transcript.js';

// node's HTTP stack loads on the first HTTP connection, not with this module: a process that only speaks
// stdio (a host process per scenario over the host control protocol) never pays for it.
const requireBuiltin = createRequire(import.meta.url);
let stacks: { http: typeof http; https: typeof https } | undefined;
function httpStacks(): { http: typeof http; https: typeof https } {
  return (stacks ??= { http: requireBuiltin('node:http') as typeof http, https: requireBuiltin('node:https') as typeof https });
}

export { Credential } from './credential.js';
export { isLoopbackHost, checkProviderUrl } from './loopback.js';

export const DEFAULT_HTTP_TIMEOUT_MS = 10_000;

export interface HttpConnectionOptions {
  /** Total bound on one exchange (connect + send + response), default 10 s. */
  timeoutMs?: number;
  /** DNS lookup used for the connection (tests map a non-loopback name to 127.0.0.1 with it). */
  lookup?: LookupFunction;
  /** TLS trust anchors for https: (e.g. a test CA). */
  ca?: string | Buffer | Array<string | Buffer>;
  /** TLS certificate verification for https: (default true). */
  rejectUnauthorized?: boolean;
  /** Extra request headers. Never included in any error. */
  headers?: Record<string, string>;
  /** Sent as `authorization: Bearer …` on every request. */
  credential?: Credential;
  /** Cap on the response body (default 16 MiB). */
  maxBodyBytes?: number;
  /**
   * C7 gate (default true): refuse `http:` to a non-loopback host before any socket is opened. Only a host
   * layer that enforces C7 itself should turn this off.
   */
  requireTls?: boolean;
  /**
   * After one request has timed out, fail later requests at once with a fail-fast TimeoutError ("target
   * unresponsive since …") instead of letting each wait out its own timeout. Default true.
   */
  failFastAfterTimeout?: boolean;
  /** Called with every request/response body. */
  onLine?: (entry: TranscriptEntry) => void;
  /**
   * Read a non-2xx response whose body is one envelope as that envelope (default false: HttpStatusError).
   * The binding says "one envelope as the response body" and nothing about status codes, so a conformance
   * suite reads the envelope whatever the status; the status is then informational (`lastStatus`).
   */
  envelopeOnAnyStatus?: boolean;
}

export class HttpConnection {
  readonly url: URL;
  /** The URL as errors and logs show it (userinfo redacted). */
  readonly displayUrl: string;
  /** Whether the URL's host is loopback (decision 11). A host treats every other provider as egress (C4). */
  readonly loopback: boolean;
  readonly transcript: Transcript;
  // ES private fields (not TS `private`): util.inspect never shows them. The options hold the Credential and
  // the agent's pooled sockets hold the last request's raw header block — neither may surface in a log (C8).
  readonly #opts: HttpConnectionOptions;
  readonly #agent: http.Agent;
  /** Start of the first request that timed out; later requests fail fast (docs/architecture.md "Red team economics"). */
  #stalledSince: number | null = null;
  #lastStatus: number | undefined;

  /** Throws InsecureTransportError (C7) or InvalidUrlError synchronously: nothing has touched the network. */
  constructor(url: string | URL, opts: HttpConnectionOptions = {}) {
    this.url = checkProviderUrl(url, opts.requireTls ?? true);
    this.displayUrl = redactUrl(this.url);
    this.loopback = isLoopbackHost(this.url.hostname);
    this.#opts = opts;
    this.transcript = new Transcript({ onLine: opts.onLine });
    const { http: plain, https: tls } = httpStacks();
    this.#agent = this.url.protocol === 'https:' ? new tls.Agent({ keepAlive: true }) : new plain.Agent({ keepAlive: true });
  }

  /**
   * POST one envelope; resolve with the envelope in the response body, or null for no reply (`204 No
   * Content`, or any 2xx with an empty body).
   * Rejects with TimeoutError('request'), HttpStatusError (non-2xx), BodyTooLargeError, InvalidUtf8Error,
   * NotAnEnvelopeError or NetworkError. No rejection ever contains the credential or a header.
   */
  request(envelope: unknown, timeoutMs = this.#opts.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS): Promise<RawEnvelope | null> {
    if (this.#stalledSince !== null && (this.#opts.failFastAfterTimeout ?? true)) {
      return Promise.reject(new TimeoutError('request', timeoutMs, { failFast: true, unresponsiveForMs: Date.now() - this.#stalledSince }));
    }
    const body = JSON.stringify(envelope);
    if (body === undefined) return Promise.reject(new TypeError('request: envelope is not JSON-serialisable'));
    return this.guarded(body, timeoutMs);
  }

  /**
   * POST these exact bytes as the body (no encoding, no checks): for deliberately malformed probes such as
   * the fuzzer's. Resolves and rejects like request().
   */
  requestRaw(body: string | Uint8Array, timeoutMs = this.#opts.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS): Promise<RawEnvelope | null> {
    if (this.#stalledSince !== null && (this.#opts.failFastAfterTimeout ?? true)) {
      return Promise.reject(new TimeoutError('request', timeoutMs, { failFast: true, unresponsiveForMs: Date.now() - this.#stalledSince }));
    }
    return this.guarded(typeof body === 'string' ? body : Buffer.from(body), timeoutMs);
  }

  private guarded(body: string | Buffer, timeoutMs: number): Promise<RawEnvelope | null> {
    const startedAt = Date.now();
    return this.exchange(body, timeoutMs).catch((err: unknown) => {
      if (err instanceof TimeoutError) this.#stalledSince ??= startedAt;
      throw this.scrubError(err);
    });
  }

  /** The HTTP status of the last response received (undefined before any). */
  get lastStatus(): number | undefined {
    return this.#lastStatus;
  }

  /** True once a request has timed out (later requests fail fast unless failFastAfterTimeout is false). */
  get stalled(): boolean {
    return this.#stalledSince !== null;
  }

  /** Drop pooled keep-alive sockets. The connection stays usable (a later request opens a new socket). */
  close(): void {
    this.#agent.destroy();
  }

  private exchange(body: string | Buffer, timeoutMs: number): Promise<RawEnvelope | null> {
    // Re-checked per request: cheap, and keeps C7 true even if the object was tampered with.
    checkProviderUrl(this.url, this.#opts.requireTls ?? true);
    const max = this.#opts.maxBodyBytes ?? DEFAULT_MAX_LINE_BYTES;
    const headers: Record<string, string | number> = {};
    for (const [k, v] of Object.entries(this.#opts.headers ?? {})) headers[k.toLowerCase()] = v;
    Object.assign(headers, {
      'content-type': 'application/json',
      accept: 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    if (this.#opts.credential) headers.authorization = authorizationHeader(this.#opts.credential);
    const isHttps = this.url.protocol === 'https:';
    const options: https.RequestOptions = {
      method: 'POST',
      headers,
      agent: this.#agent,
      ...(this.#opts.lookup ? { lookup: this.#opts.lookup } : {}),
      ...(isHttps && this.#opts.ca !== undefined ? { ca: this.#opts.ca } : {}),
      ...(isHttps && this.#opts.rejectUnauthorized !== undefined ? { rejectUnauthorized: this.#opts.rejectUnauthorized } : {}),
    };
    const where = `POST ${this.displayUrl}`;
    this.#record({ direction: 'out', line: typeof body === 'string' ? body : body.toString('utf8') });

    return new Promise<RawEnvelope | null>((resolve, reject) => {
      let settled = false;
      const settle = (err: unknown, value?: RawEnvelope | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) {
          req.destroy();
          reject(err);
        } else resolve(value ?? null);
      };
      let progress = 'no response yet';
      const startedAt = Date.now();
      // what was outstanding, named from the body sent (parsed only if the request times out)
      const outstanding = (): string => {
        try {
          return describeOutstanding(JSON.parse(typeof body === 'string' ? body : body.toString('utf8')));
        } catch {
          return `a body of ${Buffer.byteLength(body)} bytes that is not JSON`;
        }
      };
      const timer = setTimeout(
        () => settle(new TimeoutError('request', timeoutMs, { detail: `${where}; outstanding: ${outstanding()}, sent ${Date.now() - startedAt} ms ago; ${progress}` })),
        timeoutMs,
      );
      const req = (isHttps ? httpStacks().https : httpStacks().http).request(this.url, options);
      req.on('error', (err) => settle(new NetworkError(this.displayUrl, err)));
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > max) return settle(new BodyTooLargeError(max, declared, 'response'));
        const chunks: Buffer[] = [];
        let seen = 0;
        progress = `status ${status} received, 0 body bytes`;
        res.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          progress = `status ${status} received, ${seen} body byte${seen === 1 ? '' : 's'} so far, body not complete`;
          if (seen > max) return settle(new BodyTooLargeError(max, seen, 'response'));
          chunks.push(chunk);
        });
        res.on('error', (err) => settle(new NetworkError(this.displayUrl, err)));
        res.on('end', () => {
          if (settled) return;
          const bytes = Buffer.concat(chunks, seen);
          this.#lastStatus = status;
          if ((status < 200 || status > 299) && this.#opts.envelopeOnAnyStatus === true) {
            // One envelope in the body is the reply, whatever the status (the binding names no status codes).
            let text: string | undefined;
            try {
              text = decodeUtf8Strict(bytes, 0, 0, 'HTTP response body');
            } catch {
              text = undefined;
            }
            const parsed = text === undefined ? undefined : parseEnvelopeLine(text);
            if (text !== undefined && parsed !== undefined && !(parsed instanceof TransportError)) {
              this.#record({ direction: 'in', line: text });
              return settle(null, parsed);
            }
          }
          if (status < 200 || status > 299) {
            const snippet = scrubCredential(clip(bytes.subarray(0, 1024).toString('utf8'), 512), this.#opts.credential);
            return settle(new HttpStatusError(status, this.displayUrl, snippet));
          }
          if (status === 204 || seen === 0) {
            // One envelope per body (spec "Transport"): an empty body is no reply — judged like silence on
            // stdio, never a malformed line (docs/interpretations.md §78).
            this.#record({ direction: 'in', line: '', noReply: true });
            return settle(null, null);
          }
          let text: string;
          try {
            text = decodeUtf8Strict(bytes, 0, 0, 'HTTP response body');
          } catch (err) {
            this.#record({ direction: 'in', line: bytes.toString('utf8'), error: (err as TransportError).code });
            return settle(err);
          }
          this.#record({ direction: 'in', line: text });
          const parsed = parseEnvelopeLine(text);
          if (parsed instanceof TransportError) settle(parsed);
          else settle(null, parsed);
        });
      });
      req.end(body);
    });
  }

  /** Transcript entries are scrubbed too: a hostile server may echo the token back in a body (C8). */
  #record(entry: Omit<TranscriptEntry, 'at'>): void {
    this.transcript.record({ ...entry, line: scrubCredential(entry.line, this.#opts.credential) });
  }

  /** C8 defence in depth: whatever went wrong, the token never leaves in an error. */
  private scrubError(err: unknown): unknown {
    const cred = this.#opts.credential;
    if (!cred || !(err instanceof Error)) return err;
    err.message = scrubCredential(err.message, cred);
    if (err.stack) err.stack = scrubCredential(err.stack, cred);
    // Diagnostic fields (preview, lossyText, bodySnippet, …) may quote a body that echoed the token.
    const fields = err as unknown as Record<string, unknown>;
    for (const key of Object.keys(fields)) {
      const v = fields[key];
      if (typeof v === 'string') fields[key] = scrubCredential(v, cred);
    }
    return err;
  }
}
