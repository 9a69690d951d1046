// Verify & reuse (V1, D3, D4, V4, S9-verify-correlation) and attestation verdicts (F8, F9,
// S6.5.4-distinct-verdicts). Thin: the steps drive the HostScenario (and the bundled signing provider
// behind a recording tee) and hand what was observed to src/conformance/host-suite/checks/verify.ts.
import { Given, Then, When, type DataTable } from '@cucumber/cucumber';
import {
  checkDigestlessNotReused,
  checkReuseOnlyOnValid,
  checkSmallOrderKeyNotAttested,
  checkUnknownAlgorithmUncheckable,
  checkUnverifiableKept,
  checkVerdicts,
  checkVerifyCorrelated,
  checkVerifyIdentitiesOnly,
  checkVerifyNamesProvider,
  connectBundledProvider,
  sentBy,
  servedFrames,
  smallOrderKeyScript,
  ZERO_PUBLIC_KEY,
  ZERO_SIGNATURE,
  teedProvider,
} from '../../src/conformance/host-suite/checks/verify.js';
import type { ReceivedFrame } from '../../src/host/types.js';
import type { VerifyOutcome } from '../../src/host/verify-reuse.js';
import type { SuiteWorld } from '../world.js';
import { notObserved } from '../../src/conformance/host-suite/inconclusive.js';

const HELD = 'verify.steps:held';
const OUTCOME = 'verify.steps:outcome';
/** Room for everything the bundled provider serves (F9: nothing may be left out for budget reasons). */
const ROOMY_BUDGET = 100_000;

function held(world: SuiteWorld): ReceivedFrame[] {
  return (world.h.state.get(HELD) as ReceivedFrame[] | undefined) ?? [];
}

function outcome(world: SuiteWorld): VerifyOutcome | undefined {
  return world.h.state.get(OUTCOME) as VerifyOutcome | undefined;
}

/** The script's verdicts as status strings per frame id (absent = valid). */
function scriptedVerdicts(world: SuiteWorld, label: string): Record<string, string> {
  const raw = (world.h.provider(label).config.verdicts ?? {}) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const [id, v] of Object.entries(raw)) out[id] = typeof v === 'string' ? v : String((v as { status?: unknown }).status);
  return out;
}

Given('the host under test has connected the bundled reference provider {string} in its {string} mode', async function (this: SuiteWorld, label: string, mode: string) {
  return this.run(() => connectBundledProvider(this.h, label, mode));
});

When('the host under test verifies every frame it holds from {string}', async function (this: SuiteWorld, label: string) {
  return this.run(async () => {
    const routingId = this.h.routingId(label);
    if (this.h.lastFanOut === undefined) notObserved(this.h.ids.join(', '), `no fan-out to take held frames from${this.h.lastError ? ` (it failed: ${String(this.h.lastError)})` : ''}`);
    const frames = this.h.lastFanOut.answers.filter((a) => a.provider.routingId === routingId).flatMap((a) => a.frames);
    if (frames.length === 0) notObserved(this.h.ids.join(', '), `the host holds no frame from ${label} to verify`);
    this.h.state.set(HELD, frames);
    const host = await this.h.host();
    this.h.state.set(OUTCOME, await host.verify(routingId, frames));
  });
});

Then('every verify {string} received carried frame identities only \\(V1)', async function (this: SuiteWorld, label: string) {
  return this.run(() => {
    const frames = held(this);
    const expectVerify = this.h.provider(label).config.verify === true && frames.some((f) => typeof f.frameId.content_digest === 'string');
    const name = String(this.h.provider(label).config.name ?? label);
    this.judge([...checkVerifyIdentitiesOnly({ label }, this.h.received(label), frames, expectVerify), ...checkVerifyNamesProvider({ label, name }, this.h.received(label))]);
  });
});

Then('the digest-less frame of {string} was re-queried, not reused \\(D3)', async function (this: SuiteWorld, label: string) {
  return this.run(() => {
    this.h.provider(label); // the label must name this scenario's provider
    this.judge(checkDigestlessNotReused(outcome(this), held(this)));
  });
});

Then('the host reused only the bodies {string} confirmed valid \\({ids})', async function (this: SuiteWorld, label: string, ids: string[]) {
  return this.run(() => {
    this.judge(checkReuseOnlyOnValid(outcome(this), this.h.received(label), scriptedVerdicts(this, label), ids, this.h.identities));
  });
});

Then('every verify {string} received carried a correlation id \\(S9-verify-correlation)', async function (this: SuiteWorld, label: string) {
  return this.run(() => {
    this.judge(checkVerifyCorrelated({ label }, this.h.received(label)));
  });
});

Then('every frame {string} served under its unrecognised algorithm is reported uncheckable, never attested \\(F8)', async function (this: SuiteWorld, label: string) {
  return this.run(() => {
    const served = servedFrames(teedProvider(this.h, label).name, sentBy(this.h, label));
    this.judge(checkUnknownAlgorithmUncheckable(served, this.h.lastFanOut));
  });
});

Then("every frame {string} served is among the host's answers and in a prompt composed with room for all \\(F9)", async function (this: SuiteWorld, label: string) {
  return this.run(async () => {
    const served = servedFrames(teedProvider(this.h, label).name, sentBy(this.h, label));
    const host = await this.h.host();
    const composed = this.h.lastFanOut ? await host.compose(this.h.lastFanOut.answers, { budgetTokens: ROOMY_BUDGET }) : undefined;
    this.judge(checkUnverifiableKept(served, this.h.lastFanOut, composed));
  });
});

Then('the host reported these attestation verdicts for what {string} served \\(S6.5.4-distinct-verdicts):', async function (this: SuiteWorld, label: string, table: DataTable) {
  return this.run(() => {
    const expected = Object.fromEntries(table.hashes().map((row) => [row.frame!, row.verdict!]));
    const served = servedFrames(teedProvider(this.h, label).name, sentBy(this.h, label));
    this.judge(checkVerdicts(expected, served, this.h.lastFanOut));
  });
});

Given('a scripted provider {string} that signs its result under a small-order ed25519 key', async function (this: SuiteWorld, label: string) {
  return this.run(() => {
    this.h.scripted(label, smallOrderKeyScript(label));
  });
});

Given('a scripted provider {string} that signs its result with an all-zero signature under the all-zero ed25519 key', async function (this: SuiteWorld, label: string) {
  return this.run(() => {
    this.h.scripted(label, smallOrderKeyScript(label, { publicKey: ZERO_PUBLIC_KEY, signature: ZERO_SIGNATURE }));
  });
});

Then('no frame {string} served under its small-order key is reported attested \\(S6.5.4-strict-ed25519)', async function (this: SuiteWorld, label: string) {
  return this.run(() => {
    const result = this.h.provider(label).config.rawResult;
    const served = servedFrames(label, [{ type: 'frames', result }]);
    this.judge(checkSmallOrderKeyNotAttested(served, this.h.lastFanOut));
  });
});
