/**
 * The inspector's one connection to the provider under look (docs/inspector.md): open it (spawn or HTTP
 * client), handshake, keep every line in both directions with its time, and run each exchange the page asks
 * for through the same rules the suite uses — the handshake through judgeInFamily (H1, C5, …), every reply
 * through checkReply (schema, src/protocol, B1/B3/B4/P5/H4 …), every frames answer through the attestation
 * verifier (F7/F11–F13, with a verdict per frame: F8/F9), every inbound line through checkLines (framing).
 * Every read is bounded by the timeout; a provider that dies, stalls or prints garbage is reported as such.
 */
import type { AttesterKeyInput, CommittedFrame } from '../../../attest/types.js';
import { verifyFrameAttestations, type FrameVerdict } from '../../../attest/verify.js';
import type { Finding } from '../../../protocol/findings.js';
import { isJsonObject, type JsonObject } from '../../../protocol/json-value.js';
import { PROTOCOL_VERSION } from '../../../protocol/version.js';
import type { RawEnvelope } from '../../../transport/ndjson.js';
import { checkLines, checkReply, type ReplyContext } from '../../provider-suite/checks.js';
import { resolveSuiteConfig, type SuiteTimeouts } from '../../provider-suite/config.js';
import { describeError } from '../../provider-suite/errors.js';
import { ackOf, judgeInFamily, neverAnswered, performHandshake, type HandshakeOutcome } from '../../provider-suite/handshake.js';
import { verifyAnswer } from '../../provider-suite/probes/attestation.js';
import { openSession, type AnySession, type InboundLine, type TappedLine } from '../../provider-suite/session.js';

export type InspectTarget = { kind: 'stdio'; command: string; args: string[] } | { kind: 'http'; url: string };

export interface WireEntry {
  /** 1-based, over the inspector's whole life (reconnects included). */
  seq: number;
  direction: 'in' | 'out';
  line: string;
  /** ISO time it crossed. */
  at: string;
  /** Transport framing error of an inbound line (invalid_utf8, line_too_long, …). */
  error?: string;
  /** Which connection (1 = the first). */
  connection: number;
}

export type LinkState = 'ready' | 'no-ack' | 'unreachable' | 'exited' | 'stalled' | 'closed';

export interface PeerState {
  state: LinkState;
  /** One line: why it is not ready. */
  problem?: string;
  exit?: { exitCode: number | null; signal: string | null };
  stderrTail?: string;
  pid?: number;
}

export interface FrameRow {
  index: number;
  frame: JsonObject;
  /** F8/F9: the verifier's verdict for this frame; anything but "attested" is treated as unattested. */
  attestation: FrameVerdict;
  attestationReasons: string[];
  findings: Finding[];
}

export interface Exchange {
  /** The connection it crossed (1 = the first) and its number on it. */
  connection: number;
  n: number;
  /** What was sent, as the line that crossed (raw input exactly as typed). */
  sent: string;
  sentEnvelope?: JsonObject;
  raw: boolean;
  reply?: RawEnvelope | null;
  /** The exchange failed on the wire: timeout, EOF, garbage. Names what was outstanding. */
  problem?: string;
  elapsedMs: number;
  findings: Finding[];
  /** The query a frames reply answers (budget bars). */
  query?: JsonObject;
  frames?: FrameRow[];
  /** Verify exchanges: each requested identity with its verdict (V2: none ⇒ unknown). */
  verdicts?: Array<{ frame: JsonObject; status: string; replacement_digest?: unknown; missing: boolean }>;
  /** Inbound lines that crossed during the exchange. */
  inbound: WireEntry[];
  peer: PeerState;
}

/** The envelope line the handshake sends (what `replay` needs as line 1). */
export const HANDSHAKE_LINE = JSON.stringify({ type: 'handshake', protocol_version: PROTOCOL_VERSION });

export class ProviderLink {
  ack?: JsonObject;
  handshake?: HandshakeOutcome;
  /** Findings on the handshake answer (H1, C5, H2, U3, E1, wire shape, …). */
  handshakeFindings: Finding[] = [];
  lastFrames?: Exchange;
  private requests = 0;
  private closed = false;
  private constructor(
    readonly target: InspectTarget,
    readonly label: string,
    readonly timeouts: SuiteTimeouts,
    readonly connection: number,
    private readonly session: AnySession | undefined,
    private readonly wire: WireEntry[],
    private readonly onWire: (e: WireEntry) => void,
    readonly openProblem?: string,
  ) {}

