// Attribution (A1–A3): selected / rendered / cited are independent observations keyed by FrameId;
// cited is observed in the model output, never inferred; reconciliation failures are detected.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildAttribution, checkAttribution, type AttributionRecord } from '../../src/host/attribution.js';
import { composeForPrompt } from '../../src/host/compose/index.js';
import { fixtureAnswer, fixtureFrame, fixtureQuery } from '../../src/host/compose/fixtures.js';
import { buildUsageReport } from '../../src/host/usage.js';
import { frameIdKey } from '../../src/protocol/index.js';

const AS_OF = '2026-09-01T10:00:00Z';

function scenario() {
  const answers = [
    fixtureAnswer('repo', [
      fixtureFrame('retry', 'Retry policy: max 5 attempts.', { citation_label: 'net.rs L120-160', score: 0.9 }),
      fixtureFrame('short', 'net module', { citation_label: 'net.rs', score: 0.8 }),
      fixtureFrame('huge', 'x'.repeat(8000), { citation_label: 'big.rs', score: 0.99 }),
    ]),
    fixtureAnswer('docs', [
      fixtureFrame('guide', 'The guide says: back off exponentially.', { citation_label: 'Guide & FAQ', score: 0.5 }),
      fixtureFrame('dup', 'Retry policy: max 5 attempts.', { citation_label: 'dup', score: 0.4 }),
    ]),
    fixtureAnswer(
      'flood',
      Array.from({ length: 3 }, (_, i) => fixtureFrame(`f${i}`, `flood ${i}`)),
      { query: fixtureQuery({ max_frames: 2 }) },
    ),
  ];
  const composed = composeForPrompt(answers, { budgetTokens: 400 });
  const usage = buildUsageReport(answers, composed, { asOf: AS_OF });
  return { answers, composed, usage };
}

function use(record: AttributionRecord, frameId: string) {
  const u = record.uses.find((x) => x.frame.frame_id === frameId);
  assert.ok(u, `no use for ${frameId}`);
  return u;
}

test('A1: every use is keyed by the FrameId triple; billed frames all have a use; quarantined ones none', () => {
  const { composed, usage } = scenario();
  const record = buildAttribution(composed, usage, '');
  const billed = usage.providers.flatMap((p) => p.served_frames.map((s) => frameIdKey(s.frame)));
  assert.deepEqual(record.uses.map((u) => frameIdKey(u.frame)).sort(), [...new Set(billed)].sort());
  assert.ok(!record.uses.some((u) => u.frame.provider_id === 'flood'));
  assert.deepEqual(checkAttribution(record, usage), []);
});

test('A2: selected, rendered and cited are independent observations', () => {
  const { composed, usage } = scenario();
  const output = 'As net.rs L120-160 shows, retries stop after 5 attempts (see also Guide & FAQ).';
  const record = buildAttribution(composed, usage, output);
  // selected but not rendered: ranked in, then refused by the budget packer
  assert.deepEqual(pick(use(record, 'huge')), [true, false, false]);
  // rendered and cited
  assert.deepEqual(pick(use(record, 'retry')), [true, true, true]);
  assert.equal(use(record, 'retry').cited_via, 'citation_label');
  assert.deepEqual(pick(use(record, 'guide')), [true, true, true]);
  // rendered, not cited: "net.rs" only occurs inside the longer label "net.rs L120-160"
  assert.deepEqual(pick(use(record, 'short')), [true, true, false]);
  // a duplicate dropped by dedup: billed, never selected
  assert.deepEqual(pick(use(record, 'dup')), [false, false, false]);
  // summary: paid, read, unused tokens are visible
  assert.ok(record.summary.uncited_rendered_tokens > 0);
  assert.ok(record.summary.cited_token_share! > 0 && record.summary.cited_token_share! < 1);
  assert.deepEqual(checkAttribution(record, usage), []);
});

