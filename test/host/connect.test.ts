// Connecting providers: handshake checks (H1/H3, H2, C5, S6.4.1-resolve-declared), identity and aliases,
// correlation (S3.2, H4), unknown envelope types (S2.1), verify correlation (decision 4), shutdown.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startBundledHttpProvider } from '../../src/provider/serve.js';
import { CorrelationMismatch, DuplicateProviderName, HandshakeFailed, Host, ProviderCrashed, ProviderError, ProviderTimeout, ScopeContradiction, VersionMismatch } from '../../src/host/index.js';
import { BUNDLED_OPTS, bundled, captureLog, NODE, PEER, recorded, SAMPLE_QUERY, scripted, tempDir, timed } from '../fixtures/host/helpers.js';
import path from 'node:path';

const hosts: Host[] = [];
function newHost(opts: ConstructorParameters<typeof Host>[0] = {}): Host {
  const h = new Host(opts);
  hosts.push(h);
  return h;
}
after(async () => {
  await Promise.all(hosts.map((h) => h.close()));
});

describe('connect: happy paths', () => {
  it('stdio: handshake, descriptor, a query, clean shutdown', async () => {
    const host = newHost();
    const d = await host.connectStdio(...bundled(), BUNDLED_OPTS);
    assert.equal(d.routingId, 'example-docs');
    assert.equal(d.name, 'example-docs');
    assert.equal(d.transport, 'stdio');
    assert.equal(d.egress, false);
    assert.deepEqual(d.offMachineScopes, []);
    const out = await host.queryProvider('example-docs', SAMPLE_QUERY);
    assert.equal(out.status, 'answered');
    assert.ok(out.status === 'answered' && out.result.frames.length > 0);
    const [report] = await host.close();
    assert.equal(report!.clean, true);
    assert.equal(report!.killed, false);
  });

  it('HTTP (loopback): handshake, not egress, a query', async () => {
    const server = await startBundledHttpProvider({ port: 0 });
    try {
      const host = newHost();
      const d = await host.connectHttp(server.handle.url);
      assert.equal(d.transport, 'http');
      assert.equal(d.egress, false, 'a loopback provider keeps its declared posture (C4 binds non-loopback)');
      const r = await host.queryAll(SAMPLE_QUERY);
      assert.equal(r.failures.length, 0, r.failures.map((f) => f.error.message).join('\n'));
      assert.equal(r.answers.length, 1);
      assert.ok(r.answers[0]!.frames.every((f) => f.frameId.provider_id === 'example-docs'));
      await host.close();
    } finally {
      await server.close();
    }
  });
});

