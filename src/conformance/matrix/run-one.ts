/**
 * One column of the matrix: one implementation through the single-target command (`stdio`, `http` or `host`)
 * as a child process of its own, exactly as a user runs it (same suite, same verdicts, same isolation:
 * docs/matrix.md "How a column runs"). The child writes its messages and JUnit files into the column's
 * directory and prints its --json report, kept as report.json. A URL entry's `start` command is started first
 * (the run waits for the URL's port to accept a connection) and stopped after. Every wait is bounded: a child
 * that does not finish within run_timeout_ms is stopped (its whole process group) and the column says it hung.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { delimiter, join } from 'node:path';
import { killGroup, registerGroup, unregisterGroup } from '../../transport/process-group.js';
import { bundledProviderCommand } from '../provider-suite/config.js';
import type { Implementation } from './types.js';

/** How to start the cgp-conformance CLI (the same one that runs the matrix, by default). */
export interface CliCommand {
  command: string;
  args: string[];
}

export interface ColumnRun {
  implementation: Implementation;
  /** The column's directory (absolute). */
  dir: string;
  exitCode: number | null;
  signal: string | null;
  /** Stopped by the matrix after run_timeout_ms. */
  timedOut: boolean;
  /** The child's --json report, when it printed one. */
  report?: Record<string, unknown>;
  stderrTail: string;
  /** The free port filled in for ${PORT}, if the entry has one. */
  port?: number;
  /** Set when the run could not start at all (the start command failed, no port). */
  startFailure?: string;
  startedAt: Date;
  finishedAt: Date;
}

const STDERR_TAIL = 4096;
/** Variables that choose a target: the matrix sets them per entry, and never lets the caller's leak in. */
const TARGET_ENV = [
  'CGP_PROVIDER',
  'CGP_PROVIDER_URL',
  'CGP_MISBEHAVE',
  'CGP_HOST',
  'CGP_HOST_CMD',
  'CGP_HOST_MISBEHAVE',
  'CGP_REPORTS_DIR',
  'CGP_PROVIDER_FILE_ROOTS',
  'CGP_PROVIDER_RETIRED_IDS',
  'CGP_SPAWN_AHEAD',
];

/** A free loopback port (the kernel's choice), for ${PORT}. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** The bundled provider's command line, runnable from any directory (tsx resolved to its file). */
function bundledProvider(): string[] {
  const b = bundledProviderCommand();
  return [b.command, ...b.args.map((a) => (a === 'tsx' ? import.meta.resolve('tsx') : a))];
}

/** The single-target command's arguments for one implementation (after the CLI itself). */
export function columnArgs(impl: Implementation, dir: string, url?: string): string[] {
  const common = ['--json', '--out', dir, '--report-name', impl.slug];
  if (impl.timeoutMs !== undefined) common.push('--timeout', String(impl.timeoutMs));
  if (impl.baseline !== undefined) common.push('--baseline', impl.baseline);
  if (impl.tags !== undefined) common.push('--tags', impl.tags);
  const r = impl.reach;
  switch (r.kind) {
    case 'stdio':
      return ['stdio', ...common, '--', ...r.command];
    case 'url':
      return ['http', ...common, url ?? r.url];
    case 'host-cmd':
      return ['host', ...common, '--cmd', r.cmd];
    case 'adapter':
      return ['host', ...common, '--adapter', r.adapter];
    case 'bundled':
      return impl.side === 'provider'
        ? ['stdio', ...common, '--', ...bundledProvider(), ...(r.misbehave !== undefined ? ['--misbehave', r.misbehave] : [])]
        : ['host', ...common, ...(r.misbehave !== undefined ? ['--misbehave', r.misbehave] : [])];
  }
}

function columnEnv(impl: Implementation): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of TARGET_ENV) delete env[k];
  if (impl.fileRoots !== undefined) env.CGP_PROVIDER_FILE_ROOTS = impl.fileRoots.join(delimiter);
  if (impl.retiredIds !== undefined) env.CGP_PROVIDER_RETIRED_IDS = impl.retiredIds.join(',');
  if (impl.spawnAhead !== undefined) env.CGP_SPAWN_AHEAD = String(impl.spawnAhead);
  return env;
}

function tail(text: string): string {
  return text.length > STDERR_TAIL ? `…${text.slice(-STDERR_TAIL)}` : text;
}

/** Resolves when the child has exited and its pipes are closed. */
function finished(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((done) => {
    child.once('close', (code, signal) => done({ code, signal }));
    // a child that could not be spawned at all (no such program or directory) may never close
    child.once('error', () => done({ code: null, signal: null }));
  });
}

