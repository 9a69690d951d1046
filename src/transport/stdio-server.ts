// The stdio binding, provider side: a generic NDJSON serve loop. No protocol logic lives here — the handler
// decides what every line means. Lines are handled strictly in order, one at a time, and replies are written
// in the order the handler returns them.
//
// A framing failure (over-long line, invalid UTF-8, EOF mid-line under the 'error' policy) is passed to the
// handler as the error object instead of a line, so a provider can answer `bad_request` and keep serving
// (R1). The loop stays generic: JSON parsing is the handler's business (see parseEnvelopeLine).
import type { Readable, Writable } from 'node:stream';
import { TransportError } from './errors.js';
import { LineSplitter, encodeLine, type EofMidLinePolicy, type LineItem } from './ndjson.js';

/** Write `text` to a stream, settling when it is flushed (or failed: EPIPE and the like reject). */
export function writeText(output: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => output.write(text, (err) => (err ? reject(err) : resolve())));
}

/** The reader of our output went away (a closed pipe or socket): a serve loop ends quietly, not with a crash. */
export function isPeerGone(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED' || code === 'ECONNRESET';
}

export interface LineInfo {
  /** 1-based line number in the input stream. */
  line: number;
  /** false for a final line that had no newline at EOF (delivered under the default policy). */
  terminated: boolean;
}

/** One reply object, several, none (null), or 'exit' to stop serving. */
export type StdioHandlerResult = object | object[] | null | 'exit';

export type StdioHandler = (line: string | TransportError, info: LineInfo) => StdioHandlerResult | Promise<StdioHandlerResult>;

export interface ServeStdioOptions {
  /** Default process.stdin. */
  input?: Readable;
  /** Default process.stdout. */
  output?: Writable;
  /** Cap on one input line (default 16 MiB). */
  maxLineBytes?: number;
  /** Final line without newline: 'deliver' (default) or 'error' (handler gets an EofMidLineError). */
  eofMidLine?: EofMidLinePolicy;
}

export interface ServeStdioResult {
  /** 'eof': the input ended; 'exit': the handler returned 'exit'. */
  reason: 'eof' | 'exit';
  /** Lines (and framing errors) passed to the handler. */
  handled: number;
}

function writeOut(output: Writable, data: string): Promise<void> {
  return new Promise((resolve, reject) => {
    output.write(data, (err) => (err ? reject(err) : resolve()));
  });
}

/**
 * Serve NDJSON on input/output until the input ends or the handler returns 'exit'. Resolves after every
 * reply has been flushed, so the caller may exit the process right away. Rejects if the handler throws or
 * the output fails (e.g. EPIPE: the host went away) — both are the provider's to decide about.
 */
export async function serveStdio(handler: StdioHandler, opts: ServeStdioOptions = {}): Promise<ServeStdioResult> {
  const input = opts.input ?? process.stdin;
  const output = opts.output ?? process.stdout;
  const splitter = new LineSplitter({ maxLineBytes: opts.maxLineBytes, eofMidLine: opts.eofMidLine });
  let handled = 0;

  /** Returns true when the handler asked to exit. */
  const handle = async (items: LineItem[]): Promise<boolean> => {
    for (const it of items) {
      handled++;
      const info: LineInfo = { line: it.line, terminated: it.kind === 'line' ? it.terminated : true };
      const result = await handler(it.kind === 'line' ? it.text : it.error, info);
      if (result === 'exit') return true;
      if (result === null || result === undefined) continue;
      for (const reply of Array.isArray(result) ? result : [result]) {
        await writeOut(output, encodeLine(reply));
      }
    }
    return false;
  };

  // for-await gives back-pressure for free: the next chunk is pulled only after this one is fully handled.
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    if (await handle(splitter.pushItems(chunk))) {
      return { reason: 'exit', handled }; // leaving the loop destroys the input stream
    }
  }
  const exit = await handle(splitter.endItems());
  return { reason: exit ? 'exit' : 'eof', handled };
}
