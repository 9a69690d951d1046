// The package as users install it (issue: adoption): `npm pack`, install the tarball into a fresh project,
// make its node_modules read-only, and there run what the README tells a user to run. Each must exit 0,
// its reports must land in the project (./cgp-reports), and node_modules must be byte-for-byte unchanged
// (a hash of its whole tree before and after) — nothing a user runs writes into the package or needs a
// devDependency (tsx, typescript, …: the consumer project has none of them).
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { findPackageRoot } from '../../src/util/package-root.js';

const ROOT = findPackageRoot();
const project = mkdtempSync(join(tmpdir(), 'cgp-consumer-'));
const modules = join(project, 'node_modules');
const installed = join(modules, 'cgp-conformance');
const provider = join(installed, 'dist', 'src', 'provider', 'main.js');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(command: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): SpawnSyncReturns<string> {
  // the consumer's environment: no CGP_* left over from the developer's shell, no tsx loader
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '' };
  for (const k of Object.keys(env)) if (k.startsWith('CGP_')) delete env[k];
  const r = spawnSync(command, args, { cwd: opts.cwd, encoding: 'utf8', env: { ...env, ...opts.env }, timeout: opts.timeoutMs ?? 240_000 });
  if (r.error) throw r.error;
  return r;
}

/** sha256 over every file's path and bytes (and every directory's path), in a stable order. */
function treeHash(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = statSync(p);
      h.update(`${p.slice(dir.length)}\0${st.isDirectory() ? 'd' : st.size}\0`);
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) h.update(readFileSync(p));
    }
  };
  walk(dir);
  return h.digest('hex');
}

function setWritable(dir: string, writable: boolean): void {
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      if (!st.isSymbolicLink()) chmodSync(p, writable ? st.mode | 0o200 : st.mode & ~0o222);
    }
    const st = statSync(d);
    chmodSync(d, writable ? st.mode | 0o200 : st.mode & ~0o222);
  };
  walk(dir);
}

let before0 = '';

