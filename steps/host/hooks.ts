// Hooks of the host-facing scenarios: one HostScenario (a fresh host under test, its own consent ledger,
// its scripted providers) per @host scenario, disposed after it whatever happened.
import { After, AfterAll, Before } from '@cucumber/cucumber';
import { disposeWarmHosts } from '../../src/conformance/host-suite/control/control-client.js';
import { HostScenario } from '../../src/conformance/host-suite/scenario.js';
import { closeScriptedRelay } from '../../src/conformance/host-suite/scripted/scripted-relay.js';
import { hostSuiteConfig, type HostRunParameters } from '../../src/conformance/host-suite/runtime.js';
import { idsOfTags } from '../../src/conformance/host-suite/tags.js';
import { capabilityNeeds } from '../../src/conformance/host-suite/capabilities.js';
import type { SuiteWorld } from '../world.js';
import { TRANSCRIPT_MEDIA_TYPE } from '../../src/conformance/evidence/attachments.js';
import { encodeTranscript, wireEntry, type WireEntry } from '../../src/conformance/evidence/evidence.js';
import { existsSync, readFileSync } from 'node:fs';

Before({ tags: '@host', name: 'host scenario setup' }, async function (this: SuiteWorld, { pickle }) {
  const config = await hostSuiteConfig(this.parameters as { host?: HostRunParameters });
  const tags = pickle.tags.map((t) => t.name);
  this.hostScenario = new HostScenario(config, idsOfTags(tags), capabilityNeeds(tags));
});

After({ tags: '@host', name: 'host scenario teardown' }, async function (this: SuiteWorld) {
  // Wire evidence (docs/interpretations.md §61): every line the host under test sent to each scripted provider, as recorded
  // by that provider (docs/interpretations.md §61: the host suite records no times).
  const entries: WireEntry[] = [];
  for (const p of this.hostScenario?.providers.values() ?? []) {
    if (!existsSync(p.recordPath)) continue;
    for (const line of readFileSync(p.recordPath, 'utf8').split('\n')) {
      if (line !== '') entries.push(wireEntry({ direction: 'received', connection: `to provider ${p.label}`, t_ms: null, line }));
    }
  }
  if (entries.length > 0) this.attach(encodeTranscript(entries.slice(0, 200)), TRANSCRIPT_MEDIA_TYPE);
  await this.hostScenario?.dispose();
});

AfterAll({ name: 'stop the host processes started ahead' }, async function () {
  await disposeWarmHosts();
  await closeScriptedRelay();
});
