/**
 * F5 bytes (§6.2 "digested bytes", rule S6.2-digested-bytes; anchor F5): re-read the bytes a `file`
 * provenance link addresses and compare their sha256 with the declared digest.
 *
 * A host utility, never automatic: it reads local files, so it only ever reads files under roots
 * the HOST trusts (`trustedRoots`). Anything it cannot place inside one of them is `untrusted` and
 * is never opened.
 *
 * Order of checks: type must be "file" (case-sensitive) → a digest must be declared → the uri is
 * a `file://` URI with an empty or `localhost` authority, no query or fragment, an absolute path,
 * `%XX` percent-decoded to BYTES (a `%` not followed by two hex digits stays literal) → the path,
 * lexically normalised, lies inside a trusted root, and so does its real path (symlinks resolved;
 * a link escaping the roots is `untrusted`) → the range parses → the file is a regular file no
 * larger than `maxBytes` → read → slice → `sha256:<64 lowercase hex>` → string-equal to the
 * declared digest ⇒ `match`, else `mismatch`.
 *
 * Range grammar: absent ⇒ the whole file. `L<n>` or `L<a>-<b>` (decimal, 1-based, inclusive; the
 * end carries no `L`). Each line's bytes include its `\n`; `\r` is kept (no line-ending
 * translation); a trailing `\n` does not start an extra line; a final unterminated line counts.
 * The end is clamped to EOF. Start 0, start past the last line, end before start, or any other
 * grammar (`L1-L9`, `bytes=0-9`, "") ⇒ `unreadable` with a reason — never a whole-file fallback.
 */
import { createHash } from 'node:crypto';
import { open, realpath } from 'node:fs/promises';
import { posix, resolve as resolvePath } from 'node:path';
import type { Provenance } from '../../generated/types/index.js';

export type ProvenanceBytesStatus = 'match' | 'mismatch' | 'unreadable' | 'untrusted';

export interface ProvenanceBytesResult {
  status: ProvenanceBytesStatus;
  /** The digest the link declares (absent when it declares none). */
  declared?: string;
  /** sha256 of the addressed bytes, when they were read. */
  actual?: string;
  /** Why, for unreadable / untrusted (and what was compared, for mismatch). */
  reason?: string;
}

export interface VerifyFileProvenanceOptions {
  /** Directories the host trusts; only files inside one of them are ever read. */
  trustedRoots: readonly string[];
  /** Largest file read (default 64 MiB); a larger one is unreadable. */
  maxBytes?: number;
}

export const DEFAULT_MAX_PROVENANCE_BYTES = 64 * 1024 * 1024;

const RANGE = /^L(\d+)(?:-(\d+))?$/;
const HEX2 = /^[0-9a-fA-F]{2}$/;

type Parsed<T> = { ok: true; value: T } | { ok: false; status: 'unreadable' | 'untrusted'; reason: string };

/** `L<n>` / `L<a>-<b>` → [start, end] (end may exceed the line count; clamped later). */
export function parseLineRange(range: string): Parsed<[number, number]> {
  const m = RANGE.exec(range);
  if (!m) return { ok: false, status: 'unreadable', reason: `unsupported range ${JSON.stringify(range)} (expected L<n> or L<a>-<b>)` };
  const start = Number(m[1]);
  const end = m[2] === undefined ? start : Number(m[2]);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) {
    return { ok: false, status: 'unreadable', reason: `range ${JSON.stringify(range)} is out of bounds` };
  }
  if (start === 0 || end < start) return { ok: false, status: 'unreadable', reason: `range ${JSON.stringify(range)} is empty or inverted (lines are 1-based)` };
  return { ok: true, value: [start, end] };
}

/**
 * Bytes of lines start..end (1-based, inclusive), each with its `\n`; end clamped to EOF.
 * Undefined when `start` is past the last line.
 */
export function sliceLines(bytes: Uint8Array, start: number, end: number): Uint8Array | undefined {
  // Offsets where lines start: 0, then after every \n that is not the last byte.
  const starts: number[] = bytes.length > 0 ? [0] : [];
  for (let i = 0; i < bytes.length - 1; i++) if (bytes[i] === 0x0a) starts.push(i + 1);
  if (start > starts.length) return undefined;
  const from = starts[start - 1]!;
  const to = end < starts.length ? starts[end]! : bytes.length;
  return bytes.subarray(from, to);
}

/** Percent-decode to bytes (a `%` not followed by two hex digits stays literal). */
function percentDecode(text: string): Buffer {
  const raw = Buffer.from(text, 'utf8');
  const out: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === 0x25 && i + 2 < raw.length && HEX2.test(raw.subarray(i + 1, i + 3).toString('latin1'))) {
      out.push(parseInt(raw.subarray(i + 1, i + 3).toString('latin1'), 16));
      i += 2;
    } else out.push(raw[i]!);
  }
  return Buffer.from(out);
}

