// Host misbehaviour variants of the "proofs" group (see src/conformance/host-suite/variants/manifest.ts for the contract):
// inclusion proofs kept through composition (§6.5.3 F13) and verify verdicts (§9 V2, V3).
//
// Each variant is the honest bundled host with ONE thing changed, by post-processing what the honest
// host returns (`wrap`):
//  - the F13 variants rewrite the composed prompt's kept frames of a signed result kept as a strict
//    subset (the honest composition marks them `f13.strictSubset`);
//  - the verify variants move dropped frames back into `retained`, selected by the honest outcome's own
//    reason and detail: verifyHeld (src/host/verify-reuse.ts) drops a requested identity with no
//    verdict as `unknown` with a detail starting "V2:", and an `unknown` (or unrecognised, or
//    contradictory) verdict as `unknown` with a detail starting "V3:", and every frame of a verify that
//    failed (error reply, timeout, malformed reply) as `verify-failed`. Each variant touches only its own.
import { retainProofs, type CommittedFrame } from '../../../attest/index.js';
import type { HostUnderTest } from '../../../host/under-test.js';
import type { ComposedFrame, ComposedPrompt } from '../../../host/compose/types.js';
import type { HostMisbehaviour } from './manifest.js';
import { frameIdKey } from '../../../protocol/identity.js';
import type { ProviderAnswer } from '../../../host/types.js';
import type { DroppedFrame, VerifyOutcome } from '../../../host/verify-reuse.js';

function mapComposed(honest: HostUnderTest, change: (composed: ComposedPrompt, answers: readonly ProviderAnswer[]) => ComposedPrompt): HostUnderTest {
  return { ...honest, compose: async (answers, opts) => withBlockProofs(change(await honest.compose(answers, opts), answers)) };
}

/** Each block's inclusionProof (the contract's member) as the changed frame records now hold it. */
function withBlockProofs(composed: ComposedPrompt): ComposedPrompt {
  const proofs = new Map(composed.frames.map((f) => [frameIdKey(f.frameId), f.evidence?.inclusionProof]));
  return {
    ...composed,
    blocks: composed.blocks.map((b) => {
      const { inclusionProof: _old, ...rest } = b as typeof b & { inclusionProof?: unknown };
      void _old;
      const proof = proofs.get(frameIdKey(b.frameId));
      return proof !== undefined ? { ...rest, inclusionProof: proof } : rest;
    }),
  };
}

function mapVerify(honest: HostUnderTest, change: (outcome: VerifyOutcome) => VerifyOutcome): HostUnderTest {
  return { ...honest, verify: async (routingId, held) => change(await honest.verify(routingId, held)) };
}

/** Kept frames of a signed result the composition keeps only part of. */
const inStrictSubset = (f: ComposedFrame): boolean => f.f13?.strictSubset === true;

/** Treat the drops `which` selects as if the provider had said valid. */
function retainDropped(which: (d: DroppedFrame) => boolean) {
  return (honest: HostUnderTest): HostUnderTest =>
    mapVerify(honest, (o) => {
      const flipped = o.dropped.filter(which);
      return {
        ...o,
        retained: [...o.retained, ...flipped.map((d) => d.frame)],
        dropped: o.dropped.filter((d) => !flipped.includes(d)),
        requery: o.requery.filter((f) => !flipped.some((d) => d.frame === f)),
      };
    });
}

export const PROOFS_VARIANTS: readonly HostMisbehaviour[] = [
  // ── F13: proofs for the kept frames of a signed result ─────────────────────────────────────────
  {
    mode: 'discard-proofs',
    breaks: ['F13'],
    description: 'keeps a strict subset of a signed result but drops the inclusion proofs of the frames it keeps (the root can never be recomputed)',
    wrap: (honest) =>
      mapComposed(honest, (composed) => {
        for (const f of composed.frames) {
          if (!inStrictSubset(f) || f.evidence === undefined) continue;
          const { inclusionProof: _proof, resultRoot: _root, ...rest } = f.evidence;
          void _proof;
          void _root;
          f.evidence = rest;
          f.f13 = { ...f.f13!, proof: 'unavailable' };
        }
        return composed;
      }),
  },
  {
    mode: 'proofs-after-drop',
    breaks: ['F13'],
    description: 'derives the inclusion proofs of a signed result only AFTER dropping the frames it does not keep (over the kept subset), so they recompute a root nobody signed',
    wrap: (honest) =>
      mapComposed(honest, (composed, answers) => {
        for (const answer of answers) {
          const name = answer.provider.name;
          const kept = composed.frames.filter((f) => f.frameId.provider_id === name && inStrictSubset(f));
          if (kept.length === 0) continue;
          const bodies = kept
            .map((f) => answer.frames.find((r) => r.frameId.frame_id === f.frameId.frame_id)?.frame)
            .filter((b): b is NonNullable<typeof b> => b !== undefined) as unknown as CommittedFrame[];
          let proofs: ReturnType<typeof retainProofs>;
          try {
            proofs = retainProofs(
              name,
              bodies,
              kept.map((f) => f.frameId),
            );
          } catch {
            continue;
          }
          kept.forEach((f, i) => {
            f.evidence = { ...(f.evidence ?? { verdict: 'unattested' }), inclusionProof: proofs[i]!.inclusion_proof };
          });
        }
        return composed;
      }),
  },
  // ── verify verdicts ────────────────────────────────────────────────────────────────────────────
  {
    mode: 'missing-verdict-is-valid',
    breaks: ['V2'],
    description: 'retains for reuse a requested frame whose identity came back with no verdict, as if the provider had answered valid',
    wrap: retainDropped((d) => d.reason === 'unknown' && d.detail.startsWith('V2:')),
  },
  {
    mode: 'reuse-on-unknown',
    breaks: ['V3'],
    description: 'reuses the stored body of a frame the provider answered unknown (or with a status outside the vocabulary): unknown read as validity',
    wrap: retainDropped((d) => d.reason === 'unknown' && d.detail.startsWith('V3:')),
  },
  {
    mode: 'reuse-on-failed-verify',
    breaks: ['V3'],
    description: 'keeps reusing its held bodies when the verify fails (error reply, timeout, malformed reply): reuse on the absence of a negative, not on a positive answer',
    wrap: retainDropped((d) => d.reason === 'verify-failed'),
  },
];
