// A fixed conversation with the provider core, and an oracle that reads its transcript.
//
// The script touches every provider-side behaviour (handshake, foreign handshake, sample query, kinds,
// anchors, as_of, embeddings, representations, tight budgets, unknown members, verify, garbage, unknown
// types, shutdown). The oracle turns a transcript into the set of anchor/rule ids it violates: the
// single-envelope checks of src/protocol plus behavioural checks across steps. The honest provider must
// violate nothing; each misbehaviour mode must violate (at least) every id its manifest entry names.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PROTOCOL_VERSION, budgetTokens, checkEnvelope, compareProtocolTimestamps, isJsonObject, isWellFormedDigest, sha256Digest, type JsonObject } from '../../src/protocol/index.js';
import { RECOGNISED_ALGORITHM, verifyFrameAttestations, type AttesterKeyInput, type CommittedFrame } from '../../src/attest/index.js';
import { PROVIDER_NAME, RETIRED_FRAME_IDS } from '../../src/provider/catalogue.js';
import { createProvider, type Reply } from '../../src/provider/core.js';
import { lineRangeBytes, loadCorpus, type Corpus } from '../../src/provider/corpus.js';

export const corpus: Corpus = loadCorpus();

export const SAMPLE_QUERY = {
  goal: 'conformance probe: return your most relevant frames',
  query_text: 'conformance probe',
  max_frames: 8,
  max_tokens: 4096,
};

export const AS_OF = '2026-07-01T00:00:00Z';

export function frameUri(id: string): string {
  const f = corpus.frames.find((c) => c.spec.id === id);
  if (!f) throw new Error(`no corpus frame ${id}`);
  return f.uri;
}

/** Anchor whose anchored frames (two zero-hop, one one-hop) are not the top-ranked unanchored frame. */
export const BACKOFF_URI = frameUri('frm_next_delay');

/** A relation target of the corpus that is no frame's own uri (G4 one hop only). */
export const SYMBOL_ANCHOR = 'symbol:///example-docs/backoff.rs#next_delay';

export function queryEnvelope(id: string, extra: Record<string, unknown> = {}): JsonObject & { type: 'query'; id: string } {
  return { type: 'query', id, query: { ...SAMPLE_QUERY, ...extra } };
}

function mutate(digest: string): string {
  return digest.slice(0, -1) + (digest.endsWith('0') ? '1' : '0');
}

/** Identities a host would verify after the sample query, plus ones that must not come back valid. */
export const VERIFY_IDENTITIES = {
  served: corpus.frames.map((f) => ({ provider_id: PROVIDER_NAME, frame_id: f.spec.id, content_digest: f.contentDigest })),
  compact: { provider_id: PROVIDER_NAME, frame_id: corpus.frames[0]!.spec.id, content_digest: corpus.frames[0]!.compactDigest },
  stale: { provider_id: PROVIDER_NAME, frame_id: corpus.frames[1]!.spec.id, content_digest: mutate(corpus.frames[1]!.contentDigest) },
  gone: { provider_id: PROVIDER_NAME, frame_id: RETIRED_FRAME_IDS[0]!, content_digest: sha256Digest('retired') },
  neverKnown: { provider_id: PROVIDER_NAME, frame_id: 'frm_never_served', content_digest: sha256Digest('never') },
  otherProvider: { provider_id: 'someone-else', frame_id: corpus.frames[0]!.spec.id, content_digest: corpus.frames[0]!.contentDigest },
};

export interface Step {
  name: string;
  input: string | JsonObject;
}

