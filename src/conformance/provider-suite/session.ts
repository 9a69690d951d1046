/**
 * One connection to the provider under test, over stdio (a spawned child) or HTTP, with every raw inbound
 * line kept so the suite can check the framing of each one (S2.1-no-newline, S2-wire-shape). Reads are
 * bounded by the suite timeouts; once a read has timed out, later reads fail fast (the transport does this).
 */
import { Credential } from '../../transport/credential.js';
import { HarnessError } from './errors.js';
import type { SuiteConfig, SuiteTimeouts } from './config.js';
import { parseEnvelopeLine, type RawEnvelope } from '../../transport/ndjson.js';
import { TimeoutError } from '../../transport/errors.js';
import type { Provider } from '../../provider/core.js';
import { HttpConnection } from '../../transport/http-client.js';
import { StdioConnection, type ShutdownResult } from '../../transport/stdio-client.js';
import type { TranscriptEntry } from '../../transport/transcript.js';

/** A raw line (stdio) or response body (HTTP) received from the target. */
export interface InboundLine {
  /** 1-based position among this session's inbound lines. */
  line: number;
  text: string;
  /** Transport error code when the bytes could not be framed/decoded (invalid_utf8, line_too_long). */
  error?: string;
  /** Final line without a newline at EOF. */
  unterminated?: boolean;
}

/** A line that crossed a connection, as its listeners see it (wire evidence). */
export interface TappedLine {
  direction: 'in' | 'out';
  line: string;
  /** Date.now() when it crossed. */
  wall: number;
  raw?: boolean;
  error?: string;
}

/** Listeners on every line of one connection, both directions; its first lines (the handshake) are kept. */
export class WireTaps {
  private readonly listeners = new Set<(line: TappedLine) => void>();
  /** The lines up to and including the first one received (the handshake and its answer). */
  readonly opening: TappedLine[] = [];
  private opened = false;

  emit(entry: TranscriptEntry): void {
    const t: TappedLine = { direction: entry.direction, line: entry.line, wall: Date.now() };
    if (entry.raw) t.raw = true;
    if (entry.error !== undefined) t.error = entry.error;
    if (!this.opened && this.opening.length < 4) {
      this.opening.push(t);
      if (t.direction === 'in') this.opened = true;
    }
    for (const l of this.listeners) l(t);
  }

