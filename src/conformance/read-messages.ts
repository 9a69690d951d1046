// Reads CGP messages for `validate`: a JSON document (one message, or an array of messages) or
// NDJSON (one envelope or lifecycle record per line — S2.1), auto-detected.
import { readFile } from 'node:fs/promises';

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
  constructor(readonly source: string, reason: string) {
    super(`${source}: unreadable input: ${reason}`);
    this.name = 'UnreadableInputError';
  }
}

export async function readSource(source: string, stdin: NodeJS.ReadableStream = process.stdin): Promise<string> {
  try {
    if (source === '-') {
      const chunks: Buffer[] = [];
      for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
      return decodeUtf8(source, Buffer.concat(chunks));
    }
    return decodeUtf8(source, await readFile(source));
  } catch (err) {
    if (err instanceof UnreadableInputError) throw err;
    throw new UnreadableInputError(source, err instanceof Error ? err.message : String(err));
  }
}

function decodeUtf8(source: string, bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UnreadableInputError(source, 'not valid UTF-8');
  }
}

/** Splits a source text into message items; throws UnreadableInputError when nothing in it is JSON. */
export function splitMessages(source: string, text: string): MessageItem[] {
  const trimmed = text.trim();
  if (trimmed === '') throw new UnreadableInputError(source, 'empty input');
  let whole: unknown;
  let wholeParsed = false;
  try {
    whole = JSON.parse(trimmed);
    wholeParsed = true;
  } catch {
    wholeParsed = false;
  }
  if (wholeParsed) {
    if (Array.isArray(whole)) {
      return whole.map((value, index) => ({ location: `${source}#/${index}`, pointer: `/${index}`, value }));
    }
    return [{ location: source, pointer: '', value: whole }];
  }
  const items: MessageItem[] = [];
  const lines = text.split('\n');
  lines.forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    const location = `${source}:${index + 1}`;
    try {
      items.push({ location, pointer: '', value: JSON.parse(line) });
    } catch (err) {
      items.push({ location, pointer: '', parseError: err instanceof Error ? err.message : String(err) });
    }
  });
  if (!items.some((i) => i.parseError === undefined)) {
    throw new UnreadableInputError(source, 'neither a JSON document nor NDJSON');
  }
  return items;
}
