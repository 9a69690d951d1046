// The ts-morph index of step definitions and the ids their comments cite, joined with cucumber's
// stepDefinition sourceReference (uri, line).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalogue } from '../../../src/catalogue/index.js';
import { CatalogueIndex, readMessagesFile, UnknownCatalogueIdError } from '../../../src/conformance/report/index.js';
import { citedIds, indexStepDefinitions, joinStepIndex } from '../../../src/conformance/report/step-index.js';
import { runSuite } from '../../fixtures/report/fixture-suite.js';

const STEPS = 'test/fixtures/report/steps/steps.ts';
let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'cgp-step-index-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function lineOf(text: string): number {
  const lines = readFileSync(STEPS, 'utf8').split('\n');
  const i = lines.findIndex((l) => l.startsWith(text));
  assert.ok(i >= 0, text);
  return i + 1;
}

test('finds every Given/When/Then with its line, pattern and cited ids', async () => {
  const index = await indexStepDefinitions([STEPS]);
  const passes = index.find((c) => c.pattern === 'the check passes');
  assert.deepEqual(passes, {
    uri: STEPS,
    line: lineOf("Then('the check passes'"),
    keyword: 'Then',
    pattern: 'the check passes',
    ids: ['H1', 'S6.1-as-of'],
  });
  assert.deepEqual(index.find((c) => c.pattern === 'the check for {string} fails with a finding')?.ids, ['H2']);
  assert.deepEqual(index.find((c) => c.pattern === 'the check crashes')?.ids, []);
  assert.equal(index.filter((c) => c.uri === STEPS).length, 11);
});

test('joins with the messages by (uri, line): which scenarios use a citing definition', async () => {
  const { messagesPath } = await runSuite({ side: 'provider', features: 'coverage', reportName: 'idx', reportsDir: dir });
  const messages = readMessagesFile(messagesPath);
  const index = await indexStepDefinitions([STEPS]);
  // every step definition cucumber reports is found by the scan at the same (uri, line)
  for (const d of messages.stepDefinitions) {
    assert.ok(
      index.some((c) => c.uri === d.uri && c.line === d.line),
      `${d.uri}:${d.line}`,
    );
  }
  const joined = joinStepIndex(index, [messages]);
  assert.deepEqual(joined.citations.H2, [`${STEPS}:${lineOf("Then('the check for {string} fails with a finding'")}`]);
  const passes = joined.step_definitions.find((c) => c.pattern === 'the check passes');
  assert.ok(passes?.used_by.includes('test/fixtures/report/coverage/cases.feature:5'));
  // a scenario tagged @C3 whose steps cite no C3 is listed (informative)
  assert.ok(joined.uncited_tags.includes('test/fixtures/report/coverage/cases.feature:20 @C3'));
  assert.ok(!joined.uncited_tags.includes('test/fixtures/report/coverage/cases.feature:5 @H1'));
});

test('citation syntax: spec:/@spec/anchors:/rules: lines and SPEC.md# links; unknown ids are errors', () => {
  const index = new CatalogueIndex(loadCatalogue());
  assert.deepEqual(citedIds('// spec: B3, B1\n// unrelated UTF8 text', index, 'x'), ['B1', 'B3']);
  assert.deepEqual(citedIds('/**\n * Budget.\n * @spec SPEC.md#B4 S7.2-budget-token\n */', index, 'x'), ['B4', 'S7.2-budget-token']);
  assert.deepEqual(citedIds('// see SPEC.md#H1 for the handshake', index, 'x'), ['H1']);
  assert.deepEqual(citedIds('// rules: S2.1-no-newline.', index, 'x'), ['S2.1-no-newline']);
  assert.deepEqual(citedIds("const s = 'spec: B3'; // no citation here", index, 'x'), []);
  assert.throws(() => citedIds('// anchors: H1 B9', index, 'x'), UnknownCatalogueIdError);
  assert.deepEqual(citedIds('/** @spec SPEC.md#handshake-1 */', index, 'x'), []);
  assert.throws(() => citedIds('// see SPEC.md#B9', index, 'x'), UnknownCatalogueIdError);
});
