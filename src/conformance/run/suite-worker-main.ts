/**
 * A suite worker's process (suite-worker.ts): reads one JSON line of options per run on stdin, runs the suite
 * (runSuite — run-suite.ts's, or that of the runner module named as the first argument — one run after the
 * other, loading only the first run's side's step definitions) and answers each
 * with one JSON line on stdout — `{"result": …}` or `{"error": {"message", "usage"}}`. Stdout carries nothing
 * else (cucumber's progress, when asked for, goes to stderr). It exits when its input ends.
 */
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { ConfigError } from '../provider-suite/config.js';
import type { RunSuiteOptions } from './run-suite.js';
import type { WorkerRunOptions, WorkerRunResult } from './suite-worker.js';

type Runner = (options: RunSuiteOptions) => Promise<WorkerRunResult>;

async function main(): Promise<void> {
  const runnerModule = process.argv[2];
  const { runSuite } = (runnerModule !== undefined ? await import(pathToFileURL(runnerModule).href) : await import('./run-suite.js')) as { runSuite: Runner };
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    let reply: { result: WorkerRunResult } | { error: { message: string; usage: boolean } };
    try {
      const options = JSON.parse(line) as WorkerRunOptions;
      // the result is plain data (its summary and config included): it crosses as JSON
      reply = { result: await runSuite({ ...options, progress: options.progress === 'stderr' ? process.stderr : null, steps: 'side' }) };
    } catch (err) {
      const e = err as Error;
      reply = { error: { message: e instanceof ConfigError ? e.message : (e.stack ?? String(e)), usage: e instanceof ConfigError } };
    }
    await new Promise<void>((done) => process.stdout.write(`${JSON.stringify(reply)}\n`, () => done()));
  }
  // a run must not keep the worker alive through a handle it left behind
  process.exit(0);
}

await main();
