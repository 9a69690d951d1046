// Hooks: one ScenarioProbe per scenario; capability tags decide applicability before anything runs (an
// undeclared need ⇒ skipped + a not-applicable attachment, never a pass); every fresh connection is closed
// After each scenario and the shared one AfterAll.
import { After, AfterAll, Before } from '@cucumber/cucumber';
import {
  applicability,
  APPLICABILITY_MEDIA_TYPE,
  closeRuntime,
  HARNESS_ERROR_MEDIA_TYPE,
  HarnessError,
  Inconclusive,
  needsAck,
  needsOf,
  runtimeFor,
  ScenarioProbe,
  describeError,
} from '../src/conformance/provider-suite/index.js';
import { stepBackstopMs, withBackstop, type SuiteWorld } from './world.js';
import { TARGET_MEDIA_TYPE, TRANSCRIPT_MEDIA_TYPE } from '../src/conformance/evidence/attachments.js';
import { encodeTranscript } from '../src/conformance/evidence/evidence.js';
import type { SuiteRuntime } from '../src/conformance/provider-suite/index.js';

/** Runs whose target (its handshake_ack) has been attached: once per run, on its first scenario. */
const targetAttached = new WeakSet<SuiteRuntime>();

Before({ tags: '@provider', name: 'provider scenario setup' }, async function (this: SuiteWorld, { pickle }) {
  const tags = pickle.tags.map((t) => t.name);
  try {
    const runtime = runtimeFor(this.parameters as { runId?: unknown; config?: unknown });
    this.probe = new ScenarioProbe(runtime, tags, pickle.name);
    if (!targetAttached.has(runtime)) {
      targetAttached.add(runtime);
      let first;
      try {
        first = await withBackstop(runtime.sharedAck(), stepBackstopMs(runtime.config.timeouts), 'the shared handshake');
      } catch (err) {
        if (err instanceof HarnessError) throw err;
      }
      const target = runtime.config.target;
      this.attach(JSON.stringify({ label: target.label, transport: target.kind, ack: first ?? null }), TARGET_MEDIA_TYPE);
    }
    const needs = needsOf(tags);
    let ack;
    if (needsAck(needs)) {
      try {
        ack = await withBackstop(runtime.sharedAck({ name: pickle.name, ids: this.probe.ids }), stepBackstopMs(runtime.config.timeouts), 'the shared handshake');
      } catch (err) {
        if (err instanceof HarnessError) throw err;
        ack = undefined; // the target could not be reached: the scenario runs and fails on it
      }
    }
    const verdict = applicability(needs, runtime.config, ack);
    if (!verdict.applicable) {
      this.attach(JSON.stringify({ not_applicable: verdict.reason }), APPLICABILITY_MEDIA_TYPE);
      return 'skipped';
    }
    // the shared connection was lost and could not be replaced: nothing after it can be observed (§88)
    const lost = runtime.lostForGood;
    if (lost !== undefined) throw new Inconclusive(this.probe.ids, lost);
  } catch (err) {
    const harness = err instanceof HarnessError ? err : new HarnessError(describeError(err), { cause: err });
    this.attach(JSON.stringify({ harness_error: harness.message }), HARNESS_ERROR_MEDIA_TYPE);
    throw harness;
  }
  return undefined;
});

After({ tags: '@provider', name: 'close fresh connections' }, async function (this: SuiteWorld) {
  const probe = this.probe;
  if (!probe) return;
  // Findings observed for ids other than the ones the verdict judged (or before a step failed): their own ids.
  try {
    for (const f of probe.unreportedFindings()) this.attachFinding(f);
  } catch (err) {
    if (!(err instanceof HarnessError)) throw err;
  }
  if (probe.notes.length > 0) this.log(probe.notes.join('\n'));
  const transcript = probe.transcript();
  if (transcript.length > 0) this.attach(encodeTranscript(transcript), TRANSCRIPT_MEDIA_TYPE);
  await probe.dispose();
});

AfterAll({ name: 'close the shared connection' }, async function () {
  await closeRuntime();
});