describe('connect: handshake refusals', () => {
  it('H3: a foreign-family ack is a VersionMismatch, promptly (not the handshake timeout)', async () => {
    const host = newHost({ handshakeTimeoutMs: 10_000 });
    const { ms, error } = await timed(host.connectStdio(...bundled('bad-version'), BUNDLED_OPTS));
    assert.ok(error instanceof VersionMismatch, String(error));
    assert.equal(error.anchor, 'H3');
    assert.match(error.message, /^H3: /);
    assert.equal(error.providerVersion, 'contextgraph/2.0');
    assert.equal(error.providerName, 'example-docs');
    assert.equal(error.hostVersion, 'contextgraph/1.0');
    assert.ok(ms < 5_000, `refused after ${ms} ms; the handshake timeout is 10 000 ms`);
    assert.equal(host.providers().length, 0);
  });

  it('H3: a provider refusing our version (incompatible_version) is a VersionMismatch carrying a non-retryable ProviderError', async () => {
    const host = newHost({ hostVersion: 'contextgraph/2.0' });
    const { error } = await timed(host.connectStdio(...bundled(), BUNDLED_OPTS));
    assert.ok(error instanceof VersionMismatch, String(error));
    const cause = error.cause;
    assert.ok(cause instanceof ProviderError);
    assert.equal(cause.effectiveCode, 'incompatible_version');
    assert.equal(cause.retryable, false);
  });

  it('a silent provider is a named handshake timeout', async () => {
    const host = newHost({ handshakeTimeoutMs: 300 });
    const { ms, error } = await timed(host.connectStdio(NODE, [PEER, 'silent']));
    assert.ok(error instanceof ProviderTimeout, String(error));
    assert.equal(error.phase, 'handshake');
    assert.ok(ms < 3_000);
  });

  it('a provider dying mid-line during the handshake is ProviderCrashed; garbage instead of an ack is HandshakeFailed', async () => {
    const host = newHost();
    const crashed = await timed(host.connectStdio(NODE, [PEER, 'crash-mid-line']));
    assert.ok(crashed.error instanceof ProviderCrashed, String(crashed.error));
    assert.equal(crashed.error.phase, 'handshake');
    const garbage = await timed(host.connectStdio(NODE, [PEER, 'garbage-then-ok']));
    assert.ok(garbage.error instanceof HandshakeFailed, String(garbage.error));
    assert.equal(garbage.error.anchor, 'S2-wire-shape');
  });

  for (const mode of ['empty-provider-name', 'empty-provider-version']) {
    it(`H2: ${mode} is refused with HandshakeFailed naming H2`, async () => {
      const host = newHost();
      const { error } = await timed(host.connectStdio(...bundled(mode), BUNDLED_OPTS));
      assert.ok(error instanceof HandshakeFailed, String(error));
      assert.equal(error.anchor, 'H2');
      assert.match(error.message, /^H2 violated: /);
    });
  }

  for (const [mode, scope] of [
    ['scope-lie', 'third-party-index'],
    ['custom-scope-lie', 'acme:mirror'],
  ] as const) {
    it(`C5: ${mode} is rejected at the handshake`, async () => {
      const host = newHost();
      const { error } = await timed(host.connectStdio(...bundled(mode), BUNDLED_OPTS));
      assert.ok(error instanceof ScopeContradiction, String(error));
      assert.equal(error.anchor, 'C5');
      assert.deepEqual(error.scopes, [scope]);
      assert.match(error.message, /^C5 violated: /);
    });
  }

  it('S6.4.1-resolve-declared: compact without resolve is recorded as a finding, the provider stays usable', async () => {
    const logs = captureLog();
    const host = newHost({ log: logs.log });
    await host.connectStdio(...bundled('compact-without-resolve'), BUNDLED_OPTS);
    const f = host.findings().find((x) => x.id === 'S6.4.1-resolve-declared');
    assert.ok(f, JSON.stringify(host.findings()));
    assert.equal(f.routingId, 'example-docs');
    assert.match(logs.text(), /S6\.4\.1-resolve-declared/);
    const out = await host.queryProvider('example-docs', SAMPLE_QUERY);
    assert.equal(out.status, 'answered');
  });
});

describe('connect: identity and aliases (docs/interpretations.md §2)', () => {
  it('a second provider with the same name is refused without an alias, accepted with one', async () => {
    const host = newHost();
    await host.connectStdio(...scripted({ name: 'twin' }));
    const { error } = await timed(host.connectStdio(...scripted({ name: 'twin' })));
    assert.ok(error instanceof DuplicateProviderName, String(error));
    assert.equal(error.existingRoutingId, 'twin');
    const d2 = await host.connectStdio(...scripted({ name: 'twin' }), { alias: 'twin-b' });
    assert.equal(d2.routingId, 'twin-b');
    assert.equal(d2.name, 'twin');
    // An alias that is already a routing id is refused too.
    const clash = await timed(host.connectStdio(...scripted({ name: 'other' }), { alias: 'twin-b' }));
    assert.ok(clash.error instanceof DuplicateProviderName);
    assert.deepEqual(
      host.providers().map((d) => d.routingId),
      ['twin', 'twin-b'],
    );
    // FrameIds carry the declared name for both; the routing id keeps them apart in bookkeeping.
    const r = await host.queryAll(SAMPLE_QUERY);
    assert.equal(r.answers.length, 2);
    const [a, b] = r.answers;
    assert.equal(a!.frames[0]!.frameId.provider_id, 'twin');
    assert.equal(b!.frames[0]!.frameId.provider_id, 'twin');
    assert.deepEqual(
      r.answers.map((x) => x.frames[0]!.providerRoutingId),
      ['twin', 'twin-b'],
    );
  });
});

