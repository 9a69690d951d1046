// Consent ledger under fire: writers SIGKILLed at random moments (tiny write() calls so kills land
// inside lines), and two processes appending to one file at once. After every kill the ledger loads, every grant
// the writer reported done (after fsync) is present in order, at most one more (fsync'ed, not yet reported) exists,
// and nothing partial reads as a grant; concurrent appends never interleave into a corrupt line.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConsentLedger } from '../../src/host/consent/ledger.js';
import { findPackageRoot } from '../../src/util/package-root.js';
import { prng } from '../../src/util/prng.js';

const ROOT = findPackageRoot();
const WRITER = ['--import', 'tsx', join(ROOT, 'test', 'fixtures', 'host', 'ledger-writer.ts')];

interface Writer {
  done: string[];
  ready: Promise<void>;
  exited: Promise<number | null>;
  kill(): void;
}

function startWriter(file: string, args: string[]): Writer {
  const child = spawn(process.execPath, [...WRITER, file, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const done: string[] = [];
  let buf = '';
  let ready!: () => void;
  const isReady = new Promise<void>((r) => (ready = r));
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buf += chunk;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (line.startsWith('ready')) ready();
      else if (line.startsWith('done ')) done.push(line.split(' ')[2]!);
    }
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { done, ready: isReady, exited, kill: () => child.kill('SIGKILL') };
}

export interface KillRunsResult {
  runs: number;
  survived: number;
  reportedGrants: number;
  tornTails: number;
  failures: string[];
}

/** `runs` writers on ONE growing ledger, each SIGKILLed after a random delay; each run reopens (and repairs) it. */
export async function ledgerKillRuns(runs: number, seed: number): Promise<KillRunsResult> {
  const rnd = prng(seed);
  const file = join(mkdtempSync(join(tmpdir(), 'cgp-ledger-kill-')), 'consent.jsonl');
  const result: KillRunsResult = { runs: 0, survived: 0, reportedGrants: 0, tornTails: 0, failures: [] };
  let expected: string[] = [];
  for (let run = 0; run < runs; run++) {
    result.runs++;
    const w = startWriter(file, [String(1 + Math.floor(rnd() * 3))]);
    await w.ready;
    await new Promise((r) => setTimeout(r, 5 + Math.floor(rnd() * 120)));
    w.kill();
    await w.exited;
    let loaded;
    try {
      loaded = ConsentLedger.load(file);
    } catch (err) {
      result.failures.push(`run ${run}: the ledger does not load: ${(err as Error).message}`);
      break;
    }
    const scopes = loaded.records.filter((r) => r.op === 'grant').map((g) => (g.op === 'grant' ? g.receipts[0]!.scope : ''));
    expected = [...expected, ...w.done];
    result.reportedGrants += w.done.length;
    result.tornTails += loaded.diagnostics.filter((d) => d.kind === 'torn-tail').length;
    const problems: string[] = [];
    // Every reported grant is present, in order; an unreported extra may only be the fsync'ed-not-yet-reported one.
    for (const s of expected) if (!scopes.includes(s)) problems.push(`reported grant ${s} missing`);
    const unreported = scopes.filter((s) => !expected.includes(s));
    if (unreported.length > 1) problems.push(`${unreported.length} grants nobody reported: ${unreported.slice(0, 3).join(', ')}`);
    if (new Set(scopes).size !== scopes.length) problems.push('a grant appears twice');
    for (const g of loaded.records) if (g.op === 'grant' && g.receipts.length !== 2) problems.push(`grant ${g.seq} has ${g.receipts.length} receipts (partial)`);
    if (problems.length > 0) result.failures.push(`run ${run}: ${problems.join('; ')}`);
    else result.survived++;
    // The unreported-but-durable grant is real: the next run's writer sees it (the ledger is the truth).
    expected = scopes;
  }
  return result;
}

export interface ConcurrentResult {
  rounds: number;
  appends: number;
  corrupt: number;
  failures: string[];
}

/** `rounds` times: two processes append `perWriter` grants each to one fresh file at the same time. */
export async function ledgerConcurrent(rounds: number, perWriter: number): Promise<ConcurrentResult> {
  const result: ConcurrentResult = { rounds: 0, appends: 0, corrupt: 0, failures: [] };
  for (let round = 0; round < rounds; round++) {
    result.rounds++;
    const file = join(mkdtempSync(join(tmpdir(), 'cgp-ledger-two-')), 'consent.jsonl');
    const a = startWriter(file, [String(1 + (round % 3)), String(perWriter), 'a']);
    const b = startWriter(file, [String(1 + ((round + 1) % 3)), String(perWriter), 'b']);
    const codes = await Promise.all([a.exited, b.exited]);
    if (codes.some((c) => c !== 0)) result.failures.push(`round ${round}: writer exit codes ${codes.join(', ')}`);
    let loaded;
    try {
      loaded = ConsentLedger.load(file);
    } catch (err) {
      result.corrupt++;
      result.failures.push(`round ${round}: ${(err as Error).message}`);
      continue;
    }
    const scopes = loaded.records.flatMap((r) => (r.op === 'grant' ? [r.receipts[0]!.scope] : []));
    result.appends += scopes.length;
    for (const tag of ['a', 'b']) {
      const mine = scopes.filter((s) => s.startsWith(`acme:${tag}-`));
      const want = Array.from({ length: perWriter }, (_, i) => `acme:${tag}-${i}`);
      if (JSON.stringify(mine) !== JSON.stringify(want)) result.failures.push(`round ${round}: writer ${tag} has ${mine.length}/${perWriter} grants in order`);
    }
    if (loaded.diagnostics.length > 0) result.failures.push(`round ${round}: diagnostics ${loaded.diagnostics.map((d) => d.kind).join(', ')}`);
  }
  return result;
}
