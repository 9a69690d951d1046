// The repository root holds only what a reader expects there (docs/architecture.md "Repository layout"):
// a stray trace, log or profile committed at the root fails here, not in a reviewer's eye.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { findPackageRoot } from '../../src/util/package-root.js';

/** Files allowed at the root. Add one only with a reason a newcomer would accept. */
const ROOT_FILES = new Set([
  '.gitignore',
  'CONTRIBUTING.md',
  'README.md',
  // the composite action (one `uses:` step in a provider's or host's CI): GitHub reads it only from the root
  'action.yml',
  'SPEC.md',
  'cucumber.mjs',
  'eslint.config.mjs',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'tsconfig.scripts.json',
]);

/** Folders allowed at the root (each is described in docs/architecture.md). */
const ROOT_DIRS = new Set(['.ci', 'assets', 'bench', 'docs', 'examples', 'features', 'fixtures', 'generated', 'reports', 'schema', 'scripts', 'src', 'steps', 'test', 'vectors']);

test('every tracked entry at the repository root is on the allow-list', () => {
  const root = findPackageRoot();
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  assert.ok(tracked.length > 0, 'git ls-files listed nothing: not a checkout?');
  const strays = new Set<string>();
  for (const path of tracked) {
    const slash = path.indexOf('/');
    if (slash === -1 ? !ROOT_FILES.has(path) : !ROOT_DIRS.has(path.slice(0, slash))) strays.add(slash === -1 ? path : `${path.slice(0, slash)}/`);
  }
  assert.deepEqual([...strays].sort(), [], `not on the root allow-list (test/repo/root-files.test.ts): ${[...strays].join(', ')}`);
});
