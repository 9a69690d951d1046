/**
 * Suite runs in a process of their own: a worker (suite-worker-main.ts) that loads cucumber and one side's step
 * definitions once, then runs the suites it is sent one after the other, as runSuite does in one process.
 * The red team keeps a pool of them, each running many modes, instead of starting a process (and loading
 * cucumber and the steps) per mode.
 *
 * The protocol is one JSON line each way per run: the options in on stdin, the result out on stdout. A run that
 * outlives its timeout, or a worker that dies, rejects the run (with the tail of the worker's stderr) and
 * the worker is not used again: the next run starts a new one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { RunSuiteOptions, RunSuiteResult } from './run-suite.js';

/** The options a worker takes: runSuite's, with the progress output named instead of a stream. */
export type WorkerRunOptions = Omit<RunSuiteOptions, 'progress' | 'steps'> & {
  /** 'stderr': cucumber's progress output on the worker's stderr; null: none. */
  progress?: 'stderr' | null;
};

/** runSuite's result, as it crosses the pipe: plain data (its summary and config included), sent as JSON. */
export type WorkerRunResult = RunSuiteResult;

/** A run the worker could not do: `usage` when runSuite threw a ConfigError (a usage error, exit 2). */
export class WorkerRunError extends Error {
  constructor(
    message: string,
    readonly usage: boolean,
  ) {
    super(message);
    this.name = 'WorkerRunError';
  }
}

export interface SuiteWorkerOptions {
  /** A module exporting runSuite with run-suite.ts's contract (default: run-suite.ts itself). */
  runner?: string;
  /** Kill the worker when one run takes longer than this (default: no limit). */
  runTimeoutMs?: number;
  /**
   * The worker's stderr (cucumber's progress, when asked for, and anything the run prints there): 'inherit'
   * passes it through as it comes; 'pipe' (the default) keeps its tail, which a dead worker's error quotes.
   */
  stderr?: 'inherit' | 'pipe';
}

/** The worker's entry: the sibling module, compiled (.js) or TypeScript under tsx (.ts) as this one is. */
const ENTRY = fileURLToPath(import.meta.url).replace(/suite-worker\.(ts|js)$/, 'suite-worker-main.$1');

/**
 * The flags a worker starts with: this process's loader flags (tsx, when it runs TypeScript) carry over; a CPU
 * profile does not (`--cpu-prof…`, with the value of those that take one as the next argument).
 */
export function workerExecArgv(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const a = execArgv[i]!;
    if (!a.startsWith('--cpu-prof')) out.push(a);
    else if (/^--cpu-prof-(?:dir|name|interval)$/.test(a)) i++;
  }
  return out;
}

/** How much of a dead worker's stderr an error quotes. */
const STDERR_TAIL = 4000;

export class SuiteWorker {
  private readonly child: ChildProcess;
  private pending: { resolve: (r: WorkerRunResult) => void; reject: (e: Error) => void; timer?: NodeJS.Timeout } | undefined;
  private stdoutText = '';
  private stderrText = '';
  private ended: Error | undefined;
  /** False once the worker has died or been killed: it takes no more runs. */
  alive = true;

  constructor(private readonly options: SuiteWorkerOptions = {}) {
    this.child = spawn(process.execPath, [...workerExecArgv(process.execArgv), ENTRY, ...(options.runner !== undefined ? [options.runner] : [])], {
      stdio: ['pipe', 'pipe', options.stderr === 'inherit' ? 'inherit' : 'pipe'],
    });
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => this.onStdout(chunk));
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderrText = (this.stderrText + chunk).slice(-STDERR_TAIL);
    });
    this.child.stdin!.on('error', () => {}); // a worker that died is reported by 'close'
    this.child.on('error', (err) => this.fail(new Error(`the suite worker could not start: ${err.message}`)));
    this.child.on('close', (code, signal) => this.fail(new Error(`the suite worker ended (${signal ?? `exit code ${code}`}) before its run finished${this.tail()}`)));
  }

  /** Run one suite; one run at a time per worker. */
  run(options: WorkerRunOptions): Promise<WorkerRunResult> {
    if (this.pending !== undefined) return Promise.reject(new Error('SuiteWorker.run: the worker is still running a suite'));
    if (!this.alive) return Promise.reject(this.ended ?? new Error('the suite worker has ended'));
    return new Promise<WorkerRunResult>((resolve, reject) => {
      this.pending = { resolve, reject };
      const limit = this.options.runTimeoutMs;
      if (limit !== undefined) {
        this.pending.timer = setTimeout(() => {
          this.fail(new Error(`run ${options.reportName} did not finish within ${limit / 1000} s (its worker was killed)`));
          this.child.kill('SIGKILL');
        }, limit);
      }
      this.child.stdin!.write(`${JSON.stringify(options)}\n`);
    });
  }

  /** Let the worker finish: it exits once its input ends. */
  close(): void {
    this.alive = false;
    this.child.stdin!.end();
  }

  /** Stop the worker now. */
  kill(): void {
    this.alive = false;
    this.child.kill('SIGKILL');
  }

  private onStdout(chunk: string): void {
    this.stdoutText += chunk;
    let nl;
    while ((nl = this.stdoutText.indexOf('\n')) >= 0) {
      const line = this.stdoutText.slice(0, nl);
      this.stdoutText = this.stdoutText.slice(nl + 1);
      const pending = this.pending;
      if (pending === undefined) continue;
      this.pending = undefined;
      clearTimeout(pending.timer);
      let reply: { result?: WorkerRunResult; error?: { message: string; usage: boolean } };
      try {
        reply = JSON.parse(line) as typeof reply;
      } catch {
        pending.reject(new Error(`the suite worker wrote a line that is not its reply: ${JSON.stringify(line.slice(0, 200))}`));
        continue;
      }
      if (reply.result !== undefined) pending.resolve(reply.result);
      else pending.reject(new WorkerRunError(reply.error?.message ?? 'the suite worker gave no result', reply.error?.usage === true));
    }
  }

  private fail(error: Error): void {
    this.alive = false;
    this.ended ??= error;
    const pending = this.pending;
    this.pending = undefined;
    if (pending !== undefined) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
  }

  private tail(): string {
    const text = this.stderrText.trim();
    return text === '' ? '' : `: ${text.slice(-STDERR_TAIL).split('\n').slice(-5).join(' | ')}`;
  }
}

/**
 * Up to `size` workers, each taking one run at a time; a worker that died or was killed is replaced by a new one
 * for the next run. `run` may be called `size` times at once.
 */
export class SuiteWorkerPool {
  private readonly idle: SuiteWorker[] = [];
  private readonly all = new Set<SuiteWorker>();

  constructor(private readonly options: SuiteWorkerOptions = {}) {}

  async run(options: WorkerRunOptions): Promise<WorkerRunResult> {
    let worker = this.idle.pop();
    while (worker !== undefined && !worker.alive) worker = this.idle.pop();
    if (worker === undefined) {
      worker = new SuiteWorker({ ...this.options, stderr: this.options.stderr ?? 'inherit' });
      this.all.add(worker);
    }
    try {
      return await worker.run(options);
    } finally {
      if (worker.alive) this.idle.push(worker);
      else this.all.delete(worker);
    }
  }

  close(): void {
    for (const worker of this.all) worker.close();
    this.all.clear();
    this.idle.length = 0;
  }
}
