// The named failures of the reference host. Every failure a host operation can end in is one of these
// classes, with a stable `code`, the routing id of the provider it concerns (when there is one) and the anchor
// or rule id it witnesses. Messages start with that anchor (or, for an operational failure with no rule
// behind it, with the class name) and say what was seen versus what was required.
//
// C8: no class here ever takes a credential, a header or a URL with userinfo. Transport errors are wrapped
// after the transport has scrubbed them, and the host scrubs every surfaced error once more (host.ts).
import { effectiveCode, isRetryable, type BaseErrorCode } from '../protocol/error-codes.js';
import { clip } from '../transport/errors.js';

export type HostErrorCode =
  | 'version_mismatch'
  | 'handshake_failed'
  | 'provider_crashed'
  | 'provider_timeout'
  | 'correlation_mismatch'
  | 'consent_required'
  | 'scope_contradiction'
  | 'insecure_transport'
  | 'duplicate_provider_name'
  | 'unsupported_representation'
  | 'provider_error'
  | 'malformed_reply'
  | 'transport_failure'
  | 'unknown_provider'
  | 'capability_missing'
  | 'ledger_corrupt';

export interface HostErrorOptions {
  routingId?: string;
  anchor?: string;
  cause?: unknown;
  /** The failure is the provider's violation of `anchor` (message reads `<anchor> violated: …`). */
  violated?: boolean;
}

export class HostError extends Error {
  readonly code: HostErrorCode;
  /** The host-local routing id of the provider concerned (never on the wire). */
  readonly routingId: string | undefined;
  /** The anchor or rule id this failure witnesses (`H3`, `C6`, `S2-wire-shape`, …), when there is one. */
  readonly anchor: string | undefined;

