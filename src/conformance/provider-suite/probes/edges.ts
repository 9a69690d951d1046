/**
 * Edge probes (docs/interpretations.md §111–§116): each class of input at its edges — numeric bounds at 0 and at
 * both sides of their limits (B1, B4), a vector shorter than declared (E1), ids of every shape (H4), an empty
 * verify (V2), member names spelled in other case (U1), and the grammars a query carries at their edges (as_of:
 * S6.1-as-of; version strings: H1; kind names: Q1; anchor URIs: G4). Line-level edges (a line longer than a read
 * buffer, a line nested past a recursive parser's limit, numbers beyond u32, an as_of off the profile) are in
 * edges-wire.ts. Every reply still goes through ScenarioProbe.observe; what is added here is what only the
 * exchange knows.
 */
import { violation, warning } from '../../../protocol/findings.js';
import { fingerprintDimensions } from '../../../protocol/fingerprint.js';
import { describeValue, isJsonObject, type JsonObject } from '../../../protocol/json-value.js';
import { isProtocolTimestamp } from '../../../protocol/timestamp.js';
import type { RawEnvelope } from '../../../transport/ndjson.js';
import { isAnchoredBy } from '../checks.js';
import { GENEROUS, probeQuery, TYPICAL, type ScenarioProbe } from '../scenario.js';

/** The largest value of the schema's U32 (max_frames, max_tokens). */
export const U32_MAX = 4_294_967_295;

function seen(reply: RawEnvelope): string {
  return reply.type === 'error' ? `error ${JSON.stringify(reply.code)} (${JSON.stringify(reply.message)})` : `a "${reply.type}" envelope`;
}

function frameCount(reply: RawEnvelope): number {
  return isJsonObject(reply.result) && Array.isArray(reply.result.frames) ? reply.result.frames.length : 0;
}

/** One query, correlated when the target declares correlation; the reply is checked by observe (B1, B4, …). */
async function ask(p: ScenarioProbe, query: JsonObject, purpose: string): Promise<RawEnvelope> {
  const envelope: JsonObject = { type: 'query', query };
  if (p.correlation()) envelope.id = p.nextId();
  return p.exchange(envelope, purpose);
}

// ── numeric bounds (B1, B4; §111) ───────────────────────────────────────────────────────────────

/**
 * A budget query whose answer may be frames (checked against the budget by observe) or an error: nothing
 * returned cannot exceed a budget (B1 bounds the sum, B4 the count; neither requires frames).
 */
async function budgetQuery(p: ScenarioProbe, ids: readonly string[], maxFrames: number, maxTokens: number, purpose: string): Promise<RawEnvelope> {
  const reply = await ask(p, probeQuery({ max_frames: maxFrames, max_tokens: maxTokens }), purpose);
  if (reply.type === 'error') {
    for (const id of ids) p.ledger.witness(id);
    p.notes.push(`${purpose}: answered with ${seen(reply)} (nothing returned cannot exceed the budget: accepted)`);
  } else if (reply.type !== 'frames') p.fail(`${purpose}: got ${seen(reply)}; required frames or an error`);
  return reply;
}

/** B1 at 0: max_tokens 0 admits only frames costing 0 — zero frames (or reference frames), or an error. */
export async function queryZeroMaxTokens(p: ScenarioProbe): Promise<void> {
  const base = await p.baseline();
  if (!base.frames.some((f) => typeof f.token_cost === 'number' && f.token_cost > 0)) {
    p.ledger.unwitnessedBecause('B1', 'no frame the target serves has a positive token_cost, so max_tokens 0 excludes nothing');
  }
  await budgetQuery(p, ['B1'], GENEROUS.max_frames, 0, 'a query with max_tokens 0');
}

/**
 * B1 at both sides of its limit: max_tokens exactly the cheapest frame's cost and exactly the two cheapest
 * together (each fits; one token less is the tight probe of budget.feature), the whole answer's cost and one
 * less, and the top of its type (u32 max).
 */
