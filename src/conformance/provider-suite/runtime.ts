/**
 * One suite run's shared state: the resolved target config, ONE shared provider connection for read-only
 * scenarios (established lazily, handshaken once), and the fresh connections the selected scenarios need
 * (malformed input, shutdown, foreign handshake, …), started ahead in parallel (planFresh).
 * Everything opened here is closed by close() (cucumber's AfterAll); the transport also kills stdio process
 * groups when the harness exits.
 */
import { PROTOCOL_VERSION } from '../../protocol/version.js';
import { TimeoutError } from '../../transport/errors.js';
import type { Evidence } from './checks.js';
import { resolveSuiteConfig, type SuiteConfig } from './config.js';
import { describeError, HarnessError, Inconclusive, isTargetError } from './errors.js';
import { ackOf, judgeInFamily, performHandshake, type HandshakeOutcome } from './handshake.js';
import { openSession, StdioSession, type AnySession, type FreshRetry } from './session.js';
import type { StdioConnection } from '../../transport/stdio-client.js';

export interface SharedSession {
  session: AnySession;
  outcome: HandshakeOutcome;
  /** The judged handshake (H1, H2, C5, …), merged into every scenario that uses the shared session. */
  evidence: Evidence;
  /** Set when this connection replaced a lost one (docs/interpretations.md §88): what was lost, and where. */
  replaced?: SharedLoss;
  /** The replacement has been noted by the first scenario that used it. */
  noted?: boolean;
}

/** A shared connection lost after it had been acknowledged: in which scenario, and how. */
export interface SharedLoss {
  scenario: string;
  why: string;
}

/** Without a plan (a plain cucumber-js run), this many fresh stdio connections are kept started ahead. */
const UNPLANNED_AHEAD = 2;

/** How many fresh connections the selected scenarios will take, by kind (run-suite counts them from the pickles). */
export interface FreshDemand {
  /** "a fresh connection": started, not handshaken (the scenario's own handshake is the probe). */
  plain: number;
  /** "a fresh, handshaken connection": started and handshaken with contextgraph/1.0 before the scenario takes it. */
  handshaken: number;
}

/** The Given steps that open each kind of fresh connection (steps/provider.steps.ts; counted by run-suite). */
export const FRESH_STEPS = {
  plain: 'a fresh connection to the provider under test',
  handshaken: 'a fresh, handshaken connection to the provider under test',
} as const;

/** A fresh connection with its contextgraph/1.0 handshake done (judged by the scenario that takes it). */
export interface FreshHandshaken {
  session: AnySession;
  outcome: HandshakeOutcome;
}

export class SuiteRuntime {
  private sharedPromise: Promise<SharedSession> | undefined;
  /** The shared connection once opened (the one replaceIfLost looks at). */
  private sharedNow: SharedSession | undefined;
  /** The last scenario that used the shared connection (a loss found later is blamed on it). */
  private sharedUser: string | undefined;
  /** Set when a lost shared connection could not be replaced: the root cause every later scenario names. */
  private unrecoverable: string | undefined;
  private replacements = 0;
  private readonly open = new Set<AnySession>();
  /** Connections still starting (spawned, not yet ready). */
  private readonly opening = new Set<Promise<AnySession>>();
  /** Started ahead, not yet taken (stdio only). */
  private plainPool: Array<Promise<AnySession>> = [];
  private handshakenPool: Array<Promise<FreshHandshaken>> = [];
  /**
   * Of those, the ones still starting (counted against config.spawnAhead): a handshaken one until its
   * handshake has been answered (or failed); a plain one, which is sent nothing, until it is taken or a
   * connection started after it has been answered (processes start in the order they were spawned).
   */
  private startingPlain: Array<{ seq: number; entry: Promise<AnySession> }> = [];
  private startingHandshaken = 0;
  private spawnSeq = 0;
  /** Connections of each kind the rest of the run will still take (undefined: no plan, keep a few ahead). */
  private demand: FreshDemand | undefined;
  private closed = false;
  /** While > 0, nothing is started ahead: a retried connection is being started alone (§80). */
  private paused = 0;
  /** Retries start one at a time. */
  private aloneChain: Promise<void> = Promise.resolve();
  /** The shared connection once it has a handshake_ack (the target answers there). */
  private sharedReady: AnySession | undefined;
  /** Connections let go whose process has not been reaped yet (letGo). */
  private readonly closing = new Set<Promise<void>>();
  /** Per connection: how many of its inbound lines have had their framing checked (each line once). */
  private readonly linesChecked = new WeakMap<AnySession, number>();

  constructor(
    readonly config: SuiteConfig,
    readonly runId: string,
  ) {}

