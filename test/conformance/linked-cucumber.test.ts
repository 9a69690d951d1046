// The linked cucumber (src/conformance/run/linked-cucumber.ts, built by scripts/finish-build.mjs): a suite
// command run on it writes the same messages and JUnit report as a run on the installed cucumber — the same
// step definitions with the same source references, the same results and failure messages — and loads none
// of cucumber's own files; moved away from where the build wrote it (as an installed package is), it still
// tells its own frames from the step definitions'; installLinkedCucumber() loads the link only when a run first
// reads one of its exports, never puts a second cucumber beside
// one already loaded, and leaves a link of another version than the installed one unused; its `world` and
// `context` proxies, which the suites do not use (the link runs steps outside an AsyncLocalStorage), say so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findPackageRoot } from '../../src/util/package-root.js';

const ROOT = findPackageRoot();
const CLI = join(ROOT, 'dist', 'bundle', 'cli.cjs');
const LINK = join(ROOT, 'dist', 'bundle', 'cucumber.cjs');
const require = createRequire(import.meta.url);
const STAND_INS = ['@cucumber/cucumber', '@cucumber/cucumber/api'].map((s) => require.resolve(s)).sort();

/** A messages file without what differs between any two runs: ids, times, durations, attachment bodies. */
function comparable(file: string): unknown[] {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(
        Object.entries(v)
          .filter(([k]) => !/^(id|.*Id|.*Ids|timestamp|duration)$/.test(k))
          .map(([k, x]) => [k, strip(x)]),
      );
    }
    return typeof v === 'string' ? v.replace(/run-[0-9a-f]{12}/g, 'run-…') : v;
  };
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((m) => m.meta === undefined)
    .map((m) => (m.attachment !== undefined ? { attachment: { mediaType: (m.attachment as { mediaType: string }).mediaType } } : strip(m)));
}

