// Verify and reuse (D2–D4, V1–V4): identities only, digest-bearing only, match by identity, default-deny.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ErrorEnvelope, FrameId, HandshakeAckEnvelope, VerifiedEnvelope, VerifyRequest } from '../../generated/types/index.js';
import { FrameStore, verifyHeld, type VerifySend } from '../../src/host/verify-reuse.js';
import type { ProviderDescriptor, ReceivedFrame } from '../../src/host/types.js';
import { sha256Digest } from '../../src/protocol/index.js';
import { createProvider, type Provider } from '../../src/provider/core.js';
import { corpus } from '../provider/script.js';

const NAME = 'code-graph';
const d = (s: string) => sha256Digest(s);

function descriptor(capabilities: Record<string, unknown> = { verify: true }, name = NAME): ProviderDescriptor {
  const ack = {
    type: 'handshake_ack',
    protocol_version: 'contextgraph/1.0',
    provider: { name, version: '1', data_flow: { reads: true, writes: false, egress: false } },
    capabilities: { query: { kinds: ['doc'] }, ...capabilities },
  } as HandshakeAckEnvelope;
  return { routingId: `local-${name}`, name, version: '1', ack, transport: 'stdio', egress: false, offMachineScopes: [] };
}

function received(frameId: string, digest?: string | null, provider = NAME, rank = 0): ReceivedFrame {
  const id: FrameId = { provider_id: provider, frame_id: frameId };
  if (digest !== undefined) id.content_digest = digest;
  return {
    frameId: id,
    frame: { id: frameId, kind: 'doc', title: frameId, content: `body of ${frameId}`, score: 0.5, token_cost: 3, ...(digest ? { content_digest: digest } : {}) },
    providerRoutingId: `local-${provider}`,
    rank,
  };
}

type Verdict = { frame: FrameId; status: string; replacement_digest?: unknown };

/** A scripted provider: answers with `verdicts(request)`, records every request and id. */
function scripted(verdicts: (req: VerifyRequest) => Verdict[], extra: Partial<VerifiedEnvelope> = {}) {
  const calls: { request: VerifyRequest; id?: string }[] = [];
  const send: VerifySend = async (request, id) => {
    calls.push({ request: structuredClone(request), ...(id !== undefined ? { id } : {}) });
    return { type: 'verified', ...(id !== undefined ? { id } : {}), response: { verdicts: verdicts(request) }, ...extra } as VerifiedEnvelope;
  };
  return { send, calls };
}

const echo = (status: string) => (req: VerifyRequest) => req.frames.map((frame) => ({ frame, status }));
const ids = (frames: ReceivedFrame[]) => frames.map((f) => f.frameId.frame_id);

