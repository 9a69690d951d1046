import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BASE_ERROR_CODES, effectiveCode, ERROR_REACTIONS, isBaseErrorCode, isRetryable, reactionFor } from '../../src/protocol/error-codes.js';

test('§10 base codes and their reactions', () => {
  assert.deepEqual([...BASE_ERROR_CODES].sort(), Object.keys(ERROR_REACTIONS).sort());
  assert.equal(ERROR_REACTIONS.bad_request, 'do-not-retry');
  assert.equal(ERROR_REACTIONS.unsupported_kind, 'narrow-or-skip');
  assert.equal(ERROR_REACTIONS.unsupported_representation, 'request-full-or-skip');
  assert.equal(ERROR_REACTIONS.incompatible_version, 'drop-provider');
  assert.equal(ERROR_REACTIONS.budget_unsatisfiable, 'raise-budget-or-skip');
  assert.equal(ERROR_REACTIONS.unavailable, 'retry-with-backoff');
  assert.equal(ERROR_REACTIONS.shutting_down, 'respawn-or-drop');
  assert.equal(ERROR_REACTIONS.internal, 'report-and-count');
});

const effective: Array<[unknown, string, string | undefined, string | undefined]> = [
  ['bad_request', 'bad_request', 'bad_request', undefined],
  ['incompatible_version', 'incompatible_version', 'incompatible_version', undefined],
  [undefined, 'internal', undefined, 'X2'], // X2: absent ⇒ internal
  [null, 'internal', undefined, 'X2'],
  ['quota_exhausted', 'internal', 'quota_exhausted', 'X1'], // X1: unrecognised ⇒ internal, kept for display
  ['acme:rate_limited', 'internal', 'acme:rate_limited', 'X1'],
  ['Unavailable', 'internal', 'Unavailable', 'X1'], // case matters
  [42, 'internal', '42', 'X1'],
];
for (const [code, eff, original, by] of effective) {
  test(`effectiveCode(${JSON.stringify(code)}) → ${eff} (${by ?? 'recognised'})`, () => {
    assert.deepEqual(effectiveCode(code), { code: eff, original, defaultedBy: by });
  });
}

const retry: Array<[unknown, boolean]> = [
  ['unavailable', true],
  ['shutting_down', true],
  ['incompatible_version', false], // S10-not-retryable
  ['bad_request', false],
  ['unsupported_kind', false],
  ['unsupported_representation', false],
  ['budget_unsatisfiable', false],
  ['internal', false],
  ['acme:try_again', false], // X1: never infer retryable from an unknown code
  [undefined, false], // X2: nor from silence
];
for (const [code, ok] of retry) {
  test(`isRetryable(${JSON.stringify(code)}) = ${ok}`, () => assert.equal(isRetryable(code), ok));
}

test('reactionFor applies X1/X2', () => {
  assert.equal(reactionFor('vendor:thing'), 'report-and-count');
  assert.equal(reactionFor(undefined), 'report-and-count');
  assert.equal(isBaseErrorCode('internal'), true);
  assert.equal(isBaseErrorCode('INTERNAL'), false);
});
