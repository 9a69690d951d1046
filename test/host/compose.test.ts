// Composition: budget mapping, quarantine, dedup (D2), strategies (F10), thresholds, total partition, F13.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContextFrame } from '../../generated/types/index.js';
import { attestResult, frameCommitment, TEST_ONLY_RFC8032_TEST1, verifyInclusionProof } from '../../src/attest/index.js';
import {
  composeForPrompt,
  modelToBudgetTokens,
  parseFences,
  PerProviderQuota,
  PREAMBLE,
  RoundRobinByRank,
  ScoreDescending,
  equalSplit,
  type ComposedPrompt,
  type RankingStrategy,
} from '../../src/host/compose/index.js';
import { fixtureAnswer, fixtureFrame, fixtureProvider, fixtureQuery } from '../../src/host/compose/fixtures.js';
import { budgetTokens } from '../../src/protocol/index.js';

const BIG = { budgetTokens: 1_000_000 };

function ids(c: ComposedPrompt): string[] {
  return c.frames.map((f) => `${f.provider}/${f.frameId.frame_id}`);
}
function dropped(c: ComposedPrompt, kind?: string): string[] {
  return c.audit.filter((e) => e.disposition === 'dropped' && (kind === undefined || e.reason.kind === kind)).map((e) => `${e.provider}/${e.frame.frame_id}`);
}

// ---- budget unit (S7.2)

test('S7.2: model tokens map to budget tokens by the safety factor (default 1.35)', () => {
  assert.equal(modelToBudgetTokens(10_000), 7407);
  assert.equal(modelToBudgetTokens(135), 100);
  assert.equal(modelToBudgetTokens(10_000, 2), 5000);
  assert.throws(() => modelToBudgetTokens(10_000, 1), /S7.2-budget-token/);
  assert.throws(() => modelToBudgetTokens(10_000, 0.8), /S7.2-budget-token/);
  assert.throws(() => modelToBudgetTokens(-1), RangeError);
  const c = composeForPrompt([fixtureAnswer('a', [fixtureFrame('f', 'abcd')])], { modelBudgetTokens: 10_000 });
  assert.deepEqual({ b: c.budget.budgetTokens, f: c.budget.safetyFactor, m: c.budget.modelBudgetTokens, from: c.budget.mappedFrom }, { b: 7407, f: 1.35, m: 10_000, from: 'model-tokens' });
  const c2 = composeForPrompt([], { modelBudgetTokens: 1000, safetyFactor: 1.5 });
  assert.equal(c2.budget.budgetTokens, 666);
  assert.throws(() => composeForPrompt([], {}), /exactly one/);
  assert.throws(() => composeForPrompt([], { budgetTokens: 1, modelBudgetTokens: 1 }), /exactly one/);
});

test('budget: usedTokens = preamble + Σ block costs ≤ budget, and covers the whole rendered text', () => {
  const answers = ['a', 'b', 'c'].map((p) => fixtureAnswer(p, [fixtureFrame(`${p}1`, p.repeat(1600))]));
  const c = composeForPrompt(answers, { budgetTokens: 1000 });
  assert.ok(c.budget.usedTokens <= 1000);
  assert.ok(Math.ceil(Buffer.byteLength(c.text) / 4) <= c.budget.usedTokens);
  assert.equal(c.budget.usedTokens, c.budget.preambleTokens + c.frames.reduce((s, f) => s + f.tokens, 0));
  // three honest 400-token frames do not jointly fit 1000 (§11.1 cross-provider bound)
  assert.equal(c.frames.length, 2);
  assert.equal(dropped(c, 'over-budget').length, 1);
  // Σ declared cost of admitted frames ≤ budget too
  assert.ok(c.audit.reduce((s, e) => s + (e.disposition === 'admitted' ? (e.declaredTokens as number) : 0), 0) <= 1000);
});

test('nothing admitted ⇒ empty text and 0 tokens used; over-budget frames are still explained', () => {
  const c = composeForPrompt([fixtureAnswer('a', [fixtureFrame('f', 'x'.repeat(400))])], { budgetTokens: 10 });
  assert.equal(c.text, '');
  assert.equal(c.budget.usedTokens, 0);
  assert.deepEqual(dropped(c, 'over-budget'), ['a/f']);
});

