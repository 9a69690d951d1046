import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fingerprintDimensions, fingerprintsMatch, isFingerprint } from '../../src/protocol/fingerprint.js';

const grammar: Array<[unknown, boolean, number | undefined]> = [
  ['bge-small-en-v1.5/384/l2', true, 384],
  ['bge-small-en-v1.5/384', true, 384],
  ['text-embedding-3-small/1536/none', true, 1536],
  ['bge-small-en-v1.5', false, undefined], // no dimensions
  ['bge/384/l2/extra', false, undefined],
  ['bge/abc/l2', false, undefined],
  ['bge/-384', false, undefined],
  ['/384/l2', false, undefined], // empty model id
  ['bge/384/', false, undefined], // empty normalization
  ['bge//l2', false, undefined],
  ['bge/３８４', false, undefined], // fullwidth digits are not DIGIT
  ['', false, undefined],
  [null, false, undefined],
  [384, false, undefined],
];
for (const [fp, ok, dims] of grammar) {
  test(`E1 grammar: ${JSON.stringify(fp)} → ${ok}, dimensions ${dims}`, () => {
    assert.equal(isFingerprint(fp), ok);
    assert.equal(fingerprintDimensions(fp), dims);
  });
}

test('E1: fingerprints match only on exact, non-empty equality', () => {
  assert.equal(fingerprintsMatch('bge-small-en-v1.5/384/l2', 'bge-small-en-v1.5/384/l2'), true);
  assert.equal(fingerprintsMatch('bge-small-en-v1.5/384', 'bge-small-en-v1.5/384/l2'), false); // normalization differs
  assert.equal(fingerprintsMatch('bge-small-en-v1.5/384/l2', 'bge-small-en-v1.5/768/l2'), false);
  assert.equal(fingerprintsMatch('BGE-small-en-v1.5/384/l2', 'bge-small-en-v1.5/384/l2'), false);
  assert.equal(fingerprintsMatch('', ''), false);
  assert.equal(fingerprintsMatch(null, null), false);
  assert.equal(fingerprintsMatch(undefined, undefined), false);
});
