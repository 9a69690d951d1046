// The paste corpus (test/ingest/corpus): for every paste, the served frames keep every fact a reader
// needs, never cost more tokens than the paste, and under half of it when the paste is over 1000 tokens, and pass the
// frame checks; [full] of every frame is the exact pasted bytes. Plus the access log of the worked
// failure: a 502 burst kept with its line range, well under the tokens a head-and-tail served.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkFrame } from '../../src/protocol/index.js';
import { ingest } from '../../src/ingest/index.js';
import { CORPUS, evaluate, factsIn, pasteBytes } from './corpus/index.js';
import { distillProse } from '../../src/ingest/distill.js';
import { requery } from './helpers.js';

describe('ingest: the paste corpus', () => {
  it('has at least 20 pastes of different kinds, each with facts; at least 15 of the wider kinds (structured output that is not a log)', () => {
    assert.ok(CORPUS.length >= 20, `${CORPUS.length} pastes`);
    assert.equal(new Set(CORPUS.map((p) => p.kind)).size, CORPUS.length);
    for (const p of CORPUS) assert.ok(p.facts.length >= 3, p.file);
    assert.ok(CORPUS.filter((p) => p.wider).length >= 15);
  });
  for (const p of CORPUS) {
    it(`${p.file} (${p.kind}): every fact survives "${p.intent}"`, async () => {
      const e = await evaluate(p);
      assert.deepEqual(e.missing, [], `${p.file} lost facts; served:\n${e.served}`);
      assert.deepEqual(e.misread, [], `${p.file} served a misreading; served:\n${e.served}`);
      // the wider corpus: well under the raw size (under 60 %, and under half above 1000 tokens)
      if (p.wider) assert.ok(e.servedTokens * 10 <= e.rawTokens * 6, `${p.file}: ${e.rawTokens} → ${e.servedTokens}`);
      if (e.rawTokens > 1000) assert.ok(e.servedTokens * 2 < e.rawTokens, `${p.file}: ${e.rawTokens} → ${e.servedTokens}`);
      assert.ok(e.servedTokens <= e.rawTokens, `${p.file}: ${e.rawTokens} → ${e.servedTokens}`);
      const r = ingest({ intent: p.intent, attachments: [{ name: p.file, content: pasteBytes(p) }] });
      for (const f of r.frames) assert.deepEqual(checkFrame(f, `/${f.id}`), [], f.id);
      // lossless: the [full] frames, in paste order, are the paste's blocks byte for byte
      const full = requery(r, ['full']);
      const text = pasteBytes(p).toString('utf8');
      for (const f of full) assert.ok(text.includes(f.content!), `${f.id}: [full] is not a slice of the paste`);
    });
  }
  it('the access log: the 502 burst kept with its line range and time range, ≤ 400 tokens', async () => {
    const e = await evaluate(CORPUS.find((p) => p.file === 'nginx-access.log')!);
    assert.equal(e.recognised, 'log');
    assert.ok(e.servedTokens <= 400, `${e.servedTokens} tokens`);
    assert.match(e.served, /\n {2}GET \/api\/v2\/orders → 200 ×212, 10:00:00–10:06:37\n {2}→ 502 ×40, 10:04:10–10:04:49 \(lines 251–290\)\n/);
    assert.match(e.served, /\nL251 .*"GET \/api\/v2\/orders HTTP\/1\.1" 502 157 .*\n… burst of 40 status 502: 38 more lines like these \(lines 252–289\), 10:04:11–10:04:48 …\nL290 .*" 502 157 /);
    assert.match(e.served, /\nelided \(in \[full\]\): lines 1–250, 252–289, 291–400$/);
  });
  it('the fact check can fail: each paste of the wider corpus served head-and-tail by lines (its first 10 and last 5) loses facts; sampled by position (every fifth line), most do', () => {
    const wider = CORPUS.filter((x) => x.wider);
    let sampledLost = 0;
    for (const p of wider) {
      const lines = pasteBytes(p).toString('utf8').split('\n');
      const headTail = [...lines.slice(0, 10), '… (elided) …', ...lines.slice(-6)].join('\n');
      assert.ok(factsIn(p, headTail).length < p.facts.length, `${p.file}: head-and-tail kept every fact`);
      const sampled = lines.filter((_, i) => i % 5 === 0).join('\n');
      if (factsIn(p, sampled).length < p.facts.length) sampledLost++;
    }
    assert.ok(sampledLost * 3 >= wider.length * 2, `${sampledLost} of ${wider.length}`);
  });
  it('no structured block over 1000 tokens is served nearly whole: every such frame is under 30 % of its source', () => {
    for (const p of CORPUS) {
      const r = ingest({ intent: p.intent, attachments: [{ name: p.file, content: pasteBytes(p) }] });
      for (const f of r.frames) {
        if ((f.canonical_token_cost ?? 0) <= 1000 || f.title === 'note') continue;
        assert.ok(f.token_cost * 10 < f.canonical_token_cost! * 3, `${p.file} ${f.title}: ${f.canonical_token_cost} → ${f.token_cost}`);
      }
    }
  });
  it('the fact check can fail: the same access log served head-and-tail (what a log without level words used to get) keeps none of the 502 facts', () => {
    const p = CORPUS.find((x) => x.file === 'nginx-access.log')!;
    const headTail = distillProse(pasteBytes(p).toString('utf8')).text;
    assert.match(headTail, /^\[unstructured text: head and tail only/);
    assert.deepEqual(
      p.facts.filter((f) => headTail.includes(f)),
      [],
    );
    assert.ok(!/" 502 /.test(headTail), 'no 502 line survives head-and-tail');
  });
});