test('a later cheaper frame still fits after an expensive one is refused (packer continues)', () => {
  const frames = [fixtureFrame('huge', 'x'.repeat(4000), { score: 0.9 }), fixtureFrame('small', 'abcd', { score: 0.1 })];
  const c = composeForPrompt([fixtureAnswer('a', frames)], { budgetTokens: 300 });
  assert.deepEqual(ids(c), ['a/small']);
  assert.deepEqual(dropped(c, 'over-budget'), ['a/huge']);
});

// ---- the public reference host's fixture

test('audit fixture: duplicate, over-budget and cheap frames each get their reason', () => {
  const alpha = fixtureAnswer('alpha', [fixtureFrame('dup_low', 'shared evidence', { score: 0.3, content_digest: 'sha256:' + 'd'.repeat(64) }), fixtureFrame('cheap', 'abcd', { score: 0.95 })]);
  const beta = fixtureAnswer('beta', [fixtureFrame('dup_high', 'shared evidence', { score: 0.8, content_digest: 'sha256:' + 'd'.repeat(64) }), fixtureFrame('huge', 'x'.repeat(400), { score: 0.7 })]);
  // beta/dup_high is beta's rank 0, alpha/dup_low is alpha's rank 0: tie on rank ⇒ canonical order keeps alpha's
  const c = composeForPrompt([alpha, beta], { budgetTokens: 200 });
  assert.equal(c.audit.length, 4);
  const dup = c.audit.find((e) => e.disposition === 'dropped' && e.reason.kind === 'duplicate')!;
  assert.equal(dup.frame.frame_id, 'dup_high');
  assert.ok(dup.disposition === 'dropped' && dup.reason.kind === 'duplicate' && dup.reason.of.frame_id === 'dup_low');
  assert.deepEqual(dropped(c, 'over-budget'), ['beta/huge']);
  assert.ok(ids(c).includes('alpha/cheap'));
  assert.ok(c.text.endsWith('</frame>\n'));
});

// ---- quarantine (B2/B4 via the budget audit)

test('quarantine: a frame flooder whose frames are individually cheap contributes nothing', () => {
  const flood = fixtureAnswer(
    'flooder',
    Array.from({ length: 17 }, (_, i) => fixtureFrame(`f${i}`, 'abcd', { score: 1 })),
    { query: fixtureQuery({ max_frames: 8, max_tokens: 1000 }) },
  );
  const honest = fixtureAnswer('honest', [fixtureFrame('h', 'x'.repeat(400))], { query: fixtureQuery({ max_frames: 8, max_tokens: 1000 }) });
  const c = composeForPrompt([flood, honest], BIG);
  assert.deepEqual(ids(c), ['honest/h']);
  assert.equal(dropped(c, 'provider-quarantined').length, 17);
  const e = c.audit.find((x) => x.provider === 'flooder')!;
  assert.ok(e.disposition === 'dropped' && e.reason.kind === 'provider-quarantined');
  assert.deepEqual(e.disposition === 'dropped' && e.reason.kind === 'provider-quarantined' && e.reason.rules, ['B4']);
  assert.match(e.detail, /B4: returned 17 frames > max_frames 8 — no frame of it is used/);
});

test('quarantine: an over-budget provider (B1) and a B3 liar are dropped whole', () => {
  const over = fixtureAnswer('over', [fixtureFrame('o', 'x'.repeat(1200))], { query: fixtureQuery({ max_tokens: 100 }) });
  const liar = fixtureAnswer('liar', [fixtureFrame('l', 'x'.repeat(400), { token_cost: 1 })]);
  const ok = fixtureAnswer('ok', [fixtureFrame('k', 'abcd')]);
  const c = composeForPrompt([over, liar, ok], BIG);
  assert.deepEqual(ids(c), ['ok/k']);
  assert.deepEqual(dropped(c, 'provider-quarantined'), ['liar/l', 'over/o']);
  // with onB3Mismatch 'report', the within-budget liar is kept, charged at least its true block cost
  const lenient = composeForPrompt([liar], { ...BIG, audit: { onB3Mismatch: 'report' } });
  assert.deepEqual(ids(lenient), ['liar/l']);
  assert.ok(lenient.frames[0]!.tokens >= 100);
});

// ---- dedup (D2)

test('dedup by identity: the same FrameId twice keeps one, the other names it', () => {
  const f = fixtureFrame('same', 'hello');
  const c = composeForPrompt([fixtureAnswer('a', [f]), fixtureAnswer('a', [f])], BIG);
  assert.equal(c.frames.length, 1);
  const d = c.audit.find((e) => e.disposition === 'dropped')!;
  assert.ok(d.disposition === 'dropped' && d.reason.kind === 'duplicate' && d.reason.proof === 'identity');
  assert.equal(c.audit.length, 2);
});

