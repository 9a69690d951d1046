// Shared by the matrix tests: the CLI as a user runs it (here through tsx), and matrix files in a scratch
// directory of their own.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findPackageRoot } from '../../../src/util/package-root.js';
import { cliEnv, runProcess, type Ran } from '../../helpers/run-process.js';

export const ROOT = findPackageRoot();
export const BIN = join(ROOT, 'src', 'cli', 'bin.ts');

export type { Ran };

/** cgp-conformance <args>, with no target variable of the caller's leaking in. */
export function cli(args: string[], opts: { cwd?: string; timeoutMs?: number } = {}): Promise<Ran> {
  return runProcess([process.execPath, '--import', 'tsx', BIN, ...args], { cwd: opts.cwd ?? ROOT, env: cliEnv(), timeoutMs: opts.timeoutMs ?? 240_000 });
}

export function scratch(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `cgp-matrix-${prefix}-`));
}

export function writeMatrix(dir: string, name: string, yaml: string): string {
  const p = join(dir, name);
  writeFileSync(p, yaml);
  return p;
}

/** matrix.json without its timestamps (generated_at, started_at, finished_at). */
export function withoutTimestamps(doc: unknown): unknown {
  return JSON.parse(JSON.stringify(doc, (k, v: unknown) => (k === 'generated_at' || k === 'started_at' || k === 'finished_at' || k === 'previous_generated_at' ? undefined : v)));
}
