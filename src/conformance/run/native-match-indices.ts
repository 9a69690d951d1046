/**
 * Step matching without regexp-tree. cucumber-expressions finds where each parameter of a step
 * sits through `regexp-match-indices`, a polyfill of match indices (the RegExp `d` flag) for runtimes
 * without them: the first time a step definition matches, it parses that definition's regular expression
 * with regexp-tree and rewrites it — about 4 ms per definition here, 180 ms of CPU in a full provider run
 * (45 definitions), nearly nothing in a one-scenario run. Node has had native match indices since 16.
 *
 * Imported before cucumber (run-suite.ts), this module puts an equivalent of the polyfill's export — exec
 * with native indices — in node's module cache under the file cucumber-expressions resolves it to, so the
 * polyfill and regexp-tree are never loaded. The result is the same object the polyfill returns (the match,
 * with `indices` per group, and `indices.groups` for named groups): test/conformance/native-match-indices.test.ts
 * checks it against the polyfill on every step definition and every step of the features. When the
 * packages are laid out differently (nothing resolves), nothing is changed and the polyfill runs as before.
 */
import Module, { createRequire } from 'node:module';
import { execWithIndices } from './exec-with-indices.js';

export { execWithIndices };

/** Where cucumber-expressions (as @cucumber/cucumber loads it) resolves regexp-match-indices, if it does. */
export function polyfillPath(): string | undefined {
  try {
    const fromHere = createRequire(import.meta.url);
    const cucumber = fromHere.resolve('@cucumber/cucumber');
    const expressions = createRequire(cucumber).resolve('@cucumber/cucumber-expressions');
    return createRequire(expressions).resolve('regexp-match-indices');
  } catch {
    return undefined;
  }
}

/** Install execWithIndices in place of the polyfill (idempotent). Returns whether it is in place. */
export function installNativeMatchIndices(): boolean {
  const path = polyfillPath();
  if (path === undefined) return false;
  const cache = createRequire(import.meta.url).cache;
  const existing = cache[path];
  if (existing !== undefined) return existing.exports === execWithIndices;
  const stand = new Module(path);
  stand.filename = path;
  stand.loaded = true;
  stand.exports = execWithIndices;
  cache[path] = stand;
  return true;
}

installNativeMatchIndices();
