/**
 * The scripted provider over HTTP, in process: the peer the host suite puts in front of a host's HTTP
 * transport (SPEC §4: C4, C7, C8). It listens on 127.0.0.1 ONLY (plaintext, or TLS with a certificate
 * minted for a non-loopback NAME), answers handshake/query/verify like scripted-provider.cjs, and RECORDS
 * every request it received: the body (also appended, one line per request, to the scenario's record
 * file, so HostScenario.received(label) works for it), its headers (to see the bearer credential the host
 * attached) and whether it arrived over TLS.
 *
 * The host reaches it at `<scheme>://provider.example.test:<port>/` — a non-loopback name (docs/interpretations.md
 * §11) — only through `loopbackLookup`, an injected resolver that maps that one name to
 * 127.0.0.1 and refuses every other name. Nothing here ever dials or resolves a foreign address.
 *
 * Script members understood (a subset of scripted-provider.cjs's, same meaning):
 *   name, version, protocol_version, correlation, egress, egress_scopes, kinds, ack, serve, errorCode,
 *   errorEnvelope, record (set by HostScenario.scripted)
 * HTTP-only members:
 *   httpStatus ({handshake?: n, query?: n})  answer that envelope type with this non-2xx HTTP status
 *                                            (plain-text body)
 *   echoAuthorization (bool)                 a hostile echo: every error body and error envelope quotes
 *                                            the Authorization header the request carried (C8 bait)
 *   requireBearer (bool)                     require a bearer credential (S4.2, a provider MAY): a request
 *                                            without `Authorization: Bearer <token>` is answered HTTP 401
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, LookupFunction } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The non-loopback name the suite gives its HTTP providers (the reserved `.test` TLD: never a real host). */
export const NON_LOOPBACK_NAME = 'provider.example.test';

export interface TestCertificate {
  /** PEM certificate (self-signed; also the CA the host is told to trust). */
  cert: string;
  key: string;
  name: string;
}

const certCache = new Map<string, TestCertificate>();

/**
 * A throwaway self-signed certificate for `name` (P-256, valid one day), minted with the `openssl` CLI
 * (Node cannot mint X.509 itself). Cached per process: one mint per suite run.
 */
export function testCertificate(name = NON_LOOPBACK_NAME): TestCertificate {
  const cached = certCache.get(name);
  if (cached) return cached;
  const dir = mkdtempSync(join(tmpdir(), 'cgp-host-tls-'));
  try {
    const cnf = join(dir, 'req.cnf');
    writeFileSync(
      cnf,
      [
        '[req]',
        'distinguished_name = dn',
        'x509_extensions = ext',
        'prompt = no',
        '[dn]',
        `CN = ${name}`,
        '[ext]',
        `subjectAltName = DNS:${name}`,
        'basicConstraints = critical,CA:TRUE',
        'keyUsage = digitalSignature,keyCertSign',
        'extendedKeyUsage = serverAuth',
        '',
      ].join('\n'),
    );
    const keyPath = join(dir, 'key.pem');
    const certPath = join(dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyPath, '-out', certPath, '-days', '1', '-config', cnf], {
      stdio: 'pipe',
      timeout: 20_000,
    });
    const made = { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8'), name };
    certCache.set(name, made);
    return made;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface RecordingLookup {
  lookup: LookupFunction;
  /** Every name the host asked to resolve, in order. */
  readonly calls: string[];
}

/**
 * An injected resolver: `names` (default the suite's non-loopback name) resolve to 127.0.0.1, every other
 * name fails with ENOTFOUND — so a host using it can only ever reach loopback. Records every call.
 */
export function loopbackLookup(names: readonly string[] = [NON_LOOPBACK_NAME]): RecordingLookup {
  const calls: string[] = [];
  const allowed = new Set(names.map((n) => n.toLowerCase()));
  const lookup = ((hostname: string, options: unknown, callback?: (...args: unknown[]) => void) => {
    const cb = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all === true;
    calls.push(hostname);
    if (!allowed.has(String(hostname).toLowerCase())) {
      const err = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname} (the suite's resolver maps only ${[...allowed].join(', ')} to loopback)`), {
        code: 'ENOTFOUND',
        hostname,
      });
      process.nextTick(() => cb(err));
      return;
    }
    process.nextTick(() => (all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4)));
  }) as unknown as LookupFunction;
  return { lookup, calls };
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** Header names lower-cased, as node parses them. */
  headers: Record<string, string | string[] | undefined>;
  /** Whether the request arrived over TLS. */
  tls: boolean;
  body: string;
  /** The body parsed, when it was a JSON object. */
  envelope?: Record<string, unknown>;
}

export interface HttpProviderOptions {
  /** Serve TLS with this certificate; plaintext HTTP otherwise. */
  tls?: TestCertificate;
  /** URL host the host under test is given (default NON_LOOPBACK_NAME; the listener is on 127.0.0.1 whatever this is). */
  urlHost?: string;
}

export interface HttpProvider {
  /** `https://provider.example.test:<port>/` (or http://…). */
  readonly url: string;
  readonly port: number;
  readonly tls: boolean;
  /** Every HTTP request received, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** TCP connections accepted (whatever was sent on them). */
  readonly connections: number;
  /** Stop listening and drop every open connection (later dials are refused). */
  close(): Promise<void>;
}

type Script = Record<string, unknown>;

