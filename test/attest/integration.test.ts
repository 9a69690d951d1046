// Attestation end to end: the bundled provider as a real stdio process (StdioConnection), the host library
// (attachEvidence / reverifyEvidence) on what it sends. The honest provider verifies `attested` for every
// frame and for the result root; every attestation misbehaviour mode yields its own distinct verdicts and
// findings; a composition-style subset keeps verifying without the dropped siblings (F13).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContextQueryResult, HandshakeAckEnvelope } from '../../generated/types/index.js';
import { frameCommitment, verifyInclusionProof } from '../../src/attest/index.js';
import { attachEvidenceDetailed, keysFor, reverifyEvidence } from '../../src/host/attestation.js';
import type { ProviderDescriptor, ReceivedFrame } from '../../src/host/types.js';
import { checkEnvelope, frameIdOf, PROTOCOL_VERSION, type JsonObject } from '../../src/protocol/index.js';
import { MISBEHAVIOURS } from '../../src/provider/misbehaviours.js';
import { StdioConnection } from '../../src/transport/stdio-client.js';
import { findPackageRoot } from '../../src/util/package-root.js';

const ROOT = findPackageRoot();
const PROVIDER = 'example-docs';
const ATTESTATION_IDS = new Set(['F6', 'F7', 'F8', 'F11', 'F12', 'F13']);

const SAMPLE = { goal: 'attestation probe', query_text: 'attestation probe', max_frames: 8, max_tokens: 4096 };
const TIGHT = { ...SAMPLE, max_frames: 2 };

interface Observed {
  /** Verdict per frame, in result order. */
  frames: string[];
  result: string;
  /** Distinct ids of attachEvidence's findings. */
  host: string[];
  /** Distinct attestation ids the single-envelope wire checks report (F6, F11 shape, F7 grammar). */
  wire: string[];
  received: ReceivedFrame[];
  provider: ProviderDescriptor;
  reasons: string[];
}

async function observe(mode: string | undefined, query: typeof SAMPLE): Promise<Observed> {
  const conn = await StdioConnection.spawn(process.execPath, ['--import', 'tsx', 'src/provider/main.ts', ...(mode ? ['--misbehave', mode] : [])], { cwd: ROOT });
  try {
    const ack = (await conn.handshake(PROTOCOL_VERSION)) as unknown as HandshakeAckEnvelope;
    assert.equal(ack.type, 'handshake_ack');
    const env = (await conn.requestWithId({ type: 'query', id: 'q-attest', query })) as unknown as JsonObject;
    assert.equal(env.type, 'frames', JSON.stringify(env).slice(0, 200));
    const result = env.result as unknown as ContextQueryResult;
    const provider: ProviderDescriptor = { routingId: 'docs-local', name: ack.provider.name, version: ack.provider.version, ack, transport: 'stdio', egress: false, offMachineScopes: [] };
    const received: ReceivedFrame[] = result.frames.map((frame, rank) => ({ frameId: frameIdOf(PROVIDER, frame), frame, providerRoutingId: 'docs-local', rank }));
    const evidence = attachEvidenceDetailed(provider, result, received);
    assert.equal(received.length, result.frames.length, 'F9: no frame dropped');
    const wire = checkEnvelope(env, '', { query, providerName: PROVIDER, overTransport: true })
      .map((f) => f.id)
      .filter((id) => ATTESTATION_IDS.has(id));
    return {
      frames: received.map((f) => f.evidence!.verdict),
      result: evidence.result.verdict,
      host: [...new Set(evidence.findings.map((f) => f.id))].sort(),
      wire: [...new Set(wire)].sort(),
      received,
      provider,
      reasons: received.map((f) => f.evidence!.reason ?? ''),
    };
  } finally {
    const down = await conn.shutdown();
    assert.equal(down.clean, true, 'provider exits 0 on shutdown');
  }
}

/** `first` for result.frames[0], `rest` for every other frame. */
interface Expected {
  mode: string;
  query: typeof SAMPLE;
  first: string;
  rest: string;
  result: string;
  host: string[];
  wire: string[];
}

