import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { format, inspect } from 'node:util';
import {
  BodyTooLargeError,
  Credential,
  HttpConnection,
  HttpStatusError,
  InsecureTransportError,
  InvalidUrlError,
  LineTooLongError,
  NetworkError,
  NotAnEnvelopeError,
  TimeoutError,
  TransportError,
  checkProviderUrl,
  isLoopbackHost,
  serveHttp,
  type HttpServerHandle,
  type RawEnvelope,
} from '../../src/transport/index.js';
import { recordingLookup, timed } from './helpers.js';

const TOKEN = 'tok-3f9a1c-SECRET-do-not-leak';

/** A raw loopback server with a scripted response; counts connections and records request headers. */
async function rawServer(respond: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  let connections = 0;
  const headers: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    headers.push(req.headers);
    req.resume();
    req.on('end', () => respond(req, res));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/`,
    headers,
    connections: () => connections,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Every place an error could carry text: message, stack, own fields, util.inspect, JSON. */
function assertNoToken(err: unknown): void {
  assert.ok(err instanceof Error, `expected an Error, got ${String(err)}`);
  const renderings = [err.message, err.stack ?? '', inspect(err, { depth: 5, showHidden: true }), JSON.stringify(err), String(err)];
  for (const r of renderings) assert.ok(!r.includes(TOKEN), `token leaked in: ${r.slice(0, 300)}`);
  assert.ok(!/authorization/i.test(err.message), 'no header names in error messages');
}

describe('loopback rules (decision 11) and the C7 gate', () => {
  it('classifies hosts like the reference', () => {
    for (const h of ['localhost', 'LOCALHOST', '127.0.0.1', '127.0.0.2', '127.255.255.254', '::1', '[::1]', '0:0:0:0:0:0:0:1']) {
      assert.equal(isLoopbackHost(h), true, h);
    }
    for (const h of ['example.com', '127.0.0.1.example.com', '10.0.0.5', '2001:db8::1', '[2001:db8::1]', '::ffff:127.0.0.1', '0.0.0.0', '::', 'localhost.', '128.0.0.1']) {
      assert.equal(isLoopbackHost(h), false, h);
    }
  });

  it('allows https anywhere and http only to loopback; names the rule', () => {
    for (const u of ['https://example.com/cgp', 'http://localhost:8080', 'http://LOCALHOST:8080', 'http://127.0.0.1', 'http://127.0.0.2', 'http://[::1]:8080']) {
      assert.doesNotThrow(() => checkProviderUrl(u), u);
    }
    for (const [u, host] of [
      ['http://example.com', 'example.com'],
      ['http://127.0.0.1.example.com', '127.0.0.1.example.com'],
      ['http://[2001:db8::1]', '[2001:db8::1]'],
      ['http://10.0.0.5', '10.0.0.5'],
    ] as const) {
      assert.throws(
        () => checkProviderUrl(u),
        (e: unknown) => e instanceof InsecureTransportError && e.host === host && /^C7: refusing plaintext http:\/\//.test(e.message),
        u,
      );
    }
    assert.throws(() => checkProviderUrl('not a url'), InvalidUrlError);
    assert.throws(() => checkProviderUrl('ftp://127.0.0.1/'), InvalidUrlError);
    assert.doesNotThrow(() => checkProviderUrl('http://example.com', false), 'the host layer may take the decision itself');
  });

  it('refuses http:// to a non-loopback NAME before any lookup or connection', async () => {
    const srv = await rawServer((_q, res) => res.end('{"type":"frames"}'));
    const { lookup, calls } = recordingLookup();
    try {
      assert.throws(
        () => new HttpConnection(`http://provider.example.test:${srv.port}/`, { lookup }),
        (e: unknown) => e instanceof InsecureTransportError && e.host === 'provider.example.test',
      );
      assert.deepEqual(calls, [], 'the lookup must not even be called');
      assert.equal(srv.connections(), 0, 'no connection reached the server');

      // Control: with the gate off, the same name and lookup do reach the loopback server.
      const c = new HttpConnection(`http://provider.example.test:${srv.port}/`, { lookup, requireTls: false });
      assert.equal(c.loopback, false);
      assert.deepEqual(await c.request({ type: 'query' }, 5000), { type: 'frames' });
      assert.deepEqual(calls, ['provider.example.test']);
      assert.equal(srv.connections(), 1);
      c.close();
    } finally {
      await srv.close();
    }
  });
});

