// Fan-out: concurrency and isolation (ProviderCrashed, ProviderTimeout), E1 stripping, Q1 narrowing,
// P5 filtering, X1/X2 and S10 retries, U2 unknown kinds, the budget audit (B2) and FrameIds.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { Host, ProviderCrashed, ProviderError, ProviderTimeout, UnsupportedRepresentation } from '../../src/host/index.js';
import { BUNDLED_OPTS, bundled, recorded, SAMPLE_QUERY, scripted, tempDir } from '../fixtures/host/helpers.js';

const hosts: Host[] = [];
function newHost(opts: ConstructorParameters<typeof Host>[0] = {}): Host {
  const h = new Host(opts);
  hosts.push(h);
  return h;
}
after(async () => {
  await Promise.all(hosts.map((h) => h.close()));
});

function queriesSeen(file: string): Array<Record<string, unknown>> {
  return recorded(file)
    .filter((m) => m.type === 'query')
    .map((m) => m.query as Record<string, unknown>);
}

describe('fan-out: isolation', () => {
  it('a provider crashing mid-query is ProviderCrashed; the healthy one still returns', async () => {
    const host = newHost();
    await Promise.all([host.connectStdio(...bundled('crash-on-query'), { ...BUNDLED_OPTS, alias: 'crasher' }), host.connectStdio(...bundled(), { ...BUNDLED_OPTS, alias: 'healthy' })]);
    const r = await host.queryAll(SAMPLE_QUERY);
    assert.equal(r.failures.length, 1);
    assert.equal(r.failures[0]!.routingId, 'crasher');
    const err = r.failures[0]!.error;
    assert.ok(err instanceof ProviderCrashed, String(err));
    assert.equal(err.phase, 'query');
    assert.equal(err.exitCode, 1);
    assert.equal(r.answers.length, 1);
    assert.equal(r.answers[0]!.provider.routingId, 'healthy');
    assert.ok(r.answers[0]!.frames.length > 0);
  });

  it('a provider that never answers is a ProviderTimeout; the others still return', async () => {
    const host = newHost();
    await host.connectStdio(...bundled('hang-on-query'), { ...BUNDLED_OPTS, alias: 'hanger' });
    await host.connectStdio(...scripted({ name: 'quick' }));
    const t0 = Date.now();
    const r = await host.queryAll(SAMPLE_QUERY, { timeoutMs: 400 });
    assert.ok(Date.now() - t0 < 5_000);
    assert.equal(r.failures.length, 1);
    const err = r.failures[0]!.error;
    assert.ok(err instanceof ProviderTimeout, String(err));
    assert.equal(err.phase, 'query');
    assert.equal(err.timeoutMs, 400);
    assert.deepEqual(
      r.answers.map((a) => a.provider.routingId),
      ['quick'],
    );
  });
});

describe('fan-out: what each provider is sent', () => {
  it('E1: the embedding goes only where the fingerprint is exactly equal', async () => {
    const dir = tempDir();
    const same = path.join(dir, 'same.ndjson');
    const dimsOnly = path.join(dir, 'dims.ndjson');
    const none = path.join(dir, 'none.ndjson');
    const host = newHost({ embeddingFingerprint: 'bge-small/3/l2' });
    await host.connectStdio(...scripted({ name: 'same', fingerprint: 'bge-small/3/l2', record: same }));
    await host.connectStdio(...scripted({ name: 'unnormalised', fingerprint: 'bge-small/3', record: dimsOnly }));
    await host.connectStdio(...scripted({ name: 'no-embeddings', record: none }));
    const r = await host.queryAll({ ...SAMPLE_QUERY, embedding: [0.1, 0.2, 0.3] });
    assert.equal(r.answers.length, 3);
    assert.deepEqual(queriesSeen(same)[0]!.embedding, [0.1, 0.2, 0.3]);
    assert.equal('embedding' in queriesSeen(dimsOnly)[0]!, false);
    assert.equal('embedding' in queriesSeen(none)[0]!, false);
    assert.deepEqual(
      r.notes.filter((n) => n.rule === 'E1').map((n) => n.routingId),
      ['unnormalised', 'no-embeddings'],
    );
  });

  it('Q1: kinds are narrowed to what each provider declares; a provider declaring none is skipped with a reason', async () => {
    const dir = tempDir();
    const docs = path.join(dir, 'docs.ndjson');
    const code = path.join(dir, 'code.ndjson');
    const host = newHost();
    await host.connectStdio(...scripted({ name: 'docs', kinds: ['doc', 'fact'], record: docs }));
    await host.connectStdio(...scripted({ name: 'code', kinds: ['snippet'], record: code }));
    const r = await host.queryAll({ ...SAMPLE_QUERY, kinds: ['doc', 'diagram'] });
    assert.deepEqual(queriesSeen(docs)[0]!.kinds, ['doc']);
    assert.equal(queriesSeen(code).length, 0, 'a skipped provider is never contacted');
    assert.equal(r.skipped.length, 1);
    assert.equal(r.skipped[0]!.routingId, 'code');
    assert.match(r.skipped[0]!.reason, /^Q1: /);
    assert.equal(r.answers.length, 1);
  });

  it('P5: unadvertised representation preferences are filtered out (policy filter, the default)', async () => {
    const dir = tempDir();
    const fullOnly = path.join(dir, 'full.ndjson');
    const silent = path.join(dir, 'silent.ndjson');
    const host = newHost();
    await host.connectStdio(...scripted({ name: 'full-only', representations: ['full'], record: fullOnly }));
    await host.connectStdio(...scripted({ name: 'no-list', record: silent }));
    const r = await host.queryAll({ ...SAMPLE_QUERY, representation_preferences: ['compact', 'full'] });
    assert.equal(r.failures.length, 0);
    assert.deepEqual(queriesSeen(fullOnly)[0]!.representation_preferences, ['full']);
    assert.equal('representation_preferences' in queriesSeen(silent)[0]!, false, 'nothing unadvertised is ever sent');
    assert.equal(r.notes.filter((n) => n.rule === 'P5').length, 2);
  });

  it('P5: policy refuse fails the leg with UnsupportedRepresentation and sends nothing', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'seen.ndjson');
    const host = newHost({ policies: { representationPolicy: 'refuse' } });
    await host.connectStdio(...scripted({ name: 'full-only', representations: ['full'], record: file }));
    const r = await host.queryAll({ ...SAMPLE_QUERY, representation_preferences: ['compact'] });
    assert.equal(r.failures.length, 1);
    assert.ok(r.failures[0]!.error instanceof UnsupportedRepresentation);
    assert.equal(r.failures[0]!.error.anchor, 'P5');
    assert.equal(queriesSeen(file).length, 0);
  });
});

