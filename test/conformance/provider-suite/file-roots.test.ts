// S6.2-digested-bytes by default: the harness re-reads file provenance under a stdio provider's working
// directory without being told (docs/interpretations.md §81) — on the bundled provider, and on a provider run
// from a directory of its own (a copy of the bundled provider's corpus in a temporary folder, served from
// there, no CGP_PROVIDER_FILE_ROOTS). Files outside every trusted root are never read: not applicable, naming
// CGP_PROVIDER_FILE_ROOTS.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { runSuite, type RunSuiteResult } from '../../../src/conformance/run/run-suite.js';
import { findPackageRoot } from '../../../src/util/package-root.js';

const ROOT = findPackageRoot();
const REPORTS = mkdtempSync(join(tmpdir(), 'cgp-file-roots-'));
const DIST = join(ROOT, 'dist', 'src', 'provider');
const TAGS = '@S6.2-digested-bytes';

function s62(result: RunSuiteResult) {
  const id = result.summary.ids.find((i) => i.id === 'S6.2-digested-bytes');
  const scenario = result.summary.scenarios.find((s) => s.ids.includes('S6.2-digested-bytes'));
  return { status: id?.status, reason: scenario?.not_applicable ?? '', message: scenario?.message ?? '' };
}

/** A provider of its own: the bundled corpus copied into `dir`, served from there by a script in `dir`. */
function providerOfItsOwn(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cgp-own-provider-'));
  mkdirSync(join(dir, 'fixtures'), { recursive: true });
  cpSync(join(ROOT, 'fixtures', 'provider'), join(dir, 'fixtures', 'provider'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'my-provider', version: '1.2.3', type: 'module' }));
  writeFileSync(
    join(dir, 'provider.mjs'),
    [
      `import { createProvider } from ${JSON.stringify(pathToFileURL(join(DIST, 'core.js')).href)};`,
      `import { runStdioProvider } from ${JSON.stringify(pathToFileURL(join(DIST, 'serve.js')).href)};`,
      `const provider = createProvider({ root: process.cwd(), requireHandshake: true });`,
      `process.exit(await runStdioProvider({}, provider));`,
    ].join('\n'),
  );
  return dir;
}

describe("S6.2: file provenance re-read by default under the provider's working directory", { skip: existsSync(join(DIST, 'core.js')) ? false : 'dist/ is missing: run npm run build' }, () => {
  it('the bundled provider: witnessed, with no CGP_PROVIDER_FILE_ROOTS', { timeout: 120_000 }, async () => {
    const previous = process.env.CGP_PROVIDER_FILE_ROOTS;
    delete process.env.CGP_PROVIDER_FILE_ROOTS;
    try {
      const result = await runSuite({ side: 'provider', reportName: 'bundled-s62', reportsDir: REPORTS, progress: null, tags: TAGS, target: { kind: 'bundled' } });
      assert.equal(s62(result).status, 'witnessed', JSON.stringify(s62(result)));
    } finally {
      if (previous !== undefined) process.env.CGP_PROVIDER_FILE_ROOTS = previous;
    }
  });

  it('a provider run from a directory of its own: witnessed, with no CGP_PROVIDER_FILE_ROOTS', { timeout: 120_000 }, async () => {
    const dir = providerOfItsOwn();
    const result = await runSuite({
      side: 'provider',
      reportName: 'own-dir-s62',
      reportsDir: REPORTS,
      progress: null,
      tags: TAGS,
      target: { kind: 'stdio', command: process.execPath, args: [join(dir, 'provider.mjs')], cwd: dir },
    });
    assert.equal(s62(result).status, 'witnessed', JSON.stringify(s62(result)));
    assert.equal(result.success, true);
  });

  it('the same provider started from another directory: its files are outside every root — not applicable, naming CGP_PROVIDER_FILE_ROOTS', { timeout: 120_000 }, async () => {
    const dir = providerOfItsOwn();
    const elsewhere = mkdtempSync(join(tmpdir(), 'cgp-elsewhere-'));
    // the script serves the corpus under `dir` whatever its working directory
    writeFileSync(
      join(dir, 'provider.mjs'),
      [
        `import { createProvider } from ${JSON.stringify(pathToFileURL(join(DIST, 'core.js')).href)};`,
        `import { runStdioProvider } from ${JSON.stringify(pathToFileURL(join(DIST, 'serve.js')).href)};`,
        `process.exit(await runStdioProvider({}, createProvider({ root: ${JSON.stringify(dir)}, requireHandshake: true })));`,
      ].join('\n'),
    );
    const result = await runSuite({
      side: 'provider',
      reportName: 'elsewhere-s62',
      reportsDir: REPORTS,
      progress: null,
      tags: TAGS,
      target: { kind: 'stdio', command: process.execPath, args: [join(dir, 'provider.mjs')], cwd: elsewhere },
    });
    const seen = s62(result);
    assert.equal(seen.status, 'not-applicable', JSON.stringify(seen));
    assert.match(seen.reason, /outside every trusted root/);
    assert.match(seen.reason, /CGP_PROVIDER_FILE_ROOTS/);
  });
});
