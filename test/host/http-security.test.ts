// HTTP transport security (C4, C7, C8) against a LIVE loopback TLS peer. The certificate (minted here by the
// openssl CLI) names provider.example.test — a non-loopback name — and the host reaches it only through an
// injected lookup mapping that name to 127.0.0.1. No connection to any other address is ever opened.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { inspect } from 'node:util';
import { Credential } from '../../src/transport/credential.js';
import { ConsentRequired, Host, InsecureTransport, ProviderError, TransportFailure, checkHttpTarget, effectiveEgress } from '../../src/host/index.js';
import { captureLog, loopbackLookup, SAMPLE_QUERY, timed } from '../fixtures/host/helpers.js';
import { makeCert, startTlsPeer, TLS_NAME, type TestCert, type TlsPeer } from '../fixtures/host/tls-provider.js';

let cert: TestCert;
const peers: TlsPeer[] = [];
const hosts: Host[] = [];
before(() => {
  cert = makeCert();
});
after(async () => {
  await Promise.all(hosts.map((h) => h.close()));
  await Promise.all(peers.map((p) => p.close()));
});

const ALICE = { kind: 'human', id: 'alice@example.test' } as const;

describe('C7/C4 over a live TLS peer', () => {
  it('handshake and query succeed over TLS; the non-loopback provider is egress (C4), so consent comes first', async () => {
    const peer = await startTlsPeer({ cert });
    peers.push(peer);
    const { lookup, calls } = loopbackLookup();
    const logs = captureLog();
    const host = new Host({ log: logs.log });
    hosts.push(host);
    const d = await host.connectHttp(`https://${TLS_NAME}:${peer.port}/cgp`, { lookup, ca: cert.cert });
    assert.ok(calls.includes(TLS_NAME), 'the name was resolved by the injected lookup only');
    assert.equal(d.transport, 'http');
    assert.equal(d.ack.provider.data_flow.egress, false, 'the provider claims to be local…');
    assert.equal(d.egress, true, '…but C4: the transport knows it is not');
    assert.match(logs.text(), /C4: provider "example-docs" at https:\/\/provider\.example\.test/);

    let r = await host.queryAll({ ...SAMPLE_QUERY, goal: 'PAYLOAD-MARKER' });
    const err = r.failures[0]?.error;
    assert.ok(err instanceof ConsentRequired, String(err));
    assert.equal(err.anchor, 'C2');
    assert.equal(err.consentMissing, true);
    assert.deepEqual(
      peer.bodies.map((b) => b.type),
      ['handshake'],
      'no query body reached the peer before consent',
    );

    await host.grantConsent(d.routingId, { grantor: ALICE });
    r = await host.queryAll({ ...SAMPLE_QUERY, goal: 'PAYLOAD-MARKER' });
    assert.equal(r.failures.length, 0, r.failures.map((f) => f.error.message).join('\n'));
    assert.ok(r.answers[0]!.frames.length > 0);
    assert.deepEqual(
      peer.bodies.map((b) => b.type),
      ['handshake', 'query'],
    );
    // Correlation over HTTP: the bundled provider declares it, so the query carried an id that was echoed.
    assert.equal(typeof peer.bodies[1]!.id, 'string');
  });

  it('the same name over http:// is refused (InsecureTransport) with zero lookups and zero connections', async () => {
    const peer = await startTlsPeer({ cert });
    peers.push(peer);
    const { lookup, calls } = loopbackLookup();
    const host = new Host();
    hosts.push(host);
    const before = peer.connections;
    const { error } = await timed(host.connectHttp(`http://${TLS_NAME}:${peer.port}/cgp`, { lookup, credential: new Credential('tok-plain-123') }));
    assert.ok(error instanceof InsecureTransport, String(error));
    assert.equal(error.anchor, 'C7');
    assert.equal(error.host, TLS_NAME);
    assert.match(error.message, /^C7: refusing plaintext http:\/\/ to non-loopback host provider\.example\.test/);
    assert.deepEqual(calls, [], 'not even a DNS query left');
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(peer.connections, before, 'no TCP connection was opened');
    assert.equal(host.providers().length, 0);
  });

  it('pure rules: loopback http is allowed and not egress; https to any host is allowed; C4 forces egress off-loopback', () => {
    assert.equal(checkHttpTarget('http://127.0.0.1:9/x').loopback, true);
    assert.equal(checkHttpTarget('http://[::1]:9/').loopback, true);
    assert.equal(checkHttpTarget(`https://${TLS_NAME}/`).loopback, false);
    for (const bad of ['http://10.0.0.5/', 'http://127.0.0.1.example.com/', 'http://[2001:db8::1]/', `http://${TLS_NAME}/`]) {
      assert.throws(() => checkHttpTarget(bad), InsecureTransport, bad);
    }
    assert.throws(() => checkHttpTarget('not a url'), TransportFailure);
    assert.deepEqual(effectiveEgress(false, 'http', false), { egress: true, forcedBy: 'C4' });
    assert.deepEqual(effectiveEgress(false, 'http', true), { egress: false });
    assert.deepEqual(effectiveEgress(false, 'http', true, { loopbackHttpIsEgress: true }), { egress: true, forcedBy: 'policy' });
    assert.deepEqual(effectiveEgress(false, 'stdio', true), { egress: false });
  });
});

