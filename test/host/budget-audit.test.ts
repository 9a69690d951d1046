// Budget audit (B1, B3, B4 → B2): a violator is dropped whole, loudly, never truncated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { auditAnswer, trueTokenCost } from '../../src/host/budget-audit.js';
import { fixtureFrame, fixtureProvider, fixtureQuery } from '../../src/host/compose/fixtures.js';

const provider = fixtureProvider('x', 'p1');
const x = (n: number) => 'x'.repeat(n);

test('an honest answer is admitted with no findings', () => {
  const frames = [fixtureFrame('a', x(400)), fixtureFrame('b', x(40))];
  const audit = auditAnswer(provider, fixtureQuery({ max_tokens: 110, max_frames: 2 }), { frames, truncated: false });
  assert.equal(audit.admitted, true);
  assert.deepEqual(audit.findings, []);
  assert.match(audit.report, /admitted/);
  assert.equal(audit.declaredTokens, 110);
  assert.equal(audit.trueTokens, 110);
});

test('B1: over max_tokens is dropped whole with a loud report naming provider, declared and allowed', () => {
  const frames = [fixtureFrame('a', x(18000)), fixtureFrame('b', x(18000))];
  const audit = auditAnswer(provider, fixtureQuery({ max_tokens: 2000 }), { frames, truncated: false });
  assert.equal(audit.admitted, false);
  assert.equal(audit.report, 'B2: dropped provider "x" (routing p1): declared 9000 tokens > max_tokens 2000 — no frame of it is used');
  assert.deepEqual(
    audit.findings.map((f) => [f.id, f.severity]),
    [['B1', 'error']],
  );
  assert.match(audit.findings[0]!.message, /^B1 violated: provider "x" \(routing p1\) declares 9000 tokens > max_tokens 2000/);
});

test('B4: over max_frames is dropped whole even when every frame is cheap', () => {
  const frames = Array.from({ length: 17 }, (_, i) => fixtureFrame(`f${i}`, 'abcd'));
  const audit = auditAnswer(provider, fixtureQuery({ max_frames: 8, max_tokens: 1000 }), { frames, truncated: false });
  assert.equal(audit.admitted, false);
  assert.match(audit.report, /^B4: dropped provider "x" \(routing p1\): returned 17 frames > max_frames 8 — no frame of it is used$/);
  assert.deepEqual(
    audit.findings.map((f) => f.id),
    ['B4'],
  );
});

test('B3 liar whose true total exceeds the budget: dropped, every lie reported with its numbers', () => {
  const frames = [fixtureFrame('big', x(108), { token_cost: 1 }), fixtureFrame('ok', 'abcd')];
  const audit = auditAnswer(provider, fixtureQuery({ max_tokens: 20 }), { frames, truncated: false });
  assert.equal(audit.admitted, false);
  assert.equal(audit.findings.length, 1);
  assert.equal(audit.findings[0]!.id, 'B3');
  assert.equal(audit.findings[0]!.pointer, '/frames/0/token_cost');
  assert.match(audit.findings[0]!.message, /frame "big" declares token_cost 1, content is 108 bytes → ceil\(108\/4\) = 27/);
  assert.match(audit.report, /^B3: dropped provider "x" \(routing p1\): 1 frame\(s\) misdeclare token_cost .*true total 28 tokens > max_tokens 20 — no frame of it is used$/);
  assert.deepEqual(audit.reasons, [{ rule: 'B3', misdeclared: 1, trueTokens: 28, maxTokens: 20, overBudgetInTruth: true }]);
});

test('B3 liar within budget: dropped by default, kept loudly under onB3Mismatch "report"', () => {
  const frames = [fixtureFrame('a', x(40), { token_cost: 3 })];
  const q = fixtureQuery({ max_tokens: 100 });
  const strict = auditAnswer(provider, q, { frames, truncated: false });
  assert.equal(strict.admitted, false);
  assert.match(strict.report, /B3: dropped .*true total 10 tokens ≤ max_tokens 100/);
  const lenient = auditAnswer(provider, q, { frames, truncated: false }, { onB3Mismatch: 'report' });
  assert.equal(lenient.admitted, true);
  assert.equal(lenient.findings[0]!.severity, 'error');
  assert.match(lenient.report, /LOUD WARNING .*kept by host policy/);
});

test('B3: a missing content counts as "" (reference frame costs 0), a non-numeric cost is a lie', () => {
  assert.equal(trueTokenCost({}), 0);
  const ref = fixtureFrame('r', '', { content: undefined, content_digest: undefined, representation: 'reference', token_cost: 0 });
  assert.equal(auditAnswer(provider, fixtureQuery(), { frames: [ref], truncated: false }).admitted, true);
  const weird = fixtureFrame('w', 'abcd', { token_cost: '1' as unknown as number });
  const audit = auditAnswer(provider, fixtureQuery(), { frames: [weird], truncated: false });
  assert.equal(audit.admitted, false);
  assert.ok(audit.findings.some((f) => f.id === 'B1'));
  assert.ok(audit.findings.some((f) => f.id === 'B3'));
});

test('a provider violating B1 and B4 at once reports both', () => {
  const frames = Array.from({ length: 4 }, (_, i) => fixtureFrame(`f${i}`, x(400)));
  const audit = auditAnswer(provider, fixtureQuery({ max_tokens: 100, max_frames: 2 }), { frames, truncated: false });
  assert.deepEqual(
    audit.findings.map((f) => f.id),
    ['B1', 'B4'],
  );
  assert.deepEqual(
    audit.reasons!.map((r) => r.rule),
    ['B1', 'B4'],
  );
});

test('multi-byte content is counted in UTF-8 bytes (B3)', () => {
  const frames = [fixtureFrame('cjk', '文脈図'), fixtureFrame('emoji', '😀')];
  assert.deepEqual(
    frames.map((f) => f.token_cost),
    [3, 1],
  );
  assert.equal(auditAnswer(provider, fixtureQuery(), { frames, truncated: false }).admitted, true);
});
