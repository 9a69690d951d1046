// Fan-out: one query to every connected provider, concurrently, each leg isolated from the others.
//
// Per provider, in this order:
//   1. shape (connection-shape.ts): Q1 narrowing — a provider declaring none of several requested kinds is
//      skipped with a reason and never contacted; E1 — the embedding is stripped unless the fingerprints are
//      exactly equal; P5 — unadvertised representation preferences are filtered (or the leg refused).
//   2. the consent gate (C1/C2/C6), inside ProviderConnection.query, before a byte is written;
//   3. one exchange under the per-provider timeout (ProviderTimeout); an id only to a correlation-declaring
//      provider (S3.2/H4); a crash is ProviderCrashed for that leg only;
//   4. an `error` reply is a ProviderError keeping the raw code and the effective one (X1/X2). Retries, when
//      enabled, happen only for a retryable code (unavailable, shutting_down) — never incompatible_version
//      (S10), never an unknown or absent code. (The retryNonRetryable switch exists for a deliberately
//      misbehaving host only: it reads those errors as retryable, breaking X1/X2/S10-not-retryable.)
//   5. every frame becomes a ReceivedFrame with its FrameId (provider.name, frame id, content_digest), kept
//      verbatim (unknown kinds and members included, U2);
//   6. the budget audit (B1/B3/B4 → B2): a provider it does not admit is dropped whole, with its report
//      logged loudly; admitted answers get attestation evidence attached (F8–F13).
// Nothing one leg does can fail another: every failure becomes a value in `failures`.
import type { ContextQuery, ContextQueryResult } from '../../generated/types/index.js';
import { checkFramesEnvelope } from '../protocol/envelope-checks.js';
import type { Finding } from '../protocol/findings.js';
import { frameIdOf } from '../protocol/identity.js';
import { attachEvidence, type TrustStore } from './attestation.js';
import { auditAnswer, type AuditOptions, type BudgetAudit } from './budget-audit.js';
import type { HostFinding } from './connection-handshake.js';
import type { ProviderConnection } from './connection.js';
import { HostError, ProviderError } from './errors.js';
import { asHostError, Redactor, type LogSink } from './http-security.js';
import type { ProviderAnswer, ProviderDescriptor, ReceivedFrame } from './types.js';

export interface FanOutFailure {
  routingId: string;
  name?: string;
  error: HostError;
}

export interface FanOutSkip {
  routingId: string;
  name: string;
  rule: 'Q1';
  reason: string;
}

/** A decision the host took for one provider's copy of the query (E1 strip, Q1 narrowing, P5 filter). */
export interface FanOutNote {
  routingId: string;
  rule: 'E1' | 'P5' | 'Q1';
  message: string;
}

export interface ProviderAudit extends BudgetAudit {
  routingId: string;
  name: string;
}

export interface FanOutResult {
  /** Admitted answers, in provider registration order. */
  answers: ProviderAnswer[];
  failures: FanOutFailure[];
  skipped: FanOutSkip[];
  /** One audit per provider that returned frames (admitted or dropped). */
  audits: ProviderAudit[];
  /** Provider violations seen: frame checks, budget audit, attestation (each names its provider). */
  findings: HostFinding[];
  notes: FanOutNote[];
}

export type AuditFn = (provider: ProviderDescriptor, query: ContextQuery, result: ContextQueryResult) => BudgetAudit;
export type AttestFn = (provider: ProviderDescriptor, result: ContextQueryResult, frames: ReceivedFrame[]) => Finding[] | void;

export interface FanOutOptions {
  /** Per-provider bound on one exchange (default: each connection's request timeout, 30 s). */
  timeoutMs?: number;
  /** Retries for a retryable ProviderError only (default 0). */
  maxRetries?: number;
  retryBackoffMs?: number;
  /**
   * Misbehaving host only: ALSO retry (at least once) a ProviderError defaulted by X1 (unknown code), by X2
   * (absent code), or carrying incompatible_version (S10-not-retryable). Default: none — those are permanent.
   */
  retryNonRetryable?: readonly NonRetryableMisread[];
  /** Budget audit (default: auditAnswer from budget-audit.ts). */
  audit?: AuditFn;
  auditOptions?: AuditOptions;
  /** Attestation verification (default: attachEvidence from attestation.ts). */
  attest?: AttestFn;
  trustStore?: TrustStore;
  /** Run the protocol's frame/result checks on every answer and report their findings (default true). */
  checkFrames?: boolean;
  log?: LogSink;
  redactor?: Redactor;
}

/** What a misbehaving host may misread as retryable (each breaks the id it is named after). */
export type NonRetryableMisread = 'X1' | 'X2' | 'S10-not-retryable';

/** Whether the misbehaving-host switch makes this error look retryable. */
function misreadAsRetryable(err: HostError, misreads: readonly NonRetryableMisread[] | undefined): boolean {
  if (misreads === undefined || misreads.length === 0 || !(err instanceof ProviderError)) return false;
  return misreads.some((m) => (m === 'S10-not-retryable' ? err.effectiveCode === 'incompatible_version' : err.defaultedBy === m));
}

