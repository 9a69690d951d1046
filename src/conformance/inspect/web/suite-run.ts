/**
 * "Run the suite from the page" (docs/inspector.md): the provider suite in a child process of its own
 * (suite-child.ts, its own process group), its progress lines relayed as they come, its coverage page kept
 * for the page to show. Cancel, or the inspector stopping, kills the whole group: no provider the suite
 * spawned outlives it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPackageRoot } from '../../../util/package-root.js';
import type { InspectTarget } from './link.js';

/** This module runs as TypeScript under tsx (a checkout) rather than compiled (dist/, or a bundle of it). */
const TYPESCRIPT = fileURLToPath(import.meta.url).endsWith('.ts');

/** A module of this directory, as the file a fresh process or cucumber loads (read from the package root). */
export function moduleFile(name: string): string {
  const root = findPackageRoot();
  return TYPESCRIPT ? join(root, 'src', 'conformance', 'inspect', 'web', `${name}.ts`) : join(root, 'dist', 'src', 'conformance', 'inspect', 'web', `${name}.js`);
}

export interface SuiteProgress {
  type: 'scenario';
  done: number;
  total: number;
  name: string;
  uri: string;
  status: string;
}

export interface SuiteDone {
  type: 'done';
  ran: boolean;
  exit_code: number;
  conformant?: boolean;
  reason?: string;
  summary?: Record<string, number>;
  must_failed?: string[];
  totals?: Record<string, number>;
  html?: string;
}

export class SuiteRun {
  readonly progress: SuiteProgress[] = [];
  done?: SuiteDone;
  readonly dir: string;
  private readonly child: ChildProcess;
  private stderr = '';
  private readonly finished: Promise<void>;

  constructor(target: InspectTarget, timeoutMs: number | undefined, on: { progress: (p: SuiteProgress) => void; done: (d: SuiteDone) => void }) {
    this.dir = mkdtempSync(join(tmpdir(), 'cgp-inspector-suite-'));
    const args = JSON.stringify({ target, outDir: this.dir, formatter: moduleFile('progress-formatter'), ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
    const node = TYPESCRIPT ? ['--import', 'tsx'] : [];
    this.child = spawn(process.execPath, [...node, moduleFile('suite-child'), args], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CGP_PROVIDER: '', CGP_PROVIDER_URL: '', CGP_MISBEHAVE: '' },
    });
    live.add(this);
    let buf = '';
    this.child.stdout!.setEncoding('utf8');
    this.child.stdout!.on('data', (chunk: string) => {
      buf += chunk;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        let msg: SuiteProgress | SuiteDone | undefined;
        try {
          msg = JSON.parse(line) as SuiteProgress | SuiteDone;
        } catch {
          continue; // not one of ours (cucumber writes nothing else on this stream)
        }
        if (msg.type === 'scenario') {
          this.progress.push(msg);
          on.progress(msg);
        } else if (msg.type === 'done') {
          this.done = msg;
        }
      }
    });
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-8000);
    });
    this.child.on('error', () => undefined);
    this.finished = new Promise((resolve) => {
      this.child.once('close', (code, signal) => {
        live.delete(this);
        this.done ??= {
          type: 'done',
          ran: false,
          exit_code: 4,
          reason: `the suite process ended (${signal !== null ? `signal ${signal}` : `exit status ${code}`}) without a verdict${this.stderr ? `: ${this.stderr.trim().split('\n').slice(-3).join(' / ')}` : ''}`,
        };
        on.done(this.done);
        resolve();
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * Stop the suite: SIGTERM first (the suite kills the process groups of the providers it spawned, each in a
   * group of its own, then ends), SIGKILL to its group after a grace. Resolves once it is gone (bounded).
   */
  async cancel(): Promise<void> {
    const pid = this.child.pid;
    if (!this.running || pid === undefined) return;
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
    const gone = await Promise.race([this.finished.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 2_000).unref())]);
    if (!gone) {
      killGroup(pid);
      await Promise.race([this.finished, new Promise((r) => setTimeout(r, 2_000).unref())]);
    }
  }

  /** Remove the run's directory (its messages file and coverage page). */
  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

const live = new Set<SuiteRun>();
process.on('exit', () => {
  for (const run of live) if (run.pid !== undefined) killGroup(run.pid);
});
