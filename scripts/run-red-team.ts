// The red team: every misbehaviour mode of the ONE manifest must be caught by the scenarios tagged with the
// ids it breaks (DESIGN "Misbehaviour manifest", "Red team economics").
//
//   npm run red-team [-- --concurrency 2] [--mode <mode> …] [--baseline red-team.baseline.json] [--out reports/]
//                    [--manifest src/provider/misbehaviours.ts] [--runner src/conformance/run-suite.ts]
//
// For each mode: runSuite({side, misbehave: mode, tags: '@A or @B', reportName: 'red-team/<mode>'}); plus one
// smoke run of the honest provider over the same scenarios. Writes <out>/red-team.json (deterministic) and
// prints a table mode → caught / NOT CAUGHT. Exit codes: 0 every mode caught (or a listed known gap) and the
// smoke passed; 1 a mode not caught, a manifest error (unknown id, id with no scenario), a failed smoke run or
// a stale baseline entry; 2 usage error (bad option, missing runner/manifest module, unreadable baseline).

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
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
} from '../src/conformance/report/index.js';

const USAGE =
  'usage: run-red-team [--concurrency 2] [--mode <mode> …] [--baseline red-team.baseline.json] [--out reports/] ' +
  '[--manifest <module exporting MISBEHAVIOURS>] [--runner <module exporting runSuite>] [--side provider|host]';

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
        manifest: { type: 'string', default: 'src/provider/misbehaviours.ts' },
        runner: { type: 'string', default: 'src/conformance/run-suite.ts' },
        side: { type: 'string', default: 'provider' },
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
  const side = values.side;
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
  const manifestModule = (await import(pathToFileURL(manifestPath).href)) as { MISBEHAVIOURS?: readonly ManifestEntry[] };
  const runnerModule = (await import(pathToFileURL(runnerPath).href)) as { runSuite?: SuiteRunner };
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

  const report = await runRedTeam({
    manifest,
    runner: runnerModule.runSuite,
    side,
    concurrency,
    baseline,
    ...(only ? { only } : {}),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  const outDir = values.out ?? 'reports';
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'red-team.json'), serializeRedTeam(report));
  process.stdout.write(renderRedTeamTable(report));
  process.stderr.write(`red-team: wrote ${join(outDir, 'red-team.json')}\n`);
  return report.ok ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
