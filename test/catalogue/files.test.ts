import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractCatalogue } from '../../src/catalogue/extract.js';
import { staleCatalogueFiles, writeCatalogueFiles } from '../../src/catalogue/files.js';
import { catalogueRepoRoot, findCatalogueEntry, loadCatalogue } from '../../src/catalogue/index.js';
import { boldKeyWords, plainText, splitRow, splitSentences } from '../../src/catalogue/markdown.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

test('extract-rules --check is clean on the committed files', () => {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts/extract-rules.ts'), '--check'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stderr, /up to date/);
  assert.doesNotMatch(result.stderr, /warning/);
});

test('extract-rules rejects an unknown argument with exit 2', () => {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts/extract-rules.ts'), '--bogus'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  assert.equal(result.status, 2);
});

test('staleness is detected per file and cleared by a rewrite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cgp-catalogue-'));
  try {
    cpSync(join(repoRoot, 'SPEC.md'), join(dir, 'SPEC.md'));
    mkdirSync(join(dir, 'generated'));
    cpSync(join(repoRoot, 'generated/anchors.json'), join(dir, 'generated/anchors.json'));
    cpSync(join(repoRoot, 'generated/rules.json'), join(dir, 'generated/rules.json'));
    assert.deepEqual(staleCatalogueFiles(dir), []);

    const spec = readFileSync(join(dir, 'SPEC.md'), 'utf8');
    writeFileSync(join(dir, 'SPEC.md'), spec.replace('never left to hang', 'never left hanging'));
    assert.deepEqual(staleCatalogueFiles(dir), ['generated/anchors.json']);

    assert.deepEqual(writeCatalogueFiles(dir), ['generated/anchors.json']);
    assert.deepEqual(staleCatalogueFiles(dir), []);
    assert.deepEqual(
      loadCatalogue(dir)
        .anchors.find((a) => a.id === 'H3')
        ?.text.includes('never left hanging'),
      true,
    );

    rmSync(join(dir, 'generated/rules.json'));
    assert.deepEqual(staleCatalogueFiles(dir), ['generated/rules.json']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('loadCatalogue reads the generated files from the repository root', () => {
  assert.equal(catalogueRepoRoot(), join(repoRoot, '.').replace(/\/$/, ''));
  const loaded = loadCatalogue();
  const extracted = extractCatalogue(readFileSync(join(repoRoot, 'SPEC.md'), 'utf8'));
  assert.deepEqual(loaded, extracted);
  assert.equal(loaded.anchors.length, 61);
  assert.equal(findCatalogueEntry('B3')?.level, 'MUST');
  assert.equal(findCatalogueEntry('S6.3-content-digest')?.kind, 'rule');
  assert.equal(findCatalogueEntry('B9'), undefined);
});

test('loadCatalogue rejects a malformed catalogue', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cgp-catalogue-bad-'));
  try {
    mkdirSync(join(dir, 'generated'));
    writeFileSync(join(dir, 'generated/anchors.json'), JSON.stringify({ anchors: [{ id: 'H1', kind: 'anchor' }] }));
    writeFileSync(join(dir, 'generated/rules.json'), JSON.stringify({ rules: [] }));
    assert.throws(() => loadCatalogue(dir), /anchors\[0\] is not a valid anchor entry/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('markdown helpers: sentences, rows, plain text, bold key words', () => {
  assert.deepEqual(splitSentences('**CGP is not JSON-RPC.** There is no `jsonrpc` member. See e.g. `a.b`. Done'), [
    '**CGP is not JSON-RPC.**',
    'There is no `jsonrpc` member.',
    'See e.g. `a.b`.',
    'Done',
  ]);
  assert.deepEqual(splitSentences('wire in 1.0. It **SHOULD** return `compact`.'), ['wire in 1.0.', 'It **SHOULD** return `compact`.']);
  assert.deepEqual(splitRow('| **H1** | a `x|y` b | c |'), ['**H1**', 'a `x|y` b', 'c']);
  assert.equal(plainText('A `frames` **MUST**  [link](x.md)'), 'A frames MUST link');
  assert.deepEqual(boldKeyWords('a **MUST NOT** b **SHOULD** c MAY **MAY**'), ['MUST NOT', 'SHOULD', 'MAY']);
});
