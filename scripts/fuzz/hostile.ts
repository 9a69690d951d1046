// Host and harness vs hostile providers. Every shape of scripts/fuzz/hostile-provider.mjs is put
// in front of (a) the bundled host — connect, query, queryAll, verify, close — in a child process whose peak RSS is
// reported, and (b) the provider suite (`cgp-conformance stdio`). Required: every host operation ends ok or with a
// NAMED failure (a HostError with a code) within its timeout (+ slack for the shutdown grace); every failed suite
// scenario's message starts with the anchor/rule id it concerns, no harness error, the run ends within its bound;
// and no process the run started outlives it (each hostile provider and grandchild registers its pid).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findPackageRoot } from '../../src/util/package-root.js';

const ROOT = findPackageRoot();
const HERE = join(ROOT, 'scripts', 'fuzz');
export const HOSTILE_PROVIDER = join(HERE, 'hostile-provider.mjs');

/** Every shape hostile-provider.mjs implements. */
export const HOSTILE_SHAPES = [
  'ack-stall',
  'noise-before-ack',
  'foreign-ack-id',
  'crash-mid-line',
  'crash-after-ack',
  'hang',
  'drip',
  'giant-line-64mib',
  'invalid-utf8',
  'not-json',
  'truncated-json',
  'blank-lines',
  'deep-nesting',
  'proto-keys',
  'huge-numbers',
  'lone-surrogates',
  'wrong-types',
  'unknown-type-then-answer',
  'duplicate-id',
  'foreign-id',
  'flood-10k-frames',
  'line-flood',
  'grandchild',
  'ignore-shutdown',
  'no-read',
];

function run(cmd: string, args: string[], boundMs: number): Promise<{ code: number | null; stdout: string; stderr: string; ms: number; killed: boolean }> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr.length < 100_000 ? (stderr += c.toString()) : undefined));
    let killed = false;
    // Past the bound: SIGTERM first (the harness then kills its providers' groups), SIGKILL 5 s later.
    let hard: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGTERM');
      hard = setTimeout(() => child.kill('SIGKILL'), 5000);
    }, boundMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      clearTimeout(hard);
      resolve({ code, stdout, stderr, ms: Date.now() - t0, killed });
    });
  });
}

