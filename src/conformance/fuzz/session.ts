/**
 * One fuzzing session against a provider: a stdio child (StdioConnection) or an HTTP endpoint
 * (HttpConnection) from src/transport — the wire is read there, never here. A session sends a group of
 * hostile lines, then the liveness probe (a valid query with a fresh id), and judges what came back:
 *
 *   crash         the provider process died / the connection was refused or reset   R1
 *   hang          no answer to the probe (or, over HTTP, to a hostile body) in time   R1
 *   non-envelope  a line or body that is not one JSON envelope                        S2-wire-shape
 *   wrong-id      a reply carrying an id no request of this session carried           H4
 *   missing-id    the probe answered without its id (correlation declared)           H4
 *   wrong-reply   the probe's id on an envelope that does not answer a query          S2-wire-shape
 *
 * Replies to the hostile lines themselves are not required (R1's bad_request is a SHOULD, checked by the
 * suite); they only have to be envelopes with ids the session sent.
 */
import {
  CorrelationError,
  EofMidLineError,
  HttpConnection,
  HttpStatusError,
  InvalidUtf8Error,
  LineTooLongError,
  NetworkError,
  NotAnEnvelopeError,
  PeerClosedError,
  SpawnError,
  StdioConnection,
  TimeoutError,
  clip,
  type RawEnvelope,
} from '../../transport/index.js';

export type FindingKind = 'crash' | 'hang' | 'non-envelope' | 'wrong-id' | 'missing-id' | 'wrong-reply';

export interface Finding {
  kind: FindingKind;
  /** The anchor or rule id the behaviour violates. */
  anchor: 'R1' | 'H4' | 'S2-wire-shape';
  /** Starts with the anchor (docs/architecture.md "Failure messages"). */
  message: string;
}

export type FuzzTarget = { kind: 'stdio'; command: string; args: readonly string[] } | { kind: 'http'; url: string };

export interface SessionOptions {
  /** Bound on the probe's answer (and on each hostile HTTP exchange). */
  timeoutMs: number;
  handshakeTimeoutMs: number;
  /** Cap on one inbound line / body (default: the transport's 16 MiB). */
  maxLineBytes?: number;
}

/** The target could not even be brought to a handshake_ack: no fuzzing is possible (exit 3, or 1 for a wrong answer). */
export class HandshakeFailed extends Error {
  constructor(
    message: string,
    readonly neverAnswered: boolean,
  ) {
    super(message);
  }
}

const HANDSHAKE = Buffer.from('{"type":"handshake","protocol_version":"contextgraph/1.0"}');
export const DEFAULT_HANDSHAKE_LINE = HANDSHAKE;

/** The liveness probe: a valid query (R1: "still answer the next valid query", docs/interpretations.md §8). */
export function probeLine(id: string): Buffer {
  return Buffer.from(JSON.stringify({ type: 'query', id, query: { goal: 'fuzz liveness probe', max_frames: 1, max_tokens: 4096 } }));
}

/** What the session remembers of the requests it sent, to tell a foreign id from a recovered one. */
class SentIds {
  private ids = new Set<string>();
  private texts: string[] = [];
  /** Id-less queries sent in this exchange and the previous one: a frames reply without id may answer them. */
  private idless = [0, 0];

  get idlessQuery(): boolean {
    return this.idless[0]! + this.idless[1]! > 0;
  }

  /** A new exchange begins (the previous one's late replies are still tolerated). */
  nextExchange(): void {
    this.idless = [this.idless[1]!, 0];
  }

