// cgp-conformance — the command-line entry point (bin). Subcommands live in ./commands/.
// Exit codes (docs/architecture.md "Exit codes"): 0 no MUST failed (warnings allowed); 1 a MUST failed; 2 usage error or
// unreadable input; 3 the target never answered the handshake at all; 4 harness error (inconclusive run).
import { Command, CommanderError } from 'commander';
import { toolVersion } from '../util/tool-version.js';

type Register = (program: Command) => void;

/**
 * Every subcommand and where it lives. Load only what a run uses (docs/architecture.md "Performance"): a run names its command
 * first, so only that command's module (and what it imports) is loaded; help, and anything that is not a
 * known command name, loads them all (commander then lists them, or suggests the nearest).
 */
const COMMANDS: ReadonlyArray<[string, () => Promise<Register>]> = [
  ['validate', async () => (await import('./commands/validate.js')).registerValidateCommand],
  ['provider', async () => (await import('./commands/provider.js')).registerProviderCommand],
  ['stdio', async () => (await import('./commands/stdio.js')).registerStdioCommand],
  ['http', async () => (await import('./commands/http.js')).registerHttpCommand],
  ['host', async () => (await import('./commands/host.js')).registerHostCommand],
  ['certify', async () => (await import('./commands/certify.js')).registerCertifyCommand],
  ['report', async () => (await import('./commands/report.js')).registerReportCommand],
  ['explain', async () => (await import('./commands/explain.js')).registerExplainCommand],
  ['inspect', async () => (await import('./commands/inspect.js')).registerInspectCommand],
  ['ingest', async () => (await import('./commands/ingest.js')).registerIngestCommand],
  ['fuzz', async () => (await import('./commands/fuzz.js')).registerFuzzCommand],
  ['replay', async () => (await import('./commands/replay.js')).registerReplayCommand],
];

/** The program with every command (`only`: just the named one, when it is one). */
export async function buildProgram(only?: string): Promise<Command> {
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
    .exitOverride()
    .hook('preAction', (_program, command) => refuseOptionsAsValues(command));
  const chosen = COMMANDS.filter(([name]) => name === only);
  for (const [, load] of chosen.length === 1 ? chosen : COMMANDS) (await load())(program);
  return program;
}

/**
 * An option value that is itself one of the command's options (`--html --out dir`) is a usage error (exit 2):
 * commander would take `--out` as the file name, and the run would then fail on the wrong path. A value
 * that starts with `-` but names no option of the command is kept (`--tags "-x"` is the user's business).
 */
function refuseOptionsAsValues(command: Command): void {
  const flags = new Set<string>();
  for (const o of command.options) {
    if (o.long) flags.add(o.long);
    if (o.short) flags.add(o.short);
  }
  flags.add('--help');
  flags.add('-h');
  const values = command.opts() as Record<string, unknown>;
  for (const o of command.options) {
    if (!o.required && !o.optional) continue; // a boolean flag takes no value
    const value = values[o.attributeName()];
    for (const v of Array.isArray(value) ? value : [value]) {
      if (typeof v !== 'string') continue;
      const flag = v.split('=')[0]!;
      if (flags.has(flag)) {
        command.error(`error: option '${o.flags}' needs a value, but got the option '${v}' (give the value after ${o.long ?? o.short})`, { exitCode: 2, code: 'cgp.optionValueIsOption' });
      }
    }
  }
}

export async function main(argv: string[]): Promise<number> {
  const program = await buildProgram(argv[0]);
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
