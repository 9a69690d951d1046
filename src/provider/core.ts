/**
 * The reference provider "example-docs": pure, transport-independent protocol logic. stdio and
 * HTTP both feed `handle()` and write what it returns, so the two bindings answer identically.
 *
 * Input: a raw line (stdio), an already-parsed body (HTTP), or an Error the transport raised while
 * framing (oversized line, invalid UTF-8). Output: a Reply — the envelopes to write, their encoded
 * lines, and an optional action (exit with a code, hang, ignore).
 *
 * Honest behaviour by anchor: H1/H3 handshake and version family; H4 correlation ids echoed on
 * frames, errors and verified; Q1 kinds; G4 anchors; S6.1 as_of; E1 embedding dimension; B1/B3/B4
 * budget with honest truncation; P1–P5 full/compact representations; V2–V4 verify verdicts;
 * F6/F7/F11–F13 every frames result signed after truncation (attest.ts, TEST-ONLY key);
 * R1 bad_request on malformed input then keep serving; R2 exit 0 on shutdown; U1 unknown members
 * ignored; S2.1 unknown notification ignored, unknown request answered bad_request.
 */
import { PROTOCOL_VERSION, majorFamily, versionsCompatible } from '../protocol/version.js';
import { ADVERTISED_REPRESENTATIONS, EMBEDDINGS_FINGERPRINT, PROVIDER_NAME, RETIRED_FRAME_IDS, SERVED_KINDS } from './catalogue.js';
import { NotAnEnvelopeError } from '../transport/errors.js';
import { parseEnvelopeLine, type RawEnvelope } from '../transport/ndjson.js';
import { loadCorpus, type Corpus } from './corpus.js';
import { attesterKeys, providerSigning, signResult, type ProviderSigning } from './attest.js';
import { HONEST_STAGES, parseQuery, renderFrame, type Stages } from './engine.js';
import type { AckEnvelope, Answer, HookContext, Hooks, ProviderAction, QueryContext, Reply } from './hooks.js';
import { MISBEHAVIOUR_HOOKS } from './misbehave/index.js';
import { isMisbehaviourMode, MISBEHAVIOUR_MODES } from './misbehaviours.js';
import { correlationIdOf, errorEnvelope, isJsonObject, type JsonObject, type OutEnvelope, type WireFrameId, type WireResult, type WireVerdict } from './wire.js';

export type { Answer, Hooks, ProviderAction, Reply } from './hooks.js';

export interface ProviderOptions {
  /** A mode from MISBEHAVIOURS; absent = honest. */
  misbehave?: string;
  /** Package root holding fixtures/provider/ (default: found by walking up from this module). */
  root?: string;
  /** A preloaded corpus (tests share one across many providers). */
  corpus?: Corpus;
  /**
   * S3-handshake-first: answer a query or verify that arrives before a successful handshake with
   * `bad_request`. On for stdio (one connection = one session); off for stateless HTTP.
   */
  requireHandshake?: boolean;
  /**
   * Loaded into the host's own process (no transport binding): also advertise and serve `reference`
   * frames, which §6.4.1 permits an in-process provider (MAY) and discourages over a transport.
   */
  inProcess?: boolean;
  /**
   * Hooks to apply instead of a named mode (the suite's own tests script a peer with them; a user never
   * reaches this). Ignored when `misbehave` is given.
   */
  hooks?: Hooks;
}

export interface Provider {
  readonly name: string;
  readonly mode: string | undefined;
  /** The handshake_ack this provider sends. */
  readonly ack: AckEnvelope;
  readonly corpus: Corpus;
  handle(input: string | Error | object): Promise<Reply>;
  /** What to do when the input ends (stdio EOF): honest providers exit 0. */
  endOfInput(): ProviderAction;
}

/** Envelope types this provider answers; the rest of the vocabulary flows the other way. */
const INBOUND_IGNORED = new Set(['handshake_ack', 'frames', 'verified', 'error']);

/**
 * Members that make an envelope of unknown type a request rather than a notification (S2.1):
 * a correlation id, or a structured payload under one of the names requests use.
 */
const REQUEST_PAYLOAD_MEMBERS = ['request', 'query', 'params', 'payload'];

export class UnknownMisbehaviourError extends Error {
  constructor(readonly mode: string) {
    super(`unknown misbehaviour mode "${mode}"; valid modes: ${MISBEHAVIOUR_MODES.join(', ')}`);
  }
}

