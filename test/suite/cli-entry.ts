// Test entry: `cgp-conformance stdio|http …` with only the suite commands registered, so the CLI tests do not
// depend on the rest of the CLI. Usage: node --import tsx test/suite/cli-entry.ts stdio [options] -- <command…>
import { Command, CommanderError } from 'commander';
import { registerHttpCommand } from '../../src/cli/commands/http.js';
import { registerStdioCommand } from '../../src/cli/commands/stdio.js';

const program = new Command().name('cgp-conformance').enablePositionalOptions().exitOverride();
registerStdioCommand(program);
registerHttpCommand(program);
program.parseAsync(process.argv.slice(2), { from: 'user' }).catch((err: unknown) => {
  if (!(err instanceof CommanderError)) process.stderr.write(`${String(err)}\n`);
  process.exitCode = err instanceof CommanderError && err.exitCode === 0 ? 0 : 2;
});
