// The HTTP binding, provider side: a node:http server with one POST endpoint — envelope in, envelope out.
//
// Paths: every path is accepted (the endpoint is the URL the host was given, so a provider can be mounted at
// `/`, `/cgp`, …; the path is passed to the handler). Methods other than POST get 405.
// Bodies: a body that is not UTF-8, not a JSON object with a string `type`, or over the cap is passed to the
// handler as the error object, so the provider can answer `bad_request` (R1). A handler result of null is a
// `204 No Content` (notifications); an object is `200` with the JSON body. A handler that throws yields a
// bare 500 (no detail leaves the process). Requests may be handled concurrently.
// Binding: loopback only unless `allowNonLoopback` is set — a plaintext listener on a routable address
// would receive query payloads in cleartext (the server-side mirror of C7).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BodyTooLargeError, DEFAULT_MAX_LINE_BYTES, InsecureTransportError, TransportError } from './errors.js';
import { isLoopbackHost } from './loopback.js';
import { decodeUtf8Strict, parseEnvelopeLine, type RawEnvelope } from './ndjson.js';

export interface HttpRequestInfo {
  path: string;
  headers: http.IncomingHttpHeaders;
}

export type HttpHandler = (envelope: RawEnvelope | TransportError, info: HttpRequestInfo) => object | null | Promise<object | null>;

export interface ServeHttpOptions {
  /** Default 0 (an ephemeral port; read it from the result). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Permit binding a non-loopback address (plaintext!). Default false. */
  allowNonLoopback?: boolean;
  /** Cap on a request body (default 16 MiB). */
  maxBodyBytes?: number;
  /** Bound on receiving one whole request (default 30 s). */
  requestTimeoutMs?: number;
}

export interface HttpServerHandle {
  /** e.g. `http://127.0.0.1:43117/` */
  url: string;
  port: number;
  host: string;
  server: http.Server;
  close(): Promise<void>;
}

export async function serveHttp(handler: HttpHandler, opts: ServeHttpOptions = {}): Promise<HttpServerHandle> {
  const host = opts.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && !opts.allowNonLoopback) {
    throw new InsecureTransportError(host, `C7: refusing to bind a plaintext HTTP server to non-loopback address ${host} (set allowNonLoopback to override)`);
  }
  const max = opts.maxBodyBytes ?? DEFAULT_MAX_LINE_BYTES;
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'content-length': 0 }).end();
      return;
    }
    const info: HttpRequestInfo = { path: req.url ?? '/', headers: req.headers };
    const reply = (input: RawEnvelope | TransportError, closeAfter: boolean) => {
      Promise.resolve()
        .then(() => handler(input, info))
        .then(
          (out) => {
            const extra = closeAfter ? { connection: 'close' } : {};
            if (out === null || out === undefined) {
              res.writeHead(204, extra).end();
            } else {
              const body = JSON.stringify(out);
              res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...extra }).end(body);
            }
          },
          () => {
            if (!res.headersSent) res.writeHead(500, { 'content-length': 0, connection: 'close' }).end();
          },
        )
        .finally(() => {
          // An over-cap body is not read to its end: drop the connection once the answer is out.
          if (!closeAfter) return;
          if (res.writableFinished) req.destroy();
          else res.once('finish', () => req.destroy());
        });
    };

    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) {
      req.pause();
      reply(new BodyTooLargeError(max, declared, 'request'), true);
      return;
    }
    const chunks: Buffer[] = [];
    let seen = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      seen += chunk.length;
      if (seen > max) {
        over = true;
        req.pause();
        reply(new BodyTooLargeError(max, seen, 'request'), true);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (over) return;
      let text: string;
      try {
        text = decodeUtf8Strict(Buffer.concat(chunks, seen), 0, 0, 'HTTP request body');
      } catch (err) {
        reply(err as TransportError, false);
        return;
      }
      reply(parseEnvelopeLine(text), false);
    });
    req.on('error', () => {
      /* client went away; nothing to answer */
    });
  });
  server.requestTimeout = opts.requestTimeoutMs ?? 30_000;
  server.headersTimeout = Math.min(server.requestTimeout, 30_000);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const urlHost = addr.family === 'IPv6' || addr.address.includes(':') ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${urlHost}:${addr.port}/`,
    port: addr.port,
    host: addr.address,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
