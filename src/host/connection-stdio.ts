// The stdio channel: one provider child process, NDJSON over its pipes (src/transport StdioConnection).
//
// This module owns the read side: a single pump reads every envelope the child writes and routes it.
// - Lock-step (provider did not declare correlation, S3.2): one exchange at a time, the next reply-shaped
//   envelope answers it. After a lock-step timeout the connection fails fast: a late reply could no
//   longer be told apart from the answer to the next request.
// - Pipelined (correlation declared): queries carry ids and run concurrently; replies are demultiplexed
//   by id. A frames/error carrying an unknown or no id while requests are pending is an H4 violation:
//   every pending request fails at once with CorrelationMismatch (the reply cannot be attributed, so no
//   request is left waiting for the timeout). Late replies to timed-out ids are dropped.
// - verify stays lock-step among verifies (docs/interpretations.md §4): it is sent with an id to a correlating
//   provider; a `verified` without an id is still accepted as the answer to the one verify in flight
//   (a warning, S9-verify-correlation); a wrong id fails H4.
// - An unknown envelope type is never fatal (S2.1-unknown-type): a notification (no id, no payload) is
//   ignored; a payload-bearing one is answered `error` `bad_request`.
import { StdioConnection, type StdioSpawnOptions } from '../transport/stdio-client.js';
import { ConnectionClosedError, EofMidLineError, PeerClosedError, SpawnError, TimeoutError, TransportError } from '../transport/errors.js';
import type { RawEnvelope } from '../transport/ndjson.js';
import type { Transcript } from '../transport/transcript.js';
import { isKnownEnvelopeType } from '../protocol/envelope-types.js';
import { warning } from '../protocol/findings.js';
import { CorrelationMismatch, HandshakeFailed, HostError, MalformedReply, ProviderCrashed, ProviderTimeout, TransportFailure, type CrashPhase } from './errors.js';
import { isPayloadBearing, type Channel, type ChannelShutdown, type ExchangeKind, type ExchangeOptions } from './connection-channel.js';
import type { HostFinding } from './connection-handshake.js';
import type { LogSink } from './http-security.js';

/** How long one pump read waits before looping (silence is normal; nothing is marked stalled). */
const PUMP_WINDOW_MS = 60_000;
const REPLY_TYPES = new Set(['frames', 'error', 'verified']);

interface Pending {
  kind: ExchangeKind;
  id: string | undefined;
  resolve(env: RawEnvelope): void;
  reject(err: HostError): void;
  timer: NodeJS.Timeout;
}

export interface StdioChannelOptions extends StdioSpawnOptions {
  log?: LogSink;
  /** Misbehaving host only (ConnectionPolicies.replyRouting): 'lockstep' or 'arrival' ignore reply ids (break H4). */
  replyRouting?: 'by-id' | 'lockstep' | 'arrival';
}

export class StdioChannel implements Channel {
  readonly transport = 'stdio' as const;
  readonly loopback = true;
  readonly target: string;
  readonly findings: HostFinding[] = [];
  routingId: string | undefined;
  readonly #conn: StdioConnection;
  readonly #log: LogSink;
  #correlation = false;
  #started = false;
  #closing = false;
  #terminal: HostError | null = null;
  /** Correlated exchanges (queries and the verify in flight), by id. */
  readonly #pending = new Map<string, Pending>();
  /** The one lock-step exchange in flight (no id routing). */
  #slot: Pending | null = null;
  #lockstep: Promise<void> = Promise.resolve();
  #verifyLock: Promise<void> = Promise.resolve();
  #verifyId: string | undefined;
  readonly #abandoned = new Set<string>();
  #stalledSince: number | null = null;
  #stalledPhase: ExchangeKind = 'query';
  readonly #replyRouting: 'by-id' | 'lockstep' | 'arrival';

  private constructor(conn: StdioConnection, target: string, log: LogSink, replyRouting: 'by-id' | 'lockstep' | 'arrival') {
    this.#conn = conn;
    this.target = target;
    this.#log = log;
    this.#replyRouting = replyRouting;
  }

  static async spawn(command: string, args: readonly string[], opts: StdioChannelOptions = {}): Promise<StdioChannel> {
    const { log, replyRouting, ...spawnOpts } = opts;
    const target = [command, ...args].join(' ');
    let conn: StdioConnection;
    try {
      conn = await StdioConnection.spawn(command, args, spawnOpts);
    } catch (err) {
      if (err instanceof SpawnError) throw new TransportFailure(`could not start provider ${JSON.stringify(target)}: ${err.message}`, { cause: err });
      throw err;
    }
    return new StdioChannel(conn, target, log ?? (() => undefined), replyRouting ?? 'by-id');
  }

