// Connecting a provider (stdio or HTTP) and talking to it afterwards.
//
// connectStdio / connectHttp: spawn or reach the provider, handshake under a bound (10 s default), accept
// or refuse the ack (connection-handshake.ts: H1/H3, H2, C5, shape), compute the effective egress (C4) and
// return a ProviderConnection. Any refusal closes what was opened (the child's process group is killed).
//
// Identity: the FrameId provider_id of everything this provider serves is its handshake provider.name
// (docs/interpretations.md §2). The routing id is host-local bookkeeping: the user's alias when one was given,
// otherwise the name. The host refuses a second provider with the same name unless it is aliased
// (host.ts); aliased or not, FrameIds still carry the declared name, so two same-named providers produce
// identical provider_ids and the host keeps their frames apart by routing id (ReceivedFrame.providerRoutingId).
//
// ProviderConnection.query: shape the query for this provider (E1, P5, Q1 — connection-shape.ts), run the
// host's gate (consent, C1/C2/C6) BEFORE any payload is written, then one exchange: with a fresh id to a
// correlation-declaring provider (pipelined on stdio), with no id otherwise (lock-step, S3.2).
import type { LookupFunction } from 'node:net';
import type { ContextQuery, ContextQueryResult, ErrorEnvelope, FrameId, VerifiedEnvelope, VerifyRequest, VerifyResponse } from '../../generated/types/index.js';
import { decodeEnvelope } from '../protocol/decoder.js';
import { isNamespacedName } from '../protocol/namespaced-name.js';
import { PROTOCOL_VERSION } from '../protocol/version.js';
import type { Credential } from '../transport/credential.js';
import type { RawEnvelope } from '../transport/ndjson.js';
import type { Transcript } from '../transport/transcript.js';
import type { Channel, ChannelShutdown } from './connection-channel.js';
import { acceptHandshake, undefinedMembers, type AckPolicies, type HostFinding } from './connection-handshake.js';
import { HttpChannel } from './connection-http.js';
import { shapeQuery, type ShapeNote, type ShapePolicies, type Shaped } from './connection-shape.js';
import { StdioChannel } from './connection-stdio.js';
import { CapabilityMissing, MalformedReply, ProviderError, TransportFailure } from './errors.js';
import { checkHttpTarget, effectiveEgress, type LogSink } from './http-security.js';
import type { ProviderDescriptor } from './types.js';

/** Host library defaults (docs/interpretations.md §12: the library's request bound is 30 s; the suite uses 10 s). */
export const HOST_HANDSHAKE_TIMEOUT_MS = 10_000;
export const HOST_REQUEST_TIMEOUT_MS = 30_000;
export const HOST_SHUTDOWN_GRACE_MS = 2_000;

/**
 * Policy switches. Every default is the conformant behaviour; the switches marked "misbehaving host only"
 * exist so a deliberately broken host variant can be built by flipping exactly one of them.
 */
export interface ConnectionPolicies extends AckPolicies, ShapePolicies {
  /** Misbehaving host only: send correlation ids to providers that did not declare correlation (breaks S3.2). */
  sendIdsToAll?: boolean;
  /** Treat loopback HTTP providers as egress too (the reference host does; C4 only requires non-loopback). */
  loopbackHttpIsEgress?: boolean;
  /** Misbehaving host only: believe an HTTP provider's egress claim (breaks C4). */
  trustEgressClaim?: boolean;
  /** Misbehaving host only: allow plaintext http:// to a non-loopback host (breaks C7). */
  allowPlaintextRemote?: boolean;
  /**
   * Misbehaving host only: how replies of a correlation-declaring stdio provider are matched to requests.
   * 'by-id' (the default) demultiplexes by id (H4). 'lockstep' sends one request at a time and takes the
   * next reply whatever id it carries; 'arrival' pipelines but hands each reply to the oldest pending
   * request, ignoring its id. Both break H4 (a wrong, missing or another request's id is taken as an answer).
   */
  replyRouting?: 'by-id' | 'lockstep' | 'arrival';
}

export interface ConnectOptions {
  /** An explicit routing id (required to connect a second provider with an already-connected name). */
  alias?: string;
  /** The version sent in `handshake` (default contextgraph/1.0). */
  hostVersion?: string;
  handshakeTimeoutMs?: number;
  requestTimeoutMs?: number;
  shutdownGraceMs?: number;
  policies?: ConnectionPolicies;
  log?: LogSink;
}

