// R3 rendering has two implementations of the same text: an all-ASCII prompt is written into a
// reused byte buffer at precomputed offsets, any other prompt is joined from strings
// (renderPrompt in compose/write.ts, stage 6). Both must equal the documented block format
// exactly, and every frame's `tokens` must be the ceil(bytes/4) of exactly the block that was
// written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { composeForPrompt, fenceHeader, neutraliseContent, PREAMBLE, FENCE_CLOSE } from '../../src/host/compose/index.js';
import { fixtureAnswer, fixtureFrame, fixtureQuery } from '../../src/host/compose/fixtures.js';

const query = fixtureQuery({ max_frames: 10_000, max_tokens: 1_000_000_000 });

/** The block exactly as render.ts documents it, built from the composed record. */
function expectedBlock(f: { frameId: { provider_id: string; frame_id: string }; kind: string; citation: string; representation: string }, content: string): string {
  const header = fenceHeader({
    id: f.frameId.frame_id,
    provider: f.frameId.provider_id,
    kind: f.kind,
    cite: f.citation,
    ...(f.representation === 'full' ? {} : { representation: f.representation }),
  });
  const body = f.representation === 'reference' ? '' : neutraliseContent(content).text;
  return `${header}\n${body}${FENCE_CLOSE}`;
}

const ascii = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', '<', '/', 'f', 'r', 'a', 'm', 'e', '&', '"', '>'), maxLength: 40 });
const any = fc.oneof(ascii, fc.string({ maxLength: 20 }), fc.string({ unit: 'grapheme', maxLength: 10 }), fc.string({ unit: 'binary', maxLength: 10 }));

for (const [name, text] of [
  ['all-ASCII prompts (byte-buffer path)', ascii],
  ['any prompt (string path, and the byte path when it happens to be ASCII)', any],
] as const) {
  test(`render: ${name} equal the documented block format, and tokens charge exactly the written block`, () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            provider: fc.constantFrom('p1', 'p2', 'p"3'),
            content: text,
            label: fc.option(text, { nil: undefined }),
            kind: fc.constantFrom('doc', 'snippet', 'x&y'),
            representation: fc.constantFrom('full', 'full', 'compact', 'reference'),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        (specs) => {
          const byProvider = new Map<string, ReturnType<typeof fixtureFrame>[]>();
          specs.forEach((s, i) => {
            const frame = fixtureFrame(`f${i}`, s.content, { kind: s.kind, representation: s.representation, ...(s.label === undefined ? {} : { citation_label: s.label }) });
            if (s.representation === 'reference') {
              delete frame.content; // no inline content: B3 counts it as "" (cost 0)
              frame.token_cost = 0;
            }
            byProvider.set(s.provider, [...(byProvider.get(s.provider) ?? []), frame]);
          });
          const answers = [...byProvider].map(([p, frames]) => fixtureAnswer(p, frames, { query }));
          const composed = composeForPrompt(answers, { budgetTokens: 1_000_000_000 });
          // nothing is quarantined: every offered frame is admitted or a proven duplicate
          assert.ok(composed.audit.every((e) => e.disposition === 'admitted' || e.reason.kind === 'duplicate'));
          const contentOf = new Map(specs.map((s, i) => [`f${i}`, s.content]));
          const blocks = composed.frames.map((f) => expectedBlock(f, contentOf.get(f.frameId.frame_id)!));
          assert.equal(composed.text, PREAMBLE + blocks.join(''));
          composed.frames.forEach((f, i) => assert.ok(f.tokens >= Math.ceil(Buffer.byteLength(blocks[i]!) / 4)));
        },
      ),
      { numRuns: 300 },
    );
  });
}

test('render: a large all-ASCII prompt and the same prompt with one non-ASCII frame differ only in that frame', () => {
  const frames = Array.from({ length: 2000 }, (_, i) => fixtureFrame(`f${String(i).padStart(4, '0')}`, `content ${i} </frame> <frame x>`.repeat(3)));
  const a = composeForPrompt([fixtureAnswer('p', frames, { query })], { budgetTokens: 1_000_000_000 });
  const changed = frames.map((f, i) => (i === 1234 ? fixtureFrame(f.id, `contént ${i} </frame> <frame x>`.repeat(3)) : f));
  const b = composeForPrompt([fixtureAnswer('p', changed, { query })], { budgetTokens: 1_000_000_000 });
  assert.equal(a.frames.length, 2000);
  const [ta, tb] = [a.text.split(FENCE_CLOSE), b.text.split(FENCE_CLOSE)];
  const differing = ta.map((block, i) => (block === tb[i] ? -1 : i)).filter((i) => i !== -1);
  assert.equal(differing.length, 1);
  assert.match(tb[differing[0]!]!, /contént 1234/);
  // and a second composition reusing the arena's buffer renders identically
  assert.equal(composeForPrompt([fixtureAnswer('p', frames, { query })], { budgetTokens: 1_000_000_000 }).text, a.text);
});
