// `cgp-conformance validate <file…|->` — lint JSON / NDJSON CGP messages and lifecycle records.
// Exit 0: no error (warnings are printed); 1: any error; 2: unreadable input or usage error.
// Light to import (docs/architecture.md "Performance"): only types and commander here;
// the reader, the linter and the schema validators are loaded by the action.
import type { Command } from 'commander';
import type { ValidateReport } from '../../conformance/validate/validate-run.js';
import type { SchemaProfile } from '../../schema/validate.js';

export type { ValidateReport } from '../../conformance/validate/validate-run.js';

interface ValidateOptions {
  json?: boolean;
  profile: string;
}

/** Validates each source (NDJSON streamed, a JSON document read whole); throws UnreadableInputError. */
export async function runValidate(sources: string[], profile: SchemaProfile): Promise<ValidateReport> {
  const run = await import('../../conformance/validate/validate-run.js');
  return run.runValidate(sources, profile);
}

export function registerValidateCommand(program: Command): void {
  program
    .command('validate')
    .description(
      'validate JSON or NDJSON CGP envelopes and lifecycle records (schema lint + protocol checks + record_hash); ' +
        'NDJSON is streamed (memory independent of its size), a JSON document (one object or an array) is read whole',
    )
    .argument('<files...>', 'files to validate; "-" reads standard input')
    .option('--json', 'write only a JSON report to stdout')
    .option('--profile <profile>', 'schema profile: strict (authoring lint) or interop (U1 wire contract)', 'strict')
    .action(async (files: string[], opts: ValidateOptions) => {
      if (opts.profile !== 'strict' && opts.profile !== 'interop') {
        process.stderr.write(`validate: --profile must be "strict" or "interop", got "${opts.profile}"\n`);
        process.exitCode = 2;
        return;
      }
      const [run, { UnreadableInputError }] = await Promise.all([import('../../conformance/validate/validate-run.js'), import('../../conformance/validate/read-messages.js')]);
      let report: ValidateReport;
      try {
        report = await run.runValidate(files, opts.profile);
      } catch (err) {
        if (err instanceof UnreadableInputError) {
          process.stderr.write(`validate: ${err.message}\n`);
          process.exitCode = 2;
          return;
        }
        throw err;
      }
      await run.writePieces(process.stdout, opts.json ? run.validateJsonPieces(report) : run.validateTextPieces(report));
      process.exitCode = report.summary.errors > 0 ? 1 : 0;
    });
}
