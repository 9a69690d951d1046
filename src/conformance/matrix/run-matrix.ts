/**
 * `cgp-conformance matrix FILE`: every implementation of the file (or of one shard of it) through the suite,
 * several at a time, into one site (docs/matrix.md). At most `jobs` runs at once (default
 * os.availableParallelism(): what the machine can run); each is a child process of its own (run-one.ts),
 * bounded by its run_timeout_ms, so one that cannot start or hangs is a column that says so and never stops
 * the others. The columns are put in the file's order whatever order they finish in.
 */
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import { PROTOCOL_VERSION } from '../../protocol/version.js';
import { toolVersion } from '../../util/tool-version.js';
import { ensureReportsDir } from '../run/reports-dir.js';
import { buildColumn, matrixRows } from './column.js';
import { diffMatrices } from './diff.js';
import { shardOf } from './matrix-file.js';
import { runColumn, type CliCommand } from './run-one.js';
import { writeSite } from './site.js';
import type { Column, Implementation, MatrixDoc, MatrixFile } from './types.js';

export interface RunMatrixOptions {
  file: MatrixFile;
  outDir: string;
  cli: CliCommand;
  /** How many runs at once (default os.availableParallelism()). */
  jobs?: number;
  shard?: { index: number; count: number };
  previous?: MatrixDoc;
  /** Called as each column finishes (progress). */
  onColumn?: (column: Column, done: number, of: number) => void;
}

export interface MatrixResult {
  doc: MatrixDoc;
  written: string[];
}

/** Run `worker` over `items`, at most `jobs` at a time; results in the items' order. */
export async function pool<T, R>(items: readonly T[], jobs: number, worker: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await worker(items[i]!);
    }
  });
  await Promise.all(lanes);
  return results;
}

/**
 * The order the runs start in (the columns keep the file's order): longest first, so that no lane is left
 * running one long suite alone at the end. The previous matrix's durations say which are long when it has
 * them all; otherwise host suites (a host process per scenario, and the scripted providers in front of it)
 * go before provider suites, each in file order.
 */
export function runOrder(impls: readonly Implementation[], previous?: MatrixDoc): Implementation[] {
  const took = new Map((previous?.implementations ?? []).map((c) => [c.name, Date.parse(c.finished_at) - Date.parse(c.started_at)]));
  if (impls.every((i) => Number.isFinite(took.get(i.name)))) return [...impls].sort((a, b) => took.get(b.name)! - took.get(a.name)! || a.position - b.position);
  const rank = (i: Implementation) => (i.side === 'host' ? 0 : 1);
  return [...impls].sort((a, b) => rank(a) - rank(b) || a.position - b.position);
}

export function defaultJobs(): number {
  return Math.max(1, availableParallelism());
}

export function matrixDoc(
  file: Pick<MatrixFile, 'path' | 'digest' | 'implementations'>,
  columns: readonly Column[],
  extra: { shard?: { index: number; count: number }; previous?: MatrixDoc } = {},
): MatrixDoc {
  const doc: MatrixDoc = {
    matrix_version: 1,
    tool_version: toolVersion(),
    protocol_version: PROTOCOL_VERSION,
    generated_at: new Date().toISOString(),
    source: { file: basename(file.path), digest: file.digest, implementations: file.implementations.length },
    ...(extra.shard !== undefined ? { shard: extra.shard } : {}),
    rows: matrixRows(),
    implementations: [...columns].sort((a, b) => a.position - b.position),
  };
  if (extra.previous !== undefined) doc.changes = diffMatrices(extra.previous, doc);
  return doc;
}

export async function runMatrix(opts: RunMatrixOptions): Promise<MatrixResult> {
  const dir = ensureReportsDir(opts.outDir);
  const rows = matrixRows();
  const chosen = shardOf(opts.file.implementations, opts.shard);
  let done = 0;
  const columns = await pool(runOrder(chosen, opts.previous), opts.jobs ?? defaultJobs(), async (impl) => {
    const run = await runColumn(impl, join(dir, 'runs', impl.slug), opts.cli);
    const column = buildColumn(run, dir, rows);
    opts.onColumn?.(column, ++done, chosen.length);
    return column;
  });
  const doc = matrixDoc(opts.file, columns, { ...(opts.shard ? { shard: opts.shard } : {}), ...(opts.previous ? { previous: opts.previous } : {}) });
  return { doc, written: writeSite(dir, doc) };
}
