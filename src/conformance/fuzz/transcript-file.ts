/**
 * A fuzz finding's reproduction: the exact byte stream the provider was sent, as NDJSON — line 1 the
 * handshake, then the hostile lines, then the liveness probe (a query with an id) as the LAST line. The file
 * can be piped into a stdio provider as it is (`provider < FILE`); `cgp-conformance replay FILE -- <cmd>`
 * sends it the way the fuzzer did and judges the answer. Invalid UTF-8 and oversize lines are kept byte for
 * byte (that is what the provider choked on). A sibling `.json` file holds the finding's metadata.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding } from './session.js';

export interface TranscriptLines {
  handshake: Buffer;
  hostile: Buffer[];
  probe: Buffer;
  probeId: string;
}

export class TranscriptFileError extends Error {}

export function encodeTranscriptFile(t: TranscriptLines): Buffer {
  const nl = Buffer.from('\n');
  return Buffer.concat([t.handshake, nl, ...t.hostile.flatMap((l) => [l, nl]), t.probe, nl]);
}

/** Split a transcript file into its lines; the first must be a handshake, the last a query carrying a string id. */
export function decodeTranscriptFile(bytes: Buffer, file: string): TranscriptLines {
  const lines: Buffer[] = [];
  let at = 0;
  while (at < bytes.length) {
    const nl = bytes.indexOf(0x0a, at);
    if (nl === -1) {
      lines.push(bytes.subarray(at));
      break;
    }
    lines.push(bytes.subarray(at, nl));
    at = nl + 1;
  }
  if (lines.length < 2) throw new TranscriptFileError(`${file}: a transcript needs at least a handshake line and a final query line (found ${lines.length} line${lines.length === 1 ? '' : 's'})`);
  const parse = (b: Buffer): Record<string, unknown> | undefined => {
    try {
      const v = JSON.parse(b.toString('utf8')) as unknown;
      return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  };
  const first = parse(lines[0]!);
  if (first?.type !== 'handshake') throw new TranscriptFileError(`${file}: line 1 is not a handshake envelope`);
  const last = parse(lines.at(-1)!);
  if (last?.type !== 'query' || typeof last.id !== 'string' || last.id === '') {
    throw new TranscriptFileError(`${file}: the last line (line ${lines.length}) must be the liveness probe, a query envelope with a string id`);
  }
  return { handshake: lines[0]!, hostile: lines.slice(1, -1), probe: lines.at(-1)!, probeId: last.id };
}

export function readTranscript(file: string): TranscriptLines {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new TranscriptFileError(`cannot read ${file}: ${(err as Error).message}`);
  }
  return decodeTranscriptFile(bytes, file);
}

export interface FindingRecord {
  tool: 'cgp-conformance fuzz';
  seed: number;
  /** 1-based index of the case that first failed, among the cases of the run. */
  failed_case: number;
  finding: Finding;
  /** Lines in the transcript (handshake + hostile + probe). */
  lines: number;
  hostile_lines: number;
  shrink_steps: number;
  reproduced_by_replay: boolean | null;
  target: string;
  replay: string;
}

/** Write `<dir>/<base>.ndjson` and `<dir>/<base>.json`; returns the transcript path. */
export function writeFinding(dir: string, base: string, lines: TranscriptLines, record: Omit<FindingRecord, 'lines' | 'hostile_lines'>): { transcript: string; metadata: string } {
  mkdirSync(dir, { recursive: true });
  const transcript = join(dir, `${base}.ndjson`);
  const metadata = join(dir, `${base}.json`);
  writeFileSync(transcript, encodeTranscriptFile(lines));
  const full: FindingRecord = { ...record, lines: lines.hostile.length + 2, hostile_lines: lines.hostile.length };
  writeFileSync(metadata, `${JSON.stringify(full, null, 2)}\n`);
  return { transcript, metadata };
}

/** Rewrite the metadata after the replay check. */
export function updateFinding(metadata: string, patch: Partial<FindingRecord>): void {
  const cur = JSON.parse(readFileSync(metadata, 'utf8')) as FindingRecord;
  writeFileSync(metadata, `${JSON.stringify({ ...cur, ...patch }, null, 2)}\n`);
}
