// Completes `tsc -p tsconfig.build.json` (npm run build / prepare): copies the plain-JS files tsc does not
// emit into dist/, makes the bins executable, and bundles the entry points that are started as a fresh
// process many times per run, and the CLI, whose start every command pays (see BUNDLES). Plain Node (no
// tsx): it runs wherever the package builds (esbuild is a devDependency, present wherever `npm run build` /
// `prepare` runs).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const copies = ['src/conformance/host/scripted-provider.cjs', 'src/conformance/host/scripted-relay.bash'];
for (const file of copies) {
  const to = join(root, 'dist', file);
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(join(root, file), to);
}
chmodSync(join(root, 'dist', 'src', 'cli', 'bin.js'), 0o755);

/**
 * One file per entry point that is started as a fresh process many times per run, built from the compiled
 * dist/src JS (the same code, linked ahead of time). A process started from it loads one CommonJS file
 * instead of ~90 ES modules: no module resolution, no ESM loader, one compile (one fresh host
 * process per scenario over the host control protocol; the provider suite spawns the bundled provider per
 * fresh connection). Dependencies are bundled too (an ESM-only one would bring the ESM loader back); their
 * licence comments are kept at the end of the file. ajv's runtime helpers stay require()s of node_modules.
 * keepNames: error classes name themselves from new.target.name, and those names cross the control protocol.
 * import.meta.url (createRequire, findPackageRoot) is the bundle's own file URL.
 *
 * Each bundle is three files: <name>.cjs, the small loader users and the suite start; <name>.code.cjs, the
 * linked code; <name>.code-cache, V8's compiled form of it (bytecode of the functions a short run of the
 * suite executed), written here by a warm-up run (warmUp below). The loader hands the cache to V8 with the
 * code: a node that built it skips parsing and compiling (about 30 ms of every start of the control server),
 * any other node rejects it (V8 checks its version, flags and the source) and compiles as usual. Nothing is
 * written at run time: the cache is only ever written by this build.
 *
 * The CLI's loader also picks how V8 compiles the run (leanCompiling below): a suite command runs without
 * V8's optimizing compiler, every other command with it. As V8 takes a code cache
 * only under the flags that wrote it, the CLI has a cache for each: cli.code-cache (the suite commands' flags)
 * and cli.optimizing.code-cache (the other commands').
 */
const BUNDLES = {
  'control-server': 'dist/src/conformance/host/control-server.js',
  provider: 'dist/src/provider/main.js',
  cli: 'dist/src/cli/bin.js',
};
/**
 * The CLI (the package's bin, dist/bundle/cli.cjs) is started once per run, and its start is every
 * command's: its bundle holds the entry point, the command table and commander only. The chosen command's
 * module stays the compiled ES module it is (dist/src/cli/commands/<name>.js, with what it imports — the
 * suites' step definitions import the same modules, and a second, bundled copy of them would split their
 * state), loaded by the loader's import() (importCommand below): `--version` and `--help` load nothing more.
 */
const ESM_COMMANDS = {
  name: 'cli-commands-stay-modules',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/]src[\\/]cli[\\/]import-command\.js$/ }, () => ({
      loader: 'js',
      contents: `export function importCommand(name) {
  return importModule(require('node:url').pathToFileURL(require('node:path').join(__dirname, '..', 'src', 'cli', 'commands', name + '.js')).href);
}
export function importSuiteCommand(name) {
  return Promise.resolve(require(require('node:path').join(__dirname, 'suite.cjs')).command(name));
}`,
    }));
  },
};
/** The commands that run a suite through cucumber: the ones src/cli/main.ts marks `cucumber: true`. */
const SUITE_COMMANDS = (await import(pathToFileURL(join(root, 'dist', 'src', 'cli', 'main.js')).href)).COMMANDS.filter((c) => c.cucumber).map((c) => c.name);

/**
 * Which runs of the CLI go without V8's optimizing compiler (--no-opt, set before any of the CLI's code is
 * compiled): a suite command's (stdio, http, host, certify). A suite run executes a great deal of code a few
 * times each, in well under a second per suite: what the optimizing compiler would make of its hot functions
 * costs more CPU than it saves (measured with bench/suite.ts: the full provider suite's own process about a
 * sixth less CPU, the host suite and certify about a tenth), and the suite shares the machine's cores with the
 * providers it starts. The other commands (validate, ingest, fuzz, replay, …), which can run long on large
 * input where optimized code pays, and `--version` and `--help`, keep V8's defaults.
 *
 * A flag set at run time also changes what node's own modules are compiled under, and V8 then rejects the
 * code cache node ships them with: each would compile from source (measured: about three times as long).
 * So before it sets the flag, the loader requires the node modules the command's run uses (recorded by the
 * build's warm-up runs, builtinsOf below), which then keep node's cache. The flag is set only on the V8 the
 * build ran on, the one its caches are for and the one the choice was measured on.
 */
