// `cgp-conformance host [--adapter <module> | --cmd "<command line>"] [--misbehave <mode>] [--tags <expr>] [--json]`
// — run the host-facing conformance suite against a host: the bundled reference host by default, a host
// adapter module exporting createHost (--adapter, like CGP_HOST), or a host in another process speaking the
// host control protocol (--cmd, like CGP_HOST_CMD; docs/host-control-protocol.md).
// Exit codes: 0 no MUST failed; 1 a MUST failed; 2 usage.
import type { Command } from 'commander';
import { runSuite } from '../../conformance/run-suite.js';
import { exitCodeOf, EXIT_USAGE, jsonReport, textReport } from '../../conformance/suite/cli-report.js';
import { HOST_MISBEHAVIOURS } from '../../conformance/host/variants/manifest.js';
import { toolVersion } from '../tool-version.js';
import { parseMs } from './stdio.js';

interface HostCliOptions {
  adapter?: string;
  cmd?: string;
  misbehave?: string;
  listMisbehaviours?: boolean;
  tags?: string;
  json?: boolean;
  timeout?: string;
  reportName?: string;
  reportsDir?: string;
}

export function registerHostCommand(program: Command): void {
  program
    .command('host')
    .description('run the host conformance suite against a host (default: the bundled reference host)')
    .option('--adapter <module>', 'a module exporting createHost(options) → HostUnderTest (like CGP_HOST)')
    .option('--cmd <command line>', 'a host process speaking the host control protocol (like CGP_HOST_CMD)')
    .option('--misbehave <mode>', 'bundled host only: one of its misbehaving variants (see --list-misbehaviours)')
    .option('--list-misbehaviours', 'list the bundled host\'s misbehaving variants and the ids each breaks')
    .option('--tags <expression>', 'cucumber tag expression selecting scenarios, e.g. "@C1" or "@R3 or @D2"')
    .option('--json', 'write only a JSON report to stdout')
    .option('--timeout <ms>', 'handshake and request timeout the host is given (default 10000)')
    .option('--report-name <name>', 'reports/<name>.messages.ndjson and .junit.xml (default host)')
    .option('--reports-dir <dir>', 'where the messages and junit files go (default <package>/reports)')
    .action(async (opts: HostCliOptions) => {
      if (opts.listMisbehaviours) {
        for (const m of HOST_MISBEHAVIOURS) process.stdout.write(`${m.mode.padEnd(28)} breaks ${m.breaks.join(', ')} — ${m.description}\n`);
        return;
      }
      const usage = (message: string): void => {
        process.stderr.write(`cgp-conformance host: ${message}\n`);
        process.exitCode = EXIT_USAGE;
      };
      if (opts.adapter !== undefined && opts.cmd !== undefined) return usage('give --adapter or --cmd, not both');
      if (opts.misbehave !== undefined && (opts.adapter !== undefined || opts.cmd !== undefined)) return usage('--misbehave applies to the bundled host only');
      if (opts.misbehave !== undefined && !HOST_MISBEHAVIOURS.some((m) => m.mode === opts.misbehave)) return usage(`unknown host misbehaviour ${JSON.stringify(opts.misbehave)}`);
      let timeout: number | undefined;
      try {
        timeout = parseMs('--timeout', opts.timeout);
      } catch (err) {
        return usage((err as Error).message);
      }
      const result = await runSuite({
        side: 'host',
        ...(opts.adapter !== undefined ? { hostModule: opts.adapter } : {}),
        ...(opts.cmd !== undefined ? { hostCommand: opts.cmd } : {}),
        ...(opts.misbehave !== undefined ? { misbehave: opts.misbehave } : {}),
        ...(opts.tags !== undefined ? { tags: opts.tags } : {}),
        ...(timeout !== undefined ? { timeouts: { handshakeMs: timeout, requestMs: timeout } } : {}),
        reportName: opts.reportName ?? 'host',
        ...(opts.reportsDir !== undefined ? { reportsDir: opts.reportsDir } : {}),
        progress: process.stderr,
      });
      const code = exitCodeOf(result);
      if (opts.json) process.stdout.write(`${JSON.stringify(jsonReport(result, toolVersion()), null, 2)}\n`);
      else process.stdout.write(textReport(result));
      process.exitCode = code;
      setTimeout(() => process.exit(code), 2_000).unref();
    });
}
