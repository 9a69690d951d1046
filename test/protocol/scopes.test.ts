import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyName, isNamespacedName } from '../../src/protocol/namespaced-name.js';
import { BASE_EGRESS_SCOPES, isBaseScope, isOffMachine, isValidScope, offMachineScopes, scopesConsistent } from '../../src/protocol/scopes.js';

test('the four base egress scopes', () => {
  assert.deepEqual([...BASE_EGRESS_SCOPES], ['local-only', 'org-tenant', 'third-party-index', 'third-party-model']);
  for (const s of BASE_EGRESS_SCOPES) assert.ok(isBaseScope(s) && isValidScope(s));
  assert.equal(isBaseScope('acme:x'), false);
});

const validity: Array<[unknown, boolean]> = [
  ['local-only', true],
  ['acme:vector-store', true],
  ['acme:a:b', true], // split at the first colon: name "a:b"
  ['a::b', true], // name ":b" is non-empty
  [':name', false], // U3: empty vendor
  ['acme:', false], // U3: empty name
  [':', false],
  ['', false],
  ['cloud', false], // unprefixed names belong to the protocol
  ['Local-Only', false],
  [7, false],
  [null, false],
];
for (const [scope, ok] of validity) {
  test(`U3: isValidScope(${JSON.stringify(scope)}) = ${ok}`, () => assert.equal(isValidScope(scope), ok));
}

test('isOffMachine: everything but local-only, unknown custom scopes included', () => {
  assert.equal(isOffMachine('local-only'), false);
  for (const s of ['org-tenant', 'third-party-index', 'third-party-model', 'acme:on-prem', 'whatever', '']) {
    assert.equal(isOffMachine(s), true, s);
  }
});

const c5: Array<[string, unknown, boolean]> = [
  ['egress false, no scopes', { reads: true, writes: false, egress: false }, true],
  ['egress false, local-only', { egress: false, egress_scopes: ['local-only'] }, true],
  ['egress false, third-party-model', { egress: false, egress_scopes: ['third-party-model'] }, false],
  ['egress false, unknown custom scope', { egress: false, egress_scopes: ['local-only', 'acme:lan'] }, false],
  ['egress true, off-machine scopes', { egress: true, egress_scopes: ['org-tenant', 'acme:x'] }, true],
  ['egress absent counts as false', { egress_scopes: ['org-tenant'] }, false],
  ['egress "true" (a string) is not true', { egress: 'true', egress_scopes: ['org-tenant'] }, false],
  ['egress_scopes not an array: nothing declared', { egress: false, egress_scopes: 'org-tenant' }, true],
  ['not an object', null, true],
];
for (const [why, dataFlow, ok] of c5) {
  test(`C5: scopesConsistent — ${why} → ${ok}`, () => assert.equal(scopesConsistent(dataFlow), ok));
}

test('offMachineScopes lists the declared off-machine scopes', () => {
  assert.deepEqual(offMachineScopes({ egress: false, egress_scopes: ['local-only', 'org-tenant', 'acme:x'] }), ['org-tenant', 'acme:x']);
});

test('classifyName grades U3 spellings', () => {
  const base = ['bad_request'];
  assert.equal(classifyName('bad_request', base), 'base');
  assert.equal(classifyName('acme:quota', base), 'namespaced');
  assert.equal(classifyName('acme:', base), 'malformed-namespace');
  assert.equal(classifyName(':quota', base), 'malformed-namespace');
  assert.equal(classifyName('quota_exhausted', base), 'unprefixed-unknown');
  assert.equal(classifyName('', base), 'empty');
  assert.equal(classifyName(3, base), 'not-a-string');
  assert.equal(isNamespacedName('a:b'), true);
  assert.equal(isNamespacedName('ab'), false);
});
