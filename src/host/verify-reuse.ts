/**
 * Verify and reuse (§6.3 D2–D4, §9 V1–V4): which held frame bodies a host may serve again.
 *
 * `verifyHeld` asks ONE provider about the frames a host holds from it and partitions them:
 *
 * - V1: the request carries FrameId members only (provider_id, frame_id, content_digest) — never a
 *   body — and only identities with a well-formed content_digest. A digest-less frame (D3) is
 *   re-queried, never reused; a frame whose digest is malformed (D1) is treated the same way: its
 *   "identity" makes no checkable claim about bytes.
 * - No `capabilities.verify` ⇒ nothing is sent; every frame is re-queried (§9: verification is
 *   earned by handshake, never assumed).
 * - Verdicts are matched to requests by FULL identity, never by position. A requested identity
 *   with no verdict is `unknown` (V2). Two verdicts for one identity that disagree are `unknown`.
 * - V3: only an explicit `valid` keeps a body (default-deny): `unknown`, an unrecognised status,
 *   a missing verdict, an error reply, a timeout, a transport failure or a wrong correlation id
 *   all mean "not reused".
 * - V4: `stale` / `gone` ⇒ the stored copy is discarded. A `stale` verdict's replacement_digest is
 *   recorded when well-formed, ignored with a V4 finding when not (a digest, never a body).
 * - Findings for what the provider did wrong on the way: an error/timeout/non-`verified` reply from
 *   a provider declaring verify (V2), a malformed replacement digest (V4), a verdict for an identity
 *   never asked (V2, warning: the echo was not the identity asked, so that identity is unanswered),
 *   a verified reply echoing a different correlation id (H4) or none (S9-verify-correlation,
 *   warning — docs/interpretations.md §4), a reply that is not the verified shape (S2-wire-shape).
 *
 * The partition is total: |retained| + |dropped| = |held|; `requery` lists the dropped frames
 * worth asking for again (everything but `gone` and frames of another provider).
 *
 * `FrameStore` keeps frames across queries on that discipline: only frames with a well-formed
 * content_digest are stored (D3), a stored body is served (`reusable`) only after a `valid`
 * verdict, and a verify pass evicts everything it did not retain (V4).
 */
import type { ErrorEnvelope, FrameId, VerifiedEnvelope, VerifyRequest } from '../../generated/types/index.js';
import { isWellFormedDigest } from '../protocol/digest.js';
import { violation, warning, type Finding } from '../protocol/findings.js';
import { frameIdKey } from '../protocol/identity.js';
import type { ProviderDescriptor, ReceivedFrame } from './types.js';
import { isJsonObject } from '../util/json.js';

/** Sends one verify request (with `id` when given) and resolves with the provider's reply. */
export type VerifySend = (request: VerifyRequest, id?: string) => Promise<VerifiedEnvelope | ErrorEnvelope>;

export type VerifyStatus = 'valid' | 'stale' | 'gone' | 'unknown';

export type DropReason =
  /** D3: no content_digest — cannot be revalidated; re-query. */
  | 'no-digest'
  /** D1 broken: content_digest is not sha256:<64 lowercase hex>; re-query. */
  | 'malformed-digest'
  /** The provider does not declare capabilities.verify; re-query (nothing was sent). */
  | 'verify-unsupported'
  /** Error reply, timeout, transport failure, wrong correlation id or malformed reply; re-query. */
  | 'verify-failed'
  /** Verdict unknown, missing (V2), unrecognised or contradictory; re-query. */
  | 'unknown'
  /** V4: changed since it was served; re-query (replacementDigest when the provider gave one). */
  | 'stale'
  /** V4: no longer served; do not re-query. */
  | 'gone'
  /** The frame's provider_id is not this provider's name; not this provider's to verify. */
  | 'foreign-provider';

export interface DroppedFrame {
  frameId: FrameId;
  reason: DropReason;
  detail: string;
  /** V4: the provider's current digest for a stale frame (well-formed only). */
  replacementDigest?: string;
  frame: ReceivedFrame;
}

export interface VerifyOutcome {
  /** Frames whose stored body may be reused (explicit `valid`). */
  retained: ReceivedFrame[];
  /** Dropped frames worth re-querying (every reason but gone / foreign-provider). */
  requery: ReceivedFrame[];
  /** Every frame not retained, with why; retained + dropped = held. */
  dropped: DroppedFrame[];
  /** Provider violations seen on the way. */
  findings: Finding[];
  /** The identities actually sent (empty when nothing was sent). */
  sent: FrameId[];
}

