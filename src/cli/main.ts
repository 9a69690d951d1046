// cgp-conformance — the command-line entry point (bin). Subcommands live in ./commands/.
// Exit codes (docs/architecture.md "Exit codes"): 0 no MUST failed (warnings allowed); 1 a MUST failed; 2 usage error or
// unreadable input; 3 the target never answered the handshake at all; 4 harness error (inconclusive run).
import { Command, CommanderError, Help } from 'commander';
import { importCommand, importSuiteCommand } from './import-command.js';
import { toolVersion } from '../util/tool-version.js';

type Register = (program: Command) => void;

/**
 * Every subcommand: its name, its line in the top-level help (the term and the description its module
 * registers; test/cli/main-help.test.ts holds them equal), and where it lives. A run names its command
 * first, so only that command's module (and what it imports) is loaded. `--version`, `--help`, `help` and
 * anything that is not a known command name load none: the program then carries each command as its help
 * line only, which is all commander needs to list them or suggest the nearest. `help <command>` loads that
 * command.
 */
interface CommandEntry {
  name: string;
  /** The command's term in the top-level help, as commander prints it ("stdio [options] <command> [args...]"). */
  term: string;
  description: string;
  load: () => Promise<Register>;
  /** The command runs a suite through cucumber. */
  cucumber?: true;
}
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'validate',
    term: 'validate [options] <files...>',
    description:
      'validate JSON or NDJSON CGP envelopes and lifecycle records (schema lint + protocol checks + record_hash); NDJSON is streamed (memory independent of its size), a JSON document (one object or an array) is read whole',
    load: async () => (await importCommand<typeof import('./commands/validate.js')>('validate')).registerValidateCommand,
  },
  {
    name: 'provider',
    term: 'provider [options]',
    description: 'serve the bundled reference provider "example-docs" (stdio by default)',
    load: async () => (await importCommand<typeof import('./commands/provider.js')>('provider')).registerProviderCommand,
  },
  {
    name: 'stdio',
    term: 'stdio [options] <command> [args...]',
    description: 'run the provider conformance suite against a stdio provider: cgp-conformance stdio [options] -- <command> [args...]',
    load: async () => (await importSuiteCommand<typeof import('./commands/stdio.js')>('stdio')).registerStdioCommand,
    cucumber: true,
  },
  {
    name: 'http',
    term: 'http [options] <url>',
    description: 'run the provider conformance suite against an HTTP provider',
    load: async () => (await importSuiteCommand<typeof import('./commands/http.js')>('http')).registerHttpCommand,
    cucumber: true,
  },
  {
    name: 'host',
    term: 'host [options]',
    description: 'run the host conformance suite against a host (default: the bundled reference host)',
    load: async () => (await importSuiteCommand<typeof import('./commands/host.js')>('host')).registerHostCommand,
    cucumber: true,
  },
  {
    name: 'certify',
    term: 'certify [options]',
    description: 'certify the bundled provider (stdio + in-process) and the bundled host; merged coverage report',
    load: async () => (await importSuiteCommand<typeof import('./commands/certify.js')>('certify')).registerCertifyCommand,
    cucumber: true,
  },
  {
    name: 'report',
    term: 'report [options]',
    description: 'rebuild coverage.{json,md,html} and badge.svg from the message files of earlier runs',
    load: async () => (await importCommand<typeof import('./commands/report.js')>('report')).registerReportCommand,
  },
  {
    name: 'explain',
    term: 'explain [options] [id]',
    description: 'explain an anchor or rule id: requirement, SPEC.md passage, interpretations, witnessing scenarios, red-team modes',
    load: async () => (await importCommand<typeof import('./commands/explain.js')>('explain')).registerExplainCommand,
  },
  {
    name: 'inspect',
    term: 'inspect [options] <target...>',
    description: 'handshake a provider, print its ack and the frames of one sample query (judges nothing): inspect [options] -- <command> [args...] | inspect [options] <url>',
    load: async () => (await importCommand<typeof import('./commands/inspect.js')>('inspect')).registerInspectCommand,
  },
  {
    name: 'ingest',
    term: 'ingest [options] [files...]',
    description: 'ingest a paste (logs, stack traces, tables, code, notes, paths) as a local CGP provider',
    load: async () => (await importCommand<typeof import('./commands/ingest.js')>('ingest')).registerIngestCommand,
  },
  {
    name: 'fuzz',
    term: 'fuzz [options] <target...>',
    description: 'fuzz a provider with hostile input: cgp-conformance fuzz [options] -- <command> [args...]  |  fuzz <url>',
    load: async () => (await importCommand<typeof import('./commands/fuzz.js')>('fuzz')).registerFuzzCommand,
  },
  {
    name: 'matrix',
    term: 'matrix [options] <file>',
    description: 'run the suite against every implementation a matrix file lists, side by side in one static site (also: matrix diff, matrix merge)',
    load: async () => (await importCommand<typeof import('./commands/matrix.js')>('matrix')).registerMatrixCommand,
  },
  {
    name: 'replay',
    term: 'replay [options] <file> <target...>',
    description: 'replay a fuzz transcript: cgp-conformance replay FILE [options] -- <command> [args...]  |  replay FILE <url>',
    load: async () => (await importCommand<typeof import('./commands/replay.js')>('replay')).registerReplayCommand,
  },
];

/**
 * The program. `only` names the command a run chose: that command is loaded and registered, and the others
 * are not there at all. Otherwise every command is there as its help line only (nothing loaded); with
 * `every`, every command is loaded and registered (the help test compares the two).
 */
export async function buildProgram(only?: string, every = false): Promise<Command> {
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
  const chosen = COMMANDS.find((c) => c.name === only);
  if (chosen !== undefined) (await chosen.load())(program);
  else if (every) for (const c of COMMANDS) (await c.load())(program);
  else {
    const terms = new Map(COMMANDS.map((c) => [c.name, c.term]));
    program.configureHelp({ subcommandTerm: (cmd) => terms.get(cmd.name()) ?? new Help().subcommandTerm(cmd) });
    for (const c of COMMANDS) program.command(c.name).description(c.description);
  }
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
  // `help <command>` is that command's help: load it
  const program = await buildProgram(argv[0] === 'help' && COMMANDS.some((c) => c.name === argv[1]) ? argv[1] : argv[0]);
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