  constructor(code: HostErrorCode, detail: string, opts: HostErrorOptions = {}) {
    super(`${opts.anchor ?? new.target.name}${opts.anchor && opts.violated ? ' violated' : ''}: ${detail}`, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = code;
    this.routingId = opts.routingId;
    this.anchor = opts.anchor;
  }

  /** Whether repeating the same operation may succeed (only ProviderError with a transient code says yes). */
  get retryable(): boolean {
    return false;
  }
}

function who(routingId: string | undefined, name?: string): string {
  if (name !== undefined && routingId !== undefined && name !== routingId) return `provider "${name}" (routing id "${routingId}")`;
  if (name !== undefined) return `provider "${name}"`;
  return routingId !== undefined ? `provider "${routingId}"` : 'provider';
}

/** H3: the provider's handshake_ack is from another major family. Raised as soon as the ack is read. */
export class VersionMismatch extends HostError {
  readonly hostVersion: string;
  readonly providerName: string;
  readonly providerVersion: string;
  constructor(hostVersion: string, providerName: string, providerVersion: string, opts: Omit<HostErrorOptions, 'anchor'> = {}) {
    super(
      'version_mismatch',
      `version-family mismatch: host speaks ${hostVersion}, ${who(opts.routingId, providerName || undefined)} acked protocol_version ${JSON.stringify(providerVersion)}; a different major family is never interoperable (H1)`,
      { ...opts, anchor: 'H3' },
    );
    this.hostVersion = hostVersion;
    this.providerName = providerName;
    this.providerVersion = providerVersion;
  }
}

/** The handshake did not produce a usable provider (blank identity, wrong reply, malformed ack, …). */
export class HandshakeFailed extends HostError {
  constructor(detail: string, opts: HostErrorOptions = {}) {
    super('handshake_failed', detail, { anchor: 'S3-handshake-first', ...opts });
  }
}

export type CrashPhase = 'handshake' | 'query' | 'verify' | 'idle';

/** The provider went away (process exit, EOF, EPIPE) while the host was waiting on it. */
export class ProviderCrashed extends HostError {
  readonly phase: CrashPhase;
  readonly exitCode: number | null;
  readonly signal: string | null;
  constructor(phase: CrashPhase, detail: string, opts: HostErrorOptions & { exitCode?: number | null; signal?: string | null } = {}) {
    super('provider_crashed', `${who(opts.routingId)} crashed during ${phase}: ${detail}`, opts);
    this.phase = phase;
    this.exitCode = opts.exitCode ?? null;
    this.signal = opts.signal ?? null;
  }
}

export type TimeoutPhase = 'handshake' | 'query' | 'verify' | 'shutdown';

/** A bounded wait expired (docs/interpretations.md §12: every expiry is a named failure). */
export class ProviderTimeout extends HostError {
  readonly phase: TimeoutPhase;
  readonly timeoutMs: number;
  /** Refused at once because an earlier exchange on a lock-step connection already stalled. */
  readonly failFast: boolean;
  constructor(phase: TimeoutPhase, timeoutMs: number, opts: HostErrorOptions & { failFast?: boolean; detail?: string } = {}) {
    const base = opts.failFast
      ? `${who(opts.routingId)} is unresponsive since an earlier ${phase} timed out; failing fast (a late lock-step reply could not be attributed)`
      : `${who(opts.routingId)} did not answer the ${phase} within ${timeoutMs} ms`;
    super('provider_timeout', opts.detail ? `${base} (${opts.detail})` : base, opts);
    this.phase = phase;
    this.timeoutMs = timeoutMs;
    this.failFast = opts.failFast ?? false;
  }
}

/** H4: a correlation-declaring provider's reply does not carry the id of the request it answers. */
export class CorrelationMismatch extends HostError {
  /** The ids that were waiting for a reply. */
  readonly expected: string[];
  /** The id the reply carried; undefined when it carried none. */
  readonly got: unknown;
  readonly replyType: string;
  constructor(expected: string[], got: unknown, replyType: string, opts: Omit<HostErrorOptions, 'anchor'> = {}) {
    const gotText = got === undefined ? '<absent>' : JSON.stringify(got);
    super(
      'correlation_mismatch',
      `${who(opts.routingId)} declared capabilities.correlation but its "${replyType}" reply carries id ${gotText}; expected ${expected.map((e) => JSON.stringify(e)).join(' or ') || 'a pending id'}`,
      { ...opts, anchor: 'H4', violated: true },
    );
    this.expected = expected;
    this.got = got;
    this.replyType = replyType;
  }
}

/**
 * C1/C2/C6: the consent gate refused a query before any payload left. `scopes` names the off-machine egress
 * scopes without a live receipt; `consentMissing` is set when the provider's egress itself has no live consent.
 */
export class ConsentRequired extends HostError {
  readonly providerName: string;
  readonly scopes: string[];
  readonly consentMissing: boolean;
  constructor(providerName: string, scopes: string[], consentMissing: boolean, opts: Omit<HostErrorOptions, 'anchor'> & { reason?: string } = {}) {
    const anchor = scopes.length > 0 ? 'C6' : 'C2';
    const parts: string[] = [];
    if (scopes.length > 0) parts.push(`off-machine egress scope(s) ${scopes.map((s) => JSON.stringify(s)).join(', ')} have no consent receipt`);
    if (consentMissing) parts.push(`its egress has no live, named consent (C1)`);
    super('consent_required', `refusing to query ${who(opts.routingId, providerName)}: ${parts.join('; ')}${opts.reason ? ` (${opts.reason})` : ''}; the payload was not transmitted`, {
      ...opts,
      anchor,
    });
    this.providerName = providerName;
    this.scopes = scopes;
    this.consentMissing = consentMissing;
  }
}

/** C5: `egress: false` declared alongside an off-machine egress scope — rejected at the handshake. */
export class ScopeContradiction extends HostError {
  readonly providerName: string;
  readonly scopes: string[];
  constructor(providerName: string, scopes: string[], opts: Omit<HostErrorOptions, 'anchor'> = {}) {
    super(
      'scope_contradiction',
      `${who(opts.routingId, providerName)} declares data_flow.egress false with off-machine egress scope(s) ${scopes.map((s) => JSON.stringify(s)).join(', ')}; a local posture MUST NOT name a destination content leaves`,
      { ...opts, anchor: 'C5', violated: true },
    );
    this.providerName = providerName;
    this.scopes = scopes;
  }
}

/** C7: plaintext http:// to a non-loopback provider, refused before any byte (or DNS query) left. */
export class InsecureTransport extends HostError {
  readonly host: string;
  constructor(host: string, opts: Omit<HostErrorOptions, 'anchor'> = {}) {
    super(
      'insecure_transport',
      `refusing plaintext http:// to non-loopback host ${host}${opts.routingId ? ` (routing id "${opts.routingId}")` : ''}; a non-loopback provider must be reached over https://. Nothing was sent`,
      { ...opts, anchor: 'C7' },
    );
    this.host = host;
  }
}

/**
 * Two connected providers declare the same provider.name. FrameId.provider_id is provider.name everywhere
 * (docs/interpretations.md §2), so without an explicit alias (a distinct routing id) the host could not keep their
 * frames apart in its own bookkeeping.
 */
export class DuplicateProviderName extends HostError {
  readonly providerName: string;
  readonly existingRoutingId: string;
  constructor(providerName: string, existingRoutingId: string, opts: Omit<HostErrorOptions, 'anchor'> & { aliasClash?: boolean } = {}) {
    super(
      'duplicate_provider_name',
      opts.aliasClash
        ? `routing id "${opts.routingId}" is already used by the provider connected as "${existingRoutingId}"; choose another alias`
        : `a provider named "${providerName}" is already connected (routing id "${existingRoutingId}"); FrameIds use provider.name, so a second one is refused unless it is given an explicit alias`,
      { ...opts, anchor: 'S6.5.2-provider-id' },
    );
    this.providerName = providerName;
    this.existingRoutingId = existingRoutingId;
  }
}

/** P5 (host half): the host refused to send a representation preference the provider did not advertise. */
export class UnsupportedRepresentation extends HostError {
  readonly requested: string[];
  readonly advertised: string[];
  constructor(requested: string[], advertised: string[], opts: Omit<HostErrorOptions, 'anchor'> = {}) {
    super(
      'unsupported_representation',
      `${who(opts.routingId)} advertises representations [${advertised.join(', ')}]; the query prefers [${requested.join(', ')}], and a host MUST NOT request an unadvertised representation. The query was not sent`,
      { ...opts, anchor: 'P5' },
    );
    this.requested = requested;
    this.advertised = advertised;
  }
}

/**
 * The provider answered with an `error` envelope. `rawCode` is the code as received (verbatim, U2);
 * `effectiveCode` is what the host acts on (X1: unknown ⇒ internal, X2: absent ⇒ internal).
 */
export class ProviderError extends HostError {
  readonly rawCode: string | undefined;
  readonly effectiveCode: BaseErrorCode;
  readonly providerMessage: string;
  readonly defaultedBy: 'X1' | 'X2' | undefined;
  readonly #retryable: boolean;
  constructor(rawCode: unknown, providerMessage: unknown, opts: Omit<HostErrorOptions, 'anchor'> & { phase?: string } = {}) {
    const eff = effectiveCode(rawCode);
    const anchor = eff.defaultedBy ?? (eff.code === 'incompatible_version' ? 'S10-not-retryable' : undefined);
    const message = typeof providerMessage === 'string' ? providerMessage : '';
    const codeText = eff.original === undefined ? 'no code' : `code ${JSON.stringify(eff.original)}`;
    const treated = eff.defaultedBy ? ` (treated as internal, never retried)` : eff.code === 'incompatible_version' ? ' (permanent: never retried)' : '';
    super('provider_error', `${who(opts.routingId)} replied error with ${codeText}${treated}${opts.phase ? ` to a ${opts.phase}` : ''}: ${JSON.stringify(clip(message, 500))}`, { ...opts, anchor });
    this.rawCode = eff.original;
    this.effectiveCode = eff.code;
    this.providerMessage = message;
    this.defaultedBy = eff.defaultedBy;
    this.#retryable = isRetryable(rawCode);
  }

