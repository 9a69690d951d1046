/**
 * §6.5.4 verification (anchors F7, F8, F9, F11, F12, F13). Offline and pure: a commitment, an
 * attestation and a public key suffice. Outcomes are distinct verdicts, never a boolean:
 *
 *   attested             the recomputed commitment equals signed_commitment and the strict
 *                        Ed25519 signature over its 32 raw bytes verifies under the named key
 *   commitment-mismatch  tampering: the recomputed commitment differs from signed_commitment, or
 *                        signed_commitment is not `sha256:<64 lowercase hex>` (F7) — checked
 *                        BEFORE the signature, so tampering is never reported as a key problem
 *   bad-signature        the commitment matches but the signature does not verify (strictly)
 *   unknown-key          key_id is not among the published / trusted keys
 *   uncheckable          F8: algorithm other than "ed25519", a key of another algorithm, a key_id
 *                        naming two different keys, a public_key / signature that is not 64 / 128
 *                        lowercase hex, or a frame whose commitment cannot be computed
 *   unattested           no attestation at all
 *   proof-mismatch       (frames only) an inclusion_proof that does not recompute the
 *                        result_attestation root (F13), or that states a leaf_count other than
 *                        the number of frames the result carries (the root covers exactly
 *                        result.frames, F12; an RFC 6962 root does not itself pin its size)
 *
 * Per frame, evidence is combined as documented at `combine`: the frame's own evidence (its
 * per-frame attestation, its proof) failing dominates; else any `attested` wins; else a failing
 * result root; else the most informative neutral verdict (uncheckable > unknown-key > unattested).
 * Structural problems are findings (F11 identity-less / foreign / duplicate entries, F12 root
 * mismatch, F13 proof problems), reported beside the verdicts.
 *
 * F9: every verdict other than `attested` means "treat as unattested"; nothing here drops a frame.
 * Order of checks: presence → algorithm (F8 wins: "I cannot check this" is never "this is good")
 * → commitment recomputation (F7) → key lookup → key / signature format → strict signature.
 */
import { bytesEqual } from './bytes.js';
import { frameCommitment, frameIdentityOf, parseDigest, renderDigest } from './commitment.js';
import { checkEd25519Strict, type StrictRejection } from './ed25519-strict.js';
import { canonicalLeaves, merkleRoot, verifyInclusionProof, type CommittedLeaf } from './merkle.js';
import type { AttesterKeyInput, CommittedFrame, FrameIdentity } from './types.js';
import { isJsonObject } from '../util/json.js';

export const RECOGNISED_ALGORITHM = 'ed25519';

export type AttestationVerdict = 'attested' | 'commitment-mismatch' | 'bad-signature' | 'unknown-key' | 'uncheckable' | 'unattested';

export type FrameVerdict = AttestationVerdict | 'proof-mismatch';

export interface AttestationCheck {
  verdict: AttestationVerdict;
  /** What was seen vs required; starts with the anchor when one is violated. */
  reason: string;
  /** The recomputed commitment / root (`sha256:…`) when it could be computed. */
  commitment?: string;
  /** Why the strict verifier rejected, for `bad-signature`. */
  signature_rejection?: StrictRejection;
}

const LOWER_HEX_64 = /^[0-9a-f]{64}$/;
const LOWER_HEX_128 = /^[0-9a-f]{128}$/;

