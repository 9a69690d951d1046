// Published types (U4): the schema every generated type and validator derives from keeps every
// contextgraph/1.0 field with its name and type. Thin: src/conformance/types/types-stability.ts inventories the
// schema directory and compares it with the frozen 1.0 inventory (vectors/schema-inventory-1.0.json).
// The schema directory is CGP_SCHEMA_DIR when set (so a mutated copy can be put under test), else schema/.
import { join, resolve } from 'node:path';
import { Given, Then, When } from '@cucumber/cucumber';
import { readFileSync } from 'node:fs';
import { checkAuthoringStrict } from '../src/conformance/types/authoring-strict.js';
import { checkFieldStability, inventorySchemaDir, readInventory, type InventoryField } from '../src/conformance/types/types-stability.js';
import type { Finding } from '../src/protocol/findings.js';
import { findPackageRoot } from '../src/util/package-root.js';
import type { SuiteWorld } from './world.js';

interface TypesState {
  schemaDir?: string;
  fields?: InventoryField[];
  strict?: { findings: Finding[]; probes: number };
}

// Per-scenario state without a hook: keyed by the World, which cucumber creates afresh per scenario.
const states = new WeakMap<SuiteWorld, TypesState>();

function state(world: SuiteWorld): TypesState {
  let s = states.get(world);
  if (s === undefined) {
    s = {};
    states.set(world, s);
  }
  return s;
}

/** The schema directory under test: CGP_SCHEMA_DIR, else the package's schema/. */
export function schemaDirUnderTest(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.CGP_SCHEMA_DIR;
  return dir !== undefined && dir.trim() !== '' ? resolve(dir) : join(findPackageRoot(), 'schema');
}

Given('the published schema directory', async function (this: SuiteWorld) {
  await this.run(() => {
    state(this).schemaDir = schemaDirUnderTest();
  });
});

When('the harness inventories every field the schema defines', async function (this: SuiteWorld) {
  await this.run(() => {
    const s = state(this);
    if (s.schemaDir === undefined) throw new Error('no schema directory chosen');
    s.fields = inventorySchemaDir(s.schemaDir);
  });
});

Then('every field of the frozen contextgraph\\/1.0 inventory is still defined with its name and type \\(U4)', async function (this: SuiteWorld) {
  await this.run(() => {
    const fields = state(this).fields;
    if (fields === undefined) throw new Error('the schema was not inventoried');
    const frozen = readInventory(join(findPackageRoot(), 'vectors', 'schema-inventory-1.0.json'));
    this.judge(checkFieldStability(frozen, fields));
  });
});

When("the harness injects an unknown member at every depth of the bundled example session's envelopes", async function (this: SuiteWorld) {
  await this.run(() => {
    const s = state(this);
    if (s.schemaDir === undefined) throw new Error('no schema directory chosen');
    const text = readFileSync(join(findPackageRoot(), 'examples', 'session.ndjson'), 'utf8');
    const samples = text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    s.strict = checkAuthoringStrict(s.schemaDir, samples);
  });
});

Then('the published schema rejects every one and the interop profile accepts every one \\({ids})', async function (this: SuiteWorld, _ids: string[]) {
  await this.run(() => {
    const strict = state(this).strict;
    if (strict === undefined) throw new Error('no probes were run');
    if (strict.findings.length === 0 && strict.probes === 0) throw new Error('no probe document was built: nothing was examined');
    this.log(`${strict.probes} probe documents`);
    this.judge(strict.findings);
  });
});