  /** Only `unavailable` and `shutting_down`; never `incompatible_version` (S10), never unknown/absent (X1/X2). */
  override get retryable(): boolean {
    return this.#retryable;
  }
}

/** A reply the host could not use: not an envelope, the wrong envelope type, or failing the interop schema. */
export class MalformedReply extends HostError {
  constructor(detail: string, opts: HostErrorOptions = {}) {
    super('malformed_reply', detail, { anchor: 'S2-wire-shape', ...opts });
  }
}

/** Below the protocol: spawn failure, connection refused/reset, TLS failure, HTTP status, closed connection. */
export class TransportFailure extends HostError {
  readonly status: number | undefined;
  constructor(detail: string, opts: HostErrorOptions & { status?: number } = {}) {
    super('transport_failure', detail, opts);
    this.status = opts.status;
  }
}

export class UnknownProvider extends HostError {
  constructor(routingId: string) {
    super('unknown_provider', `no provider is connected under routing id "${routingId}"`, { routingId });
  }
}

/** The host was asked for an exchange the provider did not negotiate at the handshake (e.g. verify). */
export class CapabilityMissing extends HostError {
  readonly capability: string;
  constructor(capability: string, opts: Omit<HostErrorOptions, 'anchor'> = {}) {
    super('capability_missing', `${who(opts.routingId)} did not declare capabilities.${capability}; nothing was sent`, opts);
    this.capability = capability;
  }
}

/**
 * The consent ledger cannot be trusted: a line in the middle does not parse, fails its checksum, or breaks the
 * sequence. Never repaired silently (only a torn LAST line — a crash mid-append — is ignored, with a diagnostic).
 */
export class LedgerCorrupt extends HostError {
  readonly path: string;
  /** 1-based line number of the offending line. */
  readonly line: number;
  readonly reason: string;
  constructor(path: string, line: number, reason: string) {
    super('ledger_corrupt', `consent ledger ${path} is corrupt at line ${line}: ${reason}; refusing to evaluate consent from it`, { anchor: 'C1' });
    this.path = path;
    this.line = line;
    this.reason = reason;
  }
}