test('cited is observed, never inferred: paraphrase does not count, the label or a unique frame id does', () => {
  const { composed, usage } = scenario();
  const paraphrase = buildAttribution(composed, usage, 'Retries stop after five attempts; back off exponentially.');
  assert.ok(paraphrase.uses.every((u) => !u.cited));
  assert.equal(paraphrase.summary.cited_token_share, 0);
  const byId = buildAttribution(composed, usage, 'per [retry], …');
  assert.deepEqual(pick(use(byId, 'retry')), [true, true, true]);
  assert.equal(use(byId, 'retry').cited_via, 'frame_id');
  // whole-word: "subnet.rs" does not cite "net.rs"; escaped form of a label counts
  const sub = buildAttribution(composed, usage, 'see subnet.rs and Guide &amp; FAQ');
  assert.equal(use(sub, 'short').cited, false);
  assert.equal(use(sub, 'guide').cited, true);
  // an unrendered frame is never cited, even if its label appears
  const huge = buildAttribution(composed, usage, 'big.rs');
  assert.equal(use(huge, 'huge').cited, false);
  // nothing rendered ⇒ share undefined (null)
  const empty = buildAttribution(composeForPrompt([], { budgetTokens: 10 }), buildUsageReport([], undefined, { asOf: AS_OF }), 'x');
  assert.equal(empty.summary.cited_token_share, null);
});

test('rendered is checked against the prompt text itself', () => {
  const { composed, usage } = scenario();
  const tampered = { ...composed, text: composed.text.replace(/<frame id="retry"[^\n]*\n/, '') };
  const record = buildAttribution(tampered, usage, 'net.rs L120-160');
  assert.equal(use(record, 'retry').rendered, false);
  assert.ok(record.notes.length > 0);
});

test('A3: incoherent or unbilled records are reported', () => {
  const { composed, usage } = scenario();
  const record = buildAttribution(composed, usage, 'net.rs L120-160');
  const clone = (): AttributionRecord => JSON.parse(JSON.stringify(record)) as AttributionRecord;

  const citedNotRendered = clone();
  Object.assign(use(citedNotRendered, 'huge'), { cited: true });
  assert.deepEqual(
    checkAttribution(citedNotRendered, usage).map((f) => f.id),
    ['A3'],
  );
  assert.match(checkAttribution(citedNotRendered, usage)[0]!.message, /cited but was not rendered/);

  const renderedNotSelected = clone();
  Object.assign(use(renderedNotSelected, 'dup'), { rendered: true });
  assert.match(checkAttribution(renderedNotSelected, usage)[0]!.message, /rendered but was not selected/);

  const unbilled = clone();
  unbilled.uses.push({ frame: { provider_id: 'ghost', frame_id: 'g' }, selected: true, rendered: true, cited: false });
  assert.ok(checkAttribution(unbilled, usage).some((f) => f.id === 'A3' && /not billed/.test(f.message)));

  const wrongDigest = clone();
  use(wrongDigest, 'retry').frame.content_digest = 'sha256:' + '0'.repeat(64);
  assert.ok(checkAttribution(wrongDigest, usage).some((f) => /not billed/.test(f.message)));

  const twice = clone();
  twice.uses.push({ ...use(twice, 'retry') });
  assert.ok(checkAttribution(twice, usage).some((f) => f.id === 'A1'));

  const score = clone();
  (use(score, 'retry') as unknown as Record<string, unknown>).cited = 0.7;
  assert.ok(checkAttribution(score, usage).some((f) => f.id === 'A2'));

  const otherUsage = buildUsageReport(scenario().answers.slice(0, 1), undefined, { asOf: AS_OF });
  assert.ok(checkAttribution(record, otherUsage).some((f) => f.pointer === '/usage'));
});

function pick(u: { selected: boolean; rendered: boolean; cited: boolean }): [boolean, boolean, boolean] {
  return [u.selected, u.rendered, u.cited];
}