type Leg =
  | { kind: 'answer'; answer?: ProviderAnswer; audit: ProviderAudit; findings: HostFinding[]; notes: FanOutNote[] }
  | { kind: 'failure'; failure: FanOutFailure; notes: FanOutNote[] }
  | { kind: 'skip'; skip: FanOutSkip };

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function fanOut(connections: readonly ProviderConnection[], query: ContextQuery, opts: FanOutOptions = {}): Promise<FanOutResult> {
  const log = opts.log ?? (() => undefined);
  const redactor = opts.redactor ?? new Redactor();
  const audit: AuditFn = opts.audit ?? ((p, q, r) => auditAnswer(p, q, r, opts.auditOptions));
  const attest: AttestFn = opts.attest ?? ((p, r, f) => attachEvidence(p, r, f, opts.trustStore));

  const legs = await Promise.all(
    connections.map(async (conn): Promise<Leg> => {
      const d = conn.descriptor;
      const notes: FanOutNote[] = [];
      try {
        let attempt = 0;
        for (;;) {
          try {
            const outcome = await conn.query(query, opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {});
            if (outcome.status === 'skipped') {
              log({ level: 'info', routingId: d.routingId, message: outcome.reason });
              return { kind: 'skip', skip: { routingId: d.routingId, name: d.name, rule: outcome.rule, reason: outcome.reason } };
            }
            for (const n of outcome.notes) {
              notes.push({ routingId: d.routingId, rule: n.rule, message: n.message });
              log({ level: 'info', routingId: d.routingId, message: n.message });
            }
            return judge(d, outcome.query, outcome.result, notes, { audit, attest, log, checkFrames: opts.checkFrames ?? true });
          } catch (err) {
            const misread = err instanceof HostError && misreadAsRetryable(err, opts.retryNonRetryable);
            const maxRetries = misread ? Math.max(1, opts.maxRetries ?? 0) : (opts.maxRetries ?? 0);
            if (err instanceof HostError && (err.retryable || misread) && attempt < maxRetries) {
              attempt += 1;
              log({ level: 'warn', routingId: d.routingId, message: `${err.message}; retry ${attempt}/${maxRetries}` });
              await sleep((opts.retryBackoffMs ?? 100) * attempt);
              notes.length = 0;
              continue;
            }
            throw err;
          }
        }
      } catch (err) {
        const error = asHostError(err, redactor, d.routingId);
        log({ level: 'warn', routingId: d.routingId, message: error.message });
        return { kind: 'failure', failure: { routingId: d.routingId, name: d.name, error }, notes };
      }
    }),
  );

  const result: FanOutResult = { answers: [], failures: [], skipped: [], audits: [], findings: [], notes: [] };
  for (const leg of legs) {
    if (leg.kind === 'skip') {
      result.skipped.push(leg.skip);
      continue;
    }
    result.notes.push(...leg.notes);
    if (leg.kind === 'failure') {
      result.failures.push(leg.failure);
      continue;
    }
    result.audits.push(leg.audit);
    result.findings.push(...leg.findings);
    if (leg.answer) result.answers.push(leg.answer);
  }
  return result;
}

function judge(d: ProviderDescriptor, sent: ContextQuery, result: ContextQueryResult, notes: FanOutNote[], ctx: { audit: AuditFn; attest: AttestFn; log: LogSink; checkFrames: boolean }): Leg {
  const tag = (f: Finding): HostFinding => ({ ...f, routingId: d.routingId, provider: d.name });
  const findings: HostFinding[] = [];
  if (ctx.checkFrames) {
    findings.push(...checkFramesEnvelope({ type: 'frames', result }, '', { query: sent, providerName: d.name, overTransport: true }).map(tag));
  }
  const frames: ReceivedFrame[] = (Array.isArray(result.frames) ? result.frames : []).map((frame, rank) => ({
    frameId: frameIdOf(d.name, frame),
    frame,
    providerRoutingId: d.routingId,
    rank,
  }));
  const verdict = ctx.audit(d, sent, result);
  const audit: ProviderAudit = { ...verdict, routingId: d.routingId, name: d.name };
  // The audit's findings overlap the frame checks (B1/B3/B4); keep one copy of each message.
  const seen = new Set(findings.map((f) => `${f.id}\u0000${f.pointer}`));
  for (const f of verdict.findings) if (!seen.has(`${f.id}\u0000${f.pointer}`)) findings.push(tag(f));
  if (!verdict.admitted) {
    ctx.log({ level: 'error', routingId: d.routingId, message: `B2: ${verdict.report}` });
    return { kind: 'answer', audit, findings, notes };
  }
  const evidenceFindings = ctx.attest(d, result, frames) ?? [];
  findings.push(...evidenceFindings.map(tag));
  const answer: ProviderAnswer = { provider: d, query: sent, frames, truncated: result.truncated === true, result };
  if (typeof result.dropped_estimate === 'number') answer.droppedEstimate = result.dropped_estimate;
  return { kind: 'answer', answer, audit, findings, notes };
}