export interface VerifyHeldOptions {
  /** The provider the held frames came from (its name, capabilities.verify and .correlation). */
  provider: ProviderDescriptor;
  /** Bound on the whole exchange (default 30 s, the host library's request timeout). */
  timeoutMs?: number;
  /** The correlation id for a provider declaring correlation (default: `verify-<n>`). */
  correlationId?: string;
}

export const DEFAULT_VERIFY_TIMEOUT_MS = 30_000;

const STATUSES: readonly string[] = ['valid', 'stale', 'gone', 'unknown'];
const REQUERY_EXEMPT: readonly DropReason[] = ['gone', 'foreign-provider'];

let verifyCounter = 0;

function show(value: unknown): string {
  const text = value === undefined ? 'absent' : (JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** A FrameId with exactly the three identity members (V1: nothing of the body travels). */
function identityOnly(id: FrameId): FrameId {
  const out: FrameId = { provider_id: id.provider_id, frame_id: id.frame_id };
  if (typeof id.content_digest === 'string') out.content_digest = id.content_digest;
  return out;
}

/** The identity a verdict names, or undefined when it names none. */
function verdictIdentity(frame: unknown): FrameId | undefined {
  if (!isJsonObject(frame) || typeof frame.provider_id !== 'string' || typeof frame.frame_id !== 'string') return undefined;
  const digest = frame.content_digest;
  if (digest !== undefined && digest !== null && typeof digest !== 'string') return undefined;
  const id: FrameId = { provider_id: frame.provider_id, frame_id: frame.frame_id };
  if (typeof digest === 'string') id.content_digest = digest;
  return id;
}

class TimeoutError extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new TimeoutError(`no reply within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

interface Resolution {
  status: VerifyStatus | 'failed';
  detail: string;
  replacementDigest?: string;
}

/**
 * Verify `held` (frames from `options.provider`) and partition them. Sends at most one verify
 * request; see the module comment for the rules.
 */
export async function verifyHeld(held: readonly ReceivedFrame[], send: VerifySend, options: VerifyHeldOptions): Promise<VerifyOutcome> {
  const { provider } = options;
  const providerName = provider.name;
  const capabilities = isJsonObject(provider.ack?.capabilities) ? provider.ack.capabilities : undefined;
  const declaresVerify = capabilities?.verify === true;
  const declaresCorrelation = capabilities?.correlation === true;

  const partial: VerifyOutcome = { retained: [], requery: [], dropped: [], findings: [], sent: [] };
  const drop = (frame: ReceivedFrame, reason: DropReason, detail: string, replacementDigest?: string): void => {
    const entry: DroppedFrame = { frameId: frame.frameId, reason, detail, frame };
    if (replacementDigest !== undefined) entry.replacementDigest = replacementDigest;
    partial.dropped.push(entry);
  };
  const outcome = await partition(held, partial, drop, send, options, { providerName, declaresVerify, declaresCorrelation });
  // Report in the order the frames were held.
  const position = new Map<ReceivedFrame, number>();
  held.forEach((frame, index) => {
    if (!position.has(frame)) position.set(frame, index);
  });
  const byPosition = (a: ReceivedFrame, b: ReceivedFrame) => position.get(a)! - position.get(b)!;
  outcome.retained.sort(byPosition);
  outcome.dropped.sort((a, b) => byPosition(a.frame, b.frame));
  outcome.requery = outcome.dropped.filter((x) => !REQUERY_EXEMPT.includes(x.reason)).map((x) => x.frame);
  return outcome;
}

async function partition(
  held: readonly ReceivedFrame[],
  outcome: VerifyOutcome,
  drop: (frame: ReceivedFrame, reason: DropReason, detail: string, replacementDigest?: string) => void,
  send: VerifySend,
  options: VerifyHeldOptions,
  facts: { providerName: string; declaresVerify: boolean; declaresCorrelation: boolean },
): Promise<VerifyOutcome> {
  const { providerName, declaresVerify, declaresCorrelation } = facts;

  // Which frames can be asked about at all.
  const askable: ReceivedFrame[] = [];
  for (const frame of held) {
    const id = frame.frameId;
    if (id.provider_id !== providerName) drop(frame, 'foreign-provider', `provider_id ${show(id.provider_id)} is not ${show(providerName)}`);
    else if (id.content_digest === undefined || id.content_digest === null) drop(frame, 'no-digest', 'D3: no content_digest; cannot be revalidated, re-query instead');
    else if (!isWellFormedDigest(id.content_digest)) drop(frame, 'malformed-digest', `D1: content_digest ${show(id.content_digest)} is not sha256:<64 lowercase hex>; re-query instead`);
    else if (!declaresVerify) drop(frame, 'verify-unsupported', 'the provider does not declare capabilities.verify; re-query instead');
    else askable.push(frame);
  }
  if (askable.length === 0) return outcome;

  // V1: one request of distinct identities, identity members only.
  const requested = new Map<string, FrameId>();
  for (const frame of askable) {
    const key = frameIdKey(frame.frameId);
    if (!requested.has(key)) requested.set(key, identityOnly(frame.frameId));
  }
  outcome.sent = [...requested.values()];
  const request: VerifyRequest = { frames: outcome.sent.map((id) => ({ ...id })) };
  const correlationId = declaresCorrelation ? (options.correlationId ?? `verify-${++verifyCounter}`) : undefined;
  const timeoutMs = options.timeoutMs ?? DEFAULT_VERIFY_TIMEOUT_MS;

  const failAll = (detail: string): VerifyOutcome => {
    for (const frame of askable) drop(frame, 'verify-failed', detail);
    return outcome;
  };

  let reply: unknown;
  try {
    reply = await withTimeout(correlationId === undefined ? send(request) : send(request, correlationId), timeoutMs);
  } catch (error) {
    const timedOut = error instanceof TimeoutError;
    const detail = timedOut ? `verify not answered: ${error.message}` : `verify failed: ${error instanceof Error ? error.message : String(error)}`;
    outcome.findings.push(violation('V2', '', `provider ${show(providerName)} declares verify but gave no verified reply (${detail})`));
    return failAll(`${detail}; nothing reused`);
  }

  if (!isJsonObject(reply) || reply.type !== 'verified') {
    const what = isJsonObject(reply) && reply.type === 'error' ? `error ${show(reply.code)}: ${show(reply.message)}` : `${show(isJsonObject(reply) ? reply.type : reply)}`;
    outcome.findings.push(violation('V2', '/type', `provider ${show(providerName)} declares verify but answered verify with ${what}, not verified`));
    return failAll(`verify answered with ${what}; nothing reused`);
  }
  if (correlationId !== undefined) {
    if (reply.id === undefined || reply.id === null) {
      outcome.findings.push(warning('S9-verify-correlation', '/id', `verified reply carries no id; the verify carried ${show(correlationId)}`));
    } else if (reply.id !== correlationId) {
      outcome.findings.push(violation('H4', '/id', `verified reply carries id ${show(reply.id)}; the verify carried ${show(correlationId)}`));
      return failAll(`verified reply answers id ${show(reply.id)}, not ${show(correlationId)}; nothing reused`);
    }
  }
  const verdicts = isJsonObject(reply.response) ? reply.response.verdicts : undefined;
  if (!Array.isArray(verdicts)) {
    outcome.findings.push(violation('S2-wire-shape', '/response/verdicts', `verified reply has response.verdicts ${show(verdicts)}; required an array`));
    return failAll('verified reply carries no verdicts array; nothing reused');
  }

  // Match verdicts to requests by full identity (never by position).
  const resolved = new Map<string, Resolution>();
  verdicts.forEach((raw: unknown, index) => {
    const at = `/response/verdicts/${index}`;
    const identity = isJsonObject(raw) ? verdictIdentity(raw.frame) : undefined;
    if (!isJsonObject(raw) || identity === undefined) {
      outcome.findings.push(violation('S2-wire-shape', `${at}/frame`, `verdict names no frame identity (${show(isJsonObject(raw) ? raw.frame : raw)}); ignored`));
      return;
    }
    const key = frameIdKey(identity);
    if (!requested.has(key)) {
      outcome.findings.push(warning('V2', `${at}/frame`, `verdict for ${key}, an identity never requested; ignored (verdicts must echo the requested identity in full)`));
      return;
    }
    let resolution: Resolution;
    const status = raw.status;
    if (typeof status !== 'string' || !STATUSES.includes(status)) {
      outcome.findings.push(violation('S2-wire-shape', `${at}/status`, `verdict status ${show(status)} is not one of valid, stale, gone, unknown; read as unknown`));
      resolution = { status: 'unknown', detail: `unrecognised status ${show(status)} (read as unknown, V3)` };
    } else {
      resolution = { status: status as VerifyStatus, detail: `verdict ${status}` };
    }
    if (resolution.status === 'stale' && raw.replacement_digest !== undefined && raw.replacement_digest !== null) {
      if (isWellFormedDigest(raw.replacement_digest)) resolution.replacementDigest = raw.replacement_digest;
      else {
        outcome.findings.push(violation('V4', `${at}/replacement_digest`, `replacement_digest ${show(raw.replacement_digest)} is not a digest (sha256:<64 lowercase hex>); ignored`));
        resolution.detail += '; malformed replacement_digest ignored (V4)';
      }
    }
    const earlier = resolved.get(key);
    if (earlier === undefined) resolved.set(key, resolution);
    else if (earlier.status !== resolution.status) {
      outcome.findings.push(warning('V3', at, `verdicts for ${key} disagree (${earlier.status} vs ${resolution.status}); read as unknown`));
      resolved.set(key, { status: 'unknown', detail: `contradictory verdicts (${earlier.status} / ${resolution.status}) read as unknown (V3)` });
    }
  });

  for (const frame of askable) {
    const resolution = resolved.get(frameIdKey(frame.frameId));
    if (resolution === undefined) {
      drop(frame, 'unknown', 'V2: requested identity came back with no verdict; treated as unknown');
      continue;
    }
    switch (resolution.status) {
      case 'valid':
        outcome.retained.push(frame);
        break;
      case 'stale':
        drop(frame, 'stale', `V4: ${resolution.detail}; stored copy discarded`, resolution.replacementDigest);
        break;
      case 'gone':
        drop(frame, 'gone', `V4: ${resolution.detail}; stored copy discarded`);
        break;
      default:
        drop(frame, 'unknown', `V3: ${resolution.detail}; unknown is never validity`);
    }
  }
  return outcome;
}

// ---------------------------------------------------------------------------------------------
// FrameStore: held frames across queries

interface StoredFrame {
  frame: ReceivedFrame;
  /** True after a `valid` verdict since the frame was stored (or since the last `expire`). */
  verified: boolean;
}

export interface StoreAddResult {
  stored: number;
  /** D3: frames refused because they carry no well-formed content_digest (re-query them instead). */
  refused: ReceivedFrame[];
}

/** Frames a host holds across queries, keyed by full identity (D2), reused only on `valid` (V3). */
export class FrameStore {
  private readonly entries = new Map<string, StoredFrame>();
  private readonly replacements = new Map<string, string>();

  /** Store frames for later reuse; a digest-less (or malformed-digest) frame is refused (D3). */
  add(frames: Iterable<ReceivedFrame>): StoreAddResult {
    const result: StoreAddResult = { stored: 0, refused: [] };
    for (const frame of frames) {
      if (!isWellFormedDigest(frame.frameId.content_digest)) {
        result.refused.push(frame);
        continue;
      }
      const key = frameIdKey(frame.frameId);
      // D2: the same identity is the same content; keep the first copy (and its verification state).
      if (!this.entries.has(key)) this.entries.set(key, { frame, verified: false });
      result.stored++;
    }
    return result;
  }

  get size(): number {
    return this.entries.size;
  }

  has(id: FrameId): boolean {
    return this.entries.has(frameIdKey(id));
  }

  /** The stored frames (all, or those of one provider name), in insertion order. */
  held(providerName?: string): ReceivedFrame[] {
    return [...this.entries.values()].map((e) => e.frame).filter((f) => providerName === undefined || f.frameId.provider_id === providerName);
  }

  /** The stored body, only when a `valid` verdict has confirmed it (V3: never on absence of a negative). */
  reusable(id: FrameId): ReceivedFrame | undefined {
    const entry = this.entries.get(frameIdKey(id));
    return entry?.verified ? entry.frame : undefined;
  }

  /** V4: the provider's current digest for a frame it called stale (until the frame is re-stored). */
  replacementDigest(id: FrameId): string | undefined {
    return this.replacements.get(frameIdKey(id));
  }

  discard(id: FrameId): boolean {
    return this.entries.delete(frameIdKey(id));
  }

  /** Host freshness policy (e.g. a turn boundary): every stored frame must be re-verified before reuse. */
  expire(): void {
    for (const entry of this.entries.values()) entry.verified = false;
  }

  /**
   * Verify the frames held from `provider` and apply the outcome: retained ⇒ reusable; everything
   * else evicted (V4: never keep serving a stale/gone copy; unknown/failed are not reused either).
   */
  async verify(provider: ProviderDescriptor, send: VerifySend, options: Omit<VerifyHeldOptions, 'provider'> = {}): Promise<VerifyOutcome> {
    const outcome = await verifyHeld(this.held(provider.name), send, { ...options, provider });
    for (const frame of outcome.retained) {
      const entry = this.entries.get(frameIdKey(frame.frameId));
      if (entry) entry.verified = true;
    }
    for (const dropped of outcome.dropped) {
      const key = frameIdKey(dropped.frameId);
      this.entries.delete(key);
      if (dropped.replacementDigest !== undefined) this.replacements.set(key, dropped.replacementDigest);
    }
    return outcome;
  }
}