describe('C8: the credential appears nowhere', () => {
  it('a failing HTTP run with a credential writes the token to no log, error, inspect output or report', async () => {
    const TOKEN = 'cgp-test-SECRET-9f8e7d6c5b4a';
    const wrongPeer = await startTlsPeer({ cert, requireToken: 'a-different-token' }); // 401, echoes what it got
    const echoPeer = await startTlsPeer({ cert, echoAuthInError: true }); // error message quotes the header
    peers.push(wrongPeer, echoPeer);
    const { lookup } = loopbackLookup();
    const logs = captureLog();
    const credential = new Credential(TOKEN);
    const host = new Host({ log: (e) => logs.log(e), policies: { skipConsentGate: true } });
    hosts.push(host);

    const surfaced: unknown[] = [];
    // 1. The handshake is refused with 401 and a body that echoes the Authorization header.
    const refused = await timed(host.connectHttp(`https://${TLS_NAME}:${wrongPeer.port}/`, { lookup, ca: cert.cert, credential }));
    assert.ok(refused.error instanceof TransportFailure, String(refused.error));
    assert.equal(refused.error.status, 401);
    surfaced.push(refused.error);
    assert.ok(wrongPeer.authorizations.includes(`Bearer ${TOKEN}`), 'the credential was attached by the client');

    // 2. A provider that echoes the token inside an error reply.
    await host.connectHttp(`https://${TLS_NAME}:${echoPeer.port}/`, { lookup, ca: cert.cert, credential, alias: 'echo' });
    const r = await host.queryAll(SAMPLE_QUERY);
    assert.ok(r.failures[0]?.error instanceof ProviderError);
    surfaced.push(r, r.failures[0]!.error);
    const direct = await timed(host.queryProvider('echo', SAMPLE_QUERY));
    surfaced.push(direct.error);

    // 3. Everything a user could see or ship off-machine.
    const texts = [
      logs.text(),
      ...surfaced.map((s) => inspect(s, { depth: Infinity, showHidden: true })),
      ...surfaced.map((s) => (s instanceof Error ? `${s.message}\n${s.stack}` : '')),
      JSON.stringify(r),
      JSON.stringify(host.providers()),
      JSON.stringify(host),
      inspect(host, { depth: Infinity, showHidden: true }),
      inspect(host.connection('echo'), { depth: Infinity, showHidden: true }),
      String(credential),
      inspect(credential),
      JSON.stringify({ credential }),
      JSON.stringify(host.connection('echo').transcript.entries),
    ];
    for (const t of texts) assert.equal(t.includes(TOKEN), false, `token leaked in: ${t.slice(0, 300)}`);
    assert.match(logs.text(), /<redacted>/, 'the echo was scrubbed, not dropped');
  });
});