const EXPECTED: Expected[] = [
  // F7: a genuine signature over another frame's commitment, stapled to frame 0.
  { mode: 'lifted-frame-signature', query: SAMPLE, first: 'commitment-mismatch', rest: 'attested', result: 'attested', host: [], wire: [] },
  // F7/F12/F13: frame 0 changed after signing; the others still prove themselves under the signed root.
  { mode: 'altered-after-signing', query: SAMPLE, first: 'commitment-mismatch', rest: 'attested', result: 'commitment-mismatch', host: ['F12', 'F13'], wire: [] },
  // F12: the root covers the untruncated candidate set (visible on a truncated answer).
  { mode: 'root-over-candidates', query: TIGHT, first: 'proof-mismatch', rest: 'proof-mismatch', result: 'commitment-mismatch', host: ['F12', 'F13'], wire: [] },
  // F13: a sibling hash altered.
  { mode: 'proof-not-recomputing', query: SAMPLE, first: 'proof-mismatch', rest: 'attested', result: 'attested', host: ['F13'], wire: [] },
  // F13: the same path claimed at another leaf_index.
  { mode: 'proof-replayed-at-other-index', query: SAMPLE, first: 'proof-mismatch', rest: 'attested', result: 'attested', host: ['F13'], wire: [] },
  // F6/F11: the attestation rides inside the frame — ignored, the frame degrades to unattested and is kept.
  { mode: 'attestation-inside-frame', query: SAMPLE, first: 'unattested', rest: 'unattested', result: 'unattested', host: [], wire: ['F6'] },
  // F11: entries implied by position carry no evidence.
  { mode: 'positional-attestations', query: SAMPLE, first: 'unattested', rest: 'unattested', result: 'unattested', host: ['F11'], wire: ['F11'] },
  // F11: an entry naming a frame the result does not carry; the carried frames are unaffected.
  { mode: 'attest-foreign-frame', query: TIGHT, first: 'attested', rest: 'attested', result: 'attested', host: ['F11'], wire: ['F11'] },
  // F8 (host side): genuine Ed448 signatures are uncheckable, never attested.
  { mode: 'unknown-attestation-algorithm', query: SAMPLE, first: 'uncheckable', rest: 'uncheckable', result: 'uncheckable', host: [], wire: [] },
  // A 33-byte ed25519 key: nothing can be checked under it.
  { mode: 'bad-attester-key-length', query: SAMPLE, first: 'uncheckable', rest: 'uncheckable', result: 'uncheckable', host: [], wire: [] },
];

describe('attestation end to end over stdio', { concurrency: true }, () => {
  it('honest provider: every frame attested, the result root attested, no findings (sample and truncated answers)', async () => {
    for (const query of [SAMPLE, TIGHT]) {
      const seen = await observe(undefined, query);
      assert.ok(seen.frames.length >= 2);
      assert.deepEqual(
        seen.frames,
        seen.frames.map(() => 'attested'),
        seen.reasons.join('\n'),
      );
      assert.equal(seen.result, 'attested');
      assert.deepEqual([seen.host, seen.wire], [[], []]);
      for (const f of seen.received) assert.ok(f.evidence!.inclusionProof && f.evidence!.resultRoot, 'proof retained for every frame');
    }
  });

  it('the table covers every attestation mode of the manifest', () => {
    const attestationModes = MISBEHAVIOURS.filter(
      (m) => [...m.breaks, ...((m as { exercises?: readonly string[] }).exercises ?? [])].some((id) => ['F6', 'F7', 'F8', 'F11', 'F12', 'F13'].includes(id)) || m.mode === 'bad-attester-key-length',
    ).map((m) => m.mode);
    assert.deepEqual(EXPECTED.map((e) => e.mode).sort(), [...attestationModes].sort());
  });

  for (const expected of EXPECTED) {
    it(`${expected.mode}: frame 0 ${expected.first}, others ${expected.rest}, root ${expected.result}, findings ${[...expected.host, ...expected.wire.map((id) => `wire:${id}`)].join(' ') || 'none'}`, async () => {
      const seen = await observe(expected.mode, expected.query);
      assert.ok(seen.frames.length >= 2, 'a multi-frame answer');
      assert.deepEqual(
        { first: seen.frames[0], rest: [...new Set(seen.frames.slice(1))], result: seen.result, host: seen.host, wire: seen.wire },
        { first: expected.first, rest: [expected.rest], result: expected.result, host: expected.host, wire: expected.wire },
        seen.reasons.join('\n'),
      );
      if (expected.mode === 'unknown-attestation-algorithm')
        assert.ok(
          seen.reasons.every((r) => r.includes('F8')),
          'the F8 reason is given',
        );
    });
  }

  it('composition-style subset: keep 2 of 5 frames; each still verifies against the signed root without its siblings (F13)', async () => {
    const seen = await observe(undefined, { ...SAMPLE, max_frames: 5 });
    assert.equal(seen.received.length, 5);
    const keys = keysFor(seen.provider);
    // What a composition keeps: two frames, serialised and read back, nothing else of the answer.
    const kept = JSON.parse(JSON.stringify([seen.received[1], seen.received[4]])) as ReceivedFrame[];
    for (const f of kept) {
      const e = f.evidence!;
      assert.equal(e.inclusionProof!.leaf_count, 5);
      assert.ok(verifyInclusionProof(frameCommitment(PROVIDER, f.frame), e.inclusionProof, e.resultRoot!, 5));
      const again = reverifyEvidence(PROVIDER, f, keys);
      assert.equal(again.verdict, 'attested', again.reason);
    }
    // The kept proofs are not interchangeable: each names its own leaf.
    const swapped = structuredClone(kept[0]!);
    swapped.evidence!.inclusionProof = kept[1]!.evidence!.inclusionProof!;
    assert.equal(reverifyEvidence(PROVIDER, swapped, keys).verdict, 'proof-mismatch');
  });
});