export const STEPS: readonly Step[] = [
  { name: 'handshake', input: { type: 'handshake', protocol_version: PROTOCOL_VERSION } },
  { name: 'foreign-handshake', input: { type: 'handshake', protocol_version: 'contextgraph/2.0' } },
  // §3.1 minor = 1*DIGIT: a two-digit minor is in the family
  { name: 'handshake-minor-10', input: { type: 'handshake', protocol_version: 'contextgraph/1.10' } },
  // a family is the whole major, compared for equality: 10 and 0 are foreign
  { name: 'handshake-major-10', input: { type: 'handshake', protocol_version: 'contextgraph/10.0' } },
  { name: 'handshake-major-0', input: { type: 'handshake', protocol_version: 'contextgraph/0.9' } },
  { name: 'sample', input: queryEnvelope('q-sample') },
  // ids are opaque: surrounding spaces and capitals come back as sent
  { name: 'spaced-id', input: queryEnvelope('  Q-Spaced-ID  ') },
  // kinds are compared exactly: "DOC" is not "doc"
  { name: 'kinds-capitalised', input: queryEnvelope('q-kinds-capitalised', { kinds: ['DOC'] }) },
  // anchored on every frame, max_tokens the cheapest frame's cost: anchored frames are counted too
  {
    name: 'anchors-every-tight',
    input: queryEnvelope('q-anchors-every-tight', {
      anchors: [...new Set(corpus.frames.map((f) => f.uri))],
      max_frames: 64,
      max_tokens: Math.min(...corpus.frames.map((f) => budgetTokens(f.content))),
    }),
  },
  { name: 'kinds', input: queryEnvelope('q-kinds', { kinds: ['snippet'] }) },
  { name: 'unusual-id', input: queryEnvelope('q-\u00fc\u00df-"q"-\\-\u2028-\u2603') },
  { name: 'kinds-unserved', input: queryEnvelope('q-kinds-unserved', { kinds: ['fact'] }) },
  { name: 'anchors', input: queryEnvelope('q-anchors', { anchors: [BACKOFF_URI] }) },
  { name: 'anchors-tight', input: queryEnvelope('q-anchors-tight', { anchors: [BACKOFF_URI], max_frames: 1 }) },
  // a relation target that is no frame's own uri (one hop only)
  { name: 'anchors-dangling', input: queryEnvelope('q-anchors-dangling', { anchors: [SYMBOL_ANCHOR], max_frames: 1 }) },
  { name: 'as-of', input: queryEnvelope('q-as-of', { as_of: AS_OF }) },
  { name: 'as-of-fraction', input: queryEnvelope('q-as-of-fraction', { as_of: '2026-06-30T23:59:59.5Z' }) },
  { name: 'embedding', input: queryEnvelope('q-embedding', { embedding: [0.5, -0.1, 0.2, 0, 0.3, -0.4, 0.1, 0.6] }) },
  { name: 'bad-embedding', input: queryEnvelope('q-bad-embedding', { embedding: [0] }) },
  { name: 'compact', input: queryEnvelope('q-compact', { representation_preferences: ['compact'] }) },
  { name: 'reference', input: queryEnvelope('q-reference', { representation_preferences: ['reference'] }) },
  { name: 'tight-tokens', input: queryEnvelope('q-tight-tokens', { max_tokens: 150 }) },
  { name: 'tight-frames', input: queryEnvelope('q-tight-frames', { max_frames: 2 }) },
  {
    name: 'unknown-members',
    input: { ...queryEnvelope('q-unknown-members', { x_future_hint: 'ignore me' }), x_trace: { span: 7 } },
  },
  {
    name: 'verify',
    input: {
      type: 'verify',
      id: 'v-1',
      request: {
        frames: [...VERIFY_IDENTITIES.served, VERIFY_IDENTITIES.compact, VERIFY_IDENTITIES.stale, VERIFY_IDENTITIES.gone, VERIFY_IDENTITIES.neverKnown, VERIFY_IDENTITIES.otherProvider],
      },
    },
  },
  // a malformed verify carrying an id: the error echoes it
  { name: 'verify-malformed', input: { type: 'verify', id: 'v-malformed', request: { frames: 'not a list' } } },
  // a malformed query carrying an id: the error echoes it too
  { name: 'query-malformed', input: { type: 'query', id: 'q-malformed', query: { goal: 'malformed on purpose', max_frames: 'many', max_tokens: 100 } } },
  { name: 'garbage', input: 'this is not valid json {{{' },
  { name: 'after-garbage', input: queryEnvelope('q-after-garbage') },
  { name: 'unknown-request', input: { type: 'subscribe', id: 's-1', request: { topic: 'frames' } } },
  { name: 'unknown-notification', input: { type: 'cgp-conformance-ping' } },
  // a valid query whose unknown member nests 512 deep: answered (frames or an error), never a crash
  { name: 'deep-nesting', input: `{"type":"query","id":"q-deep","query":${JSON.stringify({ ...SAMPLE_QUERY })},"x_nested":${'['.repeat(512)}${']'.repeat(512)}}` },
  // edges (docs/interpretations.md §111–§116)
  { name: 'zero-max-tokens', input: queryEnvelope('q-zero-max-tokens', { max_tokens: 0 }) },
  { name: 'frames-count-minus-one', input: queryEnvelope('q-frames-count-minus-one', { max_frames: corpus.frames.length - 1 }) },
  { name: 'tokens-total-minus-one', input: queryEnvelope('q-tokens-total-minus-one', { max_frames: 64, max_tokens: corpus.frames.reduce((a, f) => a + f.tokenCost, 0) - 1 }) },
  { name: 'numeric-id', input: queryEnvelope('007') },
  { name: 'short-embedding', input: queryEnvelope('q-short-embedding', { embedding: [0.5, -0.1, 0.2, 0, 0.3, -0.4, 0.1] }) },
  { name: 'empty-verify', input: { type: 'verify', id: 'v-empty', request: { frames: [] } } },
  { name: 'case-variant-members', input: queryEnvelope('q-case-variants', { Max_Frames: 0, MAX_TOKENS: 0, Kinds: ['cgp-conformance:none'] }) },
  { name: 'as-of-nanos', input: queryEnvelope('q-as-of-nanos', { as_of: '2026-06-30T23:59:59.000000001Z' }) },
  { name: 'as-of-off-profile', input: queryEnvelope('q-as-of-off-profile', { as_of: '2026-07-01t00:00:00z' }) },
  { name: 'anchors-second', input: queryEnvelope('q-anchors-second', { anchors: ['cgp-conformance:none', BACKOFF_URI], max_frames: 1 }) },
  { name: 'kinds-prefix', input: queryEnvelope('q-kinds-prefix', { kinds: ['do'] }) },
  { name: 'handshake-long-minor', input: { type: 'handshake', protocol_version: 'contextgraph/1.4294967296' } },
  { name: 'long-line', input: { ...queryEnvelope('q-long-line'), x_padding: 'x'.repeat(80 * 1024) } },
  { name: 'budget-overflow', input: queryEnvelope('q-budget-overflow', { max_tokens: 4294967296 }) },
  { name: 'very-deep-nesting', input: `{"type":"query","id":"q-very-deep","query":${JSON.stringify({ ...SAMPLE_QUERY })},"x_nested":${'['.repeat(100_000)}${']'.repeat(100_000)}}` },
  { name: 'shutdown', input: { type: 'shutdown' } },
];

