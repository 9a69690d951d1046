/**
 * The per-scenario side of the suite: which connection is in use (the shared one, or a fresh one), every
 * reply received (each validated and checked as it arrives), the ledger of findings and witnesses, and the
 * final verdict for the scenario's anchor/rule ids. Step definitions only call into this and the probe
 * modules; they never check anything themselves.
 */
import { findCatalogueEntry } from '../../catalogue/index.js';
import type { Finding } from '../../protocol/findings.js';
import { isJsonObject, type JsonObject } from '../../protocol/json-value.js';
import { PROTOCOL_VERSION } from '../../protocol/version.js';
import type { RawEnvelope } from '../../transport/ndjson.js';
import { WireRecorder, type WireEntry } from '../evidence/evidence.js';
import { checkLines, checkReply, DEFAULT_UNWITNESSED, type Evidence, type ReplyContext } from './checks.js';
import { ConformanceFailure, describeError, HarnessError, Inconclusive, isTargetError } from './errors.js';
import { ackOf, judgeInFamily, performHandshake, type HandshakeOutcome } from './handshake.js';
import { ScenarioLedger, type Verdict } from './scenario-ledger.js';
import type { SharedSession, SuiteRuntime } from './runtime.js';
import type { AnySession, TappedLine } from './session.js';

/** A frames reply with the query it answers. */
export interface FramesAnswer {
  purpose: string;
  query: JsonObject;
  reply: RawEnvelope;
  result: JsonObject;
  frames: JsonObject[];
}

/** Tags that are not rule ids. */
function isRuleTag(tag: string): boolean {
  return tag !== 'provider' && !tag.startsWith('needs-');
}

let scenarioSeq = 0;

export class ScenarioProbe {
  readonly ledger = new ScenarioLedger();
  /** Anchor/rule ids the scenario is tagged with (catalogue-checked). */
  readonly ids: string[];
  readonly answers: FramesAnswer[] = [];
  /** Plain-text notes for the report (not findings). */
  readonly notes: string[] = [];
  /** Connections this scenario used (their unchecked raw lines are checked at its verdict). */
  private readonly used = new Set<AnySession>();
  /** Every line this scenario's connections carried while it ran (wire evidence). */
  readonly wire = new WireRecorder();
  private readonly untap: Array<() => void> = [];
  private freshCount = 0;
  private readonly owned: AnySession[] = [];
  private sharedSession: SharedSession | undefined;
  private freshSession: AnySession | undefined;
  private freshAck: JsonObject | undefined;
  private baselinePromise: Promise<FramesAnswer> | undefined;
  private seq = 0;
  private readonly prefix: string;

  constructor(
    readonly runtime: SuiteRuntime,
    tags: readonly string[],
    /** The scenario's name (a stall is reported against it: "target unresponsive since …"). */
    readonly name = 'a scenario',
  ) {
    const names = tags.map((t) => t.replace(/^@/, ''));
    this.ids = names.filter(isRuleTag);
    for (const id of this.ids) {
      if (!findCatalogueEntry(id)) throw new HarnessError(`scenario tag @${id} names no anchor or rule in the catalogue`);
    }
    if (this.ids.length === 0) throw new HarnessError('a provider scenario must be tagged with at least one anchor or rule id');
    this.prefix = `cgp-${++scenarioSeq}`;
  }

  get config() {
    return this.runtime.config;
  }

  /** A fresh request id (unique per run). */
  nextId(label = 'q'): string {
    return `${this.prefix}-${label}-${++this.seq}`;
  }

  // ── connections ──────────────────────────────────────────────────────────────────────────────────