  get transcript(): Transcript {
    return this.#conn.transcript;
  }

  get pid(): number {
    return this.#conn.pid;
  }

  /** The last bytes the child wrote to stderr (diagnostics only). */
  stderrTail(): string {
    return this.#conn.stderrTail();
  }

  async handshake(version: string, timeoutMs: number): Promise<RawEnvelope> {
    const deadline = Date.now() + timeoutMs;
    try {
      await this.#conn.send({ type: 'handshake', protocol_version: version }, timeoutMs);
      for (;;) {
        const env = await this.#conn.next(Math.max(1, deadline - Date.now()), 'handshake');
        if (!isKnownEnvelopeType(env.type)) {
          this.#onUnknownType(env);
          continue;
        }
        return env;
      }
    } catch (err) {
      throw this.#mapError(err, 'handshake', timeoutMs);
    }
  }

  start(correlation: boolean): void {
    if (this.#started) return;
    this.#started = true;
    // Misbehaving host only: 'lockstep' reads a correlating provider's replies in order, ids unchecked (H4).
    this.#correlation = correlation && this.#replyRouting !== 'lockstep';
    void this.#pump();
  }

  exchange(envelope: Record<string, unknown>, opts: ExchangeOptions): Promise<RawEnvelope> {
    if (!this.#started) return Promise.reject(new TransportFailure('exchange before the handshake completed', { routingId: this.routingId }));
    if (this.#correlation && opts.id !== undefined) {
      if (opts.kind === 'verify') return this.#serialised('verify', () => this.#correlated(envelope, opts));
      return this.#correlated(envelope, opts);
    }
    return this.#serialised('lockstep', () => this.#lockstepExchange(envelope, opts));
  }

  async shutdown(graceMs: number): Promise<ChannelShutdown> {
    this.#closing = true;
    this.#failAll(() => new TransportFailure('the host is shutting this provider down', { routingId: this.routingId }));
    const r = await this.#conn.shutdown(graceMs);
    return { clean: r.clean, killed: r.killed, exitCode: r.exitCode, signal: r.signal, elapsedMs: r.elapsedMs };
  }

  async close(): Promise<void> {
    this.#closing = true;
    this.#failAll(() => new TransportFailure('the connection was closed by the host', { routingId: this.routingId }));
    await this.#conn.close();
  }

  // ── exchanges ──────────────────────────────────────────────────────────────────────────────────────

  async #serialised<T>(which: 'lockstep' | 'verify', fn: () => Promise<T>): Promise<T> {
    const prev = which === 'verify' ? this.#verifyLock : this.#lockstep;
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    if (which === 'verify') this.#verifyLock = mine;
    else this.#lockstep = mine;
    await prev;
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /** A dead connection fails at once; so does a lock-step one whose earlier exchange timed out. */
  #precheck(): HostError | null {
    if (this.#terminal) return this.#terminal;
    if (this.#stalledSince !== null) {
      return new ProviderTimeout(this.#stalledPhase, 0, { routingId: this.routingId, failFast: true, detail: `stalled ${Date.now() - this.#stalledSince} ms ago` });
    }
    return null;
  }

  #lockstepExchange(envelope: Record<string, unknown>, opts: ExchangeOptions): Promise<RawEnvelope> {
    const early = this.#precheck();
    if (early) return Promise.reject(early);
    return new Promise<RawEnvelope>((resolve, reject) => {
      const startedAt = Date.now();
      const pending: Pending = {
        kind: opts.kind,
        id: undefined,
        resolve,
        reject,
        timer: setTimeout(() => {
          if (this.#slot !== pending) return;
          this.#slot = null;
          this.#stalledSince ??= startedAt;
          this.#stalledPhase = opts.kind;
          reject(new ProviderTimeout(opts.kind, opts.timeoutMs, { routingId: this.routingId }));
        }, opts.timeoutMs),
      };
      this.#slot = pending; // registered before writing: an instant reply finds it
      this.#conn.send(envelope, opts.timeoutMs).catch((err) => {
        if (this.#slot !== pending) return;
        this.#slot = null;
        clearTimeout(pending.timer);
        reject(this.#mapError(err, opts.kind, opts.timeoutMs));
      });
    });
  }

  #correlated(envelope: Record<string, unknown>, opts: ExchangeOptions): Promise<RawEnvelope> {
    const id = opts.id!;
    const early = this.#precheck();
    if (early) return Promise.reject(early);
    if (this.#pending.has(id)) return Promise.reject(new TransportFailure(`correlation id ${JSON.stringify(id)} is already in flight`, { routingId: this.routingId }));
    return new Promise<RawEnvelope>((resolve, reject) => {
      const settle = () => {
        this.#pending.delete(id);
        if (this.#verifyId === id) this.#verifyId = undefined;
      };
      const pending: Pending = {
        kind: opts.kind,
        id,
        resolve: (env) => {
          settle();
          resolve(env);
        },
        reject: (err) => {
          settle();
          reject(err);
        },
        timer: setTimeout(() => {
          if (this.#pending.get(id) !== pending) return;
          settle();
          this.#abandon(id);
          reject(new ProviderTimeout(opts.kind, opts.timeoutMs, { routingId: this.routingId, detail: `no reply with id ${JSON.stringify(id)}` }));
        }, opts.timeoutMs),
      };
      this.#pending.set(id, pending);
      if (opts.kind === 'verify') this.#verifyId = id;
      this.#conn.send(envelope, opts.timeoutMs).catch((err) => {
        if (this.#pending.get(id) !== pending) return;
        clearTimeout(pending.timer);
        pending.reject(this.#mapError(err, opts.kind, opts.timeoutMs));
      });
    });
  }

  // ── the read side ──────────────────────────────────────────────────────────────────────────────────

  async #pump(): Promise<void> {
    while (!this.#terminal && !this.#closing) {
      let env: RawEnvelope | undefined;
      try {
        env = await this.#conn.poll(PUMP_WINDOW_MS);
      } catch (err) {
        if (this.#closing) return;
        if (err instanceof PeerClosedError || err instanceof ConnectionClosedError || err instanceof TimeoutError || !(err instanceof TransportError)) {
          this.#fatal(err);
          return;
        }
        this.#onFramingError(err);
        continue;
      }
      if (env) this.#route(env);
    }
  }

  #route(env: RawEnvelope): void {
    if (!isKnownEnvelopeType(env.type)) return this.#onUnknownType(env);
    if (!REPLY_TYPES.has(env.type)) {
      this.#note('debug', `S2-wire-shape: provider sent a "${env.type}" envelope, which answers nothing a host sends; ignored`);
      return;
    }
    if (this.#correlation) this.#routeCorrelated(env);
    else this.#routeLockstep(env);
  }

  #routeLockstep(env: RawEnvelope): void {
    const slot = this.#slot;
    if (!slot) {
      this.#note('warn', `unsolicited "${env.type}" envelope from the provider (nothing in flight); dropped`);
      return;
    }
    this.#slot = null;
    clearTimeout(slot.timer);
    slot.resolve(env);
  }

  #routeCorrelated(env: RawEnvelope): void {
    const id = env.id;
    if (this.#replyRouting === 'arrival' && this.#pending.size > 0) {
      // Misbehaving host only: the oldest pending request takes the reply, whatever id it carries (breaks H4).
      const oldest = this.#pending.values().next().value!;
      clearTimeout(oldest.timer);
      oldest.resolve(env);
      return;
    }
    if (typeof id === 'string') {
      const p = this.#pending.get(id);
      if (p) {
        clearTimeout(p.timer);
        p.resolve(env);
        return;
      }
      if (this.#abandoned.delete(id)) {
        this.#note('info', `late "${env.type}" reply for timed-out request ${JSON.stringify(id)} dropped`);
        return;
      }
    }
    // An id-less exchange on a correlating connection (lock-step by the caller's choice) takes the reply.
    if (this.#slot && (id === undefined || id === null)) return this.#routeLockstep(env);
    // docs/interpretations.md §4: a verified without an id still answers the one verify in flight (a warning).
    if (env.type === 'verified' && (id === undefined || id === null) && this.#verifyId !== undefined) {
      const p = this.#pending.get(this.#verifyId);
      if (p) {
        this.findings.push({
          ...warning('S9-verify-correlation', '/id', `verified reply omits the verify's id ${JSON.stringify(this.#verifyId)}; a correlating provider SHOULD echo it`),
          routingId: this.routingId,
        });
        clearTimeout(p.timer);
        p.resolve(env);
        return;
      }
    }
    if (this.#pending.size === 0) {
      this.#note('warn', `unsolicited "${env.type}" envelope with id ${JSON.stringify(id)} (nothing in flight); dropped`);
      return;
    }
    // H4: unattributable. A wrong-id verified only concerns the verify in flight; anything else fails every
    // pending exchange at once instead of leaving them to time out.
    const victims = env.type === 'verified' && this.#verifyId !== undefined ? [this.#pending.get(this.#verifyId)!] : [...this.#pending.values()];
    const expected = victims.map((p) => p.id!).filter(Boolean);
    for (const p of victims) {
      clearTimeout(p.timer);
      if (p.id) this.#abandon(p.id);
      p.reject(new CorrelationMismatch(expected, id, env.type, { routingId: this.routingId }));
    }
  }

  #onUnknownType(env: RawEnvelope): void {
    if (!isPayloadBearing(env)) {
      this.#note('debug', `S2.1-unknown-type: ignored an unrecognised notification of type ${JSON.stringify(env.type)}`);
      return;
    }
    this.#note('info', `S2.1-unknown-type: provider sent a payload-bearing envelope of unknown type ${JSON.stringify(env.type)}; answered bad_request`);
    const id = env.id;
    const reply: Record<string, unknown> = { type: 'error', code: 'bad_request', message: `this host does not implement envelope type ${JSON.stringify(env.type)}` };
    // Echo the peer's id only to a provider that negotiated correlation (S3.2).
    if (this.#correlation && (typeof id === 'string' || typeof id === 'number')) reply.id = id;
    this.#conn.send(reply).catch(() => undefined);
  }

  #onFramingError(err: TransportError): void {
    const make = () => new MalformedReply(`provider wrote a line that is not a usable envelope: ${err.message}`, { routingId: this.routingId, cause: err });
    if (this.#slot) {
      const slot = this.#slot;
      this.#slot = null;
      clearTimeout(slot.timer);
      slot.reject(make());
      return;
    }
    if (this.#pending.size > 0) {
      // Unattributable garbage while pipelined requests are in flight: fail them now rather than at timeout.
      for (const p of [...this.#pending.values()]) {
        clearTimeout(p.timer);
        if (p.id) this.#abandon(p.id);
        p.reject(make());
      }
      return;
    }
    this.#note('warn', `S2-wire-shape: provider wrote an unusable line while nothing was in flight: ${err.message}`);
  }

  #fatal(err: unknown): void {
    this.#failAll((kind) => this.#mapError(err, kind, 0));
    this.#terminal = this.#mapError(err, 'query', 0);
  }

  #failAll(make: (kind: CrashPhase & ExchangeKind) => HostError): void {
    if (this.#slot) {
      const slot = this.#slot;
      this.#slot = null;
      clearTimeout(slot.timer);
      slot.reject(make(slot.kind));
    }
    for (const p of [...this.#pending.values()]) {
      clearTimeout(p.timer);
      p.reject(make(p.kind));
    }
    this.#pending.clear();
  }

  #abandon(id: string): void {
    this.#abandoned.add(id);
    if (this.#abandoned.size > 10_000) this.#abandoned.delete(this.#abandoned.values().next().value!);
  }

  #note(level: 'debug' | 'info' | 'warn', message: string): void {
    this.#log({ level, message, ...(this.routingId !== undefined ? { routingId: this.routingId } : {}) });
  }

  #mapError(err: unknown, phase: CrashPhase & ('handshake' | 'query' | 'verify'), timeoutMs: number): HostError {
    const routingId = this.routingId;
    if (err instanceof HostError) return err;
    if (err instanceof PeerClosedError) {
      const tail = err.stderrTail.trim();
      return new ProviderCrashed(
        phase,
        `${err.exitCode !== null ? `exit code ${err.exitCode}` : err.signal ? `signal ${err.signal}` : 'its stdout closed'}${tail ? `; stderr tail: ${tail.slice(-500)}` : ''}`,
        {
          routingId: routingId ?? this.target,
          exitCode: err.exitCode,
          signal: err.signal,
          cause: err,
        },
      );
    }
    if (err instanceof TimeoutError) {
      return new ProviderTimeout(phase, err.ms || timeoutMs, { routingId: routingId ?? this.target, failFast: err.failFast, detail: err.message, cause: err });
    }
    if (err instanceof ConnectionClosedError) return new TransportFailure('the connection was closed by the host', { routingId, cause: err });
    if (err instanceof EofMidLineError) {
      const exit = this.#conn.exitStatus;
      return new ProviderCrashed(phase, `its output ended mid-line (${err.pendingBytes} bytes after the last newline)`, {
        routingId: routingId ?? this.target,
        exitCode: exit?.exitCode ?? null,
        signal: exit?.signal ?? null,
        cause: err,
      });
    }
    if (err instanceof TransportError) {
      return phase === 'handshake'
        ? new HandshakeFailed(`provider answered the handshake with output that is not an envelope: ${err.message}`, { routingId: routingId ?? this.target, anchor: 'S2-wire-shape', cause: err })
        : new MalformedReply(`provider output is not a usable envelope: ${err.message}`, { routingId: routingId ?? this.target, cause: err });
    }
    return new TransportFailure(`stdio failure: ${err instanceof Error ? err.message : String(err)}`, { routingId, cause: err });
  }
}
