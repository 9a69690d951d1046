/**
 * Cucumber loaded as one file. `@cucumber/cucumber` and what it needs are about 540 CommonJS files: a suite
 * run spends about 0.19 s of CPU resolving and compiling them before its first scenario. The build
 * (scripts/finish-build.mjs, the `cucumber` link) puts the installed cucumber and `@cucumber/cucumber/api`,
 * with the JUnit formatter and every package they require, into dist/bundle/cucumber.code.cjs, with a V8
 * code cache written by the build, like the CLI's own bundle; dist/bundle/cucumber.json records the version
 * it linked.
 *
 * installLinkedCucumber() puts the link's two modules in node's module cache, under the paths those
 * specifiers resolve to from this package. Every later `require` of them, and every `import` (cucumber's
 * ESM entry files import its CommonJS index, which node then takes from the cache), gets the linked copy:
 * the runner (run-suite.ts), the step definitions and the formatters share one cucumber, as they do without
 * the link. Our own modules (steps/, src/) are not in the link, so the step definitions' source references
 * and the stack traces in reports name the same files as before.
 *
 * It must run before any module that imports cucumber is linked by node's ESM loader (the CLI calls it before
 * it loads a suite command's module). It changes nothing, and returns false, when there is no link (a
 * checkout that has not been built: the build fails rather than leave a link out), when the installed
 * cucumber is not the version linked (an install that resolved another one runs that one), or when cucumber
 * is already loaded in this process: one process never holds two cucumbers.
 */
import Module, { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findPackageRoot } from '../../util/package-root.js';

/** What dist/bundle/cucumber.cjs exports: the two modules, as their own files export them. */
interface LinkedModules {
  cucumber: unknown;
  api: unknown;
}

const SPECIFIERS: ReadonlyArray<[specifier: string, key: keyof LinkedModules]> = [
  ['@cucumber/cucumber', 'cucumber'],
  ['@cucumber/cucumber/api', 'api'],
];

let installed: boolean | undefined;

/** The linked build's loader, when the build made one. */
export function linkedCucumberFile(root = findPackageRoot()): string | undefined {
  const file = join(root, 'dist', 'bundle', 'cucumber.cjs');
  return existsSync(file) ? file : undefined;
}

/** The version the link holds (dist/bundle/cucumber.json beside the loader), if it says. */
function linkedVersion(file: string): string | undefined {
  try {
    const v = (JSON.parse(readFileSync(join(file, '..', 'cucumber.json'), 'utf8')) as { version?: unknown }).version;
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Install the linked cucumber in node's module cache (once per process; null: there is no link). Returns whether it is in use. */
export function installLinkedCucumber(file: string | null = linkedCucumberFile() ?? null): boolean {
  if (installed !== undefined) return installed;
  const require = createRequire(import.meta.url);
  const paths = SPECIFIERS.map(([specifier, key]) => ({ path: require.resolve(specifier), key }));
  if (file === null || paths.some(({ path }) => require.cache[path] !== undefined)) return (installed = false);
  const version = (JSON.parse(readFileSync(require.resolve('@cucumber/cucumber/package.json'), 'utf8')) as { version?: unknown }).version;
  if (linkedVersion(file) !== version) return (installed = false);
  const linked = require(file) as LinkedModules;
  for (const { path, key } of paths) {
    const stand = new Module(path);
    stand.filename = path;
    stand.loaded = true;
    stand.exports = linked[key];
    require.cache[path] = stand;
  }
  return (installed = true);
}
