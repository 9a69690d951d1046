// cgp-conformance — the command-line entry point (bin). Subcommands live in ./commands/.
// Exit codes (DESIGN "CLI"): 0 no MUST failed (warnings allowed); 1 a MUST failed; 2 usage error or
// unreadable input; 3 the target never answered the handshake at all; 4 harness error (inconclusive run).
import { Command, CommanderError } from 'commander';
import { registerValidateCommand } from './commands/validate.js';
import { registerProviderCommand } from './commands/provider.js';
import { registerStdioCommand } from './commands/stdio.js';
import { registerHttpCommand } from './commands/http.js';
import { registerHostCommand } from './commands/host.js';
import { registerCertifyCommand } from './commands/certify.js';
import { registerReportCommand } from './commands/report.js';
import { registerExplainCommand } from './commands/explain.js';
import { registerInspectCommand } from './commands/inspect.js';
import { registerIngestCommand } from './commands/ingest.js';
import { registerFuzzCommand } from './commands/fuzz.js';
import { registerReplayCommand } from './commands/replay.js';
import { toolVersion } from './tool-version.js';

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('cgp-conformance')
    .description('Conformance toolkit for the Context Graph Protocol (contextgraph/1.0)')
    .version(toolVersion())
    // a suite command's options come before its target; what follows the target is the target's own
    .enablePositionalOptions()
    .showSuggestionAfterError(true)
    // commander's usage errors as one line: "cgp-conformance: error: unknown option '--tag' (Did you mean --tags?)"
    .configureOutput({ outputError: (text, write) => write(`cgp-conformance: ${text.trimEnd().replace(/\n+/g, ' ')}\n`) })
    .exitOverride();
  registerValidateCommand(program);
  registerProviderCommand(program);
  registerStdioCommand(program);
  registerHttpCommand(program);
  registerHostCommand(program);
  registerCertifyCommand(program);
  registerReportCommand(program);
  registerExplainCommand(program);
  registerInspectCommand(program);
  registerIngestCommand(program);
  registerFuzzCommand(program);
  registerReplayCommand(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help / --version exit 0; every other commander error is a usage error.
      return err.exitCode === 0 ? 0 : 2;
    }
    process.stderr.write(`cgp-conformance: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
}
