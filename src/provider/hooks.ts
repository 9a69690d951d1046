/**
 * The seam between the honest provider and its misbehaviour modes. A mode is a `Hooks` value:
 * a few named transformations applied at fixed points of the pipeline (core.ts). Every member is
 * optional; an empty object is the honest provider.
 */
import type { HandshakeAckEnvelope } from '../../generated/types/index.js';
import type { ProviderSigning } from './attest.js';
import type { Corpus } from './corpus.js';
import type { Stages } from './engine.js';
import type { JsonObject, OutEnvelope, ParsedQuery, WireFrame, WireResult, WireVerdict } from './wire.js';

/** What the transport does after writing the reply's lines. */
export type ProviderAction =
  /** Terminate the process with this exit code (stdio), or stop serving and exit (HTTP). */
  | { kind: 'exit'; code: number }
  /** Never answer this request (the peer times out); keep serving other input. */
  | { kind: 'hang' }
  /** Deliberately no reply (a notification, an ignored shutdown). */
  | { kind: 'ignore' };

/** An answer before encoding: envelopes plus an optional behavioural action. */
export interface Answer {
  envelopes: OutEnvelope[];
  action?: ProviderAction;
}

/** An answer ready for a transport: `lines[i]` is the encoding of `envelopes[i]` (no `\n`). */
export interface Reply extends Answer {
  lines: string[];
}

/** The handshake_ack this provider writes: the generated shape, usable as an outgoing envelope. */
export type AckEnvelope = HandshakeAckEnvelope & JsonObject;

export interface HookContext {
  corpus: Corpus;
  /** The handshake_ack this provider sends (after the mode's `ack` hook). */
  ack: AckEnvelope;
  /** Scratch space for stateful modes, one per provider instance (= per connection on stdio). */
  state: Map<string, unknown>;
  /** The decoded envelope being answered; undefined for a line that is not an envelope. */
  request: JsonObject | undefined;
}

export interface QueryContext extends HookContext {
  query: ParsedQuery;
}

/** What an attestation mode sees after the honest provider signed a result (src/provider/attest.ts). */
export interface AttestContext extends QueryContext {
  /** Every eligible frame, rendered, before budget truncation (the provider's candidate set). */
  candidates: readonly WireFrame[];
  /** The provider's signing setup (TEST-ONLY key). */
  signing: ProviderSigning;
}

export interface Hooks {
  /** Rewrite the handshake_ack (identity, data flow, capabilities). */
  ack?(ack: AckEnvelope): AckEnvelope;
  /** Replace stages of the query engine. */
  stages?: Partial<Stages>;
  /** See every decoded envelope first; an Answer short-circuits normal handling. */
  inbound?(envelope: JsonObject, ctx: HookContext): Answer | undefined;
  /** Rewrite the answer to a handshake. */
  handshake?(honest: Answer, ctx: HookContext): Answer;
  /** Intercept a query before it is parsed (crash, hang, refuse); undefined = proceed. */
  beforeQuery?(ctx: HookContext): Answer | undefined;
  /** Rewrite the query the engine sees. */
  query?(query: ParsedQuery, ctx: HookContext): ParsedQuery;
  /** Rewrite the frames chosen for an answer. */
  frames?(frames: WireFrame[], ctx: QueryContext): WireFrame[];
  /** Rewrite the result (truncated / dropped_estimate). */
  result?(result: WireResult, ctx: QueryContext): WireResult;
  /** Rewrite a result after the honest provider signed it (frame_attestations / result_attestation). */
  attest?(signed: WireResult, ctx: AttestContext): WireResult;
  /** Rewrite the verdicts of a verify. */
  verdicts?(verdicts: WireVerdict[], ctx: HookContext): WireVerdict[];
  /** Rewrite the answer to a verify. */
  verify?(honest: Answer, ctx: HookContext): Answer;
  /** Rewrite the answer to a line that is not an envelope. */
  garbage?(honest: Answer, ctx: HookContext): Answer;
  /** Rewrite the answer to an envelope of a type this provider does not implement. */
  unknownType?(honest: Answer, ctx: HookContext): Answer;
  /** Rewrite the answer to shutdown. */
  shutdown?(honest: Answer, ctx: HookContext): Answer;
  /** What to do when the input ends (stdio EOF); honest: exit 0. */
  endOfInput?(honest: ProviderAction): ProviderAction;
  /** Rewrite every outgoing envelope (ctx.request is what it answers). */
  outgoing?(envelope: OutEnvelope, ctx: HookContext): OutEnvelope;
  /** Encode one envelope as a line (honest: compact JSON, no literal newline). */
  encode?(envelope: OutEnvelope): string;
}
