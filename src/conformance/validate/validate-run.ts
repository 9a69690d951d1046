// The work behind `cgp-conformance validate`: each source streamed through the reader and the linter (only
// findings are kept, never messages), then the report written out piece by piece with stdout's backpressure
// respected (no whole-report string). Loaded by the command's action only (src/cli/commands/validate.ts).
import { MessageLinter, type LocatedFinding, type StreamModeVerdict } from './lint-messages.js';
import { readMessages, type ReadStats } from './read-messages.js';
import type { SchemaProfile } from '../../schema/validate.js';

export interface ValidateReport {
  profile: SchemaProfile;
  /** Per file: which reading ran (session: cross-message checks; independent: each message alone). */
  files: { source: string; messages: number; mode: StreamModeVerdict; findings: LocatedFinding[] }[];
  summary: { messages: number; errors: number; warnings: number };
}

export interface ValidateOptions {
  stdin?: NodeJS.ReadableStream;
  /** Filled with what the readers held at most (tests). */
  stats?: ReadStats & { maxHeldQueries: number; maxPatches: number };
}

export async function runValidate(sources: string[], profile: SchemaProfile, options: ValidateOptions = {}): Promise<ValidateReport> {
  const report: ValidateReport = { profile, files: [], summary: { messages: 0, errors: 0, warnings: 0 } };
  const stats = options.stats;
  for (const source of sources) {
    const linter = new MessageLinter(profile);
    await readMessages(
      source,
      stats
        ? (item) => {
            linter.push(item);
            const held = linter.held;
            if (held.queries > stats.maxHeldQueries) stats.maxHeldQueries = held.queries;
            if (held.patches > stats.maxPatches) stats.maxPatches = held.patches;
          }
        : (item) => linter.push(item),
      options.stdin,
      stats,
    );
    const { mode, findings, messages } = linter.finish();
    report.files.push({ source, messages, mode, findings });
    report.summary.messages += messages;
    for (const f of findings) {
      if (f.severity === 'error') report.summary.errors += 1;
      else report.summary.warnings += 1;
    }
  }
  return report;
}

/** The text report, line by line (each piece ends with a newline). */
export function* validateTextPieces(report: ValidateReport): Generator<string> {
  for (const file of report.files) {
    yield `${file.source}: ${file.mode.mode === 'session' ? 'session mode (cross-message checks ran)' : 'independent messages (cross-message checks skipped)'} — ${file.mode.reason}\n`;
    for (const f of file.findings) {
      const level = f.severity === 'error' ? 'ERROR' : 'WARN ';
      yield `${f.location}  ${level} ${f.id}  ${f.pointer || '/'}  ${f.message}\n`;
    }
  }
  const { messages, errors, warnings } = report.summary;
  yield `${report.files.length} file(s), ${messages} message(s): ${errors} error(s), ${warnings} warning(s) [${report.profile} profile]\n`;
}

export function renderValidateText(report: ValidateReport): string {
  return [...validateTextPieces(report)].join('');
}

/** JSON.stringify(value, null, 2) as it reads nested `depth` levels deep (strings hold no raw line break). */
function nested(value: unknown, depth: number): string {
  return JSON.stringify(value, null, 2).replaceAll('\n', `\n${'  '.repeat(depth)}`);
}

/** Exactly `JSON.stringify(report, null, 2) + '\n'`, one finding at a time. */
export function* validateJsonPieces(report: ValidateReport): Generator<string> {
  yield `{\n  "profile": ${JSON.stringify(report.profile)},\n  "files": `;
  if (report.files.length === 0) yield '[]';
  if (report.files.length > 0) {
    yield '[\n';
    for (let i = 0; i < report.files.length; i++) {
      const file = report.files[i]!;
      yield `    {\n      "source": ${JSON.stringify(file.source)},\n      "messages": ${JSON.stringify(file.messages)},\n      "mode": ${nested(file.mode, 3)},\n      "findings": `;
      if (file.findings.length === 0) yield '[]';
      else {
        yield '[\n';
        for (let j = 0; j < file.findings.length; j++) {
          yield `        ${nested(file.findings[j], 4)}${j + 1 < file.findings.length ? ',' : ''}\n`;
        }
        yield '      ]';
      }
      yield `\n    }${i + 1 < report.files.length ? ',' : ''}\n`;
    }
    yield '  ]';
  }
  yield `,\n  "summary": ${nested(report.summary, 1)}\n}\n`;
}

/** Writes pieces in batches of about 64 KiB, waiting for 'drain' whenever the stream asks to. */
export async function writePieces(out: NodeJS.WritableStream, pieces: Iterable<string>): Promise<void> {
  let batch = '';
  const flush = async () => {
    const ok = out.write(batch);
    batch = '';
    if (!ok) await new Promise<void>((resolve) => out.once('drain', resolve));
  };
  for (const piece of pieces) {
    batch += piece;
    if (batch.length >= 1 << 16) await flush();
  }
  if (batch.length > 0) await flush();
}