export type Transcript = Map<string, Reply>;

/** Run the script against a fresh provider; stops after an exit action (the process would be gone). */
export async function runScript(misbehave?: string): Promise<Transcript> {
  const provider = createProvider({ misbehave, corpus });
  const out: Transcript = new Map();
  for (const step of STEPS) {
    const reply = await provider.handle(typeof step.input === 'string' ? step.input : JSON.stringify(step.input));
    out.set(step.name, reply);
    if (reply.action?.kind === 'exit') break;
  }
  return out;
}

/** A stable rendering of a transcript, for "differs from honest" comparisons. */
export function renderTranscript(t: Transcript): string {
  return JSON.stringify([...t].map(([step, r]) => ({ step, lines: r.lines, action: r.action ?? null })));
}

// ── oracle ─────────────────────────────────────────────────────────────────────────────────────────

function stepInput(name: string): JsonObject {
  const input = STEPS.find((s) => s.name === name)!.input;
  return typeof input === 'string' ? {} : input;
}

function first(t: Transcript, name: string): JsonObject | undefined {
  return t.get(name)?.envelopes[0];
}

function framesOf(t: Transcript, name: string): JsonObject[] | undefined {
  const env = first(t, name);
  if (env?.type !== 'frames' || !isJsonObject(env.result) || !Array.isArray(env.result.frames)) return undefined;
  return env.result.frames.filter(isJsonObject);
}

