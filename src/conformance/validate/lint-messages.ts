// Lints a stream of CGP messages: schema validation (strict lint or interop profile), the
// src/protocol checks, and record_hash recomputation for lifecycle records. Every finding names
// its anchor or rule id and a JSON pointer. Used by `cgp-conformance validate`.
import { validateEnvelope, validateRecord, type SchemaIssue, type SchemaProfile } from '../../schema/validate.js';
import { checkEnvelope, checkRecordHash, type Finding } from '../../protocol/index.js';
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

/**
 * Counts what decides the stream mode, one item at a time (the verdict depends only on the counts, so it can be
 * kept while streaming). Once `notOneSession` is true it stays true.
 */
export class StreamModeTracker {
  private handshakes = 0;
  private acks = 0;
  private ackBeforeHandshake = false;

  observe(item: MessageItem): void {
    const v = item.value;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return;
    const type = (v as Record<string, unknown>).type;
    if (type === 'handshake') this.handshakes++;
    if (type === 'handshake_ack') {
      this.acks++;
      if (this.handshakes === 0) this.ackBeforeHandshake = true;
    }
  }

  get notOneSession(): boolean {
    return this.handshakes > 1 || this.acks > 1 || this.ackBeforeHandshake;
  }

  verdict(): StreamModeVerdict {
    const { handshakes, acks } = this;
    if (handshakes > 1 || acks > 1) return { mode: 'independent', reason: `${handshakes} handshake(s) and ${acks} handshake_ack(s): not one session` };
    if (this.ackBeforeHandshake) return { mode: 'independent', reason: 'a handshake_ack precedes any handshake: not one session' };
    return { mode: 'session', reason: handshakes === 1 ? 'one handshake opens the stream' : 'no handshake: read as one session fragment' };
  }
}

