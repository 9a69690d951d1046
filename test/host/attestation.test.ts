// Host-side attestation: attachEvidence keeps distinct verdicts beside frames, derives proofs (F13),
// degrades without dropping (F9), treats unknown algorithms as uncheckable (F8), honours a trust store.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AttesterKey, ContextQueryResult, HandshakeAckEnvelope } from '../../generated/types/index.js';
import { publicKeyOf, TEST_ONLY_RFC8032_TEST1, verifyInclusionProof, frameCommitment, type FrameAttestationEntry } from '../../src/attest/index.js';
import { attachEvidence, attestationFinding, keysFor, reverifyEvidence } from '../../src/host/attestation.js';
import type { ProviderDescriptor, ReceivedFrame } from '../../src/host/types.js';
import { frameIdOf } from '../../src/protocol/index.js';
import { ATTESTER_KEY_ID } from '../../src/provider/attest.js';
import { createProvider } from '../../src/provider/core.js';
import { corpus, queryEnvelope } from '../provider/script.js';

function descriptorOf(ack: HandshakeAckEnvelope): ProviderDescriptor {
  return { routingId: 'docs-1', name: ack.provider.name, version: ack.provider.version, ack, transport: 'stdio', egress: false, offMachineScopes: [] };
}

function receivedOf(name: string, result: ContextQueryResult): ReceivedFrame[] {
  return result.frames.map((frame, rank) => ({ frameId: frameIdOf(name, frame), frame, providerRoutingId: 'docs-1', rank }));
}

async function answer(mode?: string, extra: Record<string, unknown> = {}) {
  const p = createProvider({ corpus, ...(mode ? { misbehave: mode } : {}) });
  const env = (await p.handle(queryEnvelope('q', extra))).envelopes[0]!;
  assert.equal(env.type, 'frames');
  const result = env.result as unknown as ContextQueryResult;
  const provider = descriptorOf(p.ack);
  const frames = receivedOf('example-docs', result);
  return { provider, result, frames };
}

const verdicts = (frames: ReceivedFrame[]) => frames.map((f) => f.evidence?.verdict);

describe('attachEvidence on the honest provider', () => {
  it('every frame attested, proofs and root kept beside each frame, no findings, frames untouched', async () => {
    const { provider, result, frames } = await answer();
    const before = JSON.stringify(frames.map((f) => f.frame));
    assert.deepEqual(attachEvidence(provider, result, frames), []);
    assert.equal(JSON.stringify(frames.map((f) => f.frame)), before, 'F6/F9: the frames are not modified');
    for (const f of frames) {
      const e = f.evidence!;
      assert.equal(e.verdict, 'attested', e.reason);
      assert.equal(e.resultRoot, result.result_attestation!.signed_commitment);
      assert.deepEqual(e.resultAttestation, result.result_attestation);
      assert.equal(e.inclusionProof!.leaf_count, frames.length);
      assert.ok(verifyInclusionProof(frameCommitment('example-docs', f.frame), e.inclusionProof, e.resultRoot!, frames.length));
      assert.equal(e.commitment, (result.frame_attestations!.find((x) => x.frame.frame_id === f.frame.id) as FrameAttestationEntry).attestation!.signed_commitment);
      assert.equal((f.frame as unknown as Record<string, unknown>).evidence, undefined, 'evidence beside the frame, never inside');
    }
  });

  it('F13: proofs are derived from the full set even when the provider ships none', async () => {
    const { provider, result, frames } = await answer();
    const stripped: ContextQueryResult = { ...result, frame_attestations: undefined };
    delete stripped.frame_attestations;
    assert.deepEqual(attachEvidence(provider, stripped, frames), []);
    for (const f of frames) {
      assert.equal(f.evidence!.verdict, 'attested', 'root recomputed over exactly result.frames');
      assert.ok(f.evidence!.inclusionProof, 'a proof is derived for every frame');
    }
  });

  it('the subset a composition keeps re-verifies from its own evidence, without the dropped siblings', async () => {
    const { provider, result, frames } = await answer(undefined, { max_frames: 5 });
    assert.equal(frames.length, 5);
    attachEvidence(provider, result, frames);
    const kept = [frames[1]!, frames[3]!].map((f) => structuredClone(f));
    const keys = keysFor(provider);
    for (const f of kept) assert.equal(reverifyEvidence('example-docs', f, keys).verdict, 'attested');
    // tampering with a kept frame after the fact is caught
    const tampered = structuredClone(kept[0]!);
    tampered.frame.provenance![0]!.range = 'L1-2';
    assert.equal(reverifyEvidence('example-docs', tampered, keys).verdict, 'proof-mismatch');
    const noEvidence = { ...kept[0]!, evidence: undefined };
    assert.equal(reverifyEvidence('example-docs', noEvidence, keys).verdict, 'unattested');
    assert.equal(reverifyEvidence('example-docs', kept[0]!, []).verdict, 'unknown-key');
  });
});

