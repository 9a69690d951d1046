// Every anchor or rule id that src/ can emit as a finding must exist in the catalogue
// (generated/anchors.json, generated/rules.json) — an unknown id is a defect, not a footnote.
// Lifecycle-profile ids (LC2, LD2, LX1, LH1) come from the Context Exchange Provider profile,
// which SPEC.md references but does not restate; they are allow-listed here by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const LIFECYCLE_PROFILE_IDS = new Set(['LC2', 'LD2', 'LX1', 'LH1']);
const anchors = (JSON.parse(readFileSync('generated/anchors.json', 'utf8')) as { anchors: { id: string }[] }).anchors;
const rules = (JSON.parse(readFileSync('generated/rules.json', 'utf8')) as { rules: { id: string }[] }).rules;
const known = new Set([...anchors.map((a) => a.id), ...rules.map((r) => r.id), ...LIFECYCLE_PROFILE_IDS]);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

test('every finding id quoted in src/protocol and src/schema is catalogued', () => {
  const unknown: string[] = [];
  for (const file of [...files('src/protocol'), ...files('src/schema')]) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/['"`](S\d+(?:\.\d+)*-[a-z0-9.-]+)['"`]/g)) {
      if (!known.has(m[1]!)) unknown.push(`${file}: ${m[1]}`);
    }
  }
  assert.deepEqual(unknown, [], `uncatalogued rule ids: ${unknown.join(', ')}`);
});

test('every x-cgp-anchor in the schemas is catalogued', () => {
  const unknown: string[] = [];
  for (const file of ['schema/contextgraph-envelope.schema.json', 'schema/contextgraph-lifecycle-record.schema.json']) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/"x-cgp-anchor"\s*:\s*"([^"]+)"/g)) {
      if (!known.has(m[1]!)) unknown.push(`${file}: ${m[1]}`);
    }
  }
  assert.deepEqual(unknown, []);
});