export function honestAck(corpus: Corpus, signing: ProviderSigning = providerSigning(corpus)): AckEnvelope {
  return {
    type: 'handshake_ack',
    protocol_version: PROTOCOL_VERSION,
    provider: {
      name: PROVIDER_NAME,
      version: corpus.version,
      data_flow: { reads: true, writes: false, egress: false, egress_scopes: ['local-only'] },
    },
    capabilities: {
      query: { kinds: [...SERVED_KINDS] },
      correlation: true,
      graph: true,
      embeddings_fingerprint: EMBEDDINGS_FINGERPRINT,
      verify: true,
      representations: [...ADVERTISED_REPRESENTATIONS],
      resolve: true,
    },
    attester_keys: attesterKeys(signing),
  };
}

function reply(...envelopes: OutEnvelope[]): Answer {
  return { envelopes };
}

function ignore(): Answer {
  return { envelopes: [], action: { kind: 'ignore' } };
}

type Decoded = { ok: true; envelope: RawEnvelope } | { ok: false; id: string | number | undefined; reason: string };

/**
 * Decode one input. Tolerant (U1): only a string `type` is required; members are read lazily.
 * Text goes through the same framing parser the HTTP server uses, so a malformed line and a
 * malformed body get the same answer. A request id is recovered from a typeless object when
 * possible, so even that bad_request is correlated (H4).
 */
function decode(input: string | Error | object): Decoded {
  let parsed: RawEnvelope | Error;
  if (typeof input === 'string') parsed = parseEnvelopeLine(input);
  else if (input instanceof Error) parsed = input;
  else if (isJsonObject(input) && typeof input.type === 'string') parsed = input as RawEnvelope;
  else parsed = new NotAnEnvelopeError('not an object with a string "type"', JSON.stringify(input) ?? '');
  if (!(parsed instanceof Error)) return { ok: true, envelope: parsed };
  if (parsed instanceof NotAnEnvelopeError) {
    let id: string | number | undefined;
    try {
      id = correlationIdOf(JSON.parse(parsed.preview));
    } catch {
      id = undefined;
    }
    return { ok: false, id, reason: parsed.reason };
  }
  return { ok: false, id: undefined, reason: parsed.message };
}

function isPayloadBearing(envelope: JsonObject): boolean {
  if (envelope.id !== undefined && envelope.id !== null) return true;
  return REQUEST_PAYLOAD_MEMBERS.some((m) => typeof envelope[m] === 'object' && envelope[m] !== null);
}

/** What every answer of one provider instance reads: its hooks, stages, corpus, signing and ack. */
interface Setup {
  readonly hooks: Hooks;
  readonly stages: Stages;
  readonly corpus: Corpus;
  readonly signing: ProviderSigning;
  readonly ack: AckEnvelope;
  readonly advertised: readonly string[];
  readonly state: Map<string, unknown>;
}

/** One connection's session state (stdio: one process). */
interface Session {
  readonly requireHandshake: boolean;
  handshaken: boolean;
}

function setUp(opts: ProviderOptions, mode: string | undefined): Setup {
  const hooks: Hooks = mode === undefined ? (opts.hooks ?? {}) : MISBEHAVIOUR_HOOKS[mode as keyof typeof MISBEHAVIOUR_HOOKS];
  const corpus = opts.corpus ?? loadCorpus(opts.root);
  const signing = providerSigning(corpus);
  const base = honestAck(corpus, signing);
  if (opts.inProcess) base.capabilities.representations = [...(base.capabilities.representations ?? ['full']), 'reference'];
  const ack = hooks.ack ? hooks.ack(base) : base;
  return { hooks, stages: { ...HONEST_STAGES, ...hooks.stages }, corpus, signing, ack, advertised: ack.capabilities.representations ?? ['full'], state: new Map() };
}

/** H1/H3: a handshake_ack in the family, incompatible_version outside it. */
function answerHandshake(setup: Setup, ctx: HookContext): Answer {
  const env = ctx.request!;
  const id = correlationIdOf(env);
  const version = env.protocol_version;
  if (typeof version !== 'string') {
    return reply(errorEnvelope('bad_request', 'handshake carries no protocol_version string', id));
  }
  if (majorFamily(version) !== majorFamily(PROTOCOL_VERSION)) {
    return reply(errorEnvelope('incompatible_version', `host speaks ${version}; this provider speaks ${PROTOCOL_VERSION} (family ${majorFamily(PROTOCOL_VERSION)}) (H3)`, id));
  }
  if (!versionsCompatible(version, PROTOCOL_VERSION)) {
    return reply(errorEnvelope('bad_request', `protocol_version ${JSON.stringify(version)} is not a version string`, id));
  }
  return reply(structuredClone(setup.ack));
}

