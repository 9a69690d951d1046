// The stdio binding, client side: a provider child process spoken to over NDJSON pipes.
//
// Isolation follows the public reference host: the environment is cleared except PATH and
// HOME, the child gets its own process group (detached ⇒ setsid), and teardown SIGKILLs the whole group.
// Every read is bounded; once a read times out the connection is marked stalled and later reads fail fast
// ("target unresponsive since …", docs/architecture.md "Red team economics") instead of each waiting out its own timeout.
import { spawn as spawnChild, type ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { ByteRing } from './byte-ring.js';
import {
  ConnectionClosedError,
  CorrelationError,
  EofMidLineError,
  PeerClosedError,
  SpawnError,
  TimeoutError,
  TransportError,
  clip,
  type PeerExit,
  type TimeoutWhat,
  describeOutstanding,
} from './errors.js';
import { LineSplitter, encodeLine, parseEnvelopeLine, type EofMidLinePolicy, type LineItem, type RawEnvelope } from './ndjson.js';
import { killGroup, registerGroup, unregisterGroup } from './process-group.js';
import { Transcript, type TranscriptEntry } from './transcript.js';

/** docs/interpretations.md §12 (suite values). */
export const DEFAULT_HANDSHAKE_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
export const DEFAULT_SHUTDOWN_GRACE_MS = 2_000;
export const DEFAULT_STDERR_TAIL_BYTES = 64 * 1024;
/** How long to wait for the process to go after SIGKILL before giving up with a named shutdown timeout. */
const KILL_WAIT_MS = 2_000;
/** After EOF on stdout, how long to wait for the exit status before failing readers with what is known. */
const EXIT_AFTER_EOF_MS = 500;
/** Inbound envelopes queued with nobody reading: pause the child's stdout above HIGH, resume below LOW. */
const INBOX_HIGH = 1024;
const INBOX_LOW = 256;

export interface StdioSpawnOptions {
  /** The exact environment for the child. Default: cleared except PATH and HOME (like the reference host). */
  env?: Record<string, string | undefined>;
  /** Variables added to the default (PATH/HOME-only) environment; ignored when `env` is given. */
  extraEnv?: Record<string, string>;
  cwd?: string;
  /** Cap on one inbound line (default 16 MiB). */
  maxLineBytes?: number;
  /** A final line without newline at EOF: 'deliver' (default; the reference does) or 'error'. */
  eofMidLine?: EofMidLinePolicy;
  /** Also copy the child's stderr to this stream (true = process.stderr). It is always captured (tail). */
  forwardStderr?: boolean | Writable;
  /** Bytes of stderr kept for error messages (default 64 KiB). */
  stderrTailBytes?: number;
  /** Bound on one send()'s write (default 10 s): a child that stops reading its stdin is a named stall. */
  writeTimeoutMs?: number;
  /** Called with every raw line in either direction. */
  onLine?: (entry: TranscriptEntry) => void;
  /** Transcript caps (defaults 10 000 entries / 8 Mi chars; 0 entries keeps none). */
  transcriptMaxEntries?: number;
  transcriptMaxChars?: number;
}

export interface ShutdownResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Exited by itself within the grace period with code 0. */
  clean: boolean;
  /** Had to be SIGKILLed (process group) after the grace period. */
  killed: boolean;
  elapsedMs: number;
}

type Inbound = { ok: true; envelope: RawEnvelope } | { ok: false; error: TransportError };

interface Reader {
  resolve(v: RawEnvelope | undefined): void;
  reject(e: unknown): void;
  timer: NodeJS.Timeout;
}

interface Waiter {
  resolve(v: RawEnvelope): void;
  reject(e: unknown): void;
  timer: NodeJS.Timeout;
}

/** A failure of ONE inbound line (the stream goes on): not an envelope, not UTF-8, over the line cap. */
export function isLineFramingError(err: TransportError): boolean {
  return err.code === 'not_an_envelope' || err.code === 'invalid_utf8' || err.code === 'line_too_long';
}