export async function queryTokensAtLimits(p: ScenarioProbe): Promise<void> {
  const base = await p.baseline();
  const costs = base.frames
    .map((f) => (typeof f.token_cost === 'number' ? f.token_cost : 0))
    .filter((c) => c > 0)
    .sort((a, b) => a - b);
  const total = costs.reduce((a, c) => a + c, 0);
  const tokens = new Set<number>();
  if (costs.length >= 1) tokens.add(costs[0]!);
  if (costs.length >= 2) tokens.add(costs[0]! + costs[1]!);
  if (total > 0) {
    tokens.add(total);
    tokens.add(total - 1);
  }
  if (tokens.size === 0) p.ledger.unwitnessedBecause('B1', 'no frame the target serves has a positive token_cost, so no max_tokens binds');
  for (const t of [...tokens].sort((a, b) => a - b)) await budgetQuery(p, ['B1'], GENEROUS.max_frames, t, `a query with max_tokens ${t} (at a sum of served frames' costs, or one below)`);
  await budgetQuery(p, ['B1'], GENEROUS.max_frames, U32_MAX, `a query with max_tokens ${U32_MAX} (the largest u32)`);
}

/** B4 at both sides of its limit: max_frames exactly the served count and one less, and the top of its type (u32 max). */
export async function queryFramesAtLimits(p: ScenarioProbe): Promise<void> {
  const base = await p.baseline();
  const n = base.frames.length;
  if (n >= 2) {
    for (const f of [n - 1, n]) await budgetQuery(p, ['B4'], f, GENEROUS.max_tokens, `a query with max_frames ${f} (the target served ${n} frames to a generous query)`);
  } else p.ledger.unwitnessedBecause('B4', `the target serves ${n} frame(s); a max_frames one below the served count needs two`);
  await budgetQuery(p, ['B4'], U32_MAX, GENEROUS.max_tokens, `a query with max_frames ${U32_MAX} (the largest u32)`);
}

// ── embedding shorter than declared (E1; §112) ──────────────────────────────────────────────────

function unitVector(length: number): number[] {
  const raw = Array.from({ length }, (_, i) => Math.cos(i + 1));
  const norm = Math.sqrt(raw.reduce((a, x) => a + x * x, 0)) || 1;
  return raw.map((x) => x / norm);
}

/** E1 (provider SHOULD): a vector shorter than the declared dimension — one short, and empty — gets bad_request. */
export async function queryShortEmbeddings(p: ScenarioProbe): Promise<void> {
  const fingerprint = p.capabilities().embeddings_fingerprint;
  const dims = fingerprintDimensions(fingerprint);
  if (dims === undefined) p.fail(`embeddings_fingerprint ${JSON.stringify(fingerprint)} names no dimension (<model-id>/<dimensions>[/<normalization>])`);
  for (const length of [...new Set([dims - 1, 0])].filter((l) => l >= 0 && l !== dims)) {
    const purpose = `a query with a ${length}-dimensional embedding (declared ${fingerprint})`;
    const reply = await ask(p, probeQuery({ ...GENEROUS, embedding: unitVector(length) }), purpose);
    p.ledger.witness('E1');
    if (reply.type === 'error' && reply.code === 'bad_request') continue;
    const what = reply.type === 'frames' ? `${frameCount(reply)} frame(s)` : seen(reply);
    p.ledger.add([
      warning(
        'E1',
        '/query/embedding',
        `${purpose} was answered with ${what}; a vector whose length contradicts the declared dimension ${dims} SHOULD get error bad_request (shorter as well as longer)`,
      ),
    ]);
  }
}

// ── ids of every shape (H4; §113) ───────────────────────────────────────────────────────────────

/**
 * Ids the schema allows (a non-empty string) that a reader could take for something else: numbers, a number
 * with a leading zero, an exponent, a decimal, JSON keywords, a long id. Each must come back as the same string.
 */
export function idShapes(unique: string): string[] {
  const n = unique.replace(/[^0-9]/g, '').slice(-6) || '1';
  // the plain number comes last: a reply id a reader canonicalised ("00123" → "123") must not name an id sent earlier
  return [`00${n}`, `${n}e3`, `${n}.0`, `-${n}`, '0', 'true', 'null', ` ${n} `, `${unique}-${'x'.repeat(4096)}`, n];
}

