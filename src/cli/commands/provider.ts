// `cgp-conformance provider`: serve the bundled reference provider "example-docs" over stdio (default) or
// HTTP on loopback, honestly or with one misbehaviour mode from the manifest; or list those modes.
import type { Command } from 'commander';
import { MISBEHAVIOURS } from '../../provider/misbehaviours.js';
import { runProvider, UsageError } from '../../provider/run.js';

interface ProviderCliOptions {
  http?: string;
  misbehave?: string;
  listMisbehaviours?: boolean;
  json?: boolean;
}

/** The manifest as text: one block per mode, its broken ids, then its description. */
export function formatMisbehaviours(): string {
  const width = Math.max(...MISBEHAVIOURS.map((m) => m.mode.length));
  const claim = (m: (typeof MISBEHAVIOURS)[number]): string => {
    const entry = m as { breaks: readonly string[]; exercises?: readonly string[]; unbacked?: string };
    if (entry.breaks.length > 0) return `breaks ${entry.breaks.join(', ')}`;
    if (entry.exercises?.length) return `breaks nothing provider-side; fixture for host ${entry.exercises.join(', ')}`;
    return `breaks no SPEC id (unbacked: ${entry.unbacked ?? 'no reason given'})`;
  };
  return MISBEHAVIOURS.map((m) => `${m.mode.padEnd(width)}  ${claim(m)}\n${' '.repeat(width + 2)}${m.description}`).join('\n') + '\n';
}

export function registerProviderCommand(program: Command): void {
  program
    .command('provider')
    .description('serve the bundled reference provider "example-docs" (stdio by default)')
    .option('--http <port>', 'serve HTTP on 127.0.0.1:<port> instead of stdio (0 = ephemeral; the URL is printed on stderr)')
    .option('--misbehave <mode>', 'break one guarantee on purpose (see --list-misbehaviours)')
    .option('--list-misbehaviours', 'list every misbehaviour mode with the anchor/rule ids it breaks')
    .option('--json', 'with --list-misbehaviours: print the manifest as JSON')
    .action(async (opts: ProviderCliOptions) => {
      if (opts.listMisbehaviours) {
        process.stdout.write(opts.json ? `${JSON.stringify(MISBEHAVIOURS, null, 2)}\n` : formatMisbehaviours());
        return;
      }
      if (opts.json) {
        process.stderr.write('cgp-conformance provider: --json only applies to --list-misbehaviours\n');
        process.exitCode = 2;
        return;
      }
      let code: number;
      try {
        code = await runProvider({ http: opts.http, misbehave: opts.misbehave });
      } catch (err) {
        if (!(err instanceof UsageError)) throw err;
        process.stderr.write(`cgp-conformance provider: ${err.message}\n`);
        process.exitCode = 2;
        return;
      }
      // The provider has stopped serving (shutdown, end of input, or a crash mode): end promptly (R2).
      process.exit(code);
    });
}
