// What a provider author tells the suite (src/cli/suite-command.ts): `--file-root DIR` and `--retired-id ID`,
// repeatable, on stdio and http, in --help with their environment aliases (CGP_PROVIDER_FILE_ROOTS,
// CGP_PROVIDER_RETIRED_IDS, which stay). --retired-id reaches the V3 probe: the provider's retired ids, unknown
// to the suite for a provider it did not bundle, make that scenario run instead of not applying.
import assert from 'node:assert/strict';
import { runProcess, type Ran } from '../helpers/run-process.js';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { applyProviderTargetOptions } from '../../src/cli/suite-command.js';
import { ConfigError } from '../../src/conformance/provider-suite/config.js';
import { RETIRED_FRAME_IDS } from '../../src/provider/catalogue.js';
import { findPackageRoot } from '../../src/util/package-root.js';

const ROOT = findPackageRoot();
const BIN = join(ROOT, 'src', 'cli', 'bin.ts');
const DIR = mkdtempSync(join(tmpdir(), 'cgp-provider-options-'));
after(() => rmSync(DIR, { recursive: true, force: true }));
// the bundled provider's program named as any other stdio provider: the suite knows nothing it retired
const PROVIDER = ['--', process.execPath, '--import', 'tsx', join(ROOT, 'src', 'provider', 'main.ts')];

function cli(args: string[]): Promise<Ran> {
  return runProcess([process.execPath, '--import', 'tsx', BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, CGP_PROVIDER: '', CGP_PROVIDER_URL: '', CGP_MISBEHAVE: '', CGP_PROVIDER_FILE_ROOTS: '', CGP_PROVIDER_RETIRED_IDS: '' },
    timeoutMs: 120_000,
  });
}

describe('--file-root and --retired-id', () => {
  it('are documented in stdio --help and http --help, with their environment aliases', { timeout: 60_000 }, async () => {
    for (const command of ['stdio', 'http']) {
      const r = await cli([command, '--help']);
      assert.equal(r.code, 0, r.stderr);
      const help = r.stdout.replace(/\s+/g, ' ');
      assert.match(help, /--file-root <dir> a directory whose files the suite may re-read .*repeatable.* Alias: CGP_PROVIDER_FILE_ROOTS/, command);
      assert.match(help, /--retired-id <id> a frame id the provider has retired, which verify must never call valid \(V3\); repeatable.* Alias: CGP_PROVIDER_RETIRED_IDS \(comma separated\)/, command);
    }
  });

  it('--retired-id (repeated) reaches the V3 probe: not applicable without it, passed with it', { timeout: 120_000 }, async () => {
    const run = async (extra: string[]) => {
      const r = await cli(['stdio', '--json', '--tags', '@V3', '--out', join(DIR, `v3-${extra.length}`), ...extra, ...PROVIDER]);
      assert.equal(r.code, 0, r.stderr);
      const doc = JSON.parse(r.stdout) as { scenarios: Array<{ name: string; status: string; not_applicable?: string }> };
      const retired = doc.scenarios.find((s) => /retired/i.test(s.name));
      assert.ok(retired, doc.scenarios.map((s) => s.name).join('\n'));
      return retired;
    };
    const without = await run([]);
    assert.equal(without.status, 'not-applicable');
    assert.match(without.not_applicable ?? '', /pass --retired-id ID, or set CGP_PROVIDER_RETIRED_IDS/);
    const withIds = await run(RETIRED_FRAME_IDS.flatMap((id) => ['--retired-id', id]));
    assert.equal(withIds.status, 'passed');
  });

  it('--file-root reaches the S6.2 probe: a corpus outside every trusted root is not applicable without it, witnessed with it', { timeout: 120_000 }, async () => {
    // the bundled corpus copied outside the working directory (ROOT), served from there
    const dir = mkdtempSync(join(tmpdir(), 'cgp-own-corpus-'));
    mkdirSync(join(dir, 'fixtures'), { recursive: true });
    cpSync(join(ROOT, 'fixtures', 'provider'), join(dir, 'fixtures', 'provider'), { recursive: true });
    const script = join(dir, 'provider.mts');
    writeFileSync(
      script,
      [
        `import { createProvider } from ${JSON.stringify(pathToFileURL(join(ROOT, 'src', 'provider', 'core.ts')).href)};`,
        `import { runStdioProvider } from ${JSON.stringify(pathToFileURL(join(ROOT, 'src', 'provider', 'serve.ts')).href)};`,
        `process.exit(await runStdioProvider({}, createProvider({ root: ${JSON.stringify(dir)}, requireHandshake: true })));`,
      ].join('\n'),
    );
    try {
      const run = async (extra: string[]) => {
        const r = await cli(['stdio', '--json', '--tags', '@S6.2-digested-bytes', '--out', join(DIR, `s62-${extra.length}`), ...extra, '--', process.execPath, '--import', 'tsx', script]);
        assert.equal(r.code, 0, r.stderr);
        const doc = JSON.parse(r.stdout) as { ids: Array<{ id: string; status: string }>; scenarios: Array<{ ids: string[]; status: string; not_applicable?: string }> };
        return { id: doc.ids.find((i) => i.id === 'S6.2-digested-bytes')?.status, scenario: doc.scenarios.find((s) => s.ids.includes('S6.2-digested-bytes')) };
      };
      const without = await run([]);
      assert.equal(without.id, 'not-applicable', JSON.stringify(without));
      assert.match(without.scenario?.not_applicable ?? '', /outside every trusted root.*pass --file-root DIR \(or set CGP_PROVIDER_FILE_ROOTS\)/);
      const withRoot = await run(['--file-root', dir]);
      assert.equal(withRoot.id, 'witnessed', JSON.stringify(withRoot));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a --file-root that is not a directory is one usage error (exit 2) before anything runs', { timeout: 60_000 }, async () => {
    const missing = join(DIR, 'no-such-dir');
    const r = await cli(['stdio', '--file-root', missing, ...PROVIDER]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /^cgp-conformance stdio: --file-root ".*no-such-dir": no such directory/);
    const empty = await cli(['stdio', '--retired-id', '', ...PROVIDER]);
    assert.equal(empty.code, 2, empty.stderr);
    assert.match(empty.stderr, /--retired-id expects a frame id/);
  });

  it('options add to their environment aliases, resolved to absolute paths', () => {
    const env: NodeJS.ProcessEnv = { CGP_PROVIDER_FILE_ROOTS: '/already', CGP_PROVIDER_RETIRED_IDS: 'old_1' };
    applyProviderTargetOptions({ fileRoot: [ROOT, '.'], retiredId: ['frm_a', 'frm_b'] }, env);
    assert.equal(env.CGP_PROVIDER_FILE_ROOTS, ['/already', ROOT, process.cwd()].join(delimiter));
    assert.equal(env.CGP_PROVIDER_RETIRED_IDS, 'old_1,frm_a,frm_b');
    const untouched: NodeJS.ProcessEnv = {};
    applyProviderTargetOptions({}, untouched);
    assert.deepEqual(untouched, {});
    assert.throws(
      () => applyProviderTargetOptions({ retiredId: ['a,b'] }, {}),
      (e: unknown) => e instanceof ConfigError && /comma/.test(e.message),
    );
  });
});
