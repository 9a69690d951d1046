// The red team's zero-collateral gate (docs/interpretations.md §93) on synthetic scenario results: a mode caught
// while another id fails or warns is an error, unless its allow-list names that id with a reason; a (scenario,
// id) the honest run flags too is not the mode's doing; a miss stays a miss.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCatalogue } from '../../../src/catalogue/index.js';
import { CatalogueIndex, collectWitnesses, evaluateMode, honestFlags, type ScenarioResult } from '../../../src/conformance/report/index.js';
import { syntheticScenario } from '../../fixtures/report/scenario.js';

const index = new CatalogueIndex(loadCatalogue());

const scenario = (tags: string[], status: ScenarioResult['status'], findings: ScenarioResult['findings'] = [], line = 3): ScenarioResult => syntheticScenario(tags, status, { findings }, line);
const error = (id: string) => ({ id, severity: 'error' as const, pointer: '', message: `${id} violated` });
const warning = (id: string) => ({ id, severity: 'warning' as const, pointer: '', message: `${id} not met` });

describe('zero-collateral gate', () => {
  test('caught, and nothing else failed or warned: caught, no allow-list in the result', () => {
    const r = evaluateMode({ mode: 'm', breaks: ['F12'], description: 'd' }, [scenario(['@F12'], 'failed', [error('F12')])], index);
    assert.equal(r.verdict, 'caught');
    assert.equal(r.allowed, undefined);
    assert.equal(r.collateral, undefined);
  });

  test('caught, with another id failed and one warned: an error naming both', () => {
    const r = evaluateMode({ mode: 'm', breaks: ['F12'], description: 'd' }, [scenario(['@F12'], 'failed', [error('F12'), error('F13'), warning('G4')])], index);
    assert.equal(r.verdict, 'error');
    assert.deepEqual(r.collateral, ['F13: features/provider/x.feature:3 scenario @F12 (failed)', 'G4: features/provider/x.feature:3 scenario @F12 (warning)']);
    assert.match(r.problem ?? '', /^collateral: .*F13.*G4.*one root cause, one finding/);
  });

  test('an id on the allow-list, with its reason, is not collateral; the list is in the result', () => {
    const allow = [{ id: 'F13', reason: 'a wrong commitment also breaks the Merkle root' }];
    const r = evaluateMode({ mode: 'm', breaks: ['F12'], collateral: allow, description: 'd' }, [scenario(['@F12'], 'failed', [error('F12'), error('F13')])], index);
    assert.equal(r.verdict, 'caught');
    assert.deepEqual(r.allowed, allow);
  });

  test('an allow-list entry must name a catalogued id outside breaks, with a reason', () => {
    const entry = {
      mode: 'm',
      breaks: ['F12'],
      collateral: [
        { id: 'NOPE', reason: 'x' },
        { id: 'F12', reason: 'y' },
        { id: 'F13', reason: ' ' },
      ],
      description: 'd',
    };
    const r = evaluateMode(entry, [scenario(['@F12'], 'failed', [error('F12')])], index);
    assert.equal(r.verdict, 'error');
    assert.match(r.problem ?? '', /NOPE is not in the rule catalogue/);
    assert.match(r.problem ?? '', /F12 is already in breaks/);
    assert.match(r.problem ?? '', /F13 gives no reason/);
  });

  test('a (scenario, id) the honest run flags too is not collateral', () => {
    const honest = honestFlags(collectWitnesses([scenario(['@F12'], 'passed', [warning('G4')])], index));
    const r = evaluateMode({ mode: 'm', breaks: ['F12'], description: 'd' }, [scenario(['@F12'], 'failed', [error('F12'), warning('G4')])], index, honest);
    assert.equal(r.verdict, 'caught');
  });

  test('inconclusive scenarios (inconclusive) are not collateral; a miss with collateral stays not caught', () => {
    const quiet = evaluateMode({ mode: 'm', breaks: ['B1'], description: 'd' }, [scenario(['@B1'], 'failed', [error('B1')]), scenario(['@B3'], 'inconclusive', [], 9)], index);
    assert.equal(quiet.verdict, 'caught');
    const miss = evaluateMode({ mode: 'm', breaks: ['B1'], description: 'd' }, [scenario(['@B1', '@B3'], 'failed', [error('B3')])], index);
    assert.equal(miss.verdict, 'not-caught');
    assert.deepEqual(miss.collateral, ['B3: features/provider/x.feature:3 scenario @B1 @B3 (failed)']);
  });
});