describe('attachEvidence: keys and trust', () => {
  it('a host trust store replaces the handshake keys', async () => {
    const { provider, result, frames } = await answer();
    const other: AttesterKey = { key_id: ATTESTER_KEY_ID, algorithm: 'ed25519', public_key: publicKeyOf('4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb') };
    attachEvidence(provider, result, frames, [other]);
    assert.deepEqual(new Set(verdicts(frames)), new Set(['bad-signature']));
    attachEvidence(provider, result, frames, []);
    assert.deepEqual(new Set(verdicts(frames)), new Set(['unknown-key']));
    const trusted: AttesterKey = { key_id: ATTESTER_KEY_ID, algorithm: 'ed25519', public_key: TEST_ONLY_RFC8032_TEST1.public_key };
    attachEvidence({ ...provider, ack: { ...provider.ack, attester_keys: [] } }, result, frames, [trusted]);
    assert.deepEqual(new Set(verdicts(frames)), new Set(['attested']));
  });

  it('no keys published and no store: unknown-key, never attested, never dropped', async () => {
    const { provider, result, frames } = await answer();
    const bare = { ...provider, ack: { ...provider.ack } };
    delete bare.ack.attester_keys;
    attachEvidence(bare, result, frames);
    assert.equal(frames.length, result.frames.length);
    assert.deepEqual(new Set(verdicts(frames)), new Set(['unknown-key']));
  });

  it('an unsigned answer: every frame unattested; garbage attestations: degraded, never dropped (F9)', async () => {
    const { provider, result, frames } = await answer();
    const unsigned: ContextQueryResult = { frames: result.frames, truncated: false };
    assert.deepEqual(attachEvidence(provider, unsigned, frames), []);
    assert.deepEqual(new Set(verdicts(frames)), new Set(['unattested']));
    const garbage = { ...unsigned, frame_attestations: 'nope', result_attestation: 42 } as unknown as ContextQueryResult;
    const findings = attachEvidence(provider, garbage, frames);
    assert.equal(frames.length, result.frames.length);
    assert.ok(frames.every((f) => f.evidence && f.evidence.verdict !== 'attested'));
    assert.ok(findings.some((f) => f.id === 'F11'));
  });

  it('a received frame the result does not carry is unattested; evidence found by identity when ranks disagree', async () => {
    const { provider, result, frames } = await answer();
    const reordered = [...frames].reverse();
    const stranger: ReceivedFrame = { ...frames[0]!, frameId: { ...frames[0]!.frameId, frame_id: 'frm_other' }, rank: 99 };
    attachEvidence(provider, result, [...reordered, stranger]);
    assert.ok(reordered.every((f) => f.evidence!.verdict === 'attested'));
    assert.equal(stranger.evidence!.verdict, 'unattested');
  });
});

describe('attestationFinding', () => {
  it('maps src/attest findings to the protocol shape: id = anchor, message starts with it, pointer into the result', () => {
    assert.deepEqual(attestationFinding({ anchor: 'F11', severity: 'violation', entry: 2, message: 'F11: names nothing' }), {
      id: 'F11',
      severity: 'error',
      pointer: '/result/frame_attestations/2',
      message: 'F11 violated: names nothing',
    });
    assert.deepEqual(attestationFinding({ anchor: 'F12', severity: 'violation', message: 'result_attestation: differs' }), {
      id: 'F12',
      severity: 'error',
      pointer: '/result/result_attestation',
      message: 'F12 violated: result_attestation: differs',
    });
    assert.equal(attestationFinding({ anchor: 'F11', severity: 'notice', entry: 0, message: 'twice' }).severity, 'warning');
  });
});