function isErrorWith(env: JsonObject | undefined, code: string): boolean {
  return env?.type === 'error' && env.code === code;
}

function anchoredBy(frame: JsonObject, anchor: string): boolean {
  return frame.uri === anchor || (Array.isArray(frame.relations) && frame.relations.some((r) => isJsonObject(r) && r.target_uri === anchor));
}

function sameIdentity(a: unknown, b: Record<string, unknown>): boolean {
  return isJsonObject(a) && a.provider_id === b.provider_id && a.frame_id === b.frame_id && a.content_digest === b.content_digest;
}

/** The bytes a harness re-reads for one file provenance link (uri + `L<a>-<b>`). */
export function rereadDigest(uri: string, range: string): string {
  const m = /^L(\d+)-(\d+)$/.exec(range);
  if (!m) throw new Error(`unexpected range ${range}`);
  return sha256Digest(lineRangeBytes(readFileSync(fileURLToPath(uri)), Number(m[1]), Number(m[2])));
}

/** Eligible frames for the unfiltered queries (the honest corpus). */
const ELIGIBLE = corpus.frames.length;

export function violations(t: Transcript): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (id: string, why: string) => out.set(id, [...(out.get(id) ?? []), why]);

  // Single-envelope checks (src/protocol) on every reply, with the query each frames envelope answers.
  const ack = first(t, 'handshake');
  for (const step of STEPS) {
    const reply = t.get(step.name);
    if (!reply) continue;
    const input = stepInput(step.name);
    for (const env of reply.envelopes) {
      const ctx = { query: input.query, providerName: PROVIDER_NAME, overTransport: true };
      for (const f of checkEnvelope(env, '', ctx)) add(f.id, `${step.name}: ${f.message}`);
    }
    if (reply.lines.some((l) => l.includes('\n'))) add('S2.1-no-newline', `${step.name}: a line holds a literal newline`);
  }

  // H3: a foreign-family handshake gets the named error, promptly.
  if (!isErrorWith(first(t, 'foreign-handshake'), 'incompatible_version')) add('H3', 'foreign handshake not refused with incompatible_version');
  // H1 against the host's version: an ack to the 2.0 handshake outside family contextgraph/2, and a 1.10 handshake not acked.
  const foreignAck = first(t, 'foreign-handshake');
  if (foreignAck?.type === 'handshake_ack' && !String(foreignAck.protocol_version).startsWith('contextgraph/2.')) add('H1', 'the 2.0 handshake was acked outside family contextgraph/2');
  if (first(t, 'handshake-minor-10')?.type !== 'handshake_ack') add('H1', 'a contextgraph/1.10 handshake (family contextgraph/1) was not acknowledged');
  for (const [step, family] of [
    ['handshake-major-10', 'contextgraph/10.'],
    ['handshake-major-0', 'contextgraph/0.'],
  ] as const) {
    const reply = first(t, step);
    if (!isErrorWith(reply, 'incompatible_version')) add('H3', `${step}: a foreign family not refused with incompatible_version`);
    if (reply?.type === 'handshake_ack' && !String(reply.protocol_version).startsWith(family)) add('H1', `${step}: acked outside the host's family`);
  }

  // H4: every frames/error reply echoes the request id; a verified reply never carries a different one.
  for (const step of STEPS) {
    const id = stepInput(step.name).id;
    if (id === undefined) continue;
    const reply = t.get(step.name);
    // a request carrying an id that gets no reply at all (silence, or an exit) has no id echoed either
    if (reply && ['query', 'verify'].includes(String(stepInput(step.name).type)) && reply.envelopes.length === 0) add('H4', `${step.name}: no reply to a request carrying id ${String(id)}`);
    for (const env of reply?.envelopes ?? []) {
      if ((env.type === 'frames' || env.type === 'error') && env.id !== id) add('H4', `${step.name}: id ${String(env.id)} ≠ ${String(id)}`);
      if (env.type === 'verified' && env.id !== undefined && env.id !== id) add('H4', `${step.name}: verified id ${String(env.id)}`);
    }
  }

  // B1/B3/B4 are witnessed on the sample answer: no answer at all is a failure of each.
  if (!framesOf(t, 'sample')) for (const id of ['B1', 'B3', 'B4']) add(id, 'sample query not answered with frames');

  // Q1: a served kind is answered (not refused); frames of other kinds are caught by checkEnvelope.
  if (!framesOf(t, 'kinds')) add('Q1', 'kinds [snippet] not answered with frames');
  // Q1 "Empty kinds means any kind": the sample (kinds []) is not emptier than a one-kind filter.
  if ((framesOf(t, 'sample') ?? []).length === 0 && (framesOf(t, 'kinds') ?? []).length > 0) add('Q1', 'kinds [] answered with no frame while kinds [snippet] has frames');

  // G4: anchored frames exist and must come back (ranked first); a tight budget keeps one.
  const anchored = framesOf(t, 'anchors');
  if (!anchored || !anchored[0] || !anchoredBy(anchored[0], BACKOFF_URI)) add('G4', 'first frame of the anchored answer is not anchored');
  const tight = framesOf(t, 'anchors-tight');
  if (!tight || !tight.some((f) => anchoredBy(f, BACKOFF_URI))) add('G4', 'tight anchored answer has no anchored frame');
  const dangling = framesOf(t, 'anchors-dangling');
  if (!dangling || !dangling.some((f) => anchoredBy(f, SYMBOL_ANCHOR))) add('G4', 'an answer anchored on a relation target that is no frame uri has no anchored frame');

  // S6.1-as-of: nothing valid only after the pin, nothing expired before it.
  const pinned = framesOf(t, 'as-of');
  if (!pinned) add('S6.1-as-of', 'as_of query not answered with frames');
  for (const f of pinned ?? []) {
    const started = compareProtocolTimestamps(f.valid_from, AS_OF);
    const ended = compareProtocolTimestamps(f.valid_to, AS_OF);
    if ((started !== undefined && started > 0) || (ended !== undefined && ended < 0)) add('S6.1-as-of', `${String(f.id)} not valid at the pin`);
  }

  // F4 profile: an as_of with fractional seconds is a grammatical pin, answered and honoured.
  const fraction = '2026-06-30T23:59:59.5Z';
  const fractional = framesOf(t, 'as-of-fraction');
  if (!fractional) add('S6.1-as-of', `as_of ${fraction} (fractional seconds) not answered with frames`);
  for (const f of fractional ?? []) {
    const ended = compareProtocolTimestamps(f.valid_to, fraction);
    if (ended !== undefined && ended < 0) add('S6.1-as-of', `${String(f.id)} expired before the fractional pin`);
  }

  // E1: a vector of the wrong length is refused with bad_request.
  if (!isErrorWith(first(t, 'bad-embedding'), 'bad_request')) add('E1', 'wrong-length embedding not refused');

  // P5: an unadvertised representation is refused (or falls back to full); served ⊆ advertised.
  const caps = isJsonObject(ack?.capabilities) ? ack.capabilities : {};
  const advertised = Array.isArray(caps.representations) ? caps.representations : ['full'];
  const refFrames = framesOf(t, 'reference');
  if (!isErrorWith(first(t, 'reference'), 'unsupported_representation') && !(refFrames ?? []).every((f) => f.representation === undefined)) {
    add('P5', 'unadvertised preference neither refused nor answered full');
  }
  for (const step of STEPS) {
    for (const f of framesOf(t, step.name) ?? []) {
      if (!advertised.includes(f.representation ?? 'full')) add('P5', `${step.name}: ${String(f.id)} is ${String(f.representation)}, not advertised`);
    }
  }

  // P4: a compact frame declares the cost of its distilled inline bytes, never the full-source cost.
  for (const f of framesOf(t, 'compact') ?? []) {
    if (f.representation === 'compact' && typeof f.content === 'string' && f.token_cost !== budgetTokens(f.content)) {
      add('P4', `${String(f.id)}: compact token_cost ${String(f.token_cost)} is not the inline cost ${budgetTokens(f.content)}`);
    }
  }

  // S6.2-digested-bytes: file provenance digests recompute from the fixture bytes.
  for (const f of framesOf(t, 'sample') ?? []) {
    for (const p of Array.isArray(f.provenance) ? f.provenance.filter(isJsonObject) : []) {
      if (p.type !== 'file' || typeof p.uri !== 'string' || typeof p.range !== 'string') continue;
      if (p.digest !== rereadDigest(p.uri, p.range)) add('S6.2-digested-bytes', `${String(f.id)}: ${String(p.digest)} does not match the bytes`);
    }
  }

  // oracle:truncated-honest (no SPEC id — see the silent-truncation entry's `unbacked`): truncated iff eligible frames were left out; dropped_estimate counts them.
  for (const name of ['sample', 'tight-tokens', 'tight-frames']) {
    const env = first(t, name);
    if (env?.type !== 'frames' || !isJsonObject(env.result) || !Array.isArray(env.result.frames)) continue;
    const left = ELIGIBLE - env.result.frames.length;
    if (env.result.truncated !== left > 0) add('oracle:truncated-honest', `${name}: truncated ${String(env.result.truncated)} with ${left} left out`);
    if (left > 0 && env.result.dropped_estimate !== left) add('oracle:truncated-honest', `${name}: dropped_estimate ${String(env.result.dropped_estimate)} ≠ ${left}`);
  }

  // U1: unknown members are ignored — the same frames as the sample.
  const ids = (fs: JsonObject[] | undefined) => JSON.stringify(fs?.map((f) => f.id));
  if (!framesOf(t, 'unknown-members') || ids(framesOf(t, 'unknown-members')) !== ids(framesOf(t, 'sample'))) {
    add('U1', 'query with unknown members not answered like the sample');
  }

  // V2–V4 on the verify step.
  const verified = first(t, 'verify');
  const verdicts = verified?.type === 'verified' && isJsonObject(verified.response) && Array.isArray(verified.response.verdicts) ? verified.response.verdicts.filter(isJsonObject) : undefined;
  const statusOf = (identity: Record<string, unknown>) => verdicts?.find((v) => sameIdentity(v.frame, identity))?.status;
  if (!verdicts) add('V2', 'verify not answered with verified');
  else {
    for (const identity of [...VERIFY_IDENTITIES.served, VERIFY_IDENTITIES.compact]) {
      if (statusOf(identity) !== 'valid') add('V2', `${identity.frame_id}: current identity answered ${String(statusOf(identity))}`);
    }
    for (const [what, identity] of Object.entries({
      stale: VERIFY_IDENTITIES.stale,
      gone: VERIFY_IDENTITIES.gone,
      neverKnown: VERIFY_IDENTITIES.neverKnown,
    })) {
      if (statusOf(identity) === 'valid') add('V3', `${what} identity answered valid`);
    }
    // an identity naming another provider: vouching for it is the S6.5.2-provider-id warning (interpretations §32)
    if (statusOf(VERIFY_IDENTITIES.otherProvider) === 'valid') add('S6.5.2-provider-id', 'an identity naming another provider answered valid');
    const stale = verdicts.find((v) => sameIdentity(v.frame, VERIFY_IDENTITIES.stale));
    const current = corpus.frames[1]!.contentDigest;
    if (stale?.replacement_digest !== undefined && (!isWellFormedDigest(stale.replacement_digest) || stale.replacement_digest !== current)) {
      add('V4', `replacement_digest ${String(stale.replacement_digest).slice(0, 40)} is not the current digest`);
    }
  }

  // §6.5 attestation: every signed frames answer is verified with src/attest against the published keys.
  for (const [id, why] of attestationViolations(t, ack)) add(id, why);

  // R1: a malformed line gets bad_request, and the next valid query is still answered.
  const garbage = t.get('garbage');
  if (!garbage || garbage.action?.kind === 'exit' || !isErrorWith(garbage.envelopes[0], 'bad_request')) add('R1', 'malformed line not answered bad_request');
  if (!framesOf(t, 'after-garbage')) add('R1', 'query after a malformed line not answered');
  if (t.get('deep-nesting')?.action?.kind === 'exit') add('R1', 'a deeply nested but valid line crashed the provider');

  // Edges (docs/interpretations.md §111–§116); B1 at max_tokens 0, H4 on "007" and Q1 on kinds ["do"] come from the checks above.
  if (!isErrorWith(first(t, 'short-embedding'), 'bad_request')) add('E1', 'a shorter-than-declared embedding not refused');
  if (t.get('empty-verify') && first(t, 'empty-verify')?.type !== 'verified') add('V2', 'an empty verify not answered with verified');
  if (t.get('case-variant-members') && ids(framesOf(t, 'case-variant-members')) !== ids(framesOf(t, 'sample'))) add('U1', 'a query carrying case variants of its members not answered like the sample');
  if (t.get('as-of-nanos') && !framesOf(t, 'as-of-nanos')) add('S6.1-as-of', 'an as_of with nine fractional digits not answered with frames');
  if (t.get('as-of-off-profile') && !isErrorWith(first(t, 'as-of-off-profile'), 'bad_request')) add('R1', 'an as_of off the F4 profile not refused with bad_request');
  const second = framesOf(t, 'anchors-second');
  if (t.get('anchors-second') && !second?.some((f) => anchoredBy(f, BACKOFF_URI))) add('G4', 'the second anchor of a list anchored nothing');
  if (t.get('handshake-long-minor') && first(t, 'handshake-long-minor')?.type !== 'handshake_ack') {
    add('H1', 'a contextgraph/1.4294967296 handshake (family contextgraph/1) was not acknowledged');
    add('S3.1-compare-families', 'a minor beyond u32 was read as another family');
  }
  const long = t.get('long-line');
  if (long && (long.envelopes.length !== 1 || long.envelopes[0]?.type !== 'frames')) add('R1', `an 80 KiB valid line got ${long.envelopes.length} envelope(s)`);
  for (const step of ['budget-overflow', 'very-deep-nesting']) if (t.get(step)?.action?.kind === 'exit') add('R1', `${step}: the provider exited`);

  // S2.1-unknown-type: an unknown request gets bad_request with its id; an unknown notification nothing.
  const unknownRequest = first(t, 'unknown-request');
  if (!isErrorWith(unknownRequest, 'bad_request') || unknownRequest?.id !== 's-1') add('S2.1-unknown-type', 'unknown request not answered bad_request');
  if ((t.get('unknown-notification')?.envelopes.length ?? 0) > 0) add('S2.1-unknown-type', 'unknown notification answered');

  // R2: shutdown ends the provider with exit code 0.
  const down = t.get('shutdown')?.action;
  if (!(down?.kind === 'exit' && down.code === 0)) add('R2', `shutdown action ${JSON.stringify(down ?? null)}`);

  return out;
}