  /** Connect and handshake. Never throws for a target problem: the link reports it in peer(). */
  static async open(target: InspectTarget, opts: { timeoutMs?: number; connection: number; wire: WireEntry[]; nextSeq: () => number; onWire: (e: WireEntry) => void }): Promise<ProviderLink> {
    const config = resolveSuiteConfig({
      target,
      ...(opts.timeoutMs !== undefined ? { timeouts: { handshakeMs: opts.timeoutMs, requestMs: opts.timeoutMs } } : {}),
      env: { ...process.env, CGP_PROVIDER: '', CGP_PROVIDER_URL: '', CGP_MISBEHAVE: '' },
    });
    const tap = (t: TappedLine) => {
      const e: WireEntry = { seq: opts.nextSeq(), direction: t.direction, line: t.line, at: new Date(t.wall).toISOString(), connection: opts.connection };
      if (t.error !== undefined) e.error = t.error;
      opts.wire.push(e);
      opts.onWire(e);
    };
    let session: AnySession;
    try {
      session = await openSession(config);
    } catch (err) {
      return new ProviderLink(target, config.target.label, config.timeouts, opts.connection, undefined, opts.wire, opts.onWire, `could not start or reach the target: ${describeError(err)}`);
    }
    session.taps.on(tap);
    const link = new ProviderLink(target, config.target.label, config.timeouts, opts.connection, session, opts.wire, opts.onWire);
    const hs = await performHandshake(session, PROTOCOL_VERSION);
    link.handshake = hs;
    link.handshakeFindings = judgeInFamily(hs, config.target).findings;
    link.ack = ackOf(hs);
    return link;
  }

  get providerName(): string {
    const p = this.ack && isJsonObject(this.ack.provider) ? this.ack.provider : {};
    return typeof p.name === 'string' ? p.name : '';
  }

  get capabilities(): JsonObject {
    return this.ack && isJsonObject(this.ack.capabilities) ? this.ack.capabilities : {};
  }

  get pid(): number | undefined {
    return this.session?.kind === 'stdio' ? this.session.pid : undefined;
  }

  peer(): PeerState {
    const s = this.session;
    const out: PeerState = { state: 'ready' };
    if (s?.kind === 'stdio') {
      out.pid = s.pid;
      const tail = s.stderrTail();
      if (tail !== '') out.stderrTail = tail.length > 4000 ? `…${tail.slice(-4000)}` : tail;
      const exit = s.exitStatus;
      if (exit) out.exit = { exitCode: exit.exitCode, signal: exit.signal };
    }
    if (this.closed) out.state = 'closed';
    else if (!s) {
      out.state = 'unreachable';
      out.problem = this.openProblem ?? 'not connected';
    } else if (out.exit) {
      out.state = 'exited';
      out.problem = `the provider exited (${out.exit.signal !== null ? `signal ${out.exit.signal}` : `exit status ${out.exit.exitCode}`})`;
    } else if (s.stalled) {
      out.state = 'stalled';
      out.problem = 'a read timed out: the provider stalled (reconnect to go on)';
    } else if (!this.ack) {
      out.state = this.handshake && neverAnswered(this.handshake) ? 'unreachable' : 'no-ack';
      const r = this.handshake?.reply;
      out.problem = r ? `the handshake was answered with a "${String(r.type)}" envelope, not a handshake_ack` : `no handshake answer: ${describeError(this.handshake?.error)}`;
    }
    return out;
  }

  /** Inbound lines this session kept from `from` on, checked for framing (S2-wire-shape, S2.1-no-newline). */
  private framing(from: number): Finding[] {
    const lines: readonly InboundLine[] = this.session?.lines ?? [];
    if (this.session?.kind !== 'stdio') return [];
    return checkLines(lines.slice(from), 'stdio').findings;
  }

  /**
   * Send one envelope (an object: correlated with an id when the target declared correlation) or one raw
   * line exactly as typed, and judge what comes back. Bounded by the request timeout.
   */
  async exchange(input: { envelope: JsonObject } | { raw: string }): Promise<Exchange> {
    const n = ++this.requests;
    const t0 = Date.now();
    const wireFrom = this.wire.length;
    const linesFrom = this.session?.lines.length ?? 0;
    const ex: Exchange = { connection: this.connection, n, sent: '', raw: 'raw' in input, elapsedMs: 0, findings: [], inbound: [], peer: { state: 'ready' } };
    let envelope: JsonObject | undefined;
    if ('envelope' in input) {
      envelope = { ...input.envelope };
      if (this.capabilities.correlation === true && envelope.id === undefined && envelope.type !== 'shutdown') envelope.id = `inspect-${n}`;
      ex.sent = JSON.stringify(envelope);
    } else {
      ex.sent = input.raw;
      try {
        const v = JSON.parse(input.raw) as unknown;
        if (isJsonObject(v)) envelope = v;
      } catch {
        /* malformed on purpose: sent as typed */
      }
    }
    if (envelope) ex.sentEnvelope = envelope;
    const s = this.session;
    const timeout = this.timeouts.requestMs;
    try {
      if (!s) throw new Error(this.openProblem ?? 'not connected');
      if (s.kind === 'stdio') {
        if ('envelope' in input) ex.reply = await s.request(envelope!, timeout);
        else {
          await s.sendRaw(`${input.raw}\n`);
          ex.reply = await s.next(timeout);
        }
      } else if (s.kind === 'http') {
        ex.reply = 'envelope' in input ? await s.request(envelope!, timeout) : await s.conn.requestRaw(input.raw, timeout);
      } else {
        ex.reply = await s.request(envelope ?? {}, timeout);
      }
    } catch (err) {
      const what = envelope && typeof envelope.type === 'string' ? `the ${envelope.type}${typeof envelope.id === 'string' ? ` ${JSON.stringify(envelope.id)}` : ''}` : 'the raw line';
      ex.problem = `no answer to ${what} (timeout ${timeout} ms): ${describeError(err)}`;
    }
    ex.elapsedMs = Date.now() - t0;
    ex.inbound = this.wire.slice(wireFrom).filter((e) => e.direction === 'in');
    ex.findings.push(...this.framing(linesFrom));
    const reply = ex.reply;
    if (reply) {
      const query = envelope?.type === 'query' && isJsonObject(envelope.query) ? envelope.query : undefined;
      if (query) ex.query = query;
      const ctx: ReplyContext = { hostVersion: PROTOCOL_VERSION, providerName: this.providerName };
      if (query) ctx.query = query;
      if (typeof envelope?.id === 'string') ctx.requestId = envelope.id;
      const reps = this.capabilities.representations;
      if (Array.isArray(reps)) ctx.advertised = reps.filter((r): r is string => typeof r === 'string');
      if (query && Array.isArray(query.representation_preferences)) ctx.requested = query.representation_preferences.filter((r): r is string => typeof r === 'string');
      ex.findings.push(...checkReply(reply, ctx).findings);
      if (reply.type === 'frames' && isJsonObject(reply.result)) this.judgeFrames(ex, reply.result, query ?? {});
      if (reply.type === 'verified' && envelope?.type === 'verify') this.judgeVerdicts(ex, envelope, reply);
    }
    ex.peer = this.peer();
    return ex;
  }

