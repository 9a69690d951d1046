import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { BYTES_PER_BUDGET_TOKEN, budgetTokens, SAFETY_FACTOR, utf8ByteLength } from '../../src/protocol/token-cost.js';

const table: Array<[string, number, number]> = [
  ['', 0, 0],
  ['a', 1, 1],
  ['abcd', 4, 1],
  ['abcde', 5, 2],
  ['é', 2, 1], // 2-byte UTF-8
  ['€€', 6, 2], // 3 bytes each
  ['😀', 4, 1], // astral: 2 UTF-16 units, 4 bytes
  ['😀a', 5, 2],
  ['日本語です', 15, 4],
  ['\ud800', 3, 1], // lone surrogate counts as U+FFFD (3 bytes)
  ['x'.repeat(108), 108, 27], // the example of docs/architecture.md "Failure messages": ceil(108/4) = 27
];
for (const [content, bytes, tokens] of table) {
  test(`B3: budgetTokens(${JSON.stringify(content).slice(0, 20)}) = ceil(${bytes}/4) = ${tokens}`, () => {
    assert.equal(utf8ByteLength(content), bytes);
    assert.equal(budgetTokens(content), tokens);
  });
}

test('constants: 4 bytes per budget token, informative safety factor 1.35', () => {
  assert.equal(BYTES_PER_BUDGET_TOKEN, 4);
  assert.equal(SAFETY_FACTOR, 1.35);
});

test('property: budgetTokens = ceil(UTF-8 bytes / 4) for any Unicode string (multibyte included)', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => {
      const bytes = new TextEncoder().encode(s).length;
      return budgetTokens(s) === Math.ceil(bytes / 4);
    }),
    { numRuns: 500 },
  );
});

test('property: budgetTokens is additive within one token per concatenation', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
      const joined = budgetTokens(a + b);
      return joined <= budgetTokens(a) + budgetTokens(b) && joined >= budgetTokens(a) + budgetTokens(b) - 1;
    }),
  );
});

test('property: 4 bytes per token — every byte-length n maps to ceil(n/4)', () => {
  fc.assert(fc.property(fc.nat(400), (n) => budgetTokens('a'.repeat(n)) === Math.ceil(n / 4)));
});