// ── attestation (§6.5: F6–F8, F11–F13) ─────────────────────────────────────────────────────────────

const LOWER_HEX_64 = /^[0-9a-f]{64}$/;
const LOWER_HEX_128 = /^[0-9a-f]{128}$/;
const ATTESTATION_MEMBERS = ['attestation', 'attestations'];

/** Every ProvenanceAttestation a result carries (root and per-frame), wherever it sits. */
function attestationsOf(result: JsonObject): JsonObject[] {
  const out: JsonObject[] = [];
  if (isJsonObject(result.result_attestation)) out.push(result.result_attestation);
  for (const e of Array.isArray(result.frame_attestations) ? result.frame_attestations : []) {
    if (isJsonObject(e) && isJsonObject(e.attestation)) out.push(e.attestation);
  }
  return out;
}

/** Verification is pure: most modes repeat the honest answers, so each distinct answer is verified once. */
const verifiedAnswers = new Map<string, ReturnType<typeof verifyFrameAttestations>>();
function verifyMemo(frames: JsonObject[], result: JsonObject, keys: AttesterKeyInput[]): ReturnType<typeof verifyFrameAttestations> {
  const input = { frames: frames as unknown as CommittedFrame[], frame_attestations: result.frame_attestations, result_attestation: result.result_attestation };
  const key = JSON.stringify([input, keys]);
  let outcome = verifiedAnswers.get(key);
  if (!outcome) {
    outcome = verifyFrameAttestations(PROVIDER_NAME, input, keys);
    verifiedAnswers.set(key, outcome);
  }
  return outcome;
}

