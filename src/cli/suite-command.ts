/**
 * What every suite command (`stdio`, `http`, `host`, `certify`) shares: the common options, the exit codes,
 * and running a suite into a printed report.
 *
 * Exit codes (docs/architecture.md "Exit codes"): 0 conformant (warnings allowed) · 1 a MUST failed · 2 usage or configuration
 * error · 3 the target never answered the handshake · 4 harness error (the run is inconclusive).
 */
import type { Command } from 'commander';
import { runSuite, type RunSuiteOptions, type RunSuiteResult } from '../conformance/run/run-suite.js';
import { EXIT_USAGE, exitCodesHelp } from '../conformance/run/exit-codes.js';
import { jsonReport, textReport } from '../conformance/suite/cli-report.js';
import { ConfigError } from '../conformance/suite/config.js';
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
  opts: CommonSuiteOptions & { shutdownGrace?: string },
): Promise<RunSuiteResult | undefined> {
  let result: RunSuiteResult;
  let kit;
  try {
    kit = prepareCiKit(opts);
    const timeout = parseMs('--timeout', opts.timeout);
    const grace = parseMs('--shutdown-grace', opts.shutdownGrace);
    const reportsDir = outDirOption(opts);
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