describe('verifyHeld: what is sent (V1, D3)', () => {
  it('sends identity members only, only digest-bearing identities, each identity once', async () => {
    const { send, calls } = scripted(echo('valid'));
    const held = [received('a', d('a')), received('b'), received('c', null), received('a', d('a'), NAME, 3), received('e', 'sha256:abc')];
    const out = await verifyHeld(held, send, { provider: descriptor() });
    assert.equal(calls.length, 1);
    assert.deepEqual(calls[0]!.request, { frames: [{ provider_id: NAME, frame_id: 'a', content_digest: d('a') }] });
    assert.deepEqual(Object.keys(calls[0]!.request.frames[0]!).sort(), ['content_digest', 'frame_id', 'provider_id']);
    assert.deepEqual(ids(out.retained), ['a', 'a']);
    assert.deepEqual(
      out.dropped.map((x) => [x.frameId.frame_id, x.reason]),
      [
        ['b', 'no-digest'],
        ['c', 'no-digest'],
        ['e', 'malformed-digest'],
      ],
    );
    assert.deepEqual(ids(out.requery), ['b', 'c', 'e'], 'digest-less frames are re-queried, never reused (D3)');
    assert.equal(out.retained.length + out.dropped.length, held.length, 'the partition is total');
  });

  it('a provider without capabilities.verify is never sent a verify: everything is re-queried', async () => {
    const { send, calls } = scripted(echo('valid'));
    for (const caps of [{}, { verify: false }]) {
      const out = await verifyHeld([received('a', d('a')), received('b')], send, { provider: descriptor(caps) });
      assert.deepEqual(out.retained, []);
      assert.deepEqual(
        out.dropped.map((x) => x.reason),
        ['verify-unsupported', 'no-digest'],
      );
      assert.deepEqual(ids(out.requery), ['a', 'b']);
    }
    assert.equal(calls.length, 0);
  });

  it("nothing askable ⇒ nothing sent; empty input ⇒ empty outcome; frames of another provider are not this one's", async () => {
    const { send, calls } = scripted(echo('valid'));
    assert.deepEqual(await verifyHeld([], send, { provider: descriptor() }), { retained: [], requery: [], dropped: [], findings: [], sent: [] });
    const out = await verifyHeld([received('x', d('x'), 'other')], send, { provider: descriptor() });
    assert.deepEqual(
      out.dropped.map((x) => x.reason),
      ['foreign-provider'],
    );
    assert.deepEqual(out.requery, []);
    assert.equal(calls.length, 0);
  });

  it('an id only for a provider declaring correlation; echoed id accepted, missing id a warning, wrong id H4 and nothing reused', async () => {
    const plain = scripted(echo('valid'));
    await verifyHeld([received('a', d('a'))], plain.send, { provider: descriptor() });
    assert.equal(plain.calls[0]!.id, undefined, 'S3.2: no id to a provider without correlation');

    const correlated = scripted(echo('valid'));
    const ok = await verifyHeld([received('a', d('a'))], correlated.send, { provider: descriptor({ verify: true, correlation: true }), correlationId: 'v-7' });
    assert.equal(correlated.calls[0]!.id, 'v-7');
    assert.deepEqual([ids(ok.retained), ok.findings], [['a'], []]);

    const silent: VerifySend = async (request) => ({ type: 'verified', response: { verdicts: request.frames.map((frame) => ({ frame, status: 'valid' as const })) } });
    const noId = await verifyHeld([received('a', d('a'))], silent, { provider: descriptor({ verify: true, correlation: true }) });
    assert.deepEqual(ids(noId.retained), ['a']);
    assert.deepEqual(
      noId.findings.map((f) => [f.id, f.severity]),
      [['S9-verify-correlation', 'warning']],
    );

    const wrong: VerifySend = async (request, id) => ({ type: 'verified', id: `${id}-x`, response: { verdicts: request.frames.map((frame) => ({ frame, status: 'valid' as const })) } });
    const bad = await verifyHeld([received('a', d('a'))], wrong, { provider: descriptor({ verify: true, correlation: true }) });
    assert.deepEqual(bad.retained, []);
    assert.deepEqual(
      bad.dropped.map((x) => x.reason),
      ['verify-failed'],
    );
    assert.deepEqual(
      bad.findings.map((f) => f.id),
      ['H4'],
    );
  });
});