  /**
   * Use the shared, handshaken connection. A target that gave no handshake_ack makes the scenario
   * inconclusive (its handshake finding is reported under H1, its own id): a failed precondition is never a
   * violation of the scenario's ids (docs/interpretations.md §87). Only a scenario about H1 fails on it.
   */
  async useShared(): Promise<SharedSession> {
    const shared = await this.runtime.shared({ name: this.name, ids: this.ids });
    if (!this.sharedSession) {
      this.sharedSession = shared;
      this.merge(shared.evidence);
      this.touch(shared.session, 'shared');
      if (shared.replaced && !shared.noted) {
        shared.noted = true;
        this.notes.push(
          `a new shared connection was opened and handshaken for this scenario: ${shared.replaced.why} in scenario "${shared.replaced.scenario}", which reported it (docs/interpretations.md §88)`,
        );
      }
    }
    if (!ackOf(shared.outcome)) {
      const seen = shared.outcome.reply ? `a "${shared.outcome.reply.type}" envelope` : describeError(shared.outcome.error);
      this.precondition(`the shared connection's handshake got ${seen}; every probe needs a handshake_ack first`, 'H1');
    }
    return shared;
  }

  /**
   * A precondition of the scenario's check was not met: inconclusive, never a violation
   * (docs/interpretations.md §87) — unless the scenario is about `ownId`, whose check this is.
   */
  precondition(detail: string, ownId?: string): never {
    if (ownId !== undefined && this.ids.includes(ownId)) this.fail(detail);
    throw new Inconclusive(this.ids, detail);
  }

  /** A fresh connection (a new process for stdio), not yet handshaken; closed when the scenario ends. */
  async useFresh(): Promise<AnySession> {
    const session = await this.opened(this.runtime.fresh());
    this.owned.push(session);
    this.freshSession = session;
    this.freshAck = undefined;
    this.touch(session, `fresh-${++this.freshCount}`);
    return session;
  }

  /**
   * A fresh connection with its contextgraph/1.0 handshake done (started and handshaken ahead by the runtime),
   * the ack judged here; fails the scenario when there is none. Its opening lines (the handshake
   * and its answer) are this scenario's wire evidence.
   */
  async useFreshHandshaken(): Promise<JsonObject> {
    const taken = await this.opened(this.runtime.freshHandshaken());
    this.owned.push(taken.session);
    this.freshSession = taken.session;
    this.freshAck = undefined;
    this.touch(taken.session, `fresh-${++this.freshCount}`, true);
    return this.judgeFreshHandshake(taken.outcome);
  }

  /** A connection the runtime opens; a target that cannot be reached fails the scenario. */
  private async opened<T>(opening: Promise<T>): Promise<T> {
    try {
      return await opening;
    } catch (err) {
      if (isTargetError(err)) this.precondition(`could not open a fresh connection to the target: ${describeError(err)}`);
      throw err;
    }
  }

  /** Handshake the fresh connection (contextgraph/1.0) and judge the ack; fails the scenario when there is none. */
  async handshakeFresh(): Promise<JsonObject> {
    const session = this.freshSession ?? (await this.useFresh());
    return this.judgeFreshHandshake(await performHandshake(session, PROTOCOL_VERSION));
  }

  private judgeFreshHandshake(outcome: HandshakeOutcome): JsonObject {
    this.merge(judgeInFamily(outcome, this.config.target));
    const ack = ackOf(outcome);
    if (!ack) {
      const seen = outcome.reply ? `a "${outcome.reply.type}" envelope` : describeError(outcome.error);
      this.precondition(`the fresh connection's handshake got ${seen}; required a handshake_ack`, 'H1');
    }
    this.freshAck = ack;
    return ack;
  }

  /** Record the ack a probe obtained on the fresh connection by its own handshake. */
  adoptFreshAck(ack: JsonObject): void {
    if (!this.freshSession) throw new HarnessError('adoptFreshAck: no fresh connection');
    this.freshAck = ack;
  }

  get fresh(): AnySession | undefined {
    return this.freshSession;
  }

  /** The connection probes talk to: the fresh one when the scenario opened one, else the shared one. */
  session(): AnySession {
    const s = this.freshSession ?? this.sharedSession?.session;
    if (!s) throw new HarnessError('no connection: a Given step must open the shared or a fresh connection first');
    return s;
  }

  /** The handshake_ack the current connection answered with. */
  ack(): JsonObject {
    const ack = this.currentAck();
    if (!ack) throw new HarnessError('no handshake_ack on the current connection: handshake it first');
    return ack;
  }