/** H4: a query, a refused query and (when declared) a verify, each carrying ids of every shape. */
export async function idsOfEveryShape(p: ScenarioProbe): Promise<void> {
  const shapes = idShapes(p.nextId('shape'));
  const plain = shapes[shapes.length - 1]!;
  const query = async (id: string) => {
    const label = id.length > 40 ? `a ${id.length}-character id` : `id ${JSON.stringify(id)}`;
    await p.exchange({ type: 'query', id, query: probeQuery(TYPICAL) }, `a query carrying ${label}`);
  };
  for (const id of shapes.slice(0, -1)) await query(id);
  // a refused query: the error echoes the id too
  await p.exchange(
    { type: 'query', id: shapes[0]!, query: { goal: 'cgp-conformance probe: malformed on purpose', max_frames: 'many', max_tokens: 1 } },
    `a malformed query carrying id ${JSON.stringify(shapes[0])}`,
  );
  // a verify (correlated like a query, §9): its verified reply may leave the id off (docs/interpretations.md §4), never change it
  if (p.capabilities().verify === true) {
    const verify = { type: 'verify', id: shapes[1]!, request: { frames: [{ provider_id: p.providerName() || 'cgp-conformance', frame_id: 'cgp-conformance-never-served' }] } };
    const reply = await p.exchange(verify, `a verify carrying id ${JSON.stringify(verify.id)}`);
    p.ledger.witness('H4');
    if (reply.type === 'verified' && reply.id !== undefined && reply.id !== verify.id) {
      p.ledger.add([
        violation(
          'H4',
          '/id',
          `a verified reply carries id ${describeValue(reply.id)}; the verify carried id ${JSON.stringify(verify.id)}, which MUST come back verbatim when it comes back at all (docs/interpretations.md §4, §113)`,
        ),
      ]);
    }
  }
  await query(plain);
}

// ── an empty verify (V2; §114) ──────────────────────────────────────────────────────────────────

/** V2: a verify naming no identity (request.frames []) is still a verify, answered with a verified reply (no verdicts). */
export async function emptyVerify(p: ScenarioProbe): Promise<void> {
  const envelope: JsonObject = { type: 'verify', request: { frames: [] } };
  if (p.correlation()) envelope.id = p.nextId('v');
  const purpose = 'a verify naming no frame identity (request.frames [])';
  const reply = await p.exchange(envelope, purpose);
  p.ledger.witness('V2');
  if (reply.type !== 'verified') {
    p.ledger.add([
      violation(
        'V2',
        '',
        `${purpose} was answered with ${seen(reply)}; the schema allows an empty request.frames, and a provider declaring capabilities.verify MUST answer a verify with a verified reply (docs/interpretations.md §114)`,
      ),
    ]);
    return;
  }
  const verdicts = isJsonObject(reply.response) && Array.isArray(reply.response.verdicts) ? reply.response.verdicts : [];
  verdicts.forEach((v, i) => {
    p.ledger.add([violation('V2', `/response/verdicts/${i}`, `${purpose} got verdict ${describeValue(isJsonObject(v) ? v.frame : v)}, for an identity it did not ask about`)]);
  });
}

// ── member names compared exactly (U1; §115) ────────────────────────────────────────────────────

/**
 * U1: a member spelled in other case is another member — unknown, so ignored. A query carries its budget and
 * kinds, then the same names in other case with values that would empty the answer; an envelope carries `Type`
 * beside its `type`. An honest receiver answers as if the variants were not there.
 */
export async function caseVariantMembers(p: ScenarioProbe): Promise<void> {
  const base = await p.baseline();
  if (base.frames.length === 0) {
    p.ledger.unwitnessedBecause('U1', 'the target returned no frame to a generous query, so members that would empty its answer show nothing');
    return;
  }
  const variants = { Max_Frames: 0, MAX_TOKENS: 0, Kinds: ['cgp-conformance:no-such-kind'] };
  const cases: Array<{ envelope: JsonObject; purpose: string }> = [
    { envelope: { type: 'query', query: { ...probeQuery(GENEROUS), ...variants } }, purpose: `a query carrying ${Object.keys(variants).join(', ')} beside max_frames, max_tokens and kinds` },
    { envelope: { type: 'query', Type: 'cgp_conformance_unknown', query: probeQuery(GENEROUS) }, purpose: 'a query envelope carrying "Type" beside its "type"' },
  ];
  for (const { envelope, purpose } of cases) {
    if (p.correlation()) envelope.id = p.nextId('case');
    const reply = await p.exchange(envelope, purpose);
    p.ledger.witness('U1');
    if (reply.type === 'frames' && frameCount(reply) > 0) continue;
    const what = reply.type === 'frames' ? 'zero frames' : seen(reply);
    p.ledger.add([
      violation(
        'U1',
        '',
        `${purpose} was answered with ${what}, while the same query without them got ${base.frames.length} frame(s): member names are compared exactly, so a name in other case is an unknown member, which a receiver MUST ignore (docs/interpretations.md §115)`,
      ),
    ]);
  }
}

// ── grammars at their edges (§116) ──────────────────────────────────────────────────────────────

