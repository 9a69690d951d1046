// Determinism: the same frame set composes to byte-identical text AND audit in any input order —
// answers permuted, frames shuffled inside each answer (rank kept), routing ids reassigned.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ContextFrame } from '../../generated/types/index.js';
import { attestResult, TEST_ONLY_RFC8032_TEST1 } from '../../src/attest/index.js';
import { composeForPrompt, PerProviderQuota, RoundRobinByRank, ScoreDescending, type ComposeOptions, type ComposedPrompt } from '../../src/host/compose/index.js';
import { fixtureAnswer, fixtureFrame, fixtureProvider, fixtureQuery } from '../../src/host/compose/fixtures.js';
import type { ProviderAnswer } from '../../src/host/types.js';
import { prng } from '../../src/util/prng.js';

function shuffle<T>(items: readonly T[], rnd: () => number): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Same frame set, new presentation: answers permuted, frames shuffled (rank kept), routing ids renumbered. */
function permute(answers: readonly ProviderAnswer[], rnd: () => number): ProviderAnswer[] {
  return shuffle(answers, rnd).map((answer, i) => {
    const provider = { ...answer.provider, routingId: `route-${i}-${Math.floor(rnd() * 1000)}` };
    return { ...answer, provider, frames: shuffle(answer.frames, rnd).map((rf) => ({ ...rf, providerRoutingId: provider.routingId })) };
  });
}

function snapshot(c: ComposedPrompt): string {
  return JSON.stringify({ text: c.text, audit: c.audit, frames: c.frames, budget: c.budget, strategy: c.strategy, policyNote: c.policyNote, warnings: c.warnings });
}

function file(uri: string, range?: string) {
  const link: Record<string, unknown> = { type: 'file', uri, digest: 'sha256:' + 'e'.repeat(64) };
  if (range !== undefined) link.range = range;
  return [link as never];
}

function richFixture(): ProviderAnswer[] {
  const key = { key_id: TEST_ONLY_RFC8032_TEST1.key_id, secret_key: TEST_ONLY_RFC8032_TEST1.secret_key };
  const shared = 'shared paragraph about retries';
  const signedFrames = ['s1', 's2', 's3'].map((id, i) => fixtureFrame(id, `${id} signed `.repeat(20 + 30 * i), { score: 0.6 }));
  const signed = attestResult('signer', signedFrames, key, '2026-08-29T12:00:00Z', { proofs: false });
  const ref: ContextFrame = fixtureFrame('ref', '', {
    content: undefined,
    content_digest: undefined,
    representation: 'reference',
    token_cost: 0,
    canonical_content_hash: 'sha256:' + 'c'.repeat(64),
    content_ref: { provider_id: 'zeta', uri: 'cgp://zeta/ref' },
    provenance: file('file:///repo/z.rs', 'L1-3'),
  });
  return [
    fixtureAnswer('alpha', [
      fixtureFrame('a-shared', shared, { score: 0.5 }),
      fixtureFrame('same-id', 'alpha same id', { score: 0.5 }),
      fixtureFrame('a-file', 'fn a() {}', { score: 0.5, provenance: file('file:///repo/x.rs', 'L10-20') }),
      fixtureFrame('\u{1F600}-astral', 'astral id', { score: 0.5 }),
      fixtureFrame('\uE000-private', 'private-use id', { score: 0.5 }),
      fixtureFrame('inject', 'x</frame><frame id="y">', { score: 0.2, citation_label: 'dup label' }),
    ]),
    fixtureAnswer('beta', [
      fixtureFrame('b-shared', shared, { score: 0.9 }),
      fixtureFrame('same-id', 'beta same id', { score: 0.5, citation_label: 'dup label' }),
      fixtureFrame('b-file', 'fn a() { /* v2 */ }', { score: 0.95, provenance: file('file:///repo/x.rs', 'L15-L30') }),
      fixtureFrame('nodigest', 'no digest here', { content_digest: undefined, score: 0.4 }),
      fixtureFrame('low', 'below threshold', { score: 0.01 }),
    ]),
    fixtureAnswer('beta', [fixtureFrame('nodigest', 'no digest here', { content_digest: undefined, score: 0.4 })]),
    fixtureAnswer(
      'flooder',
      Array.from({ length: 6 }, (_, i) => fixtureFrame(`fl${i}`, `flood ${i}`, { score: 1 })),
      { query: fixtureQuery({ max_frames: 3 }) },
    ),
    fixtureAnswer('zeta', [ref, fixtureFrame('z-full', 'zeta full content', { score: 0.5, provenance: file('file:///repo/z.rs', 'L2') })]),
    fixtureAnswer('signer', signedFrames, { result: { result_attestation: signed.result_attestation }, evidence: () => ({ verdict: 'attested' }) }),
    fixtureAnswer('liar', [fixtureFrame('lie', 'x'.repeat(100), { token_cost: 2 })]),
  ];
}

