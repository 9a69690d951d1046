// The ingest provider core: what it advertises per binding (no `reference` over a transport, §6.4.1),
// kinds (Q1), as_of, budgets (B1/B4), correlation (H4), verify (V2–V4), and the [full] re-query that backs
// resolve:true.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkFrame, checkHandshakeAck } from '../../src/protocol/index.js';
import { createIngestProvider, INGEST_PROVIDER_NAME, serveIngestHttp } from '../../src/ingest/index.js';
import { ingestExample, requery } from './helpers.js';

const r = ingestExample();

function ask(transport: boolean, envelope: object) {
  return createIngestProvider(r.store, { transport }).handle(envelope).envelopes[0] as Record<string, any>;
}
const q = (over: object = {}) => ({ type: 'query', id: 7, query: { goal: 'g', max_frames: 10, max_tokens: 100_000, ...over } });

describe('ingest provider', () => {
  it('advertises [full, compact] over a transport and [full, compact, reference] in-process, resolve true, egress false', () => {
    const wire = createIngestProvider(r.store, { transport: true }).ack as Record<string, any>;
    const local = createIngestProvider(r.store, { transport: false }).ack as Record<string, any>;
    assert.deepEqual(wire.capabilities.representations, ['full', 'compact']);
    assert.deepEqual(local.capabilities.representations, ['full', 'compact', 'reference']);
    for (const ack of [wire, local]) {
      assert.equal(ack.capabilities.resolve, true);
      assert.equal(ack.provider.name, INGEST_PROVIDER_NAME);
      assert.deepEqual(ack.provider.data_flow, { reads: true, writes: false, egress: false, egress_scopes: ['local-only'] });
      assert.deepEqual(ack.capabilities.query.kinds, ['doc', 'episode', 'fact']);
      assert.deepEqual(
        checkHandshakeAck(ack, '').filter((f) => f.severity === 'error'),
        [],
      );
    }
  });
  it('serves reference in-process only (P3: no content, no digest, cost 0); over a transport reference is refused (P5)', () => {
    const ref = requery(r, ['reference']);
    assert.equal(ref.length, 4);
    for (const f of ref) {
      assert.equal(f.representation, 'reference');
      assert.equal(f.content, undefined);
      assert.equal(f.content_digest, undefined);
      assert.equal(f.token_cost, 0);
      assert.deepEqual(checkFrame(f, '/f'), []);
    }
    const refused = ask(true, q({ representation_preferences: ['reference'] }));
    assert.equal(refused.type, 'error');
    assert.equal(refused.code, 'unsupported_representation');
    assert.equal(refused.id, 7);
  });
  it('every representation is honest on its own bytes (B3, §6.3) and the three agree on the canonical hash', () => {
    const [full, compact, ref] = [requery(r, ['full']), requery(r, ['compact']), requery(r, ['reference'])];
    for (let i = 0; i < full.length; i++) {
      assert.equal(compact[i]!.canonical_content_hash, full[i]!.content_digest);
      assert.equal(ref[i]!.canonical_content_hash, full[i]!.content_digest);
      assert.equal(compact[i]!.canonical_token_cost, full[i]!.token_cost);
      for (const f of [full[i]!, compact[i]!]) assert.deepEqual(checkFrame(f, '/f'), []);
    }
  });
  it('kinds filter (Q1), unsupported_kind, as_of window, budgets (B1/B4) with honest truncation', () => {
    const facts = ask(true, q({ kinds: ['fact'] }));
    assert.deepEqual(
      facts.result.frames.map((f: any) => f.kind),
      ['fact'],
    );
    assert.equal(ask(true, q({ kinds: ['symbol'] })).code, 'unsupported_kind');
    const before = ask(true, q({ as_of: '2026-07-20T17:00:00Z' }));
    assert.ok(!before.result.frames.some((f: any) => f.title.startsWith('log')), 'the log window starts later');
    const during = ask(true, q({ as_of: '2026-07-20T18:01:00Z' }));
    assert.ok(during.result.frames.some((f: any) => f.title.startsWith('log')));
    const one = ask(true, q({ max_frames: 1 }));
    assert.equal(one.result.frames.length, 1);
    assert.equal(one.result.truncated, true);
    assert.equal(one.result.dropped_estimate, 3);
    const none = ask(true, q({ max_tokens: 1 }));
    assert.deepEqual(none.result.frames, []);
    assert.equal(none.result.truncated, true);
  });
  it('verify: served digests valid (full and compact), another digest stale with the [full] digest, unknown ids gone, foreign providers unknown', () => {
    const f = r.frames[0]!;
    const full = requery(r, ['full'])[0]!;
    const frames = [
      { provider_id: INGEST_PROVIDER_NAME, frame_id: f.id, content_digest: f.content_digest },
      { provider_id: INGEST_PROVIDER_NAME, frame_id: f.id, content_digest: full.content_digest },
      { provider_id: INGEST_PROVIDER_NAME, frame_id: f.id, content_digest: `sha256:${'0'.repeat(64)}` },
      { provider_id: INGEST_PROVIDER_NAME, frame_id: 'frm_000000000000', content_digest: f.content_digest },
      { provider_id: 'someone-else', frame_id: f.id, content_digest: f.content_digest },
      { provider_id: INGEST_PROVIDER_NAME, frame_id: f.id },
    ];
    const v = ask(true, { type: 'verify', id: 'v', request: { frames } });
    assert.equal(v.type, 'verified');
    assert.equal(v.id, 'v');
    assert.deepEqual(
      v.response.verdicts.map((x: any) => x.status),
      ['valid', 'valid', 'stale', 'gone', 'unknown', 'unknown'],
    );
    assert.equal(v.response.verdicts[2].replacement_digest, full.content_digest);
  });
  it('the frame checks bite on ingest frames: a tampered cost (B3/P4), digest (§6.3) or a full frame with a canonical hash (P1) fails', () => {
    const compact = requery(r, ['compact'])[1]!;
    const ids = (f: object) => checkFrame(f, '/f').map((x) => x.id);
    assert.ok(ids({ ...compact, token_cost: compact.token_cost + 1 }).includes('B3'));
    assert.ok(ids({ ...compact, content_digest: compact.canonical_content_hash }).includes('S6.3-content-digest'));
    const full = requery(r, ['full'])[0]!;
    assert.ok(ids({ ...full, canonical_content_hash: full.content_digest }).includes('P1'));
    assert.ok(ids({ ...compact, valid_from: '2026-07-20 18:00:00' }).includes('F4'));
  });
  it('handshake: foreign family refused (H3), query before handshake refused on stdio (S3), garbage answered (R1), shutdown exits 0', () => {
    const p = createIngestProvider(r.store, { transport: true, requireHandshake: true });
    assert.equal((p.handle(q()).envelopes[0] as any).code, 'bad_request');
    assert.equal((p.handle({ type: 'handshake', protocol_version: 'contextgraph/2.0' }).envelopes[0] as any).code, 'incompatible_version');
    assert.equal((p.handle({ type: 'handshake', protocol_version: 'contextgraph/1.3' }).envelopes[0] as any).type, 'handshake_ack');
    assert.equal((p.handle(q()).envelopes[0] as any).type, 'frames');
    assert.equal((p.handle('{nope').envelopes[0] as any).code, 'bad_request');
    assert.deepEqual(p.handle({ type: 'vendor.ping' }).envelopes, []);
    assert.equal(p.handle({ type: 'shutdown' }).exit, 0);
  });
  it('over HTTP: one envelope per POST (a query needs no handshake first), 204 for a notification, shutdown closes the listener with 0', async () => {
    const running = await serveIngestHttp(r.store, { port: 0 });
    try {
      assert.match(running.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
      const post = async (body: object) => {
        const res = await fetch(running.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        return { status: res.status, body: res.status === 204 ? null : ((await res.json()) as Record<string, any>) };
      };
      const frames = await post({ ...q(), query: { goal: 'g', max_frames: 10, max_tokens: 100_000, representation_preferences: ['compact'] } });
      assert.equal(frames.status, 200);
      assert.equal(frames.body!.type, 'frames');
      assert.equal(frames.body!.id, 7);
      assert.equal(frames.body!.result.frames.length, 4);
      for (const f of frames.body!.result.frames) assert.deepEqual(checkFrame(f, `/${f.id}`), []);
      const ack = await post({ type: 'handshake', protocol_version: 'contextgraph/1.0' });
      assert.equal(ack.body!.type, 'handshake_ack');
      assert.equal((await post({ type: 'some_notification' })).status, 204);
      assert.equal((await post({ type: 'shutdown' })).status, 204);
      assert.equal(await running.done, 0);
    } finally {
      await running.close();
    }
  });
});
