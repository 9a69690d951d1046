/**
 * `cgp-conformance matrix merge DIR…`: the shards of one matrix file (`--shard i/n`, each in its own CI job)
 * combined into one site, the same as one run of the whole file apart from its timestamps
 * (docs/matrix.md "Shards"). Every shard must come from the same file (its digest) and tool version, and
 * each of 1..n must be there exactly once; otherwise it is a usage error naming what is missing.
 */
import { cpSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureReportsDir } from '../run/reports-dir.js';
import { ConfigError } from '../provider-suite/config.js';
import { readMatrixDoc } from './diff.js';
import { matrixDoc, type MatrixResult } from './run-matrix.js';
import { writeSite } from './site.js';
import type { MatrixDoc } from './types.js';

export function mergeShards(dirs: readonly string[], outDir: string, previous?: MatrixDoc): MatrixResult {
  if (dirs.length === 0) throw new ConfigError("matrix merge: give the shards' directories");
  const shards = dirs.map((d) => {
    const p = join(d, 'matrix.json');
    if (!existsSync(p)) throw new ConfigError(`${d}: no matrix.json (not the --out directory of a matrix run)`);
    const doc = readMatrixDoc(p);
    if (doc.shard === undefined) throw new ConfigError(`${p}: not a shard (it was run without --shard)`);
    return { dir: d, doc, shard: doc.shard };
  });
  const first = shards[0]!.doc;
  const count = shards[0]!.shard.count;
  for (const s of shards) {
    if (s.doc.source.digest !== first.source.digest) throw new ConfigError(`${s.dir}: a shard of another matrix file (${s.doc.source.file} ${s.doc.source.digest}, not ${first.source.digest})`);
    if (s.doc.tool_version !== first.tool_version) throw new ConfigError(`${s.dir}: run by cgp-conformance ${s.doc.tool_version}, the others by ${first.tool_version}`);
    if (s.shard.count !== count) throw new ConfigError(`${s.dir}: shard ${s.shard.index}/${s.shard.count} does not split the file like ${shards[0]!.dir} (/${count})`);
  }
  const seen = new Map<number, string>();
  for (const s of shards) {
    if (seen.has(s.shard.index)) throw new ConfigError(`shard ${s.shard.index}/${count} given twice (${seen.get(s.shard.index)} and ${s.dir})`);
    seen.set(s.shard.index, s.dir);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0) throw new ConfigError(`missing shard(s) ${missing.map((i) => `${i}/${count}`).join(', ')}`);
  const dir = ensureReportsDir(outDir);
  const columns = shards.flatMap((s) => s.doc.implementations);
  if (columns.length !== first.source.implementations) throw new ConfigError(`the shards hold ${columns.length} implementations; the file lists ${first.source.implementations}`);
  for (const s of shards) {
    if (resolve(s.dir) === resolve(dir)) continue;
    for (const c of s.doc.implementations) {
      const from = join(s.dir, 'runs', c.slug);
      if (existsSync(from)) cpSync(from, join(dir, 'runs', c.slug), { recursive: true });
    }
  }
  const doc = matrixDoc({ path: first.source.file, digest: first.source.digest, implementations: new Array(first.source.implementations) }, columns, previous ? { previous } : {});
  return { doc, written: writeSite(dir, doc) };
}
