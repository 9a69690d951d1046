/**
 * bench/ingest — (1) the paste corpus: per paste, its kind, raw → served tokens and the facts kept;
 * (2) ingesting a 50 MB synthetic log against its floor, measured side by side in ONE run.
 *
 *   npx tsx bench/ingest.ts [--corpus | --throughput] [--mb 50] [--runs 3] [--detail]
 *
 * Corpus: test/ingest/corpus (40 realistic pastes, each with the question asked of it and the facts a
 * reader needs; `*` marks the 18 of the wider corpus — structured output that is not a log, with a total
 * line of its own); each is ingested with its intent and its facts are looked up in the served frames.
 * The worked example (fixtures/ingest/worked-example) is printed beside it.
 *
 * Workload: a synthetic service log (written to a temp dir, deterministic): timestamped lines with
 * INFO/DEBUG/WARN/ERROR levels, varied messages and numbers, runs of identical lines, a few blank lines
 * (so the log is several blocks that merge back into one), ~0.5 % alert lines.
 * Floor: what any ingester must at least do — read the file, sha256 it, split it into lines (the
 * offsets of every line). Measured: read the file + `ingest()` (segment, classify, distill, hash,
 * build the compact frames and the query).
 * Each run is a fresh child process (so peak RSS is the run's own); floor and ingest alternate. Wall
 * time is the target's measure; CPU time (user + system) is printed beside it, because on a shared,
 * oversubscribed machine wall time also counts the time a run waited for a CPU.
 * Target: ingest / floor ≤ 3× (medians; best-of-N beside it, since the machine is shared);
 * peak RSS reported, and its excess over the runtime baseline against the input size.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { prng } from '../src/util/prng.js';

const args = process.argv.slice(2);
const flag = (name: string, def: string) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1]! : def;
};

/** A deterministic synthetic log of about `bytes` bytes. */
export function syntheticLog(bytes: number): Buffer {
  const rnd = prng(11);
  const parts: string[] = [];
  let size = 0;
  let t = Date.UTC(2026, 6, 20, 18, 0, 0);
  const messages = [
    (n: number) => `request ${n} served in ${Math.floor(rnd() * 900)} ms`,
    (n: number) => `cache miss for key user:${n % 9973}`,
    (n: number) => `retry attempt ${n % 7} for /v1/resolve`,
    (n: number) => `flushed ${n % 500} rows to segment ${n % 31}`,
  ];
  let n = 0;
  while (size < bytes) {
    n++;
    t += Math.floor(rnd() * 40);
    const d = new Date(t);
    const ts = `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 23).replace('.', ',')}`;
    const r = rnd();
    const level = r < 0.003 ? 'ERROR' : r < 0.005 ? 'WARN ' : r < 0.3 ? 'DEBUG' : 'INFO ';
    let line = `${ts} ${level} [worker-${n % 8}] ${messages[n % messages.length]!(n)}\n`;
    if (rnd() < 0.002) line = line.repeat(1 + Math.floor(rnd() * 20));
    if (rnd() < 0.0005) line += '\n';
    parts.push(line);
    size += line.length;
  }
  return Buffer.from(parts.join(''), 'latin1');
}

function floor(file: string): number {
  const bytes = readFileSync(file);
  const digest = createHash('sha256').update(bytes).digest('hex');
  const starts: number[] = [0];
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) starts.push(i + 1);
  return digest.length + starts.length;
}

