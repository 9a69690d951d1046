// Usage report (UR1): budget_consumed = Σ served frames' token_cost, every billed frame named by FrameId.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { composeForPrompt } from '../../src/host/compose/index.js';
import { fixtureAnswer, fixtureFrame, fixtureQuery } from '../../src/host/compose/fixtures.js';
import { buildUsageReport, checkUsageReport, type UsageReport } from '../../src/host/usage.js';
import { budgetTokens } from '../../src/protocol/index.js';

const AS_OF = '2026-09-01T10:00:00Z';
const x = (n: number, c = 'x') => c.repeat(n);

function fixture() {
  return [
    fixtureAnswer('a', [fixtureFrame('a1', x(400)), fixtureFrame('a2', x(400, 'y'))], { query: fixtureQuery({ max_tokens: 1000 }) }),
    fixtureAnswer('liar', [fixtureFrame('l1', x(4800))], { query: fixtureQuery({ max_tokens: 1000 }) }),
    fixtureAnswer('b', [fixtureFrame('b1', 'abcd')], { query: fixtureQuery({ max_tokens: 1000 }) }),
  ];
}

test('UR1: served = frames of admitted providers; rejected provider billed 0; consumed = Σ served token_cost', () => {
  const report = buildUsageReport(fixture(), undefined, { asOf: AS_OF });
  assert.equal(report.budget_requested, 1000);
  assert.equal(report.as_of, AS_OF);
  assert.deepEqual(
    report.providers.map((p) => [p.provider_id, p.frames_served, p.frames_rejected, p.token_cost]),
    [
      ['a', 2, 0, 200],
      ['b', 1, 0, 1],
      ['liar', 0, 1, 0],
    ],
  );
  assert.equal(report.budget_consumed, 201);
  assert.equal(
    report.budget_consumed,
    report.providers.flatMap((p) => p.served_frames).reduce((s, f) => s + f.token_cost, 0),
  );
  // keyed by FrameId triples
  const a1 = report.providers[0]!.served_frames[0]!;
  assert.deepEqual(Object.keys(a1.frame).sort(), ['content_digest', 'frame_id', 'provider_id']);
  assert.equal(a1.frame.provider_id, 'a');
  assert.equal(a1.token_cost, budgetTokens(x(400)));
  assert.deepEqual(checkUsageReport(report), []);
});

test('UR1: the report is deterministic (providers and frames sorted) and independent of answer order', () => {
  const one = buildUsageReport(fixture(), undefined, { asOf: AS_OF });
  const two = buildUsageReport(fixture().reverse(), undefined, { asOf: AS_OF });
  assert.deepEqual(two, one);
});

test('budget_requested comes from the composed prompt when given, or the explicit option', () => {
  const answers = fixture();
  const composed = composeForPrompt(answers, { modelBudgetTokens: 10_000 });
  assert.equal(buildUsageReport(answers, composed, { asOf: AS_OF }).budget_requested, 7407);
  assert.equal(buildUsageReport(answers, composed, { asOf: AS_OF, budgetRequested: 5 }).budget_requested, 5);
  assert.throws(() => buildUsageReport(answers, composed, { asOf: '2026-09-01 10:00:00' }), /F4/);
  assert.match(buildUsageReport(answers).as_of, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
});

test('a B3 liar kept by host policy is billed its byte-exact cost, the declared value kept beside it', () => {
  const liar = fixtureAnswer('l', [fixtureFrame('f', x(40), { token_cost: 1 })]);
  const report = buildUsageReport([liar], undefined, { asOf: AS_OF, audit: { onB3Mismatch: 'report' } });
  assert.deepEqual(report.providers[0]!.served_frames[0]!.token_cost, 10);
  assert.equal(report.providers[0]!.served_frames[0]!.declared_token_cost, 1);
  const strict = buildUsageReport([liar], undefined, { asOf: AS_OF });
  assert.deepEqual([strict.providers[0]!.frames_served, strict.providers[0]!.frames_rejected], [0, 1]);
});

test('checkUsageReport catches every UR1 inconsistency', () => {
  const good = buildUsageReport(fixture(), undefined, { asOf: AS_OF });
  const clone = (): UsageReport => JSON.parse(JSON.stringify(good)) as UsageReport;

  const consumed = clone();
  consumed.budget_consumed += 1;
  assert.deepEqual(
    checkUsageReport(consumed).map((f) => [f.id, f.pointer]),
    [['UR1', '/budget_consumed']],
  );

  const providerSum = clone();
  providerSum.providers[0]!.token_cost = 1;
  assert.ok(checkUsageReport(providerSum).some((f) => f.pointer === '/providers/0/token_cost'));

  const count = clone();
  count.providers[0]!.frames_served = 5;
  assert.ok(checkUsageReport(count).some((f) => f.pointer === '/providers/0/frames_served'));

  const noId = clone();
  (noId.providers[0]!.served_frames[0] as unknown as { frame: unknown }).frame = 'a1';
  assert.ok(checkUsageReport(noId).some((f) => f.pointer === '/providers/0/served_frames/0/frame' && /FrameId/.test(f.message)));

  const badDigest = clone();
  badDigest.providers[0]!.served_frames[0]!.frame.content_digest = 'sha256:XYZ';
  assert.ok(checkUsageReport(badDigest).some((f) => /malformed content_digest/.test(f.message)));

  const misfiled = clone();
  misfiled.providers[0]!.served_frames[0]!.frame.provider_id = 'b';
  assert.ok(checkUsageReport(misfiled).some((f) => /billed under provider "a"/.test(f.message)));

  const twice = clone();
  twice.providers[0]!.served_frames[1] = twice.providers[0]!.served_frames[0]!;
  twice.providers[0]!.token_cost = 200;
  assert.ok(checkUsageReport(twice).some((f) => f.severity === 'warning' && /more than once/.test(f.message)));

  for (const f of checkUsageReport(consumed)) assert.match(f.message, /^UR1 violated: /);
});