test('linked cucumber: a provider suite run on it reports what a run on the installed cucumber reports, and loads none of cucumber\'s files', (t) => {
  if (!existsSync(CLI) || !existsSync(LINK)) return t.skip('dist/ not built: run `npm run build`');
  const dir = mkdtempSync(join(tmpdir(), 'cgp-linked-cucumber-'));
  try {
    // a preload that reports, at exit, the CommonJS modules of cucumber's packages that node loaded (node's
    // ES module loader also leaves unloaded entries in the cache for the files a CommonJS module it imports
    // re-exports: it reads them for their export names, and runs none of them)
    const preload = join(dir, 'report-cucumber.cjs');
    writeFileSync(
      preload,
      "process.on('exit', () => require('node:fs').writeFileSync(process.env.LOADS_OUT, JSON.stringify(Object.entries(require.cache).filter(([k, m]) => m.loaded && /[\\\\/]@cucumber[\\\\/]/.test(k)).map(([k]) => k))));\n",
    );
    const run = (name: string, first: string[]) => {
      const out = join(dir, name);
      const loads = join(dir, `${name}.loads.json`);
      const r = spawnSync(process.execPath, ['--require', preload, ...first, CLI, 'stdio', '--out', out, '--', process.execPath, join(ROOT, 'dist', 'bundle', 'provider.cjs')], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: '', LOADS_OUT: loads },
      });
      assert.equal(r.status, 0, `${name}: ${r.stderr}`);
      return { out, loaded: (JSON.parse(readFileSync(loads, 'utf8')) as string[]).sort(), progress: r.stderr };
    };
    const linked = run('linked', []);
    // cucumber loaded before the CLI starts: the CLI leaves it be and runs on it
    const installed = run('installed', ['--require', require.resolve('@cucumber/cucumber')]);
    assert.deepEqual(linked.loaded, STAND_INS, 'the linked run loads only the two stand-ins');
    assert.ok(installed.loaded.length > 50, `the installed run loads cucumber's own files (${installed.loaded.length})`);
    const messages = (r: { out: string }) => comparable(join(r.out, 'provider-stdio.messages.ndjson'));
    const a = messages(linked);
    const b = messages(installed);
    assert.deepEqual(a, b);
    // the step definitions name their own files (the suite commands' CommonJS step files, compiled where the
    // package is), as they do on the installed cucumber
    const uris = new Set(a.flatMap((m) => ((m as { stepDefinition?: { sourceReference: { uri: string } } }).stepDefinition ? [(m as { stepDefinition: { sourceReference: { uri: string } } }).stepDefinition.sourceReference.uri] : [])));
    assert.deepEqual([...uris].sort(), ['dist/bundle/steps/provider.steps.cjs']);
    const junit = (r: { out: string }) => readFileSync(join(r.out, 'provider-stdio.junit.xml'), 'utf8').replace(/ (time|timestamp)="[^"]*"/g, '');
    assert.equal(junit(linked), junit(installed));
    assert.match(junit(linked), /<testsuites [^>]*tests="83"/);
    // the progress output is the same, its summary's durations (formatted in the link without luxon) included
    const durations = /\b\d+m\d{2}\.\d{3}s\b/g;
    assert.match(linked.progress, /^\d+m\d{2}\.\d{3}s \(executing steps: \d+m\d{2}\.\d{3}s\)$/m);
    assert.equal(linked.progress.replace(durations, '<duration>'), installed.progress.replace(durations, '<duration>'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('linked cucumber: installed once, as the cucumber every import and require of it gets; never beside one already loaded, nor without the link', (t) => {
  if (!existsSync(LINK)) return t.skip('dist/ not built: run `npm run build`');
  const module = JSON.stringify(join(ROOT, 'src', 'conformance', 'run', 'linked-cucumber.ts'));
  const inChild = (script: string): unknown => JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' }));
  assert.deepEqual(
    inChild(`
      import { createRequire } from 'node:module';
      const { installLinkedCucumber, linkedCucumberFile } = await import(${module});
      const require = createRequire(import.meta.url);
      const first = installLinkedCucumber();
      const again = installLinkedCucumber();
      // installed, not loaded: the link loads when the first of its exports is read
      const loadedAtInstall = require.cache[linkedCucumberFile()] !== undefined;
      const stand = require('@cucumber/cucumber');
      const loadedAtRequire = require.cache[linkedCucumberFile()] !== undefined;
      const builder = stand.supportCodeLibraryBuilder;
      const loadedAtRead = require.cache[linkedCucumberFile()] !== undefined;
      const linked = require(linkedCucumberFile());
      const esm = await import('@cucumber/cucumber');
      const api = await import('@cucumber/cucumber/api');
      const names = (o) => Object.keys(o).sort();
      process.stdout.write(JSON.stringify({
        first, again, loadedAtInstall, loadedAtRequire, loadedAtRead,
        required: builder === linked.cucumber.supportCodeLibraryBuilder && JSON.stringify(names(stand)) === JSON.stringify(names(linked.cucumber)),
        every: names(linked.cucumber).every((n) => stand[n] === linked.cucumber[n]) && names(linked.api).every((n) => require('@cucumber/cucumber/api')[n] === linked.api[n]),
        esModule: stand.__esModule === true,
        imported: esm.supportCodeLibraryBuilder === linked.cucumber.supportCodeLibraryBuilder,
        api: api.runCucumber === linked.api.runCucumber,
      }));
    `),
    { first: true, again: true, loadedAtInstall: false, loadedAtRequire: false, loadedAtRead: true, required: true, every: true, esModule: true, imported: true, api: true },
  );
  assert.deepEqual(
    inChild(`
      import { createRequire } from 'node:module';
      const require = createRequire(import.meta.url);
      const installed = require('@cucumber/cucumber');
      const { installLinkedCucumber } = await import(${module});
      process.stdout.write(JSON.stringify({ installed: installLinkedCucumber(), same: require('@cucumber/cucumber') === installed }));
    `),
    { installed: false, same: true },
  );
  assert.deepEqual(
    inChild(`
      const { installLinkedCucumber } = await import(${module});
      process.stdout.write(JSON.stringify({ installed: installLinkedCucumber(null) }));
    `),
    { installed: false },
  );
  // a link of another cucumber version than the installed one is left unused
  const dir = mkdtempSync(join(tmpdir(), 'cgp-linked-version-'));
  try {
    for (const f of ['cucumber.cjs', 'cucumber.code.cjs', 'cucumber.code-cache']) copyFileSync(join(ROOT, 'dist', 'bundle', f), join(dir, f));
    writeFileSync(join(dir, 'cucumber.json'), JSON.stringify({ package: '@cucumber/cucumber', version: '0.0.1' }));
    assert.deepEqual(
      inChild(`
        const { installLinkedCucumber } = await import(${module});
        process.stdout.write(JSON.stringify({ installed: installLinkedCucumber(${JSON.stringify(join(dir, 'cucumber.cjs'))}) }));
      `),
      { installed: false },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('linked cucumber: moved away from where the build wrote it (an installed package), it still tells its own frames from the step definitions\'', (t) => {
  if (!existsSync(LINK)) return t.skip('dist/ not built: run `npm run build`');
  const dir = mkdtempSync(join(tmpdir(), 'cgp-linked-moved-'));
  try {
    // the link copied elsewhere, with its code cache (whose frames keep the build's path)
    const moved = join(dir, 'moved');
    mkdirSync(moved);
    for (const f of ['cucumber.cjs', 'cucumber.code.cjs', 'cucumber.code-cache', 'cucumber.json']) copyFileSync(join(ROOT, 'dist', 'bundle', f), join(moved, f));
    // a one-step feature whose step fails with an error thrown in a helper of its own
    mkdirSync(join(dir, 'features'));
    writeFileSync(join(dir, 'features', 'fails.feature'), 'Feature: moved\n  Scenario: a failing step\n    Given a step that fails\n');
    writeFileSync(
      join(dir, 'steps.mjs'),
      `import { Given } from ${JSON.stringify(join(ROOT, 'node_modules', '@cucumber', 'cucumber', 'lib', 'wrapper.mjs'))};\n` +
        "function helper() {\n  throw new Error('it fails here');\n}\n" +
        "Given('a step that fails', function () {\n  helper();\n});\n",
    );
    const run = (link: string | null): Array<Record<string, unknown>> => {
      const out = join(dir, `${link === null ? 'installed' : 'linked'}.ndjson`);
      const script = `
        import { createRequire } from 'node:module';
        const { installLinkedCucumber } = await import(${JSON.stringify(join(ROOT, 'dist', 'src', 'conformance', 'run', 'linked-cucumber.js'))});
        const installed = installLinkedCucumber(${JSON.stringify(link)});
        if (installed !== ${link !== null}) throw new Error('the link was ' + (installed ? '' : 'not ') + 'installed');
        const require = createRequire(${JSON.stringify(join(ROOT, 'package.json'))});
        const { loadConfiguration, runCucumber } = await import(require.resolve('@cucumber/cucumber/api'));
        const environment = { cwd: ${JSON.stringify(dir)}, stdout: process.stderr, stderr: process.stderr, env: process.env };
        const { runConfiguration } = await loadConfiguration({ file: false, provided: { paths: ['features/*.feature'], import: ['steps.mjs'], format: [['message', ${JSON.stringify(out)}]] } }, environment);
        await runCucumber(runConfiguration, environment);
      `;
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
      assert.equal(r.status, 0, r.stderr);
      return readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    };
    const facts = (messages: Array<Record<string, unknown>>) => {
      const definition = messages.find((m) => m.stepDefinition !== undefined)!.stepDefinition as { sourceReference: unknown };
      const failed = messages.find((m) => (m.testStepFinished as { testStepResult?: { status?: string } } | undefined)?.testStepResult?.status === 'FAILED');
      const stack = ((failed?.testStepFinished as { testStepResult: { exception?: { stackTrace?: string } } }).testStepResult.exception?.stackTrace ?? '').split('\n');
      return { sourceReference: definition.sourceReference, stack: stack.map((l) => l.replace(/:\d+:\d+\)?$/, '')) };
    };
    const linked = facts(run(join(moved, 'cucumber.cjs')));
    const installed = facts(run(null));
    assert.deepEqual(linked.sourceReference, { uri: 'steps.mjs', location: { line: 5 } });
    assert.deepEqual(linked, installed);
    assert.ok(linked.stack.some((l) => l.includes('helper')), linked.stack.join('\n'));
    assert.ok(!linked.stack.some((l) => /cucumber\.code\.cjs/.test(l)), `no frame of the link in the filtered stack:\n${linked.stack.join('\n')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('linked cucumber: its world and context proxies, which no suite uses, say they are not available', (t) => {
  if (!existsSync(LINK)) return t.skip('dist/ not built: run `npm run build`');
  const r = spawnSync(
    process.execPath,
    ['-e', "const { cucumber } = require(process.argv[1]); for (const p of ['world', 'context']) { try { void cucumber[p].x; console.log(p + ': read'); } catch (e) { console.log(p + ': ' + e.message); } }", LINK],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^world: `world` is not available in the cucumber linked for the suite commands of cgp-conformance .*use `this` in steps and hooks$/m);
  assert.match(r.stdout, /^context: `context` is not available in the cucumber linked/m);
});
