// Run a command as a child process and collect what it wrote (tests of the CLI as users run it).
import { spawn } from 'node:child_process';

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of a CLI run with no target variable of the caller's leaking in. */
export function cliEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, CGP_PROVIDER: '', CGP_PROVIDER_URL: '', CGP_MISBEHAVE: '', CGP_HOST: '', CGP_HOST_CMD: '', CGP_HOST_MISBEHAVE: '', ...extra };
}

/** Spawn `argv`, gather stdout and stderr (all of them: it resolves once both have closed); killed (SIGKILL) after `timeoutMs`. Never rejects. */
export function runProcess(argv: readonly string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Ran> {
  return new Promise((resolve) => {
    const [command, ...args] = argv;
    const child = spawn(command!, args, { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'], ...(opts.env ? { env: opts.env } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