describe('verifyHeld: reading verdicts (V2–V4)', () => {
  const held = () => [received('v', d('v'), NAME, 0), received('s', d('s'), NAME, 1), received('g', d('g'), NAME, 2), received('u', d('u'), NAME, 3), received('m', d('m'), NAME, 4)];
  const statusFor: Record<string, string> = { v: 'valid', s: 'stale', g: 'gone', u: 'unknown' };

  it('matches by full identity, never by position: reordered and partial answers', async () => {
    const { send } = scripted((req) =>
      req.frames
        .filter((f) => f.frame_id !== 'm')
        .map((frame) => ({ frame, status: statusFor[frame.frame_id]!, ...(frame.frame_id === 's' ? { replacement_digest: d('s2') } : {}) }))
        .reverse(),
    );
    const out = await verifyHeld(held(), send, { provider: descriptor() });
    assert.deepEqual(ids(out.retained), ['v'], 'only valid is reused (V3)');
    assert.deepEqual(
      out.dropped.map((x) => [x.frameId.frame_id, x.reason, x.replacementDigest]),
      [
        ['s', 'stale', d('s2')],
        ['g', 'gone', undefined],
        ['u', 'unknown', undefined],
        ['m', 'unknown', undefined],
      ],
    );
    assert.match(out.dropped[3]!.detail, /V2/, 'a requested identity with no verdict is unknown');
    assert.deepEqual(ids(out.requery), ['s', 'u', 'm'], 'gone is not re-queried');
    assert.deepEqual(out.findings, []);
  });

  it('a valid verdict for a DIFFERENT digest (or provider) does not validate the held frame', async () => {
    const { send } = scripted((req) =>
      req.frames.flatMap((frame) => [
        { frame: { ...frame, content_digest: d('other') }, status: 'valid' },
        { frame: { ...frame, provider_id: 'someone-else' }, status: 'valid' },
        { frame: { provider_id: frame.provider_id, frame_id: frame.frame_id }, status: 'valid' },
      ]),
    );
    const out = await verifyHeld([received('a', d('a'))], send, { provider: descriptor() });
    assert.deepEqual(out.retained, []);
    assert.deepEqual(
      out.dropped.map((x) => x.reason),
      ['unknown'],
    );
    assert.deepEqual(
      out.findings.map((f) => [f.id, f.severity]),
      [
        ['V2', 'warning'],
        ['V2', 'warning'],
        ['V2', 'warning'],
      ],
    );
  });

  it('stale with a malformed replacement_digest: V4 finding, replacement ignored, copy still discarded', async () => {
    const { send } = scripted((req) => req.frames.map((frame) => ({ frame, status: 'stale', replacement_digest: 'the whole new body' })));
    const out = await verifyHeld([received('a', d('a'))], send, { provider: descriptor() });
    assert.deepEqual(
      out.dropped.map((x) => [x.reason, x.replacementDigest]),
      [['stale', undefined]],
    );
    assert.deepEqual(
      out.findings.map((f) => [f.id, f.severity, f.pointer]),
      [['V4', 'error', '/response/verdicts/0/replacement_digest']],
    );
  });

  it('unrecognised status and contradictory verdicts read as unknown, never validity', async () => {
    const weird = scripted((req) => req.frames.map((frame) => ({ frame, status: 'fresh' })));
    const a = await verifyHeld([received('a', d('a'))], weird.send, { provider: descriptor() });
    assert.deepEqual([a.retained, a.dropped.map((x) => x.reason), a.findings.map((f) => f.id)], [[], ['unknown'], ['S2-wire-shape']]);
    const torn = scripted((req) =>
      req.frames.flatMap((frame) => [
        { frame, status: 'valid' },
        { frame, status: 'gone' },
      ]),
    );
    const b = await verifyHeld([received('a', d('a'))], torn.send, { provider: descriptor() });
    assert.deepEqual([b.retained, b.dropped.map((x) => x.reason), b.findings.map((f) => f.id)], [[], ['unknown'], ['V3']]);
    const repeated = scripted((req) =>
      req.frames.flatMap((frame) => [
        { frame, status: 'valid' },
        { frame, status: 'valid' },
      ]),
    );
    assert.deepEqual(ids((await verifyHeld([received('a', d('a'))], repeated.send, { provider: descriptor() })).retained), ['a']);
  });

  it('error reply, timeout, transport failure, non-verified reply, malformed verdicts: nothing reused', async () => {
    const error: VerifySend = async () => ({ type: 'error', code: 'internal', message: 'down' }) as ErrorEnvelope;
    const hang: VerifySend = () => new Promise(() => {});
    const thrown: VerifySend = async () => {
      throw new Error('peer closed');
    };
    const frames = async () => ({ type: 'frames', result: { frames: [], truncated: false } }) as unknown as VerifiedEnvelope;
    const hollow = async () => ({ type: 'verified', response: {} }) as VerifiedEnvelope;
    const cases: [VerifySend, string][] = [
      [error, 'V2'],
      [hang, 'V2'],
      [thrown, 'V2'],
      [frames, 'V2'],
      [hollow, 'S2-wire-shape'],
    ];
    for (const [send, finding] of cases) {
      const out = await verifyHeld([received('a', d('a')), received('b', d('b'))], send, { provider: descriptor(), timeoutMs: 50 });
      assert.deepEqual(out.retained, []);
      assert.deepEqual(
        out.dropped.map((x) => x.reason),
        ['verify-failed', 'verify-failed'],
      );
      assert.deepEqual(ids(out.requery), ['a', 'b']);
      assert.deepEqual(
        out.findings.map((f) => f.id),
        [finding],
      );
    }
  });
});

