/**
 * Where a run's files go: `--out DIR` (alias `--reports-dir`), else CGP_REPORTS_DIR, else ./cgp-reports in
 * the current directory — never inside the installed package (node_modules may be read-only). Created on
 * demand, when something is written.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../provider-suite/config.js';

export const DEFAULT_REPORTS_DIR = 'cgp-reports';

export function resolveReportsDir(explicit?: string, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  if (explicit !== undefined && explicit !== '') return resolve(cwd, explicit);
  const fromEnv = env.CGP_REPORTS_DIR;
  if (fromEnv !== undefined && fromEnv.trim() !== '') return resolve(cwd, fromEnv);
  return resolve(cwd, DEFAULT_REPORTS_DIR);
}

/** Create the directory; a failure is a configuration error naming the directory. */
export function ensureReportsDir(dir: string): string {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new ConfigError(`cannot create the reports directory ${dir} (${code}): choose another with --out DIR or CGP_REPORTS_DIR`);
  }
  return dir;
}
