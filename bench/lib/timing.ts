// Shared by the bench/ scripts: run a command as a whole process and time it (wall, and the CPU that it
// and all its children used, from bash's `times`), and take medians. No figure here is a test: the
// scripts print ratios measured side by side in one run.
import { spawn } from 'node:child_process';

export interface Timed {
  wallMs: number;
  /** user + sys of the process and every child it waited for. */
  cpuMs: number;
  exitCode: number;
}

/** Run `argv` (no shell quoting needed) with its stdout/stderr discarded; resolves with wall and CPU time. */
export function timeProcess(argv: readonly string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; okExit?: readonly number[] } = {}): Promise<Timed> {
  const okExit = opts.okExit ?? [0];
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    // the command's stdout is discarded; its stderr is kept (the last 4 KB) to say why, should it fail
    const child = spawn('bash', ['-c', '"$0" "$@" >/dev/null 2>&3; s=$?; times; exit $s', ...argv], {
      ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}),
      env: opts.env ?? process.env,
      stdio: ['ignore', 'pipe', 'inherit', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (c: Buffer) => (err = (err + c.toString()).slice(-4096)));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - t0;
      const exitCode = code ?? -1;
      if (!okExit.includes(exitCode)) return reject(new Error(`${argv.join(' ')} exited ${exitCode}; its stderr ended:\n${err}`));
      // `times` prints the shell's own line, then its children's: "0m1.234s 0m0.123s"
      const last = out.trim().split('\n').pop() ?? '';
      const secs = [...last.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
      resolve({ wallMs, cpuMs: ((secs[0] ?? 0) + (secs[1] ?? 0)) * 1000, exitCode });
    });
  });
}

/** Wall time of one process started directly (no shell between: start-up figures are tens of ms). */
export function wallOf(argv: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`${argv.join(' ')} exited ${code}`))));
  });
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
