/**
 * S6.2-digested-bytes (with F5): re-read the exact bytes every `file` provenance link addresses (uri + range,
 * no normalisation) through src/host/f5-bytes' verifyFileProvenance, and compare their sha256 with the
 * declared digest. Only files under roots the harness trusts are ever opened: a stdio provider's working
 * directory (by default), the bundled provider's fixture folder, and CGP_PROVIDER_FILE_ROOTS. Reads are bounded
 * (at most MAX_FILES distinct links, MAX_FILE_BYTES per file, each read within the request timeout, regular
 * files only — a FIFO or device is never opened) and symlink-safe (the real path must stay inside a root).
 * A mismatch is a warning (the §6.2 definition is not a MUST); a link outside every root is not applicable,
 * naming CGP_PROVIDER_FILE_ROOTS (docs/interpretations.md §81).
 */
import { createHash } from 'node:crypto';
import { lstat, readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Provenance } from '../../../../generated/types/index.js';
import { filePathOf, parseLineRange, sliceLines, verifyFileProvenance } from '../../../host/f5-bytes.js';
import { warning } from '../../../protocol/findings.js';
import { isJsonObject } from '../../../protocol/json-value.js';
import type { ScenarioProbe } from '../scenario.js';

/** At most this many distinct file provenance links are re-read per scenario. */
const MAX_FILES = 64;
/** Files larger than this are not re-read (unreadable, with the reason). */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

/** A FIFO, socket or device would block or never end: only regular files (after symlinks) are opened. */
async function notRegular(uri: unknown): Promise<string | undefined> {
  if (typeof uri !== 'string' || !uri.startsWith('file:')) return undefined; // verifyFileProvenance names the problem
  let path: string;
  try {
    path = fileURLToPath(uri);
  } catch {
    return undefined;
  }
  try {
    await lstat(path);
    const st = await stat(path);
    return st.isFile() ? undefined : `${JSON.stringify(path)} is not a regular file; not opened`;
  } catch {
    return undefined; // missing: verifyFileProvenance says so
  }
}

function within<T>(work: Promise<T>, ms: number, what: string): Promise<T | string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`${what}: not read within ${ms} ms`), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * A line range's bytes read without the last line's terminator ("\n", or "\r\n"): the spec is open on
 * whether a line range ends with its last line's newline, so both readings are accepted
 * (docs/interpretations.md §92). Called only for a link verifyFileProvenance already read (trusted, regular,
 * bounded); undefined when there is no such other reading.
 */
async function digestWithoutFinalNewline(link: Record<string, unknown>, maxBytes: number): Promise<string | undefined> {
  if (typeof link.uri !== 'string' || typeof link.range !== 'string') return undefined;
  const path = filePathOf(link.uri);
  const lines = parseLineRange(link.range);
  if (!path.ok || !lines.ok) return undefined;
  try {
    const st = await stat(path.value);
    if (!st.isFile() || st.size > maxBytes) return undefined;
    const slice = sliceLines(await readFile(path.value), lines.value[0], lines.value[1]);
    if (slice === undefined || slice[slice.length - 1] !== 0x0a) return undefined;
    const cut = slice.length >= 2 && slice[slice.length - 2] === 0x0d ? 2 : 1;
    return `sha256:${createHash('sha256')
      .update(slice.subarray(0, slice.length - cut))
      .digest('hex')}`;
  } catch {
    return undefined;
  }
}

export async function rereadFileProvenance(p: ScenarioProbe): Promise<void> {
  const roots = p.config.trustedRoots;
  const seen = new Set<string>();
  let links = 0;
  let verified = 0;
  const skipped: string[] = [];
  const pending: Array<{ link: Record<string, unknown>; at: string; frameId: unknown }> = [];
  for (const answer of p.answers) {
    answer.frames.forEach((frame, fi) => {
      if (!Array.isArray(frame.provenance)) return;
      frame.provenance.forEach((link, li) => {
        if (!isJsonObject(link) || link.type !== 'file') return;
        const key = JSON.stringify([link.uri, link.range ?? null, link.digest ?? null]);
        if (seen.has(key)) return;
        seen.add(key);
        links++;
        pending.push({ link, at: `/result/frames/${fi}/provenance/${li}`, frameId: frame.id });
      });
    });
  }
  if (roots.length === 0) {
    p.ledger.unwitnessedBecause(
      'S6.2-digested-bytes',
      'no file roots are trusted for this target (an HTTP target has no working directory the harness knows; pass --file-root DIR, or set CGP_PROVIDER_FILE_ROOTS); the harness never reads files outside them',
    );
    return;
  }
  let untrusted = 0;
  if (pending.length > MAX_FILES) skipped.push(`${pending.length - MAX_FILES} link(s) beyond the first ${MAX_FILES}: not re-read (bound)`);
  for (const { link, at, frameId } of pending.slice(0, MAX_FILES)) {
    const irregular = await notRegular(link.uri);
    if (irregular !== undefined) {
      skipped.push(`${JSON.stringify(link.uri)}: unreadable (${irregular})`);
      continue;
    }
    const outcome = await within(verifyFileProvenance(link as unknown as Provenance, { trustedRoots: roots, maxBytes: MAX_FILE_BYTES }), p.config.timeouts.requestMs, JSON.stringify(link.uri));
    if (typeof outcome === 'string') {
      skipped.push(`${outcome}`);
      continue;
    }
    const result = outcome;
    if (result.status === 'untrusted') untrusted++;
    if (result.status === 'match') verified++;
    else if (result.status === 'mismatch' && (await within(digestWithoutFinalNewline(link, MAX_FILE_BYTES), p.config.timeouts.requestMs, JSON.stringify(link.uri))) === result.declared) {
      verified++;
      p.notes.push(
        `frame ${JSON.stringify(frameId)} file provenance ${JSON.stringify(link.uri)} range ${String(link.range)} digests the lines without the last line's newline: accepted (docs/interpretations.md §92)`,
      );
    } else if (result.status === 'mismatch') {
      verified++;
      p.ledger.add([
        warning(
          'S6.2-digested-bytes',
          `${at}/digest`,
          `frame ${JSON.stringify(frameId)} file provenance ${JSON.stringify(link.uri)}${typeof link.range === 'string' ? ` range ${link.range}` : ''} declares ${result.declared}, but the exact bytes it addresses hash to ${result.actual}`,
        ),
      ]);
    } else skipped.push(`${JSON.stringify(link.uri)}: ${result.status} (${result.reason ?? 'no reason given'})`);
  }
  p.ledger.witness('S6.2-digested-bytes', verified);
  if (skipped.length > 0) p.notes.push(`file provenance not re-read: ${skipped.slice(0, 5).join('; ')}${skipped.length > 5 ? ` (+${skipped.length - 5} more)` : ''}`);
  if (verified === 0) {
    p.ledger.unwitnessedBecause(
      'S6.2-digested-bytes',
      links === 0
        ? 'no answer carried a file provenance link'
        : untrusted > 0
          ? `${untrusted} of the ${links} file provenance link(s) address files outside every trusted root (${roots.map((r) => JSON.stringify(r)).join(', ')}): the harness never reads them; pass --file-root DIR (or set CGP_PROVIDER_FILE_ROOTS) for the directories they are in (${skipped[0] ?? ''})`
          : `none of the ${links} file provenance link(s) could be read under the trusted roots (${skipped[0] ?? ''})`,
    );
  }
}