  /**
   * The shared, handshaken connection (opened on first use). When the one in use was lost — a read on it
   * timed out, or its peer went away — after it had been acknowledged, a new one is opened and handshaken in
   * its place (docs/interpretations.md §88): the fault was reported once, by the scenario that met it, and
   * the scenarios after it are judged on a working connection. When the new one cannot be opened or gets no
   * handshake_ack, every later scenario is inconclusive (Inconclusive, naming both causes), never failed.
   * Rejects only on a harness problem, a spawn failure, or that.
   */
  shared(who?: { name: string; ids: readonly string[] }): Promise<SharedSession> {
    const shared = this.peekShared(who);
    if (who) this.sharedUser = who.name;
    return shared;
  }

  /** The shared connection (replaced first when lost), without naming a user of it. */
  private peekShared(who?: { name: string; ids: readonly string[] }): Promise<SharedSession> {
    this.replaceIfLost();
    if (this.unrecoverable !== undefined) return Promise.reject(new Inconclusive(who?.ids ?? ['this scenario'], this.unrecoverable));
    this.sharedPromise ??= this.openShared(undefined);
    if (!who) return this.sharedPromise;
    // a replacement that could not be opened names the scenario that asked for it
    return this.sharedPromise.catch((err: unknown) => {
      throw err instanceof Inconclusive ? new Inconclusive(who.ids, err.reason, { cause: err }) : err;
    });
  }

  /** Why no scenario can be run any more (the shared connection was lost and could not be replaced), if so. */
  get lostForGood(): string | undefined {
    return this.unrecoverable;
  }

  private async openShared(replacing: SharedLoss | undefined): Promise<SharedSession> {
    const lostAt = replacing ? `the shared connection was lost in scenario "${replacing.scenario}" (${replacing.why})` : '';
    let session: AnySession;
    try {
      session = await this.track(openSession(this.config));
    } catch (err) {
      if (replacing && isTargetError(err)) this.unrecoverable = `${lostAt}, and a new connection could not be opened: ${describeError(err)}`;
      if (this.unrecoverable !== undefined) throw new Inconclusive(['this scenario'], this.unrecoverable, { cause: err });
      throw err;
    }
    const outcome = await performHandshake(session, PROTOCOL_VERSION);
    const ack = ackOf(outcome);
    if (ack) this.sharedReady = session;
    else if (replacing) {
      const seen = outcome.reply ? `a "${outcome.reply.type}" envelope` : describeError(outcome.error);
      this.unrecoverable = `${lostAt}, and the new connection's handshake got ${seen}, not a handshake_ack`;
    }
    // a replacement that got no ack is not judged: its failure is the root cause every later scenario names
    const judged = !replacing || ack !== undefined;
    const shared: SharedSession = { session, outcome, evidence: judged ? judgeInFamily(outcome, this.config.target) : { findings: [], witnesses: {}, reasons: {} } };
    if (replacing) shared.replaced = replacing;
    this.sharedNow = shared;
    return shared;
  }

  /** If the shared connection in use was acknowledged and has since been lost, let it go and open a new one. */
  private replaceIfLost(): void {
    const now = this.sharedNow;
    if (!now || this.unrecoverable !== undefined || !ackOf(now.outcome)) return;
    const why = now.session.lost;
    if (why === undefined) return;
    this.sharedNow = undefined;
    if (this.sharedReady === now.session) this.sharedReady = undefined;
    this.letGo(now.session);
    this.replacements++;
    this.sharedPromise = this.openShared({ why, scenario: this.sharedUser ?? 'an earlier scenario' });
    this.sharedPromise.catch(() => {}); // reported to the scenario that takes it
  }

  /** How many times the shared connection was replaced in this run. */
  get sharedReplacements(): number {
    return this.replacements;
  }

  /** Use an already-handshaken connection as the shared one (run-suite's preflight). */
  adoptShared(session: AnySession, outcome: HandshakeOutcome): void {
    if (this.sharedPromise) throw new HarnessError('adoptShared: the shared session is already established');
    this.open.add(session);
    if (ackOf(outcome)) this.sharedReady = session;
    const shared: SharedSession = { session, outcome, evidence: judgeInFamily(outcome, this.config.target) };
    this.sharedNow = shared;
    this.sharedPromise = Promise.resolve(shared);
  }

  /** The shared handshake_ack, or undefined when the handshake did not produce one. */
  async sharedAck(who?: { name: string; ids: readonly string[] }) {
    return ackOf((await this.peekShared(who)).outcome);
  }