  /** The current connection's handshake_ack, if it has one (ack() without the failure). */
  private currentAck(): JsonObject | undefined {
    return this.freshSession ? this.freshAck : ackOf(this.sharedSession?.outcome);
  }

  capabilities(): JsonObject {
    return capabilitiesOf(this.ack());
  }

  /** The provider id verify identities and attestations use: the handshake provider.name (docs/interpretations.md §2). */
  providerName(): string {
    return providerNameOf(this.ack());
  }

  correlation(): boolean {
    return this.capabilities().correlation === true;
  }

  advertised(): string[] | undefined {
    return advertisedOf(this.ack());
  }

  private touch(session: AnySession, connection: string, handshakenAhead = false): void {
    if (this.used.has(session)) return;
    this.used.add(session);
    // The shared connection (and a fresh one handshaken ahead) was handshaken before this scenario took it:
    // its opening lines come first (negative times).
    const record = (t: TappedLine) =>
      this.wire.add({
        direction: t.direction === 'out' ? 'sent' : 'received',
        connection,
        line: t.line,
        at: t.wall,
        ...(t.raw ? { raw: true } : {}),
        ...(t.error !== undefined ? { error: t.error } : {}),
      });
    if (connection === 'shared' || handshakenAhead) for (const t of session.taps.opening) record(t);
    this.untap.push(session.taps.on(record));
  }

  /** Point each new finding at the exchange just observed: the last line received and the last one sent before it. */
  private pointAtWire(ev: Evidence): void {
    const entries = this.wire.entries;
    let recv = entries.length - 1;
    while (recv >= 0 && entries[recv]!.direction !== 'received') recv--;
    if (recv < 0) return;
    let sent = recv - 1;
    while (sent >= 0 && !(entries[sent]!.direction === 'sent' && entries[sent]!.connection === entries[recv]!.connection)) sent--;
    const wire = sent >= 0 ? [sent, recv] : [recv];
    for (const f of ev.findings) if (f.wire === undefined) f.wire = wire;
  }

  /** The wire transcript so far. */
  transcript(): WireEntry[] {
    return this.wire.transcript();
  }

  // ── exchanges ────────────────────────────────────────────────────────────────────────────────────

  /**
   * Lock-step request on the current connection. A reply is checked at once (schema, protocol, H4 echo).
   * No reply at all (timeout, crash, garbage) fails the scenario, naming what was being probed.
   */
  async exchange(envelope: JsonObject, purpose: string, extra: Omit<ReplyContext, 'requestId'> = {}): Promise<RawEnvelope> {
    const reply = await this.tryExchange(envelope, purpose, extra);
    if (reply instanceof Error) this.fail(`${purpose}: no reply (${describeError(reply)}); required an envelope within ${this.config.timeouts.requestMs} ms`);
    if (reply === null) this.fail(`${purpose}: the target answered 204 No Content; required an envelope`);
    return reply;
  }

  /** Like exchange, but a target error (timeout, EOF, …) is returned instead of failing the scenario. */
  async tryExchange(envelope: JsonObject, purpose: string, extra: Omit<ReplyContext, 'requestId'> = {}): Promise<RawEnvelope | null | Error> {
    const session = this.session();
    await this.drainUnsolicited(session);
    let reply: RawEnvelope | null;
    try {
      reply = await session.request(envelope);
    } catch (err) {
      if (isTargetError(err)) return this.runtime.noteStall(session, err as Error, this.name);
      throw err;
    }
    if (session.kind === 'stdio') {
      for (const stale of session.passedOver.splice(0)) {
        this.notes.push(`a late ${stale.type} reply with id ${JSON.stringify(stale.id)} (an earlier exchange's) was passed over, checked, and not taken as the answer to ${purpose}`);
        this.observe(stale, undefined);
      }
    }
    if (session.kind === 'http') {
      const status = session.conn.lastStatus;
      if (reply && status !== undefined && (status < 200 || status > 299)) {
        this.notes.push(`${purpose}: the ${reply.type} envelope came with HTTP status ${status} (informational: the binding names no status codes)`);
      }
    }
    if (reply) this.observe(reply, envelope, extra, purpose);
    return reply;
  }

