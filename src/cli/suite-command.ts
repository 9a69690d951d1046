/**
 * What every suite command (`stdio`, `http`, `host`, `certify`) shares: the common options, the exit codes,
 * and running a suite into a printed report.
 *
 * Exit codes (docs/architecture.md "Exit codes"): 0 conformant (warnings allowed) · 1 a MUST failed · 2 usage or configuration
 * error · 3 the target never answered the handshake · 4 harness error (the run is inconclusive).
 */
import { statSync } from 'node:fs';
import { delimiter, resolve as resolvePath } from 'node:path';
import type { Command } from 'commander';
import { runSuite, type RunSuiteOptions, type RunSuiteResult } from '../conformance/run/run-suite.js';
import { EXIT_USAGE, exitCodesHelp } from '../conformance/run/exit-codes.js';
import { jsonReport, textReport } from '../conformance/provider-suite/cli-report.js';
import { ConfigError } from '../conformance/provider-suite/config.js';
import { toolVersion } from '../util/tool-version.js';
import { addCiKitOptions, applyCiKit, prepareCiKit, type CiKitOptions } from './ci-kit.js';

export const EXIT_CODES_HELP = exitCodesHelp();

export interface CommonSuiteOptions extends CiKitOptions {
  tags?: string;
  json?: boolean;
  timeout?: string;
  reportName?: string;
  out?: string;
  reportsDir?: string;
}

/** --tags --json --timeout --out (--reports-dir) --report-name, and the exit codes in --help. */
export function addCommonSuiteOptions(cmd: Command, defaultReportName: string): Command {
  // --junit --html --bug-report --strict --baseline (ci-kit.ts)
  return addCiKitOptions(cmd)
    .option('--tags <expression>', 'cucumber tag expression selecting scenarios, e.g. "@F5" or "@B1 or @B4"')
    .option('--json', 'write only a JSON report to stdout')
    .option('--timeout <ms>', 'handshake and request timeout (default 10000)')
    .option('--out <dir>', 'where the run writes its files (default $CGP_REPORTS_DIR, else ./cgp-reports)')
    .option('--reports-dir <dir>', 'alias of --out')
    .option('--report-name <name>', `<out>/<name>.messages.ndjson and .junit.xml (default ${defaultReportName})`)
    .addHelpText('after', EXIT_CODES_HELP);
}