  /**
   * Start the fresh connections the selected scenarios will take now, all at once (up to
   * config.spawnAhead not yet taken), so that N slow-starting processes cost one start-up, not N. A process
   * started ahead has been sent nothing (or only the contextgraph/1.0 handshake its scenario asks for), so it
   * is as fresh as one started on demand; no verdict depends on when it was started. HTTP and in-process
   * targets open nothing ahead (a new client is free).
   */
  planFresh(demand: FreshDemand): void {
    this.demand = { ...demand };
    this.refill();
  }

  private refill(): void {
    if (this.closed || this.paused > 0 || this.config.target.kind !== 'stdio') return;
    const d = this.demand ?? { plain: UNPLANNED_AHEAD, handshaken: 0 };
    const startingAtOnce = this.demand ? this.config.spawnAhead : Math.min(this.config.spawnAhead, UNPLANNED_AHEAD);
    const keep = this.demand ? this.config.keepAhead : startingAtOnce;
    // alternate the kinds, so that a small spawnAhead still serves both
    while (this.plainPool.length + this.handshakenPool.length < keep && this.startingPlain.length + this.startingHandshaken < startingAtOnce) {
      const wantPlain = this.plainPool.length < d.plain;
      const wantShaken = this.handshakenPool.length < d.handshaken;
      if (!wantPlain && !wantShaken) break;
      const seq = ++this.spawnSeq;
      if (wantPlain && (!wantShaken || this.plainPool.length <= this.handshakenPool.length)) {
        const entry = quiet(this.track(openSession(this.config)));
        this.plainPool.push(entry);
        this.startingPlain.push({ seq, entry });
      } else {
        this.startingHandshaken++;
        const entry = quiet(this.handshaken(this.track(openSession(this.config))));
        this.handshakenPool.push(entry);
        const started = (): void => {
          this.startingHandshaken--;
          // every plain one spawned before this one has started too
          this.startingPlain = this.startingPlain.filter((p) => p.seq > seq);
          this.refill();
        };
        entry.then(started, started);
      }
    }
  }

  private async handshaken(opening: Promise<AnySession>): Promise<FreshHandshaken> {
    const session = await opening;
    return { session, outcome: await performHandshake(session, PROTOCOL_VERSION) };
  }

