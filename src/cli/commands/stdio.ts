// `cgp-conformance stdio [options] -- <command> [args…]` — run the provider-facing conformance suite against a
// provider spawned as a stdio child (one process per fresh connection). Progress goes to stderr; with
// --json, stdout carries only the JSON report. Exit codes: suite-command.ts.
import type { Command } from 'commander';
import { addCommonSuiteOptions, addProviderTargetOptions, runSuiteCommand, type CommonSuiteOptions, type ProviderTargetOptions } from '../suite-command.js';

interface StdioCliOptions extends CommonSuiteOptions, ProviderTargetOptions {
  shutdownGrace?: string;
}

export function registerStdioCommand(program: Command): void {
  const cmd = program
    .command('stdio')
    .description('run the provider conformance suite against a stdio provider: cgp-conformance stdio [options] -- <command> [args...]')
    .argument('<command>', 'the provider program (spawned once per fresh connection)')
    .argument('[args...]', "its arguments (after `--`, or after the command: options there are the provider's)")
    .option('--shutdown-grace <ms>', 'how long the provider has to exit after shutdown (default 2000)')
    // options after the provider command belong to the provider; before it, an unknown option is a usage error
    .passThroughOptions();
  addProviderTargetOptions(addCommonSuiteOptions(cmd, 'provider-stdio')).action(async (command: string, args: string[], opts: StdioCliOptions) => {
    await runSuiteCommand(
      'stdio',
      (common) => ({ side: 'provider', target: { kind: 'stdio', command, args }, reportName: opts.reportName ?? 'provider-stdio', progress: process.stderr, ...common }),
      opts,
    );
  });
}
