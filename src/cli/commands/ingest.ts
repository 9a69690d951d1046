// `cgp-conformance ingest --intent "…" [--root DIR] [--json] FILE…|-` — segment a paste into a query
// (goal = the intent verbatim, anchors = path references) and compact, content-addressed frames; print
// the query, a table of frames and the per-block report (or, with --json, exactly {query, frames, report}).
// `cgp-conformance ingest --serve [--root DIR] FILE…|-` — serve those attachments as a local stdio CGP
// provider ("prompt-ingest"); with --http PORT, over HTTP on 127.0.0.1:PORT (0 = ephemeral; the URL is
// printed on stderr). Exit codes: 0 done · 2 usage error or unreadable input.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { ingest, IngestInputError, serveIngestHttp, serveIngestStdio, type IngestResult } from '../../ingest/index.js';

interface IngestCliOptions {
  intent?: string;
  root?: string;
  json?: boolean;
  serve?: boolean;
  http?: string;
}

class CliInputError extends Error {}

function readAttachments(files: string[]): Array<{ name: string; content: Buffer }> {
  if (files.length === 0) throw new CliInputError('no attachments: give one or more FILEs, or - for stdin');
  if (files.filter((f) => f === '-').length > 1) throw new CliInputError('- (stdin) may be given once');
  return files.map((file) => {
    try {
      return { name: file === '-' ? 'stdin' : file, content: readFileSync(file === '-' ? 0 : file) };
    } catch (err) {
      const code = (err as { code?: string }).code;
      throw new CliInputError(`cannot read attachment ${JSON.stringify(file)}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (err as Error).message}`);
    }
  });
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

/**
 * The paste's own cost (B3 unit): its attachments as one paste, a newline joining two attachments
 * unless the first already ends with one.
 */
export function pastedTokens(contents: readonly Uint8Array[]): number {
  let bytes = 0;
  contents.forEach((c, i) => {
    bytes += c.byteLength;
    if (i < contents.length - 1 && c[c.byteLength - 1] !== 0x0a) bytes++;
  });
  return Math.ceil(bytes / 4);
}

export function formatIngest(result: IngestResult, rawTokens: number): string {
  const out: string[] = [];
  const q = result.query;
  out.push(`query.goal     ${JSON.stringify(q.goal)}`);
  out.push(`query.anchors  ${q.anchors && q.anchors.length > 0 ? q.anchors.join('  ') : '(none)'}`);
  out.push(`query budget   max_frames ${q.max_frames} · max_tokens ${q.max_tokens}`);
  const served = result.frames.reduce((n, f) => n + f.token_cost, 0);
  const share = rawTokens === 0 ? 0 : Math.round((served / rawTokens) * 100);
  out.push('');
  out.push(`frames: ${result.frames.length} served, ${served} tokens of ${rawTokens} pasted (${share} %)`);
  const rows = result.frames.map((f) => [f.id, f.kind, f.title ?? '', `${f.canonical_token_cost ?? f.token_cost} → ${f.token_cost}`, f.transform?.method ?? 'full']);
  const head = ['id', 'kind', 'title', 'full → served', 'transform'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  out.push(`  ${head.map((h, i) => pad(h, widths[i]!)).join('  ')}`);
  for (const r of rows) out.push(`  ${r.map((c, i) => pad(c, widths[i]!)).join('  ')}`);
  out.push('');
  out.push('report:');
  for (const e of result.report) {
    const where = e.lines ? `${e.attachment} ${e.lines}` : e.attachment;
    const became =
      e.became.outcome === 'frame'
        ? `frame ${e.became.id}`
        : e.became.outcome === 'duplicate'
          ? `duplicate of ${e.became.id}`
          : e.became.outcome === 'anchor'
            ? `anchor ${e.became.uri}${e.became.resolved === 'as-typed' ? ' (kept as typed)' : ''}`
            : 'note';
    out.push(`  ${where}: ${e.summary} → ${became}`);
    for (const n of e.notes ?? []) out.push(`      note: ${n}`);
  }
  return `${out.join('\n')}\n`;
}

export function registerIngestCommand(program: Command): void {
  program
    .command('ingest')
    .description('ingest a paste (logs, stack traces, tables, code, notes, paths) as a local CGP provider')
    .argument('[files...]', 'attachments (- reads stdin)')
    .option('--intent <text>', 'what the user asked: becomes query.goal verbatim')
    .option('--root <dir>', 'workspace root: relative path references inside it become file:// anchors')
    .option('--json', 'print exactly {"query", "frames", "report"} as JSON')
    .option('--serve', 'serve the attachments as a stdio CGP provider ("prompt-ingest") instead of printing')
    .option('--http <port>', 'with --serve: serve HTTP on 127.0.0.1:<port> instead of stdio (0 = ephemeral; the URL is printed on stderr)')
    .action(async (files: string[], opts: IngestCliOptions) => {
      const fail = (message: string) => {
        process.stderr.write(`cgp-conformance ingest: ${message}\n`);
        process.exitCode = 2;
      };
      if (opts.serve && opts.json) return fail('--json does not apply to --serve (stdout carries the protocol)');
      if (opts.http !== undefined && !opts.serve) return fail('--http applies only to --serve');
      const port = opts.http === undefined ? undefined : /^[0-9]+$/.test(opts.http) && Number(opts.http) <= 65_535 ? Number(opts.http) : NaN;
      if (Number.isNaN(port)) return fail(`--http expects a port number 0-65535, got ${JSON.stringify(opts.http)}`);
      if (!opts.serve && opts.intent === undefined) return fail('--intent "<what you asked>" is required (it becomes query.goal)');
      let attachments: Array<{ name: string; content: Buffer }>;
      try {
        attachments = readAttachments(files);
      } catch (err) {
        if (err instanceof CliInputError) return fail(err.message);
        throw err;
      }
      if (opts.serve && port === undefined && files.includes('-')) return fail('--serve reads the protocol from stdin, so - cannot be an attachment');
      let result: IngestResult;
      try {
        // The provider needs no goal of its own; the intent only labels a printed query.
        result = ingest({ intent: opts.intent ?? 'serve attachments', weightByIntent: opts.intent !== undefined, attachments, ...(opts.root !== undefined ? { root: opts.root } : {}) });
      } catch (err) {
        if (err instanceof IngestInputError) return fail(err.message);
        throw err;
      }
      if (opts.serve && port !== undefined) {
        const running = await serveIngestHttp(result.store, { port });
        process.stderr.write(`prompt-ingest listening on ${running.url}\n`);
        process.exit(await running.done);
      }
      if (opts.serve) {
        const code = await serveIngestStdio(result.store);
        process.exit(code);
      }
      process.stdout.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'EPIPE') process.exit(0);
      });
      if (opts.json) {
        process.stdout.write(`${JSON.stringify({ query: result.query, frames: result.frames, report: result.report })}\n`);
        return;
      }
      process.stdout.write(formatIngest(result, pastedTokens(attachments.map((a) => a.content))));
    });
}