  note(line: Buffer): void {
    // Only the head is kept (decoded from a copy of the bytes, so no 16 MiB parent string stays reachable).
    this.texts.push(Buffer.from(line.subarray(0, 4096)).toString('utf8'));
    if (this.texts.length > 512) this.texts.splice(0, this.texts.length - 512);
    if (line.length > 4 * 1024 * 1024) return; // its id, if any, is in the head kept above
    let v: unknown;
    try {
      v = JSON.parse(line.toString('utf8').replace(/^\ufeff/, ''));
    } catch {
      return;
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return;
    const o = v as Record<string, unknown>;
    // Only scalar ids are keyed (a deeply nested id would overflow JSON.stringify); others match by text.
    if (typeof o.id === 'string' || typeof o.id === 'number' || typeof o.id === 'boolean' || o.id === null) this.add(JSON.stringify(o.id));
    // RequestId is a non-empty string: a query with any other id may be answered without one.
    if (o.type === 'query' && (typeof o.id !== 'string' || o.id === '')) this.idless[1]!++;
  }

  add(key: string | undefined): void {
    if (key === undefined) return;
    if (this.ids.size > 100_000) this.ids.clear();
    this.ids.add(key);
  }

  /** A reply id that some request of this session carried, verbatim or recoverable from its text. */
  knows(id: unknown): boolean {
    let key: string | undefined;
    try {
      key = JSON.stringify(id);
    } catch {
      return true; // an id too deep to print is no evidence of a foreign id
    }
    if (key === undefined || this.ids.has(key)) return true;
    const needle = typeof id === 'string' ? id : key;
    return needle !== '' && this.texts.some((t) => t.includes(needle));
  }
}

function describeEnvelope(env: RawEnvelope): string {
  try {
    return clip(JSON.stringify(env) ?? String(env), 300);
  } catch {
    return `<a "${String(env.type)}" envelope too deep to print>`;
  }
}

/** Map a transport error while waiting for replies to a finding. */
function findingOf(err: unknown, waitingFor: string, timeoutMs: number): Finding | undefined {
  if (err instanceof TimeoutError) {
    return { kind: 'hang', anchor: 'R1', message: `R1 violated: ${waitingFor} was not answered within ${timeoutMs} ms (${err.message})` };
  }
  if (err instanceof PeerClosedError || err instanceof EofMidLineError) {
    return { kind: 'crash', anchor: 'R1', message: `R1 violated: the provider crashed on malformed input — ${err.message}` };
  }
  if (err instanceof NetworkError) {
    return { kind: 'crash', anchor: 'R1', message: `R1 violated: the provider stopped serving after malformed input — ${err.message}` };
  }
  if (err instanceof NotAnEnvelopeError || err instanceof InvalidUtf8Error || err instanceof LineTooLongError) {
    return { kind: 'non-envelope', anchor: 'S2-wire-shape', message: `S2-wire-shape violated: the provider wrote something that is not one envelope per line — ${err.message}` };
  }
  return undefined;
}

export interface FuzzSession {
  /** The provider declared capabilities.correlation (ids are then required on the probe's answer). */
  readonly correlation: boolean;
  /** Send the hostile groups (lines of a group may be pipelined), then the probe; null = the probe was answered. */
  exchange(groups: readonly (readonly Buffer[])[], probe: Buffer, probeId: string): Promise<Finding | null>;
  close(): Promise<void>;
}

/** Open a session: spawn or connect, handshake. Throws HandshakeFailed when no handshake_ack comes back. */
export async function openFuzzSession(target: FuzzTarget, opts: SessionOptions, handshake: Buffer = HANDSHAKE): Promise<FuzzSession> {
  return target.kind === 'stdio' ? StdioSession.open(target, opts, handshake) : HttpSession.open(target, opts, handshake);
}

function checkAck(reply: RawEnvelope | null, where: string): boolean {
  if (reply === null || reply.type !== 'handshake_ack') {
    const seen = reply === null ? 'no envelope (204)' : describeEnvelope(reply);
    throw new HandshakeFailed(`${where}: the handshake was answered with ${seen}, not a handshake_ack — run the conformance suite to see why`, false);
  }
  const caps = reply.capabilities as { correlation?: unknown } | undefined;
  return caps?.correlation === true;
}

class StdioSession implements FuzzSession {
  private readonly sent = new SentIds();
  private constructor(
    private readonly conn: StdioConnection,
    readonly correlation: boolean,
    private readonly opts: SessionOptions,
  ) {}

