// Usage report (UR1) and attribution (A1–A3). Thin: the host under test composes what it received,
// bills it and attributes a model output the scenario hands in; src/conformance/host-suite/checks/usage.ts
// judges the report and the record against the frames served and against each other.
import { Then, When } from '@cucumber/cucumber';
import { checkAttributionHandles, checkAttributionReconcilable, checkCitedObserved, checkProviderIdsAreNames, checkUsageBillsServed } from '../../src/conformance/host-suite/checks/usage.js';
import { rawOf } from '../../src/conformance/host-suite/control/contract-host.js';
import type { SuiteWorld } from '../world.js';
import { notObserved } from '../../src/conformance/host-suite/inconclusive.js';

const MODEL_OUTPUT = 'usage.steps:model-output';
/** The accounting time handed to the host (a fixed protocol timestamp keeps the report deterministic). */
const AS_OF = '2026-01-01T00:00:00Z';

function answers(world: SuiteWorld) {
  if (world.h.lastFanOut === undefined) notObserved(world.h.ids.join(', '), `no fan-out to bill${world.h.lastError ? ` (it failed: ${String(world.h.lastError)})` : ''}`);
  return world.h.lastFanOut.answers;
}

When('the host under test composes its answers into {int} budget tokens, bills them and attributes the model output {string}', async function (this: SuiteWorld, budget: number, output: string) {
  return this.run(async () => {
    const host = await this.h.host();
    const fanOut = this.h.lastFanOut;
    if (fanOut === undefined) notObserved(this.h.ids.join(', '), `no fan-out to bill${this.h.lastError ? ` (it failed: ${String(this.h.lastError)})` : ''}`);
    // UR1 is judged on the usage report alone: it is asked for first, from what the host holds (the
    // query and its fan-out result), and never waits on composition or attribution
    this.h.lastUsage = await host.usage(this.h.lastQuery!, fanOut);
    this.h.lastComposed = await host.compose(fanOut.answers, { budgetTokens: budget });
    this.h.state.set(MODEL_OUTPUT, output);
  });
});

/** A2/A1/A3: the attribution of the composition (capability attribution: a host without it is not applicable). */
async function attribution(world: SuiteWorld): Promise<void> {
  if (world.h.lastAttribution !== undefined) return;
  const host = await world.h.host();
  if (world.h.lastComposed === undefined || world.h.lastUsage === undefined) throw new Error('no composition and usage report to attribute');
  world.h.lastAttribution = await host.attribute(world.h.lastComposed, world.h.lastUsage, String(world.h.state.get(MODEL_OUTPUT) ?? ''));
}

Then('the usage report bills every frame served by its FrameId, budget_consumed being their summed token_cost \\(UR1)', async function (this: SuiteWorld) {
  return this.run(() => {
    this.judge([...checkUsageBillsServed(this.h.lastUsage, answers(this)), ...checkProviderIdsAreNames('usage report', rawOf(this.h.lastUsage), this.h.identities)]);
  });
});

Then('every attribution record is keyed by the FrameId of a frame served \\(A1)', async function (this: SuiteWorld) {
  return this.run(async () => {
    await attribution(this);
    this.judge([...checkAttributionHandles(this.h.lastAttribution, answers(this)), ...checkProviderIdsAreNames('attribution record', rawOf(this.h.lastAttribution), this.h.identities)]);
  });
});

Then('the attribution reports selected, rendered and cited apart, cited only where the model output names the frame \\(A2)', async function (this: SuiteWorld) {
  return this.run(async () => {
    await attribution(this);
    this.judge(checkCitedObserved(this.h.lastAttribution, this.h.lastComposed, String(this.h.state.get(MODEL_OUTPUT) ?? ''), answers(this)));
  });
});

Then('the attribution record is coherent and names only frames the usage report billed \\(A3)', async function (this: SuiteWorld) {
  return this.run(async () => {
    await attribution(this);
    this.judge(checkAttributionReconcilable(this.h.lastAttribution, this.h.lastUsage, this.h.lastComposed));
  });
});