describe('HttpConnection + serveHttp on 127.0.0.1', () => {
  let server: HttpServerHandle;
  const seen: Array<{ env: RawEnvelope | TransportError; path: string; auth: string | undefined }> = [];
  before(async () => {
    server = await serveHttp(async (env, info) => {
      seen.push({ env, path: info.path, auth: info.headers.authorization });
      if (env instanceof TransportError) return { type: 'error', code: 'bad_request', message: env.code };
      if (env.type === 'shutdown') return null;
      if (env.type === 'hang') return new Promise(() => {});
      if (env.type === 'boom') throw new Error('handler failure');
      return { type: 'frames', ...(env.id !== undefined ? { id: env.id } : {}), frames: [], echo: env.type };
    });
  });
  after(() => server.close());

  it('binds loopback by default and round-trips an envelope on any path', async () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    const c = new HttpConnection(new URL('cgp/v1', server.url));
    assert.equal(c.loopback, true);
    assert.deepEqual(await c.request({ type: 'query', id: 'q1' }), { type: 'frames', id: 'q1', frames: [], echo: 'query' });
    assert.equal(seen.at(-1)!.path, '/cgp/v1');
    assert.deepEqual(
      c.transcript.entries.map((e) => [e.direction, JSON.parse(e.line).type]),
      [
        ['out', 'query'],
        ['in', 'frames'],
      ],
    );
    c.close();
  });

  it('a null handler result is 204, read back as null (notification / shutdown)', async () => {
    const c = new HttpConnection(server.url);
    assert.equal(await c.request({ type: 'shutdown' }), null);
    c.close();
  });

  it('an invalid JSON body reaches the handler as an error so the provider can answer bad_request', async () => {
    const body = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(server.url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      });
      req.on('error', reject);
      req.end('this is not valid json {{{');
    });
    assert.equal(body.status, 200);
    assert.deepEqual(JSON.parse(body.text), { type: 'error', code: 'bad_request', message: 'not_an_envelope' });
    assert.ok(seen.at(-1)!.env instanceof NotAnEnvelopeError);
  });

  it('an over-cap request body reaches the handler as BodyTooLargeError', async () => {
    const small = await serveHttp((env) => (env instanceof TransportError ? { type: 'error', code: 'bad_request', message: env.code } : env), {
      maxBodyBytes: 1024,
    });
    try {
      const c = new HttpConnection(small.url);
      assert.deepEqual(await c.request({ type: 'query', pad: 'x'.repeat(4096) }), { type: 'error', code: 'bad_request', message: 'body_too_large' });
      c.close();
    } finally {
      await small.close();
    }
  });

  it('methods other than POST get 405; a throwing handler gets a bare 500 (HttpStatusError)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get(server.url, (res) => {
          res.resume();
          resolve(res.statusCode!);
        })
        .on('error', reject);
    });
    assert.equal(status, 405);
    const c = new HttpConnection(server.url);
    await assert.rejects(c.request({ type: 'boom' }), (e: unknown) => e instanceof HttpStatusError && e.status === 500 && e.bodySnippet === '');
    c.close();
  });

  it('a provider that never answers is a TimeoutError within its bound', async () => {
    const c = new HttpConnection(server.url, { timeoutMs: 300 });
    const r = await timed(c.request({ type: 'hang' }));
    assert.ok(r.error instanceof TimeoutError, String(r.error));
    assert.equal(r.error.what, 'request');
    assert.match(r.error.message, /^request timed out after 300 ms: POST http:\/\/127\.0\.0\.1:\d+\//);
    assert.ok(r.ms >= 280 && r.ms < 1300, `took ${r.ms} ms`);
    assert.equal(c.stalled, true);
    const again = await timed(c.request({ type: 'query' }, 10_000));
    assert.ok(again.error instanceof TimeoutError && again.error.failFast, String(again.error));
    assert.match(again.error.message, /target unresponsive since \d+ ms/);
    assert.ok(again.ms < 100);
    c.close();
    const patient = new HttpConnection(server.url, { timeoutMs: 200, failFastAfterTimeout: false });
    await assert.rejects(patient.request({ type: 'hang' }), TimeoutError);
    assert.deepEqual(await patient.request({ type: 'query' }), { type: 'frames', frames: [], echo: 'query' });
    patient.close();
  });

  it('refuses to bind a non-loopback address unless told to', async () => {
    await assert.rejects(
      serveHttp(() => null, { host: '0.0.0.0' }),
      (e: unknown) => e instanceof InsecureTransportError && /^C7: refusing to bind/.test(e.message),
    );
  });
});