  /** Check a reply to `request` and keep frames answers. */
  observe(reply: RawEnvelope, request: JsonObject | undefined, extra: Omit<ReplyContext, 'requestId'> = {}, purpose = 'query'): void {
    const ctx: ReplyContext = { ...extra };
    const query = request && isJsonObject(request.query) ? request.query : undefined;
    if (query && ctx.query === undefined) ctx.query = query;
    if (request && typeof request.id === 'string') ctx.requestId = request.id;
    if (ctx.providerName === undefined) ctx.providerName = this.safeProviderName();
    if (this.config.target.kind === 'in-process') ctx.inProcess = true;
    if (ctx.advertised === undefined) {
      const adv = this.safeAdvertised();
      if (adv !== undefined) ctx.advertised = adv;
    }
    if (query && Array.isArray(query.representation_preferences) && ctx.requested === undefined) {
      ctx.requested = query.representation_preferences.filter((r): r is string => typeof r === 'string');
    }
    const ev = checkReply(reply, ctx);
    this.pointAtWire(ev);
    this.merge(ev);
    if (reply.type === 'frames' && query && isJsonObject(reply.result)) {
      const frames = Array.isArray(reply.result.frames) ? reply.result.frames.filter(isJsonObject) : [];
      this.answers.push({ purpose, query, reply, result: reply.result, frames });
    }
  }

  // a connection with no handshake_ack (a plain fresh one) has neither: every reply on it asks
  private safeProviderName(): string | undefined {
    const ack = this.currentAck();
    return ack === undefined ? undefined : providerNameOf(ack);
  }

  private safeAdvertised(): string[] | undefined {
    const ack = this.currentAck();
    return ack === undefined ? undefined : advertisedOf(ack);
  }

  /** On stdio, envelopes nobody asked for would be read as the next reply: take them off and check them. */
  private async drainUnsolicited(session: AnySession): Promise<void> {
    if (session.kind !== 'stdio') return;
    while (session.conn.queued > 0) {
      const before = session.conn.queued;
      let env: RawEnvelope | undefined;
      try {
        env = await session.poll(0);
      } catch (err) {
        if (isTargetError(err)) {
          this.notes.push(`unsolicited input from the target: ${describeError(err)}`);
          // a read that took nothing off the queue (a stalled connection fails fast without reading) would
          // be retried forever: stop draining
          if (session.conn.queued >= before) break;
          continue;
        }
        throw err;
      }
      if (!env) break;
      this.notes.push(`unsolicited ${env.type} envelope from the target (checked, then discarded)`);
      this.observe(env, undefined);
    }
  }

  /** A frames answer to a query, or a scenario failure naming what came instead. */
  async query(query: JsonObject, purpose: string, opts: { id?: boolean; extra?: Omit<ReplyContext, 'requestId'> } = {}): Promise<FramesAnswer> {
    const envelope: JsonObject = { type: 'query', query };
    if (opts.id ?? this.correlation()) envelope.id = this.nextId();
    const reply = await this.exchange(envelope, purpose, opts.extra);
    if (reply.type !== 'frames' || !isJsonObject(reply.result)) {
      const seen = reply.type === 'error' ? `error ${JSON.stringify(reply.code)} (${JSON.stringify(reply.message)})` : `a "${reply.type}" envelope`;
      this.fail(`${purpose}: answered with ${seen}; required a frames reply`);
    }
    return this.answers[this.answers.length - 1]!;
  }

  /** The answer to a generous query (what the target serves), once per scenario. */
  baseline(): Promise<FramesAnswer> {
    this.baselinePromise ??= this.query(probeQuery(GENEROUS), 'the generous baseline query');
    return this.setup(this.baselinePromise);
  }

  /**
   * What the scenario's check needs, not what it checks: a failure of `work` (no reply, an error where
   * frames were needed) makes the scenario inconclusive, not failed (docs/interpretations.md §87).
   */
  setup<T>(work: Promise<T>): Promise<T> {
    return work.catch((err: unknown) => {
      if (err instanceof ConformanceFailure) this.precondition(err.message.slice(`${this.ids.join(', ')}: `.length));
      throw err;
    });
  }