/**
 * The attestation oracle. Provider-side ids: F7 (a per-frame signed_commitment that is not the carried
 * frame's commitment), F11/F12/F13 (the verifier's structural findings), F11 for an attestation member
 * inside a frame (F6 itself comes from checkEnvelope), S2-wire-shape for an ed25519 key or signature that
 * is not 64 / 128 lowercase hex. F8 is the host-side rule the unknown-algorithm mode exists to exercise:
 * it is reported whenever an attestation uses an algorithm other than ed25519, i.e. whenever a verifier
 * is obliged to answer "uncheckable".
 */
export function attestationViolations(t: Transcript, ack: JsonObject | undefined): [string, string][] {
  const out: [string, string][] = [];
  const keys = (Array.isArray(ack?.attester_keys) ? ack.attester_keys.filter(isJsonObject) : []) as unknown as AttesterKeyInput[];
  for (const key of keys) {
    if (key.algorithm === RECOGNISED_ALGORITHM && !LOWER_HEX_64.test(String(key.public_key))) {
      out.push(['S2-wire-shape', `attester key ${key.key_id}: ed25519 public_key is not 64 lowercase hex (${String(key.public_key).length} chars)`]);
    }
    if (key.algorithm !== RECOGNISED_ALGORITHM) out.push(['F8', `attester key ${key.key_id} uses algorithm ${String(key.algorithm)}: a verifier must report uncheckable`]);
  }
  for (const step of STEPS) {
    const env = first(t, step.name);
    if (env?.type !== 'frames' || !isJsonObject(env.result) || !Array.isArray(env.result.frames)) continue;
    const result = env.result;
    const frames = env.result.frames.filter(isJsonObject);
    for (const f of frames) {
      for (const member of ATTESTATION_MEMBERS) {
        if (f[member] !== undefined) out.push(['F11', `${step.name}: ${String(f.id)} carries an "${member}" member; attestations travel beside frames`]);
      }
    }
    for (const a of attestationsOf(result)) {
      if (a.algorithm !== RECOGNISED_ALGORITHM) out.push(['F8', `${step.name}: attestation algorithm ${String(a.algorithm)}: a verifier must report uncheckable`]);
      else if (!LOWER_HEX_128.test(String(a.signature))) out.push(['S2-wire-shape', `${step.name}: ed25519 signature is not 128 lowercase hex`]);
    }
    if (result.frame_attestations === undefined && result.result_attestation === undefined) continue;
    const verified = verifyMemo(frames, result, keys);
    for (const f of verified.findings) if (f.severity === 'violation') out.push([f.anchor, `${step.name}: ${f.message}`]);
    for (const outcome of verified.frames) {
      for (const check of outcome.attestations) {
        if (check.verdict === 'commitment-mismatch') out.push(['F7', `${step.name}: ${outcome.frame.frame_id}: ${check.reason}`]);
      }
    }
  }
  return out;
}