/** `--file-root DIR` and `--retired-id ID` (repeatable): what a provider author tells the suite about the provider. */
export interface ProviderTargetOptions {
  fileRoot?: string[];
  retiredId?: string[];
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/**
 * The provider suite commands' options for what only the provider's author knows (stdio, http). Each has an
 * environment variable as its alias: CGP_PROVIDER_FILE_ROOTS (path-delimiter separated) and
 * CGP_PROVIDER_RETIRED_IDS (comma separated); options and variables add up.
 */
export function addProviderTargetOptions(cmd: Command): Command {
  return cmd
    .option(
      '--file-root <dir>',
      `a directory whose files the suite may re-read to check the digest of file provenance (S6.2); repeatable. A stdio provider's working directory is trusted already; nothing outside these is ever read. Alias: CGP_PROVIDER_FILE_ROOTS (separated by "${delimiter}")`,
      collect,
    )
    .option(
      '--retired-id <id>',
      'a frame id the provider has retired, which verify must never call valid (V3); repeatable. Without one, that probe is unwitnessed. Alias: CGP_PROVIDER_RETIRED_IDS (comma separated)',
      collect,
    );
}

/**
 * Check --file-root / --retired-id and hand them to the run through their environment aliases (the run
 * reads CGP_PROVIDER_FILE_ROOTS and CGP_PROVIDER_RETIRED_IDS), after any value the environment already has.
 * Throws ConfigError (a usage error, exit 2) for a root that is not a directory or an id that cannot be passed on.
 */
export function applyProviderTargetOptions(opts: ProviderTargetOptions, env: NodeJS.ProcessEnv = process.env): void {
  const roots = (opts.fileRoot ?? []).map((dir) => {
    const abs = resolvePath(dir);
    let isDir = false;
    try {
      isDir = statSync(abs).isDirectory();
    } catch {
      isDir = false;
    }
    if (!isDir) throw new ConfigError(`--file-root ${JSON.stringify(dir)}: no such directory (${abs})`);
    if (abs.includes(delimiter)) throw new ConfigError(`--file-root ${JSON.stringify(dir)}: the path contains "${delimiter}", which separates roots in CGP_PROVIDER_FILE_ROOTS`);
    return abs;
  });
  const ids = (opts.retiredId ?? []).map((id) => {
    if (id.trim() === '') throw new ConfigError('--retired-id expects a frame id, got an empty string');
    if (id.includes(',') || id.trim() !== id)
      throw new ConfigError(`--retired-id ${JSON.stringify(id)}: a frame id with a comma or surrounding spaces cannot be passed on (CGP_PROVIDER_RETIRED_IDS is comma separated)`);
    return id;
  });
  const join = (current: string | undefined, more: string[], sep: string) => [...(current ?? '').split(sep).filter((x) => x !== ''), ...more].join(sep);
  if (roots.length > 0) env.CGP_PROVIDER_FILE_ROOTS = join(env.CGP_PROVIDER_FILE_ROOTS, roots, delimiter);
  if (ids.length > 0) env.CGP_PROVIDER_RETIRED_IDS = join(env.CGP_PROVIDER_RETIRED_IDS, ids, ',');
}

/** Parse a positive millisecond option; undefined when absent; throws ConfigError otherwise. */
export function parseMs(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]+$/.test(value) || Number(value) <= 0) throw new ConfigError(`${name} expects a positive number of milliseconds, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** --out wins over its alias --reports-dir; undefined = the default (reports-dir.ts). */
export function outDirOption(opts: CommonSuiteOptions): string | undefined {
  if (opts.out !== undefined && opts.reportsDir !== undefined && opts.out !== opts.reportsDir) {
    throw new ConfigError(`--out ${JSON.stringify(opts.out)} and --reports-dir ${JSON.stringify(opts.reportsDir)} disagree (--reports-dir is an alias of --out: give one)`);
  }
  return opts.out ?? opts.reportsDir;
}

/** A usage error: one line on stderr, exit code 2. */
export function usageError(command: string, message: string): void {
  process.stderr.write(`cgp-conformance ${command}: ${message}\n`);
  process.exitCode = EXIT_USAGE;
}

/**
 * Run one suite, print its report (text, or only JSON with --json), set the exit code. A ConfigError
 * (bad tags, a reports directory that cannot be created, …) is a usage error: one line, exit 2.
 */
export async function runSuiteCommand(
  command: string,
  build: (common: { tags?: string; timeouts: RunSuiteOptions['timeouts']; reportsDir?: string }) => RunSuiteOptions,
  opts: CommonSuiteOptions & ProviderTargetOptions & { shutdownGrace?: string },
): Promise<RunSuiteResult | undefined> {
  let result: RunSuiteResult;
  let kit;
  try {
    kit = prepareCiKit(opts);
    const timeout = parseMs('--timeout', opts.timeout);
    const grace = parseMs('--shutdown-grace', opts.shutdownGrace);
    const reportsDir = outDirOption(opts);
    applyProviderTargetOptions(opts);
    const timeouts = {
      ...(timeout !== undefined ? { handshakeMs: timeout, requestMs: timeout } : {}),
      ...(grace !== undefined ? { shutdownGraceMs: grace } : {}),
    };
    // one suite per process: only its side's step definitions are loaded
    result = await runSuite({ ...build({ ...(opts.tags !== undefined ? { tags: opts.tags } : {}), timeouts, ...(reportsDir !== undefined ? { reportsDir } : {}) }), steps: 'side' });
  } catch (err) {
    if (err instanceof ConfigError) {
      usageError(command, err.message);
      return undefined;
    }
    throw err;
  }
  const ci = await applyCiKit(result, opts, kit);
  const code = ci.exitCode;
  if (opts.json) {
    process.stdout.write(`${JSON.stringify({ ...(jsonReport(result, toolVersion()) as object), ...ci.json }, null, 2)}\n`);
    if (result.neverAnswered) process.stderr.write(`cgp-conformance ${command}: the target never answered the handshake: ${result.reason ?? 'no reason recorded'}\n`);
  } else {
    process.stdout.write(textReport(result));
  }
  for (const line of ci.lines) process.stderr.write(`cgp-conformance ${command}: ${line}\n`);
  process.exitCode = code;
  exitSoon(code);
  return result;
}

/** Everything the suite opened is closed; if a misbehaving target left something alive, do not wait on it. */
export function exitSoon(code: number): void {
  setTimeout(() => process.exit(code), 2_000).unref();
}