/** Wait until host:port accepts a TCP connection, the start command exits, or the deadline passes. */
async function waitForPort(url: URL, start: ChildProcess, deadline: number): Promise<string | undefined> {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let exited: string | undefined;
  start.once('exit', (code, signal) => (exited = signal ? `signal ${signal}` : `exit status ${code}`));
  start.once('error', (e) => (exited = `could not be run: ${e.message}`));
  for (;;) {
    if (exited !== undefined) return `the start command ended (${exited}) before ${url.host} accepted a connection`;
    const ok = await new Promise<boolean>((res) => {
      const s = connect({ port, host });
      const t = setTimeout(() => (s.destroy(), res(false)), 1_000);
      s.once('connect', () => (clearTimeout(t), s.destroy(), res(true)));
      s.once('error', () => (clearTimeout(t), res(false)));
    });
    if (ok) return undefined;
    if (Date.now() >= deadline) return `${url.host} accepted no connection within the start timeout`;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const KILL_GRACE_MS = 2_000;

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) {
    if (child.pid !== undefined) killGroup(child.pid);
    return unregisterGroup(child.pid);
  }
  const gone = finished(child);
  signalGroup(child.pid, 'SIGTERM');
  const timer = setTimeout(() => killGroup(child.pid!), KILL_GRACE_MS);
  await gone;
  clearTimeout(timer);
  killGroup(child.pid);
  unregisterGroup(child.pid);
}

/** Run one implementation's column into `dir` (emptied first). Never throws for the implementation's sake. */
export async function runColumn(impl: Implementation, dir: string, cli: CliCommand): Promise<ColumnRun> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const startedAt = new Date();
  const env = columnEnv(impl);
  const base = { implementation: impl, dir, startedAt };
  const withPort = () => (port !== undefined ? { port } : {});
  let starter: ChildProcess | undefined;
  let starterErr = '';
  let url: string | undefined;
  let port: number | undefined;
  try {
    if (impl.reach.kind === 'url') {
      if (impl.reach.url.includes('${PORT}')) port = await freePort();
      const sub = (w: string) => (port !== undefined ? w.replaceAll('${PORT}', String(port)) : w);
      url = sub(impl.reach.url);
      if (impl.reach.start !== undefined) {
        const [cmd, ...args] = impl.reach.start.map(sub);
        starter = spawn(cmd!, args, { cwd: impl.cwd, env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
        if (starter.pid !== undefined) registerGroup(starter.pid);
        starter.stderr!.on('data', (c: Buffer) => (starterErr = tail(starterErr + c.toString())));
        const spawnError = new Promise<string>((res) => starter!.once('error', (e) => res(`the start command could not be run: ${e.message}`)));
        let parsed: URL | undefined;
        try {
          parsed = new URL(url);
        } catch {
          // the http command reports a bad URL itself
        }
        const problem = parsed === undefined ? undefined : await Promise.race([waitForPort(parsed, starter, Date.now() + impl.startTimeoutMs), spawnError]);
        if (problem !== undefined) {
          return { ...base, ...withPort(), exitCode: null, signal: null, timedOut: false, stderrTail: starterErr, startFailure: problem, finishedAt: new Date() };
        }
      }
    }
    const child = spawn(cli.command, [...cli.args, ...columnArgs(impl, dir, url)], { cwd: impl.cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid !== undefined) registerGroup(child.pid);
    const out: Buffer[] = [];
    let err = '';
    child.stdout!.on('data', (c: Buffer) => out.push(c));
    child.stderr!.on('data', (c: Buffer) => (err = tail(err + c.toString())));
    let spawnError: string | undefined;
    child.once('error', (e) => (spawnError = e.message));
    let timedOut = false;
    let hard: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid === undefined) return;
      // SIGTERM first: the suite then stops the provider process groups it started (their own groups, which
      // a SIGKILL of the run's group would leave behind); whatever is left is killed KILL_GRACE_MS later
      signalGroup(child.pid, 'SIGTERM');
      hard = setTimeout(() => killGroup(child.pid!), KILL_GRACE_MS);
    }, impl.runTimeoutMs);
    const { code, signal } = await finished(child);
    clearTimeout(timer);
    clearTimeout(hard);
    if (child.pid !== undefined) {
      // whatever the run left behind in its group goes with it
      killGroup(child.pid);
      unregisterGroup(child.pid);
    }
    const stdout = Buffer.concat(out).toString('utf8');
    let report: Record<string, unknown> | undefined;
    try {
      const parsed = JSON.parse(stdout) as unknown;
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) report = parsed as Record<string, unknown>;
    } catch {
      // no report: the column says how the run ended
    }
    if (report !== undefined) writeFileSync(join(dir, 'report.json'), stdout);
    return {
      ...base,
      ...withPort(),
      exitCode: code,
      signal,
      timedOut,
      ...(report !== undefined ? { report } : {}),
      stderrTail: spawnError !== undefined ? `cannot run the CLI: ${spawnError}` : err,
      finishedAt: new Date(),
    };
  } finally {
    if (starter !== undefined) await stopGroup(starter);
  }
}

export function messagesPathOf(run: ColumnRun): string | undefined {
  const p = join(run.dir, `${run.implementation.slug}.messages.ndjson`);
  return existsSync(p) ? p : undefined;
}