/** CPU time (user + system, ms) of this process so far — every thread, GC helpers included. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

async function child(kind: string, file: string): Promise<void> {
  const t0 = performance.now();
  const c0 = cpuMs();
  let check: number;
  if (kind === 'baseline') {
    await import('../src/ingest/index.js');
    check = 0;
  } else if (kind === 'floor') check = floor(file);
  else {
    const { ingest } = await import('../src/ingest/index.js');
    const t1 = performance.now();
    const c1 = cpuMs();
    const r = ingest({ intent: 'why does the worker fall behind', attachments: [{ name: 'big.log', content: readFileSync(file) }] });
    check = r.frames.length;
    const ms = performance.now() - t1;
    const cpu = cpuMs() - c1;
    const served = r.frames.reduce((a, f) => a + f.token_cost, 0);
    process.stdout.write(JSON.stringify({ ms, cpu, rssMb: process.resourceUsage().maxRSS / 1024, check, served, report: r.report.map((e) => e.summary) }));
    return;
  }
  process.stdout.write(JSON.stringify({ ms: performance.now() - t0, cpu: cpuMs() - c0, rssMb: process.resourceUsage().maxRSS / 1024, check }));
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

async function corpusTable(): Promise<void> {
  const { CORPUS, evaluate } = await import('../test/ingest/corpus/index.js');
  const { ingestExample, exampleAttachments } = await import('../test/ingest/helpers.js');
  const { pastedTokens } = await import('../src/cli/commands/ingest.js');
  const rows: string[][] = [['paste', 'kind', 'recognised as', 'raw → served tokens', 'served %', 'facts kept']];
  let raw = 0;
  let served = 0;
  let facts = 0;
  let kept = 0;
  const lost: string[] = [];
  for (const p of CORPUS) {
    const e = await evaluate(p);
    raw += e.rawTokens;
    served += e.servedTokens;
    facts += p.facts.length;
    kept += e.kept.length;
    for (const m of e.missing) lost.push(`${p.file}: ${JSON.stringify(m)}`);
    for (const m of e.misread) lost.push(`${p.file}: served the misreading ${JSON.stringify(m)}`);
    rows.push([
      `${p.file}${p.wider ? ' *' : ''}`,
      p.kind,
      e.recognised,
      `${e.rawTokens} → ${e.servedTokens}`,
      `${((e.servedTokens / e.rawTokens) * 100).toFixed(1)} %`,
      `${e.kept.length}/${p.facts.length}`,
    ]);
  }
  rows.push(['total', `${CORPUS.length} pastes`, '', `${raw} → ${served}`, `${((served / raw) * 100).toFixed(1)} %`, `${kept}/${facts}`]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  console.log('bench/ingest: the paste corpus (test/ingest/corpus), each ingested with its intent');
  rows.forEach((r, k) => {
    console.log(`  ${r.map((c, i) => pad(c, widths[i]!)).join('  ')}`);
    if (k === 0 || k === rows.length - 2) console.log(`  ${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  });
  const wider = CORPUS.filter((p) => p.wider);
  if (wider.length > 0) {
    let wRaw = 0;
    let wServed = 0;
    let wFacts = 0;
    let wKept = 0;
    for (const p of wider) {
      const e = await evaluate(p);
      wRaw += e.rawTokens;
      wServed += e.servedTokens;
      wFacts += p.facts.length;
      wKept += e.kept.length;
    }
    console.log(`  * the wider corpus (${wider.length} kinds): ${wRaw} → ${wServed} tokens (${((wServed / wRaw) * 100).toFixed(1)} %), facts kept ${wKept}/${wFacts}`);
  }
  for (const l of lost) console.log(`  LOST ${l}`);
  const ex = ingestExample();
  const exServed = ex.frames.reduce((n, f) => n + f.token_cost, 0);
  const exRaw = pastedTokens(exampleAttachments().map((a) => a.content));
  console.log(`  worked example: ${exRaw} → ${exServed} tokens in ${ex.frames.length} frames (${((exServed / exRaw) * 100).toFixed(1)} %; the reference serves 610, the target is ≤ 390)`);
}

async function main(): Promise<void> {
  if (args[0] === '--child') return child(args[1]!, args[2]!);
  if (!args.includes('--throughput')) await corpusTable();
  if (args.includes('--corpus')) return;
  const mb = Number(flag('--mb', '50'));
  const runs = Number(flag('--runs', '3'));
  const dir = mkdtempSync(join(tmpdir(), 'cgp-bench-ingest-'));
  const file = join(dir, 'big.log');
  try {
    writeFileSync(file, syntheticLog(mb * 1024 * 1024));
    const inputMb = readFileSync(file).length / (1024 * 1024);
    const self = fileURLToPath(import.meta.url);
    const spawn = (kind: string) => {
      const r = spawnSync(process.execPath, [...process.execArgv, self, '--child', kind, file], { encoding: 'utf8', maxBuffer: 1 << 26 });
      if (r.status !== 0) throw new Error(`${kind} child failed: ${r.stderr}`);
      return JSON.parse(r.stdout) as { ms: number; cpu: number; rssMb: number; served?: number; report?: string[] };
    };
    spawn('floor'); // warm the page cache
    const baseline = spawn('baseline').rssMb;
    const floorRuns: Array<{ ms: number; cpu: number; rssMb: number }> = [];
    const ingestRuns: Array<{ ms: number; cpu: number; rssMb: number; served?: number; report?: string[] }> = [];
    for (let i = 0; i < runs; i++) {
      floorRuns.push(spawn('floor'));
      ingestRuns.push(spawn('ingest'));
    }
    const f = median(floorRuns.map((r) => r.ms));
    const g = median(ingestRuns.map((r) => r.ms));
    const peak = Math.max(...ingestRuns.map((r) => r.rssMb));
    const floorPeak = Math.max(...floorRuns.map((r) => r.rssMb));
    console.log(`bench/ingest: ${inputMb.toFixed(1)} MB synthetic log, ${runs} runs each, ${cpus().length} CPUs, load ${loadavg()[0]!.toFixed(2)}`);
    if (args.includes('--detail')) {
      console.log(`  floor runs  (ms): ${floorRuns.map((r) => r.ms.toFixed(0)).join(' ')}`);
      console.log(`  ingest runs (ms): ${ingestRuns.map((r) => r.ms.toFixed(0)).join(' ')}`);
      console.log(`  floor  cpu  (ms): ${floorRuns.map((r) => r.cpu.toFixed(0)).join(' ')}`);
      console.log(`  ingest cpu  (ms): ${ingestRuns.map((r) => r.cpu.toFixed(0)).join(' ')}`);
    }
    console.log(`  floor  (read + sha256 + line split): median ${f.toFixed(0)} ms, peak RSS ${floorPeak.toFixed(0)} MB`);
    console.log(`  ingest (read + ingest())           : median ${g.toFixed(0)} ms, peak RSS ${peak.toFixed(0)} MB`);
    console.log(
      `  memory: runtime baseline ${baseline.toFixed(0)} MB; ingest's peak above it ${(peak - baseline).toFixed(0)} MB = ${((peak - baseline) / inputMb).toFixed(1)}× the input (floor: ${((floorPeak - baseline) / inputMb).toFixed(1)}×)`,
    );
    const fMin = Math.min(...floorRuns.map((r) => r.ms));
    const gMin = Math.min(...ingestRuns.map((r) => r.ms));
    console.log(
      `  ratio ingest / floor = ${(g / f).toFixed(2)}× of medians (target ≤ 3×) ${g / f <= 3 ? 'OK' : 'OVER TARGET'}; best-of-${runs}: ${gMin.toFixed(0)} / ${fMin.toFixed(0)} ms = ${(gMin / fMin).toFixed(2)}×`,
    );
    const fc = median(floorRuns.map((r) => r.cpu));
    const gc = median(ingestRuns.map((r) => r.cpu));
    console.log(`  cpu time (user + system, all threads): floor ${fc.toFixed(0)} ms, ingest ${gc.toFixed(0)} ms, ratio ${(gc / fc).toFixed(2)}× of medians`);
    console.log(`  served: ${ingestRuns[0]!.served} tokens; report: ${ingestRuns[0]!.report!.join(' | ')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
