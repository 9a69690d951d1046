// Hooks of the host-facing scenarios: one HostScenario (a fresh host under test, its own consent ledger,
// its scripted providers) per @host scenario, disposed after it whatever happened.
import { After, Before } from '@cucumber/cucumber';
import { HostScenario } from '../../src/conformance/host/scenario.js';
import { hostSuiteConfig, type HostRunParameters } from '../../src/conformance/host/runtime.js';
import { idsOfTags } from '../../src/conformance/host/tags.js';
import type { ProviderWorld } from '../world.js';

Before({ tags: '@host', name: 'host scenario setup' }, async function (this: ProviderWorld, { pickle }) {
  const config = await hostSuiteConfig(this.parameters as { host?: HostRunParameters });
  this.hostScenario = new HostScenario(config, idsOfTags(pickle.tags.map((t) => t.name)));
});

After({ tags: '@host', name: 'host scenario teardown' }, async function (this: ProviderWorld) {
  await this.hostScenario?.dispose();
});