export interface StdioConnectOptions extends ConnectOptions {
  /** Exact child environment (default: PATH and HOME only, like the reference host). */
  env?: Record<string, string | undefined>;
  extraEnv?: Record<string, string>;
  cwd?: string;
  /** Copy the child's stderr to this process's stderr (it is always captured for messages). */
  forwardStderr?: boolean;
}

export interface HttpConnectOptions extends ConnectOptions {
  /** Bearer credential, attached by the transport to every request; rendered `<redacted>` everywhere (C8). */
  credential?: Credential;
  /** DNS lookup override (tests map a non-loopback name to 127.0.0.1 with it). */
  lookup?: LookupFunction;
  /** Extra TLS trust anchors. */
  ca?: string | Buffer | Array<string | Buffer>;
  headers?: Record<string, string>;
}

export type QueryOutcome =
  | {
      status: 'answered';
      /** The query exactly as sent to this provider (after E1/P5/Q1 shaping). */
      query: ContextQuery;
      result: ContextQueryResult;
      notes: ShapeNote[];
      /** The correlation id sent, if any. */
      id?: string;
    }
  | { status: 'skipped'; rule: 'Q1'; reason: string };

export interface ShutdownReport extends ChannelShutdown {
  routingId: string;
  name: string;
}

/** Runs right before a payload is written; throws to stop it (the host installs the consent gate here). */
export type PayloadGate = (provider: ProviderDescriptor) => void;

export class ProviderConnection {
  readonly descriptor: ProviderDescriptor;
  /** Why the provider is egress although it did not declare it: C4 (non-loopback HTTP) or a host policy. */
  readonly egressForcedBy: 'C4' | 'policy' | undefined;
  readonly #channel: Channel;
  readonly #handshakeFindings: HostFinding[];
  readonly #correlation: boolean;
  readonly #policies: ConnectionPolicies;
  readonly #requestTimeoutMs: number;
  readonly #shutdownGraceMs: number;
  #gate: PayloadGate | undefined;
  #seq = 0;
  #closed = false;

  constructor(channel: Channel, descriptor: ProviderDescriptor, init: { correlation: boolean; findings: HostFinding[]; opts: ConnectOptions; egressForcedBy?: 'C4' | 'policy' }) {
    this.#channel = channel;
    this.descriptor = descriptor;
    this.egressForcedBy = init.egressForcedBy;
    this.#correlation = init.correlation;
    this.#handshakeFindings = init.findings;
    this.#policies = init.opts.policies ?? {};
    this.#requestTimeoutMs = init.opts.requestTimeoutMs ?? HOST_REQUEST_TIMEOUT_MS;
    this.#shutdownGraceMs = init.opts.shutdownGraceMs ?? HOST_SHUTDOWN_GRACE_MS;
  }

  get routingId(): string {
    return this.descriptor.routingId;
  }

  /** Whether the provider declared capabilities.correlation (pipelined on stdio). */
  get correlation(): boolean {
    return this.#correlation;
  }

