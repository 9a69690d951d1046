// `cgp-conformance host [--adapter <module> | --cmd "<command line>"] [--misbehave <mode>] [options]` — run
// the host-facing conformance suite against a host: the bundled reference host by default, a host adapter
// module exporting createHost (--adapter, like CGP_HOST), or a host in another process speaking the host
// control protocol (--cmd, like CGP_HOST_CMD; docs/host-control-protocol.md). The adapter is loaded, or the
// host process started and initialised, once before any scenario: a host that cannot be is one error line
// and exit 2. Exit codes: suite-command.ts.
import type { Command } from 'commander';
import { hostParametersFromEnv, preflightHost } from '../../conformance/host-suite/runtime.js';
import { HOST_MISBEHAVIOURS } from '../../conformance/host-suite/variants/manifest.js';
import { ConfigError } from '../../conformance/provider-suite/config.js';
import { addCommonSuiteOptions, runSuiteCommand, usageError, type CommonSuiteOptions } from '../suite-command.js';

interface HostCliOptions extends CommonSuiteOptions {
  adapter?: string;
  cmd?: string;
  misbehave?: string;
  listMisbehaviours?: boolean;
}

export function registerHostCommand(program: Command): void {
  const cmd = program
    .command('host')
    .description('run the host conformance suite against a host (default: the bundled reference host)')
    .option('--adapter <module>', 'a module exporting createHost(options) → HostUnderTest (like CGP_HOST)')
    .option('--cmd <command line>', 'a host process speaking the host control protocol (like CGP_HOST_CMD)')
    .option('--misbehave <mode>', 'bundled host only: one of its misbehaving variants (see --list-misbehaviours)')
    .option('--list-misbehaviours', "list the bundled host's misbehaving variants and the ids each breaks");
  addCommonSuiteOptions(cmd, 'host').action(async (opts: HostCliOptions) => {
    if (opts.listMisbehaviours) {
      for (const m of HOST_MISBEHAVIOURS) process.stdout.write(`${m.mode.padEnd(28)} breaks ${m.breaks.join(', ')} — ${m.description}\n`);
      return;
    }
    if (opts.adapter !== undefined && opts.cmd !== undefined) return usageError('host', 'give --adapter or --cmd, not both');
    if (opts.misbehave !== undefined && (opts.adapter !== undefined || opts.cmd !== undefined)) return usageError('host', '--misbehave applies to the bundled host only');
    if (opts.misbehave !== undefined && !HOST_MISBEHAVIOURS.some((m) => m.mode === opts.misbehave)) {
      return usageError('host', `unknown host misbehaviour ${JSON.stringify(opts.misbehave)} (see --list-misbehaviours)`);
    }
    try {
      // the host the run will certify: the options, else CGP_HOST / CGP_HOST_CMD (as run-suite resolves it)
      const env = hostParametersFromEnv();
      const hostModule = opts.adapter ?? (opts.cmd === undefined ? env.hostModule : undefined);
      const hostCommand = opts.cmd ?? (opts.adapter === undefined ? env.hostCommand : undefined);
      await preflightHost({
        ...(hostModule !== undefined ? { hostModule } : {}),
        ...(hostCommand !== undefined ? { hostCommand } : {}),
        ...(opts.timeout !== undefined && /^[0-9]+$/.test(opts.timeout) ? { handshakeTimeoutMs: Number(opts.timeout), requestTimeoutMs: Number(opts.timeout) } : {}),
      });
    } catch (err) {
      if (err instanceof ConfigError) return usageError('host', err.message);
      throw err;
    }
    await runSuiteCommand(
      'host',
      (common) => ({
        side: 'host',
        ...(opts.adapter !== undefined ? { hostModule: opts.adapter } : {}),
        ...(opts.cmd !== undefined ? { hostCommand: opts.cmd } : {}),
        ...(opts.misbehave !== undefined ? { misbehave: opts.misbehave } : {}),
        reportName: opts.reportName ?? 'host',
        progress: process.stderr,
        ...common,
      }),
      opts,
    );
  });
}