describe('verifyHeld against the reference provider core (in-process)', () => {
  const NAME_REF = 'example-docs';
  const sendTo =
    (p: Provider): VerifySend =>
    async (request, id) =>
      (await p.handle({ type: 'verify', ...(id !== undefined ? { id } : {}), request })).envelopes[0] as unknown as VerifiedEnvelope;
  const current = corpus.frames.slice(0, 3).map((f, i) => received(f.spec.id, f.contentDigest, NAME_REF, i));
  const changed = received(corpus.frames[3]!.spec.id, d('an old rendering'), NAME_REF, 3);
  const retired = received('frm_install_legacy', d('retired'), NAME_REF, 4);
  const held = [...current, changed, retired, received(corpus.frames[4]!.spec.id, undefined, NAME_REF, 5)];

  async function run(mode?: string) {
    const p = createProvider({ corpus, ...(mode ? { misbehave: mode } : {}) });
    return verifyHeld(held, sendTo(p), { provider: { ...descriptor({}, NAME_REF), ack: p.ack } });
  }

  it('honest: current ⇒ retained; changed ⇒ stale with its replacement digest; retired ⇒ gone; digest-less ⇒ re-query', async () => {
    const out = await run();
    assert.deepEqual(ids(out.retained), ids(current));
    assert.deepEqual(
      out.dropped.map((x) => [x.frameId.frame_id, x.reason]),
      [
        [changed.frameId.frame_id, 'stale'],
        ['frm_install_legacy', 'gone'],
        [corpus.frames[4]!.spec.id, 'no-digest'],
      ],
    );
    assert.equal(out.dropped[0]!.replacementDigest, corpus.frames[3]!.contentDigest);
    assert.deepEqual(out.findings, []);
    assert.equal(out.sent.length, 5);
  });

  it('hollow-verify ⇒ nothing reused; refuse-verify ⇒ V2; malformed-replacement-digest ⇒ V4; wrong-verify-correlation-id ⇒ H4', async () => {
    assert.deepEqual((await run('hollow-verify')).retained, []);
    const refused = await run('refuse-verify');
    assert.deepEqual([refused.retained, refused.findings.map((f) => f.id)], [[], ['V2']]);
    const malformed = await run('malformed-replacement-digest');
    assert.deepEqual(
      malformed.findings.map((f) => f.id),
      ['V4'],
    );
    assert.equal(malformed.dropped.find((x) => x.reason === 'stale')!.replacementDigest, undefined);
    const wrongId = await run('wrong-verify-correlation-id');
    assert.deepEqual([wrongId.retained, wrongId.findings.map((f) => f.id)], [[], ['H4']]);
    // A lying provider's valid is still only a claim: the host reuses it (V3 binds the provider).
    const rubber = await run('rubber-stamp-verify');
    assert.equal(rubber.retained.length, 5);
  });
});

describe('FrameStore', () => {
  it('stores only digest-bearing frames (D3), serves a body only after valid, evicts stale/gone/unknown (V4)', async () => {
    const store = new FrameStore();
    const added = store.add([received('v', d('v')), received('s', d('s')), received('g', d('g')), received('n'), received('v', d('v'), NAME, 9)]);
    assert.deepEqual([added.stored, ids(added.refused), store.size], [4, ['n'], 3]);
    assert.equal(store.reusable({ provider_id: NAME, frame_id: 'v', content_digest: d('v') }), undefined, 'never reused unverified');
    const { send } = scripted((req) =>
      req.frames.map((frame) => ({ frame, status: { v: 'valid', s: 'stale', g: 'gone' }[frame.frame_id] ?? 'unknown', ...(frame.frame_id === 's' ? { replacement_digest: d('s2') } : {}) })),
    );
    const out = await store.verify(descriptor(), send);
    assert.deepEqual(ids(out.retained), ['v']);
    assert.equal(store.size, 1);
    assert.equal(store.reusable({ provider_id: NAME, frame_id: 'v', content_digest: d('v') })?.frameId.frame_id, 'v');
    assert.equal(store.reusable({ provider_id: NAME, frame_id: 'v', content_digest: d('other') }), undefined, 'identity includes the digest (D2)');
    assert.equal(store.has({ provider_id: NAME, frame_id: 's', content_digest: d('s') }), false);
    assert.equal(store.replacementDigest({ provider_id: NAME, frame_id: 's', content_digest: d('s') }), d('s2'));
    store.expire();
    assert.equal(store.reusable({ provider_id: NAME, frame_id: 'v', content_digest: d('v') }), undefined, 'expired ⇒ verify again');
  });

  it('a failed verify evicts everything it asked about; frames of other providers are untouched', async () => {
    const store = new FrameStore();
    store.add([received('a', d('a')), received('b', d('b'), 'other')]);
    const failing: VerifySend = async () => ({ type: 'error', message: 'nope' }) as ErrorEnvelope;
    const out = await store.verify(descriptor(), failing);
    assert.deepEqual(
      out.dropped.map((x) => x.reason),
      ['verify-failed'],
    );
    assert.deepEqual(ids(store.held()), ['b']);
    assert.deepEqual(ids(store.held('other')), ['b']);
  });
});