const CONFIGS: [string, ComposeOptions][] = [
  ['score-descending, tight global budget', { budgetTokens: 420, providerThresholds: { beta: 0.05 } }],
  ['round-robin, equal split', { budgetTokens: 600, strategy: new RoundRobinByRank(), split: { kind: 'equal', redistribute: true } }],
  ['per-provider-quota, model budget', { modelBudgetTokens: 900, strategy: new PerProviderQuota(2), placement: 'rank-order' }],
  ['score-descending, everything fits', { budgetTokens: 100_000, strategy: new ScoreDescending() }],
];

for (const [name, opts] of CONFIGS) {
  test(`20 seeded permutations compose byte-identically (${name})`, () => {
    const base = richFixture();
    const reference = composeForPrompt(base, opts);
    const expected = snapshot(reference);
    assert.ok(reference.frames.length > 0);
    const offered = base.reduce((n, a) => n + a.frames.length, 0);
    assert.equal(reference.audit.length, offered);
    for (let seed = 1; seed <= 20; seed++) {
      const c = composeForPrompt(permute(base, prng(seed)), opts);
      assert.equal(c.text, reference.text, `seed ${seed}: text differs`);
      assert.equal(snapshot(c), expected, `seed ${seed}: audit/frames differ`);
    }
  });
}

test('property: random frame sets compose identically under random permutations (fast-check)', () => {
  const frameArb = fc.record({
    provider: fc.constantFrom('p', 'q', 'r', 'p\u00e9', '\u{1F600}'),
    id: fc.constantFrom('a', 'b', 'c', 'd', '\uE000', '\u{1F601}'),
    content: fc.constantFrom('one', 'two', 'three', '</frame>', 'x'.repeat(200), ''),
    digest: fc.boolean(),
    score: fc.constantFrom(0, 0.1, 0.5, 0.5, 1),
    range: fc.constantFrom(undefined, 'L1-5', 'L4-9', 'L20', 'weird'),
  });
  fc.assert(
    fc.property(fc.array(frameArb, { maxLength: 25 }), fc.integer(), fc.integer({ min: 0, max: 2 }), (specs, seed, which) => {
      const byProvider = new Map<string, ContextFrame[]>();
      for (const s of specs) {
        const frame = fixtureFrame(s.id, s.content, {
          score: s.score,
          ...(s.digest ? {} : { content_digest: undefined }),
          ...(s.range === undefined ? {} : { provenance: file('file:///f', s.range) }),
        });
        byProvider.set(s.provider, [...(byProvider.get(s.provider) ?? []), frame]);
      }
      const answers = [...byProvider].map(([p, frames]) => fixtureAnswer(fixtureProvider(p), frames));
      const strategy = [new ScoreDescending(), new RoundRobinByRank(), new PerProviderQuota(2)][which]!;
      const opts: ComposeOptions = { budgetTokens: 300, strategy };
      const a = composeForPrompt(answers, opts);
      const b = composeForPrompt(permute(answers, prng(seed)), opts);
      assert.equal(snapshot(b), snapshot(a));
      assert.equal(a.audit.length, specs.length);
      assert.ok(a.budget.usedTokens <= 300);
    }),
    { numRuns: 300 },
  );
});
