/**
 * Host-facing checks of verify verdicts (§9 V2, V3) and of inclusion proofs kept through composition
 * (§6.5.3 F13). Pure functions from what the scenario observed — the lines a scripted provider
 * RECEIVED, the script that fixed what it answered, what the host returned — to findings; each message
 * starts with the id it witnesses and says seen vs required.
 *
 * The F13 judgement is independent of the host's attestation code path: the served frames and the
 * signed root come from the script (what went on the wire), and every kept frame's proof is folded
 * with src/attest against that root and the served leaf count.
 */
import { sha256Digest as sha } from '../../../protocol/digest.js';
import type { FrameId } from '../../../../generated/types/index.js';
import { attestResult, frameCommitment, renderDigest, resultSetRoot, TEST_ONLY_RFC8032_TEST1, verifyInclusionProof, type CommittedFrame } from '../../../attest/index.js';
import type { ComposedPrompt } from '../../../host/compose/types.js';
import type { ReceivedFrame } from '../../../host/types.js';
import type { VerifyOutcome } from '../../../host/verify-reuse.js';
import { violation, type Finding } from '../../../protocol/findings.js';
import { frameIdKey } from '../../../protocol/identity.js';
import { verifiesIn } from './verify.js';
import { isJsonObject as isObject } from '../../../util/json.js';
import { harnessPrecondition, showValue } from './text.js';
import { ProviderIdentities } from '../identity.js';

type Line = Record<string, unknown>;

const show = (value: unknown): string => showValue(value);

/**
 * Every identity (by full FrameId key, its provider mapped through the scenario's one identity mapping:
 * a host may send its local id, SPEC.md §6.5.2) that reached the provider in a verify request.
 */
export function requestedIdentities(received: readonly Line[], identities: ProviderIdentities = new ProviderIdentities()): Set<string> {
  const asked = new Set<string>();
  for (const verify of verifiesIn(received)) {
    const request = verify.request;
    const frames = isObject(request) && Array.isArray(request.frames) ? request.frames : [];
    for (const identity of frames) {
      const key = identities.key(identity);
      if (key !== undefined) asked.add(key);
    }
  }
  return asked;
}

const sameFrame = (a: ReceivedFrame, id: FrameId) => frameIdKey(a.frameId) === frameIdKey(id);

/** Verdicts a missing one must never be read as (V2: it is unknown). */
const OTHER_VERDICTS: readonly string[] = ['valid', 'stale', 'gone'];

// ---------------------------------------------------------------------------------------------
// V2: a requested identity that comes back with no verdict is `unknown`

/**
 * V2 (MUST, host half): every held frame whose identity the provider was asked about and answered
 * with no verdict (the script's `noVerdict`) is treated as `unknown` — not retained for reuse, and
 * dropped as unknown (so it is re-queried), never read as valid nor as gone.
 * A subject frame the host did not hold, or whose identity never reached the provider in a verify,
 * leaves nothing to witness: reported, not passed.
 */