describe('fan-out: errors (X1, X2, S10)', () => {
  const cases: Array<[string, string | null, string, boolean]> = [
    ['unknown code', 'acme:quota', 'X1', false],
    ['absent code', null, 'X2', false],
    ['incompatible_version', 'incompatible_version', 'S10-not-retryable', false],
    ['bad_request', 'bad_request', '', false],
  ];
  for (const [label, code, anchor, retryable] of cases) {
    it(`${label}: kept verbatim, treated per X1/X2, never retried`, async () => {
      const dir = tempDir();
      const file = path.join(dir, 'seen.ndjson');
      const host = newHost();
      await host.connectStdio(...scripted({ name: 'err', errorCode: code, record: file }));
      const r = await host.queryAll(SAMPLE_QUERY, { maxRetries: 3, retryBackoffMs: 1 });
      const err = r.failures[0]?.error;
      assert.ok(err instanceof ProviderError, String(err));
      assert.equal(err.rawCode, code ?? undefined);
      assert.equal(err.effectiveCode, code === null || code === 'acme:quota' ? 'internal' : code);
      assert.equal(err.retryable, retryable);
      if (anchor) assert.equal(err.anchor, anchor);
      assert.equal(queriesSeen(file).length, 1, 'a non-retryable error is sent exactly once');
    });
  }

  it('a transient code (unavailable) is retried when retries are enabled', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'seen.ndjson');
    const host = newHost();
    await host.connectStdio(...scripted({ name: 'flaky', errorCode: 'unavailable', errorTimes: 1, record: file }));
    const r = await host.queryAll(SAMPLE_QUERY, { maxRetries: 2, retryBackoffMs: 1 });
    assert.equal(r.failures.length, 0);
    assert.equal(r.answers.length, 1);
    assert.equal(queriesSeen(file).length, 2);
  });
});

describe('fan-out: frames as received', () => {
  it('U2: an unknown kind is kept verbatim (members too), never a decode failure', async () => {
    const host = newHost();
    await host.connectStdio(
      ...scripted({
        name: 'diagrams',
        kinds: ['diagram'],
        serve: [{ id: 'frm_arch', kind: 'diagram', content: 'A -> B', extra: { x_layout: { dir: 'LR' } } }],
      }),
    );
    const r = await host.queryAll(SAMPLE_QUERY);
    assert.equal(r.failures.length, 0, r.failures.map((f) => f.error.message).join('\n'));
    const f = r.answers[0]!.frames[0]!;
    assert.equal(f.frame.kind, 'diagram');
    assert.deepEqual((f.frame as unknown as Record<string, unknown>).x_layout, { dir: 'LR' });
    assert.deepEqual(f.frameId, { provider_id: 'diagrams', frame_id: 'frm_arch', content_digest: f.frame.content_digest });
    assert.equal(f.rank, 0);
    assert.equal(f.providerRoutingId, 'diagrams');
  });

  it('every frame becomes a ReceivedFrame keyed by provider.name, in the provider order (rank)', async () => {
    const host = newHost();
    await host.connectStdio(...bundled(), { ...BUNDLED_OPTS, alias: 'docs' });
    const r = await host.queryAll(SAMPLE_QUERY);
    const a = r.answers[0]!;
    assert.equal(a.frames.length, a.result.frames.length);
    a.frames.forEach((f, i) => {
      assert.equal(f.rank, i);
      assert.equal(f.frameId.provider_id, 'example-docs', 'the declared name, never the alias');
      assert.equal(f.frameId.frame_id, a.result.frames[i]!.id);
      assert.equal(f.providerRoutingId, 'docs');
      assert.ok(f.evidence, 'attestation evidence is attached to admitted frames');
    });
  });

  it('B2: a provider breaking its budget is dropped whole, with a loud report', async () => {
    const host = newHost();
    await host.connectStdio(...bundled('lying-costs'), { ...BUNDLED_OPTS, alias: 'liar' });
    await host.connectStdio(...scripted({ name: 'honest' }));
    const r = await host.queryAll(SAMPLE_QUERY);
    assert.deepEqual(
      r.answers.map((a) => a.provider.routingId),
      ['honest'],
    );
    const audit = r.audits.find((x) => x.routingId === 'liar');
    assert.ok(audit && !audit.admitted);
    assert.ok(r.findings.some((f) => f.routingId === 'liar' && (f.id === 'B1' || f.id === 'B3')));
  });
});
