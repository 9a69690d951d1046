// The red team: every misbehaviour mode of the ONE manifest must be caught by the scenarios tagged with the
// ids it breaks (docs/architecture.md "Misbehaviour manifest", "Red team economics").
//
//   npm run red-team [-- --concurrency 2] [--mode <mode> …] [--baseline red-team.baseline.json] [--out reports/]
//                    [--manifest src/provider/misbehaviours.ts] [--runner src/conformance/run/run-suite.ts]
//                    [--run-timeout 300] [--timeout <ms>] [--discard]
//
// For each mode: runSuite({side, misbehave: mode, tags: '@A or @B', reportName: '<mode>',
// reportsDir: '<out>/red-team' (host: '<out>/red-team.host')}); plus one smoke run of the honest provider over the same scenarios
// (reportName 'smoke.honest'). The suite runner keeps per-process state, so with --concurrency > 1 the runs go
// to that many worker processes, each loading the suite once and running mode after mode
// (src/conformance/run/suite-worker.ts); with 1 they run in-process, one after the other.
// Writes <out>/red-team.json (deterministic) and
// prints a table mode → caught / NOT CAUGHT. Exit codes: 0 every mode caught (or a listed known gap) and the
// smoke passed; 1 a mode not caught, a manifest error (unknown id, id with no scenario), a failed smoke run or
// a stale baseline entry; 2 usage error (bad option, missing runner/manifest module, unreadable baseline).

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SuiteWorkerPool } from '../src/conformance/run/suite-worker.js';
import { parseArgs } from 'node:util';
import {
  BaselineError,
  readBaseline,
  renderRedTeamTable,
  runRedTeam,
  serializeRedTeam,
  type BaselineEntry,
  type ManifestEntry,
  type SuiteRunner,
  type SuiteRunOptions,
  type SuiteRunResult,
} from '../src/conformance/report/index.js';

const USAGE =
  'usage: run-red-team [--concurrency 2] [--mode <mode> …] [--baseline red-team.baseline.json] [--out reports/] ' +
  '[--manifest <module exporting MISBEHAVIOURS>] [--runner <module exporting runSuite>] [--side provider|host] ' +
  "[--run-timeout <seconds>] [--timeout <ms>: the runs' handshake and request timeout] " +
  "[--discard: the runs' files in a temporary directory, removed at the end (npm test)]";

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        concurrency: { type: 'string', default: '2' },
        mode: { type: 'string', multiple: true },
        baseline: { type: 'string' },
        out: { type: 'string' },
        manifest: { type: 'string' },
        runner: { type: 'string', default: 'src/conformance/run/run-suite.ts' },
        side: { type: 'string', default: 'provider' },
        'run-timeout': { type: 'string', default: '300' },
        timeout: { type: 'string' },
        discard: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    process.stderr.write(`--concurrency must be a positive integer\n`);
    return 2;
  }
  const runTimeout = Number(values['run-timeout']);
  if (!Number.isFinite(runTimeout) || runTimeout <= 0) {
    process.stderr.write(`--run-timeout must be a positive number of seconds\n`);
    return 2;
  }
  const timeout = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeout !== undefined && (!Number.isInteger(timeout) || timeout <= 0)) {
    process.stderr.write(`--timeout must be a positive whole number of milliseconds\n`);
    return 2;
  }
  const side = values.side;
  // default manifest: the provider's modes, or the bundled host's variants for --side host
  values.manifest ??= side === 'host' ? 'src/conformance/host-suite/variants/manifest.ts' : 'src/provider/misbehaviours.ts';
  if (side !== 'provider' && side !== 'host') {
    process.stderr.write(`--side must be provider or host\n`);
    return 2;
  }

  const manifestPath = resolve(values.manifest ?? '');
  const runnerPath = resolve(values.runner ?? '');
  for (const [what, path] of [
    ['manifest', manifestPath],
    ['suite runner', runnerPath],
  ] as const) {
    if (!existsSync(path)) {
      process.stderr.write(`red-team: the ${what} module ${path} does not exist (yet)\n`);
      return 2;
    }
  }
  const runnerModule = (await import(pathToFileURL(runnerPath).href)) as { runSuite?: SuiteRunner };
  const manifestModule = (await import(pathToFileURL(manifestPath).href)) as { MISBEHAVIOURS?: readonly ManifestEntry[] };
  if (!Array.isArray(manifestModule.MISBEHAVIOURS)) {
    process.stderr.write(`red-team: ${manifestPath} does not export MISBEHAVIOURS\n`);
    return 2;
  }
  const runSuite = runnerModule.runSuite;
  if (typeof runSuite !== 'function') {
    process.stderr.write(`red-team: ${runnerPath} does not export runSuite\n`);
    return 2;
  }
  const manifest = manifestModule.MISBEHAVIOURS;
  const only = values.mode;
  if (only) {
    const unknown = only.filter((m) => !manifest.some((e) => e.mode === m));
    if (unknown.length > 0) {
      process.stderr.write(`red-team: unknown mode(s): ${unknown.join(', ')}\n`);
      return 2;
    }
  }

  let baseline: BaselineEntry[] = [];
  const baselinePath = values.baseline ?? (existsSync('red-team.baseline.json') ? 'red-team.baseline.json' : undefined);
  if (baselinePath !== undefined) {
    try {
      baseline = readBaseline(baselinePath);
    } catch (err) {
      if (err instanceof BaselineError) {
        process.stderr.write(`red-team: ${err.message}\n`);
        return 2;
      }
      throw err;
    }
  }

  if (values.discard === true && values.out !== undefined) {
    process.stderr.write(`red-team: --discard and --out exclude each other\n`);
    return 2;
  }
  const outDir = values.discard === true ? mkdtempSync(join(tmpdir(), 'cgp-red-team-')) : (values.out ?? 'reports');
  try {
    return await runAndReport({ manifest, runnerPath, runSuite, concurrency, runTimeout, outDir, side, baseline, only, timeout, discard: values.discard === true });
  } finally {
    if (values.discard === true) rmSync(outDir, { recursive: true, force: true });
  }
}