  private take<T>(pool: Array<Promise<T>>, kind: keyof FreshDemand, open: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new HarnessError('fresh: the suite runtime is closed'));
    const next = pool.shift() ?? open();
    this.startingPlain = this.startingPlain.filter((p) => (p.entry as Promise<unknown>) !== next);
    if (this.demand) this.demand[kind] = Math.max(0, this.demand[kind] - 1);
    this.refill();
    return next;
  }

  /** A new connection (a new process for stdio), not yet handshaken. The caller releases it. */
  async fresh(): Promise<AnySession> {
    const session = await this.take(this.plainPool, 'plain', () => this.track(openSession(this.config)));
    if (session instanceof StdioSession) session.retry = this.freshRetry;
    return session;
  }

  /**
   * A new connection with the contextgraph/1.0 handshake done (its outcome is judged by the caller). A
   * handshake started ahead that got no byte at all while the target answers on the shared connection is
   * retried once, on a process started alone (§80).
   */
  async freshHandshaken(): Promise<FreshHandshaken> {
    const taken = await this.take(this.handshakenPool, 'handshaken', () => this.handshaken(this.track(openSession(this.config))));
    const session = taken.session;
    if (!(session instanceof StdioSession)) return taken;
    session.retry = this.freshRetry;
    if (taken.outcome.reply !== undefined || !session.retriable(taken.outcome.error)) return taken;
    const t0 = Date.now();
    try {
      const reply = await session.retryOnce(taken.outcome.error, () => session.conn.handshake(PROTOCOL_VERSION, this.config.timeouts.handshakeMs), 1);
      return { session, outcome: { version: PROTOCOL_VERSION, reply, elapsedMs: Date.now() - t0 } };
    } catch (error) {
      return { session, outcome: { version: PROTOCOL_VERSION, error, elapsedMs: Date.now() - t0 } };
    }
  }

  /** How a fresh stdio connection is retried once (docs/interpretations.md §80). */
  private readonly freshRetry: FreshRetry = {
    // the target answers elsewhere: the shared connection got its handshake_ack and has not stalled
    answersElsewhere: () => this.sharedReady !== undefined && !this.sharedReady.stalled,
    startAlone: (start) => {
      let release!: () => void;
      const previous = this.aloneChain;
      // one retry at a time: the next waits until this one has answered or failed
      this.aloneChain = new Promise<void>((resolve) => (release = resolve));
      return previous.then(async () => {
        this.paused++;
        let finished = false;
        const done = () => {
          if (finished) return;
          finished = true;
          this.resume();
          release();
        };
        try {
          // nothing else starts beside it: the processes started ahead and not yet taken are stopped (they are
          // started again, ahead or on demand, once the retried connection has answered or failed)
          const dropped = [...this.plainPool, ...this.handshakenPool.map((p) => p.then((h) => h.session))];
          this.plainPool = [];
          this.startingPlain = [];
          this.handshakenPool = [];
          await Promise.allSettled(dropped.map((p) => p.then((s) => this.release(s))));
          await Promise.allSettled([...this.opening]);
          return { conn: await start(), done };
        } catch (err) {
          done();
          throw err;
        }
      });
    },
  };

  private resume(): void {
    this.paused = Math.max(0, this.paused - 1);
    this.refill();
  }

  /** Per connection: the scenario whose read first timed out on it, and what that timeout said. */
  private readonly stalls = new WeakMap<AnySession, { scenario: string; at: number; message: string }>();

  /**
   * docs/architecture.md "Red team economics": once a read on a connection has timed out, later exchanges on it fail at
   * once (the transport refuses them). Record the first stall, and name it in every fail-fast error:
   * "target unresponsive since <scenario>".
   */
  noteStall(session: AnySession, err: Error, scenario: string): Error {
    if (!(err instanceof TimeoutError)) return err;
    if (!err.failFast) {
      if (!this.stalls.has(session)) this.stalls.set(session, { scenario, at: Date.now(), message: err.message });
      return err;
    }
    const first = this.stalls.get(session);
    if (!first) return err;
    const failFast = new TimeoutError(err.what, err.ms, {
      failFast: true,
      unresponsiveForMs: Date.now() - first.at,
      detail: `target unresponsive since scenario "${first.scenario}" (${first.message})`,
    });
    return failFast;
  }

  /** The inbound lines of `session` not framing-checked yet; they count as checked from now on. */
  takeUncheckedLines(session: AnySession): AnySession['lines'] {
    const from = this.linesChecked.get(session) ?? 0;
    this.linesChecked.set(session, session.lines.length);
    return session.lines.slice(from);
  }

  async release(session: AnySession): Promise<void> {
    this.open.delete(session);
    await session.close();
  }

  /**
   * Let a scenario's connection go without waiting for it: closing kills its process at once (StdioConnection
   * close), and the wait for the exit overlaps the scenarios that follow; close() waits for every one.
   */
  letGo(session: AnySession): void {
    this.open.delete(session);
    const closing = session.close().catch(() => {});
    this.closing.add(closing);
    void closing.then(() => this.closing.delete(closing));
  }

  private track(p: Promise<AnySession>): Promise<AnySession> {
    const tracked = p.then(async (s) => {
      if (this.closed) {
        await s.close();
        throw new HarnessError('the suite runtime closed while a connection was opening');
      }
      this.open.add(s);
      return s;
    });
    this.opening.add(tracked);
    const forget = () => this.opening.delete(tracked);
    tracked.then(forget, forget);
    return tracked;
  }

  async close(): Promise<void> {
    this.closed = true;
    // Connections opened ahead and never taken: the ones still starting are closed by track() once they
    // have started; a handshake in flight on one fails fast when its session closes below.
    this.plainPool = [];
    this.startingPlain = [];
    this.handshakenPool = [];
    await Promise.allSettled([...this.opening]);
    await Promise.allSettled([...this.open].map((s) => s.close()));
    this.open.clear();
    await Promise.allSettled([...this.closing]);
  }
}

/** A connection opened ahead whose failure is reported to the scenario that takes it, not as unhandled. */
function quiet<T>(p: Promise<T>): Promise<T> {
  p.catch(() => {});
  return p;
}

let current: SuiteRuntime | undefined;

/** Install the runtime a programmatic run prepared (run-suite). */
export function installRuntime(runtime: SuiteRuntime): void {
  current = runtime;
}

/**
 * The runtime for a scenario. `parameters` are cucumber's world parameters: `{runId, config}` from run-suite,
 * or empty for a plain `cucumber-js` run (the config then comes from the environment).
 */
export function runtimeFor(parameters: { runId?: unknown; config?: unknown }): SuiteRuntime {
  const runId = typeof parameters.runId === 'string' ? parameters.runId : 'cli';
  if (current && current.runId === runId) return current;
  const config = parameters.config !== undefined ? (parameters.config as SuiteConfig) : resolveSuiteConfig();
  current = new SuiteRuntime(config, runId);
  return current;
}

/** Close the current runtime (AfterAll). */
export async function closeRuntime(): Promise<void> {
  const runtime = current;
  current = undefined;
  await runtime?.close();
}