  private judgeFrames(ex: Exchange, result: JsonObject, query: JsonObject): void {
    const frames = Array.isArray(result.frames) ? result.frames.filter(isJsonObject) : [];
    const keys = (this.ack && Array.isArray(this.ack.attester_keys) ? this.ack.attester_keys : []) as AttesterKeyInput[];
    // the suite's attestation judgement (F7, F11–F13) and the verdict per frame it rests on (F8: uncheckable
    // is never attested; F9: nothing is dropped). The verifier reads arbitrary peer JSON; should it fail, the
    // frames are still shown, each marked uncheckable with the reason.
    let verification: ReturnType<typeof verifyFrameAttestations> | undefined;
    let failure: string | undefined;
    try {
      ex.findings.push(...verifyAnswer({ purpose: `exchange ${ex.n}`, query, reply: ex.reply!, result, frames }, this.providerName, keys).findings);
      verification = verifyFrameAttestations(
        this.providerName,
        { frames: frames as unknown as CommittedFrame[], frame_attestations: result.frame_attestations, result_attestation: result.result_attestation },
        keys,
      );
    } catch (err) {
      failure = `harness error (not a target finding): the attestation verifier failed on this answer: ${describeError(err)}`;
    }
    ex.frames = frames.map((frame, index) => {
      const outcome = verification?.frames[index];
      const at = `/result/frames/${index}`;
      return {
        index,
        frame,
        attestation: outcome?.verdict ?? 'uncheckable',
        attestationReasons: outcome?.reasons ?? [failure ?? 'the verifier returned no outcome for this frame'],
        findings: ex.findings.filter((f) => f.pointer === at || f.pointer.startsWith(`${at}/`)),
      };
    });
    this.lastFrames = ex;
  }

  private judgeVerdicts(ex: Exchange, sent: JsonObject, reply: RawEnvelope): void {
    const asked = isJsonObject(sent.request) && Array.isArray(sent.request.frames) ? sent.request.frames.filter(isJsonObject) : [];
    const response = isJsonObject(reply.response) ? reply.response : {};
    const verdicts = Array.isArray(response.verdicts) ? response.verdicts.filter(isJsonObject) : [];
    const key = (f: unknown) => (isJsonObject(f) ? JSON.stringify([f.provider_id, f.frame_id, f.content_digest ?? null]) : '');
    ex.verdicts = asked.map((frame) => {
      const v = verdicts.find((x) => key(x.frame) === key(frame));
      // V2: a requested identity that comes back with no verdict is treated as unknown
      if (!v) return { frame, status: 'unknown', missing: true };
      return {
        frame,
        status: typeof v.status === 'string' ? v.status : JSON.stringify(v.status),
        ...(v.replacement_digest !== undefined ? { replacement_digest: v.replacement_digest } : {}),
        missing: false,
      };
    });
  }

  /** Identities of frames of the last frames answer, for a verify request. */
  identities(indices: readonly number[]): JsonObject[] {
    const rows = this.lastFrames?.frames ?? [];
    return indices
      .map((i) => rows[i])
      .filter((r): r is FrameRow => r !== undefined)
      .map((r) => ({ provider_id: this.providerName, frame_id: r.frame.id, ...(r.frame.content_digest !== undefined ? { content_digest: r.frame.content_digest } : {}) }));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const s = this.session;
    if (!s) return;
    if (s.kind === 'stdio' && !s.exitStatus && !s.stalled) await s.shutdown(500).catch(() => undefined);
    await s.close().catch(() => undefined);
  }
}