/** The file path (bytes) a `file://` URI names, or why it names none this host will read. */
export function filePathOf(uri: string): Parsed<Buffer> {
  const untrusted = (reason: string): Parsed<Buffer> => ({ ok: false, status: 'untrusted', reason });
  if (!uri.startsWith('file://')) return untrusted(`uri ${JSON.stringify(uri)} is not a file:// URI`);
  const rest = uri.slice('file://'.length);
  const slash = rest.indexOf('/');
  const authority = slash < 0 ? rest : rest.slice(0, slash);
  if (authority !== '' && authority.toLowerCase() !== 'localhost') return untrusted(`file URI authority ${JSON.stringify(authority)} is not empty or localhost`);
  if (slash < 0) return untrusted('file URI has no absolute path');
  const path = rest.slice(slash);
  if (path.includes('?') || path.includes('#')) return untrusted('file URI carries a query or fragment');
  const bytes = percentDecode(path);
  if (bytes.includes(0)) return untrusted('file URI path contains a NUL byte');
  return { ok: true, value: bytes };
}

/** Is `path` (latin1-mapped bytes) equal to or below `root`? */
function inside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`);
}

function latin1(bytes: Buffer): string {
  return bytes.toString('latin1');
}

async function realLatin1(path: Buffer): Promise<string | undefined> {
  try {
    return latin1(await realpath(path, { encoding: 'buffer' }));
  } catch {
    return undefined;
  }
}

function sha256(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** Re-read the bytes of one `file` provenance link under the host's trusted roots. */
export async function verifyFileProvenance(provenance: Provenance, options: VerifyFileProvenanceOptions): Promise<ProvenanceBytesResult> {
  const declared = typeof provenance?.digest === 'string' ? provenance.digest : undefined;
  const base: ProvenanceBytesResult = declared === undefined ? { status: 'unreadable' } : { status: 'unreadable', declared };
  const fail = (status: 'unreadable' | 'untrusted', reason: string): ProvenanceBytesResult => ({ ...base, status, reason });

  if (provenance?.type !== 'file') return fail('unreadable', `provenance type ${JSON.stringify(provenance?.type)} is not "file"; it addresses no bytes`);
  if (declared === undefined) return fail('unreadable', 'the link declares no digest');
  if (typeof provenance.uri !== 'string') return fail('unreadable', 'the link has no uri');

  const path = filePathOf(provenance.uri);
  if (!path.ok) return fail(path.status, path.reason);
  // Lexical normalisation on the bytes (latin1 maps each byte to one char and back).
  const lexical = posix.normalize(latin1(path.value));
  const lexicalRoots = options.trustedRoots.map((root) => latin1(Buffer.from(resolvePath(root), 'utf8')));
  const realRoots = (await Promise.all(lexicalRoots.map((root) => realLatin1(Buffer.from(root, 'latin1'))))).filter((r): r is string => r !== undefined);
  if (![...lexicalRoots, ...realRoots].some((root) => inside(lexical, root))) {
    return fail('untrusted', `${JSON.stringify(lexical)} is outside every trusted root`);
  }

  const range = provenance.range;
  let lines: [number, number] | undefined;
  if (range !== undefined && range !== null) {
    if (typeof range !== 'string') return fail('unreadable', `range ${JSON.stringify(range)} is not a string`);
    const parsed = parseLineRange(range);
    if (!parsed.ok) return fail(parsed.status, parsed.reason);
    lines = parsed.value;
  }

  // Symlinks: the real path must stay inside the real path of a trusted root.
  const real = await realLatin1(Buffer.from(lexical, 'latin1'));
  if (real === undefined) return fail('unreadable', `${JSON.stringify(lexical)} does not exist or cannot be resolved`);
  if (!realRoots.some((root) => inside(real, root))) return fail('untrusted', `${JSON.stringify(lexical)} resolves outside every trusted root`);

  const maxBytes = options.maxBytes ?? DEFAULT_MAX_PROVENANCE_BYTES;
  let bytes: Buffer;
  try {
    const handle = await open(Buffer.from(real, 'latin1'), 'r');
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) return fail('unreadable', `${JSON.stringify(lexical)} is not a regular file`);
      if (stat.size > maxBytes) return fail('unreadable', `${JSON.stringify(lexical)} is ${stat.size} bytes, over the ${maxBytes}-byte limit`);
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (error) {
    return fail('unreadable', `cannot read ${JSON.stringify(lexical)}: ${error instanceof Error ? error.message : String(error)}`);
  }

  let addressed: Uint8Array = bytes;
  if (lines !== undefined) {
    const slice = sliceLines(bytes, lines[0], lines[1]);
    if (slice === undefined) return fail('unreadable', `range ${JSON.stringify(range)} starts past the last line of ${JSON.stringify(lexical)}`);
    addressed = slice;
  }
  const actual = sha256(addressed);
  if (actual === declared) return { status: 'match', declared, actual };
  return { status: 'mismatch', declared, actual, reason: `declared ${declared}, the addressed bytes hash to ${actual}` };
}

/** Every `file` link of a frame's provenance (others are skipped), with its index. */
export async function verifyFrameProvenance(frame: { provenance?: Provenance[] | null }, options: VerifyFileProvenanceOptions): Promise<{ index: number; result: ProvenanceBytesResult }[]> {
  const links = Array.isArray(frame.provenance) ? frame.provenance : [];
  const out: { index: number; result: ProvenanceBytesResult }[] = [];
  for (const [index, link] of links.entries()) {
    if (link?.type === 'file') out.push({ index, result: await verifyFileProvenance(link, options) });
  }
  return out;
}
