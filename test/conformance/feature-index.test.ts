// The build's index of the feature files (src/conformance/run/feature-index.ts, written by
// scripts/finish-build.mjs): for any tag expression it selects exactly the pickles cucumber's loadSources
// plans, and a run stops trusting it as soon as the feature files are not the ones it indexed (a file changed,
// added or removed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSources } from '@cucumber/cucumber/api';
import { featureIndexFile, indexedSelection } from '../../src/conformance/run/feature-index.js';
import { someSelected, TAG_EXAMPLES } from '../../src/conformance/run/selection.js';
import { findPackageRoot } from '../../src/util/package-root.js';

const ROOT = findPackageRoot();
const INDEX = featureIndexFile(ROOT);

async function cucumberPlans(root: string, dirs: string[], tags: string): Promise<string[]> {
  const { plan, errors } = await loadSources({ paths: dirs.map((d) => join(root, 'features', d, '**', '*.feature')), defaultDialect: 'en', names: [], order: 'defined', tagExpression: tags }, { cwd: root });
  assert.deepEqual(errors, []);
  return plan.map((p) => `${p.uri}:${p.location.line}`).sort();
}

const fromIndex = (root: string, dirs: string[], tags: string): string[] | undefined => indexedSelection(root, dirs, tags)?.map((s) => `${s.uri}:${s.line}`).sort();

test('feature index: selects what cucumber plans, for the sides, anchors, rules and capability tags', async (t) => {
  if (!existsSync(INDEX)) return t.skip('dist/ not built: run `npm run build` (the build writes the index)');
  const cases: Array<[string[], string]> = [
    [['provider'], '@provider'],
    [['provider'], '@provider and (@B3)'],
    [['provider'], '@provider and (@B1 or @B4)'],
    [['provider'], '@provider and (@F5 and not @needs-verify)'],
    [['provider'], '@provider and (not @needs-attestation)'],
    [['provider'], '@provider and (@S6.3-content-digest)'],
    [['provider'], '@provider and (@NOPE)'],
    [['host', 'types'], '(@host or @types)'],
    [['host', 'types'], '(@host or @types) and (@F8 or @C6 or @B1)'],
    [['host', 'types'], '(@host or @types) and (@U4)'],
  ];
  for (const [dirs, tags] of cases) {
    const ours = fromIndex(ROOT, dirs, tags);
    assert.ok(ours !== undefined, `the index is current for ${dirs.join(', ')}`);
    assert.deepEqual(ours, await cucumberPlans(ROOT, dirs, tags), tags);
  }
  assert.equal(fromIndex(ROOT, ['provider'], '@provider and (@NOPE)')?.length, 0);
});

test('feature index: not used once the features differ from what it indexed', (t) => {
  if (!existsSync(INDEX)) return t.skip('dist/ not built: run `npm run build` (the build writes the index)');
  const dir = mkdtempSync(join(tmpdir(), 'cgp-feature-index-'));
  try {
    const copy = (): string => {
      const root = mkdtempSync(join(dir, 'root-'));
      cpSync(join(ROOT, 'features'), join(root, 'features'), { recursive: true });
      mkdirSync(join(root, 'dist', 'bundle'), { recursive: true });
      cpSync(INDEX, featureIndexFile(root));
      return root;
    };
    const same = copy();
    assert.deepEqual(fromIndex(same, ['provider'], '@provider'), fromIndex(ROOT, ['provider'], '@provider'));
    // one feature's text changed
    const edited = copy();
    appendFileSync(join(edited, 'features', 'provider', 'budget.feature'), '\n');
    assert.equal(indexedSelection(edited, ['provider'], '@provider'), undefined);
    // a feature file added (at any depth), or one removed
    const added = copy();
    mkdirSync(join(added, 'features', 'provider', 'more'));
    writeFileSync(join(added, 'features', 'provider', 'more', 'extra.feature'), 'Feature: extra\n  @provider\n  Scenario: x\n    Given a step\n');
    assert.equal(indexedSelection(added, ['provider'], '@provider'), undefined);
    const removed = copy();
    rmSync(join(removed, 'features', 'provider', 'budget.feature'));
    assert.equal(indexedSelection(removed, ['provider'], '@provider'), undefined);
    // the host side's files are not the provider side's business
    const hostEdited = copy();
    appendFileSync(join(hostEdited, 'features', 'host', 'budget.feature'), '\n');
    assert.ok(indexedSelection(hostEdited, ['provider'], '@provider') !== undefined);
    assert.equal(indexedSelection(hostEdited, ['host', 'types'], '(@host or @types)'), undefined);
    // no index, or one of another version
    const none = copy();
    rmSync(featureIndexFile(none));
    assert.equal(indexedSelection(none, ['provider'], '@provider'), undefined);
    writeFileSync(featureIndexFile(none), JSON.stringify({ version: 0, features: [] }));
    assert.equal(indexedSelection(none, ['provider'], '@provider'), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('selection: the ids a selection of nothing suggests each select scenarios of its side', async () => {
  const sides: Record<string, { dirs: string[]; tags: string }> = { provider: { dirs: ['provider'], tags: '@provider' }, host: { dirs: ['host', 'types'], tags: '(@host or @types)' } };
  for (const [side, { dirs, tags }] of Object.entries(sides)) {
    const ids = TAG_EXAMPLES[side]!.split(' or ');
    assert.ok(ids.length >= 2, side);
    for (const id of ids) assert.ok((await cucumberPlans(ROOT, dirs, `${tags} and (${id})`)).length > 0, `${id} selects a ${side} scenario`);
    assert.throws(() => someSelected([], '@NOPE', side), (e: Error) => e.message.includes(TAG_EXAMPLES[side]!));
  }
});