/**
 * S6.1-as-of at the edges of the F4 profile `YYYY-MM-DDTHH:MM:SS(.f+)?Z`: `.f+` is one or more digits — one,
 * three and nine — on instants at, and just after, a validity bound the target serves. Each grammatical pin is
 * answered and honoured (observe checks nothing here; the answer must be frames).
 */
export async function asOfProfileEdges(p: ScenarioProbe): Promise<void> {
  const base = await p.baseline();
  const bound = base.frames.map((f) => f.valid_to ?? f.valid_from).find((t): t is string => isProtocolTimestamp(t) && !t.includes('.'));
  const at = bound ?? '2026-07-01T00:00:00Z';
  const pins = [at.replace(/Z$/, '.0Z'), at.replace(/Z$/, '.000Z'), at.replace(/Z$/, '.000000001Z'), at.replace(/Z$/, '.999999999Z')];
  for (const pin of pins) {
    const reply = await ask(p, probeQuery({ ...GENEROUS, as_of: pin }), `a query with as_of ${pin} (fractional seconds, F4 profile)`);
    p.ledger.witness('S6.1-as-of');
    if (reply.type !== 'frames') {
      p.ledger.add([
        warning(
          'S6.1-as-of',
          '/query/as_of',
          `as_of ${pin} — grammatical under the F4 profile (.f+ is one or more digits) — was answered with ${seen(reply)}; as_of pins retrieval to an instant (docs/interpretations.md §116)`,
        ),
      ]);
    }
  }
}

/**
 * Q1 for kind names at their edges: a proper prefix of a served kind (`do` for `doc`) and a served kind with a
 * character appended are other kinds. Zero frames or unsupported_kind; never frames of the served kind.
 */
export async function kindNameEdges(p: ScenarioProbe): Promise<void> {
  const base = await p.baseline();
  const served = [...new Set(base.frames.map((f) => f.kind).filter((k): k is string => typeof k === 'string' && k.length >= 2))];
  if (served.length === 0) {
    p.ledger.unwitnessedBecause('Q1', 'the target served no frame whose kind is two characters or longer');
    return;
  }
  const names = new Set<string>();
  for (const k of served) {
    const prefix = k.slice(0, -1);
    if (!served.includes(prefix)) names.add(prefix);
    if (!served.includes(`${k}s`)) names.add(`${k}s`);
  }
  for (const name of names) {
    const purpose = `a query with kinds ${JSON.stringify([name])} (a served kind's name at its edge)`;
    const reply = await ask(p, probeQuery({ ...GENEROUS, kinds: [name] }), purpose);
    p.ledger.witness('Q1');
    if (reply.type === 'error') {
      if (reply.code !== 'unsupported_kind') {
        p.ledger.add([violation('Q1', '/code', `${purpose} answered with ${seen(reply)}; a provider serving none of the requested kinds returns zero frames, or replies unsupported_kind`)]);
      }
      continue;
    }
    // frames of another kind are Q1 findings of observe (a frame whose kind is outside the filter)
  }
}

/**
 * G4 for every anchor of the list, not only the first: anchored on a URI no frame carries, then on a frame's own
 * uri, with max_frames 1, the one frame returned must be anchored by the second.
 */
export async function secondAnchor(p: ScenarioProbe): Promise<void> {
  const base = await p.baseline();
  const top = base.frames[0];
  const candidates = [...base.frames]
    .reverse()
    .map((f) => f.uri)
    .filter((u): u is string => typeof u === 'string' && u !== '');
  const anchor = candidates.find((a) => top === undefined || !isAnchoredBy(top, [a])) ?? candidates[0];
  if (anchor === undefined) {
    p.ledger.unwitnessedBecause('G4', 'no frame of the unanchored answer carries a uri to anchor on');
    return;
  }
  const decoy = 'file:///cgp-conformance/no-frame-is-here';
  const anchors = [decoy, anchor];
  const answer = await p.query(probeQuery({ ...GENEROUS, max_frames: 1, anchors }), `a query anchored on ${JSON.stringify(anchors)} with max_frames 1`);
  p.ledger.witness('G4');
  if (!answer.frames.some((f) => isAnchoredBy(f, [anchor]))) {
    p.ledger.add([
      violation(
        'G4',
        '/result/frames',
        `given anchors ${JSON.stringify(anchors)} and max_frames 1, the ${answer.frames.length} frame(s) returned are not anchored by ${JSON.stringify(anchor)}, which a served frame carries as its uri: every anchor of the list counts, and a provider declaring capabilities.graph MUST return at least one anchored frame`,
      ),
    ]);
  }
}
