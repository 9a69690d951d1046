// The one-way dependency rule (docs/architecture.md "Layers"): a module imports from its own folder or from a
// layer strictly below its own, never sideways into a sibling folder and never upwards. Checked on the import
// specifiers of every source file under src/ (static `import … from`, `export … from` and dynamic `import()`).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { findPackageRoot } from '../../src/util/package-root.js';

/** Higher imports lower. Folders on one rank are siblings: neither imports the other. */
export const LAYERS: Readonly<Record<string, number>> = {
  'src/cli': 9,
  'src/index.ts': 9,
  'src/conformance': 8,
  'src/host': 7,
  'src/ingest': 7,
  'src/provider': 6,
  'src/attest': 5,
  'src/protocol': 4,
  'src/transport': 3,
  'src/schema': 3,
  'src/catalogue': 3,
  generated: 2,
  'src/util': 1,
};

function layerOf(repoPath: string): string | undefined {
  return Object.keys(LAYERS).find((l) => repoPath === l || repoPath.startsWith(`${l}/`));
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.(ts|mts|mjs|js)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

test('src/ imports point one way: down the layers, never sideways or up', () => {
  const root = findPackageRoot();
  const violations: string[] = [];
  let edges = 0;
  for (const file of sources(join(root, 'src'))) {
    const from = relative(root, file);
    const fromLayer = layerOf(from);
    assert.ok(fromLayer, `${from} is in no layer of test/repo/layering.test.ts (add its folder to LAYERS and to docs/architecture.md)`);
    for (const m of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const to = relative(root, resolve(dirname(file), m[1]!));
      const toLayer = layerOf(to);
      edges++;
      if (toLayer === fromLayer) continue;
      if (toLayer === undefined || LAYERS[toLayer]! >= LAYERS[fromLayer]!) violations.push(`${from} → ${to} (${fromLayer} may not import ${toLayer ?? 'outside the layers'})`);
    }
  }
  assert.ok(edges > 100, `only ${edges} imports seen: the pattern no longer matches the sources`);
  assert.deepEqual(violations, []);
});

// Within src/conformance: the host suite may use the provider suite's shared pieces (its errors, its
// config), never the reverse, so a provider run loads no host-suite code (docs/architecture.md "Layers").
test('src/conformance/provider-suite never imports src/conformance/host-suite', () => {
  const root = findPackageRoot();
  const violations: string[] = [];
  let edges = 0;
  for (const file of sources(join(root, 'src', 'conformance', 'provider-suite'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const to = relative(root, resolve(dirname(file), m[1]!));
      edges++;
      if (to.startsWith('src/conformance/host-suite/')) violations.push(`${relative(root, file)} → ${to}`);
    }
  }
  assert.ok(edges > 20, `only ${edges} imports seen under src/conformance/provider-suite: the pattern no longer matches`);
  assert.deepEqual(violations, []);
});