const LEAN_FLAGS = '--no-opt';
function leanCompiling(builtins = {}) {
  return `const command = process.argv[2];
// only on the V8 this build measured and warmed up on (any other rejects the code caches too): another V8 may
// name its flags otherwise, and would print an error for a flag it does not know
const lean = ${JSON.stringify(SUITE_COMMANDS)}.includes(command) && process.versions.v8 === ${JSON.stringify(process.versions.v8)};
if (lean) {
  // the node modules this command's run uses, loaded while node's code cache for them still fits
  for (const m of ${JSON.stringify(builtins)}[command] ?? []) require(m);
  // V8's flags for this run (scripts/finish-build.mjs, LEAN_FLAGS), set before any of the CLI's code is compiled
  require('node:v8').setFlagsFromString(${JSON.stringify(LEAN_FLAGS)});
}
const cacheFile = lean ? 'cli.code-cache' : 'cli.optimizing.code-cache';
`;
}

const bundleDir = join(root, 'dist', 'bundle');
/** How every one-file build here is made (the bundles and the linked cucumber). */
const ONE_FILE = { bundle: true, platform: 'node', format: 'cjs', target: 'node20.19', keepNames: true, legalComments: 'eof', logLevel: 'warning' };
rmSync(bundleDir, { recursive: true, force: true });
for (const [name, entry] of Object.entries(BUNDLES)) {
  await build({
    ...ONE_FILE,
    entryPoints: [join(root, entry)],
    outfile: join(bundleDir, `${name}.code.cjs`),
    plugins: name === 'cli' ? [ESM_COMMANDS] : [],
    define: { 'import.meta.url': '__bundle_import_meta_url' },
    banner: {
      js: [
        `// generated by scripts/finish-build.mjs (npm run build) from ${entry}: do not edit (started through ./${name}.cjs)`,
        'const __bundle_import_meta_url = require("node:url").pathToFileURL(__filename).href;',
      ].join('\n'),
    },
  });
  // the entry's hashbang (bin.js) belongs to the loader: the code is run inside a function
  const code = join(bundleDir, `${name}.code.cjs`);
  writeFileSync(code, readFileSync(code, 'utf8').replace(/^#!.*\n/, ''));
  chmodSync(code, 0o644);
  finishBundle(name, entry);
}
chmodSync(join(bundleDir, 'cli.cjs'), 0o755);
await buildSuite();
await linkCucumber();
await indexFeatures();
warmUp();

/**
 * The one-file build of the suite commands: dist/bundle/suite.cjs (with its code and code cache, as the
 * bundles above), holding those commands' modules and everything they import, and dist/bundle/steps/, the
 * step definitions as CommonJS files that cucumber requires (src/conformance/run/support-files.ts). The step
 * files stay files of their own, compiled when a run loads them (about 70 KB): a step definition's source
 * reference and a failed step's stack name the file and line it is on where the package is installed (a frame
 * of code run from a code cache names the path the cache was written at). Each step file takes what it imports
 * from dist/src from the one file (`require('../suite.cjs').module('src/…')`), so that a run holds one copy of
 * every module, as the ES modules did. In the one file, each module's import.meta.url is the URL of the
 * compiled module it was (dist/src/…): what a module finds beside itself (the catalogue, the scripted
 * provider, the compiled step files) it finds as before. Its import()s of files a run names (a host adapter)
 * go through the loader's import(), as in the CLI.
 */
async function buildSuite() {
  const dist = join(root, 'dist');
  const stepsDir = join(dist, 'steps');
  const stepsOut = join(bundleDir, 'steps');
  const stepFiles = listFiles(stepsDir).filter((f) => f.endsWith('.js'));
  const wanted = new Set();
  const stepImports = {
    name: 'steps-import-from-suite',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        if (args.path.startsWith('node:') || args.path === '@cucumber/cucumber') return { path: args.path, external: true };
        if (!args.path.startsWith('.')) return { errors: [{ text: `a step file imports ${args.path}: the build links the step files' imports to dist/src only` }] };
        const target = relative(dist, resolve(args.resolveDir, args.path)).replace(/\\/g, '/');
        // another step file: its CommonJS file (one module, which cucumber requires too)
        if (target.startsWith('steps/')) return { path: args.path.replace(/\.js$/, '.cjs'), external: true };
        if (!/^(src|generated)\//.test(target)) return { errors: [{ text: `a step file imports ${target}, outside dist/src and dist/generated` }] };
        wanted.add(target);
        return { path: `cgp-suite-module:${target}`, external: true };
      });
    },
  };
  await build({
    ...ONE_FILE,
    entryPoints: stepFiles.map((f) => join(stepsDir, f)),
    outdir: stepsOut,
    outExtension: { '.js': '.cjs' },
    plugins: [stepImports],
    banner: { js: '// generated by scripts/finish-build.mjs (npm run build) from dist/steps/: do not edit (required by cucumber in a run of dist/bundle/suite.cjs)' },
  });
  for (const f of stepFiles) {
    const out = join(stepsOut, f.replace(/\.js$/, '.cjs'));
    const text = readFileSync(out, 'utf8');
    if (/\bimport\.meta\b/.test(text)) throw new Error(`suite build: ${f} uses import.meta, which its CommonJS file does not have`);
    const suite = relative(dirname(out), join(bundleDir, 'suite.cjs')).replace(/\\/g, '/');
    writeFileSync(out, text.replace(/require\("cgp-suite-module:([^"]+)"\)/g, (_, m) => `require(${JSON.stringify(suite.startsWith('.') ? suite : `./${suite}`)}).module(${JSON.stringify(m)})`));
  }
  const modules = [...wanted].sort();
  const entry = [
    'const COMMANDS = {',
    ...SUITE_COMMANDS.map((c) => `  ${JSON.stringify(c)}: () => require(${JSON.stringify(`./dist/src/cli/commands/${c}.js`)}),`),
    '};',
    'exports.command = (name) => {',
    '  if (!Object.hasOwn(COMMANDS, name)) throw new Error(`suite.cjs: no suite command ${JSON.stringify(name)}`);',
    '  return COMMANDS[name]();',
    '};',
    'const MODULES = {',
    ...modules.map((m) => `  ${JSON.stringify(m)}: () => require(${JSON.stringify(`./dist/${m}`)}),`),
    '};',
    'exports.module = (name) => {',
    '  if (!Object.hasOwn(MODULES, name)) throw new Error(`suite.cjs: the step files import no module ${JSON.stringify(name)}`);',
    '  return MODULES[name]();',
    '};',
  ].join('\n');
  const devDependencies = Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies ?? {});
  const moduleMeta = {
    name: 'module-meta',
    setup(b) {
      b.onLoad({ filter: /[\\/]dist[\\/](src|generated)[\\/].*\.js$/ }, (args) => {
        const file = relative(dist, args.path).replace(/\\/g, '/');
        let text = readFileSync(args.path, 'utf8');
        text = text.replace(/\bimport\.meta\.url\b/g, `__suite_module_url(${JSON.stringify(file)})`);
        // a computed specifier, and node's own modules (esbuild leaves both as they are)
        text = text.replace(/(?<![\w$.])import\((?!\s*['"](?!node:))/g, 'importModule(');
        return { loader: 'js', contents: text };
      });
    },
  };
  const meta = await build({
    stdin: { contents: entry, resolveDir: root, sourcefile: 'suite-entry.cjs' },
    ...ONE_FILE,
    outfile: join(bundleDir, 'suite.code.cjs'),
    external: ['@cucumber/cucumber', '@cucumber/cucumber/*', ...devDependencies],
    define: { CGP_SUITE_BUNDLE: 'true' },
    plugins: [moduleMeta],
    metafile: true,
    banner: {
      js: [
        `// generated by scripts/finish-build.mjs (npm run build) from the suite commands (${SUITE_COMMANDS.join(', ')}) and the modules their step files import: do not edit (started through ./suite.cjs)`,
        'const __suite_module_url = (file) => require("node:url").pathToFileURL(require("node:path").join(__dirname, "..", file)).href;',
      ].join('\n'),
    },
  });
  const code = readFileSync(join(bundleDir, 'suite.code.cjs'), 'utf8');
  const left = code.match(/(?<![\w$.])import\s*\(/g)?.length ?? 0;
  if (left > 0) throw new Error(`suite build: ${left} import() call(s) left in suite.code.cjs`);
  const cucumberInside = Object.keys(meta.metafile.inputs).filter((i) => /[\\/]@cucumber[\\/]cucumber[\\/]/.test(i));
  if (cucumberInside.length > 0) throw new Error(`suite build: cucumber was linked in (${cucumberInside[0]}): the suites must share the one cucumber a run loads`);
  finishBundle('suite', 'the suite commands');
}

/** The files under a directory, relative to it, `/`-separated, sorted. */
function listFiles(dir, prefix = '') {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listFiles(dir, `${prefix}${e.name}/`) : [`${prefix}${e.name}`]))
    .sort();
}

/** The order of two parameter type names in the link (see linkCucumber): localeCompare's, without ICU for a-z names. */
function parameterTypeNameOrder() {
  return [
    "const a = pt1.name || '', b = pt2.name || '';",
    "        return /^[a-z]*$/.test(a) && /^[a-z]*$/.test(b) ? (a < b ? -1 : a > b ? 1 : 0) : a.localeCompare(b);",
  ].join('\n');
}
/** The progress summary's duration in the link (see linkCucumber): what luxon's m'm'ss.SSS's' prints, by arithmetic. */
function durationSummary() {
  return [
    'function getDurationSummary(durationMsg) {',
    '    // linked by scripts/finish-build.mjs: what luxon formats as m\'m\'ss.SSS\'s\' (the whole milliseconds a Date holds)',
    '    const ms = Math.trunc(messages.TimeConversion.durationToMilliseconds(durationMsg));',
    "    return `${Math.floor(ms / 60000)}m${String(Math.floor((ms % 60000) / 1000)).padStart(2, '0')}.${String(ms % 1000).padStart(3, '0')}s`;",
    '}',
  ].join('\n');
}

/**
 * The two replacements above give what they replace: the order of every two of cucumber-expressions' built-in
 * parameter type names is localeCompare's, and the duration is luxon's text for durations from 0 to days,
 * fractions of a millisecond included.
 */
function checkLinkReplacements() {
  const fromCucumber = createRequire(createRequire(join(root, 'package.json')).resolve('@cucumber/cucumber'));
  const expressions = fromCucumber('@cucumber/cucumber-expressions');
  const messages = fromCucumber('@cucumber/messages');
  const luxon = fromCucumber('luxon');
  const names = [...new expressions.ParameterTypeRegistry().parameterTypes].map((t) => t.name ?? '');
  if (names.length < 5) throw new Error(`linking cucumber: cucumber-expressions defines ${names.length} built-in parameter types, not the ones the link was checked on`);
  const order = new Function('pt1', 'pt2', parameterTypeNameOrder());
  for (const a of names) {
    for (const b of names) {
      if (Math.sign(order({ name: a }, { name: b })) !== Math.sign(a.localeCompare(b))) throw new Error(`linking cucumber: parameter type names ${JSON.stringify(a)} and ${JSON.stringify(b)} are ordered otherwise than by localeCompare`);
    }
  }
  const linked = new Function('messages', `${durationSummary()}\nreturn getDurationSummary;`)(messages);
  const byLuxon = (d) => luxon.Interval.fromDateTimes(new Date(0), new Date(messages.TimeConversion.durationToMilliseconds(d))).toDuration(['minutes', 'seconds', 'milliseconds']).toFormat("m'm'ss.SSS's'");
  for (const ms of [0, 0.4, 1, 9.999, 59, 469.5, 999, 1000, 1001, 59999, 60000, 61234.9, 599999, 3599999, 3600000, 7384567, 86400000 * 3 + 1234]) {
    const d = messages.TimeConversion.millisecondsToDuration(ms);
    if (linked(d) !== byLuxon(d)) throw new Error(`linking cucumber: a duration of ${ms} ms is ${JSON.stringify(linked(d))} in the link, ${JSON.stringify(byLuxon(d))} by luxon`);
  }
}

/**
 * The linked cucumber (src/conformance/run/linked-cucumber.ts): the installed @cucumber/cucumber and its API,
 * with everything they require, as one file with its own code cache, and the version linked
 * (cucumber.json). Only cucumber's code is in it; the suites' own modules stay the files they are. Three things in cucumber's code are
 * adjusted, each checked here (the build fails when one is not where it was, rather than link a cucumber that
 * behaves otherwise):
 * - its dynamic imports (of the formatters, plugins and support files a run names) go through the loader's
 *   own import(): code run from a V8 code cache has none of its own;
 * - the frames of its own code in a stack are the frames of this one file, the packages it linked in
 *   included (filter_stack_trace.js decides that from its own directory, which is now dist/bundle/, whose
 *   parent holds the suites' code): the step definitions' source references and the filtered stacks of
 *   failed steps name the same files as before;
 * - regexp-match-indices is the native exec of exec-with-indices.js (what native-match-indices.ts does for
 *   the unlinked cucumber);
 * and four of the CPU costs a suite run pays for what it does not use are left out, each with the same result:
 * - the scopes behind cucumber's `world` and `context` proxies: every step and hook ran inside an
 *   AsyncLocalStorage, which on node 20 makes every promise of the run pay async hooks. The suites' steps and
 *   hooks use `this` (their World) and never the proxies; in the link the proxies say so when read;
 * - the ordering of parameter types that share a regular expression (cucumber-expressions) compares two names
 *   made of a to z only by their code units, which orders them as localeCompare does, without starting ICU's
 *   collator; any other name is compared by localeCompare as before (checked below on cucumber's built-in
 *   types);
 * - the progress summary's duration ("0m00.469s") is formatted by arithmetic, not by luxon's Intl-backed
 *   formatter (checked below to print the same text as luxon over a range of durations);
 * - a path cucumber is given (a feature file, a step file) with no glob character in it that names a file is
 *   that file, absolute, as glob would find it, without a walk of its directory: a run hands cucumber the
 *   exact files it needs, and cucumber expands them once to load the steps and again to run.
 * Code of cucumber's that reads files beside its own (the html formatter's template, the workers of a parallel
 * run) would look for them beside the link: the suite commands, the only users of the link, use neither.
 */
async function linkCucumber() {
  const edits = [
    {
      file: /[\\/]@cucumber[\\/]cucumber[\\/]lib[\\/](api[\\/]plugins|api[\\/]support|formatter[\\/]builder|formatter[\\/]import_code|configuration[\\/]from_file|runtime[\\/]parallel[\\/]worker)\.js$/,
      from: /\bawait import\((?!['"])/g,
      to: 'await importModule(',
    },
    {
      // The name V8 gives this file's frames is learnt from a frame, not taken from __filename: code run from a
      // V8 code cache keeps the path the cache was written at (this build's dist/bundle/), wherever the
      // package was installed or copied since.
      file: /[\\/]@cucumber[\\/]cucumber[\\/]lib[\\/]filter_stack_trace\.js$/,
      from: /function isFileNameInCucumber\(fileName\) \{\n[^\n]*\n\}/g,
      to: [
        'const linkedFrameFile = (() => {',
        '    const prepare = Error.prepareStackTrace, limit = Error.stackTraceLimit;',
        '    try {',
        '        Error.prepareStackTrace = (_, frames) => frames;',
        '        Error.stackTraceLimit = 1;',
        '        const frames = new Error().stack;',
        '        return (Array.isArray(frames) && frames.length > 0 && frames[0].getFileName()) || __filename;',
        '    } finally {',
        '        Error.prepareStackTrace = prepare;',
        '        Error.stackTraceLimit = limit;',
        '    }',
        '})();',
        'function isFileNameInCucumber(fileName) {',
        '    return fileName === linkedFrameFile;',
        '}',
      ].join('\n'),
    },
  ];
  edits.push(
    {
      file: /[\\/]@cucumber[\\/]cucumber[\\/]lib[\\/]runtime[\\/]scope[\\/]test_(case|run)_scope\.js$/,
      from: /return test(Case|Run)Scope\.run\(store, callback\);|throw new Error\('Attempted to access `(world|context)` from incorrect scope;[^'\n]*'\);/g,
      to: (match) =>
        match.startsWith('return')
          ? 'return callback();'
          : `throw new Error('\`${/`(world|context)`/.exec(match)[1]}\` is not available in the cucumber linked for the suite commands of cgp-conformance (scripts/finish-build.mjs): use \`this\` in steps and hooks');`,
    },
    {
      file: /[\\/]@cucumber[\\/]cucumber-expressions[\\/]dist[\\/]cjs[\\/]src[\\/]ParameterType\.js$/,
      from: /return \(pt1\.name \|\| ''\)\.localeCompare\(pt2\.name \|\| ''\);/g,
      to: parameterTypeNameOrder(),
    },
    {
      file: /[\\/]@cucumber[\\/]cucumber[\\/]lib[\\/]formatter[\\/]helpers[\\/]summary_helpers\.js$/,
      from: /function getDurationSummary\(durationMsg\) \{\n(?:    [^\n]*\n|\s*\]\);\n)*?    return duration\.toFormat\("m'm'ss\.SSS's'"\);\n\}/g,
      to: durationSummary(),
    },
    {
      file: /[\\/]@cucumber[\\/]cucumber[\\/]lib[\\/]paths[\\/]paths\.js$/,
      from: /const matches = await \(0, glob_1\.glob\)\(unexpandedPath, \{/g,
      to: [
        "const literal = /^[^*?[\\]{}()!+@]*$/.test(unexpandedPath) && node_path_1.default.extname(unexpandedPath) !== '' ? node_path_1.default.resolve(cwd, unexpandedPath) : undefined;",
        "        const matches = literal !== undefined && require('node:fs').statSync(literal, { throwIfNoEntry: false })?.isFile() ? [literal] : await (0, glob_1.glob)(unexpandedPath, {",
      ].join('\n'),
    },
  );
  checkLinkReplacements();
  const made = new Map();
  const link = {
    name: 'cucumber-link',
    setup(b) {
      b.onResolve({ filter: /^regexp-match-indices$/ }, () => ({ path: 'regexp-match-indices', namespace: 'native-exec' }));
      b.onLoad({ filter: /.*/, namespace: 'native-exec' }, () => ({
        loader: 'js',
        resolveDir: join(root, 'dist', 'src', 'conformance', 'run'),
        contents: "module.exports = require('./exec-with-indices.js').execWithIndices;",
      }));
      for (const edit of edits) {
        b.onLoad({ filter: edit.file }, (args) => {
          const text = readFileSync(args.path, 'utf8');
          const count = text.match(edit.from)?.length ?? 0;
          made.set(args.path, count);
          return { loader: 'js', contents: text.replace(edit.from, edit.to) };
        });
      }
    },
  };
  await build({
    stdin: {
      contents: "exports.cucumber = require('@cucumber/cucumber');\nexports.api = require('@cucumber/cucumber/api');\n",
      resolveDir: root,
      sourcefile: 'cucumber-link.cjs',
    },
    ...ONE_FILE,
    outfile: join(bundleDir, 'cucumber.code.cjs'),
    plugins: [link],
    banner: { js: '// generated by scripts/finish-build.mjs (npm run build) from @cucumber/cucumber: do not edit (started through ./cucumber.cjs)' },
  });
  // every file an edit names was linked, and each had what the edit changes
  const expected = {
    'cucumber/lib/api/plugins': 1,
    'cucumber/lib/api/support': 1,
    'cucumber/lib/formatter/builder': 1,
    'cucumber/lib/formatter/import_code': 1,
    'cucumber/lib/filter_stack_trace': 1,
    'cucumber/lib/runtime/scope/test_case_scope': 2,
    'cucumber/lib/runtime/scope/test_run_scope': 2,
    'cucumber-expressions/dist/cjs/src/ParameterType': 1,
    'cucumber/lib/formatter/helpers/summary_helpers': 1,
    'cucumber/lib/paths/paths': 1,
  };
  for (const [name, count] of Object.entries(expected)) {
    const hit = [...made].find(([path]) => path.replace(/\\/g, '/').endsWith(`/@cucumber/${name}.js`));
    if (hit === undefined || hit[1] !== count) throw new Error(`linking cucumber: @cucumber/${name}.js ${hit === undefined ? 'was not linked' : `had ${hit[1]} place(s) to adjust, not ${count}`}: this cucumber differs from the one the link was written for`);
  }
  // what the edits leave: no import() of its own (it would fail: see above), and not the polyfill
  const linked = readFileSync(join(bundleDir, 'cucumber.code.cjs'), 'utf8');
  const imports = linked.match(/(?<![\w$.])import\s*\(/g)?.length ?? 0;
  if (imports > 0) throw new Error(`linking cucumber: ${imports} import() call(s) left in the linked file: this cucumber imports code where the link does not know it`);
  if (/[\\/]regexp-tree[\\/]/.test(linked)) throw new Error('linking cucumber: the regexp-match-indices polyfill was linked in: the native exec did not take its place');
  finishBundle('cucumber', '@cucumber/cucumber');
  // the version linked: a run uses the link only where the installed cucumber is this one
  const { version } = JSON.parse(readFileSync(createRequire(join(root, 'package.json')).resolve('@cucumber/cucumber/package.json'), 'utf8'));
  // and the names each of its two modules exports: a run puts stand-ins with those names in node's module
  // cache, and loads the link when the first is read (src/conformance/run/linked-cucumber.ts)
  const names = JSON.parse(
    execFileSync(process.execPath, ['-e', 'const l = require(process.argv[1]); process.stdout.write(JSON.stringify({ cucumber: Object.keys(l.cucumber), api: Object.keys(l.api) }))', join(bundleDir, 'cucumber.cjs')], {
      encoding: 'utf8',
    }),
  );
  writeFileSync(join(bundleDir, 'cucumber.json'), `${JSON.stringify({ package: '@cucumber/cucumber', version, exports: names })}\n`);
}

/**
 * The index of the feature files a run reads its selection from (src/conformance/run/feature-index.ts):
 * dist/bundle/features.json. Each file is parsed with the gherkin parser cucumber uses (resolved from
 * cucumber, as cucumber resolves it), and each pickle gets the line cucumber's own plan gives it (the
 * scenario's, or its Examples row's) and its tags. The build fails unless cucumber's loadSources, on the same
 * files, plans exactly those pickles, with those lines, and selects the same ones for each side's tag.
 */
async function indexFeatures() {
  const { featureDigest, featureFiles, FEATURE_INDEX_VERSION } = await import(pathToFileURL(join(root, 'dist', 'src', 'conformance', 'run', 'feature-index.js')).href);
  const fromCucumber = createRequire(createRequire(join(root, 'package.json')).resolve('@cucumber/cucumber'));
  const gherkin = fromCucumber('@cucumber/gherkin');
  const { IdGenerator, SourceMediaType } = fromCucumber('@cucumber/messages');
  const parseTagExpression = createRequire(join(root, 'package.json'))('@cucumber/tag-expressions').default;
  const dirs = readdirSync(join(root, 'features'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  const features = [];
  for (const uri of featureFiles(root, dirs)) {
    const text = readFileSync(join(root, uri), 'utf8');
    const envelopes = gherkin.generateMessages(text, uri, SourceMediaType.TEXT_X_CUCUMBER_GHERKIN_PLAIN, {
      includeSource: false,
      includeGherkinDocument: true,
      includePickles: true,
      newId: IdGenerator.incrementing(),
    });
    const broken = envelopes.find((e) => e.parseError);
    if (broken) throw new Error(`indexing the features: ${uri} does not parse: ${broken.parseError.message}`);
    const lines = new Map();
    const visit = (children) => {
      for (const c of children ?? []) {
        if (c.rule) visit(c.rule.children);
        const sc = c.scenario;
        if (!sc) continue;
        lines.set(sc.id, sc.location.line);
        for (const ex of sc.examples ?? []) for (const row of ex.tableBody ?? []) lines.set(row.id, row.location.line);
      }
    };
    visit(envelopes.find((e) => e.gherkinDocument)?.gherkinDocument.feature?.children);
    const pickles = envelopes
      .filter((e) => e.pickle)
      .map(({ pickle }) => {
        const line = lines.get(pickle.astNodeIds[pickle.astNodeIds.length - 1]);
        if (line === undefined) throw new Error(`indexing the features: a pickle of ${uri} has no scenario line`);
        return { line, tags: pickle.tags.map((t) => t.name) };
      });
    features.push({ uri, sha256: featureDigest(text), pickles });
  }
  // what cucumber plans from the same files, for each side's tag and for all of them
  const { loadSources } = fromCucumber('@cucumber/cucumber/api');
  for (const [tags, dirsOf] of [[undefined, dirs], ...dirs.map((d) => [`@${d}`, [d]])]) {
    const { plan, errors } = await loadSources({ paths: dirsOf.map((d) => join(root, 'features', d, '**', '*.feature')), defaultDialect: 'en', names: [], order: 'defined', tagExpression: tags ?? '' }, { cwd: root });
    if (errors.length > 0) throw new Error(`indexing the features: cucumber did not parse them: ${errors.map((e) => e.message).join('; ')}`);
    const theirs = plan.map((p) => `${p.uri}:${p.location.line}`).sort();
    const expression = parseTagExpression(tags ?? '');
    const ours = features
      .filter((f) => dirsOf.some((d) => f.uri.startsWith(`features/${d}/`)))
      .flatMap((f) => f.pickles.filter((p) => expression.evaluate(p.tags)).map((p) => `${f.uri}:${p.line}`))
      .sort();
    if (JSON.stringify(theirs) !== JSON.stringify(ours)) {
      throw new Error(`indexing the features: for ${tags ?? 'all of them'} cucumber plans ${theirs.length} pickle(s), the index selects ${ours.length}: ${theirs.filter((t) => !ours.includes(t)).concat(ours.filter((o) => !theirs.includes(o))).slice(0, 5).join(', ')}`);
    }
  }
  writeFileSync(join(bundleDir, 'features.json'), `${JSON.stringify({ version: FEATURE_INDEX_VERSION, features })}\n`);
}

/**
 * A bundle's code made ASCII, and its loader written. esbuild writes every string, template and regular
 * expression as ASCII already; what is left (comments, from the sources and the packages linked in) is
 * written as \u{…} escapes, which mean the same character anywhere JavaScript reads one. The loader then
 * reads the code as Latin-1 (about 1 ms for 2 MB, against about 12 ms to decode it as UTF-8), and V8 gets a
 * one-byte string.
 */
function finishBundle(name, entry) {
  const file = join(bundleDir, `${name}.code.cjs`);
  const text = readFileSync(file, 'utf8').replace(/[^\x00-\x7f]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
  if (!/^[\x00-\x7f]*$/.test(text)) throw new Error(`${name}.code.cjs is not ASCII after escaping`);
  writeFileSync(file, text);
  writeFileSync(join(bundleDir, `${name}.cjs`), loader(name, entry));
}

/** The loader of one bundle: runs <name>.code.cjs as a CommonJS module, with V8's code cache when it fits. */
function loader(name, entry, builtins) {
  return `${name === 'cli' ? '#!/usr/bin/env node\n' : ''}'use strict';
// generated by scripts/finish-build.mjs (npm run build): do not edit. Runs ./${name}.code.cjs (${entry}
// and what it imports, linked into one file) as a CommonJS module, giving V8 the code cache ${name === 'cli' ? "./cli.code-cache (or,\n// for a command that keeps V8's optimizing compiler, ./cli.optimizing.code-cache)" : `./${name}.code-cache`}
// that the build wrote. V8 uses it only when this node is the one that wrote it (same V8, flags and source);
// otherwise it compiles the code as usual. Same code either way.
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { join } = require('node:path');
const { Script } = require('node:vm');
const file = join(__dirname, ${JSON.stringify(`${name}.code.cjs`)});
${name === 'cli' ? leanCompiling(builtins) : `const cacheFile = ${JSON.stringify(`${name}.code-cache`)};
`}let cachedData;
try {
  cachedData = readFileSync(join(__dirname, cacheFile));
} catch {
  // no cache (a build that skipped the warm-up): compile as usual
}
// importModule: this file's own import(), for the code's dynamic imports of ES modules
// the code is ASCII (the build made it so): read as Latin-1, it is the same text, without decoding UTF-8
const wrapped = '(function (exports, require, module, __filename, __dirname, importModule) { ' + readFileSync(file, 'latin1') + '\\n});';
const script = new Script(wrapped, { filename: file, cachedData });
// the build's warm-up only (scripts/finish-build.mjs): write the cache of what this run compiled
const warmDir = process.env.CGP_BUILD_WRITE_CODE_CACHE;
if (warmDir) {
  process.on('exit', () => {
    const to = join(warmDir, cacheFile);
    writeFileSync(to + '.' + process.pid, script.createCachedData());
    renameSync(to + '.' + process.pid, to);
  });
}
const body = new Module(file, module);
body.filename = file;
script.runInThisContext().call(body.exports, body.exports, Module.createRequire(file), body, file, __dirname, (specifier) => import(specifier));
${name === 'cucumber' || name === 'suite' ? 'module.exports = body.exports;\n' : ''}`;
}

/**
 * Per suite command, the node modules its run loads, as the warm-up's host and provider runs recorded them:
 * the CLI's loader requires them before it sets V8's flags (leanCompiling). An HTTP provider run is a
 * provider run over node's HTTP client; certify runs both suites.
 */
function builtinsOf(used) {
  const union = (...lists) => [...new Set(lists.flat())].sort();
  const provider = union(used.stdio);
  const host = union(used.host);
  const lists = { stdio: provider, http: union(provider, ['http']), host, certify: union(provider, host) };
  for (const c of SUITE_COMMANDS) if (lists[c] === undefined || lists[c].length === 0) throw new Error(`build warm-up: no node modules recorded for the ${c} command`);
  return lists;
}

/**
 * The warm-up, with the loaders told to write their code cache at exit: a provider session written here, a
 * few host scenarios through the compiled CLI over the control protocol, and the full provider suite. A bundle
 * that fails any of them fails the build.
 */
function warmUp() {
  const out = mkdtempSync(join(tmpdir(), 'cgp-build-warm-'));
  const env = { ...process.env, CGP_BUILD_WRITE_CODE_CACHE: bundleDir };
  const cli = join(bundleDir, 'cli.cjs');
  const node = process.execPath;
  // each cache holds what this build's warm-up compiled, not what an earlier build's also did
  for (const f of readdirSync(bundleDir)) if (f.endsWith('.code-cache')) rmSync(join(bundleDir, f), { force: true });
  const hostRun = ['host', '--tags', '@F8 or @C6 or @B1', '--out', out, '--cmd', `${JSON.stringify(node)} ${JSON.stringify(join(bundleDir, 'control-server.cjs'))}`];
  try {
    // the provider: a session like the suite's shared connection (the suite ends its connections by killing
    // them, and a killed process writes nothing), ended by shutdown
    const query = (id, extra) =>
      JSON.stringify({ type: 'query', id, query: { goal: 'build warm-up', query_text: 'getting started', kinds: [], anchors: [], max_frames: 64, max_tokens: 65536, ...extra } });
    const session = [
      JSON.stringify({ type: 'handshake', protocol_version: 'contextgraph/1.0' }),
      query('w1', {}),
      query('w2', { kinds: ['doc'], max_tokens: 200 }),
      query('w3', { representation: 'compact' }),
      JSON.stringify({ type: 'shutdown' }),
    ];
    const p = spawnSync(node, [join(bundleDir, 'provider.cjs')], { env, input: session.join('\n') + '\n', encoding: 'utf8' });
    if (p.status !== 0 || !p.stdout.includes('"handshake_ack"')) throw new Error(`build warm-up of the bundled provider exited ${p.status}:\n${p.stderr}${p.stdout}`);
    // a command that keeps V8's optimizing compiler (leanCompiling): `validate` of that session's replies,
    // which writes cli.optimizing.code-cache
    const replies = join(out, 'warm-up-replies.ndjson');
    writeFileSync(replies, p.stdout);
    rmSync(join(bundleDir, 'cli.optimizing.code-cache'), { force: true });
    const v = spawnSync(node, [cli, 'validate', replies], { cwd: root, env, encoding: 'utf8' });
    if (v.status !== 0) throw new Error(`build warm-up \`cgp-conformance validate\` of the bundled provider's replies exited ${v.status}:\n${v.stderr}${v.stdout}`);
    // Then the full provider suite, whose run writes the caches of the CLI, the suites and cucumber anew (a run
    // given a cache writes what it was given too): a cache holds what its run compiled, and V8 reads all of it
    // at every start, so these hold what a provider suite runs — the host suite's own code, which a provider
    // run never calls, compiles as it is first called (measured: a cache of both suites' code, from certify,
    // made the provider suite's own CPU about 8 % more and the host suite's no less).
    const providerRun = ['stdio', '--out', out, '--', node, join(bundleDir, 'provider.cjs')];
    // each run also records the node modules it loaded (builtinsOf)
    const recorder = join(out, 'record-builtins.cjs');
    writeFileSync(
      recorder,
      `process.on('exit', () => {
  const { builtinModules } = require('node:module');
  const loaded = new Set(process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length)));
  require('node:fs').writeFileSync(process.env.CGP_BUILD_BUILTINS_OUT, JSON.stringify(builtinModules.filter((m) => !m.startsWith('_') && loaded.has(m))));
});
`,
    );
    const used = {};
    for (const run of [hostRun, providerRun]) {
      if (run === providerRun) for (const name of ['cli', 'suite', 'cucumber']) rmSync(join(bundleDir, `${name}.code-cache`), { force: true });
      const record = join(out, `builtins-${run[0]}.json`);
      const r = spawnSync(node, ['--require', recorder, cli, ...run], { cwd: root, env: { ...env, CGP_BUILD_BUILTINS_OUT: record }, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`build warm-up \`cgp-conformance ${run.join(' ')}\` exited ${r.status}:\n${r.stderr}${r.stdout}`);
      used[run[0]] = JSON.parse(readFileSync(record, 'utf8'));
    }
    const builtins = builtinsOf(used);
    writeFileSync(join(bundleDir, 'cli.cjs'), loader('cli', BUNDLES.cli, builtins));
    // what the loader does for a suite command, as data: bench/suite.ts's floors load cucumber the same way
    writeFileSync(join(bundleDir, 'cli-lean.json'), `${JSON.stringify({ commands: SUITE_COMMANDS, v8: process.versions.v8, flags: LEAN_FLAGS, builtins })}\n`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  for (const cache of [...[...Object.keys(BUNDLES), 'suite', 'cucumber'].map((name) => `${name}.code-cache`), 'cli.optimizing.code-cache']) {
    if (!existsSync(join(bundleDir, cache))) throw new Error(`build warm-up wrote no code cache ${cache}`);
  }
}
