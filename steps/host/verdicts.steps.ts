// Verify verdicts (V2, V3): a requested identity left without a verdict is unknown; a held body is
// reused only on `valid`. The verify itself is driven by the step in verify.steps.ts ("the host under
// test verifies every frame it holds from ..."), which keeps the held frames and the host's outcome in
// the scenario state under the keys below; these steps judge them with src/conformance/host-suite/checks/proofs.ts.
import { Then } from '@cucumber/cucumber';
import { checkMissingVerdictUnknown, checkReusedOnlyOnValid } from '../../src/conformance/host-suite/checks/proofs.js';
import type { ReceivedFrame } from '../../src/host/types.js';
import type { VerifyOutcome } from '../../src/host/verify-reuse.js';
import type { SuiteWorld } from '../world.js';

// Written by verify.steps.ts's verify step.
const HELD = 'verify.steps:held';
const OUTCOME = 'verify.steps:outcome';

function held(world: SuiteWorld): ReceivedFrame[] {
  return (world.h.state.get(HELD) as ReceivedFrame[] | undefined) ?? [];
}

function outcome(world: SuiteWorld): VerifyOutcome | undefined {
  return world.h.state.get(OUTCOME) as VerifyOutcome | undefined;
}

/**
 * The frame ids the script answers with no verdict: its `noVerdict`, or every held frame when it
 * answers verify with an error envelope (`verifyError`).
 */
function noVerdict(world: SuiteWorld, label: string): string[] {
  const config = world.h.provider(label).config;
  if (config.verifyError !== undefined) return held(world).map((f) => f.frameId.frame_id);
  const raw = config.noVerdict;
  return Array.isArray(raw) ? raw.filter((x): x is string => typeof x === 'string') : [];
}

/** The script's verdicts as status strings per frame id (absent = valid). */
function verdicts(world: SuiteWorld, label: string): Record<string, string> {
  const raw = (world.h.provider(label).config.verdicts ?? {}) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const [id, v] of Object.entries(raw)) out[id] = typeof v === 'string' ? v : String((v as { status?: unknown }).status);
  return out;
}

Then('every frame {string} left without a verdict was treated as unknown: not reused, re-queried \\(V2)', async function (this: SuiteWorld, label: string) {
  return this.run(() => {
    this.judge(checkMissingVerdictUnknown(outcome(this), this.h.received(label), held(this), noVerdict(this, label), this.h.identities));
  });
});

Then('the host reused no body {string} did not answer valid \\(V3)', async function (this: SuiteWorld, label: string) {
  return this.run(() => {
    this.judge(checkReusedOnlyOnValid(outcome(this), this.h.received(label), held(this), verdicts(this, label), noVerdict(this, label), this.h.identities));
  });
});
