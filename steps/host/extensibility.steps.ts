// Extensibility (U1, U3) and correlation (H4, host half): what the host makes of members it does not
// recognise, of namespaced vendor values, and of replies whose id does not match the request in flight.
// Steps are thin: they drive the HostScenario and hand observations to
// src/conformance/host-suite/checks/extensibility.ts. Generic steps (scripted providers, connecting, consent,
// "fans a query out", "tries to connect") are reused from consent.steps.ts and connection.steps.ts.
import { Then, When } from '@cucumber/cucumber';
import type { ContextQuery } from '../../generated/types/index.js';
import {
  checkCorrelationFailureReported,
  checkNamespacedCodeNotBase,
  checkNamespacedScopeNotBase,
  checkRepliesDemultiplexed,
  checkUnknownMembersIgnored,
  checkUnknownMembersInErrorIgnored,
  type PipelinedQuery,
  type ProviderSeen,
} from '../../src/conformance/host-suite/checks/extensibility.js';
import type { HostScenario } from '../../src/conformance/host-suite/scenario.js';
import type { SuiteWorld } from '../world.js';
import { isScenarioVerdict } from '../../src/conformance/host-suite/scenario.js';

const STATE = 'extensibility.steps';
const query = (goal: string): ContextQuery => ({ goal, max_frames: 4, max_tokens: 2000 });

function seen(h: HostScenario, label: string): ProviderSeen {
  const p = h.provider(label);
  return { label, routingId: p.descriptor?.routingId, connectError: p.connectError, received: h.received(label) };
}

function connected(h: HostScenario, label: string): { label: string; routingId: string; received: ReturnType<HostScenario['received']> } {
  return { label, routingId: h.routingId(label), received: h.received(label) };
}

/** The frame ids a scripted provider serves (its `serve` script, else the default one). */
function servedIds(h: HostScenario, label: string): string[] {
  const serve = h.provider(label).config.serve;
  return Array.isArray(serve) ? (serve as Array<{ id?: unknown }>).map((s) => String(s.id)) : ['frm_one'];
}

async function settle(run: Promise<unknown>): Promise<{ fanOut: PipelinedQuery['fanOut']; thrown: unknown }> {
  try {
    return { fanOut: (await run) as PipelinedQuery['fanOut'], thrown: undefined };
  } catch (err) {
    if (isScenarioVerdict(err)) throw err;
    return { fanOut: undefined, thrown: err };
  }
}

// H4: both fan-outs are started before either settles, so both queries are in flight on the connection.
When('the host under test fans out the queries {string} and {string} at once', async function (this: SuiteWorld, first: string, second: string) {
  return this.run(async () => {
    const host = await this.h.host();
    const runs = await Promise.all([first, second].map(async (goal) => ({ goal, ...(await settle(host.queryAll(query(goal)))) })));
    this.h.state.set(STATE, runs);
  });
});

// One after the other: the second reply can then carry the first request's (already answered) id.
When('the host under test fans out the queries {string} and then {string}', async function (this: SuiteWorld, first: string, second: string) {
  return this.run(async () => {
    const runs: PipelinedQuery[] = [];
    for (const goal of [first, second]) {
      await this.h.queryAll(query(goal));
      runs.push({ goal, fanOut: this.h.lastFanOut, thrown: this.h.lastError });
    }
    this.h.state.set(STATE, runs);
  });
});

Then('each query to {string} was answered with the frames of its own goal \\(H4)', async function (this: SuiteWorld, label: string) {
  return this.run(() => {
    const runs = this.h.state.get(STATE) as PipelinedQuery[] | undefined;
    if (runs === undefined) throw new Error('the scenario fanned out no pair of queries');
    this.judge(checkRepliesDemultiplexed(connected(this.h, label), runs));
  });
});

Then('the host reported a correlation failure for {string} and took none of its replies as an answer \\(H4)', async function (this: SuiteWorld, label: string) {
  return this.run(() => {
    const mode = this.h.provider(label).config.idMode;
    const how = mode === 'wrong' ? 'a wrong id' : mode === 'omit' ? 'no id' : mode === 'previous' ? "an earlier request's id" : `idMode ${JSON.stringify(mode)}`;
    const runs = this.h.state.get(STATE) as PipelinedQuery[] | undefined;
    const last = runs?.at(-1);
    const fanOut = last ? last.fanOut : this.h.lastFanOut;
    const thrown = last ? last.thrown : this.h.lastError;
    this.judge(checkCorrelationFailureReported({ label, routingId: this.h.routingId(label) }, how, fanOut, thrown));
  });
});

Then('the host accepted {string} and took its answer, ignoring the members {string} it does not recognise \\({ids})', async function (this: SuiteWorld, label: string, where: string, ids: string[]) {
  return this.run(() => {
    const unknown = where
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
    this.judge(checkUnknownMembersIgnored(ids, seen(this.h, label), { frameIds: servedIds(this.h, label), unknown }, this.h.lastFanOut, this.h.lastError));
  });
});

Then(
  'the host reported the error of {string} by its code, ignoring the members {string} it does not recognise \\({ids})',
  async function (this: SuiteWorld, label: string, where: string, ids: string[]) {
    return this.run(() => {
      const code = this.h.provider(label).config.errorCode;
      if (typeof code !== 'string') throw new Error(`scripted provider ${JSON.stringify(label)} is not scripted with an errorCode`);
      const unknown = where
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
      this.judge(checkUnknownMembersInErrorIgnored(ids, seen(this.h, label), { code, unknown }, this.h.lastFanOut, this.h.lastError));
    });
  },
);

Then('the host reported the error of {string} under its namespaced code, not as the base code after the colon \\(U3)', async function (this: SuiteWorld, label: string) {
  return this.run(() => {
    const code = this.h.provider(label).config.errorCode;
    if (typeof code !== 'string' || !code.includes(':')) throw new Error(`scripted provider ${JSON.stringify(label)} is not scripted with a namespaced errorCode`);
    this.judge(checkNamespacedCodeNotBase(seen(this.h, label), code, this.h.lastFanOut, this.h.lastError));
  });
});

Then('{string} was not queried: its namespaced scope {string} is not the base scope after the colon \\(U3)', async function (this: SuiteWorld, label: string, scope: string) {
  return this.run(() => {
    this.judge(checkNamespacedScopeNotBase(seen(this.h, label), scope, this.h.lastFanOut, this.h.lastError));
  });
});
