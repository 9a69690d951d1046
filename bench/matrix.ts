// The conformance matrix against the sum of its single runs (docs/matrix.md "How fast it is"):
//
//   npm run build && npx tsx bench/matrix.ts [--runs 3]
//
// Eight implementations — the bundled provider over stdio and over HTTP, `ingest --serve`, three misbehaviour
// modes, the bundled host and examples/python-host — run (A) as one `cgp-conformance matrix` process and (B)
// one after another, each as the single-target command a user runs (the same arguments the matrix gives its
// columns; the HTTP provider's start command started and stopped around its run in both), interleaved
// A, B, B, A, A, B, … so a change in the machine's load hits both. Both sides run the compiled CLI
// (dist/bundle/cli.cjs). Printed: each round's figures, the median ratio A / B (target ≤ 0.75 on 2 cores),
// and whether every cell of the matrix is the status the single run gave (it must be).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildColumn, matrixRows } from '../src/conformance/matrix/column.js';
import { readMatrixFile } from '../src/conformance/matrix/matrix-file.js';
import { runColumn } from '../src/conformance/matrix/run-one.js';
import type { Column, MatrixDoc } from '../src/conformance/matrix/types.js';
import { findPackageRoot } from '../src/util/package-root.js';
import { median, seconds, timeProcess } from './lib/timing.js';

const ROOT = findPackageRoot();
const CLI = join(ROOT, 'dist', 'bundle', 'cli.cjs');
const PROVIDER = join(ROOT, 'dist', 'bundle', 'provider.cjs');
const argRuns = process.argv.indexOf('--runs');
const RUNS = argRuns > 0 ? Number(process.argv[argRuns + 1]) : 3;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const dir = mkdtempSync(join(tmpdir(), 'cgp-bench-matrix-'));
const file = join(dir, 'matrix.yml');
const q = (s: string) => JSON.stringify(s);
writeFileSync(
  file,
  `implementations:
  - { name: provider stdio, side: provider, stdio: [node, ${q(PROVIDER)}] }
  - { name: provider http, side: provider, url: "http://127.0.0.1:\${PORT}/", start: [node, ${q(PROVIDER)}, --http, "\${PORT}"] }
  - { name: ingest serve, side: provider, stdio: [node, ${q(CLI)}, ingest, --serve, ${q(join(ROOT, 'fixtures/ingest/worked-example/retry.log'))}, ${q(join(ROOT, 'fixtures/ingest/worked-example/trace.txt'))}] }
  - { name: ignore-max-frames, side: provider, stdio: [node, ${q(PROVIDER)}, --misbehave, ignore-max-frames] }
  - { name: bad-score, side: provider, stdio: [node, ${q(PROVIDER)}, --misbehave, bad-score] }
  - { name: scope-lie, side: provider, stdio: [node, ${q(PROVIDER)}, --misbehave, scope-lie] }
  - { name: bundled host, side: host, bundled: true }
  - { name: python host, side: host, cmd: python3 ${join(ROOT, 'examples/python-host/host.py')} }
`,
);
const matrixFile = readMatrixFile(file);
const rows = matrixRows();

async function matrixOnce(round: number): Promise<{ ms: number; doc: MatrixDoc }> {
  const out = join(dir, `matrix-${round}`);
  const t = await timeProcess([process.execPath, CLI, 'matrix', file, '--out', out], { cwd: dir });
  return { ms: t.wallMs, doc: JSON.parse(readFileSync(join(out, 'matrix.json'), 'utf8')) as MatrixDoc };
}

async function singlesOnce(round: number): Promise<{ ms: number; columns: Column[] }> {
  let total = 0;
  const columns: Column[] = [];
  for (const impl of matrixFile.implementations) {
    const site = join(dir, `single-${round}`);
    const t0 = performance.now();
    const run = await runColumn(impl, join(site, 'runs', impl.slug), { command: process.execPath, args: [CLI] });
    total += performance.now() - t0;
    columns.push(buildColumn(run, site, rows)); // not timed: the matrix's own extra work
  }
  return { ms: total, columns };
}

function sameVerdicts(doc: MatrixDoc, singles: Column[]): string[] {
  const diffs: string[] = [];
  for (const s of singles) {
    const m = doc.implementations.find((c) => c.name === s.name);
    if (!m) {
      diffs.push(`${s.name}: no column`);
      continue;
    }
    if (m.outcome !== s.outcome || m.exit_code !== s.exit_code) diffs.push(`${s.name}: ${m.outcome}/${m.exit_code} vs single ${s.outcome}/${s.exit_code}`);
    for (const r of rows) if (m.cells[r.id]?.status !== s.cells[r.id]?.status) diffs.push(`${s.name} ${r.id}: matrix ${m.cells[r.id]?.status}, single ${s.cells[r.id]?.status}`);
  }
  return diffs;
}

process.stdout.write(`bench/matrix.ts: ${matrixFile.implementations.length} implementations, ${RUNS} rounds, ${availableParallelism()} cores available (${cpus()[0]?.model ?? '?'}), load ${load()}\n`);
const A: number[] = [];
const B: number[] = [];
const ratios: number[] = [];
let mismatches = 0;
for (let round = 1; round <= RUNS; round++) {
  const order = round % 2 === 1 ? ['A', 'B'] : ['B', 'A'];
  let a: Awaited<ReturnType<typeof matrixOnce>> | undefined;
  let b: Awaited<ReturnType<typeof singlesOnce>> | undefined;
  for (const side of order) {
    if (side === 'A') a = await matrixOnce(round);
    else b = await singlesOnce(round);
  }
  A.push(a!.ms);
  B.push(b!.ms);
  ratios.push(a!.ms / b!.ms);
  const diffs = sameVerdicts(a!.doc, b!.columns);
  mismatches += diffs.length;
  process.stdout.write(
    `round ${round} (${order.join(', ')}): matrix ${seconds(a!.ms)} · sum of single runs ${seconds(b!.ms)} · ratio ${(a!.ms / b!.ms).toFixed(2)} · verdicts ${diffs.length === 0 ? 'all equal' : `DIFFER: ${diffs.slice(0, 5).join('; ')}`} · load ${load()}\n`,
  );
}
process.stdout.write(
  `matrix / sum of single runs: ${(median(A) / median(B)).toFixed(2)} (medians ${seconds(median(A))} / ${seconds(median(B))}; per-round median ${median(ratios).toFixed(2)}) — target ≤ 0.75 on 2 cores\n` +
    `verdicts: ${mismatches === 0 ? 'every cell of every round equal to its single run' : `${mismatches} cell(s) differ`}\n` +
    `scratch: ${dir}\n`,
);
process.exitCode = mismatches === 0 ? 0 : 1;
