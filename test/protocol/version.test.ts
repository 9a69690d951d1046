import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isVersionString, majorFamily, minorVersion, PROTOCOL_FAMILY, PROTOCOL_VERSION, versionsCompatible } from '../../src/protocol/version.js';

test('PROTOCOL_VERSION is contextgraph/1.0 in family contextgraph/1', () => {
  assert.equal(PROTOCOL_VERSION, 'contextgraph/1.0');
  assert.equal(PROTOCOL_FAMILY, 'contextgraph/1');
});

const grammar: Array<[unknown, boolean]> = [
  ['contextgraph/1.0', true],
  ['contextgraph/1.0-draft', true],
  ['contextgraph/12.345', true],
  ['contextgraph/2.0', true],
  ['contextgraph/1', false], // no minor
  ['contextgraph/1.', false],
  ['contextgraph/.1', false],
  ['contextgraph/1.0-beta', false],
  ['contextgraph/1.0-draft\n', false], // `$` must not match before a trailing newline
  ['Contextgraph/1.0', false],
  ['contextgraph/1.0.1', false],
  ['contextgraph/١.0', false], // Arabic-Indic digit is not DIGIT
  [' contextgraph/1.0', false],
  ['', false],
  [1, false],
  [null, false],
  [undefined, false],
];
for (const [value, ok] of grammar) {
  test(`isVersionString(${JSON.stringify(value)}) = ${ok}`, () => assert.equal(isVersionString(value), ok));
}

test('majorFamily is the substring before the first dot, or the whole string', () => {
  assert.equal(majorFamily('contextgraph/1.0'), 'contextgraph/1');
  assert.equal(majorFamily('contextgraph/1.5-draft'), 'contextgraph/1');
  assert.equal(majorFamily('contextgraph/10.0'), 'contextgraph/10');
  assert.equal(majorFamily('contextgraph/1'), 'contextgraph/1');
});

test('minorVersion', () => {
  assert.equal(minorVersion('contextgraph/1.7-draft'), 7);
  assert.equal(minorVersion('contextgraph/1'), undefined);
  assert.equal(minorVersion(3), undefined);
});

const compat: Array<[unknown, unknown, boolean]> = [
  ['contextgraph/1.0', 'contextgraph/1.1', true], // H1: same family interoperates
  ['contextgraph/1.0', 'contextgraph/1.0-draft', true],
  ['contextgraph/1.0', 'contextgraph/2.0', false], // H3: foreign family
  ['contextgraph/1.0', 'contextgraph/10.0', false], // family compared whole, not by prefix
  ['contextgraph/1.0', 'contextgraph/1', false], // outside the grammar: no family
  ['contextgraph/1', 'contextgraph/1', false],
  ['contextgraph/1.0', undefined, false],
];
for (const [a, b, ok] of compat) {
  test(`versionsCompatible(${String(a)}, ${String(b)}) = ${ok}, symmetric`, () => {
    assert.equal(versionsCompatible(a, b), ok);
    assert.equal(versionsCompatible(b, a), ok);
  });
}
