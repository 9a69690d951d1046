/**
 * F13 (stage 7 of composition, compose.ts): every kept frame of a signed result keeps an inclusion
 * proof — carried (its evidence or the result's frame_attestations), or derived with retainProofs
 * from the COMPLETE signed result, which composition never trims.
 */
import type { InclusionProof } from '../../../generated/types/index.js';
import { retainProofs } from '../../attest/sign.js';
import { frameKey } from '../../attest/verify.js';
import type { FrameEvidence, ProviderAnswer } from '../types.js';
import type { Indices, Table } from './table.js';
import type { ComposedFrame, F13Record } from './types.js';

interface ProofResult {
  record: F13Record;
  proofValue?: InclusionProof;
}

/** F13: proofs for every kept frame of a signed answer, derived from the complete signed set. */
function retainSignedProofs(answers: readonly ProviderAnswer[], t: Table, admittedK: Indices, cand: Indices): Map<number, ProofResult> {
  const out = new Map<number, ProofResult>();
  const byAnswer = new Map<number, number[]>();
  if (!answers.some((answer) => answer.result.result_attestation !== undefined)) return out;
  for (let x = 0; x < admittedK.length; x++) {
    const c = cand[admittedK[x]!]!;
    const a = t.answer[c]!;
    if (answers[a]!.result.result_attestation === undefined) continue;
    const list = byAnswer.get(a);
    if (list === undefined) byAnswer.set(a, [c]);
    else list.push(c);
  }
  for (const [a, kept] of byAnswer) {
    const answer = answers[a]!;
    const result = answer.result;
    const signedFrames = Array.isArray(result.frames) ? result.frames : [];
    const strictSubset = kept.length < signedFrames.length;
    const rootOf = (c: number) => t.rf[c]!.evidence?.resultRoot ?? result.result_attestation?.signed_commitment;
    const carried = new Map<string, InclusionProof>();
    for (const entry of result.frame_attestations ?? []) {
      if (entry && entry.inclusion_proof !== undefined && entry.frame) carried.set(frameKey(entry.frame), entry.inclusion_proof);
    }
    const toDerive: number[] = [];
    for (const c of kept) {
      const ev = t.rf[c]!.evidence;
      const own = ev?.inclusionProof !== undefined && ev.verdict !== 'proof-mismatch' ? ev.inclusionProof : undefined;
      const wire = ev?.verdict === 'proof-mismatch' ? undefined : carried.get(frameKey(t.rf[c]!.frameId));
      const proof = own ?? wire;
      if (proof !== undefined) {
        out.set(c, { record: withRoot({ strictSubset, proof: 'carried' }, rootOf(c)), proofValue: proof });
      } else toDerive.push(c);
    }
    if (toDerive.length === 0) continue;
    const derive = (cs: number[]) =>
      retainProofs(
        answer.provider.name,
        signedFrames,
        cs.map((c) => t.rf[c]!.frameId),
      );
    let batch: ReturnType<typeof retainProofs> | undefined;
    try {
      batch = derive(toDerive);
    } catch {
      batch = undefined;
    }
    toDerive.forEach((c, i) => {
      let proof = batch?.[i]?.inclusion_proof;
      let detail: string | undefined;
      if (proof === undefined) {
        try {
          proof = derive([c])[0]!.inclusion_proof;
        } catch (err) {
          detail = (err as Error).message;
        }
      }
      if (proof !== undefined) {
        out.set(c, { record: withRoot({ strictSubset, proof: 'derived' }, rootOf(c)), proofValue: proof });
      } else {
        const record: F13Record = withRoot({ strictSubset, proof: 'unavailable' }, rootOf(c));
        if (detail !== undefined) record.detail = detail;
        out.set(c, { record });
      }
    });
  }
  return out;
}

function withRoot(record: F13Record, root: string | undefined): F13Record {
  if (root !== undefined) record.resultRoot = root;
  return record;
}

/** F13 proofs for the kept frames of signed results, set on their output records (`frames` in position order). */
export function retainInclusionProofs(answers: readonly ProviderAnswer[], t: Table, cand: Indices, admittedK: Indices, positionOf: Int32Array, frames: ComposedFrame[]): void {
  const f13 = retainSignedProofs(answers, t, admittedK, cand);
  if (f13.size === 0) return;
  for (let a = 0; a < admittedK.length; a++) {
    const k = admittedK[a]!;
    const record = f13.get(cand[k]!);
    if (record === undefined) continue;
    const frame = frames[positionOf[k]!]!;
    if (record.proofValue !== undefined) {
      const evidence: FrameEvidence = { ...(frame.evidence ?? { verdict: 'unattested' }), inclusionProof: record.proofValue };
      if (record.record.resultRoot !== undefined) evidence.resultRoot = record.record.resultRoot;
      frame.evidence = evidence;
    }
    frame.f13 = record.record;
  }
}
