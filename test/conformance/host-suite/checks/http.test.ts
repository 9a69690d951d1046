// The host suite's HTTP building blocks (C4, C7, C8): the in-process scripted HTTP provider, the
// loopback-only lookup, the checks, and the transport variants. Everything talks to 127.0.0.1 only; the
// non-loopback name is reached through the injected lookup.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { checkCredentialNotSurfaced, checkNonLoopbackGated, checkPlaintextRefused, credentialWasSent } from '../../../../src/conformance/host-suite/checks/http.js';
import { loopbackLookup, NON_LOOPBACK_NAME, startHttpProvider, testCertificate, type HttpProvider, type RecordedRequest } from '../../../../src/conformance/host-suite/scripted/http-provider.js';
import type { HostUnderTest } from '../../../../src/conformance/host-suite/adapter.js';
import type { FanOutResult } from '../../../../src/host/fan-out.js';
import { hostMisbehaviour } from '../../../../src/conformance/host-suite/variants/manifest.js';

const servers: HttpProvider[] = [];
const dir = mkdtempSync(join(tmpdir(), 'cgp-host-http-test-'));
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

function post(url: string, body: unknown, opts: { lookup: LookupFunction; ca?: string; headers?: Record<string, string> }): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  const mod = u.protocol === 'https:' ? https : http;
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = mod.request(u, {
      method: 'POST',
      lookup: opts.lookup,
      agent: false,
      timeout: 5_000,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...(opts.headers ?? {}) },
      ...(opts.ca ? { ca: opts.ca } : {}),
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.end(text);
  });
}

const req = (type: string, extra: Partial<RecordedRequest> = {}): RecordedRequest => ({
  method: 'POST',
  path: '/',
  headers: {},
  tls: true,
  body: '',
  envelope: { type },
  ...extra,
});

const fanOut = (failures: FanOutResult['failures'] = [], answers = 0): FanOutResult =>
  ({ answers: Array.from({ length: answers }, () => ({})), failures, skipped: [], audits: [], findings: [], notes: [] }) as unknown as FanOutResult;

describe('scripted HTTP provider', () => {
  it('serves TLS for the non-loopback name through the injected lookup and records body, headers and TLS', async () => {
    const record = join(dir, 'tls.ndjson');
    const cert = testCertificate();
    const server = await startHttpProvider({ name: 'far', egress: false, record }, { tls: cert });
    servers.push(server);
    assert.equal(server.url, `https://${NON_LOOPBACK_NAME}:${server.port}/`);
    const { lookup, calls } = loopbackLookup();
    const ack = await post(server.url, { type: 'handshake', protocol_version: 'contextgraph/1.0' }, { lookup, ca: cert.cert, headers: { authorization: 'Bearer tok-1' } });
    assert.equal(ack.status, 200);
    const env = JSON.parse(ack.body) as { type: string; provider: { name: string; data_flow: { egress: boolean } } };
    assert.equal(env.type, 'handshake_ack');
    assert.equal(env.provider.name, 'far');
    assert.equal(env.provider.data_flow.egress, false);
    const frames = await post(server.url, { type: 'query', query: { goal: 'g' } }, { lookup, ca: cert.cert });
    assert.equal((JSON.parse(frames.body) as { type: string }).type, 'frames');
    assert.deepEqual(calls, [NON_LOOPBACK_NAME, NON_LOOPBACK_NAME]);
    assert.deepEqual(
      server.requests.map((r) => [r.envelope?.type, r.tls, r.headers.authorization]),
      [
        ['handshake', true, 'Bearer tok-1'],
        ['query', true, undefined],
      ],
    );
    assert.deepEqual(
      readFileSync(record, 'utf8')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { type: string }).type),
      ['handshake', 'query'],
    );
  });

  it('plaintext: records tls false; scripted HTTP statuses echo the Authorization header when told to', async () => {
    const server = await startHttpProvider({ httpStatus: { query: 500 }, echoAuthorization: true });
    servers.push(server);
    const { lookup } = loopbackLookup();
    const r = await post(server.url, { type: 'query', query: { goal: 'g' } }, { lookup, headers: { authorization: 'Bearer tok-2' } });
    assert.equal(r.status, 500);
    assert.match(r.body, /Bearer tok-2/);
    assert.equal(server.requests[0]?.tls, false);
    assert.ok(credentialWasSent('tok-2', server.requests));
    assert.ok(!credentialWasSent('tok-3', server.requests));
  });

  it('the lookup resolves only the suite name, and only to 127.0.0.1; every other name is ENOTFOUND', async () => {
    const { lookup, calls } = loopbackLookup();
    const ask = (name: string, all: boolean) =>
      new Promise<unknown>((resolve) => (lookup as unknown as (h: string, o: object, cb: (...a: unknown[]) => void) => void)(name, { all }, (...a) => resolve(a)));
    assert.deepEqual(await ask(NON_LOOPBACK_NAME, false), [null, '127.0.0.1', 4]);
    assert.deepEqual(await ask(NON_LOOPBACK_NAME, true), [null, [{ address: '127.0.0.1', family: 4 }]]);
    const [err] = (await ask('example.com', false)) as [NodeJS.ErrnoException];
    assert.equal(err.code, 'ENOTFOUND');
    assert.deepEqual(calls, [NON_LOOPBACK_NAME, NON_LOOPBACK_NAME, 'example.com']);
  });

  it('close stops listening: a later dial is refused', async () => {
    const server = await startHttpProvider({});
    await server.close();
    const { lookup } = loopbackLookup();
    await assert.rejects(post(server.url, { type: 'handshake' }, { lookup }), /ECONNREFUSED/);
  });
});

