// The reference host's facade: connect providers, record consent, fan a query out, shut everything down.
//
// Policies are options, so a deliberately misbehaving host is this class with one switch flipped:
//   policies.skipConsentGate        breaks C1/C2/C6 (queries egress providers without consent)
//   policies.sendIdsToAll           breaks S3.2-no-id-without-correlation
//   policies.acceptForeignVersion   breaks H3
//   policies.skipScopeConsistency   breaks C5
//   policies.customScopesOnMachine  breaks C6 (an unrecognised vendor:name scope needs no receipt; §4.1 says it leaves)
//   policies.trustEgressClaim       breaks C4
//   policies.allowPlaintextRemote   breaks C7
//   policies.sendEmbeddingAlways    breaks E1
//   policies.representationPolicy = 'passthrough'   breaks P5 ('filter' default, 'refuse' also conformant)
//   policies.skipKindNarrowing      sends kinds as asked (conformant, just wasteful)
//   policies.loopbackHttpIsEgress   gates loopback HTTP providers too (stricter than C4; the reference does)
//   policies.retryNonRetryable = ['X1' | 'X2' | 'S10-not-retryable', …]   retries an error with an unknown
//                                   code (breaks X1), with no code (X2), or incompatible_version (S10)
//   policies.replyRouting = 'lockstep' | 'arrival'   matches a correlating stdio provider's replies to
//                                   requests in order / by arrival, ignoring their ids (breaks H4; default 'by-id')
//   policies.readNamespacedAsBase   reads a vendor:name scope or error code as the base value after the `:`
//                                   (acme:local-only as on-machine, acme:unavailable as retryable; breaks U3)
//   policies.strictInterop          validates providers' messages with the authoring-strict schema, refusing
//                                   a member it does not define (breaks U1, S13-interop-validator)
// Everything the host logs goes through a redacting sink (C8), and every surfaced error is scrubbed of
// the credentials the host was given.
import { inspect } from 'node:util';
import type { ContextQuery, ErrorEnvelope, VerifiedEnvelope, VerifyRequest } from '../../generated/types/index.js';
import { ConsentLedger, type GrantRecord, type Grantor, type RevokeRecord } from './consent/ledger.js';
import { enforceConsent, evaluateConsent, type GateVerdict } from './consent/gate.js';
import type { HostFinding } from './connection-handshake.js';
import {
  connectHttp,
  connectStdio,
  HOST_HANDSHAKE_TIMEOUT_MS,
  HOST_REQUEST_TIMEOUT_MS,
  HOST_SHUTDOWN_GRACE_MS,
  type ConnectionPolicies,
  type HttpConnectOptions,
  type ProviderConnection,
  type QueryOutcome,
  type ShutdownReport,
  type StdioConnectOptions,
} from './connection.js';
import { DuplicateProviderName, UnknownProvider, type HostError } from './errors.js';
import { fanOut, type FanOutOptions, type FanOutResult, type NonRetryableMisread } from './fan-out.js';
import { asHostError, redactingSink, Redactor, type LogSink } from './http-security.js';
import type { ProviderDescriptor } from './types.js';

export interface HostPolicies extends ConnectionPolicies {
  /** Misbehaving host only: query egress providers without consent (breaks C1, C2, C6). */
  skipConsentGate?: boolean;
  /** Misbehaving host only: retry errors that are permanent (unknown code X1, absent code X2, incompatible_version S10). */
  retryNonRetryable?: readonly NonRetryableMisread[];
}

export interface HostOptions {
  /** The consent ledger file (JSON Lines, created if missing). Default: an in-memory ledger (not durable). */
  ledgerPath?: string;
  /** Or a ledger already opened. */
  ledger?: ConsentLedger;
  /** Sent in every handshake (default contextgraph/1.0). */
  hostVersion?: string;
  /** Default 10 s. */
  handshakeTimeoutMs?: number;
  /** Per-provider bound on one exchange (default 30 s). */
  requestTimeoutMs?: number;
  /** Grace before a stdio provider's process group is killed at shutdown (default 2 s). */
  shutdownGraceMs?: number;
  /** The host's embedding fingerprint (E1); without one no embedding is ever sent. */
  embeddingFingerprint?: string;
  /** Diagnostics sink; entries are redacted before they reach it (C8). Default: silent. */
  log?: LogSink;
  policies?: HostPolicies;
  /** Fan-out defaults (retries, audit/attestation overrides, trust store). */
  fanOut?: Omit<FanOutOptions, 'log' | 'redactor'>;
  /** Clock for consent timestamps and expiry. */
  now?: () => Date;
}