  static async open(target: Extract<FuzzTarget, { kind: 'stdio' }>, opts: SessionOptions, handshake: Buffer): Promise<StdioSession> {
    let conn: StdioConnection;
    try {
      conn = await StdioConnection.spawn(target.command, target.args, {
        transcriptMaxEntries: 0,
        writeTimeoutMs: opts.timeoutMs,
        ...(opts.maxLineBytes !== undefined ? { maxLineBytes: opts.maxLineBytes } : {}),
      });
    } catch (err) {
      if (err instanceof SpawnError) throw new HandshakeFailed(err.message, true);
      throw err;
    }
    try {
      await conn.sendRaw(Buffer.concat([handshake, Buffer.from('\n')]), opts.handshakeTimeoutMs);
      const ack = await conn.next(opts.handshakeTimeoutMs, 'handshake');
      return new StdioSession(conn, checkAck(ack, `${target.command}`), opts);
    } catch (err) {
      await conn.close();
      if (err instanceof HandshakeFailed) throw err;
      const neverAnswered = err instanceof TimeoutError || err instanceof PeerClosedError;
      throw new HandshakeFailed(`the provider did not answer the handshake: ${err instanceof Error ? err.message : String(err)}`, neverAnswered);
    }
  }

  async exchange(groups: readonly (readonly Buffer[])[], probe: Buffer, probeId: string): Promise<Finding | null> {
    const { timeoutMs } = this.opts;
    const nl = Buffer.from('\n');
    this.sent.nextExchange();
    try {
      for (const group of groups) {
        for (const line of group) {
          this.sent.note(line);
          // A big line is written as is, then its newline (no second 16 MiB copy).
          if (line.length > 65_536) {
            await this.conn.sendRaw(line, timeoutMs);
            await this.conn.sendRaw(nl, timeoutMs);
          } else await this.conn.sendRaw(Buffer.concat([line, nl]), timeoutMs);
        }
      }
      this.sent.add(JSON.stringify(probeId));
      await this.conn.sendRaw(Buffer.concat([probe, nl]), timeoutMs);
    } catch (err) {
      const f = findingOf(err, 'writing the input (the provider stopped reading its stdin)', timeoutMs);
      if (f) return f;
      throw err;
    }
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      let env: RawEnvelope;
      try {
        env = await this.conn.next(Math.max(1, deadline - Date.now()), 'request');
      } catch (err) {
        const f = findingOf(err, `the valid query ${JSON.stringify(probeId)} sent after the malformed input`, timeoutMs);
        if (f) return f;
        if (err instanceof CorrelationError) return { kind: 'wrong-id', anchor: 'H4', message: err.message };
        throw err;
      }
      const verdict = judgeReply(env, probeId, this.correlation, this.sent);
      if (verdict === 'answered') return null;
      if (verdict !== 'other') return verdict;
    }
  }

  async close(): Promise<void> {
    // No shutdown: a fuzz session ends by killing the group (R2 is the suite's business, not the fuzzer's).
    await this.conn.close();
  }
}

/** One reply while waiting for the probe: the probe's answer, a finding, or something else to skip. */
function judgeReply(env: RawEnvelope, probeId: string, correlation: boolean, sent: SentIds): 'answered' | 'other' | Finding {
  const id = env.id;
  if (id === probeId) {
    if (env.type === 'frames' || env.type === 'error') return 'answered';
    return {
      kind: 'wrong-reply',
      anchor: 'S2-wire-shape',
      message: `S2-wire-shape violated: the query ${JSON.stringify(probeId)} was answered by a "${env.type}" envelope (a query is answered by frames or error): ${describeEnvelope(env)}`,
    };
  }
  if (!correlation) {
    // Without declared correlation there is no id to match (S3.2): the first frames/error after the probe counts.
    return env.type === 'frames' || env.type === 'error' ? 'answered' : 'other';
  }
  if (id !== undefined && id !== null && (env.type === 'frames' || env.type === 'error' || env.type === 'verified') && !sent.knows(id)) {
    return { kind: 'wrong-id', anchor: 'H4', message: `H4 violated: a "${env.type}" reply carries id ${JSON.stringify(id)}, which no request of this session carried: ${describeEnvelope(env)}` };
  }
  if ((id === undefined || id === null) && env.type === 'frames' && !sent.idlessQuery) {
    return {
      kind: 'missing-id',
      anchor: 'H4',
      message: `H4 violated: a frames reply carries no id although every query sent carried one (the probe was ${JSON.stringify(probeId)}): ${describeEnvelope(env)}`,
    };
  }
  return 'other';
}