/** The red team's runs, then its JSON (unless discarded) and its table. */
async function runAndReport(o: {
  manifest: readonly ManifestEntry[];
  runnerPath: string;
  runSuite: SuiteRunner;
  concurrency: number;
  runTimeout: number;
  outDir: string;
  side: 'provider' | 'host';
  baseline: BaselineEntry[];
  only: string[] | undefined;
  timeout: number | undefined;
  discard: boolean;
}): Promise<number> {
  const { manifest, runnerPath, runSuite, concurrency, runTimeout, outDir, side, baseline, only, timeout } = o;
  const workers = concurrency > 1 ? poolRunner(runnerPath, runTimeout * 1000) : undefined;
  const runner = workers?.runner ?? runSuite;
  const report = await runRedTeam({
    manifest,
    runner,
    // each side its own folder: the two sides may run at once into one --out (their smoke runs share a name)
    reportsDir: resolve(outDir, side === 'host' ? 'red-team.host' : 'red-team'),
    side,
    concurrency,
    baseline,
    ...(only ? { only } : {}),
    log: (line) => process.stderr.write(`${line}\n`),
    ...(timeout !== undefined ? { timeouts: { handshakeMs: timeout, requestMs: timeout } } : {}),
  }).finally(() => workers?.close());
  process.stdout.write(renderRedTeamTable(report));
  if (!o.discard) {
    mkdirSync(outDir, { recursive: true });
    const reportFile = side === 'host' ? 'red-team.host.json' : 'red-team.json';
    writeFileSync(join(outDir, reportFile), serializeRedTeam(report));
    process.stderr.write(`red-team: wrote ${join(outDir, reportFile)}\n`);
  }
  return report.ok ? 0 : 1;
}

/**
 * The runs in worker processes (the runner's state is per process): a pool that grows to as many workers as
 * runRedTeam runs at once (its concurrency), each loading the suite once and running mode after mode (src/conformance/run/suite-worker.ts); a run that outlives `timeoutMs`
 * has its worker killed, and the next run gets a new one.
 */
function poolRunner(runnerPath: string, timeoutMs: number): { runner: SuiteRunner; close: () => void } {
  const pool = new SuiteWorkerPool({ runner: runnerPath, runTimeoutMs: timeoutMs, stderr: 'inherit' });
  return { runner: (options) => pool.run(options), close: () => pool.close() };
}

process.exitCode = await main(process.argv.slice(2));
