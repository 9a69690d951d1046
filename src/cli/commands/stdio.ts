// `cgp-conformance stdio [--tags <expr>] [--json] [--timeout <ms>] -- <command> [args…]` — run the
// provider-facing conformance suite against a provider spawned as a stdio child (one process per fresh
// connection). Exit codes: 0 no MUST failed; 1 a MUST failed; 2 usage; 3 the target never answered the
// handshake at all. Progress goes to stderr; with --json, stdout carries only the JSON report.
import type { Command } from 'commander';
import { runSuite } from '../../conformance/run-suite.js';
import { EXIT_USAGE, jsonReport, textReport } from '../../conformance/suite/cli-report.js';
import { ConfigError } from '../../conformance/suite/config.js';
import { toolVersion } from '../tool-version.js';
import { addCiKitOptions, applyCiKit, prepareCiKit, type CiKitOptions } from '../ci-kit.js';

export interface SuiteCliOptions extends CiKitOptions {
  tags?: string;
  json?: boolean;
  timeout?: string;
  shutdownGrace?: string;
  reportName?: string;
  reportsDir?: string;
}

/** Parse a positive millisecond option; undefined when absent; throws ConfigError otherwise. */
export function parseMs(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]+$/.test(value) || Number(value) <= 0) throw new ConfigError(`${name} expects a positive number of milliseconds, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** Shared by `stdio` and `http`: run, print, set the exit code. */
export async function runSuiteCommand(
  name: string,
  target: { kind: 'stdio'; command: string; args: string[] } | { kind: 'http'; url: string },
  opts: SuiteCliOptions,
): Promise<void> {
  let timeout: number | undefined;
  let grace: number | undefined;
  let kit;
  try {
    timeout = parseMs('--timeout', opts.timeout);
    grace = parseMs('--shutdown-grace', opts.shutdownGrace);
    kit = prepareCiKit(opts);
  } catch (err) {
    process.stderr.write(`cgp-conformance ${name}: ${(err as Error).message}\n`);
    process.exitCode = EXIT_USAGE;
    return;
  }
  const timeouts = {
    ...(timeout !== undefined ? { handshakeMs: timeout, requestMs: timeout } : {}),
    ...(grace !== undefined ? { shutdownGraceMs: grace } : {}),
  };
  let result;
  try {
    result = await runSuite({
      side: 'provider',
      target,
      ...(opts.tags !== undefined ? { tags: opts.tags } : {}),
      reportName: opts.reportName ?? `provider-${name}`,
      ...(opts.reportsDir !== undefined ? { reportsDir: opts.reportsDir } : {}),
      timeouts,
      progress: process.stderr,
    });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`cgp-conformance ${name}: ${err.message}\n`);
      process.exitCode = EXIT_USAGE;
      return;
    }
    throw err;
  }
  const ci = applyCiKit(result, opts, kit);
  const code = ci.exitCode;
  if (opts.json) process.stdout.write(`${JSON.stringify({ ...(jsonReport(result, toolVersion()) as object), ...ci.json }, null, 2)}\n`);
  else process.stdout.write(textReport(result));
  for (const line of ci.lines) process.stderr.write(`cgp-conformance ${name}: ${line}\n`);
  if (result.neverAnswered) process.stderr.write(`cgp-conformance ${name}: the target never answered the handshake (${result.reason ?? 'no reason'})\n`);
  process.exitCode = code;
  // Everything the suite opened is closed; if a misbehaving target left something alive, do not wait on it.
  setTimeout(() => process.exit(code), 2_000).unref();
}

export function registerStdioCommand(program: Command): void {
  const cmd = program
    .command('stdio')
    .description('run the provider conformance suite against a stdio provider: cgp-conformance stdio [options] -- <command> [args...]')
    .argument('<command>', 'the provider program (spawned once per fresh connection)')
    .argument('[args...]', 'its arguments (put them after `--` so they are not read as options of this command)')
    .option('--tags <expression>', 'cucumber tag expression selecting scenarios, e.g. "@F5" or "@B1 or @B4"')
    .option('--json', 'write only a JSON report to stdout')
    .option('--timeout <ms>', 'handshake and request timeout (default 10000)')
    .option('--shutdown-grace <ms>', 'how long the provider has to exit after shutdown (default 2000)')
    .option('--report-name <name>', 'reports/<name>.messages.ndjson and .junit.xml (default provider-stdio)')
    .option('--reports-dir <dir>', 'where the messages and junit files go (default <package>/reports)')
    .allowUnknownOption();
  addCiKitOptions(cmd).action(async (command: string, args: string[], opts: SuiteCliOptions) => {
      await runSuiteCommand('stdio', { kind: 'stdio', command, args }, opts);
    });
}