  on(listener: (line: TappedLine) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** At most this many inbound lines are kept per session (the suite's probes stay far below it). */
const MAX_KEPT_LINES = 5_000;

export interface ProviderSession {
  readonly kind: 'stdio' | 'http' | 'in-process';
  readonly label: string;
  readonly timeouts: SuiteTimeouts;
  /** Inbound raw lines so far (bounded). */
  readonly lines: readonly InboundLine[];
  /** Lines dropped because of the bound. */
  readonly droppedLines: number;
  readonly stalled: boolean;
  /** Why the connection can carry no more exchanges (a timed-out read, the peer gone), or undefined. */
  readonly lost: string | undefined;
  /** Every line in both directions, for wire evidence. */
  readonly taps: WireTaps;
  /** Send a handshake and return the first envelope that comes back. */
  handshake(version: string): Promise<RawEnvelope>;
  /** Lock-step round trip. HTTP: null for a 204 (no reply). */
  request(envelope: object, timeoutMs?: number): Promise<RawEnvelope | null>;
  close(): Promise<void>;
}

/**
 * How a fresh stdio connection whose first answer never came is retried once (docs/interpretations.md §80):
 * the runtime decides whether the target answers on its other connections, and starts the replacement alone.
 */
export interface FreshRetry {
  /** Whether the target answers on another connection now (else a silent fresh connection is its own failure). */
  answersElsewhere(): boolean;
  /** Start one connection with nothing else starting beside it; `done` is called once it has answered or failed. */
  startAlone(start: () => Promise<StdioConnection>): Promise<{ conn: StdioConnection; done: () => void }>;
}

/** What was written on a stdio connection, in order, so that a retried connection can be sent the same. */
type Written = { kind: 'envelope'; envelope: object } | { kind: 'raw'; bytes: string | Uint8Array };

export class StdioSession implements ProviderSession {
  readonly kind = 'stdio' as const;
  readonly lines: InboundLine[] = [];
  droppedLines = 0;
  /** When the current process was started (Date.now()): start-up is reported apart from the time to answer. */
  startedAt: number;
  /** When the first line was written to the current process (undefined: nothing written yet). */
  firstWrittenAt: number | undefined;
  /** Set once this connection was retried (what happened, for the report). */
  retried: string | undefined;
  /** Set by the runtime on a fresh connection: how to retry it once when its first answer never comes. */
  retry: FreshRetry | undefined;
  private readonly written: Written[] = [];
  private constructor(
    public conn: StdioConnection,
    readonly label: string,
    readonly timeouts: SuiteTimeouts,
    readonly taps: WireTaps,
    private readonly config: SuiteConfig,
    private readonly sink: { session?: StdioSession; early: TranscriptEntry[] },
    startedAt: number,
  ) {
    this.startedAt = startedAt;
  }

  private static connect(config: SuiteConfig, taps: WireTaps, box: { session?: StdioSession; early: TranscriptEntry[] }): Promise<StdioConnection> {
    const target = config.target;
    if (target.kind !== 'stdio') throw new HarnessError('StdioSession.spawn: the target is not a stdio target');
    const onLine = (entry: TranscriptEntry) => {
      taps.emit(entry);
      if (entry.direction !== 'in') return;
      if (box.session) box.session.keep(entry);
      else box.early.push(entry);
    };
    return StdioConnection.spawn(target.command, target.args, {
      ...(target.cwd !== undefined ? { cwd: target.cwd } : {}),
      forwardStderr: config.forwardStderr,
      writeTimeoutMs: config.timeouts.requestMs,
      onLine,
      // The suite keeps its own bounded copy of inbound lines; the transport's transcript stays small.
      transcriptMaxEntries: 200,
    });
  }

  static async spawn(config: SuiteConfig): Promise<StdioSession> {
    const target = config.target;
    if (target.kind !== 'stdio') throw new HarnessError('StdioSession.spawn: the target is not a stdio target');
    const box: { session?: StdioSession; early: TranscriptEntry[] } = { early: [] };
    const taps = new WireTaps();
    const startedAt = Date.now();
    const conn = await StdioSession.connect(config, taps, box);
    const session = new StdioSession(conn, target.label, config.timeouts, taps, config, box, startedAt);
    box.session = session;
    for (const entry of box.early) session.keep(entry);
    return session;
  }

  private keep(entry: TranscriptEntry): void {
    if (this.lines.length >= MAX_KEPT_LINES) {
      this.droppedLines++;
      return;
    }
    const line: InboundLine = { line: this.lines.length + this.droppedLines + 1, text: entry.line };
    if (entry.error !== undefined) line.error = entry.error;
    if (entry.unterminated) line.unterminated = true;
    this.lines.push(line);
  }

  get stalled(): boolean {
    return this.conn.stalled;
  }

  get lost(): string | undefined {
    return this.conn.lost;
  }

  get pid(): number {
    return this.conn.pid;
  }

  /** Ids the harness sent on this connection (a later reply carrying one of them is stale, not an answer). */
  private readonly sentIds = new Set<string>();
  /** Envelopes passed over while waiting for a reply (stale replies); the scenario checks them. */
  readonly passedOver: RawEnvelope[] = [];

  private wrote(w: Written): number {
    this.firstWrittenAt ??= Date.now();
    this.written.push(w);
    return 1;
  }

  /**
   * A read on this connection, retried once (§80) when it timed out with no byte ever received on it, the
   * target answers on its other connections, and this connection was not retried yet: the process is replaced
   * by one started alone, sent exactly what this one was sent, and the read is made again. `ownWrites` is
   * how many of the lines written so far the operation itself wrote (it writes them again).
   */
  private async retrying<T>(op: () => Promise<T>, ownWrites: number): Promise<T> {
    try {
      return await op();
    } catch (err) {
      return this.retryOnce(err, op, ownWrites);
    }
  }

  /** Whether `err`, from a read on this connection, is the silence a retry is for (§80). */
  retriable(err: unknown): err is TimeoutError {
    return err instanceof TimeoutError && !err.failFast && this.retried === undefined && this.retry !== undefined && this.conn.received.bytes === 0 && this.retry.answersElsewhere();
  }

  /** Retry `op` once on a process started alone when `err` is retriable (§80); else rethrow `err`. */
  async retryOnce<T>(err: unknown, op: () => Promise<T>, ownWrites: number): Promise<T> {
    if (!this.retriable(err)) throw err;
    const firstStartup = (this.firstWrittenAt ?? Date.now()) - this.startedAt;
    await this.conn.close().catch(() => {});
    const { conn, done } = await this.retry!.startAlone(() => StdioSession.connect(this.config, this.taps, this.sink));
    const startedAt = Date.now();
    this.conn = conn;
    this.startedAt = startedAt;
    this.firstWrittenAt = undefined;
    try {
      const all = this.written.splice(0);
      const replay = all.slice(0, all.length - ownWrites);
      for (const w of replay) {
        if (w.kind === 'envelope') await this.send(w.envelope);
        else await this.sendRaw(w.bytes);
      }
      this.written.push(...all.slice(all.length - ownWrites));
      const t0 = Date.now();
      this.firstWrittenAt ??= t0;
      const result = await op();
      this.retried = `a fresh connection got no byte within ${err.ms} ms (its process was started ${firstStartup} ms before it was first written to) while the target answered on another; it was retried once, started alone, sent the same ${all.length} line(s), and answered ${Date.now() - t0} ms after they were sent (start-up, apart: ${t0 - startedAt} ms) (docs/interpretations.md §80)`;
      return result;
    } catch (again) {
      this.retried = `a fresh connection got no byte within ${err.ms} ms while the target answered on another; retried once, started alone: still no answer (${describeErrorShort(again)})`;
      if (again instanceof TimeoutError && !again.failFast) {
        throw new TimeoutError(again.what, again.ms, {
          detail: `${again.message.replace(/^[^:]*timed out after \d+ ms:?\s*/, '')} — retried once on a connection started alone (the first, whose process was started ${firstStartup} ms before it was written to, got no byte within ${err.ms} ms either)`,
        });
      }
      throw again;
    } finally {
      done();
    }
  }

  /** The handshake is the first exchange: a first line that is not an envelope is the answer (and a failed handshake). */
  handshake(version: string): Promise<RawEnvelope> {
    const own = this.wrote({ kind: 'envelope', envelope: { type: 'handshake', protocol_version: version } });
    return this.retrying(() => this.conn.handshake(version, this.timeouts.handshakeMs), own);
  }

  /**
   * Lock-step round trip that resynchronises: a line that is not an envelope is passed over (the framing
   * checks report it once, against S2-wire-shape, with the line), and so is a reply carrying an id the harness
   * sent EARLIER on this connection (a late answer to another exchange). A reply with any other id — or none
   * — is this request's answer, and is judged as such (H4).
   */
  request(envelope: object, timeoutMs = this.timeouts.requestMs): Promise<RawEnvelope> {
    const id = (envelope as { id?: unknown }).id;
    const own = typeof id === 'string' ? id : undefined;
    const n = this.wrote({ kind: 'envelope', envelope });
    const reply = this.retrying(() => this.conn.request(envelope, timeoutMs, 'request', (item) => this.skip(item, own)), n);
    if (own !== undefined) this.sentIds.add(own);
    return reply;
  }

  private skip(item: RawEnvelope | Error, own: string | undefined): boolean {
    if (item instanceof Error) return true; // a framing error of one line (only those are offered)
    const id = item.id;
    if (typeof id === 'string' && id !== own && this.sentIds.has(id)) {
      if (this.passedOver.length < 1_000) this.passedOver.push(item);
      return true;
    }
    return false;
  }

  requestWithId(envelope: { id: string; [k: string]: unknown }, timeoutMs = this.timeouts.requestMs): Promise<RawEnvelope> {
    this.sentIds.add(envelope.id);
    const n = this.wrote({ kind: 'envelope', envelope });
    return this.retrying(() => this.conn.requestWithId(envelope, timeoutMs), n);
  }

  send(envelope: object): Promise<void> {
    this.wrote({ kind: 'envelope', envelope });
    return this.conn.send(envelope, this.timeouts.requestMs);
  }

  sendRaw(bytes: string | Uint8Array): Promise<void> {
    this.wrote({ kind: 'raw', bytes });
    return this.conn.sendRaw(bytes, this.timeouts.requestMs);
  }

  next(timeoutMs = this.timeouts.requestMs): Promise<RawEnvelope> {
    return this.retrying(() => this.conn.next(timeoutMs), 0);
  }

  /** Wait up to windowMs for an envelope; undefined on silence (silence does not mark the session stalled). */
  poll(windowMs: number): Promise<RawEnvelope | undefined> {
    return this.conn.poll(windowMs);
  }

  get exitStatus() {
    return this.conn.exitStatus;
  }

  stderrTail(): string {
    return this.conn.stderrTail();
  }

  shutdown(graceMs = this.timeouts.shutdownGraceMs): Promise<ShutdownResult> {
    return this.conn.shutdown(graceMs);
  }

  /** Shutdown, end of input, and every item the target still writes until its stdout ends (StdioConnection.drainToEnd). */
  drainToEnd(graceMs = this.timeouts.shutdownGraceMs) {
    return this.conn.drainToEnd(graceMs);
  }

  close(): Promise<void> {
    return this.conn.close();
  }
}

function describeErrorShort(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export class HttpSession implements ProviderSession {
  readonly kind = 'http' as const;
  readonly lines: InboundLine[] = [];
  droppedLines = 0;
  readonly taps = new WireTaps();
  readonly conn: HttpConnection;

  constructor(
    url: string,
    readonly label: string,
    readonly timeouts: SuiteTimeouts,
    opts: { credential?: string | null } = {},
  ) {
    // CGP_PROVIDER_TOKEN is read here, where it is used, and wrapped at once (C8: never rendered).
    const token = opts.credential === undefined ? process.env.CGP_PROVIDER_TOKEN : opts.credential;
    this.conn = new HttpConnection(url, {
      timeoutMs: timeouts.requestMs,
      // §2 HTTP binding: "one envelope as the response body" — read it whatever the status code.
      envelopeOnAnyStatus: true,
      ...(token ? { credential: new Credential(token) } : {}),
      onLine: (entry) => {
        this.taps.emit(entry);
        // an empty body (204) is no reply: silence, not a line the framing checks read (§78)
        if (entry.direction !== 'in' || entry.noReply === true) return;
        if (this.lines.length >= MAX_KEPT_LINES) {
          this.droppedLines++;
          return;
        }
        const line: InboundLine = { line: this.lines.length + this.droppedLines + 1, text: entry.line };
        if (entry.error !== undefined) line.error = entry.error;
        this.lines.push(line);
      },
    });
  }

  get stalled(): boolean {
    return this.conn.stalled;
  }

  get lost(): string | undefined {
    return this.conn.stalled ? 'a request on it timed out' : undefined;
  }

  async handshake(version: string): Promise<RawEnvelope> {
    const reply = await this.conn.request({ type: 'handshake', protocol_version: version }, this.timeouts.handshakeMs);
    if (reply === null) throw new NoReplyError('handshake');
    return reply;
  }

  request(envelope: object, timeoutMs = this.timeouts.requestMs): Promise<RawEnvelope | null> {
    return this.conn.request(envelope, timeoutMs);
  }

  async close(): Promise<void> {
    this.conn.close();
  }
}

/** An HTTP exchange answered 204 where an envelope was required. */
export class NoReplyError extends Error {
  constructor(what: string) {
    super(`${what}: the target answered 204 No Content; an envelope was required`);
    this.name = 'NoReplyError';
  }
}

/**
 * The bundled provider loaded into the suite's own process (§6.4.1 "in-process provider"): each
 * envelope crosses as the JSON text a binding would carry and each reply is kept as a line, so the
 * same checks read it; exchange semantics are request/reply like HTTP (no reply = null). Every call
 * is bounded by the suite timeouts like a wire read.
 */
export class InProcessSession implements ProviderSession {
  readonly kind = 'in-process' as const;
  readonly lines: InboundLine[] = [];
  droppedLines = 0;
  readonly taps = new WireTaps();
  private unresponsiveSince: number | undefined;

  constructor(
    private readonly provider: Provider,
    readonly label: string,
    readonly timeouts: SuiteTimeouts,
  ) {}

  static async open(config: SuiteConfig): Promise<InProcessSession> {
    const target = config.target;
    if (target.kind !== 'in-process') throw new HarnessError('InProcessSession.open: the target is not in-process');
    // loaded here: a run against another target never loads the bundled provider
    const { createProvider } = await import('../../provider/core.js');
    const provider = createProvider({ inProcess: true, requireHandshake: true, ...(target.misbehave !== undefined ? { misbehave: target.misbehave } : {}) });
    return new InProcessSession(provider, target.label, config.timeouts);
  }

  get stalled(): boolean {
    return this.unresponsiveSince !== undefined;
  }

  get lost(): string | undefined {
    return this.stalled ? 'a request to it timed out' : undefined;
  }

  async handshake(version: string): Promise<RawEnvelope> {
    const reply = await this.exchange({ type: 'handshake', protocol_version: version }, this.timeouts.handshakeMs, 'handshake');
    if (reply === null) throw new NoReplyError('handshake');
    return reply;
  }

  request(envelope: object, timeoutMs = this.timeouts.requestMs): Promise<RawEnvelope | null> {
    return this.exchange(envelope, timeoutMs, 'request');
  }

  private async exchange(envelope: object, timeoutMs: number, what: 'handshake' | 'request'): Promise<RawEnvelope | null> {
    if (this.unresponsiveSince !== undefined) {
      throw new TimeoutError(what, timeoutMs, { failFast: true, unresponsiveForMs: Date.now() - this.unresponsiveSince });
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.unresponsiveSince = Date.now();
        reject(new TimeoutError(what, timeoutMs));
      }, timeoutMs);
    });
    let reply;
    const sent = JSON.stringify(envelope);
    this.taps.emit({ direction: 'out', line: sent, at: 0 });
    try {
      reply = await Promise.race([this.provider.handle(sent), timeout]);
    } finally {
      clearTimeout(timer);
    }
    for (const text of reply.lines) {
      this.taps.emit({ direction: 'in', line: text, at: 0 });
      if (this.lines.length >= MAX_KEPT_LINES) this.droppedLines++;
      else this.lines.push({ line: this.lines.length + this.droppedLines + 1, text });
    }
    if (reply.lines.length === 0) return null;
    const first = parseEnvelopeLine(reply.lines[0]!);
    if (first instanceof Error) throw first;
    return first;
  }

  async close(): Promise<void> {}
}

export type AnySession = StdioSession | HttpSession | InProcessSession;

/** Open a new connection to the configured target (spawn for stdio; a new client for HTTP; a new instance in-process). */
export async function openSession(config: SuiteConfig): Promise<AnySession> {
  if (config.target.kind === 'stdio') return StdioSession.spawn(config);
  if (config.target.kind === 'in-process') return InProcessSession.open(config);
  return new HttpSession(config.target.url, config.target.label, config.timeouts);
}