  /** The generous query as the scenario's own probe (a failure to answer it fails the scenario). */
  baselineAsProbe(): Promise<FramesAnswer> {
    this.baselinePromise ??= this.query(probeQuery(GENEROUS), 'the generous baseline query');
    return this.baselinePromise;
  }

  // ── findings and verdict ─────────────────────────────────────────────────────────────────────────

  merge(ev: Evidence): void {
    this.ledger.add(ev.findings);
    for (const [id, n] of Object.entries(ev.witnesses)) this.ledger.witness(id, n);
    for (const [id, r] of Object.entries(ev.reasons)) this.ledger.unwitnessedBecause(id, r);
  }

  /** Fail the scenario: the message starts with its ids and says what was seen vs required. */
  fail(detail: string): never {
    throw new ConformanceFailure(`${this.ids.join(', ')}: ${detail}`);
  }

  /** Check the framing of every raw line received on the connections this scenario used. */
  checkRawLines(): void {
    for (const session of this.used) {
      const where = session === this.sharedSession?.session ? 'shared connection' : 'fresh connection';
      this.merge(checkLines(this.runtime.takeUncheckedLines(session), where));
    }
  }

  private readonly retriesNoted = new Set<AnySession>();

  /** Say which of this scenario's connections were retried once (docs/interpretations.md §80). */
  noteRetries(): void {
    for (const session of this.used) {
      if (session.kind !== 'stdio' || session.retried === undefined || this.retriesNoted.has(session)) continue;
      this.retriesNoted.add(session);
      this.notes.push(session.retried);
    }
  }

  private readonly reported = new Set<Finding>();

  /** The verdict step attached this finding. */
  markReported(f: Finding): void {
    this.reported.add(f);
  }

  /**
   * Every finding not attached by the verdict: a reply is checked against every applicable rule whatever
   * the scenario probes (and raw lines are framing-checked), and such a finding counts for its own id —
   * attached when the scenario ends, passed or failed, never dropped.
   */
  unreportedFindings(): Finding[] {
    this.noteRetries();
    this.checkRawLines();
    return this.ledger.findings.filter((f) => !this.reported.has(f));
  }

  verdict(ids: readonly string[]): Verdict {
    for (const id of ids) {
      if (!this.ids.includes(id)) throw new HarnessError(`the step checks ${id}, which the scenario is not tagged with (tags: ${this.ids.join(', ')})`);
    }
    this.checkRawLines();
    for (const [id, reason] of Object.entries(DEFAULT_UNWITNESSED)) this.ledger.unwitnessedBecause(id, reason);
    return this.ledger.verdict(ids);
  }

  /** Close the fresh connections this scenario opened (their processes are killed now, reaped later: letGo). */
  async dispose(): Promise<void> {
    for (const off of this.untap.splice(0)) off();
    for (const s of this.owned.splice(0)) this.runtime.letGo(s);
  }
}

/** The probe query shape (§5): a goal, no filters, a budget. */
export const PROBE_GOAL = 'cgp-conformance probe: return your most relevant frames';

export function probeQuery(over: JsonObject = {}): JsonObject {
  return { goal: PROBE_GOAL, query_text: 'conformance probe', kinds: [], anchors: [], ...TYPICAL, ...over };
}

/** A budget every answer fits: what the target serves, untruncated. */
export const GENEROUS = { max_frames: 64, max_tokens: 65_536 } as const;
/** The reference suite's sample budget. */
export const TYPICAL = { max_frames: 8, max_tokens: 4_096 } as const;

function capabilitiesOf(ack: JsonObject): JsonObject {
  const caps = ack.capabilities;
  return isJsonObject(caps) ? caps : {};
}

function providerNameOf(ack: JsonObject): string {
  const provider = ack.provider;
  return isJsonObject(provider) && typeof provider.name === 'string' ? provider.name : '';
}

function advertisedOf(ack: JsonObject): string[] | undefined {
  const reps = capabilitiesOf(ack).representations;
  return Array.isArray(reps) ? reps.filter((r): r is string => typeof r === 'string') : undefined;
}