function show(value: unknown): string {
  if (value === undefined) return 'absent';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * The key/signature half of verification, over the bytes the attestation says it signed. The
 * caller has already checked presence, algorithm and (for `attested` to mean anything) the
 * commitment.
 */
function checkSignature(signed: Uint8Array, attestation: Record<string, unknown>, keys: readonly AttesterKeyInput[]): AttestationCheck {
  const keyId = attestation.key_id;
  const known: readonly AttesterKeyInput[] = Array.isArray(keys) ? keys : [];
  const matches = known.filter((key) => isJsonObject(key) && key.key_id === keyId);
  if (matches.length === 0) {
    return { verdict: 'unknown-key', reason: `key_id ${show(keyId)} is not among the ${known.length} published/trusted key(s)` };
  }
  const distinct = new Set(matches.map((key) => `${String(key.algorithm)} ${String(key.public_key)}`));
  if (distinct.size > 1) {
    return { verdict: 'uncheckable', reason: `key_id ${show(keyId)} names ${distinct.size} different keys; cannot tell which signed` };
  }
  const key = matches[0]!;
  if (key.algorithm !== RECOGNISED_ALGORITHM) {
    return { verdict: 'uncheckable', reason: `F8: key ${show(keyId)} has algorithm ${show(key.algorithm)}; only "ed25519" is recognised` };
  }
  if (typeof key.public_key !== 'string' || !LOWER_HEX_64.test(key.public_key)) {
    return { verdict: 'uncheckable', reason: `key ${show(keyId)} public_key ${show(key.public_key)} is not 64 lowercase hex characters` };
  }
  if (typeof attestation.signature !== 'string' || !LOWER_HEX_128.test(attestation.signature)) {
    return { verdict: 'uncheckable', reason: `signature ${show(attestation.signature)} is not 128 lowercase hex characters` };
  }
  const result = checkEd25519Strict(key.public_key, signed, attestation.signature);
  if (result.ok) return { verdict: 'attested', reason: `signature verifies under key ${show(keyId)}` };
  return {
    verdict: 'bad-signature',
    reason: `signature does not verify under key ${show(keyId)} (strict Ed25519: ${result.reason})`,
    signature_rejection: result.reason,
  };
}

/** Presence and algorithm (F8), shared by every kind of attestation. */
function precheck(attestation: unknown): { check: AttestationCheck } | { attestation: Record<string, unknown> } {
  if (attestation === undefined || attestation === null) return { check: { verdict: 'unattested', reason: 'no attestation' } };
  if (!isJsonObject(attestation)) return { check: { verdict: 'uncheckable', reason: `attestation is ${show(attestation)}, not an object` } };
  if (attestation.algorithm !== RECOGNISED_ALGORITHM) {
    return {
      check: {
        verdict: 'uncheckable',
        reason: `F8: algorithm ${show(attestation.algorithm)} is not recognised (only "ed25519"); not treated as attested`,
      },
    };
  }
  return { attestation };
}

/**
 * Verify `attestation` against the commitment `expected` (undefined when it cannot be computed;
 * `cannotCompute` then says why). `what` names the commitment in messages.
 */
function verifyAgainst(expected: Uint8Array | undefined, cannotCompute: string, attestation: unknown, keys: readonly AttesterKeyInput[], what: string): AttestationCheck {
  const checked = precheck(attestation);
  if ('check' in checked) return checked.check;
  const pre = checked.attestation;
  if (expected === undefined) return { verdict: 'uncheckable', reason: cannotCompute };
  const rendered = renderDigest(expected);
  const signed = parseDigest(pre.signed_commitment);
  if (signed === undefined) {
    return {
      verdict: 'commitment-mismatch',
      reason: `F7: signed_commitment ${show(pre.signed_commitment)} is not sha256:<64 lowercase hex>; the ${what} is ${rendered}`,
      commitment: rendered,
    };
  }
  if (!bytesEqual(signed, expected)) {
    return {
      verdict: 'commitment-mismatch',
      reason: `F7: signed_commitment ${pre.signed_commitment as string} differs from the recomputed ${what} ${rendered} (content changed after signing)`,
      commitment: rendered,
    };
  }
  return { ...checkSignature(signed, pre, keys), commitment: rendered };
}

function tryCompute(compute: () => Uint8Array): { value?: Uint8Array; error?: string } {
  try {
    return { value: compute() };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

export interface VerifyAttestationInput {
  /** The provider's handshake provider.name (§6.5.2). */
  providerId: string;
  frame: CommittedFrame;
  attestation?: unknown;
  keys: readonly AttesterKeyInput[];
  /** The frame's commitment when the caller has already computed it. */
  commitment?: Uint8Array;
}

/** §6.5.4 for one frame's ProvenanceAttestation. */
export function verifyAttestation(input: VerifyAttestationInput): AttestationCheck {
  const computed = input.commitment ? { value: input.commitment } : tryCompute(() => frameCommitment(input.providerId, input.frame));
  return verifyAgainst(computed.value, `frame commitment cannot be computed: ${computed.error ?? 'unknown error'}`, input.attestation, input.keys, 'frame commitment');
}

/** F12: a result_attestation against the root over exactly `frames`, in canonical order. */
export function verifyResultAttestation(providerId: string, frames: readonly CommittedFrame[], resultAttestation: unknown, keys: readonly AttesterKeyInput[]): AttestationCheck {
  const computed = tryCompute(() => merkleRoot(canonicalLeaves(providerId, frames).map((leaf) => leaf.commitment)));
  return verifyAgainst(computed.value, `result root cannot be computed: ${computed.error ?? 'unknown error'}`, resultAttestation, keys, `root over the ${frames.length} frame(s) of result.frames`);
}

// ---------------------------------------------------------------------------------------------
// Whole-result verification: frame_attestations (F11, F13) and result_attestation (F12)

export interface AttestationFinding {
  anchor: 'F11' | 'F12' | 'F13';
  /** `violation` = a MUST the provider broke; `notice` = worth reporting, not a violation. */
  severity: 'violation' | 'notice';
  /** Index in frame_attestations, when the finding is about one entry. */
  entry?: number;
  message: string;
}

export type ProofStatus = 'verified' | 'mismatch' | 'no-root';

export interface FrameOutcome {
  frame: FrameIdentity;
  /** frameKey(frame): the full identity as a map key. */
  key: string;
  /** Position in result.frames. */
  index: number;
  verdict: FrameVerdict;
  reasons: string[];
  /** Outcomes of the per-frame attestations naming this frame (normally zero or one). */
  attestations: AttestationCheck[];
  /** Outcomes of the inclusion proofs naming this frame. */
  proofs: ProofStatus[];
}

export interface ResultVerification {
  /** One outcome per result.frames element, in result order — F9: no frame is ever dropped. */
  frames: FrameOutcome[];
  /** The same outcomes keyed by frameKey (the first, when a result carries a frame twice). */
  byKey: Map<string, FrameOutcome>;
  /** The result_attestation outcome (`unattested` when absent). */
  result: AttestationCheck;
  findings: AttestationFinding[];
}

export interface AttestedResultInput {
  frames: readonly CommittedFrame[];
  frame_attestations?: unknown;
  result_attestation?: unknown;
}

/** A map key for a full (provider id, frame id, content_digest) identity; absent ≡ null. */
export function frameKey(id: FrameIdentity): string {
  return JSON.stringify([id.provider_id, id.frame_id, typeof id.content_digest === 'string' ? id.content_digest : null]);
}

/** A named identity from an entry's `frame`, or undefined when the entry names none (F11). */
function namedIdentity(frame: unknown): FrameIdentity | undefined {
  if (!isJsonObject(frame)) return undefined;
  const { provider_id: providerId, frame_id: frameId, content_digest: digest } = frame;
  if (typeof providerId !== 'string' || providerId === '' || typeof frameId !== 'string' || frameId === '') return undefined;
  if (digest !== undefined && digest !== null && typeof digest !== 'string') return undefined;
  return { provider_id: providerId, frame_id: frameId, content_digest: digest ?? null };
}

function proofProblem(proof: unknown, frameCount: number): string {
  const count = isJsonObject(proof) ? proof.leaf_count : undefined;
  if (count !== frameCount) {
    return `states leaf_count ${show(count)} but the root covers exactly the ${frameCount} frame(s) of result.frames (F12)`;
  }
  return 'does not recompute the result_attestation root (wrong sibling, side, length or leaf_index)';
}

const CONTRADICTING: readonly FrameVerdict[] = ['commitment-mismatch', 'proof-mismatch', 'bad-signature'];
const NEUTRAL: readonly FrameVerdict[] = ['uncheckable', 'unknown-key', 'unattested'];

function firstOf(order: readonly FrameVerdict[], present: readonly FrameVerdict[]): FrameVerdict | undefined {
  return order.find((verdict) => present.includes(verdict));
}

/**
 * Combine a frame's evidence. `own` = its per-frame attestations and its proofs; `root` = what
 * the result attestation says about it. A failure of the frame's own evidence dominates
 * (inconsistent evidence is not evidence); otherwise any `attested` wins; otherwise a failing
 * root is reported; otherwise the most informative neutral verdict.
 */
function combine(own: readonly FrameVerdict[], root: readonly FrameVerdict[]): FrameVerdict {
  return (
    firstOf(CONTRADICTING, own) ??
    (own.includes('attested') || root.includes('attested') ? 'attested' : undefined) ??
    firstOf(CONTRADICTING, root) ??
    firstOf(NEUTRAL, [...own, ...root]) ??
    'unattested'
  );
}

/**
 * Verify a frames result's attestations. Per frame: its frame_attestations entry (per-frame
 * attestation; inclusion proof against the result_attestation root, whose signature then speaks
 * for the frame) and, for a frame without a proof, the result root recomputed over exactly
 * result.frames (F12) — the host holds every sibling.
 */
export function verifyFrameAttestations(providerId: string, result: AttestedResultInput, keys: readonly AttesterKeyInput[]): ResultVerification {
  const findings: AttestationFinding[] = [];
  const frames = Array.isArray(result.frames) ? result.frames : [];

  // Commitments of every carried frame (a frame whose commitment cannot be computed is uncheckable).
  const leaves: (CommittedLeaf | undefined)[] = [];
  const broken = new Map<number, string>();
  frames.forEach((frame, index) => {
    try {
      leaves.push({
        frame,
        inputIndex: index,
        identity: frameIdentityOf(providerId, frame),
        commitment: frameCommitment(providerId, frame),
      });
    } catch (error) {
      leaves.push(undefined);
      broken.set(index, error instanceof Error ? error.message : String(error));
    }
  });

  const resultCheck = verifyResultAttestation(providerId, frames, result.result_attestation, keys);
  if (resultCheck.verdict === 'commitment-mismatch') {
    findings.push({ anchor: 'F12', severity: 'violation', message: `result_attestation: ${resultCheck.reason}` });
  }
  const signedRoot = isJsonObject(result.result_attestation) ? parseDigest(result.result_attestation.signed_commitment) : undefined;
  // What the root's signature alone says (for frames whose proof places them under the signed root).
  let rootSignature: AttestationCheck | undefined;
  const rootSignatureCheck = (): AttestationCheck => {
    if (rootSignature) return rootSignature;
    const checked = precheck(result.result_attestation);
    rootSignature = 'check' in checked ? checked.check : checkSignature(signedRoot!, checked.attestation, keys);
    return rootSignature;
  };

  const outcomes: FrameOutcome[] = frames.map((frame, index) => {
    const leaf = leaves[index];
    const identity = leaf?.identity ?? { provider_id: providerId, frame_id: String((frame as { id?: unknown }).id) };
    return { frame: identity, key: frameKey(identity), index, verdict: 'unattested', reasons: [], attestations: [], proofs: [] };
  });
  const byKey = new Map<string, FrameOutcome>();
  const allByKey = new Map<string, FrameOutcome[]>();
  for (const outcome of outcomes) {
    if (!byKey.has(outcome.key)) byKey.set(outcome.key, outcome);
    allByKey.set(outcome.key, [...(allByKey.get(outcome.key) ?? []), outcome]);
  }
  const own = new Map<FrameOutcome, FrameVerdict[]>(outcomes.map((o) => [o, []]));
  const fromRoot = new Map<FrameOutcome, FrameVerdict[]>(outcomes.map((o) => [o, []]));
  const hasProof = new Set<FrameOutcome>();

  const entries = result.frame_attestations;
  if (entries !== undefined && entries !== null && !Array.isArray(entries)) {
    findings.push({ anchor: 'F11', severity: 'violation', message: `frame_attestations is ${show(entries)}, not an array of entries` });
  }
  const entryCount = new Map<string, number>();
  (Array.isArray(entries) ? entries : []).forEach((entry: unknown, entryIndex) => {
    const identity = isJsonObject(entry) ? namedIdentity(entry.frame) : undefined;
    if (identity === undefined) {
      findings.push({
        anchor: 'F11',
        severity: 'violation',
        entry: entryIndex,
        message: `F11: frame_attestations[${entryIndex}] does not name the full (provider_id, frame_id, content_digest) identity it attests (frame: ${show(isJsonObject(entry) ? entry.frame : entry)}); ignored, its frame stays unattested`,
      });
      return;
    }
    const key = frameKey(identity);
    const targets = allByKey.get(key);
    if (targets === undefined) {
      findings.push({
        anchor: 'F11',
        severity: 'violation',
        entry: entryIndex,
        message: `F11: frame_attestations[${entryIndex}] names ${key}, which is not a frame this result carries (provider ${show(providerId)}); ignored`,
      });
      return;
    }
    entryCount.set(key, (entryCount.get(key) ?? 0) + 1);
    if (entryCount.get(key) === 2) {
      findings.push({ anchor: 'F11', severity: 'notice', entry: entryIndex, message: `frame_attestations names ${key} more than once; every entry is checked` });
    }
    for (const target of targets) {
      const leaf = leaves[target.index];
      const cannot = broken.get(target.index);
      if (isJsonObject(entry) && entry.attestation !== undefined) {
        const check = verifyAgainst(leaf?.commitment, `frame commitment cannot be computed: ${cannot ?? 'unknown error'}`, entry.attestation, keys, 'frame commitment');
        target.attestations.push(check);
        own.get(target)!.push(check.verdict);
        target.reasons.push(`attestation (entry ${entryIndex}): ${check.verdict}: ${check.reason}`);
      }
      if (isJsonObject(entry) && entry.inclusion_proof !== undefined) {
        hasProof.add(target);
        if (result.result_attestation === undefined || result.result_attestation === null) {
          target.proofs.push('no-root');
          findings.push({
            anchor: 'F13',
            severity: 'violation',
            entry: entryIndex,
            message: `F13: frame_attestations[${entryIndex}] carries an inclusion_proof but the result has no result_attestation root for it to recompute`,
          });
          target.reasons.push(`inclusion proof (entry ${entryIndex}): no result_attestation to recompute`);
        } else if (signedRoot === undefined || leaf === undefined) {
          target.proofs.push('no-root');
          target.reasons.push(
            `inclusion proof (entry ${entryIndex}): not checkable (${leaf === undefined ? `frame commitment cannot be computed: ${cannot}` : 'result_attestation.signed_commitment is malformed'})`,
          );
        } else if (verifyInclusionProof(leaf.commitment, entry.inclusion_proof, signedRoot, frames.length)) {
          target.proofs.push('verified');
          const check = rootSignatureCheck();
          fromRoot.get(target)!.push(check.verdict);
          target.reasons.push(`inclusion proof (entry ${entryIndex}) recomputes the signed root; root signature: ${check.verdict}: ${check.reason}`);
        } else {
          target.proofs.push('mismatch');
          own.get(target)!.push('proof-mismatch');
          findings.push({
            anchor: 'F13',
            severity: 'violation',
            entry: entryIndex,
            message: `F13: frame_attestations[${entryIndex}] inclusion_proof for ${key} ${proofProblem(entry.inclusion_proof, frames.length)}`,
          });
          target.reasons.push(`inclusion proof (entry ${entryIndex}): ${proofProblem(entry.inclusion_proof, frames.length)}`);
        }
      }
    }
  });

  for (const outcome of outcomes) {
    // Without a proof, the frame's root evidence is the root recomputed over exactly result.frames.
    if (!hasProof.has(outcome) && resultCheck.verdict !== 'unattested') {
      fromRoot.get(outcome)!.push(resultCheck.verdict);
      outcome.reasons.push(`result_attestation (root over result.frames): ${resultCheck.verdict}: ${resultCheck.reason}`);
    }
    const cannot = broken.get(outcome.index);
    if (cannot !== undefined) {
      own.get(outcome)!.push('uncheckable');
      outcome.reasons.push(`frame commitment cannot be computed: ${cannot}`);
    }
    outcome.verdict = combine(own.get(outcome)!, fromRoot.get(outcome)!);
    if (outcome.reasons.length === 0) outcome.reasons.push('no attestation covers this frame');
  }

  return { frames: outcomes, byKey, result: resultCheck, findings };
}

/** F9 in one line: only `attested` counts as attested; everything else is "as if it carried none". */
export function isAttested(verdict: FrameVerdict): boolean {
  return verdict === 'attested';
}
