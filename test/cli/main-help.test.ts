// The CLI loads only the command a run chose: `--version`, `--help` and `help` load no command module, so
// the program then carries each command as its help line only (src/cli/main.ts). These tests hold those
// lines equal to what each command registers, and check what the one-file CLI (dist/bundle/cli.cjs) loads.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildProgram, COMMANDS } from '../../src/cli/main.js';
import { findPackageRoot } from '../../src/util/package-root.js';

const ROOT = findPackageRoot();
const CLI = join(ROOT, 'dist', 'bundle', 'cli.cjs');

test('the top-level help without loading a command is the help with every command loaded, line for line', async () => {
  const light = await buildProgram();
  const full = await buildProgram(undefined, true);
  assert.deepEqual(
    light.commands.map((c) => c.name()),
    full.commands.map((c) => c.name()),
  );
  assert.equal(light.helpInformation(), full.helpInformation());
  for (const c of full.commands) {
    const entry = COMMANDS.find((e) => e.name === c.name());
    assert.ok(entry, c.name());
    assert.equal(entry.description, c.description(), `${c.name()}: the description in the command table`);
    assert.equal(entry.term, full.createHelp().subcommandTerm(c), `${c.name()}: the term in the command table`);
  }
});

test('a chosen command is the only one registered', async () => {
  const p = await buildProgram('explain');
  assert.deepEqual(
    p.commands.map((c) => c.name()),
    ['explain'],
  );
});

test('dist/bundle/cli.cjs: --version and --help load no module but the CLI bundle, and no ES module at all; a command loads its module', (t) => {
  if (!existsSync(CLI)) return t.skip('dist/ not built: run `npm run build`');
  const dir = mkdtempSync(join(tmpdir(), 'cgp-cli-loads-'));
  try {
    // a preload that reports, at exit, every CommonJS module and whether node's ES module loader ever ran
    const preload = join(dir, 'report-loads.cjs');
    writeFileSync(
      preload,
      "process.on('exit', () => require('node:fs').writeFileSync(process.env.LOADS_OUT, JSON.stringify({ cjs: Object.keys(require.cache), esm: process.moduleLoadList.some((m) => m.includes('internal/modules/esm/module_job')) })));\n",
    );
    const loads = (args: string[]) => {
      const out = join(dir, 'loads.json');
      const r = spawnSync(process.execPath, ['--require', preload, CLI, ...args], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', LOADS_OUT: out } });
      assert.equal(r.status, 0, r.stderr);
      return { stdout: r.stdout, ...(JSON.parse(readFileSync(out, 'utf8')) as { cjs: string[]; esm: boolean }) };
    };
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
    for (const args of [['--version'], ['--help'], ['help']]) {
      const l = loads(args);
      assert.deepEqual(l.cjs, [preload, CLI], `${args.join(' ')}: CommonJS modules loaded`);
      assert.equal(l.esm, false, `${args.join(' ')}: no ES module loaded`);
      if (args[0] === '--version') assert.equal(l.stdout.trim(), version);
      else assert.match(l.stdout, /^Usage: cgp-conformance \[options\] \[command\]/);
    }
    const e = loads(['explain', 'B3']);
    assert.equal(e.esm, true, 'explain loads its command module');
    assert.match(e.stdout, /^B3 — MUST/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
