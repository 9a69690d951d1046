// Reads CGP messages for `validate`: a JSON document (one message, or an array of messages) or NDJSON (one
// envelope or lifecycle record per line — S2.1), auto-detected. NDJSON is streamed: lines are split as the bytes
// arrive and handed on one by one, so memory does not grow with the file. A JSON document is read whole.
//
// Detection without the whole file (same verdict as "does the whole trimmed text JSON.parse?"):
// - the first non-blank line parses alone: a document iff every later line is blank (after a complete JSON value
//   only whitespace may follow), else NDJSON — at most that one line is held;
// - it does not parse and does not start with `{` or `[`: NDJSON (a string, number or literal cannot span lines);
// - it starts with `{` or `[` (a pretty-printed document?): lines are held while the text can still be one JSON
//   value — a bracket scanner gives up as soon as the top-level value has closed and more follows, or a line
//   ends inside a string — and at the end the held text is JSON.parsed whole, exactly as before.
import { createReadStream } from 'node:fs';
import { FileLineSplitter } from './file-line-splitter.js';

export interface MessageItem {
  /** Where the item sits in its source: `file:line` for NDJSON, `file#/index` for an array. */
  location: string;
  /** JSON pointer prefix of the item inside its source document ('' for NDJSON lines). */
  pointer: string;
  /** The parsed value, or undefined when the line is not JSON. */
  value?: unknown;
  /** Why the item could not be parsed (S2-wire-shape), when it could not. */
  parseError?: string;
}

export class UnreadableInputError extends Error {
  constructor(
    readonly source: string,
    reason: string,
  ) {
    super(`${source}: unreadable input: ${reason}`);
    this.name = 'UnreadableInputError';
  }
}

export interface ReadStats {
  /** Most lines held at once while telling a JSON document from NDJSON (1 for NDJSON whose first line parses). */
  maxHeldLines: number;
  /** Most chunk pieces held for one open line. */
  maxPendingPieces: number;
}

const NOT_UTF8 = 'not valid UTF-8';

function isBlank(text: string | undefined): boolean {
  return text !== undefined && text.trim() === '';
}

/** JSON whitespace (RFC 8259 §2). */
function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * Says, line by line, whether a text starting with `{` or `[` can still be one JSON document. Only sound
 * "no" answers: a closing bracket at depth 0, anything but whitespace after the top-level value closed, or a raw
 * line break inside a string each make JSON.parse of the whole text fail. Anything else is left to JSON.parse.
 */
class DocumentScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private closed = false;
  possible = true;

  feed(line: string): void {
    if (!this.possible) return;
    for (let i = 0; i < line.length; i++) {
      const c = line.charCodeAt(i);
      if (this.closed) {
        if (!isJsonSpace(c)) {
          this.possible = false;
          return;
        }
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c) this.escaped = true;
        else if (c === 0x22) this.inString = false;
        continue;
      }
      if (c === 0x22) this.inString = true;
      else if (c === 0x7b || c === 0x5b) this.depth++;
      else if (c === 0x7d || c === 0x5d) {
        if (this.depth === 0) {
          this.possible = false;
          return;
        }
        if (--this.depth === 0) this.closed = true;
      }
    }
    // the line break itself: a string never spans lines
    if (this.inString) this.possible = false;
  }
}

/** An NDJSON line's item; its `file:line` location is only spelled out when something asks (a finding). */
class LineItem implements MessageItem {
  readonly pointer = '';
  value?: unknown;
  parseError?: string;
  constructor(
    private readonly source: string,
    private readonly lineNumber: number,
  ) {}
  get location(): string {
    return `${this.source}:${this.lineNumber}`;
  }
}

function parseLine(source: string, lineNumber: number, text: string | undefined): MessageItem {
  const item = new LineItem(source, lineNumber);
  if (text === undefined) {
    item.parseError = NOT_UTF8;
    return item;
  }
  try {
    item.value = JSON.parse(text);
  } catch (err) {
    item.parseError = err instanceof Error ? err.message : String(err);
  }
  return item;
}

type Phase = 'start' | 'single' | 'document' | 'ndjson';

