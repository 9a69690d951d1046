import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isWellFormedDigest, sha256Digest } from '../../src/protocol/digest.js';

const cases: Array<[unknown, boolean]> = [
  [`sha256:${'a'.repeat(64)}`, true],
  [`sha256:${'0123456789abcdef'.repeat(4)}`, true],
  [`sha256:${'A'.repeat(64)}`, false], // uppercase hex is not the same digest
  [`SHA256:${'a'.repeat(64)}`, false],
  [`sha256:${'a'.repeat(63)}`, false],
  [`sha256:${'a'.repeat(65)}`, false],
  [`sha256:${'g'.repeat(64)}`, false],
  ['sha256:9f2c3e7a1b', false],
  [`sha512:${'a'.repeat(64)}`, false],
  [`sha256: ${'a'.repeat(63)}`, false],
  [`sha256:${'a'.repeat(64)}\n`, false],
  ['a'.repeat(64), false],
  [null, false],
  [42, false],
];
for (const [value, ok] of cases) {
  test(`D1/F5: isWellFormedDigest(${JSON.stringify(value)?.slice(0, 30)}…) = ${ok}`, () => assert.equal(isWellFormedDigest(value), ok));
}

test('sha256Digest: known answers (FIPS 180-2), strings as UTF-8, bytes as bytes', () => {
  assert.equal(sha256Digest(''), 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  assert.equal(sha256Digest('abc'), 'sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal(sha256Digest(new Uint8Array([0x61, 0x62, 0x63])), sha256Digest('abc'));
  assert.equal(sha256Digest('é'), sha256Digest(new Uint8Array([0xc3, 0xa9])));
  assert.ok(isWellFormedDigest(sha256Digest('anything')));
});
