// Lints a stream of CGP messages: schema validation (strict lint or interop profile), the
// src/protocol checks, and record_hash recomputation for lifecycle records. Every finding names
// its anchor or rule id and a JSON pointer. Used by `cgp-conformance validate`.
import { validateEnvelope, validateRecord, type SchemaProfile } from '../schema/validate.js';
import { checkEnvelope, checkRecordHash, type Finding } from '../protocol/index.js';
import type { MessageItem } from './read-messages.js';

export interface LocatedFinding extends Finding {
  /** file:line or file#/index of the message the finding is about. */
  location: string;
  /** Which layer found it. */
  source: 'schema' | 'protocol' | 'input';
}

export interface LintOptions {
  profile: SchemaProfile;
  /** Cross-message checks (a frames reply against its query, F11 identities against the ack's provider.name). */
  mode?: StreamMode;
}

/**
 * How a message stream is read. `session`: one connection's exchange — at most one handshake and at most one
 * handshake_ack, the ack after the handshake — so a frames reply is checked against the query it answers and
 * identities against the ack's provider.name. `independent`: anything else (a corpus of vectors, several
 * sessions concatenated): each message is checked alone, because correlating unrelated lines by id or by
 * position invents requirements (a false Q1 on a vector corpus).
 */
export type StreamMode = 'session' | 'independent';

export interface StreamModeVerdict {
  mode: StreamMode;
  reason: string;
}

export function detectStreamMode(items: readonly MessageItem[]): StreamModeVerdict {
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

type MessageKind = 'envelope' | 'record' | 'unknown';

export function classify(value: unknown): MessageKind {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'unknown';
  const v = value as Record<string, unknown>;
  if ('record_kind' in v || (typeof v.schema_version === 'string' && v.schema_version.startsWith('contextgraph/lifecycle/'))) {
    return 'record';
  }
  if ('type' in v) return 'envelope';
  return 'unknown';
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

export function lintMessages(items: readonly MessageItem[], options: LintOptions): LocatedFinding[] {
  const out: LocatedFinding[] = [];
  const session = (options.mode ?? detectStreamMode(items).mode) === 'session';
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
      for (const issue of validateEnvelope(value, options.profile)) {
        found.push(at({ id: issue.id, severity: 'error', pointer: issue.pointer, message: issue.message }, 'schema'));
      }
      const query = session && envelope.type === 'frames' ? ctx.queryFor(envelope) : undefined;
      for (const f of checkEnvelope(value, '', session ? { query: query as never, providerName: ctx.providerName } : {})) {
        found.push(at(f, 'protocol'));
      }
      if (session) ctx.observe(envelope);
    } else if (kind === 'record') {
      for (const issue of validateRecord(value, options.profile)) {
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