export function detectStreamMode(items: readonly MessageItem[]): StreamModeVerdict {
  const tracker = new StreamModeTracker();
  for (const item of items) tracker.observe(item);
  return tracker.verdict();
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

/**
 * How many query ids a session remembers for matching a frames reply to its query (by id; an id-less reply is
 * checked against the last query). A host keeps few queries in flight, so the window holds the most recent
 * QUERY_WINDOW distinct ids and drops the oldest — state bounded however long the stream. Once an id has been
 * dropped, a reply whose id the window does not hold may answer a forgotten query: it is checked against no query
 * (its B1/B4/Q1/S6.1-as-of checks are skipped, never guessed from the last query). Below the window's size the
 * verdicts are those of an unbounded map.
 */
export const QUERY_WINDOW = 4096;

/** Context carried along a message stream so a frames reply is checked against its query. */
class StreamContext {
  private readonly queriesById = new Map<string, unknown>();
  private forgotten = false;
  private lastQuery: unknown;
  providerName: string | undefined;

  observe(envelope: Record<string, unknown>): void {
    if (envelope.type === 'query') {
      this.lastQuery = envelope.query;
      if (typeof envelope.id === 'string') {
        // re-inserting moves a reused id to the young end; the oldest id goes once the window is full
        this.queriesById.delete(envelope.id);
        this.queriesById.set(envelope.id, envelope.query);
        if (this.queriesById.size > QUERY_WINDOW) {
          this.queriesById.delete(this.queriesById.keys().next().value as string);
          this.forgotten = true;
        }
      }
    } else if (envelope.type === 'handshake_ack') {
      const provider = envelope.provider as Record<string, unknown> | undefined;
      if (provider && typeof provider.name === 'string') this.providerName = provider.name;
    }
  }

  queryFor(envelope: Record<string, unknown>): unknown {
    if (typeof envelope.id === 'string') {
      if (this.queriesById.has(envelope.id)) return this.queriesById.get(envelope.id);
      if (this.forgotten) return undefined;
    }
    return this.lastQuery;
  }

  /** Query ids held (instrumentation for the bounded-memory test). */
  get heldQueries(): number {
    return this.queriesById.size;
  }
}

/**
 * Lints a stream of items as they arrive, keeping findings and O(1) state — never the messages.
 *
 * The stream mode (session vs independent) is only known at the end: a second handshake or ack, or an ack before
 * any handshake, anywhere makes the whole stream independent. So, unless the mode is given, each item is linted in
 * session mode while the stream can still be one session. Session mode differs from independent mode only in
 * the context a frames envelope is checked with (its query: B1/B4/Q1/S6.1-as-of; provider.name: F11), and that
 * context only ever adds or replaces findings — a message with no finding in session mode has none in
 * independent mode either. So for a message that had findings under a context, its independent findings are also
 * computed, and kept (as a patch) only if they differ; when the stream turns out not to be one session, the
 * patches replace those messages' findings and the rest of the stream is linted independently. A stream of valid
 * envelopes is linted once per message and holds no patch. (A cheap first pass over `type` was the alternative:
 * it reads a file twice and cannot work on stdin.)
 */
export class MessageLinter {
  private readonly tracker = new StreamModeTracker();
  private readonly fixedMode: StreamMode | undefined;
  private ctx: StreamContext | undefined = new StreamContext();
  private findings: LocatedFinding[] = [];
  /** Findings [start, start+count) were found in session mode; `independent` replaces them if it is not one. */
  private patches: { start: number; count: number; independent: LocatedFinding[] }[] = [];
  messages = 0;

  constructor(
    private readonly profile: SchemaProfile,
    mode?: StreamMode,
  ) {
    this.fixedMode = mode;
    if (mode === 'independent') this.ctx = undefined;
  }

  push(item: MessageItem): void {
    this.messages++;
    this.tracker.observe(item);
    if (this.fixedMode === undefined && this.ctx !== undefined && this.tracker.notOneSession) this.demote();
    this.lint(item);
  }

  finish(): { mode: StreamModeVerdict; findings: LocatedFinding[]; messages: number } {
    const mode = this.tracker.verdict();
    return { mode: this.fixedMode === undefined ? mode : { mode: this.fixedMode, reason: mode.reason }, findings: this.findings, messages: this.messages };
  }

  /** Query ids and patches held (instrumentation for the bounded-memory test). */
  get held(): { queries: number; patches: number } {
    return { queries: this.ctx?.heldQueries ?? 0, patches: this.patches.length };
  }

  /** Not one session after all: what was linted in session mode takes its independent findings. */
  private demote(): void {
    this.ctx = undefined;
    if (this.patches.length === 0) return;
    const out: LocatedFinding[] = [];
    let at = 0;
    for (const p of this.patches) {
      for (let i = at; i < p.start; i++) out.push(this.findings[i]!);
      out.push(...p.independent);
      at = p.start + p.count;
    }
    for (let i = at; i < this.findings.length; i++) out.push(this.findings[i]!);
    this.findings = out;
    this.patches = [];
  }

  private lint(item: MessageItem): void {
    const out = this.findings;
    if (item.parseError !== undefined) {
      out.push({
        id: 'S2-wire-shape',
        severity: 'error',
        pointer: item.pointer,
        message: `S2-wire-shape violated: not a JSON value (${item.parseError})`,
        location: item.location,
        source: 'input',
      });
      return;
    }
    const value = item.value;
    const kind = classify(value);
    if (kind === 'envelope') {
      const envelope = value as Record<string, unknown>;
      const schema = validateEnvelope(value, this.profile);
      const ctx = this.ctx;
      if (ctx === undefined) {
        this.add(item, schema, checkEnvelope(value, '', {}));
        return;
      }
      const query = envelope.type === 'frames' ? ctx.queryFor(envelope) : undefined;
      const protocol = checkEnvelope(value, '', { query: query as never, providerName: ctx.providerName });
      const start = out.length;
      const count = this.add(item, schema, protocol);
      if (this.fixedMode === undefined && protocol.length > 0 && (query !== undefined || ctx.providerName !== undefined)) {
        const independent = locate(item, schema, checkEnvelope(value, '', {}));
        if (!sameFindings(independent, out, start, count)) this.patches.push({ start, count, independent });
      }
      ctx.observe(envelope);
    } else if (kind === 'record') {
      const found: LocatedFinding[] = [];
      for (const issue of validateRecord(value, this.profile)) {
        found.push(at(item, { id: issue.id, severity: 'error', pointer: issue.pointer, message: issue.message }, 'schema'));
      }
      for (const f of checkRecordHash(value as object, '')) found.push(at(item, f, 'protocol'));
      for (const f of mergeDuplicates(found)) out.push(f);
    } else {
      out.push({
        id: 'S2-wire-shape',
        severity: 'error',
        pointer: item.pointer,
        message: 'S2-wire-shape violated: neither an envelope (no "type" member) nor a lifecycle record (no "record_kind")',
        location: item.location,
        source: 'input',
      });
    }
  }

  /** Appends one envelope's merged findings; returns how many. */
  private add(item: MessageItem, schema: readonly SchemaIssue[], protocol: readonly Finding[]): number {
    if (schema.length === 0 && protocol.length === 0) return 0; // the common case: nothing to locate or merge
    const merged = locate(item, schema, protocol);
    for (const f of merged) this.findings.push(f);
    return merged.length;
  }
}

function at(item: MessageItem, f: Finding, source: LocatedFinding['source']): LocatedFinding {
  return { ...f, pointer: item.pointer + f.pointer, location: item.location, source };
}

function locate(item: MessageItem, schema: readonly SchemaIssue[], protocol: readonly Finding[]): LocatedFinding[] {
  const found: LocatedFinding[] = [];
  for (const issue of schema) found.push(at(item, { id: issue.id, severity: 'error', pointer: issue.pointer, message: issue.message }, 'schema'));
  for (const f of protocol) found.push(at(item, f, 'protocol'));
  return mergeDuplicates(found);
}

function sameFindings(a: readonly LocatedFinding[], all: readonly LocatedFinding[], start: number, count: number): boolean {
  if (a.length !== count) return false;
  for (let i = 0; i < count; i++) {
    const x = a[i]!;
    const y = all[start + i]!;
    if (x.id !== y.id || x.severity !== y.severity || x.pointer !== y.pointer || x.message !== y.message || x.source !== y.source || x.wire !== y.wire) return false;
  }
  return true;
}

/** Lints a whole item list (the mode detected over it unless given). */
export function lintMessages(items: readonly MessageItem[], options: LintOptions): LocatedFinding[] {
  const linter = new MessageLinter(options.profile, options.mode ?? detectStreamMode(items).mode);
  for (const item of items) linter.push(item);
  return linter.finish().findings;
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
