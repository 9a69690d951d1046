// Test entry: `cgp-conformance provider …` with only the provider command registered, so the process tests
// do not depend on the rest of the CLI. Usage: node --import tsx test/provider/cli-entry.ts provider [options]
import { Command, CommanderError } from 'commander';
import { registerProviderCommand } from '../../src/cli/commands/provider.js';

const program = new Command().name('cgp-conformance').exitOverride();
registerProviderCommand(program);
program.parseAsync(process.argv.slice(2), { from: 'user' }).catch((err: unknown) => {
  if (!(err instanceof CommanderError)) process.stderr.write(`${String(err)}\n`);
  process.exitCode = err instanceof CommanderError && err.exitCode === 0 ? 0 : 2;
});