describe('connect: correlation (S3.2, H4)', () => {
  it('never sends an id to a provider that did not declare correlation (lock-step)', async () => {
    const dir = tempDir();
    const record = path.join(dir, 'seen.ndjson');
    const host = newHost();
    await host.connectStdio(...scripted({ name: 'lockstep', correlation: false, verify: true, record }));
    const outs = await Promise.all([1, 2, 3].map((i) => host.queryProvider('lockstep', { ...SAMPLE_QUERY, goal: `q${i}` })));
    assert.ok(outs.every((o) => o.status === 'answered'));
    await host.sendVerify('lockstep', { frames: [{ provider_id: 'lockstep', frame_id: 'frm_one' }] });
    await host.close();
    const seen = recorded(record);
    const requests = seen.filter((m) => m.type === 'query' || m.type === 'verify');
    assert.equal(requests.length, 4);
    for (const m of seen) assert.equal('id' in m, false, `sent ${JSON.stringify(m)}`);
  });

  it('after a lock-step timeout the connection fails fast (a late reply could not be attributed)', async () => {
    const host = newHost();
    await host.connectStdio(...scripted({ name: 'slow', correlation: false, delayMs: 400 }));
    const first = await timed(host.queryProvider('slow', SAMPLE_QUERY, { timeoutMs: 100 }));
    assert.ok(first.error instanceof ProviderTimeout, String(first.error));
    assert.equal(first.error.failFast, false);
    const second = await timed(host.queryProvider('slow', SAMPLE_QUERY, { timeoutMs: 5_000 }));
    assert.ok(second.error instanceof ProviderTimeout, String(second.error));
    assert.equal(second.error.failFast, true);
    assert.ok(second.ms < 1_000);
  });

  it('sendIdsToAll (misbehaving-host switch) is what it takes to send an id to a non-correlating provider', async () => {
    const dir = tempDir();
    const record = path.join(dir, 'seen.ndjson');
    const host = newHost({ policies: { sendIdsToAll: true } });
    await host.connectStdio(...scripted({ name: 'lockstep', correlation: false, record }));
    assert.equal((await host.queryProvider('lockstep', SAMPLE_QUERY)).status, 'answered');
    await host.close();
    assert.equal(typeof recorded(record).find((m) => m.type === 'query')!.id, 'string');
  });

  it('pipelines correlated queries and demultiplexes out-of-order replies by id', async () => {
    const dir = tempDir();
    const record = path.join(dir, 'seen.ndjson');
    const host = newHost();
    await host.connectStdio(...scripted({ name: 'pipe', correlation: true, concurrent: true, echoGoal: true, record }));
    const goals = ['delay=300 a', 'delay=150 b', 'delay=5 c', 'delay=80 d'];
    const outs = await Promise.all(goals.map((goal) => host.queryProvider('pipe', { ...SAMPLE_QUERY, goal })));
    outs.forEach((o, i) => {
      assert.equal(o.status, 'answered');
      assert.equal(o.status === 'answered' && o.result.frames[0]!.content, `goal: ${goals[i]}`);
    });
    const ids = recorded(record)
      .filter((m) => m.type === 'query')
      .map((m) => m.id);
    assert.equal(new Set(ids).size, 4, 'each in-flight query has its own id');
    assert.ok(ids.every((id) => typeof id === 'string'));
  });

  for (const [mode, got] of [
    ['wrong-correlation-id', /-x"/],
    ['drop-correlation-id', /<absent>/],
  ] as const) {
    it(`H4: ${mode} fails the query with CorrelationMismatch, fast`, async () => {
      const host = newHost({ requestTimeoutMs: 10_000 });
      await host.connectStdio(...bundled(mode), BUNDLED_OPTS);
      const { ms, error } = await timed(host.queryProvider('example-docs', SAMPLE_QUERY));
      assert.ok(error instanceof CorrelationMismatch, String(error));
      assert.equal(error.anchor, 'H4');
      assert.match(error.message, /^H4 violated: /);
      assert.match(error.message, got);
      assert.ok(ms < 5_000, `${ms} ms: must not wait for the request timeout`);
    });
  }
});

describe('connect: unknown envelope types (S2.1-unknown-type)', () => {
  it('ignores an unknown notification before the reply', async () => {
    const logs = captureLog();
    const host = newHost({ log: logs.log });
    await host.connectStdio(...scripted({ name: 'chatty', correlation: true, before: 'notify' }));
    const out = await host.queryProvider('chatty', SAMPLE_QUERY);
    assert.equal(out.status, 'answered');
    assert.match(logs.text(), /ignored an unrecognised notification of type "x-progress"/);
  });

  for (const correlation of [true, false]) {
    it(`answers a payload-bearing unknown type with bad_request and keeps going (correlation ${correlation})`, async () => {
      const dir = tempDir();
      const record = path.join(dir, 'seen.ndjson');
      const host = newHost();
      await host.connectStdio(...scripted({ name: 'asker', correlation, before: 'unknown-request', record }));
      const out = await host.queryProvider('asker', SAMPLE_QUERY);
      assert.equal(out.status, 'answered');
      const again = await host.queryProvider('asker', SAMPLE_QUERY);
      assert.equal(again.status, 'answered');
      await host.close();
      const replies = recorded(record).filter((m) => m.type === 'error');
      assert.equal(replies.length, 2);
      assert.equal(replies[0]!.code, 'bad_request');
      // The peer's id is echoed only on a connection that negotiated correlation (S3.2).
      assert.equal(replies[0]!.id, correlation ? 'p1' : undefined);
    });
  }
});

describe('connect: verify correlation (docs/interpretations.md §4)', () => {
  it('a verified reply without the id is accepted with an S9 warning', async () => {
    const host = newHost();
    await host.connectStdio(...scripted({ name: 'v', correlation: true, verify: true, verifiedId: 'omit' }));
    const reply = await host.sendVerify('v', { frames: [{ provider_id: 'v', frame_id: 'frm_one' }] });
    assert.equal(reply.type, 'verified');
    assert.ok(host.findings().some((f) => f.id === 'S9-verify-correlation' && f.severity === 'warning'));
  });

  it('a verified reply with a wrong id is CorrelationMismatch (H4)', async () => {
    const host = newHost();
    await host.connectStdio(...scripted({ name: 'vw', correlation: true, verify: true, verifiedId: 'wrong' }));
    const { error } = await timed(host.sendVerify('vw', { frames: [{ provider_id: 'vw', frame_id: 'frm_one' }] }));
    assert.ok(error instanceof CorrelationMismatch, String(error));
    // Queries on the same connection still work.
    assert.equal((await host.queryProvider('vw', SAMPLE_QUERY)).status, 'answered');
  });
});

describe('connect: shutdown', () => {
  it('a provider ignoring shutdown is killed (process group) after the grace period', async () => {
    const host = newHost({ shutdownGraceMs: 300 });
    await host.connectStdio(...bundled('ignore-shutdown'), BUNDLED_OPTS);
    const [report] = await host.close();
    assert.equal(report!.killed, true);
    assert.equal(report!.clean, false);
    assert.ok(report!.elapsedMs >= 250);
  });
});