export function checkMissingVerdictUnknown(
  outcome: VerifyOutcome | undefined,
  received: readonly Line[],
  held: readonly ReceivedFrame[],
  noVerdict: readonly string[],
  identities?: ProviderIdentities,
): Finding[] {
  if (noVerdict.length === 0) harnessPrecondition('V2', 'the script leaves no requested identity without a verdict');
  if (outcome === undefined) return [violation('V2', '/', 'the host returned no verify outcome for its held frames')];
  const out: Finding[] = [];
  const asked = requestedIdentities(received, identities);
  for (const frameId of noVerdict) {
    const name = show(frameId);
    const frame = held.find((f) => f.frameId.frame_id === frameId);
    if (frame === undefined) {
      harnessPrecondition('V2', `the host holds no frame ${name} to verify`);
    }
    const id = frame.frameId;
    if (!asked.has(frameIdKey(id))) {
      // a host may re-query instead of verifying: no verify naming it is nothing to judge, never a V2 finding
      harnessPrecondition('V2', `the identity of ${name} never reached the provider in a verify, so the host never met a missing verdict`);
    }
    if (outcome.retained.some((f) => sameFrame(f, id))) {
      out.push(violation('V2', '/retained', `the provider returned no verdict for ${name}, yet the host retained its stored body for reuse as if valid; required: treated as unknown, never reused`));
      continue;
    }
    // the schema's `dropped` item is {frameId, reason?, detail?}: only frameId is read, reason only when given
    const dropped = (outcome.dropped ?? []).find((d) => isObject(d) && isObject(d.frameId) && d.frameId.provider_id === id.provider_id && d.frameId.frame_id === id.frame_id);
    const reason = dropped?.reason;
    if (typeof reason === 'string' && OTHER_VERDICTS.includes(reason)) {
      out.push(violation('V2', '/dropped', `the provider returned no verdict for ${name}; the host treated it as ${show(reason)}, required: unknown (not reused, re-queried)`));
    } else if (!outcome.requery.some((f) => sameFrame(f, id))) {
      out.push(
        violation(
          'V2',
          '/requery',
          `the provider returned no verdict for ${name}; the host neither retains it nor lists it for re-query (read as gone); required: treated as unknown — not reused, re-queried`,
        ),
      );
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// V3: reuse only on `valid`

const NEGATIVE: readonly string[] = ['stale', 'gone'];

/**
 * V3 (MUST): the host reuses a held body only on an explicit `valid`. No frame the script answers
 * `unknown` (or with any status that is not one of valid/stale/gone) may be retained, and no retained
 * frame may lack a `valid` answer to a verify that named it (reuse requires a positive answer, never
 * the absence of a negative one). `verdicts` is the script's per-frame status (absent = valid);
 * `noVerdict` the frame ids it leaves without any verdict (all of them when the provider answers the
 * verify with an error). Stale/gone reuse is V4's business, not judged here.
 */
export function checkReusedOnlyOnValid(
  outcome: VerifyOutcome | undefined,
  received: readonly Line[],
  held: readonly ReceivedFrame[],
  verdicts: Readonly<Record<string, string>>,
  noVerdict: readonly string[] = [],
  identities?: ProviderIdentities,
): Finding[] {
  if (outcome === undefined) return [violation('V3', '/', 'the host returned no verify outcome for its held frames')];
  const subjects = [
    ...new Set([
      ...Object.entries(verdicts)
        .filter(([, status]) => status !== 'valid' && !NEGATIVE.includes(status))
        .map(([id]) => id),
      ...noVerdict,
    ]),
  ];
  if (subjects.length === 0) harnessPrecondition('V3', 'the script gives no frame an answer other than valid, stale or gone');
  const out: Finding[] = [];
  const asked = requestedIdentities(received, identities);
  const witnessed = subjects.filter((id) => {
    const frame = held.find((f) => f.frameId.frame_id === id);
    return frame !== undefined && asked.has(frameIdKey(frame.frameId));
  });
  const unwitnessed = witnessed.length === 0 ? `none of ${subjects.map(show).join(', ')} reached the provider in a verify, so the host never met a verdict other than valid` : undefined;
  outcome.retained.forEach((f, i) => {
    const at = `/retained/${i}`;
    const name = show(f.frameId.frame_id);
    const status = noVerdict.includes(f.frameId.frame_id) ? undefined : (verdicts[f.frameId.frame_id] ?? 'valid');
    if (!asked.has(frameIdKey(f.frameId))) {
      out.push(violation('V3', at, `the host retained the stored body of ${name} although no verify named it; required: reuse only on a valid verdict`));
    } else if (status === undefined) {
      out.push(violation('V3', at, `the host retained the stored body of ${name}, for which the provider gave no verdict; required: reuse only on an explicit valid answer`));
    } else if (status !== 'valid' && !NEGATIVE.includes(status)) {
      out.push(violation('V3', at, `the host retained the stored body of ${name} on a ${show(status)} verdict; required: reuse only on valid — unknown is never validity`));
    }
  });
  if (out.length === 0 && unwitnessed !== undefined) harnessPrecondition('V3', unwitnessed);
  return out;
}

// ---------------------------------------------------------------------------------------------
// F13: a strict subset of a signed result keeps a proof per kept frame

/** The signed F13 fixture: four frames of ~100 tokens each, so a small budget keeps a strict subset. */
const F13_FRAMES: ReadonlyArray<{ id: string; topic: string }> = [
  { id: 'frm_backoff', topic: 'Retries back off exponentially, starting at 100 ms and doubling each attempt' },
  { id: 'frm_budget', topic: 'The retry budget allows five attempts before the call is reported failed' },
  { id: 'frm_jitter', topic: 'Jitter is drawn uniformly from zero to the current delay' },
  { id: 'frm_timeout', topic: 'Each attempt has its own deadline of two seconds' },
];

const PADDING = 'This sentence pads the frame so that it costs about one hundred tokens. '.repeat(5);

/**
 * A scripted provider config serving a result of four frames signed (result_attestation over the
 * §6.5.3 root) under the published TEST-ONLY RFC 8032 key, advertised in its handshake_ack.
 * `proofs`: ship an inclusion proof per frame in frame_attestations (F13: OPTIONAL) or none, so the
 * host must derive them itself while it still holds the complete set.
 */
export function signedResultScript(name: string, proofs: boolean): Record<string, unknown> {
  const frames = F13_FRAMES.map((f) => {
    const content = `${f.topic}. ${PADDING}`;
    return {
      id: f.id,
      kind: 'doc',
      title: `title ${f.id}`,
      content,
      content_digest: sha(content),
      score: 0.5,
      token_cost: Math.ceil(Buffer.byteLength(content, 'utf8') / 4),
      citation_label: `cite ${f.id}`,
    };
  });
  const key = { key_id: TEST_ONLY_RFC8032_TEST1.key_id, secret_key: TEST_ONLY_RFC8032_TEST1.secret_key };
  const { frame_attestations, result_attestation } = attestResult(name, frames, key, '2026-01-01T00:00:00Z', { proofs });
  return {
    ack: { attester_keys: [{ key_id: TEST_ONLY_RFC8032_TEST1.key_id, algorithm: 'ed25519', public_key: TEST_ONLY_RFC8032_TEST1.public_key }] },
    rawResult: {
      frames,
      truncated: false,
      ...(frame_attestations.length > 0 ? { frame_attestations } : {}),
      result_attestation,
    },
  };
}

/**
 * F13 (MUST): when the composition keeps a strict subset of a signed result, every kept frame of it
 * carries an inclusion proof that recomputes the signed result_attestation root (folded here with
 * src/attest against the root and the leaf count of the result as served). `rawResult` is the result
 * the provider served (its script); `providerName` the provider_id its frames carry.
 * A composition that keeps all or none of the signed frames leaves nothing to witness: reported.
 */
export function checkKeptProofsRecomputeRoot(providerName: string, rawResult: unknown, composed: ComposedPrompt | undefined): Finding[] {
  if (!isObject(rawResult) || !Array.isArray(rawResult.frames) || !isObject(rawResult.result_attestation)) {
    harnessPrecondition('F13', "the harness's provider served no signed result");
  }
  if (composed === undefined) return [violation('F13', '/composed', 'the host returned no composed prompt')];
  const served = rawResult.frames as CommittedFrame[];
  const signedRoot = rawResult.result_attestation.signed_commitment;
  const ownRoot = renderDigest(resultSetRoot(providerName, served));
  if (signedRoot !== ownRoot) {
    harnessPrecondition('F13', `the harness's provider signed ${show(signedRoot)}, not the root ${ownRoot} of the frames it served`);
  }
  // kept = rendered (a block); the proof kept for it: on its block (the contract's `inclusionProof`), else on
  // the host's own frame record (the bundled host keeps it in its frames' evidence)
  const records = composed.frames ?? [];
  const kept = (composed.blocks ?? [])
    .filter((b) => b.frameId.provider_id === providerName)
    .map((b, position) => {
      const record = records.find((f) => f.frameId.provider_id === b.frameId.provider_id && f.frameId.frame_id === b.frameId.frame_id);
      const proof = (b as { inclusionProof?: unknown }).inclusionProof ?? record?.evidence?.inclusionProof;
      return { frameId: b.frameId, position: record?.position ?? position, evidence: proof === undefined ? undefined : { inclusionProof: proof } };
    });
  if (kept.length === 0 || kept.length >= served.length) {
    harnessPrecondition('F13', `the composition kept ${kept.length} of the ${served.length} signed frames of ${show(providerName)}; only a strict, non-empty subset shows whether a proof was kept`);
  }
  const out: Finding[] = [];
  for (const f of kept) {
    const name = show(f.frameId.frame_id);
    const at = `/composed/frames/${f.position}/evidence/inclusionProof`;
    const frame = served.find((s) => s.id === f.frameId.frame_id);
    if (frame === undefined) {
      out.push(violation('F13', at, `the composition kept ${name}, which is not among the signed frames served`));
      continue;
    }
    const proof = f.evidence?.inclusionProof as Parameters<typeof verifyInclusionProof>[1] | undefined;
    if (proof === undefined) {
      out.push(
        violation(
          'F13',
          at,
          `the composition keeps ${kept.length} of ${served.length} signed frames and kept ${name} with no inclusion proof; once the siblings are dropped the root ${ownRoot} can never be recomputed — required: a proof derived before dropping the rest`,
        ),
      );
    } else if (!verifyInclusionProof(frameCommitment(providerName, frame), proof, ownRoot, served.length)) {
      out.push(
        violation(
          'F13',
          at,
          `the inclusion proof kept for ${name} (leaf_count ${show((proof as { leaf_count?: unknown }).leaf_count)}) does not recompute the signed root ${ownRoot} over ${served.length} leaves; required: a proof derived from the complete signed set`,
        ),
      );
    }
  }
  return out;
}