class HttpSession implements FuzzSession {
  private readonly sent = new SentIds();
  private constructor(
    private readonly conn: HttpConnection,
    readonly correlation: boolean,
    private readonly opts: SessionOptions,
  ) {}

  static async open(target: Extract<FuzzTarget, { kind: 'http' }>, opts: SessionOptions, handshake: Buffer): Promise<HttpSession> {
    const conn = new HttpConnection(target.url, {
      timeoutMs: opts.timeoutMs,
      failFastAfterTimeout: false,
      ...(opts.maxLineBytes !== undefined ? { maxBodyBytes: opts.maxLineBytes } : {}),
    });
    try {
      const ack = await conn.requestRaw(handshake, opts.handshakeTimeoutMs);
      return new HttpSession(conn, checkAck(ack, conn.displayUrl), opts);
    } catch (err) {
      conn.close();
      if (err instanceof HandshakeFailed) throw err;
      const neverAnswered = err instanceof TimeoutError || err instanceof NetworkError;
      throw new HandshakeFailed(`the provider did not answer the handshake: ${err instanceof Error ? err.message : String(err)}`, neverAnswered);
    }
  }

  /** One hostile POST: any HTTP status is allowed; a hang, a reset or a non-envelope 2xx body is a finding. */
  private async hostile(line: Buffer): Promise<Finding | null> {
    this.sent.note(line);
    try {
      const reply = await this.conn.requestRaw(line, this.opts.timeoutMs);
      if (reply === null) return null;
      const v = judgeReply(reply, '\u0000never-the-probe', this.correlation, this.sent);
      return typeof v === 'object' ? v : null;
    } catch (err) {
      if (err instanceof HttpStatusError) return null;
      const f = findingOf(err, `the hostile body ${JSON.stringify(clip(line.toString('utf8'), 80))}`, this.opts.timeoutMs);
      if (f) return f;
      throw err;
    }
  }

  async exchange(groups: readonly (readonly Buffer[])[], probe: Buffer, probeId: string): Promise<Finding | null> {
    this.sent.nextExchange();
    for (const group of groups) {
      // A group of several lines (a pipelined burst) is POSTed concurrently.
      const results = await Promise.all(group.map((line) => this.hostile(line)));
      const f = results.find((r) => r !== null);
      if (f) return f;
    }
    this.sent.add(JSON.stringify(probeId));
    let reply: RawEnvelope | null;
    try {
      reply = await this.conn.requestRaw(probe, this.opts.timeoutMs);
    } catch (err) {
      if (err instanceof HttpStatusError) {
        return { kind: 'crash', anchor: 'R1', message: `R1 violated: the valid query ${JSON.stringify(probeId)} sent after malformed input was refused: ${err.message}` };
      }
      const f = findingOf(err, `the valid query ${JSON.stringify(probeId)} sent after the malformed input`, this.opts.timeoutMs);
      if (f) return f;
      throw err;
    }
    if (reply === null) {
      return { kind: 'hang', anchor: 'R1', message: `R1 violated: the valid query ${JSON.stringify(probeId)} was answered 204 No Content (no frames, no error)` };
    }
    if (reply.id !== probeId && this.correlation) {
      return reply.id === undefined
        ? { kind: 'missing-id', anchor: 'H4', message: `H4 violated: the answer to ${JSON.stringify(probeId)} carries no id: ${describeEnvelope(reply)}` }
        : { kind: 'wrong-id', anchor: 'H4', message: `H4 violated: the answer to ${JSON.stringify(probeId)} carries id ${JSON.stringify(reply.id)}: ${describeEnvelope(reply)}` };
    }
    if (reply.type !== 'frames' && reply.type !== 'error') {
      return {
        kind: 'wrong-reply',
        anchor: 'S2-wire-shape',
        message: `S2-wire-shape violated: the query ${JSON.stringify(probeId)} was answered by a "${reply.type}" envelope: ${describeEnvelope(reply)}`,
      };
    }
    return null;
  }

  async close(): Promise<void> {
    this.conn.close();
  }
}