/** The query pipeline: parse → embedding → representation → kinds → as_of → rank/render → budget → sign. */
function answerQuery(setup: Setup, ctx: HookContext): Answer {
  const { hooks, stages } = setup;
  const id = correlationIdOf(ctx.request);
  const fail = (code: string, message: string): Answer => reply(errorEnvelope(code, message, id));
  const parsed = parseQuery(ctx.request!.query);
  if (!parsed.ok) return fail(parsed.code, parsed.message);
  const checked = stages.checkEmbedding(hooks.query ? hooks.query(parsed.value, ctx) : parsed.value);
  if (!checked.ok) return fail(checked.code, checked.message);
  const q = checked.value;
  const representation = stages.chooseRepresentation(q.representation_preferences, [...setup.advertised]);
  if (!representation.ok) return fail(representation.code, representation.message);
  const byKind = stages.filterKinds(setup.corpus.frames, q.kinds);
  if (!byKind.ok) return fail(byKind.code, byKind.message);
  const eligible = stages.filterTime(byKind.value, q.as_of);
  const rendered = stages.rank(eligible, q).map((s) => renderFrame(s, representation.value, stages.contentDigest));
  const { selected, dropped } = stages.budget(rendered, q);
  if (rendered.length > 0 && selected.length === 0) {
    const cheapest = Math.min(...rendered.map((f) => f.token_cost));
    return fail('budget_unsatisfiable', `no frame fits max_frames ${q.max_frames} / max_tokens ${q.max_tokens} (cheapest eligible frame costs ${cheapest})`);
  }
  const qctx: QueryContext = { ...ctx, query: q };
  const frames = hooks.frames ? hooks.frames(selected, qctx) : selected;
  let result: WireResult = { frames, truncated: dropped > 0 };
  if (dropped > 0) result.dropped_estimate = dropped;
  if (hooks.result) result = hooks.result(result, qctx);
  // F12: sign exactly what is returned, after truncation and every rewrite of the frames.
  result = signResult(result, setup.signing);
  if (hooks.attest) result = hooks.attest(result, { ...qctx, candidates: rendered, signing: setup.signing });
  return reply(id === undefined ? { type: 'frames', result } : { type: 'frames', id, result });
}

/** V3/V4: the verdict for one identity. */
function verdictFor(setup: Setup, identity: WireFrameId): WireVerdict {
  const frame: WireFrameId = { provider_id: identity.provider_id, frame_id: identity.frame_id };
  if (identity.content_digest !== undefined) frame.content_digest = identity.content_digest;
  if (identity.provider_id !== PROVIDER_NAME) return { frame, status: 'unknown' };
  const current = setup.corpus.frames.find((f) => f.spec.id === identity.frame_id);
  if (!current) return { frame, status: RETIRED_FRAME_IDS.includes(identity.frame_id) ? 'gone' : 'unknown' };
  if (typeof identity.content_digest !== 'string') return { frame, status: 'unknown' };
  const digests = [setup.stages.contentDigest(current, 'full'), setup.stages.contentDigest(current, 'compact')];
  if (digests.includes(identity.content_digest)) return { frame, status: 'valid' };
  return { frame, status: 'stale', replacement_digest: digests[0]! };
}

/** V2: a verify gets a verified reply (a malformed one gets bad_request). */
function answerVerify(setup: Setup, ctx: HookContext): Answer {
  const id = correlationIdOf(ctx.request);
  const request = ctx.request!.request;
  const identities = isJsonObject(request) ? request.frames : undefined;
  if (!Array.isArray(identities)) {
    return reply(errorEnvelope('bad_request', 'verify carries no request.frames array', id));
  }
  const parsed: WireFrameId[] = [];
  for (const [i, raw] of identities.entries()) {
    if (!isJsonObject(raw) || typeof raw.provider_id !== 'string' || typeof raw.frame_id !== 'string') {
      return reply(errorEnvelope('bad_request', `request.frames[${i}] is not a frame identity`, id));
    }
    const digest = raw.content_digest;
    if (digest !== undefined && digest !== null && typeof digest !== 'string') {
      return reply(errorEnvelope('bad_request', `request.frames[${i}].content_digest is not a string`, id));
    }
    const identity: WireFrameId = { provider_id: raw.provider_id, frame_id: raw.frame_id };
    if (digest !== undefined) identity.content_digest = digest;
    parsed.push(identity);
  }
  let verdicts = parsed.map((v) => verdictFor(setup, v));
  if (setup.hooks.verdicts) verdicts = setup.hooks.verdicts(verdicts, ctx);
  const response = { verdicts };
  return reply(id === undefined ? { type: 'verified', response } : { type: 'verified', id, response });
}

