// Step matching with native match indices (src/conformance/run/native-match-indices.ts): the stand-in
// gives what the regexp-match-indices polyfill gives, on every step definition of both suites against every
// step of the features, and a suite run uses it (regexp-tree is never loaded).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { execWithIndices, polyfillPath } from '../../src/conformance/run/native-match-indices.js';
import { findPackageRoot } from '../../src/util/package-root.js';

const ROOT = findPackageRoot();
const require = createRequire(import.meta.url);

function featureFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? featureFiles(join(dir, e.name)) : e.name.endsWith('.feature') ? [join(dir, e.name)] : []));
}

/** Every step text of every pickle of the features (outlines expanded). */
function stepTexts(): string[] {
  const gherkin = require(createRequire(require.resolve('@cucumber/cucumber')).resolve('@cucumber/gherkin')) as typeof import('@cucumber/gherkin');
  const messages = require(createRequire(require.resolve('@cucumber/cucumber')).resolve('@cucumber/messages')) as typeof import('@cucumber/messages');
  const texts = new Set<string>();
  for (const file of featureFiles(join(ROOT, 'features'))) {
    const envelopes = gherkin.generateMessages(readFileSync(file, 'utf8'), file, messages.SourceMediaType.TEXT_X_CUCUMBER_GHERKIN_PLAIN, {
      includeSource: false,
      includeGherkinDocument: false,
      includePickles: true,
      newId: messages.IdGenerator.incrementing(),
    });
    for (const e of envelopes) for (const s of e.pickle?.steps ?? []) texts.add(s.text);
  }
  return [...texts];
}

/** What a match tells cucumber-expressions: the groups, where the match and each group sit, named groups. */
function shape(m: RegExpExecArray | null): unknown {
  if (m === null) return null;
  const indices = (m as unknown as { indices: Array<[number, number] | undefined> & { groups?: Record<string, unknown> } }).indices;
  return { groups: [...m], index: m.index, indices: [...indices].map((i) => (i === undefined ? null : [...i])), named: indices.groups === undefined ? null : { ...indices.groups } };
}

test('native match indices: the same result as the polyfill for every step definition of both suites on every feature step', async () => {
  const path = polyfillPath();
  assert.ok(path, 'regexp-match-indices resolves from cucumber-expressions (the layout this package installs)');
  // the polyfill itself, by its implementation file (the cache entry for its index is the stand-in)
  const polyfill = require(join(path!, '..', 'implementation.js')) as (this: RegExp, text: string) => RegExpExecArray | null;
  const { loadConfiguration, loadSupport } = await import('@cucumber/cucumber/api');
  const environment = { cwd: ROOT, stdout: process.stderr, stderr: process.stderr, env: process.env };
  const { runConfiguration } = await loadConfiguration({ file: false, provided: { paths: [join(ROOT, 'features', 'host', 'consent.feature')], import: [join(ROOT, 'steps', '**', '*.ts')] } }, environment);
  const library = await loadSupport(runConfiguration, environment);
  // the library is opaque in the API types; its step definitions carry their compiled expression
  const regexps = (library as unknown as { stepDefinitions: Array<{ expression: { regexp: RegExp } }> }).stepDefinitions.map((d) => d.expression.regexp);
  assert.ok(regexps.length >= 60, `${regexps.length} step definitions`);
  const texts = stepTexts();
  assert.ok(texts.length >= 200, `${texts.length} step texts`);
  let matched = 0;
  for (const re of regexps) {
    for (const text of texts) {
      const want = shape(polyfill.call(re, text));
      const got = shape(execWithIndices(re, text));
      assert.deepEqual(got, want, `${re} on ${JSON.stringify(text)}`);
      if (want !== null) matched++;
    }
  }
  assert.ok(matched >= texts.length, `${matched} matches: every step text is matched by some definition`);
  // named groups and flags the step definitions do not use
  for (const [re, text] of [
    [/(?<a>x)(y)?/g, 'zzxq'],
    [/(a)|(b)/y, 'b'],
    [/\d+/i, 'no digits'],
  ] as const) {
    re.lastIndex = 0;
    const want = shape(polyfill.call(re, text));
    const after = re.lastIndex;
    re.lastIndex = 0;
    assert.deepEqual(shape(execWithIndices(re, text)), want, String(re));
    assert.equal(re.lastIndex, after, `${re}: lastIndex as the polyfill leaves it`);
  }
});

test('native match indices: in place in a suite run; the polyfill and regexp-tree are never loaded', () => {
  // a process of its own: the test above loads the polyfill (and regexp-tree) on purpose
  const script = `
    import { createRequire } from 'node:module';
    import { mkdtempSync } from 'node:fs';
    import { tmpdir } from 'node:os';
    import { join } from 'node:path';
    const { runSuite } = await import(${JSON.stringify(join(ROOT, 'src', 'conformance', 'run', 'run-suite.ts'))});
    const { execWithIndices, polyfillPath } = await import(${JSON.stringify(join(ROOT, 'src', 'conformance', 'run', 'native-match-indices.ts'))});
    const r = await runSuite({ side: 'provider', tags: '@B3', reportName: 'indices', reportsDir: mkdtempSync(join(tmpdir(), 'cgp-indices-')), progress: null, target: { kind: 'in-process' } });
    const cache = createRequire(import.meta.url).cache;
    process.stdout.write(JSON.stringify({ success: r.success, standIn: cache[polyfillPath()]?.exports === execWithIndices, regexpTree: Object.keys(cache).filter((k) => /[\\/]regexp-tree[\\/]/.test(k)) }));
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  assert.deepEqual(JSON.parse(out), { success: true, standIn: true, regexpTree: [] });
});

test('native match indices: a text without the literal start every match must have is no match, and no other text is refused for it', () => {
  const cases: Array<[RegExp, string, boolean]> = [
    [/^the harness queries with max_frames (\d+)$/, 'the harness queries with max_frames 3', true],
    [/^the harness queries with max_frames (\d+)$/, 'the host queries', false],
    [/^abc?d$/, 'abd', true], // the character a quantifier follows is not required
    [/^ab{0}c$/, 'ac', true],
    [/^a*b$/, 'b', true],
    [/^foo|bar$/, 'xbar', true], // an alternative: no literal start
    [/^Hello$/i, 'hello', true], // case-insensitive: no literal start
    [/^x$/m, 'y\nx', true], // multiline: ^ after any newline
    [/^a\.b$/, 'a.b', true],
    [/^a\.b$/, 'axb', false],
    [/^(?:a|b)c$/, 'bc', true],
    [/b/, 'abc', true], // unanchored
  ];
  for (const [re, text, matches] of cases) {
    assert.equal(execWithIndices(re, text) !== null, matches, `${re} on ${JSON.stringify(text)}`);
    assert.equal(execWithIndices(re, text) !== null, matches, `${re} on ${JSON.stringify(text)}, asked again`);
  }
});