describe('HttpConnection failure modes', () => {
  it('non-2xx is an HttpStatusError with the status and a bounded body snippet', async () => {
    const srv = await rawServer((_q, res) => res.writeHead(503).end('busy '.repeat(500)));
    try {
      const c = new HttpConnection(srv.url);
      await assert.rejects(c.request({ type: 'query' }), (e: unknown) => {
        return e instanceof HttpStatusError && e.status === 503 && e.bodySnippet.length <= 513 && /^HTTP 503 from http:\/\/127\.0\.0\.1/.test(e.message);
      });
      c.close();
    } finally {
      await srv.close();
    }
  });

  it('a 2xx body that is not an envelope is NotAnEnvelopeError; invalid UTF-8 is named too', async () => {
    const bodies: Array<string | Buffer> = ['<html>oops</html>', '[1,2]', Buffer.from([0x7b, 0xff, 0x7d])];
    const srv = await rawServer((_q, res) => res.end(bodies.shift()));
    try {
      const c = new HttpConnection(srv.url);
      await assert.rejects(c.request({ type: 'query' }), (e: unknown) => e instanceof NotAnEnvelopeError && /invalid JSON/.test(e.reason));
      await assert.rejects(c.request({ type: 'query' }), (e: unknown) => e instanceof NotAnEnvelopeError && /array/.test(e.reason));
      await assert.rejects(c.request({ type: 'query' }), (e: unknown) => e instanceof TransportError && e.code === 'invalid_utf8' && /HTTP response body/.test(e.message));
      c.close();
    } finally {
      await srv.close();
    }
  });

  it('a response body over the cap is rejected (declared or streamed)', async () => {
    const big = 'x'.repeat(200 * 1024);
    let chunked = false;
    const srv = await rawServer((_q, res) => {
      if (chunked) {
        res.write(big);
        res.end(big);
      } else res.end(big);
    });
    try {
      const c = new HttpConnection(srv.url, { maxBodyBytes: 64 * 1024 });
      await assert.rejects(c.request({ type: 'query' }), (e: unknown) => e instanceof BodyTooLargeError && e instanceof LineTooLongError && e.seenBytes === big.length);
      chunked = true;
      await assert.rejects(c.request({ type: 'query' }), (e: unknown) => e instanceof BodyTooLargeError && e.limit === 65536 && /^S2\.1: HTTP response body exceeds 65536 bytes/.test(e.message));
      c.close();
    } finally {
      await srv.close();
    }
  });

  it('connection refused is a NetworkError naming the URL', async () => {
    const srv = await rawServer(() => {});
    const url = srv.url;
    await srv.close();
    const c = new HttpConnection(url);
    await assert.rejects(c.request({ type: 'query' }), (e: unknown) => e instanceof NetworkError && e.errno === 'ECONNREFUSED' && e.message.includes(url));
  });
});