/** The default child environment: PATH and HOME only (when set), plus `extra`. */
export function minimalEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of ['PATH', 'HOME']) {
    const v = process.env[k];
    if (v !== undefined) env[k] = v;
  }
  return { ...env, ...extra };
}

export class StdioConnection {
  readonly program: string;
  readonly args: readonly string[];
  readonly transcript: Transcript;
  private readonly child: ChildProcess;
  private readonly splitter: LineSplitter;
  private readonly stderr: ByteRing;
  private readonly writeTimeoutMs: number;
  private inbox: Inbound[] = [];
  private readers: Reader[] = [];
  private correlated = new Map<string, Waiter>();
  /** Ids whose waiter already failed (timeout/H4): a late reply for them is dropped, not queued. */
  private abandoned = new Set<string>();
  private terminal: TransportError | null = null;
  private stdoutEnded = false;
  private stalledSince: number | null = null;
  private closed = false;
  private exitInfo: PeerExit | null = null;
  private readonly exited: Promise<PeerExit>;
  /** Resolves when the child exited AND its stdio streams closed (so the stderr tail is complete). */
  private readonly streamsClosed: Promise<void>;
  private stdinError: Error | null = null;
  private paused = false;
  private lock: Promise<void> = Promise.resolve();
  private unterminatedFinal = false;
  /** Bytes read from the child's stdout so far. */
  private inboundBytes = 0;