describe('the installed package (npm pack → npm install → read-only node_modules)', { timeout: 900_000 }, () => {
  before(() => {
    // dist/ is built once, before the tests (npm test builds it first; npm ci through prepare): packing runs no
    // script, so the checkout is never rebuilt under the tests that read it
    assert.ok(existsSync(join(ROOT, 'dist', 'bundle', 'cli.cjs')), 'dist/ is built (npm run build) before this test packs it');
    const pack = run(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', project], { cwd: ROOT, timeoutMs: 300_000 });
    assert.equal(pack.status, 0, pack.stderr);
    const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as Array<{ filename: string; entryCount: number; size: number }>;
    assert.ok(info, 'npm pack reported its tarball');
    for (const f of ['test/', 'bench/', 'reports/', '.ci/', 'src/', 'scripts/']) {
      assert.ok(!(info as unknown as { files: Array<{ path: string }> }).files.some((x) => x.path.startsWith(f)), `the tarball ships no ${f}`);
    }
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
    const install = run(npm, ['install', '--no-audit', '--no-fund', '--omit=dev', join(project, info.filename)], { cwd: project, timeoutMs: 300_000 });
    assert.equal(install.status, 0, install.stderr);
    assert.ok(existsSync(provider), 'the compiled bundled provider is installed');
    assert.ok(!existsSync(join(modules, 'tsx')) && !existsSync(join(modules, 'typescript')), 'no devDependency of cgp-conformance is installed');
    setWritable(modules, false);
    before0 = treeHash(modules);
  });

  after(() => {
    if (existsSync(modules)) setWritable(modules, true);
    rmSync(project, { recursive: true, force: true });
  });

  const npx = (args: string[], env?: NodeJS.ProcessEnv) => run(npm, ['exec', '--offline', '--', ...args], { cwd: project, ...(env ? { env } : {}) });

  it('npx cgp-conformance stdio -- <the installed bundled provider>: exit 0, reports in ./cgp-reports', () => {
    const r = npx(['cgp-conformance', 'stdio', '--', process.execPath, provider]);
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /\d+ scenarios: \d+ passed, 0 failed/);
    assert.ok(existsSync(join(project, 'cgp-reports', 'provider-stdio.messages.ndjson')));
  });

  it('npx cgp-conformance host: exit 0', () => {
    const r = npx(['cgp-conformance', 'host']);
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /scenarios: \d+ passed, 0 failed/);
    assert.ok(existsSync(join(project, 'cgp-reports', 'host.messages.ndjson')));
  });

  it('npx cgp-conformance host --cmd "node node_modules/cgp-conformance/dist/bundle/control-server.cjs" (the documented bundle): exit 0', () => {
    const r = npx(['cgp-conformance', 'host', '--tags', '@C6 or @H3', '--cmd', `${JSON.stringify(process.execPath)} node_modules/cgp-conformance/dist/bundle/control-server.cjs`]);
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /scenarios: [1-9]\d* passed, 0 failed/);
  });

  it('npx cgp-conformance certify: exit 0, merged coverage 61/61 in ./cgp-reports', () => {
    const r = npx(['cgp-conformance', 'certify']);
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /coverage: 61 witnessed, 0 warning, 0 failed, 0 unwitnessed/);
    const coverage = JSON.parse(readFileSync(join(project, 'cgp-reports', 'coverage.json'), 'utf8')) as { summary: { witnessed: number } };
    assert.equal(coverage.summary.witnessed, 61);
    for (const f of ['coverage.md', 'coverage.html', 'badge.svg']) assert.ok(existsSync(join(project, 'cgp-reports', f)), f);
  });

  it('CGP_PROVIDER=… npx cucumber-js --tags @B3 with the documented one-line cucumber.mjs: exit 0', () => {
    writeFileSync(join(project, 'cucumber.mjs'), "export { default } from 'cgp-conformance/cucumber';\n");
    const r = npx(['cucumber-js', '--tags', '@B3'], { CGP_PROVIDER: `${JSON.stringify(process.execPath)} ${JSON.stringify(provider)}` });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /\d+ scenarios? \(\d+ passed\)/);
  });

  it('the typed entry points resolve from the consumer project', () => {
    const r = run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const p = await import('cgp-conformance/protocol'); const a = await import('cgp-conformance/attest'); const m = await import('cgp-conformance'); console.log(typeof p.checkFrame, typeof a.merkleRoot, typeof m.runSuite)",
      ],
      { cwd: project },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'function function function');
    for (const d of ['dist/src/host/under-test.d.ts', 'dist/src/protocol/index.d.ts', 'dist/src/attest/index.d.ts', 'dist/src/index.d.ts']) assert.ok(existsSync(join(installed, d)), d);
  });

  it('explain, inspect and the CI kit read SPEC.md, docs/, features/ and schema/ from the installed package', () => {
    const e = npx(['cgp-conformance', 'explain', 'B4']);
    assert.equal(e.status, 0, e.stderr);
    assert.match(e.stdout, /SPEC\.md line \d+:\n {4}\| # \| Requirement/);
    assert.match(e.stdout, /features\/provider\/budget\.feature:45 {2}max_frames 1 returns at most one frame/);
    assert.match(e.stdout, /provider mode ignore-max-frames/);
    const i = npx(['cgp-conformance', 'inspect', '--', process.execPath, provider]);
    assert.equal(i.status, 0, i.stderr);
    assert.match(i.stdout, /^frm_getting_started +doc +full +59 +yes +yes/m);
    const s = npx([
      'cgp-conformance',
      'stdio',
      '--tags',
      '@B4',
      '--html',
      'page.html',
      '--junit',
      'b4.xml',
      '--bug-report',
      'bugs',
      '--',
      process.execPath,
      provider,
      '--misbehave',
      'ignore-max-frames',
    ]);
    assert.equal(s.status, 1, s.stderr);
    assert.match(readFileSync(join(project, 'bugs', 'B4.md'), 'utf8'), /^# `B4` violated: /);
    assert.match(readFileSync(join(project, 'page.html'), 'utf8'), /<section id="spec-7"><pre>## 7\. Budget honesty/);
    assert.match(readFileSync(join(project, 'b4.xml'), 'utf8'), /<testsuites name="cgp-conformance: example-docs 0\.1\.0"/);
  });

  it("the bin is the CLI's bundle; the package ships JavaScript only (no V8 code cache, nothing compiled for one node)", () => {
    const bin = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };
    assert.equal(bin.bin['cgp-conformance'], 'dist/bundle/cli.cjs');
    const v = npx(['cgp-conformance', '--version']);
    assert.equal(v.status, 0, v.stderr);
    assert.equal(v.stdout.trim(), bin.version);
    const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
    const shipped = files(join(installed, 'dist'));
    assert.deepEqual(
      shipped.filter((f) => !/\.(js|cjs|d\.ts|json|bash)$/.test(f)),
      [],
      'dist/ holds JavaScript, declarations, JSON and the relay script only',
    );
  });

  it('node_modules is unchanged after every run (tree hash before = after)', () => {
    assert.equal(treeHash(modules), before0);
  });
});
