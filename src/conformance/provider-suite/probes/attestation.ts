/**
 * Attestation probes (§6.5: F7, F11, F12, F13, S6.5.2-provider-id). Each frames answer the scenario received
 * is verified with src/attest's verifyFrameAttestations under the keys the target published in its
 * handshake_ack. Verdicts map onto the provider's anchors:
 *   commitment-mismatch of a per-frame attestation          → F7 (signed_commitment is not the §6.5.2 commitment)
 *   findings F11 / F12 / F13 (identity, root, proofs)       → as reported by the verifier
 *   bad-signature / unknown-key under its own published keys → F7 warning: the commitment is right, yet nothing
 *                                                             the target published vouches for it
 * F6 (no attestation inside a frame) and the F7 / F11 shape rules are checked on every reply (checks.ts).
 */
import { verifyFrameAttestations } from '../../../attest/verify.js';
import type { AttesterKeyInput, CommittedFrame } from '../../../attest/types.js';
import { violation, warning, type Finding } from '../../../protocol/findings.js';
import { hasValue, isJsonObject } from '../../../protocol/json-value.js';
import { GENEROUS, probeQuery, type FramesAnswer, type ScenarioProbe } from '../scenario.js';

/** A generous answer and a truncated one (max_frames 1): a root over truncated-away candidates shows only there. */
export async function queryForAttestations(p: ScenarioProbe): Promise<void> {
  await p.baseline();
  // the answers the attestation checks read: a failure to get them is inconclusive (docs/interpretations.md §87)
  await p.setup(p.query(probeQuery({ max_frames: 1, max_tokens: GENEROUS.max_tokens }), 'a truncated query (max_frames 1)'));
}

export function checkAttestations(p: ScenarioProbe): void {
  const ack = p.ack();
  const keys = (Array.isArray(ack.attester_keys) ? ack.attester_keys : []) as AttesterKeyInput[];
  const name = p.providerName();
  let entries = 0;
  let attestations = 0;
  let roots = 0;
  let proofs = 0;
  for (const answer of p.answers) {
    const found = verifyAnswer(answer, name, keys);
    p.ledger.add(found.findings);
    entries += found.entries;
    attestations += found.attestations;
    roots += found.roots;
    proofs += found.proofs;
  }
  p.ledger.witness('F7', attestations + roots);
  p.ledger.witness('F11', entries);
  p.ledger.witness('F12', roots);
  p.ledger.witness('F13', proofs);
  p.ledger.witness('S6.5.2-provider-id', entries);
  p.ledger.unwitnessedBecause('F7', 'no answer carried an attestation');
  p.ledger.unwitnessedBecause('F11', 'no answer carried a frame_attestations entry');
  p.ledger.unwitnessedBecause('F12', 'no answer carried a result_attestation');
  p.ledger.unwitnessedBecause('F13', 'no answer carried an inclusion_proof (they are OPTIONAL)');
  p.ledger.unwitnessedBecause('S6.5.2-provider-id', 'no answer carried a frame_attestations entry naming a provider_id');
}

export function verifyAnswer(answer: FramesAnswer, providerName: string, keys: readonly AttesterKeyInput[]) {
  const findings: Finding[] = [];
  const result = answer.result;
  const rawEntries = Array.isArray(result.frame_attestations) ? result.frame_attestations : [];
  const verification = verifyFrameAttestations(
    providerName,
    {
      frames: answer.frames as unknown as CommittedFrame[],
      frame_attestations: result.frame_attestations,
      result_attestation: result.result_attestation,
    },
    keys,
  );
  const where = `${answer.purpose}`;
  for (const f of verification.findings) {
    if (f.severity !== 'violation') continue;
    const at = f.entry !== undefined ? `/result/frame_attestations/${f.entry}` : f.anchor === 'F12' ? '/result/result_attestation' : '/result';
    const message = f.message.startsWith(`${f.anchor}:`) ? f.message.slice(f.anchor.length + 1).trim() : f.message;
    findings.push(violation(f.anchor, at, `${where}: ${message}`));
  }
  let attestations = 0;
  for (const outcome of verification.frames) {
    outcome.attestations.forEach((check) => {
      attestations++;
      const label = `frame ${JSON.stringify(outcome.frame.frame_id)}`;
      if (check.verdict === 'commitment-mismatch') {
        findings.push(violation('F7', '/result/frame_attestations', `${where}: ${label}'s attestation: ${check.reason}`));
      } else if (check.verdict === 'bad-signature' || check.verdict === 'unknown-key') {
        findings.push(warning('F7', '/result/frame_attestations', `${where}: ${label}'s attestation is ${check.verdict} under the keys the target published: ${check.reason}`));
      }
    });
  }
  const rootVerdict = verification.result.verdict;
  if (rootVerdict === 'bad-signature' || rootVerdict === 'unknown-key') {
    findings.push(warning('F7', '/result/result_attestation', `${where}: result_attestation is ${rootVerdict} under the keys the target published: ${verification.result.reason}`));
  }
  let proofs = 0;
  rawEntries.forEach((entry, i) => {
    if (!isJsonObject(entry)) return;
    if (hasValue(entry, 'inclusion_proof')) proofs++;
    const frame = entry.frame;
    if (isJsonObject(frame) && typeof frame.provider_id === 'string' && frame.provider_id !== providerName) {
      findings.push(
        warning(
          'S6.5.2-provider-id',
          `/result/frame_attestations/${i}/frame/provider_id`,
          `${where}: frame_attestations[${i}] names provider_id ${JSON.stringify(frame.provider_id)}; provider_id is the handshake provider.name ${JSON.stringify(providerName)}`,
        ),
      );
    }
  });
  return {
    findings,
    entries: rawEntries.length,
    attestations,
    roots: hasValue(result, 'result_attestation') ? 1 : 0,
    proofs,
  };
}