  private constructor(child: ChildProcess, program: string, args: readonly string[], opts: StdioSpawnOptions) {
    this.child = child;
    this.program = program;
    this.args = args;
    this.splitter = new LineSplitter({ maxLineBytes: opts.maxLineBytes, eofMidLine: opts.eofMidLine });
    this.stderr = new ByteRing(opts.stderrTailBytes ?? DEFAULT_STDERR_TAIL_BYTES);
    this.writeTimeoutMs = opts.writeTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.transcript = new Transcript({
      maxEntries: opts.transcriptMaxEntries,
      maxChars: opts.transcriptMaxChars,
      onLine: opts.onLine,
    });
    this.exited = new Promise<PeerExit>((resolve) => {
      child.once('exit', (exitCode, signal) => {
        this.exitInfo = { exitCode, signal };
        resolve(this.exitInfo);
      });
    });
    this.streamsClosed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    // Errors after spawn (e.g. a failed kill) must never crash the harness.
    child.on('error', () => {});
    const forward = opts.forwardStderr === true ? process.stderr : opts.forwardStderr || undefined;
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr.push(chunk);
      forward?.write(chunk);
    });
    child.stderr?.on('error', () => {});
    child.stdin?.on('error', (err) => {
      this.stdinError = err;
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      this.inboundBytes += chunk.length;
      this.onItems(this.splitter.pushItems(chunk));
    });
    child.stdout?.on('end', () => this.onStdoutEnd(null));
    child.stdout?.on('error', (err) => this.onStdoutEnd(err));
  }

  /**
   * Spawn `command args` with piped stdio in its own process group. Rejects with SpawnError when the
   * program cannot be started (ENOENT, EACCES, …).
   */
  static async spawn(command: string, args: readonly string[] = [], opts: StdioSpawnOptions = {}): Promise<StdioConnection> {
    const env = opts.env ?? minimalEnv(opts.extraEnv);
    let child: ChildProcess;
    try {
      child = spawnChild(command, [...args], { stdio: ['pipe', 'pipe', 'pipe'], detached: true, env, cwd: opts.cwd, windowsHide: true });
    } catch (err) {
      throw new SpawnError(command, err);
    }
    const conn = new StdioConnection(child, command, args, opts);
    await new Promise<void>((resolve, reject) => {
      const onError = (err: Error) => reject(new SpawnError(command, err));
      child.once('error', onError);
      child.once('spawn', () => {
        child.off('error', onError);
        resolve();
      });
    }).catch(async (err) => {
      await conn.close();
      throw err;
    });
    registerGroup(child.pid!);
    return conn;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Exit status once the child has exited, else null. */
  get exitStatus(): PeerExit | null {
    return this.exitInfo;
  }

  /** True once a read has timed out: later reads on this connection fail fast. */
  get stalled(): boolean {
    return this.stalledSince !== null;
  }

  /**
   * Why this connection can carry no more exchanges, or undefined while it can: a read timed out on it (later
   * reads fail fast), the process exited, its output ended, or its input broke (a write failed).
   */
  get lost(): string | undefined {
    if (this.stalledSince !== null) return 'a read on it timed out';
    if (this.exitInfo !== null) {
      const e = this.exitInfo;
      return `the process exited (${e.exitCode != null ? `exit code ${e.exitCode}` : `signal ${e.signal ?? 'unknown'}`})`;
    }
    if (this.stdoutEnded || this.terminal !== null) return `its output ended${this.terminal ? ` (${this.terminal.message})` : ''}`;
    if (this.stdinError !== null) return `its input broke (${this.stdinError.message})`;
    return undefined;
  }

  /** Inbound envelopes/errors received but not yet read (bounded: the child's stdout is paused past a high-water mark). */
  get queued(): number {
    return this.inbox.length;
  }

  /** True when the stream ended with a final line that had no newline (delivered, per the reference). */
  get sawUnterminatedFinalLine(): boolean {
    return this.unterminatedFinal;
  }

  /** Bytes read from the child's stdout so far, and how many of them are an unfinished line (no newline yet). */
  get received(): { bytes: number; pendingLineBytes: number } {
    return { bytes: this.inboundBytes, pendingLineBytes: this.splitter.pendingBytes };
  }

  /** "98 bytes received on this connection, the last 98 with no newline" — for timeout messages. */
  describeReceived(): string {
    const { bytes, pendingLineBytes } = this.received;
    if (bytes === 0) return 'no byte received on this connection';
    return `${bytes} byte${bytes === 1 ? '' : 's'} received on this connection${pendingLineBytes > 0 ? `, the last ${pendingLineBytes} with no newline` : ', every line complete'}`;
  }

  /** The last bytes (≤ 64 KiB by default) the child wrote to stderr, lossily decoded. */
  stderrTail(): string {
    return this.stderr.text();
  }

  /** Write one envelope as one line. A closed pipe rejects with PeerClosedError; a full pipe with TimeoutError('write'). */
  send(envelope: unknown, timeoutMs = this.writeTimeoutMs): Promise<void> {
    let line: string;
    try {
      line = encodeLine(envelope);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.sendLine(line, timeoutMs);
  }

  private sendLine(line: string, timeoutMs: number): Promise<void> {
    return this.write(line, timeoutMs, 'write', () => this.transcript.record({ direction: 'out', line: line.slice(0, -1) }));
  }

  /** Write bytes exactly as given (no newline added, no checks): for deliberately malformed probes. */
  sendRaw(bytes: string | Uint8Array, timeoutMs = this.writeTimeoutMs): Promise<void> {
    const text = typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8');
    return this.write(bytes, timeoutMs, 'write', () => this.transcript.record({ direction: 'out', line: text.replace(/\n$/, ''), raw: true }));
  }

  /**
   * The next envelope from the child's stdout. Rejects with TimeoutError (and marks the connection stalled),
   * PeerClosedError, LineTooLongError, InvalidUtf8Error, EofMidLineError or NotAnEnvelopeError. A framing
   * error consumes only the offending line: the following read gets the next line.
   */
  next(timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS, what: TimeoutWhat = 'read'): Promise<RawEnvelope> {
    return this.read(timeoutMs, what, false) as Promise<RawEnvelope>;
  }

  /**
   * Wait up to `windowMs` for an envelope; resolves undefined on silence. Silence here is expected (e.g. after
   * a notification), so it does NOT mark the connection stalled.
   */
  poll(windowMs: number): Promise<RawEnvelope | undefined> {
    return this.read(windowMs, 'read', true);
  }

  /**
   * Lock-step round trip: send, then read the next envelope; both within `timeoutMs`. Serialised per connection.
   * `skip` (optional) is asked about every inbound item before it is taken as the reply: a framing error of one
   * line, or an envelope that answers something else (a stale reply), can be passed over — the item stays in
   * the transcript for the framing checks, and the read goes on within the same deadline.
   */
  request(envelope: unknown, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS, what: TimeoutWhat = 'request', skip?: (item: RawEnvelope | TransportError) => boolean): Promise<RawEnvelope> {
    return this.locked(async () => {
      this.assertUsable(what, timeoutMs);
      const deadline = Date.now() + timeoutMs;
      await this.send(envelope, timeoutMs);
      // The read gets what is left of the budget; a timeout still reports the caller's bound.
      const outstanding = describeOutstanding(envelope);
      const startedAt = deadline - timeoutMs;
      for (;;) {
        let item: RawEnvelope | TransportError;
        try {
          item = (await this.read(Math.max(1, deadline - Date.now()), what, false, timeoutMs, () => `outstanding: ${outstanding}, sent ${Date.now() - startedAt} ms ago`)) as RawEnvelope;
        } catch (err) {
          if (skip && err instanceof TransportError && isLineFramingError(err) && skip(err)) continue;
          throw err;
        }
        if (skip && skip(item)) continue;
        return item;
      }
    });
  }

  /** Send `{"type":"handshake","protocol_version":version}` and return the first envelope that comes back. */
  handshake(version = 'contextgraph/1.0', timeoutMs = DEFAULT_HANDSHAKE_TIMEOUT_MS): Promise<RawEnvelope> {
    return this.request({ type: 'handshake', protocol_version: version }, timeoutMs, 'handshake');
  }

  /**
   * Correlated round trip (pipelining): `envelope.id` must be a string unique among pending requests. The
   * reply carrying the same id resolves this call, whatever order replies come in. A reply whose id matches
   * nothing (or that has no id) while only correlated requests are pending fails them all with a
   * CorrelationError (H4); late replies for failed ids are dropped.
   */
  requestWithId(envelope: { id: string; [k: string]: unknown }, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS): Promise<RawEnvelope> {
    const id = envelope.id;
    if (typeof id !== 'string') return Promise.reject(new TypeError('requestWithId: envelope.id must be a string'));
    if (this.correlated.has(id)) return Promise.reject(new TypeError(`requestWithId: id ${JSON.stringify(id)} is already pending`));
    let line: string;
    try {
      this.assertUsable('request', timeoutMs);
      line = encodeLine(envelope); // a non-serialisable envelope fails here, before a waiter is registered
    } catch (err) {
      return Promise.reject(err);
    }
    if (this.terminal) return Promise.reject(this.terminal);
    const startedAt = Date.now();
    const reply = new Promise<RawEnvelope>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.correlated.get(id)?.timer !== timer) return;
        this.correlated.delete(id);
        this.abandon(id);
        this.markStalled(startedAt);
        reject(
          new TimeoutError('request', timeoutMs, {
            detail: `outstanding: ${describeOutstanding(envelope)}, sent ${Date.now() - startedAt} ms ago; no reply with id ${JSON.stringify(id)}; ${this.describeReceived()}`,
          }),
        );
      }, timeoutMs);
      this.correlated.set(id, { resolve, reject, timer });
    });
    // Registered before writing, so even an instant reply finds its waiter.
    this.sendLine(line, timeoutMs).catch((err) => {
      const w = this.correlated.get(id);
      if (!w) return;
      clearTimeout(w.timer);
      this.correlated.delete(id);
      w.reject(err);
    });
    return reply;
  }

  /**
   * Send `shutdown`, wait up to `graceMs` for the child to exit. Past the grace period the whole process group
   * is SIGKILLed (killed: true). Either way the group is killed afterwards so no grandchild outlives the call.
   */
  async shutdown(graceMs = DEFAULT_SHUTDOWN_GRACE_MS): Promise<ShutdownResult> {
    const t0 = Date.now();
    if (this.exitInfo === null && !this.closed) {
      await this.send({ type: 'shutdown' }, graceMs).catch(() => {}); // errors ignored: it may already be gone
    }
    return this.awaitExitOrKill(t0, graceMs);
  }

  /**
   * The end of a session as evidence (silence proven without a window). Send `shutdown`, end
   * stdin, and collect every item the child still writes until its stdout ends; past `graceMs`, kill its
   * process group and collect what it had written before. Nothing here depends on how fast the child is:
   * whatever it wrote in answer to earlier input is in hand afterwards, in order (envelopes, and each line
   * that could not be framed as its error). At most `maxItems` are kept; `dropped` counts the rest. The
   * connection is closed afterwards. A well-behaved child that exits on shutdown (or at end of input) costs
   * only its own exit.
   */
  async drainToEnd(graceMs = DEFAULT_SHUTDOWN_GRACE_MS, maxItems = 1_000): Promise<{ items: Array<RawEnvelope | TransportError>; dropped: number; result: ShutdownResult }> {
    const t0 = Date.now();
    if (this.exitInfo === null && !this.closed && this.terminal === null) {
      await this.send({ type: 'shutdown' }, graceMs).catch(() => {}); // it may already be gone
    }
    const stdin = this.child.stdin;
    if (stdin && !stdin.destroyed && !stdin.writableEnded) stdin.end();
    const items: Array<RawEnvelope | TransportError> = [];
    let dropped = 0;
    const collect = async (deadline: number): Promise<boolean> => {
      for (;;) {
        const left = deadline - Date.now();
        if (left <= 0) return false;
        try {
          const env = await this.read(left, 'shutdown', true, left, undefined, true);
          if (env === undefined) return false; // the deadline passed with the stream still open
          if (items.length < maxItems) items.push(env);
          else dropped++;
        } catch (err) {
          if (err instanceof TransportError && isLineFramingError(err)) {
            if (items.length < maxItems) items.push(err);
            else dropped++;
            continue;
          }
          return true; // end of stream (or the connection closed)
        }
      }
    };
    let killed = false;
    if (!(await collect(t0 + graceMs))) {
      killed = true;
      this.killAll();
      await collect(Date.now() + KILL_WAIT_MS);
    }
    const exit = await this.waitExit(KILL_WAIT_MS);
    await this.close();
    return {
      items,
      dropped,
      result: {
        exitCode: exit?.exitCode ?? null,
        signal: exit?.signal ?? null,
        clean: !killed && exit !== null && exit.exitCode === 0 && exit.signal === null,
        killed,
        elapsedMs: Date.now() - t0,
      },
    };
  }

  /**
   * End the child's stdin (EOF, no envelope) and give it `graceMs` to exit; kill it after that. How a
   * peer whose protocol ends at end of input is let go (the host control protocol).
   */
  async endInput(graceMs = DEFAULT_SHUTDOWN_GRACE_MS): Promise<ShutdownResult> {
    const t0 = Date.now();
    const stdin = this.child.stdin;
    if (stdin && !stdin.destroyed && !stdin.writableEnded) stdin.end();
    return this.awaitExitOrKill(t0, graceMs);
  }

  private async awaitExitOrKill(t0: number, graceMs: number): Promise<ShutdownResult> {
    let exit = await this.waitExit(Math.max(0, graceMs - (Date.now() - t0)));
    let killed = false;
    if (!exit) {
      killed = true;
      this.killAll();
      exit = await this.waitExit(KILL_WAIT_MS);
      if (!exit) {
        throw new TimeoutError('shutdown', graceMs + KILL_WAIT_MS, { detail: `pid ${this.pid} did not exit even after SIGKILL` });
      }
    }
    await this.close();
    return {
      exitCode: exit.exitCode,
      signal: exit.signal,
      clean: !killed && exit.exitCode === 0 && exit.signal === null,
      killed,
      elapsedMs: Date.now() - t0,
    };
  }

  /** Kill the process group and fail anything pending. Idempotent; resolves once the child has exited (bounded). */
  async close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.killAll();
      this.failAll(new ConnectionClosedError('read'));
    }
    await this.waitExit(KILL_WAIT_MS);
    this.child.stdin?.destroy();
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
    unregisterGroup(this.pid);
  }

  // ── internals ────────────────────────────────────────────────────────────────────────────────────────

  private killAll(): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    killGroup(pid);
    // Belt and braces for a child that left our group; only while it is known to be alive (no pid reuse).
    if (this.exitInfo === null) {
      try {
        this.child.kill('SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }

  private waitExit(ms: number): Promise<PeerExit | null> {
    if (this.exitInfo) return Promise.resolve(this.exitInfo);
    if (this.child.pid === undefined) return Promise.resolve({ exitCode: null, signal: null });
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), ms);
      void this.exited.then((e) => {
        clearTimeout(timer);
        resolve(e);
      });
    });
  }

  private async locked<T>(fn: () => Promise<T>): Promise<T> {
    const prev = this.lock;
    let release!: () => void;
    this.lock = new Promise<void>((r) => (release = r));
    await prev;
    try {
      return await fn();
    } finally {
      release();
    }
  }

  private assertUsable(what: TimeoutWhat, ms: number): void {
    if (this.closed) throw new ConnectionClosedError(what);
    if (this.stalledSince !== null) {
      throw new TimeoutError(what, ms, { failFast: true, unresponsiveForMs: Date.now() - this.stalledSince });
    }
  }

  private markStalled(since: number): void {
    if (this.stalledSince === null) this.stalledSince = since;
  }

  private abandon(id: string): void {
    this.abandoned.add(id);
    if (this.abandoned.size > 10_000) this.abandoned.delete(this.abandoned.values().next().value!);
  }

  /**
   * A write that failed because the child is gone: give its exit status and last stderr a moment to
   * arrive (as at EOF) so the error names them — a provider that exits at once must not be reported as
   * "exit status not yet known" just because the suite wrote to it early.
   */
  private async peerClosedOnceKnown(during: string, cause?: unknown): Promise<PeerClosedError> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.streamsClosed, new Promise<void>((resolve) => (timer = setTimeout(resolve, EXIT_AFTER_EOF_MS)))]);
    clearTimeout(timer);
    return this.peerClosed(during, cause);
  }

  private peerClosed(during: string, cause?: unknown): PeerClosedError {
    return new PeerClosedError(during, this.exitInfo ?? {}, this.stderrTail(), cause === undefined ? undefined : { cause });
  }

  private write(data: string | Uint8Array, timeoutMs: number, what: TimeoutWhat, record: () => void): Promise<void> {
    if (this.closed) return Promise.reject(new ConnectionClosedError(what));
    const stdin = this.child.stdin;
    if (!stdin || stdin.destroyed || stdin.writableEnded || this.stdinError) {
      return this.peerClosedOnceKnown('its stdin (write failed: EPIPE)', this.stdinError ?? undefined).then((e) => Promise.reject(e));
    }
    record();
    const startedAt = Date.now();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.markStalled(startedAt);
        reject(new TimeoutError(what, timeoutMs, { detail: 'the peer is not reading its stdin' }));
      }, timeoutMs);
      stdin.write(data, (err) => {
        clearTimeout(timer);
        if (err) void this.peerClosedOnceKnown(`its stdin (write failed: ${(err as NodeJS.ErrnoException).code ?? err.message})`, err).then(reject);
        else resolve();
      });
    });
  }

  private read(timeoutMs: number, what: TimeoutWhat, silenceOk: boolean, reportMs = timeoutMs, context?: () => string, evenIfStalled = false): Promise<RawEnvelope | undefined> {
    try {
      if (this.closed || !evenIfStalled) this.assertUsable(what, reportMs);
    } catch (err) {
      return Promise.reject(err);
    }
    const item = this.inbox.shift();
    if (item) {
      this.maybeResume();
      return item.ok ? Promise.resolve(item.envelope) : Promise.reject(item.error);
    }
    if (this.terminal) return Promise.reject(this.terminal);
    const startedAt = Date.now();
    return new Promise((resolve, reject) => {
      const reader: Reader = {
        resolve,
        reject,
        timer: setTimeout(() => {
          const i = this.readers.indexOf(reader);
          if (i >= 0) this.readers.splice(i, 1);
          if (silenceOk) return resolve(undefined);
          this.markStalled(startedAt);
          const waited = Date.now() - startedAt;
          reject(
            new TimeoutError(what, reportMs, {
              detail: `${context ? `${context()}; ` : `waited ${waited} ms; `}no complete line from ${this.program} (pid ${this.pid}); ${this.describeReceived()}`,
            }),
          );
        }, timeoutMs),
      };
      this.readers.push(reader);
    });
  }

  private onItems(items: LineItem[]): void {
    for (const it of items) {
      if (it.kind === 'error') {
        const e = it.error as TransportError & { lossyText?: string };
        this.transcript.record({ direction: 'in', line: e.lossyText ?? '', error: e.code });
        this.dispatch({ ok: false, error: it.error });
        continue;
      }
      if (!it.terminated) this.unterminatedFinal = true;
      this.transcript.record({ direction: 'in', line: it.text, ...(it.terminated ? {} : { unterminated: true as const }) });
      const parsed = parseEnvelopeLine(it.text);
      if (parsed instanceof TransportError) {
        // A truncated last line is reported as what it is: the peer died mid-line.
        const error = it.terminated ? parsed : new EofMidLineError(Buffer.byteLength(it.text), clip(it.text, 200));
        this.dispatch({ ok: false, error });
      } else {
        this.dispatch({ ok: true, envelope: parsed });
      }
    }
  }

  private dispatch(item: Inbound): void {
    if (item.ok) {
      const id = item.envelope.id;
      if (typeof id === 'string') {
        const w = this.correlated.get(id);
        if (w) {
          clearTimeout(w.timer);
          this.correlated.delete(id);
          w.resolve(item.envelope);
          return;
        }
        if (this.abandoned.delete(id)) return; // late reply to a request that already failed
      }
    }
    const reader = this.readers.shift();
    if (reader) {
      clearTimeout(reader.timer);
      if (item.ok) reader.resolve(item.envelope);
      else reader.reject(item.error);
      return;
    }
    // A line that is not an envelope answers no request: it stays queued for the framing checks instead of
    // failing every correlated request in flight (resynchronise by id).
    if (this.correlated.size > 0 && !(!item.ok && isLineFramingError(item.error))) {
      const err = item.ok ? new CorrelationError(item.envelope.id, [...this.correlated.keys()], item.envelope) : item.error;
      this.failCorrelated(err);
      return;
    }
    this.inbox.push(item);
    if (this.inbox.length >= INBOX_HIGH && !this.paused) {
      this.paused = true;
      this.child.stdout?.pause(); // back-pressure onto a flooding child
    }
  }

  private maybeResume(): void {
    if (this.paused && this.inbox.length <= INBOX_LOW) {
      this.paused = false;
      this.child.stdout?.resume();
    }
  }

  private failCorrelated(err: unknown): void {
    for (const [id, w] of this.correlated) {
      clearTimeout(w.timer);
      this.abandon(id);
      w.reject(err);
    }
    this.correlated.clear();
  }

  private failAll(err: TransportError): void {
    this.terminal ??= err;
    for (const r of this.readers.splice(0)) {
      clearTimeout(r.timer);
      r.reject(err);
    }
    this.failCorrelated(err);
  }

  private onStdoutEnd(err: Error | null): void {
    if (this.stdoutEnded) return;
    this.stdoutEnded = true;
    this.onItems(this.splitter.endItems());
    // Give the exit status (and the last stderr) a moment to arrive so the error can name them.
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, EXIT_AFTER_EOF_MS)));
    void Promise.race([this.streamsClosed, grace]).then(() => {
      clearTimeout(timer);
      if (this.closed) return;
      this.failAll(this.peerClosed(err ? `its stdout (read error: ${err.message})` : 'its stdout (EOF)', err ?? undefined));
    });
  }
}