type HostStdioOptions = Pick<StdioConnectOptions, 'alias' | 'env' | 'extraEnv' | 'cwd' | 'forwardStderr' | 'handshakeTimeoutMs' | 'requestTimeoutMs'>;
type HostHttpOptions = Pick<HttpConnectOptions, 'alias' | 'credential' | 'lookup' | 'ca' | 'headers' | 'handshakeTimeoutMs' | 'requestTimeoutMs'>;

export interface GrantOptions {
  /** Who agreed (explicit and named, C1). */
  grantor: Grantor;
  /** The off-machine scopes consented to (default: every off-machine scope the provider declares). */
  scopes?: string[];
  expiresAt?: string;
}

export interface RevokeOptions {
  grantor: Grantor;
  /** Revoke only these scopes' receipts (default: the consent and every receipt). */
  scopes?: string[];
  reason?: string;
}

export class Host {
  readonly #connections = new Map<string, ProviderConnection>();
  readonly #ledger: ConsentLedger;
  readonly #ownsLedger: boolean;
  readonly #redactor = new Redactor();
  readonly #log: LogSink;
  readonly #opts: HostOptions;
  readonly #now: () => Date;
  #closed = false;

  constructor(opts: HostOptions = {}) {
    this.#opts = opts;
    this.#now = opts.now ?? (() => new Date());
    this.#log = redactingSink(opts.log, this.#redactor);
    if (opts.ledger) {
      this.#ledger = opts.ledger;
      this.#ownsLedger = false;
    } else {
      this.#ledger = opts.ledgerPath ? ConsentLedger.open(opts.ledgerPath, { now: this.#now }) : ConsentLedger.inMemory({ now: this.#now });
      this.#ownsLedger = true;
    }
    for (const d of this.#ledger.diagnostics) this.#log({ level: d.kind.startsWith('torn') ? 'warn' : 'info', message: `consent ledger: ${d.message}` });
  }

  get ledger(): ConsentLedger {
    return this.#ledger;
  }

  /** Spawn a stdio provider and handshake with it. Rejects with a HostError (the child is killed). */
  async connectStdio(command: string, args: readonly string[] = [], opts: HostStdioOptions = {}): Promise<ProviderDescriptor> {
    this.#assertOpen();
    try {
      const conn = await connectStdio(command, args, { ...this.#connectDefaults(), ...opts });
      return await this.#register(conn, opts.alias);
    } catch (err) {
      throw this.#refused(err, opts.alias);
    }
  }

  /**
   * Reach an HTTP provider. C7: plaintext to a non-loopback host is refused (InsecureTransport) before any
   * byte or DNS query leaves. C4: a non-loopback provider is egress, so it is consent-gated. C8: the
   * credential is attached by the transport and never rendered.
   */
  async connectHttp(url: string | URL, opts: HostHttpOptions = {}): Promise<ProviderDescriptor> {
    this.#assertOpen();
    this.#redactor.add(opts.credential);
    try {
      const conn = await connectHttp(url, { ...this.#connectDefaults(), ...opts });
      return await this.#register(conn, opts.alias);
    } catch (err) {
      throw this.#refused(err, opts.alias);
    }
  }

  /** Record an explicit, named consent (and one receipt per off-machine scope); durable when it resolves. */
  async grantConsent(routingId: string, opts: GrantOptions): Promise<GrantRecord> {
    const d = this.#get(routingId).descriptor;
    const record = this.#ledger.grant({
      provider: { name: d.name, version: d.version },
      routingId: d.routingId,
      grantor: opts.grantor,
      scopes: opts.scopes ?? d.offMachineScopes,
      egress: d.egress,
      ...(opts.expiresAt !== undefined ? { expiresAt: opts.expiresAt } : {}),
    });
    this.#log({
      level: 'info',
      routingId,
      message: `C1: consent granted for provider "${d.name}" ${d.version} by ${opts.grantor.kind} "${opts.grantor.id}"${record.receipts.length ? `; receipts for ${record.receipts.map((r) => r.scope).join(', ')}` : ''}`,
    });
    return record;
  }

  /** Revoke by appending a revocation; the gate refuses again from the next query on. */
  async revokeConsent(routingId: string, opts: RevokeOptions): Promise<RevokeRecord> {
    const d = this.#get(routingId).descriptor;
    const record = this.#ledger.revoke({
      provider: { name: d.name, version: d.version },
      routingId: d.routingId,
      grantor: opts.grantor,
      ...(opts.scopes !== undefined ? { scopes: opts.scopes } : {}),
      ...(opts.reason !== undefined ? { reason: opts.reason } : {}),
    });
    this.#log({
      level: 'info',
      routingId,
      message: `C1: consent revoked for provider "${d.name}"${opts.scopes ? ` (scopes ${opts.scopes.join(', ')})` : ''} by ${opts.grantor.kind} "${opts.grantor.id}"`,
    });
    return record;
  }

  /** What the gate would decide for this provider now. */
  consentStatus(routingId: string): GateVerdict {
    return evaluateConsent(this.#get(routingId).descriptor, this.#ledger, this.#now());
  }

  /** Fan the query out to every connected provider (fan-out.ts). Never rejects for a provider's failure. */
  async queryAll(query: ContextQuery, opts: Omit<FanOutOptions, 'log' | 'redactor'> = {}): Promise<FanOutResult> {
    this.#assertOpen();
    const misreads = this.#opts.policies?.retryNonRetryable;
    return fanOut([...this.#connections.values()], query, {
      ...this.#opts.fanOut,
      ...opts,
      ...(misreads !== undefined && misreads.length > 0 ? { retryNonRetryable: misreads } : {}),
      log: this.#log,
      redactor: this.#redactor,
    });
  }

  /** One provider, no fan-out audit: shaping, the consent gate and correlation still apply. */
  async queryProvider(routingId: string, query: ContextQuery, opts: { timeoutMs?: number } = {}): Promise<QueryOutcome> {
    const conn = this.#get(routingId);
    try {
      return await conn.query(query, opts);
    } catch (err) {
      throw asHostError(err, this.#redactor, routingId);
    }
  }

  /** A raw verify exchange (for the verify/reuse layer). */
  async sendVerify(routingId: string, request: VerifyRequest, id?: string): Promise<VerifiedEnvelope | ErrorEnvelope> {
    const conn = this.#get(routingId);
    try {
      return await conn.sendVerify(request, id);
    } catch (err) {
      throw asHostError(err, this.#redactor, routingId);
    }
  }

  /** The connection behind a routing id (transcript, findings, direct exchanges). */
  connection(routingId: string): ProviderConnection {
    return this.#get(routingId);
  }

  /** Connected providers in registration order. */
  providers(): ProviderDescriptor[] {
    return [...this.#connections.values()].map((c) => c.descriptor);
  }

  /** Everything observed about the providers outside a fan-out (handshake findings, wire warnings). */
  findings(): HostFinding[] {
    return [...this.#connections.values()].flatMap((c) => c.findings);
  }

  /** Shut every provider down (concurrently; reports in registration order) and close the ledger. */
  async close(): Promise<ShutdownReport[]> {
    if (this.#closed) return [];
    this.#closed = true;
    const conns = [...this.#connections.values()];
    this.#connections.clear();
    const reports = await Promise.all(
      conns.map((c) =>
        c.shutdown().catch(async (err: unknown): Promise<ShutdownReport> => {
          await c.close().catch(() => undefined);
          const e: HostError = asHostError(err, this.#redactor, c.routingId);
          this.#log({ level: 'warn', routingId: c.routingId, message: `shutdown failed: ${e.message}` });
          return { routingId: c.routingId, name: c.descriptor.name, clean: false, killed: true, exitCode: null, signal: null, elapsedMs: 0 };
        }),
      ),
    );
    for (const r of reports) {
      if (r.killed) this.#log({ level: 'warn', routingId: r.routingId, message: `provider "${r.name}" did not exit within the shutdown grace; its process group was killed` });
    }
    if (this.#ownsLedger) this.#ledger.close();
    return reports;
  }

  [inspect.custom](): string {
    const list = [...this.#connections.values()].map((c) => `${c.routingId}=${c.descriptor.name}@${c.descriptor.version}/${c.descriptor.transport}`);
    return `Host(${list.join(', ') || 'no providers'}; ledger ${this.#ledger.path ?? 'in-memory'})`;
  }

  toJSON(): unknown {
    return { providers: this.providers().map((d) => ({ routingId: d.routingId, name: d.name, version: d.version, transport: d.transport, egress: d.egress })) };
  }

  #connectDefaults(): StdioConnectOptions & HttpConnectOptions {
    const o = this.#opts;
    const policies: HostPolicies = { ...o.policies, ...(o.embeddingFingerprint !== undefined ? { embeddingFingerprint: o.embeddingFingerprint } : {}) };
    return {
      ...(o.hostVersion !== undefined ? { hostVersion: o.hostVersion } : {}),
      handshakeTimeoutMs: o.handshakeTimeoutMs ?? HOST_HANDSHAKE_TIMEOUT_MS,
      requestTimeoutMs: o.requestTimeoutMs ?? HOST_REQUEST_TIMEOUT_MS,
      shutdownGraceMs: o.shutdownGraceMs ?? HOST_SHUTDOWN_GRACE_MS,
      policies,
      log: this.#log,
    };
  }

  async #register(conn: ProviderConnection, alias: string | undefined): Promise<ProviderDescriptor> {
    const d = conn.descriptor;
    const byRouting = this.#connections.get(d.routingId);
    const byName = alias === undefined ? [...this.#connections.values()].find((c) => c.descriptor.name === d.name) : undefined;
    const clash = byRouting ?? byName;
    if (clash) {
      await conn.shutdown().catch(() => conn.close());
      throw alias !== undefined
        ? new DuplicateProviderName(d.name, clash.routingId, { routingId: alias, aliasClash: true })
        : new DuplicateProviderName(d.name, clash.routingId, { routingId: d.routingId });
    }
    this.#connections.set(d.routingId, conn);
    const skip = this.#opts.policies?.skipConsentGate === true;
    const egressReason =
      conn.egressForcedBy === 'C4'
        ? 'C4: not on loopback, so treated as egress whatever it declared'
        : conn.egressForcedBy === 'policy'
          ? 'reached over HTTP, treated as egress by the loopbackHttpIsEgress policy'
          : undefined;
    conn.setGate((provider) => {
      if (!skip) enforceConsent(provider, this.#ledger, this.#now(), egressReason);
    });
    if (alias !== undefined) {
      const twins = [...this.#connections.values()].filter((c) => c !== conn && c.descriptor.name === d.name).map((c) => c.routingId);
      if (twins.length > 0) {
        this.#log({
          level: 'info',
          routingId: alias,
          message: `S6.5.2-provider-id: "${d.name}" is also connected as ${twins.map((t) => `"${t}"`).join(', ')}; FrameIds of both carry provider_id "${d.name}", the host keeps them apart by routing id`,
        });
      }
    }
    for (const f of conn.findings) this.#log({ level: f.severity === 'error' ? 'warn' : 'info', routingId: d.routingId, message: f.message });
    this.#log({ level: 'info', routingId: d.routingId, message: `connected provider "${d.name}" ${d.version} over ${d.transport}${d.egress ? ' (egress: consent-gated)' : ''}` });
    return d;
  }

  #refused(err: unknown, alias: string | undefined): HostError {
    const e = asHostError(err, this.#redactor, alias);
    this.#log({ level: 'warn', ...(e.routingId !== undefined ? { routingId: e.routingId } : {}), message: `connection refused: ${e.message}` });
    return e;
  }

  #get(routingId: string): ProviderConnection {
    const c = this.#connections.get(routingId);
    if (!c) throw new UnknownProvider(routingId);
    return c;
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('Host is closed');
  }
}