/** S2.1: an unknown notification is ignored; an unknown request is answered bad_request. */
function answerUnknownType(envelope: RawEnvelope): Answer {
  if (INBOUND_IGNORED.has(envelope.type) || !isPayloadBearing(envelope)) return ignore();
  return reply(errorEnvelope('bad_request', `envelope type ${JSON.stringify(envelope.type)} is not implemented by this provider (S2.1)`, correlationIdOf(envelope)));
}

/** Decode one input and answer it, through the mode's hooks at each fixed point. */
function dispatch(setup: Setup, session: Session, input: string | Error | object): { answer: Answer; ctx: HookContext } {
  const { hooks, corpus, ack, state } = setup;
  const decoded = decode(input);
  if (!decoded.ok) {
    const ctx: HookContext = { corpus, ack, state, request: undefined };
    const honest = reply(errorEnvelope('bad_request', `not a CGP envelope (${decoded.reason}) (R1)`, decoded.id));
    return { answer: hooks.garbage ? hooks.garbage(honest, ctx) : honest, ctx };
  }
  const envelope = decoded.envelope;
  const ctx: HookContext = { corpus, ack, state, request: envelope };
  const early = hooks.inbound?.(envelope, ctx);
  if (early) return { answer: early, ctx };
  if (session.requireHandshake && !session.handshaken && (envelope.type === 'query' || envelope.type === 'verify')) {
    // S3-handshake-first: no query payload moves before the handshake exchange completes.
    const refusal = `${envelope.type} before a completed handshake: no payload moves before the handshake (S3)`;
    return { answer: reply(errorEnvelope('bad_request', refusal, correlationIdOf(envelope))), ctx };
  }
  switch (envelope.type) {
    case 'handshake': {
      const honest = answerHandshake(setup, ctx);
      const answer = hooks.handshake ? hooks.handshake(honest, ctx) : honest;
      if (answer.envelopes.some((e) => (e as { type?: unknown }).type === 'handshake_ack')) session.handshaken = true;
      return { answer, ctx };
    }
    case 'query':
      return { answer: hooks.beforeQuery?.(ctx) ?? answerQuery(setup, ctx), ctx };
    case 'verify': {
      const honest = answerVerify(setup, ctx);
      return { answer: hooks.verify ? hooks.verify(honest, ctx) : honest, ctx };
    }
    case 'shutdown': {
      const honest: Answer = { envelopes: [], action: { kind: 'exit', code: 0 } };
      return { answer: hooks.shutdown ? hooks.shutdown(honest, ctx) : honest, ctx };
    }
    default: {
      const honest = answerUnknownType(envelope);
      return { answer: hooks.unknownType && !INBOUND_IGNORED.has(envelope.type) ? hooks.unknownType(honest, ctx) : honest, ctx };
    }
  }
}

export function createProvider(opts: ProviderOptions = {}): Provider {
  const mode = opts.misbehave;
  if (mode !== undefined && !isMisbehaviourMode(mode)) throw new UnknownMisbehaviourError(mode);
  const setup = setUp(opts, mode);
  const { hooks, corpus, ack, state } = setup;
  const encode = hooks.encode ?? ((env: OutEnvelope) => JSON.stringify(env));
  const session: Session = { requireHandshake: opts.requireHandshake === true, handshaken: false };
  return {
    name: PROVIDER_NAME,
    mode,
    ack,
    corpus,
    async handle(input) {
      let answer: Answer;
      let ctx: HookContext;
      try {
        ({ answer, ctx } = dispatch(setup, session, input));
      } catch (err) {
        // R1: a fault of ours is an `internal` error reply, never a crash.
        ctx = { corpus, ack, state, request: undefined };
        const id = typeof input === 'string' || input instanceof Error ? undefined : correlationIdOf(input);
        answer = reply(errorEnvelope('internal', `provider fault: ${err instanceof Error ? err.message : String(err)}`, id));
      }
      const envelopes = hooks.outgoing ? answer.envelopes.map((e) => hooks.outgoing!(e, ctx)) : answer.envelopes;
      const out: Reply = { envelopes, lines: envelopes.map(encode) };
      if (answer.action) out.action = answer.action;
      return out;
    },
    endOfInput() {
      const honest: ProviderAction = { kind: 'exit', code: 0 };
      return hooks.endOfInput ? hooks.endOfInput(honest) : honest;
    },
  };
}