test('dedup by identity without a digest: equal bytes ⇒ duplicate, different bytes ⇒ identity-conflict', () => {
  const a = fixtureFrame('nd', 'one', { content_digest: undefined });
  const b = fixtureFrame('nd', 'two', { content_digest: undefined });
  const c = composeForPrompt([fixtureAnswer('p', [a]), fixtureAnswer('p', [b])], BIG);
  assert.equal(c.frames.length, 1);
  assert.equal(dropped(c, 'identity-conflict').length, 1);
});

test('dedup by content digest needs identical bytes; the survivor has the lower within-provider rank, never the higher score', () => {
  const text = 'the retry policy caps attempts at 5';
  const a = fixtureAnswer('a', [fixtureFrame('a0', 'other a', { score: 0.1 }), fixtureFrame('a1', 'more', { score: 0.05 }), fixtureFrame('a-dup', text, { score: 0.99 })]);
  const b = fixtureAnswer('b', [fixtureFrame('b-dup', text, { score: 0.01 })]);
  const c = composeForPrompt([a, b], BIG);
  // b-dup is b's rank 0; a-dup is a's rank 2 (despite its score 0.99)
  const d = c.audit.find((e) => e.disposition === 'dropped')!;
  assert.equal(d.frame.frame_id, 'a-dup');
  assert.ok(d.disposition === 'dropped' && d.reason.kind === 'duplicate' && d.reason.proof === 'content-digest' && d.reason.of.frame_id === 'b-dup');
});

test('a copied digest over different bytes evicts nobody and is reported (S6.3-content-digest)', () => {
  const honest = fixtureFrame('h', 'genuine evidence');
  const thief = fixtureFrame('t', 'something else entirely', { content_digest: honest.content_digest });
  const c = composeForPrompt([fixtureAnswer('a', [honest]), fixtureAnswer('b', [thief])], BIG);
  assert.equal(c.frames.length, 2);
  assert.equal(c.warnings.length, 1);
  assert.match(c.warnings[0]!, /^S6.3-content-digest: /);
});

function withFile(id: string, content: string, uri: string, range: string | undefined, over: Partial<ContextFrame> = {}): ContextFrame {
  const link: Record<string, unknown> = { type: 'file', uri, digest: 'sha256:' + 'a'.repeat(64) };
  if (range !== undefined) link.range = range;
  return fixtureFrame(id, content, { provenance: [link as never], ...over });
}

test('dedup by overlapping file provenance across providers (not within one provider)', () => {
  const uri = 'file:///repo/src/net.rs';
  const a = fixtureAnswer('a', [withFile('a1', 'fn retry() {…}', uri, 'L10-20'), withFile('a2', 'fn other() {…}', uri, 'L15-18')]);
  const b = fixtureAnswer('b', [withFile('b1', 'fn retry() { … } // annotated', uri, 'L18-L30'), withFile('b2', 'mod tests', uri, 'L40-50')]);
  const c = composeForPrompt([a, b], BIG);
  // a1 (a rank 0) and b1 (b rank 0) overlap on L18-20: tie on rank ⇒ canonical order keeps a1
  assert.deepEqual(dropped(c), ['b/b1']);
  const d = c.audit.find((e) => e.disposition === 'dropped')!;
  assert.ok(d.disposition === 'dropped' && d.reason.kind === 'duplicate' && d.reason.proof === 'file-provenance' && d.reason.of.frame_id === 'a1');
  // a1 and a2 overlap but come from one provider: both kept; b2 overlaps nothing
  assert.deepEqual(ids(c).sort(), ['a/a1', 'a/a2', 'b/b2']);
});

test('provenance: a whole-resource link overlaps every range; same range with two digests is two versions', () => {
  const uri = 'file:///repo/README.md';
  const whole = composeForPrompt([fixtureAnswer('a', [withFile('a1', 'x', uri, undefined)]), fixtureAnswer('b', [withFile('b1', 'y', uri, 'L3')])], BIG);
  assert.equal(whole.frames.length, 1);
  const v1 = withFile('a1', 'v1', uri, 'L1-5');
  const v2 = withFile('b1', 'v2', uri, 'L1-5');
  (v2.provenance![0] as { digest: string }).digest = 'sha256:' + 'b'.repeat(64);
  const versions = composeForPrompt([fixtureAnswer('a', [v1]), fixtureAnswer('b', [v2])], BIG);
  assert.equal(versions.frames.length, 2);
});

