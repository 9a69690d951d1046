/**
 * What a suite run hands cucumber to load: the step definitions a side needs (a provider run loads no host
 * code, and the reverse). Compiled when this module is compiled (dist/steps), TypeScript when it runs under
 * tsx (steps/).
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

/** The support files (ES modules) cucumber imports for a side. */
export function supportFiles(root: string, side: SupportSide): { import: string[] } {
  const dir = COMPILED ? join(root, 'dist', 'steps') : join(root, 'steps');
  if (COMPILED && !existsSync(dir)) throw new Error(`compiled step definitions not found in ${dir}: run \`npm run build\` first`);
  // Under tsx the loader is already active in this process: the .ts steps import directly.
  return { import: SUPPORT[side].map((f) => join(dir, `${f}.${COMPILED ? 'js' : 'ts'}`)) };
}