describe('Credential (C8)', () => {
  it('renders as Credential(<redacted>) everywhere', () => {
    const cred = new Credential(TOKEN);
    const renderings = [
      String(cred),
      `${cred}`,
      JSON.stringify({ cred }),
      inspect(cred),
      inspect({ nested: { cred } }, { depth: 10 }),
      inspect(cred, { showHidden: true }),
      inspect(cred, { customInspect: false, showHidden: true }),
      format('%s %o %O %j', cred, cred, cred, cred),
      Object.keys(cred).join(','),
      JSON.stringify(Object.getOwnPropertyNames(cred)),
    ];
    for (const r of renderings) assert.ok(!r.includes(TOKEN), `leak: ${r}`);
    assert.equal(String(cred), 'Credential(<redacted>)');
    assert.equal(inspect(cred), 'Credential(<redacted>)');
    assert.equal(JSON.stringify(cred), '"Credential(<redacted>)"');
  });

  it('refuses a token that could split a header, without echoing it', () => {
    assert.throws(
      () => new Credential('abc\r\nx-evil: 1'),
      (e: unknown) => e instanceof TypeError && !e.message.includes('abc'),
    );
    assert.throws(() => new Credential(''), TypeError);
  });

  it('is sent as a bearer header, and no client error ever contains it', async () => {
    let mode = 'ok';
    const srv = await rawServer((req, res) => {
      const echoed = String(req.headers.authorization); // a hostile server echoes the header back
      if (mode === 'ok') res.end('{"type":"frames"}');
      else if (mode === '401') res.writeHead(401).end(`unauthorized: ${echoed}`);
      else if (mode === 'garbage') res.end(`not json ${echoed}`);
      // 'hang': never answers
    });
    const cred = new Credential(TOKEN);
    try {
      const c = new HttpConnection(srv.url, { credential: cred, timeoutMs: 300, headers: { 'X-Trace': 't1' } });
      assert.deepEqual(await c.request({ type: 'handshake' }), { type: 'frames' });
      assert.equal(srv.headers.at(-1)!.authorization, `Bearer ${TOKEN}`);
      assert.equal(srv.headers.at(-1)!['x-trace'], 't1');
      for (const m of ['401', 'garbage', 'hang']) {
        mode = m;
        const r = await timed(c.request({ type: 'query' }));
        assertNoToken(r.error);
        if (m === '401') assert.ok(r.error instanceof HttpStatusError && r.error.status === 401 && r.error.bodySnippet.includes('Credential(<redacted>)'));
        if (m === 'garbage') assert.ok(r.error instanceof NotAnEnvelopeError);
        if (m === 'hang') assert.ok(r.error instanceof TimeoutError);
      }
      assert.ok(!inspect(c, { depth: 10, showHidden: true }).includes(TOKEN), 'the connection object does not show it either');
      c.close();
      // A network failure with a credential attached.
      await srv.close();
      const r = await timed(new HttpConnection(srv.url, { credential: cred }).request({ type: 'query' }));
      assert.ok(r.error instanceof NetworkError);
      assertNoToken(r.error);
    } finally {
      await srv.close();
    }
  });

  it('userinfo in a URL is redacted in error messages', async () => {
    const srv = await rawServer((_q, res) => res.writeHead(500).end());
    try {
      const c = new HttpConnection(`http://user:${TOKEN}@127.0.0.1:${srv.port}/`);
      assert.ok(!c.displayUrl.includes(TOKEN));
      const r = await timed(c.request({ type: 'query' }));
      assert.ok(r.error instanceof HttpStatusError);
      assert.ok(!r.error.message.includes(TOKEN) && r.error.message.includes('<redacted>@127.0.0.1'));
      c.close();
    } finally {
      await srv.close();
    }
  });
});

describe('TLS plumbing (ca + lookup) against a loopback https server', () => {
  let dir = '';
  let opensslMissing = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'cgp-tls-'));
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:P-256',
          '-nodes',
          '-days',
          '1',
          '-subj',
          '/CN=provider.example.test',
          '-addext',
          'subjectAltName=DNS:provider.example.test',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
        ],
        { stdio: 'ignore', timeout: 10_000 },
      );
    } catch (err) {
      opensslMissing = `openssl could not create a test certificate (${(err as Error).message}); TLS plumbing NOT exercised`;
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reaches https://<non-loopback name> through the injected lookup, trusting only the given ca', async (t) => {
    if (opensslMissing) return t.skip(opensslMissing);
    const cert = readFileSync(join(dir, 'cert.pem'));
    const key = readFileSync(join(dir, 'key.pem'));
    const server = https.createServer({ cert, key }, (req, res) => {
      req.resume();
      req.on('end', () => res.end('{"type":"handshake_ack"}'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    const url = `https://provider.example.test:${port}/`;
    try {
      const { lookup, calls } = recordingLookup();
      const c = new HttpConnection(url, { lookup, ca: cert });
      assert.equal(c.loopback, false, 'a non-loopback name: egress for C4 purposes');
      assert.deepEqual(await c.request({ type: 'handshake' }, 5000), { type: 'handshake_ack' });
      assert.deepEqual(calls, ['provider.example.test']);
      c.close();

      // Without the ca, certificate verification fails: proof that `ca` is what made it work.
      const untrusted = new HttpConnection(url, { lookup });
      await assert.rejects(untrusted.request({ type: 'handshake' }, 5000), (e: unknown) => e instanceof NetworkError && /certificate/i.test(e.message));
      untrusted.close();
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