  get transcript(): Transcript {
    return this.#channel.transcript;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Handshake findings plus whatever the wire showed since (uncorrelated verified, …). */
  get findings(): HostFinding[] {
    return [...this.#handshakeFindings, ...this.#channel.findings];
  }

  /** Install the check that runs before any payload leaves (the host's consent gate). */
  setGate(gate: PayloadGate | undefined): void {
    this.#gate = gate;
  }

  /** This provider's copy of a query (E1, P5, Q1), without sending anything. */
  shape(query: ContextQuery): Shaped {
    return shapeQuery(this.descriptor.ack, query, this.#policies, this.routingId);
  }

  /**
   * Shape, gate, send, decode. Rejects with a HostError: ConsentRequired (nothing sent),
   * UnsupportedRepresentation (P5 'refuse' policy, nothing sent), ProviderError, ProviderTimeout,
   * ProviderCrashed, CorrelationMismatch, MalformedReply, TransportFailure.
   */
  async query(query: ContextQuery, opts: { timeoutMs?: number } = {}): Promise<QueryOutcome> {
    const shaped = this.shape(query);
    if (!shaped.send) return { status: 'skipped', rule: shaped.rule, reason: shaped.reason };
    this.#gate?.(this.descriptor);
    const id = this.#nextId('q');
    const envelope: Record<string, unknown> = id === undefined ? { type: 'query', query: shaped.query } : { type: 'query', id, query: shaped.query };
    const reply = await this.#channel.exchange(envelope, { kind: 'query', timeoutMs: opts.timeoutMs ?? this.#requestTimeoutMs, ...(id !== undefined && this.#correlation ? { id } : {}) });
    const result = this.#decodeReply(reply, 'frames', 'query').result as ContextQueryResult;
    return { status: 'answered', query: shaped.query, result, notes: shaped.notes, ...(id !== undefined ? { id } : {}) };
  }

  /**
   * verify (§9): identities only (V1). Only to a provider that declared capabilities.verify. Lock-step among
   * verifies; carries an id only to a correlation-declaring provider (docs/interpretations.md §4).
   */
  async verify(frames: FrameId[], opts: { timeoutMs?: number } = {}): Promise<VerifyResponse> {
    if (this.descriptor.ack.capabilities.verify !== true) throw new CapabilityMissing('verify', { routingId: this.routingId });
    const identities = frames.map((f) => {
      const id: FrameId = { provider_id: f.provider_id, frame_id: f.frame_id };
      if (typeof f.content_digest === 'string') id.content_digest = f.content_digest;
      return id;
    });
    const id = this.#nextId('v');
    const envelope: Record<string, unknown> = { type: 'verify', ...(id !== undefined ? { id } : {}), request: { frames: identities } };
    const reply = await this.#channel.exchange(envelope, { kind: 'verify', timeoutMs: opts.timeoutMs ?? this.#requestTimeoutMs, ...(id !== undefined && this.#correlation ? { id } : {}) });
    return this.#decodeReply(reply, 'verified', 'verify').response as VerifyResponse;
  }

  /**
   * One raw verify exchange for the verify/reuse layer (src/host/verify-reuse.ts `VerifySend`): resolves
   * with the decoded `verified` or `error` envelope; transport failures reject with a HostError. `id` is
   * used only for a correlation-declaring provider (S3.2); otherwise the verify goes without one.
   */
  async sendVerify(request: VerifyRequest, id?: string, opts: { timeoutMs?: number } = {}): Promise<VerifiedEnvelope | ErrorEnvelope> {
    if (this.descriptor.ack.capabilities.verify !== true) throw new CapabilityMissing('verify', { routingId: this.routingId });
    const useId = this.#correlation ? (id ?? this.#nextId('v')) : this.#policies.sendIdsToAll ? this.#nextId('v') : undefined;
    const identities = request.frames.map((f) => {
      const out: FrameId = { provider_id: f.provider_id, frame_id: f.frame_id };
      if (typeof f.content_digest === 'string') out.content_digest = f.content_digest;
      return out;
    });
    const envelope: Record<string, unknown> = { type: 'verify', ...(useId !== undefined ? { id: useId } : {}), request: { frames: identities } };
    const reply = await this.#channel.exchange(envelope, { kind: 'verify', timeoutMs: opts.timeoutMs ?? this.#requestTimeoutMs, ...(useId !== undefined && this.#correlation ? { id: useId } : {}) });
    if (reply.type === 'error') {
      const decoded = decodeEnvelope(reply);
      if (!decoded.ok) throw new MalformedReply(`error reply is malformed: ${decoded.error.message}`, { routingId: this.routingId, cause: decoded.error });
      return decoded.envelope as ErrorEnvelope;
    }
    return this.#decodeReply(reply, 'verified', 'verify') as unknown as VerifiedEnvelope;
  }

  /** Send shutdown; a stdio provider gets the grace period (2 s) before its process group is killed. */
  async shutdown(graceMs = this.#shutdownGraceMs): Promise<ShutdownReport> {
    this.#closed = true;
    const r = await this.#channel.shutdown(graceMs);
    return { routingId: this.routingId, name: this.descriptor.name, ...r };
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#channel.close();
  }

  #nextId(prefix: string): string | undefined {
    if (!this.#correlation && !this.#policies.sendIdsToAll) return undefined; // S3.2-no-id-without-correlation
    this.#seq += 1;
    return `${prefix}${this.#seq}`;
  }

  #decodeReply(reply: RawEnvelope, expected: 'frames' | 'verified', phase: 'query' | 'verify'): Record<string, unknown> {
    if (this.#policies.strictInterop === true) {
      // Misbehaving host only: the authoring lint applied on the interop path (breaks U1, S13-interop-validator).
      const odd = undefinedMembers(reply);
      if (odd.length > 0) throw new MalformedReply(`${reply.type} reply carries members the schema does not define: ${odd.join(', ')}`, { routingId: this.routingId });
    }
    if (reply.type === 'error') {
      // Misbehaving host only (readNamespacedAsBase): `acme:unavailable` read as the base `unavailable` (breaks U3).
      const code = this.#policies.readNamespacedAsBase === true && isNamespacedName(reply.code) ? reply.code.slice(reply.code.indexOf(':') + 1) : reply.code;
      throw new ProviderError(code, reply.message, { routingId: this.routingId, phase });
    }
    if (reply.type !== expected) {
      throw new MalformedReply(`provider answered a ${phase} with a ${JSON.stringify(reply.type)} envelope; required ${expected} or error`, { routingId: this.routingId });
    }
    // The interop profile: unknown members ignored (U1), unknown kinds kept verbatim (U2).
    const decoded = decodeEnvelope(reply);
    if (!decoded.ok) throw new MalformedReply(`${expected} reply is malformed: ${decoded.error.message}`, { routingId: this.routingId, cause: decoded.error });
    return decoded.envelope as unknown as Record<string, unknown>;
  }
}

async function establish(channel: Channel, opts: ConnectOptions): Promise<ProviderConnection> {
  const hostVersion = opts.hostVersion ?? PROTOCOL_VERSION;
  const policies = opts.policies ?? {};
  if (opts.alias !== undefined && (typeof opts.alias !== 'string' || opts.alias.trim() === '')) {
    await channel.close().catch(() => undefined);
    throw new TransportFailure('an alias (routing id) must be a non-empty string');
  }
  if (opts.alias !== undefined) channel.routingId = opts.alias;
  let accepted;
  try {
    const reply = await channel.handshake(hostVersion, opts.handshakeTimeoutMs ?? HOST_HANDSHAKE_TIMEOUT_MS);
    accepted = acceptHandshake(reply, { hostVersion, target: channel.target, ...(opts.alias !== undefined ? { alias: opts.alias } : {}), policies });
  } catch (err) {
    await channel.close().catch(() => undefined); // kills the process group of a refused stdio provider
    throw err;
  }
  const routingId = opts.alias ?? accepted.name;
  channel.routingId = routingId;
  const egress = effectiveEgress(accepted.declaredEgress, channel.transport, channel.loopback, policies);
  const findings = [...accepted.findings];
  if (egress.forcedBy) {
    opts.log?.({
      level: 'info',
      routingId,
      message:
        egress.forcedBy === 'C4'
          ? `C4: provider "${accepted.name}" at ${channel.target} is not on loopback; treated as egress whatever its handshake claims`
          : `provider "${accepted.name}" at ${channel.target} is reached over HTTP; treated as egress (loopbackHttpIsEgress policy)`,
    });
  }
  const descriptor: ProviderDescriptor = {
    routingId,
    name: accepted.name,
    version: accepted.version,
    ack: accepted.ack,
    transport: channel.transport,
    egress: egress.egress,
    offMachineScopes: accepted.offMachineScopes,
  };
  channel.start(accepted.correlation);
  return new ProviderConnection(channel, descriptor, {
    correlation: accepted.correlation,
    findings,
    opts,
    ...(egress.forcedBy ? { egressForcedBy: egress.forcedBy } : {}),
  });
}

/** Spawn `command args` (own process group, PATH/HOME-only environment) and handshake with it. */
export async function connectStdio(command: string, args: readonly string[] = [], opts: StdioConnectOptions = {}): Promise<ProviderConnection> {
  const channel = await StdioChannel.spawn(command, args, {
    ...(opts.env ? { env: opts.env } : {}),
    ...(opts.extraEnv ? { extraEnv: opts.extraEnv } : {}),
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
    ...(opts.forwardStderr ? { forwardStderr: true } : {}),
    ...(opts.log ? { log: opts.log } : {}),
    ...(opts.policies?.replyRouting ? { replyRouting: opts.policies.replyRouting } : {}),
  });
  return establish(channel, opts);
}

/**
 * Reach an HTTP provider. C7 is enforced first: plaintext http:// to a non-loopback host throws
 * InsecureTransport before any DNS lookup or socket. A non-loopback provider is egress whatever it claims (C4).
 */
export async function connectHttp(url: string | URL, opts: HttpConnectOptions = {}): Promise<ProviderConnection> {
  const target = checkHttpTarget(url, { ...(opts.policies?.allowPlaintextRemote ? { allowPlaintextRemote: true } : {}), ...(opts.alias ? { routingId: opts.alias } : {}) });
  const channel = new HttpChannel(target, {
    ...(opts.credential ? { credential: opts.credential } : {}),
    ...(opts.lookup ? { lookup: opts.lookup } : {}),
    ...(opts.ca !== undefined ? { ca: opts.ca } : {}),
    ...(opts.headers ? { headers: opts.headers } : {}),
    ...(opts.policies?.allowPlaintextRemote ? { allowPlaintextRemote: true } : {}),
    ...(opts.log ? { log: opts.log } : {}),
  });
  return establish(channel, opts);
}