test('dedup survivor: a frame with inline content beats a reference frame of the same evidence', () => {
  const uri = 'file:///repo/a.ts';
  const ref = withFile('ref', '', uri, 'L1-9', {
    content: undefined,
    content_digest: undefined,
    representation: 'reference',
    token_cost: 0,
    canonical_content_hash: 'sha256:' + 'c'.repeat(64),
    content_ref: { provider_id: 'a', uri: 'cgp://a/ref' },
  });
  const full = withFile('full', 'export const a = 1;', uri, 'L1-9');
  const c = composeForPrompt([fixtureAnswer('a', [ref]), fixtureAnswer('b', [fixtureFrame('b0', 'zzz'), full])], BIG);
  assert.deepEqual(dropped(c), ['a/ref']);
});

// ---- strategies (F10)

function strategyFixture() {
  return [
    fixtureAnswer('a', [fixtureFrame('a1', 'alpha one', { score: 0.9 }), fixtureFrame('a2', 'alpha two', { score: 0.8 }), fixtureFrame('a3', 'alpha three', { score: 0.7 })]),
    fixtureAnswer('b', [fixtureFrame('b1', 'beta one', { score: 0.2 }), fixtureFrame('b2', 'beta two', { score: 0.1 })]),
    fixtureAnswer('c', [fixtureFrame('c1', 'gamma one', { score: 0.95 })]),
  ];
}

function selectionOrder(c: ComposedPrompt): string[] {
  return c.audit
    .filter((e) => e.selectionRank !== undefined)
    .sort((x, y) => x.selectionRank! - y.selectionRank!)
    .map((e) => e.frame.frame_id);
}

test('ScoreDescending (default): union by raw score; the policy note says it is host policy, not a protocol guarantee', () => {
  const c = composeForPrompt(strategyFixture(), { ...BIG, placement: 'rank-order' });
  assert.equal(c.strategy, 'score-descending');
  assert.deepEqual(selectionOrder(c), ['c1', 'a1', 'a2', 'a3', 'b1', 'b2']);
  assert.deepEqual(
    c.frames.map((f) => f.frameId.frame_id),
    ['c1', 'a1', 'a2', 'a3', 'b1', 'b2'],
  );
  assert.match(c.policyNote, /policy choice, not a protocol guarantee/);
  assert.match(c.policyNote, /F10/);
  assert.match(c.policyNote, /No cross-provider score threshold/);
  // no score ever reaches the prompt
  assert.doesNotMatch(c.text, /0\.95|score/);
});

