// `cgp-conformance validate <file…|->` — lint JSON / NDJSON CGP messages and lifecycle records.
// Exit 0: no error (warnings are printed); 1: any error; 2: unreadable input or usage error.
import type { Command } from 'commander';
import { readSource, splitMessages, UnreadableInputError } from '../../conformance/read-messages.js';
import { detectStreamMode, lintMessages, type LocatedFinding, type StreamModeVerdict } from '../../conformance/lint-messages.js';
import type { SchemaProfile } from '../../schema/validate.js';

interface ValidateOptions {
  json?: boolean;
  profile: string;
}

export interface ValidateReport {
  profile: SchemaProfile;
  /** Per file: which reading ran (session: cross-message checks; independent: each message alone). */
  files: { source: string; messages: number; mode: StreamModeVerdict; findings: LocatedFinding[] }[];
  summary: { messages: number; errors: number; warnings: number };
}

export async function runValidate(sources: string[], profile: SchemaProfile): Promise<ValidateReport> {
  const report: ValidateReport = { profile, files: [], summary: { messages: 0, errors: 0, warnings: 0 } };
  for (const source of sources) {
    const items = splitMessages(source, await readSource(source));
    const mode = detectStreamMode(items);
    const findings = lintMessages(items, { profile, mode: mode.mode });
    report.files.push({ source, messages: items.length, mode, findings });
    report.summary.messages += items.length;
    for (const f of findings) {
      if (f.severity === 'error') report.summary.errors += 1;
      else report.summary.warnings += 1;
    }
  }
  return report;
}

export function renderValidateText(report: ValidateReport): string {
  const lines: string[] = [];
  for (const file of report.files) {
    lines.push(
      `${file.source}: ${file.mode.mode === 'session' ? 'session mode (cross-message checks ran)' : 'independent messages (cross-message checks skipped)'} — ${file.mode.reason}`,
    );
    for (const f of file.findings) {
      const level = f.severity === 'error' ? 'ERROR' : 'WARN ';
      lines.push(`${f.location}  ${level} ${f.id}  ${f.pointer || '/'}  ${f.message}`);
    }
  }
  const { messages, errors, warnings } = report.summary;
  lines.push(
    `${report.files.length} file(s), ${messages} message(s): ${errors} error(s), ${warnings} warning(s) [${report.profile} profile]`,
  );
  return lines.join('\n') + '\n';
}

export function registerValidateCommand(program: Command): void {
  program
    .command('validate')
    .description('validate JSON or NDJSON CGP envelopes and lifecycle records (schema lint + protocol checks + record_hash)')
    .argument('<files...>', 'files to validate; "-" reads standard input')
    .option('--json', 'write only a JSON report to stdout')
    .option('--profile <profile>', 'schema profile: strict (authoring lint) or interop (U1 wire contract)', 'strict')
    .action(async (files: string[], opts: ValidateOptions) => {
      if (opts.profile !== 'strict' && opts.profile !== 'interop') {
        process.stderr.write(`validate: --profile must be "strict" or "interop", got "${opts.profile}"\n`);
        process.exitCode = 2;
        return;
      }
      let report: ValidateReport;
      try {
        report = await runValidate(files, opts.profile);
      } catch (err) {
        if (err instanceof UnreadableInputError) {
          process.stderr.write(`validate: ${err.message}\n`);
          process.exitCode = 2;
          return;
        }
        throw err;
      }
      process.stdout.write(opts.json ? `${JSON.stringify(report, null, 2)}\n` : renderValidateText(report));
      process.exitCode = report.summary.errors > 0 ? 1 : 0;
    });
}
