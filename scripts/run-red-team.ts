// The red team: every misbehaviour mode of the ONE manifest must be caught by the scenarios tagged with the
// ids it breaks (docs/architecture.md "Misbehaviour manifest", "Red team economics").
//
//   npm run red-team [-- --concurrency 2] [--mode <mode> …] [--baseline red-team.baseline.json] [--out reports/]
//                    [--manifest src/provider/misbehaviours.ts] [--runner src/conformance/run/run-suite.ts]
//                    [--run-timeout 300]
//
// For each mode: runSuite({side, misbehave: mode, tags: '@A or @B', reportName: '<mode>',
// reportsDir: '<out>/red-team'}); plus one smoke run of the honest provider over the same scenarios
// (reportName 'smoke.honest'). The suite runner keeps per-process state, so with --concurrency > 1 each run
// goes to its own child process (this script with --run-one); with 1 they run in-process, one after the other.
// Writes <out>/red-team.json (deterministic) and
// prints a table mode → caught / NOT CAUGHT. Exit codes: 0 every mode caught (or a listed known gap) and the
// smoke passed; 1 a mode not caught, a manifest error (unknown id, id with no scenario), a failed smoke run or
// a stale baseline entry; 2 usage error (bad option, missing runner/manifest module, unreadable baseline).

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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
  '[--run-timeout <seconds>]';

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        concurrency: { type: 'string', default: '2' },
        mode: { type: 'string', multiple: true },
        baseline: { type: 'string' },
        out: { type: 'string', default: 'reports' },
        manifest: { type: 'string' },
        runner: { type: 'string', default: 'src/conformance/run/run-suite.ts' },
        side: { type: 'string', default: 'provider' },
        'run-timeout': { type: 'string', default: '300' },
        'run-one': { type: 'string' },
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
  if (values['run-one'] !== undefined) return runOne(runnerModule.runSuite, values['run-one']);
  const manifestModule = (await import(pathToFileURL(manifestPath).href)) as { MISBEHAVIOURS?: readonly ManifestEntry[] };
  if (!Array.isArray(manifestModule.MISBEHAVIOURS)) {
    process.stderr.write(`red-team: ${manifestPath} does not export MISBEHAVIOURS\n`);
    return 2;
  }
  if (typeof runnerModule.runSuite !== 'function') {
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

  const outDir = values.out ?? 'reports';
  const runner = concurrency > 1 ? processRunner(runnerPath, runTimeout * 1000) : runnerModule.runSuite;
  const report = await runRedTeam({
    manifest,
    runner,
    reportsDir: resolve(outDir, 'red-team'),
    side,
    concurrency,
    baseline,
    ...(only ? { only } : {}),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  mkdirSync(outDir, { recursive: true });
  const reportFile = side === 'host' ? 'red-team.host.json' : 'red-team.json';
  writeFileSync(join(outDir, reportFile), serializeRedTeam(report));
  process.stdout.write(renderRedTeamTable(report));
  process.stderr.write(`red-team: wrote ${join(outDir, reportFile)}\n`);
  return report.ok ? 0 : 1;
}

/** Worker mode: one run of the suite runner, its result as one JSON line on stdout. */
async function runOne(runSuite: SuiteRunner | undefined, json: string): Promise<number> {
  if (typeof runSuite !== 'function') {
    process.stderr.write('red-team worker: the runner module does not export runSuite\n');
    return 2;
  }
  // one suite per worker process: only its side's step definitions are loaded
  const options = { ...(JSON.parse(json) as SuiteRunOptions), steps: 'side' as const };
  const result = await runSuite(options);
  const line = `${JSON.stringify({
    success: result.success,
    messagesPath: result.messagesPath,
    ...(result.ran !== undefined ? { ran: result.ran } : {}),
    ...(result.reason !== undefined ? { reason: result.reason } : {}),
  })}\n`;
  // Exit as soon as the line is out: a run must not be kept alive by a handle the runner left behind.
  await new Promise<void>((done) => process.stdout.write(line, () => done()));
  process.exit(0);
}

/** Each run in a child process (the runner's state is per process), killed if it outlives `timeoutMs`. */
function processRunner(runnerPath: string, timeoutMs: number): SuiteRunner {
  const script = fileURLToPath(import.meta.url);
  return (options) =>
    new Promise<SuiteRunResult>((resolveRun, reject) => {
      const child = spawn(process.execPath, [...process.execArgv, script, '--runner', runnerPath, '--run-one', JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`run ${options.reportName} did not finish within ${timeoutMs / 1000} s (killed)`));
      }, timeoutMs);
      child.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        const last = stdout.trim().split('\n').pop() ?? '';
        try {
          if (code !== 0) throw new Error(`exit code ${code}`);
          resolveRun(JSON.parse(last) as SuiteRunResult);
        } catch (err) {
          reject(new Error(`run ${options.reportName} failed (${(err as Error).message}): ${stderr.trim().split('\n').slice(-5).join(' | ')}`));
        }
      });
    });
}

process.exitCode = await main(process.argv.slice(2));
