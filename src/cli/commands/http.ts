// `cgp-conformance http [options] <url>` — run the provider-facing conformance suite against an HTTP provider
// (one envelope per POST). Stdio-only probes (malformed lines, shutdown, raw framing) are reported
// not-applicable. A non-loopback http:// URL is refused (C7): use https://. Exit codes: suite-command.ts.
import type { Command } from 'commander';
import { addCommonSuiteOptions, addProviderTargetOptions, runSuiteCommand, type CommonSuiteOptions, type ProviderTargetOptions } from '../suite-command.js';

export function registerHttpCommand(program: Command): void {
  const cmd = program
    .command('http')
    .description('run the provider conformance suite against an HTTP provider')
    .argument('<url>', 'the provider endpoint (http://127.0.0.1:<port>/ on loopback, else https://)');
  addProviderTargetOptions(addCommonSuiteOptions(cmd, 'provider-http')).action(async (url: string, opts: CommonSuiteOptions & ProviderTargetOptions) => {
    await runSuiteCommand('http', (common) => ({ side: 'provider', target: { kind: 'http', url }, reportName: opts.reportName ?? 'provider-http', progress: process.stderr, ...common }), opts);
  });
}
