/**
 * One suite run's shared state: the resolved target config, ONE shared provider connection for read-only
 * scenarios (established lazily, handshaken once), and a small pool of fresh connections spawned ahead in
 * parallel for the scenarios that need a fresh process (malformed input, shutdown, foreign handshake, …).
 * Everything opened here is closed by close() (cucumber's AfterAll); the transport also kills stdio process
 * groups when the harness exits.
 */
import { PROTOCOL_VERSION } from '../../protocol/version.js';
import { TimeoutError } from '../../transport/errors.js';
import type { Evidence } from './checks.js';
import { resolveSuiteConfig, type SuiteConfig } from './config.js';
import { HarnessError } from './errors.js';
import { ackOf, judgeInFamily, performHandshake, type HandshakeOutcome } from './handshake.js';
import { openSession, type AnySession } from './session.js';

export interface SharedSession {
  session: AnySession;
  outcome: HandshakeOutcome;
  /** The judged handshake (H1, H2, C5, …), merged into every scenario that uses the shared session. */
  evidence: Evidence;
}

/** Fresh stdio processes kept spawned ahead of need. */
const POOL_SIZE = 3;

export class SuiteRuntime {
  private sharedPromise: Promise<SharedSession> | undefined;
  private readonly open = new Set<AnySession>();
  private pool: Array<Promise<AnySession>> = [];
  private closed = false;
  /** Per connection: how many of its inbound lines have had their framing checked (each line once). */
  private readonly linesChecked = new WeakMap<AnySession, number>();

  constructor(
    readonly config: SuiteConfig,
    readonly runId: string,
  ) {}

  /** The shared, handshaken connection (opened on first use). Rejects only on a harness problem or spawn failure. */
  shared(): Promise<SharedSession> {
    this.sharedPromise ??= (async () => {
      const session = await this.track(openSession(this.config));
      const outcome = await performHandshake(session, PROTOCOL_VERSION);
      return { session, outcome, evidence: judgeInFamily(outcome, this.config.target) };
    })();
    return this.sharedPromise;
  }

  /** Use an already-handshaken connection as the shared one (run-suite's preflight). */
  adoptShared(session: AnySession, outcome: HandshakeOutcome): void {
    if (this.sharedPromise) throw new HarnessError('adoptShared: the shared session is already established');
    this.open.add(session);
    this.sharedPromise = Promise.resolve({ session, outcome, evidence: judgeInFamily(outcome, this.config.target) });
  }

  /** The shared handshake_ack, or undefined when the handshake did not produce one. */
  async sharedAck() {
    return ackOf((await this.shared()).outcome);
  }

  /** A new connection (a new process for stdio), not yet handshaken. The caller releases it. */
  fresh(): Promise<AnySession> {
    if (this.closed) return Promise.reject(new HarnessError('fresh: the suite runtime is closed'));
    if (this.config.target.kind !== 'stdio') return this.track(openSession(this.config));
    const next = this.pool.shift() ?? this.track(openSession(this.config));
    while (this.pool.length < POOL_SIZE - 1) {
      const spare = this.track(openSession(this.config));
      spare.catch(() => {}); // surfaced when taken
      this.pool.push(spare);
    }
    return next;
  }

  /** Per connection: the scenario whose read first timed out on it, and what that timeout said. */
  private readonly stalls = new WeakMap<AnySession, { scenario: string; at: number; message: string }>();

  /**
   * DESIGN "Red team economics": once a read on a connection has timed out, later exchanges on it fail at
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

  private track(p: Promise<AnySession>): Promise<AnySession> {
    return p.then(async (s) => {
      if (this.closed) {
        await s.close();
        throw new HarnessError('the suite runtime closed while a connection was opening');
      }
      this.open.add(s);
      return s;
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const pending = this.pool;
    this.pool = [];
    await Promise.allSettled(pending.map((p) => p.then((s) => s.close())));
    await Promise.allSettled([...this.open].map((s) => s.close()));
    this.open.clear();
  }
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