function isZombie(pid: number): boolean {
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Pids registered in `dir` that are still alive (after a short grace for the kernel to reap). */
export async function orphansIn(dir: string): Promise<string[]> {
  await new Promise((r) => setTimeout(r, 300));
  const alive: string[] = [];
  for (const name of readdirSync(dir)) {
    const pid = Number(name);
    if (isZombie(pid)) continue; // killed, merely not reaped yet (a container's pid 1 may never reap it)
    try {
      process.kill(pid, 0);
      alive.push(`${pid} (${readFileSync(join(dir, name), 'utf8')})`);
      process.kill(pid, 'SIGKILL'); // do not leave it behind ourselves
    } catch {
      /* gone: good */
    }
  }
  return alive;
}

export interface HostShapeResult {
  shape: string;
  ops: { op: string; outcome: string; name?: string; code?: string; ms: number; message?: string }[];
  maxRssBytes: number;
  problems: string[];
}

export interface HostileRunResult {
  shapes: number;
  hostOps: number;
  namedFailures: number;
  problems: string[];
  orphans: string[];
  rss: Record<string, number>;
  perShape: HostShapeResult[];
}

/** (a) the bundled host against each shape. */
export async function hostVsHostile(shapes: readonly string[], timeoutMs = 2000): Promise<HostileRunResult> {
  const pidDir = mkdtempSync(join(tmpdir(), 'cgp-hostile-pids-'));
  const result: HostileRunResult = { shapes: 0, hostOps: 0, namedFailures: 0, problems: [], orphans: [], rss: {}, perShape: [] };
  for (const shape of shapes) {
    result.shapes++;
    const r = await run(process.execPath, ['--import', 'tsx', join(HERE, 'host-child.ts'), shape, pidDir, String(timeoutMs)], 60_000);
    const line = r.stdout.trim().split('\n').at(-1) ?? '';
    let parsed: HostShapeResult;
    try {
      parsed = { ...(JSON.parse(line) as Omit<HostShapeResult, 'problems'>), problems: [] };
    } catch {
      result.problems.push(`${shape}: the host process did not finish with a report (exit ${r.code}${r.killed ? ', killed at 60 s' : ''}): ${r.stderr.slice(-500)}`);
      continue;
    }
    for (const op of parsed.ops) {
      result.hostOps++;
      if (op.outcome === 'named') result.namedFailures++;
      if (op.outcome === 'unnamed') parsed.problems.push(`${op.op} failed with an unnamed ${op.name}: ${op.message}`);
      // A request is bounded by timeoutMs; close by the shutdown grace plus the kill wait.
      if (op.ms > timeoutMs + 3000) parsed.problems.push(`${op.op} took ${op.ms} ms (bound ${timeoutMs} ms + 3 s)`);
    }
    result.rss[shape] = parsed.maxRssBytes;
    result.problems.push(...parsed.problems.map((p) => `${shape}: ${p}`));
    result.perShape.push(parsed);
  }
  result.orphans = await orphansIn(pidDir);
  return result;
}

export interface SuiteShapeResult {
  shape: string;
  exitCode: number | null;
  ms: number;
  failed: number;
  harnessErrors: number;
  unnamed: string[];
}

export interface SuiteHostileResult {
  shapes: number;
  scenarios: number;
  failedScenarios: number;
  problems: string[];
  orphans: string[];
  perShape: SuiteShapeResult[];
}

const NAMED = /^(?:[A-Z]{1,2}\d+|S\d+(?:\.\d+)*-[a-z0-9-]+)\b/;

/** (b) the provider suite (`cgp-conformance stdio --json`) against each shape. */
export async function suiteVsHostile(shapes: readonly string[], opts: { tags?: string; timeoutMs?: number; boundMs?: number } = {}): Promise<SuiteHostileResult> {
  const pidDir = mkdtempSync(join(tmpdir(), 'cgp-hostile-suite-pids-'));
  const reports = mkdtempSync(join(tmpdir(), 'cgp-hostile-suite-'));
  const timeout = opts.timeoutMs ?? 2000;
  const result: SuiteHostileResult = { shapes: 0, scenarios: 0, failedScenarios: 0, problems: [], orphans: [], perShape: [] };
  for (const shape of shapes) {
    result.shapes++;
    const args = ['--import', 'tsx', join(ROOT, 'src', 'cli', 'bin.ts'), 'stdio', '--json', '--timeout', String(timeout), '--reports-dir', reports, '--report-name', `hostile-${shape}`];
    if (opts.tags) args.push('--tags', opts.tags);
    args.push('--', process.execPath, HOSTILE_PROVIDER, shape, pidDir);
    const r = await run(process.execPath, args, opts.boundMs ?? 900_000);
    let json: { exit_code: number; harness_errors: unknown; scenarios: { status: string; message?: string; name: string; harness_error?: string }[] };
    try {
      json = JSON.parse(r.stdout) as typeof json;
    } catch {
      result.problems.push(`${shape}: the suite did not end with a JSON report (exit ${r.code}${r.killed ? ', killed at the bound' : ''}): ${r.stderr.slice(-400)}`);
      continue;
    }
    // inconclusive (a failed precondition, docs/interpretations.md §87) is neither a harness error nor a failure
    const inconclusive = json.scenarios.filter((s) => /^could not observe /.test(s.harness_error ?? ''));
    const harnessErrors = (Array.isArray(json.harness_errors) ? json.harness_errors.length : Number(json.harness_errors) || 0) - inconclusive.length;
    const failed = json.scenarios.filter((s) => s.status === 'failed' && !inconclusive.includes(s));
    const unnamed = failed.filter((s) => !NAMED.test(s.message ?? '')).map((s) => `${s.name}: ${String(s.message).slice(0, 160)}`);
    const odd = json.scenarios.filter((s) => ['undefined', 'pending', 'ambiguous'].includes(s.status));
    result.scenarios += json.scenarios.length;
    result.failedScenarios += failed.length;
    if (![0, 1, 3].includes(r.code ?? -1)) result.problems.push(`${shape}: exit code ${r.code}`);
    if (harnessErrors > 0) result.problems.push(`${shape}: ${harnessErrors} harness error(s) against a hostile target`);
    if (unnamed.length > 0) result.problems.push(`${shape}: ${unnamed.length} failure(s) not starting with their id, e.g. ${unnamed[0]}`);
    if (odd.length > 0) result.problems.push(`${shape}: ${odd.length} scenario(s) ${odd[0]!.status}`);
    result.perShape.push({ shape, exitCode: r.code, ms: r.ms, failed: failed.length, harnessErrors, unnamed });
  }
  result.orphans = await orphansIn(pidDir);
  return result;
}
