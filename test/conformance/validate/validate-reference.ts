// The whole-file `validate` path as it was before NDJSON streaming (main at dcc7300: read the file into one
// string, split it into items, detect the stream mode over all items, then lint). Frozen here as the reference
// the streamed path must match, finding for finding (test/conformance/validate/validate-stream.test.ts).
import { checkEnvelope, checkRecordHash, type Finding } from '../../../src/protocol/index.js';
import { validateEnvelope, validateRecord, type SchemaProfile } from '../../../src/schema/validate.js';
import type { LocatedFinding, StreamModeVerdict } from '../../../src/conformance/validate/lint-messages.js';
import { classify } from '../../../src/conformance/validate/lint-messages.js';
import type { MessageItem } from '../../../src/conformance/validate/read-messages.js';
import { UnreadableInputError } from '../../../src/conformance/validate/read-messages.js';

export interface ReferenceReport {
  profile: SchemaProfile;
  files: { source: string; messages: number; mode: StreamModeVerdict; findings: LocatedFinding[] }[];
  summary: { messages: number; errors: number; warnings: number };
}

export function referenceValidate(inputs: { source: string; bytes: Buffer }[], profile: SchemaProfile): ReferenceReport {
  const report: ReferenceReport = { profile, files: [], summary: { messages: 0, errors: 0, warnings: 0 } };
  for (const { source, bytes } of inputs) {
    const items = splitMessages(source, decodeUtf8(source, bytes));
    const mode = detectStreamMode(items);
    const findings = lintMessages(items, profile, mode.mode === 'session');
    report.files.push({ source, messages: items.length, mode, findings });
    report.summary.messages += items.length;
    for (const f of findings) {
      if (f.severity === 'error') report.summary.errors += 1;
      else report.summary.warnings += 1;
    }
  }
  return report;
}

function decodeUtf8(source: string, bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UnreadableInputError(source, 'not valid UTF-8');
  }
}
/** Splits a source text into message items; throws UnreadableInputError when nothing in it is JSON. */
function splitMessages(source: string, text: string): MessageItem[] {
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
function detectStreamMode(items: readonly MessageItem[]): StreamModeVerdict {
  let handshakes = 0;
  let acks = 0;
  let ackBeforeHandshake = false;
  for (const item of items) {
    const v = item.value;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) continue;
    const type = (v as Record<string, unknown>).type;
    if (type === 'handshake') handshakes++;
    if (type === 'handshake_ack') {
      acks++;
      if (handshakes === 0) ackBeforeHandshake = true;
    }
  }
  if (handshakes > 1 || acks > 1) return { mode: 'independent', reason: `${handshakes} handshake(s) and ${acks} handshake_ack(s): not one session` };
  if (ackBeforeHandshake) return { mode: 'independent', reason: 'a handshake_ack precedes any handshake: not one session' };
  return { mode: 'session', reason: handshakes === 1 ? 'one handshake opens the stream' : 'no handshake: read as one session fragment' };
}
/** Context carried along a message stream so a frames reply is checked against its query. */
class StreamContext {
  private readonly queriesById = new Map<string, unknown>();
  private lastQuery: unknown;
  providerName: string | undefined;

  observe(envelope: Record<string, unknown>): void {
    if (envelope.type === 'query') {
      this.lastQuery = envelope.query;
      if (typeof envelope.id === 'string') this.queriesById.set(envelope.id, envelope.query);
    } else if (envelope.type === 'handshake_ack') {
      const provider = envelope.provider as Record<string, unknown> | undefined;
      if (provider && typeof provider.name === 'string') this.providerName = provider.name;
    }
  }

  queryFor(envelope: Record<string, unknown>): unknown {
    if (typeof envelope.id === 'string' && this.queriesById.has(envelope.id)) return this.queriesById.get(envelope.id);
    return this.lastQuery;
  }
}

function lintMessages(items: readonly MessageItem[], profile: SchemaProfile, session: boolean): LocatedFinding[] {
  const out: LocatedFinding[] = [];

  const ctx = new StreamContext();
  for (const item of items) {
    const found: LocatedFinding[] = [];
    const at = (f: Finding, source: LocatedFinding['source']): LocatedFinding => ({
      ...f,
      pointer: item.pointer + f.pointer,
      location: item.location,
      source,
    });
    if (item.parseError !== undefined) {
      out.push({
        id: 'S2-wire-shape',
        severity: 'error',
        pointer: item.pointer,
        message: `S2-wire-shape violated: not a JSON value (${item.parseError})`,
        location: item.location,
        source: 'input',
      });
      continue;
    }
    const value = item.value;
    const kind = classify(value);
    if (kind === 'envelope') {
      const envelope = value as Record<string, unknown>;
      for (const issue of validateEnvelope(value, profile)) {
        found.push(at({ id: issue.id, severity: 'error', pointer: issue.pointer, message: issue.message }, 'schema'));
      }
      const query = session && envelope.type === 'frames' ? ctx.queryFor(envelope) : undefined;
      for (const f of checkEnvelope(value, '', session ? { query: query as never, providerName: ctx.providerName } : {})) {
        found.push(at(f, 'protocol'));
      }
      if (session) ctx.observe(envelope);
    } else if (kind === 'record') {
      for (const issue of validateRecord(value, profile)) {
        found.push(at({ id: issue.id, severity: 'error', pointer: issue.pointer, message: issue.message }, 'schema'));
      }
      for (const f of checkRecordHash(value as object, '')) found.push(at(f, 'protocol'));
    } else {
      found.push({
        id: 'S2-wire-shape',
        severity: 'error',
        pointer: item.pointer,
        message: 'S2-wire-shape violated: neither an envelope (no "type" member) nor a lifecycle record (no "record_kind")',
        location: item.location,
        source: 'input',
      });
    }
    out.push(...mergeDuplicates(found));
  }
  return out;
}

/**
 * The schema and the protocol checks can both see one defect (a D1 digest pattern, or a P2 member
 * missing — the schema points at the member, the check at the frame). Report it once: same id and
 * one pointer equal to, or a path-segment prefix of, the other. The protocol check's message wins
 * (it says seen vs required).
 */
function mergeDuplicates(findings: LocatedFinding[]): LocatedFinding[] {
  const kept: LocatedFinding[] = [];
  for (const f of findings) {
    const twin = kept.findIndex((k) => k.id === f.id && (isSegmentPrefix(k.pointer, f.pointer) || isSegmentPrefix(f.pointer, k.pointer)));
    if (twin === -1) kept.push(f);
    else if (kept[twin]!.source === 'schema' && f.source === 'protocol') kept[twin] = f;
  }
  return kept;
}

function isSegmentPrefix(prefix: string, pointer: string): boolean {
  return pointer === prefix || pointer.startsWith(`${prefix}/`);
}
