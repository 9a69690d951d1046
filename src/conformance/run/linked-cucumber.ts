/**
 * Cucumber loaded as one file. `@cucumber/cucumber` and what it needs are about 540 CommonJS files: a suite
 * run spends about 0.19 s of CPU resolving and compiling them before its first scenario. The build
 * (scripts/finish-build.mjs, the `cucumber` link) puts the installed cucumber and `@cucumber/cucumber/api`,
 * with every package they require, into dist/bundle/cucumber.code.cjs, with a V8 code cache written by the
 * build, like the CLI's own bundle; dist/bundle/cucumber.json records the version it linked and the names
 * each of the two modules exports.
 *
 * installLinkedCucumber() puts the link's two modules in node's module cache, under the paths those
 * specifiers resolve to from this package. Every later `require` of them, and every `import` (cucumber's
 * ESM entry files import its CommonJS index, which node then takes from the cache), gets the linked copy:
 * the runner (run-suite.ts), the step definitions and the formatters share one cucumber, as they do without
 * the link. Our own modules (steps/, src/) are not in the link, so the step definitions' source references
 * and the stack traces in reports name the same files as before.
 *
 * It must run before any module that imports cucumber is linked by node's ESM loader (the CLI calls it before
 * it loads a suite command's module). It loads nothing: the two modules it puts in the cache stand for the
 * link's, export by export (the names the build recorded in cucumber.json), and the link is loaded when the
 * first of them is read — when a run first calls cucumber, so that a suite command starts its target's first
 * process before it spends the CPU of loading cucumber (src/conformance/run/run-suite.ts). It changes nothing, and returns false, when there is no link (a
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

/** What dist/bundle/cucumber.json beside the loader says: the version the link holds and each module's export names. */
interface LinkRecord {
  version?: string;
  exports?: Partial<Record<keyof LinkedModules, string[]>>;
}

function linkRecord(file: string): LinkRecord {
  try {
    const r = JSON.parse(readFileSync(join(file, '..', 'cucumber.json'), 'utf8')) as { version?: unknown; exports?: unknown };
    const names = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((n) => typeof n === 'string') ? (v as string[]) : undefined);
    const exports = r.exports !== null && typeof r.exports === 'object' ? (r.exports as Record<string, unknown>) : {};
    const cucumber = names(exports.cucumber);
    const api = names(exports.api);
    return {
      ...(typeof r.version === 'string' ? { version: r.version } : {}),
      ...(cucumber && api ? { exports: { cucumber, api } } : {}),
    };
  } catch {
    return {};
  }
}

/**
 * The exports of one of the link's modules, read from the link when first read (`load` runs once). Each name is
 * a getter, as in cucumber's own compiled modules; `__esModule` is a value, so that code asking whether the
 * module is an ES module's compiled form loads nothing.
 */
function lazyExports(names: readonly string[], load: () => Record<string, unknown>): Record<string, unknown> {
  const exports: Record<string, unknown> = {};
  Object.defineProperty(exports, '__esModule', { value: true });
  for (const name of names) Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });
  return exports;
}

/** Install the linked cucumber in node's module cache (once per process; null: there is no link). Returns whether it is in use. */
export function installLinkedCucumber(file: string | null = linkedCucumberFile() ?? null): boolean {
  if (installed !== undefined) return installed;
  const require = createRequire(import.meta.url);
  const paths = SPECIFIERS.map(([specifier, key]) => ({ path: require.resolve(specifier), key }));
  if (file === null || paths.some(({ path }) => require.cache[path] !== undefined)) return (installed = false);
  const version = (JSON.parse(readFileSync(require.resolve('@cucumber/cucumber/package.json'), 'utf8')) as { version?: unknown }).version;
  const record = linkRecord(file);
  if (record.version !== version) return (installed = false);
  let linked: LinkedModules | undefined;
  const load = (): LinkedModules => (linked ??= require(file) as LinkedModules);
  // a link whose build recorded no export names is loaded now
  if (record.exports === undefined) load();
  for (const { path, key } of paths) {
    const stand = new Module(path);
    stand.filename = path;
    stand.loaded = true;
    stand.exports = record.exports === undefined ? load()[key] : lazyExports(record.exports[key]!, () => load()[key] as Record<string, unknown>);
    require.cache[path] = stand;
  }
  return (installed = true);
}
