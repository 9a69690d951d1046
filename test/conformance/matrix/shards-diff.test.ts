// What changed, and beyond one machine (docs/matrix.md "What changed", "Shards"): one matrix file run whole,
// and as shards 1/2 and 2/2 merged, gives the same matrix.json apart from its timestamps, and the same page
// apart from the timestamps it prints; a second run with one implementation changed names exactly that
// change, in `--previous`, in `matrix diff`, and first on the page.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { changeLines, diffMatrices } from '../../../src/conformance/matrix/diff.js';
import { shardOf } from '../../../src/conformance/matrix/matrix-file.js';
import type { MatrixDoc } from '../../../src/conformance/matrix/types.js';
import { cli, scratch, withoutTimestamps, writeMatrix } from './helpers.js';

const entries = (providerMode: string) => `implementations:
  - name: provider
    side: provider
    bundled: true
${providerMode === '' ? '' : `    misbehave: ${providerMode}\n`}    tags: "@B4"
  - name: drops-budget
    side: provider
    bundled: true
    misbehave: ignore-max-frames
    tags: "@B4"
  - name: host
    side: host
    bundled: true
    tags: "@C6"
`;

const read = (dir: string) => JSON.parse(readFileSync(join(dir, 'matrix.json'), 'utf8')) as MatrixDoc;
/** The page with what depends on time taken out: its timestamps and the transcripts' ms since start. */
const page = (dir: string) =>
  readFileSync(join(dir, 'index.html'), 'utf8')
    .replace(/\d{4}-\d\d-\d\dT[0-9:.]+Z/g, 'TIME')
    .replace(/<td>\d+ ms<\/td>/g, '<td>MS</td>');

describe('matrix shards, merge and diff', () => {
  const dir = scratch('shards');
  const file = writeMatrix(dir, 'matrix.yml', entries(''));
  const whole = join(dir, 'whole');

  it('shard i/n takes the entries at positions i-1 modulo n', () => {
    const items = [0, 1, 2, 3, 4].map((position) => ({ position }));
    assert.deepEqual(
      shardOf(items, { index: 1, count: 2 }).map((x) => x.position),
      [0, 2, 4],
    );
    assert.deepEqual(
      shardOf(items, { index: 2, count: 2 }).map((x) => x.position),
      [1, 3],
    );
    assert.deepEqual(shardOf(items, undefined).length, 5);
  });

  it('shards 1/2 and 2/2 merged give the same matrix.json as one run, apart from timestamps', { timeout: 300_000 }, async () => {
    const s1 = join(dir, 's1');
    const s2 = join(dir, 's2');
    const merged = join(dir, 'merged');
    const runs = await Promise.all([
      cli(['matrix', file, '--out', whole, '--jobs', '1']),
      cli(['matrix', file, '--shard', '1/2', '--out', s1, '--jobs', '1']),
      cli(['matrix', file, '--shard', '2/2', '--out', s2, '--jobs', '1']),
    ]);
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      read(s1).implementations.map((c) => c.name),
      ['provider', 'host'],
    );
    assert.deepEqual(
      read(s2).implementations.map((c) => c.name),
      ['drops-budget'],
    );
    assert.deepEqual(read(s1).shard, { index: 1, count: 2 });

    const missing = await cli(['matrix', 'merge', s1, '--out', merged]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /missing shard\(s\) 2\/2/);

    const m = await cli(['matrix', 'merge', s2, s1, '--out', merged]);
    assert.equal(m.code, 0, m.stderr);
    assert.deepEqual(withoutTimestamps(read(merged)), withoutTimestamps(read(whole)));
    assert.equal(read(merged).shard, undefined);
    assert.equal(page(merged), page(whole), 'the same page, apart from the time it prints');
    assert.equal(readFileSync(join(merged, 'summary.md'), 'utf8'), readFileSync(join(whole, 'summary.md'), 'utf8'));
    assert.deepEqual(readdirSync(join(merged, 'runs')).sort(), readdirSync(join(whole, 'runs')).sort());
    assert.deepEqual(readdirSync(join(merged, 'badges')).sort(), readdirSync(join(whole, 'badges')).sort());
  });

  it('a second run with one implementation changed names exactly that change', { timeout: 300_000 }, async () => {
    const changedFile = writeMatrix(dir, 'changed.yml', entries('ignore-max-frames'));
    const second = join(dir, 'second');
    const r = await cli(['matrix', changedFile, '--out', second, '--previous', join(whole, 'matrix.json')]);
    assert.equal(r.code, 1, `a new failure exits 1\n${r.stderr}`);
    const doc = read(second);
    const c = doc.changes!;
    assert.deepEqual(c.new_failures, [{ implementation: 'provider', id: 'B4', from: 'witnessed', to: 'failed' }]);
    assert.deepEqual([c.fixes, c.other, c.added, c.gone, c.version_changes, c.outcome_changes], [[], [], [], [], [], []]);
    const html = readFileSync(join(second, 'index.html'), 'utf8');
    assert.ok(html.indexOf('id="changes"') > 0 && html.indexOf('id="changes"') < html.indexOf('id="implementations"'), 'the page shows the change first');
    assert.match(readFileSync(join(second, 'summary.md'), 'utf8'), /- new failure: provider B4 \(witnessed → failed\)/);

    const d = await cli(['matrix', 'diff', join(whole, 'matrix.json'), join(second, 'matrix.json')]);
    assert.equal(d.code, 1, d.stderr);
    assert.equal(d.stdout, 'new failure: provider B4 (witnessed → failed)\n');
    const back = await cli(['matrix', 'diff', join(second, 'matrix.json'), join(whole, 'matrix.json')]);
    assert.equal(back.code, 0, back.stderr);
    assert.equal(back.stdout, 'fixed: provider B4 (failed → witnessed)\n');
    assert.deepEqual(changeLines(diffMatrices(read(whole), read(whole))), [], 'a matrix against itself: no change');
  });

  it('added, gone, version and run changes', () => {
    const base = read(whole);
    const now: MatrixDoc = JSON.parse(JSON.stringify(base)) as MatrixDoc;
    now.implementations[0]!.version = '0.2.0';
    now.implementations[1]!.outcome = 'hung';
    now.implementations[1]!.version = null; // a hung run cannot tell its version: no version change
    now.implementations[2]!.name = 'host 2';
    const c = diffMatrices(base, now);
    assert.deepEqual(c.version_changes, [{ implementation: 'provider', from: '0.1.0', to: '0.2.0' }]);
    assert.deepEqual(c.outcome_changes, [{ implementation: 'drops-budget', from: 'completed', to: 'hung' }]);
    assert.deepEqual([c.added, c.gone], [['host 2'], ['host']]);
    assert.deepEqual([c.new_failures, c.fixes, c.other], [[], [], []], 'a column without a verdict changes no cell');
  });
});