/** The stdio scripted provider's own handshake_ack and frames (scripted-provider.cjs), so both answer alike. */
const scripted = createRequire(import.meta.url)('./scripted-provider.cjs') as {
  ackOf(cfg: Script, defaultName?: string): Record<string, unknown>;
  frameOf(cfg: Script, spec: Record<string, unknown>, goal: unknown): Record<string, unknown>;
};

function framesAnswer(cfg: Script, msg: Record<string, unknown>): Record<string, unknown> {
  const q = (msg.query ?? {}) as { kinds?: unknown; max_frames?: number; goal?: unknown };
  const specs = (cfg.serve as Array<Record<string, unknown>> | undefined) ?? [{ id: 'frm_http_one', kind: 'doc' }];
  const kinds = Array.isArray(q.kinds) && q.kinds.length > 0 ? (q.kinds as string[]) : null;
  const frames = specs
    .filter((s) => !kinds || kinds.includes(String(s.kind ?? 'doc')))
    .slice(0, q.max_frames ?? 8)
    .map((s) => scripted.frameOf(cfg, s, q.goal));
  return { type: 'frames', result: { frames, truncated: false } };
}

/** What the scripted provider answers one request: an HTTP status and a body (JSON envelope, text, or none). */
function respond(cfg: Script, msg: Record<string, unknown>, authorization: string): { status: number; body?: string; json?: boolean } {
  const type = String(msg.type);
  const statuses = (cfg.httpStatus ?? {}) as Record<string, number>;
  const echo = cfg.echoAuthorization === true ? ` (you sent authorization ${JSON.stringify(authorization)})` : '';
  if (cfg.requireBearer === true && !/^Bearer \S+$/.test(authorization)) {
    return { status: 401, body: 'a bearer credential is required (S4.2)' };
  }
  const forced = statuses[type];
  if (forced !== undefined) return { status: forced, body: `scripted HTTP ${forced} for ${type}${echo}` };
  const withId = (env: Record<string, unknown>) => (msg.id !== undefined && cfg.correlation === true ? { ...env, id: msg.id } : env);
  if (type === 'handshake') return { status: 200, body: JSON.stringify(scripted.ackOf(cfg, 'scripted-http')), json: true };
  if (type === 'shutdown') return { status: 204 };
  if (type === 'verify') {
    const frames = ((msg.request as { frames?: unknown[] } | undefined)?.frames ?? []) as unknown[];
    return { status: 200, body: JSON.stringify(withId({ type: 'verified', response: { verdicts: frames.map((f) => ({ frame: f, status: 'valid' })) } })), json: true };
  }
  if (type === 'query') {
    if (cfg.errorEnvelope !== undefined) {
      const env = { ...(cfg.errorEnvelope as Record<string, unknown>) };
      if (echo && typeof env.message === 'string') env.message += echo;
      return { status: 200, body: JSON.stringify(withId(env)), json: true };
    }
    if (cfg.errorCode !== undefined) {
      const env: Record<string, unknown> = { type: 'error', message: `scripted error${echo}` };
      if (cfg.errorCode !== null) env.code = cfg.errorCode;
      return { status: 200, body: JSON.stringify(withId(env)), json: true };
    }
    return { status: 200, body: JSON.stringify(withId(framesAnswer(cfg, msg))), json: true };
  }
  if (msg.id !== undefined) return { status: 200, body: JSON.stringify({ type: 'error', id: msg.id, code: 'bad_request', message: `unknown type ${type}${echo}` }), json: true };
  return { status: 204 };
}

/**
 * Start a scripted HTTP provider on 127.0.0.1 (an ephemeral port). Every request is recorded before it is
 * answered; `cfg.record`, when set, gets each body as one line (what the provider SAW).
 */
export async function startHttpProvider(cfg: Script, opts: HttpProviderOptions = {}): Promise<HttpProvider> {
  const requests: RecordedRequest[] = [];
  let connections = 0;
  const record = typeof cfg.record === 'string' ? cfg.record : undefined;
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= 1 << 20) chunks.push(c); // the suite never sends more; a bigger body is kept truncated
    });
    req.on('error', () => undefined);
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let envelope: Record<string, unknown> | undefined;
      try {
        const parsed: unknown = JSON.parse(body);
        if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) envelope = parsed as Record<string, unknown>;
      } catch {
        /* kept raw */
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '/', headers: { ...req.headers }, tls: 'encrypted' in req.socket, body, ...(envelope ? { envelope } : {}) });
      if (record) appendFileSync(record, (envelope ? JSON.stringify(envelope) : JSON.stringify({ raw: body })) + '\n');
      const authorization = typeof req.headers.authorization === 'string' ? req.headers.authorization : '';
      const out = req.method !== 'POST' ? { status: 405 } : envelope === undefined ? { status: 400, body: 'not a JSON envelope' } : respond(cfg, envelope, authorization);
      const headers: Record<string, string | number> = { 'content-length': out.body === undefined ? 0 : Buffer.byteLength(out.body) };
      if (out.body !== undefined) headers['content-type'] = out.json ? 'application/json' : 'text/plain';
      res.writeHead(out.status, headers).end(out.body);
    });
  };
  const server: http.Server = opts.tls ? https.createServer({ cert: opts.tls.cert, key: opts.tls.key }, onRequest) : http.createServer(onRequest);
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  server.on('connection', () => {
    connections += 1;
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closed: Promise<void> | undefined;
  return {
    url: `${opts.tls ? 'https' : 'http'}://${opts.urlHost ?? NON_LOOPBACK_NAME}:${port}/`,
    port,
    tls: opts.tls !== undefined,
    requests,
    get connections() {
      return connections;
    },
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}
