/**
 * What a suite run hands cucumber to load: the step definitions a side needs (a provider run loads no host
 * code, and the reverse). Compiled when this module is compiled (dist/),
 * TypeScript when it runs under tsx, and in the one-file build of the suite commands (dist/bundle/suite.cjs,
 * scripts/finish-build.mjs) the CommonJS step files that build wrote beside it (dist/bundle/steps/): the same
 * step definitions, each importing what it uses from the one file, so that one process holds one copy of
 * every module.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type SupportSide = 'provider' | 'host' | 'all';

/** Per side, the step modules under steps/ (globs, each expanded and sorted as cucumber expands an import path). */
export const SUPPORT: Record<SupportSide, readonly string[]> = {
  provider: ['world', 'parameters', 'hooks', 'provider.steps', 'provider-edges.steps'],
  host: ['world', 'parameters', 'host/**/*', 'types.steps'],
  all: ['**/*'],
};

/** This module runs compiled (dist/) rather than as TypeScript under tsx: what it hands cucumber follows suit. */
const COMPILED = fileURLToPath(import.meta.url).endsWith('.js');

// Defined (true) by the one-file build of the suite commands only: elsewhere an undeclared name, whose typeof
// is 'undefined'.
declare const CGP_SUITE_BUNDLE: boolean | undefined;
const IN_SUITE_BUNDLE = typeof CGP_SUITE_BUNDLE !== 'undefined' && CGP_SUITE_BUNDLE === true;

/** The support files cucumber loads for a side: ES modules it imports, or (in the one-file build) CommonJS files it requires. */
export function supportFiles(root: string, side: SupportSide): { import: string[] } | { require: string[] } {
  if (IN_SUITE_BUNDLE) return { require: SUPPORT[side].map((f) => join(root, 'dist', 'bundle', 'steps', `${f}.cjs`)) };
  const dir = COMPILED ? join(root, 'dist', 'steps') : join(root, 'steps');
  if (COMPILED && !existsSync(dir)) throw new Error(`compiled step definitions not found in ${dir}: run \`npm run build\` first`);
  // Under tsx the loader is already active in this process: the .ts steps import directly.
  return { import: SUPPORT[side].map((f) => join(dir, `${f}.${COMPILED ? 'js' : 'ts'}`)) };
}