/**
 * Reads one source and hands each message item to `onItem`, in order. Throws UnreadableInputError when the
 * source cannot be read, is empty, or holds nothing that is JSON (after every item has been handed on).
 */
export async function readMessages(source: string, onItem: (item: MessageItem) => void, stdin: NodeJS.ReadableStream = process.stdin, stats?: ReadStats): Promise<void> {
  let phase: Phase = 'start';
  let parsedAny = false;
  // 'single': the first non-blank line, which parses alone; 'document': every line from the first non-blank one.
  let held: { n: number; text: string | undefined }[] = [];
  let singleValue: unknown;
  let scanner: DocumentScanner | undefined;

  const emit = (item: MessageItem) => {
    if (item.parseError === undefined) parsedAny = true;
    onItem(item);
  };
  const ndjsonLine = (n: number, text: string | undefined) => {
    if (isBlank(text)) return;
    emit(parseLine(source, n, text));
  };
  const toNdjson = () => {
    phase = 'ndjson';
    const lines = held;
    held = [];
    for (const l of lines) ndjsonLine(l.n, l.text);
  };
  const hold = (n: number, text: string | undefined) => {
    held.push({ n, text });
    if (stats && held.length > stats.maxHeldLines) stats.maxHeldLines = held.length;
  };

  const splitter = new FileLineSplitter((n, text) => {
    switch (phase) {
      case 'ndjson':
        ndjsonLine(n, text);
        return;
      case 'start': {
        if (isBlank(text)) return;
        if (text === undefined) {
          phase = 'ndjson';
          ndjsonLine(n, text);
          return;
        }
        const trimmed = text.trim();
        try {
          singleValue = JSON.parse(trimmed);
          phase = 'single';
          hold(n, text);
          return;
        } catch {
          // not a complete value on its own line
        }
        if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
          phase = 'document';
          scanner = new DocumentScanner();
          scanner.feed(text);
          hold(n, text);
          if (!scanner.possible) toNdjson();
          return;
        }
        phase = 'ndjson';
        ndjsonLine(n, text);
        return;
      }
      case 'single':
        if (isBlank(text)) return;
        // a second non-blank line after a complete JSON value: the whole cannot be one document
        singleValue = undefined;
        toNdjson();
        ndjsonLine(n, text);
        return;
      case 'document':
        hold(n, text);
        if (text === undefined) {
          toNdjson();
          return;
        }
        scanner!.feed(text);
        if (!scanner!.possible) toNdjson();
        return;
    }
  });

  try {
    const input = source === '-' ? stdin : createReadStream(source, { highWaterMark: 1 << 20 });
    for await (const chunk of input) splitter.push(chunk as Buffer | string);
    splitter.end();
  } catch (err) {
    if (err instanceof UnreadableInputError) throw err;
    throw new UnreadableInputError(source, err instanceof Error ? err.message : String(err));
  }
  if (stats && splitter.maxPendingPieces > stats.maxPendingPieces) stats.maxPendingPieces = splitter.maxPendingPieces;

  if (phase === 'start') throw new UnreadableInputError(source, 'empty input');
  if (phase === 'single') {
    documentItems(source, singleValue, emit);
    return;
  }
  if (phase === 'document') {
    // Still possibly one JSON document: parse the held text whole (lines rejoined; the CRs the lines had are
    // JSON whitespace, so dropping them cannot change the result).
    let whole: unknown;
    let ok = false;
    try {
      whole = JSON.parse(
        held
          .map((l) => l.text)
          .join('\n')
          .trim(),
      );
      ok = true;
    } catch {
      ok = false;
    }
    if (ok) {
      held = [];
      documentItems(source, whole, emit);
      return;
    }
    toNdjson();
  }
  if (!parsedAny) throw new UnreadableInputError(source, 'neither a JSON document nor NDJSON');
}

function documentItems(source: string, whole: unknown, emit: (item: MessageItem) => void): void {
  if (Array.isArray(whole)) {
    whole.forEach((value, index) => emit({ location: `${source}#/${index}`, pointer: `/${index}`, value }));
    return;
  }
  emit({ location: source, pointer: '', value: whole });
}
