// The honest provider's attestation (§6.5): published TEST-ONLY key, every answer signed after truncation,
// root over exactly the returned frames (F12), full identities (F11), proofs (F13), nothing inside a frame
// (F6), deterministic bytes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyRoot, renderDigest, resultSetRoot, TEST_ONLY_RFC8032_TEST1, verifyFrameAttestations, type AttesterKeyInput, type CommittedFrame } from '../../src/attest/index.js';
import { isJsonObject, type JsonObject } from '../../src/protocol/index.js';
import { ATTESTER_KEY_ID, corpusIssuedAt } from '../../src/provider/attest.js';
import { PROVIDER_NAME } from '../../src/provider/catalogue.js';
import { createProvider } from '../../src/provider/core.js';
import { corpus, queryEnvelope, runScript, STEPS } from './script.js';

const KEYS: AttesterKeyInput[] = [{ key_id: ATTESTER_KEY_ID, algorithm: 'ed25519', public_key: TEST_ONLY_RFC8032_TEST1.public_key }];

async function result(extra: Record<string, unknown> = {}): Promise<JsonObject> {
  const env = (await createProvider({ corpus }).handle(queryEnvelope('q', extra))).envelopes[0]!;
  assert.equal(env.type, 'frames');
  return env.result as JsonObject;
}

describe('honest provider attestation', () => {
  it('publishes exactly one attester key: the RFC 8032 test-1 key under example-docs-test-ed25519-1 (TEST-ONLY)', () => {
    const ack = createProvider({ corpus }).ack;
    assert.deepEqual(ack.attester_keys, KEYS);
  });

  it('every frames answer of the conformance script verifies: every frame attested, the root attested, no findings', async () => {
    const transcript = await runScript();
    let answers = 0;
    for (const step of STEPS) {
      const env = transcript.get(step.name)?.envelopes[0];
      if (env?.type !== 'frames' || !isJsonObject(env.result)) continue;
      const r = env.result as unknown as { frames: CommittedFrame[]; frame_attestations?: unknown; result_attestation?: unknown };
      const verified = verifyFrameAttestations(PROVIDER_NAME, r, KEYS);
      assert.equal(verified.result.verdict, 'attested', `${step.name}: ${verified.result.reason}`);
      assert.deepEqual(verified.findings, [], step.name);
      for (const f of verified.frames) assert.equal(f.verdict, 'attested', `${step.name} ${f.key}: ${f.reasons.join('; ')}`);
      answers++;
    }
    assert.ok(answers >= 10, `${answers} answers checked`);
  });

  it('F12: a truncated answer signs exactly what it returned; F11 entries name the full identity; F13 proofs; F6 nothing inside a frame', async () => {
    const r = await result({ max_frames: 2 });
    const frames = r.frames as unknown as CommittedFrame[];
    assert.equal(frames.length, 2);
    assert.equal(r.truncated, true);
    const attestation = r.result_attestation as JsonObject;
    assert.equal(attestation.signed_commitment, renderDigest(resultSetRoot(PROVIDER_NAME, frames)));
    assert.deepEqual(Object.keys(attestation).sort(), ['algorithm', 'attester_id', 'issued_at', 'key_id', 'signature', 'signed_commitment']);
    assert.deepEqual([attestation.key_id, attestation.algorithm, attestation.attester_id], [ATTESTER_KEY_ID, 'ed25519', PROVIDER_NAME]);
    const entries = r.frame_attestations as JsonObject[];
    assert.equal(entries.length, frames.length);
    entries.forEach((entry, i) => {
      assert.deepEqual(entry.frame, { provider_id: PROVIDER_NAME, frame_id: frames[i]!.id, content_digest: frames[i]!.content_digest });
      assert.ok(isJsonObject(entry.attestation), 'per-frame signature');
      assert.equal((entry.inclusion_proof as JsonObject).leaf_count, 2);
    });
    for (const f of r.frames as JsonObject[]) {
      assert.equal(f.attestation, undefined);
      assert.equal(f.attestations, undefined);
    }
  });

  it('compact answers are signed over their compact identities', async () => {
    const r = await result({ representation_preferences: ['compact'] });
    const verified = verifyFrameAttestations(PROVIDER_NAME, r as unknown as { frames: CommittedFrame[] }, KEYS);
    assert.ok(verified.frames.every((f) => f.verdict === 'attested'));
    assert.ok((r.frames as JsonObject[]).every((f) => f.representation === 'compact'));
  });

  it('an empty answer signs the empty root and sends no frame_attestations', async () => {
    const r = await result({ as_of: '2025-01-01T00:00:00Z' });
    assert.deepEqual(r.frames, []);
    assert.equal(r.frame_attestations, undefined);
    assert.equal((r.result_attestation as JsonObject).signed_commitment, renderDigest(emptyRoot()));
  });

  it("deterministic: issued_at is the corpus's latest recorded_at, and two providers answer byte-identically", async () => {
    assert.equal(corpusIssuedAt(corpus), '2026-08-15T09:30:00Z');
    const r = await result();
    assert.equal((r.result_attestation as JsonObject).issued_at, corpusIssuedAt(corpus));
    assert.equal(JSON.stringify(await result()), JSON.stringify(r));
  });
});