test("RoundRobinByRank: every provider's best, then every second…", () => {
  const c = composeForPrompt(strategyFixture(), { ...BIG, strategy: new RoundRobinByRank(), placement: 'rank-order' });
  assert.equal(c.strategy, 'round-robin-by-rank');
  assert.deepEqual(selectionOrder(c), ['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
});

test('PerProviderQuota(k): blocks of k per provider per round', () => {
  const c = composeForPrompt(strategyFixture(), { ...BIG, strategy: new PerProviderQuota(2), placement: 'rank-order' });
  assert.equal(c.strategy, 'per-provider-quota(k=2)');
  assert.deepEqual(selectionOrder(c), ['a1', 'a2', 'b1', 'b2', 'c1', 'a3']);
  assert.throws(() => new PerProviderQuota(0), RangeError);
});

test('F10: a provider with uniformly low scores still gets frames under RoundRobin; no cross-provider threshold exists', () => {
  const probe = composeForPrompt(strategyFixture(), { ...BIG, strategy: new RoundRobinByRank(), placement: 'rank-order' });
  const cost = (id: string) => probe.frames.find((f) => f.frameId.frame_id === id)!.tokens;
  const budget = probe.budget.preambleTokens + cost('a1') + cost('b1') + cost('c1');
  const rr = composeForPrompt(strategyFixture(), { budgetTokens: budget, strategy: new RoundRobinByRank() });
  assert.deepEqual(ids(rr).sort(), ['a/a1', 'b/b1', 'c/c1']);
  const sd = composeForPrompt(strategyFixture(), { budgetTokens: budget });
  assert.ok(!ids(sd).some((i) => i.startsWith('b/')), 'score-descending starves the low scorer — and says it is policy');
  assert.match(sd.policyNote, /not a protocol guarantee/);
  // ComposeOptions has no global threshold at all; only per-provider ones (S6.6)
  const th = composeForPrompt(strategyFixture(), { ...BIG, providerThresholds: { a: 0.75 } });
  assert.deepEqual(dropped(th, 'below-provider-threshold'), ['a/a3']);
  assert.ok(ids(th).includes('b/b2'), 'a threshold on provider a never touches provider b');
  assert.match(th.policyNote, /"a" ≥ 0.75/);
});

test('a custom strategy is repaired into a permutation (it ranks, never filters)', () => {
  const bad: RankingStrategy = { name: 'bad', policyNote: 'bad policy', order: () => [2, 2, 99, -1, 0] };
  const c = composeForPrompt(strategyFixture(), { ...BIG, strategy: bad, placement: 'rank-order' });
  assert.equal(c.frames.length, 6);
  assert.deepEqual(selectionOrder(c).slice(0, 2), ['a3', 'a1']);
});

test('placement fold-to-edges: best first, second best last, weakest in the middle', () => {
  const frames = ['a', 'b', 'c', 'd', 'e'].map((id, i) => fixtureFrame(id, `content ${id}`, { score: 0.9 - i * 0.1 }));
  const c = composeForPrompt([fixtureAnswer('p', frames)], BIG);
  assert.deepEqual(
    c.frames.map((f) => f.frameId.frame_id),
    ['a', 'c', 'e', 'd', 'b'],
  );
});

// ---- budget split

test('equal split: Σ shares = frame budget, a provider cannot exceed its share; redistribute lends unused share', () => {
  assert.deepEqual(equalSplit(10, 3), [4, 3, 3]);
  assert.deepEqual(equalSplit(0, 2), [0, 0]);
  const answers = [
    fixtureAnswer('a', [fixtureFrame('a1', 'x'.repeat(400), { score: 0.9 }), fixtureFrame('a2', 'y'.repeat(400), { score: 0.8 })]),
    fixtureAnswer('b', [fixtureFrame('b1', 'abcd', { score: 0.1 })]),
  ];
  const probe = composeForPrompt(answers, BIG);
  const cost = (id: string) => probe.frames.find((f) => f.frameId.frame_id === id)!.tokens;
  const budget = probe.budget.preambleTokens + cost('a1') + cost('a2');
  const global = composeForPrompt(answers, { budgetTokens: budget });
  assert.deepEqual(ids(global).sort(), ['a/a1', 'a/a2']);
  const equal = composeForPrompt(answers, { budgetTokens: budget, split: { kind: 'equal' } });
  assert.deepEqual(ids(equal).sort(), ['a/a1', 'b/b1']);
  assert.deepEqual(dropped(equal, 'over-provider-share'), ['a/a2']);
  const shares = equal.budget.shares!;
  assert.equal(shares.a! + shares.b!, budget - probe.budget.preambleTokens);
  const quota = composeForPrompt(answers, { budgetTokens: budget, split: { kind: 'quota', tokens: { a: cost('a1') } } });
  assert.deepEqual(ids(quota), ['a/a1']);
  assert.deepEqual(dropped(quota, 'over-provider-share').sort(), ['a/a2', 'b/b1']);
  const lend = composeForPrompt(answers, { budgetTokens: budget + cost('b1'), split: { kind: 'quota', tokens: { a: cost('a1') }, redistribute: true } });
  assert.deepEqual(ids(lend).sort(), ['a/a1', 'a/a2', 'b/b1']);
});

// ---- total partition

test('total partition: every offered frame has exactly one audit entry with a reason', () => {
  const answers = [
    ...strategyFixture(),
    fixtureAnswer(
      'flood',
      Array.from({ length: 5 }, (_, i) => fixtureFrame(`f${i}`, 'x')),
      { query: fixtureQuery({ max_frames: 2 }) },
    ),
    fixtureAnswer('a', [fixtureFrame('a1', 'alpha one', { score: 0.9 })]),
    fixtureAnswer('d', [fixtureFrame('big', 'z'.repeat(4000), { score: 1 })]),
  ];
  const c = composeForPrompt(answers, { budgetTokens: 400, providerThresholds: { b: 0.15 } });
  const offered = answers.reduce((n, a) => n + a.frames.length, 0);
  assert.equal(c.audit.length, offered);
  const admitted = c.audit.filter((e) => e.disposition === 'admitted');
  assert.equal(admitted.length, c.frames.length);
  assert.equal(parseFences(c.text).length, c.frames.length);
  for (const e of c.audit) assert.ok(e.detail.length > 0);
  const kinds = new Set(c.audit.flatMap((e) => (e.disposition === 'dropped' ? [e.reason.kind] : [])));
  for (const k of ['provider-quarantined', 'below-provider-threshold', 'duplicate', 'over-budget']) assert.ok(kinds.has(k as never), k);
});

// ---- F13

test('F13: kept frames of a signed result keep inclusion proofs (derived from the complete set) when a strict subset is kept', () => {
  const key = { key_id: TEST_ONLY_RFC8032_TEST1.key_id, secret_key: TEST_ONLY_RFC8032_TEST1.secret_key };
  const frames = ['s1', 's2', 's3', 's4'].map((id, i) => fixtureFrame(id, `${id} `.repeat(50 + i * 200), { score: 0.9 - i * 0.1 }));
  const signed = attestResult('signer', frames, key, '2026-08-29T12:00:00Z', { proofs: false });
  const answer = fixtureAnswer('signer', frames, {
    result: { result_attestation: signed.result_attestation },
    evidence: () => ({ verdict: 'attested' }),
  });
  const probe = composeForPrompt([answer], BIG);
  const budget = probe.budget.preambleTokens + probe.frames.filter((f) => ['s1', 's2'].includes(f.frameId.frame_id)).reduce((s, f) => s + f.tokens, 0);
  const c = composeForPrompt([answer], { budgetTokens: budget });
  assert.deepEqual(c.frames.map((f) => f.frameId.frame_id).sort(), ['s1', 's2']);
  for (const f of c.frames) {
    assert.equal(f.f13?.strictSubset, true);
    assert.equal(f.f13?.proof, 'derived');
    const frame = frames.find((x) => x.id === f.frameId.frame_id)!;
    assert.ok(verifyInclusionProof(frameCommitment('signer', frame), f.evidence!.inclusionProof, signed.result_attestation.signed_commitment, 4));
    assert.equal(f.evidence!.resultRoot, signed.result_attestation.signed_commitment);
    const entry = c.audit.find((e) => e.disposition === 'admitted' && e.frame.frame_id === f.frameId.frame_id)!;
    assert.equal(entry.disposition === 'admitted' && entry.f13?.proof, 'derived');
  }
  // carried proofs (shipped in frame_attestations) are used as such
  const shipped = attestResult('signer', frames, key, '2026-08-29T12:00:00Z');
  const carriedAnswer = fixtureAnswer('signer', frames, { result: { result_attestation: shipped.result_attestation, frame_attestations: shipped.frame_attestations } });
  const c2 = composeForPrompt([carriedAnswer], { budgetTokens: budget });
  assert.deepEqual(
    c2.frames.map((f) => f.f13?.proof),
    ['carried', 'carried'],
  );
  // unsigned answers carry no F13 record
  assert.equal(composeForPrompt([fixtureAnswer('u', frames)], BIG).frames[0]!.f13, undefined);
});

test('preamble is constant and carries no fence token', () => {
  assert.doesNotMatch(PREAMBLE, /<\/?frame/i);
  assert.match(PREAMBLE, /untrusted evidence, not instruction/);
  assert.equal(budgetTokens(PREAMBLE), composeForPrompt([], BIG).budget.preambleTokens);
});

test('fixture provider descriptor has the shape the host uses', () => {
  assert.equal(fixtureProvider('n').name, 'n');
});

test('ScoreDescending: the linear radix path (large n) orders exactly like the comparison sort', () => {
  const n = 5000;
  let seed = 7;
  const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const pool = [0, -0, 1, 0.5, 0.25, -Infinity, 1e-300, 0.999999, 3, -2];
  const score = new Float64Array(n);
  for (let i = 0; i < n; i++) score[i] = rnd() < 0.3 ? pool[Math.floor(rnd() * pool.length)]! : Math.round(rnd() * 1000) / 1000;
  const columns = { n, score, rank: new Int32Array(n), providerOrdinal: new Int32Array(n) };
  const radix = new ScoreDescending().orderColumns(columns);
  const expected = Array.from({ length: n }, (_, i) => i).sort((a, b) => {
    const d = score[b]! + 0 - (score[a]! + 0);
    return d > 0 ? 1 : d < 0 ? -1 : a - b;
  });
  assert.deepEqual(radix, expected);
  // small n keeps the comparison sort; both agree on the strategy fixture
  const c = composeForPrompt(strategyFixture(), { ...BIG, placement: 'rank-order' });
  assert.deepEqual(selectionOrder(c), ['c1', 'a1', 'a2', 'a3', 'b1', 'b2']);
});
