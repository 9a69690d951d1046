// The public reference's worked example, rebuilt as fixtures/ingest/worked-example from its
// description: the same five attachments (the block hashes match the reference's published ones), served
// in fewer tokens than the reference's 610 while keeping the facts it kept.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { composeForPrompt } from '../../src/host/compose/index.js';
import { fixtureAnswer, fixtureProvider } from '../../src/host/compose/fixtures.js';
import { checkFrame } from '../../src/protocol/index.js';
import { INGEST_PROVIDER_NAME, type IngestResult } from '../../src/ingest/index.js';
import { pastedTokens } from '../../src/cli/commands/ingest.js';
import { EXAMPLE_FILES, EXAMPLE_INTENT, exampleAttachments, ingestExample, requery } from './helpers.js';

const REFERENCE_SERVED = 610;
/** What this implementation served before the template-mining distiller (§68); it must not regress. */
const PREVIOUS_SERVED = 390;

function composed(r: IngestResult): string {
  const answer = fixtureAnswer(fixtureProvider(INGEST_PROVIDER_NAME), r.frames, { query: r.query });
  return composeForPrompt([answer], { budgetTokens: 10_000 }).text;
}

describe('ingest: the worked example', () => {
  const r = ingestExample();
  const served = r.frames.reduce((n, f) => n + f.token_cost, 0);

  it('is the paste the reference describes: 2288 raw tokens, the same four block hashes', () => {
    assert.equal(pastedTokens(exampleAttachments().map((a) => a.content)), 2288);
    const hashes = r.frames.map((f) => f.canonical_content_hash).sort();
    assert.deepEqual(hashes, [
      'sha256:466166b63bb88e532efa7271c9c4fe7775f98ab9c205c8ade6c3a45f9b1e567f',
      'sha256:4f0bca1d9d62b2cfbc9821a20f3721ba393a72413f36108bd77e0f2c925b9a95',
      'sha256:63cc71157fd1ff36fb885bb55c826b50f3a32e32b6d9d6dd881782ad49f062b0',
      'sha256:bca787198a3e25713d60a689a78f5096826a1ee248eb452d40b9d9a3802dd112',
    ]);
  });

  it('5 attachments → one anchor and 4 frames, ≤ 610 served tokens and < 27 % of raw', () => {
    assert.equal(r.query.goal, EXAMPLE_INTENT);
    assert.deepEqual(r.query.anchors, ['./src/net']);
    assert.equal(r.frames.length, 4);
    assert.equal(r.query.max_frames, 4);
    assert.equal(r.query.max_tokens, served);
    assert.ok(served <= REFERENCE_SERVED, `${served} served tokens`);
    assert.ok(served <= PREVIOUS_SERVED, `${served} served tokens (was ${PREVIOUS_SERVED})`);
    assert.ok(served / 2288 < 0.27, `${((served / 2288) * 100).toFixed(1)} % of raw`);
    assert.deepEqual(r.query.representation_preferences, ['compact', 'full']);
    assert.deepEqual(
      r.report.filter((e) => e.became.outcome !== 'note').map((e) => [e.attachment, e.kind, e.became.outcome]),
      [
        ['retry.log', 'log', 'frame'],
        ['endpoints.csv', 'table', 'frame'],
        ['trace.txt', 'stack', 'frame'],
        ['paths.txt', 'path', 'anchor'],
        ['note.txt', 'prose', 'frame'],
      ],
    );
  });

  it('keeps the facts: the error line, the repeated-line count, the columns and types, the exception and its top frames', () => {
    const byKind = (k: string) => r.store.artifacts.find((a) => a.kind === k)!;
    const log = byKind('log').inline;
    assert.match(log, /^\[115-line log · 2 templates · 18:00:00–18:01:31 · 5 anomalous lines\]/);
    // the error line verbatim, with its line number; the level spread of the retry template
    assert.match(log, /\nL62 2026-07-20 18:01:01,250 ERROR retry attempt 61 for \/v1\/resolve\n/);
    assert.match(
      log,
      /×90 \(lines 1–90\) 18:00:00–18:01:29: <timestamp> <level> retry attempt <number> for \/v1\/resolve; <number> 0–89\n {2}INFO ×85, 18:00:01–18:01:29\n {2}WARN ×4, 18:00:00–18:01:27\n {2}ERROR ×1, 18:01:01 \(line 62\)/,
    );
    // the repeated line: its count and where it is
    assert.match(log, /\n×25 \(lines 91–115\) 18:01:31: <timestamp> WARN upstream still draining, backing off\n/);
    // every line not quoted is named
    assert.match(log, /\nelided \(in \[full\]\): lines 2–29, 31–58, 60–61, 63–87, 89–115$/);
    const table = byKind('table').inline;
    assert.match(table, /^\[33 rows × 5 columns\]\ncolumns: endpoint text · calls int 3\.\.1841 · p99_ms int 7\.\.1204 · error_rate percent 0\.0%\.\.44\.6% · cost currency\? /);
    // the rows that differ are kept under their header (§120): the outlier calls and the failing endpoint
    assert.match(
      table,
      /\nkept 2 of 33 rows, which differ in or carry: p99_ms, error_rate, calls\nL1 endpoint,calls,p99_ms,error_rate,cost\nL2 \/v1\/query,1841,210,0\.2%,\$18\.41\nL3 \/v1\/resolve,92,1204,44\.6%,\$0\.92\n/,
    );
    assert.match(table, /\n… \(31 more rows: lines 4–34\)$/);
    const trace = byKind('stack').inline;
    assert.match(trace, /^java\.lang\.IllegalStateException: connection pool exhausted after 3 attempts\n\tat com\.acme\.pool\.Pool\.borrow\(Pool\.java:118\)/);
    assert.match(trace, /\n… \(8 more frames: lines 7–14\)$/);
    assert.equal(byKind('prose').inline, 'the backoff may be too aggressive for a service that slow-starts');
    const logFrame = r.frames.find((f) => f.kind === 'episode' && f.title?.startsWith('log'))!;
    assert.equal(logFrame.valid_from, '2026-07-20T18:00:00.250Z');
    assert.equal(logFrame.valid_to, '2026-07-20T18:01:31.250Z');
  });

  it('every served frame passes the frame checks of src/protocol', () => {
    for (const f of r.frames) assert.deepEqual(checkFrame(f, `/${f.id}`), [], f.id);
  });

  it('for every frame a [full] re-query returns bytes whose sha256 equals its canonical_content_hash', () => {
    const full = requery(r, ['full']);
    assert.equal(full.length, 4);
    for (const f of r.frames) {
      const g = full.find((x) => x.id === f.id)!;
      const sha = `sha256:${createHash('sha256').update(g.content!, 'utf8').digest('hex')}`;
      assert.equal(sha, f.canonical_content_hash, f.id);
      assert.equal(g.content_digest, f.canonical_content_hash);
      assert.equal(g.token_cost, f.canonical_token_cost);
      assert.equal(g.content_fidelity, 'exact');
      assert.deepEqual(checkFrame(g, `/${g.id}`), []);
    }
  });

  it('composition is byte-identical across two ingests and across the attachments in another order', () => {
    const a = composed(r);
    assert.equal(composed(ingestExample()), a);
    assert.equal(composed(ingestExample([...EXAMPLE_FILES].reverse())), a);
    assert.equal(composed(ingestExample(['note.txt', 'trace.txt', 'retry.log', 'paths.txt', 'endpoints.csv'])), a);
    assert.deepEqual(ingestExample([...EXAMPLE_FILES].reverse()).frames, r.frames);
    assert.ok(a.includes('ERROR retry attempt 61'));
  });
});
