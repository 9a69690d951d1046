// The suite commands' one-file build (dist/bundle/suite.cjs, scripts/finish-build.mjs; docs/architecture.md
// "Performance"): a provider suite run through the compiled CLI takes the commands, the runner and every
// module they import from that one file, and its step definitions from the CommonJS step files beside it
// (dist/bundle/steps/), which take their imports from the same file: it imports no ES module of dist/ (the
// messages file is written by the runner itself, not by a formatter cucumber would import by path).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findPackageRoot } from '../../src/util/package-root.js';

const ROOT = findPackageRoot();
const CLI = join(ROOT, 'dist', 'bundle', 'cli.cjs');
const SUITE = join(ROOT, 'dist', 'bundle', 'suite.cjs');

test('suite bundle: a provider suite run loads its code from suite.cjs and the step files beside it, not as ES modules of dist/', (t) => {
  if (!existsSync(CLI) || !existsSync(SUITE)) return t.skip('dist/ not built: run `npm run build`');
  const dir = mkdtempSync(join(tmpdir(), 'cgp-suite-bundle-'));
  try {
    const esmLog = join(dir, 'esm.log');
    const cjsLog = join(dir, 'cjs.json');
    // node's module hooks (they run on a thread of their own): every ES module loaded under dist/
    const hooks = join(dir, 'hooks.mjs');
    writeFileSync(
      hooks,
      `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith(${JSON.stringify(pathToFileURL(join(ROOT, 'dist')).href + '/')}) && context.format === 'module') appendFileSync(${JSON.stringify(esmLog)}, url + '\\n');
  return next(url, context);
}
`,
    );
    const preload = join(dir, 'preload.mjs');
    writeFileSync(
      preload,
      `import { register } from 'node:module';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
register(${JSON.stringify(pathToFileURL(hooks).href)});
const require = createRequire(import.meta.url);
process.on('exit', () => writeFileSync(${JSON.stringify(cjsLog)}, JSON.stringify(Object.keys(require.cache))));
`,
    );
    const r = spawnSync(process.execPath, ['--import', pathToFileURL(preload).href, CLI, 'stdio', '--tags', '@B3 or @H2', '--out', join(dir, 'out'), '--', process.execPath, join(ROOT, 'dist', 'bundle', 'provider.cjs')], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    assert.equal(r.status, 0, r.stderr);
    const esm = existsSync(esmLog) ? readFileSync(esmLog, 'utf8').trim().split('\n').filter(Boolean) : [];
    const rel = (u: string) => u.slice(pathToFileURL(ROOT).href.length + 1);
    // no ES module of the package is loaded: the messages file is written from runCucumber's message callback
    assert.deepEqual([...new Set(esm.map(rel))], []);
    const loaded = (JSON.parse(readFileSync(cjsLog, 'utf8')) as string[]).filter((f) => f.startsWith(join(ROOT, 'dist'))).map((f) => f.slice(ROOT.length + 1).replace(/\\/g, '/'));
    assert.ok(loaded.includes('dist/bundle/suite.cjs'), `suite.cjs loaded: ${loaded.join(', ')}`);
    for (const step of ['world', 'parameters', 'hooks', 'provider.steps']) assert.ok(loaded.includes(`dist/bundle/steps/${step}.cjs`), `${step}.cjs loaded`);
    assert.ok(!loaded.some((f) => f.startsWith('dist/bundle/steps/host/')), 'a provider run loads no host steps');
    // with the build's index current, cucumber parses only the feature files that hold a selected scenario
    const envelopes = readFileSync(join(dir, 'out', 'provider-stdio.messages.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const docs = envelopes.filter((e) => e.gherkinDocument).map((e) => e.gherkinDocument.uri as string);
    const pickleUri = new Map(envelopes.filter((e) => e.pickle).map((e) => [e.pickle.id as string, e.pickle.uri as string]));
    const ran = new Set(envelopes.filter((e) => e.testCase).map((e) => pickleUri.get(e.testCase.pickleId)));
    assert.equal(ran.size, 2, `@B3 and @H2 are scenarios in two files: ${[...ran].join(', ')}`);
    assert.deepEqual(docs.sort(), [...ran].sort(), 'the files parsed are the files run');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('suite bundle: a provider suite run starts its target\'s first process before it loads cucumber', (t) => {
  if (!existsSync(CLI) || !existsSync(SUITE)) return t.skip('dist/ not built: run `npm run build`');
  const dir = mkdtempSync(join(tmpdir(), 'cgp-suite-order-'));
  try {
    const log = join(dir, 'order.log');
    // a preload that logs, in order, each process the CLI starts and the load of the linked cucumber
    const preload = join(dir, 'order.cjs');
    writeFileSync(
      preload,
      `const { appendFileSync } = require('node:fs');
const cp = require('node:child_process');
const Module = require('node:module');
const spawn = cp.spawn;
cp.spawn = function (...args) { appendFileSync(${JSON.stringify(log)}, 'spawn\\n'); return spawn.apply(this, args); };
const load = Module._load;
Module._load = function (request, ...rest) {
  if (/[\\\\/]cucumber\\.cjs$/.test(request)) appendFileSync(${JSON.stringify(log)}, 'cucumber\\n');
  return load.call(this, request, ...rest);
};
`,
    );
    const r = spawnSync(process.execPath, ['--require', preload, CLI, 'stdio', '--tags', '@B3 or @R2', '--out', join(dir, 'out'), '--', process.execPath, join(ROOT, 'dist', 'bundle', 'provider.cjs')], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    assert.equal(r.status, 0, r.stderr);
    const order = readFileSync(log, 'utf8').trim().split('\n');
    assert.equal(order[0], 'spawn', `the first process starts first: ${order.join(', ')}`);
    assert.equal(order.filter((e) => e === 'cucumber').length, 1, `cucumber loaded once: ${order.join(', ')}`);
    assert.ok(order.filter((e) => e === 'spawn').length >= 2, `a fresh connection (@R2) was started too: ${order.join(', ')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bundles: each run of the CLI is given a code cache its V8 takes (the suite commands run without the optimizing compiler, the others, --version too, with it; on another V8 no flag is set)', (t) => {
  if (!existsSync(CLI) || !existsSync(SUITE)) return t.skip('dist/ not built: run `npm run build`');
  const dir = mkdtempSync(join(tmpdir(), 'cgp-code-caches-'));
  try {
    // every script the loaders compile with a code cache, and whether V8 took it
    const preload = join(dir, 'caches.cjs');
    writeFileSync(
      preload,
      `const vm = require('node:vm');
const { basename } = require('node:path');
const Script = vm.Script;
vm.Script = class extends Script {
  constructor(source, options) {
    super(source, options);
    if (options && options.cachedData) require('node:fs').appendFileSync(process.env.CACHES_LOG, basename(options.filename) + ' ' + options.cachedData.length + (this.cachedDataRejected ? ' rejected' : ' taken') + '\\n');
  }
};
`,
    );
    const replies = join(dir, 'replies.ndjson');
    const session = [JSON.stringify({ type: 'handshake', protocol_version: 'contextgraph/1.0' }), JSON.stringify({ type: 'shutdown' })];
    writeFileSync(replies, spawnSync(process.execPath, [join(ROOT, 'dist', 'bundle', 'provider.cjs')], { input: session.join('\n') + '\n', encoding: 'utf8' }).stdout);
    const bundle = join(ROOT, 'dist', 'bundle');
    const cache = (file: string) => readFileSync(join(bundle, file));
    // the loader picks the flags and the cache by the command: a suite command's cache is not a validate run's
    assert.notDeepEqual(cache('cli.code-cache'), cache('cli.optimizing.code-cache'));
    assert.notEqual(cache('cli.code-cache').length, cache('cli.optimizing.code-cache').length);
    const taken = (code: string, file: string) => `${code} ${cache(file).length} taken`;
    const runs: Array<[string[], string[]]> = [
      [['--version'], [taken('cli.code.cjs', 'cli.optimizing.code-cache')]],
      [['validate', replies], [taken('cli.code.cjs', 'cli.optimizing.code-cache')]],
      [
        ['stdio', '--tags', '@B3', '--out', join(dir, 'out'), '--', process.execPath, join(bundle, 'provider.cjs')],
        [taken('cli.code.cjs', 'cli.code-cache'), taken('suite.code.cjs', 'suite.code-cache'), taken('cucumber.code.cjs', 'cucumber.code-cache')],
      ],
    ];
    for (const [args, expected] of runs) {
      const log = join(dir, `${args[0]}.log`);
      const r = spawnSync(process.execPath, ['--require', preload, CLI, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', CACHES_LOG: log } });
      assert.equal(r.status, 0, `${args[0]}: ${r.stderr}`);
      assert.deepEqual(readFileSync(log, 'utf8').trim().split('\n'), expected, `cgp-conformance ${args[0]}`);
    }
    assert.match(readFileSync(CLI, 'utf8'), /setFlagsFromString\("--no-opt"\)/);
    // on another V8 (here: this one, named otherwise) the loader sets no flag: the CLI takes the cache written
    // under V8's defaults, and the suite's and cucumber's caches, written under the suite commands' flags, do not fit
    const otherV8 = join(dir, 'other-v8.cjs');
    writeFileSync(otherV8, "Object.defineProperty(process, 'versions', { value: { ...process.versions, v8: process.versions.v8 + '-other' } });\n");
    const log = join(dir, 'other-v8.log');
    const r = spawnSync(process.execPath, ['--require', otherV8, '--require', preload, CLI, ...runs[2]![0]], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', CACHES_LOG: log } });
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /unrecognized flag/);
    assert.deepEqual(readFileSync(log, 'utf8').trim().split('\n'), [
      taken('cli.code.cjs', 'cli.optimizing.code-cache'),
      `suite.code.cjs ${cache('suite.code-cache').length} rejected`,
      `cucumber.code.cjs ${cache('cucumber.code-cache').length} rejected`,
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bundles: every one-file build is ASCII, as its loader reads it as Latin-1', (t) => {
  const dir = join(ROOT, 'dist', 'bundle');
  if (!existsSync(dir)) return t.skip('dist/ not built: run `npm run build`');
  const codes = readdirSync(dir).filter((f) => f.endsWith('.code.cjs'));
  assert.deepEqual(codes.sort(), ['cli.code.cjs', 'control-server.code.cjs', 'cucumber.code.cjs', 'provider.code.cjs', 'suite.code.cjs']);
  for (const f of codes) {
    const bytes = readFileSync(join(dir, f));
    const at = bytes.findIndex((b) => b > 0x7f);
    assert.equal(at, -1, `${f}: a byte over 0x7f at offset ${at}`);
    assert.match(readFileSync(join(dir, f.replace(/\.code\.cjs$/, '.cjs')), 'utf8'), /readFileSync\(file, 'latin1'\)/, `${f}'s loader reads it as Latin-1`);
  }
});