describe('checks-http', () => {
  const target = { label: 'far', url: `https://${NON_LOOPBACK_NAME}:1/`, routingId: 'far' };

  it('C4: a query that reached the provider, or no reported refusal, is a violation', () => {
    assert.deepEqual(checkNonLoopbackGated(['C4'], target, [req('handshake')], fanOut([{ routingId: 'far', error: new Error('consent') as never }]), undefined), []);
    const leaked = checkNonLoopbackGated(['C4'], target, [req('handshake'), req('query')], fanOut([], 1), undefined);
    assert.equal(leaked.length, 2);
    assert.match(leaked[0]!.message, /^C4 violated: .*received 1 query payload/);
    assert.match(leaked[1]!.message, /^C4 violated: the host reported no refusal/);
  });

  it('C7: any cleartext request, or a reported connection, is a violation; a clean refusal is not', () => {
    const clean = checkPlaintextRefused(['C7'], target, [], { connected: false, error: new Error('refused'), lookups: [] });
    assert.deepEqual(clean, []);
    const sent = checkPlaintextRefused(['C7'], target, [req('handshake', { tls: false, headers: { authorization: 'Bearer x' } })], { connected: true, error: undefined, lookups: ['n'] });
    assert.equal(sent.length, 2);
    assert.match(sent[0]!.message, /^C7 violated: the host sent 1 request\(s\) in cleartext \(handshake\).*1 carrying an Authorization header/);
  });

  it('C8: the token in a log, an error message, a cause or a field is found, and masked in the finding', () => {
    const token = 'cgp-c8-unit-0123456789';
    assert.deepEqual(
      checkCredentialNotSurfaced(['C8'], token, [
        { where: 'log', value: 'info - Bearer Credential(<redacted>)' },
        { where: 'err', value: new Error('x') },
      ]),
      [],
    );
    const inCause = new Error('outer', { cause: new Error(`inner Bearer ${token}`) });
    const inField = Object.assign(new Error('outer'), { header: `authorization: Bearer ${token}` });
    const found = checkCredentialNotSurfaced(['C8'], token, [
      { where: 'log', value: `debug ${token}` },
      { where: 'cause', value: inCause },
      { where: 'field', value: inField },
      { where: 'absent', value: undefined },
    ]);
    assert.deepEqual(
      found.map((f) => f.message.split(':')[0]),
      ['C8 violated', 'C8 violated', 'C8 violated'],
    );
    for (const f of found) assert.ok(!f.message.includes(token), f.message);
  });
});

describe('transport variants', () => {
  const honest: HostUnderTest = {
    name: 'stub',
    connectStdio: () => Promise.reject(new Error('unused')),
    connectHttp: (url) => (url.includes('refuse') ? Promise.reject(new Error('refused')) : Promise.resolve({ routingId: 'r1' } as never)),
    grantConsent: () => Promise.resolve(),
    revokeConsent: () => Promise.resolve(),
    queryAll: () => Promise.resolve(fanOut([{ routingId: 'r1', error: new Error('HTTP 500') as never }])),
    verify: () => Promise.reject(new Error('unused')),
    compose: () => {
      throw new Error('unused');
    },
    usage: () => {
      throw new Error('unused');
    },
    attribute: () => {
      throw new Error('unused');
    },
    logText: () => 'info - connected',
    close: () => Promise.resolve(),
  };

  it('the C4 and C7 variants flip the host policies that break them', () => {
    assert.deepEqual(hostMisbehaviour('trust-egress-claim').policies, { trustEgressClaim: true });
    assert.deepEqual(hostMisbehaviour('trust-egress-claim').breaks, ['C4']);
    assert.deepEqual(hostMisbehaviour('allow-plaintext-remote').policies, { allowPlaintextRemote: true });
    assert.deepEqual(hostMisbehaviour('allow-plaintext-remote').breaks, ['C7']);
  });

  it('leak-credential puts the token in the log; leak-credential-in-error in surfaced errors', async () => {
    const logging = hostMisbehaviour('leak-credential').wrap!(honest);
    await logging.connectHttp('https://x.test/', { credential: 'tok-log' });
    assert.match(await logging.logText(), /^info - connected\n.*Bearer tok-log/);
    const erring = hostMisbehaviour('leak-credential-in-error').wrap!(honest);
    await erring.connectHttp('https://x.test/', { credential: 'tok-err' });
    const r = await erring.queryAll({ goal: 'g' } as never);
    assert.match(r.failures[0]!.error.message, /Bearer tok-err/);
    await assert.rejects(erring.connectHttp('https://refuse.test/', { credential: 'tok-err2' }), /Bearer tok-err2/);
    assert.equal(await erring.logText(), 'info - connected');
  });
});
