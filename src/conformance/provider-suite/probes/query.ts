/**
 * Query probes (§5–§8): budgets (B1, B3, B4), kinds (Q1), as_of (S6.1), anchors (G3, G4, S5), embeddings
 * (E1), representations (P1–P5, §6.4.1). Every reply goes through ScenarioProbe.observe (schema + protocol
 * checks); what is added here is what only the exchange knows: which frames the target has to serve, what
 * it was asked for, and how the answers must relate to each other.
 */
import { violation, warning } from '../../../protocol/findings.js';
import { fingerprintDimensions } from '../../../protocol/fingerprint.js';
import { isJsonObject, type JsonObject } from '../../../protocol/json-value.js';
import { compareProtocolTimestamps, formatProtocolTimestamp, isProtocolTimestamp } from '../../../protocol/timestamp.js';
import { FRAME_KINDS } from '../../../protocol/vocabulary.js';
import { isAnchoredBy } from '../checks.js';
import { GENEROUS, probeQuery, TYPICAL, type FramesAnswer, type ScenarioProbe } from '../scenario.js';

function frameName(frame: JsonObject): string {
  return typeof frame.id === 'string' ? JSON.stringify(frame.id) : '(no id)';
}

function costs(answer: FramesAnswer): number[] {
  return answer.frames.map((f) => (typeof f.token_cost === 'number' ? f.token_cost : 0)).sort((a, b) => a - b);
}

// ── budgets ─────────────────────────────────────────────────────────────────────────────────────

export async function queryGenerous(p: ScenarioProbe): Promise<void> {
  await p.baselineAsProbe();
}

export async function queryWithBudget(p: ScenarioProbe, maxFrames: number, maxTokens: number): Promise<void> {
  await p.query(probeQuery({ max_frames: maxFrames, max_tokens: maxTokens }), `a query with max_frames ${maxFrames} and max_tokens ${maxTokens}`);
}

/** max_frames N with a generous token budget; an error reply is accepted only for N = 0. */
export async function queryMaxFrames(p: ScenarioProbe, maxFrames: number): Promise<void> {
  const base = await p.baseline();
  if (base.frames.length <= maxFrames) {
    p.ledger.unwitnessedBecause('B4', `the target serves only ${base.frames.length} frame(s), so max_frames ${maxFrames} does not bind`);
  }
  const query = probeQuery({ max_frames: maxFrames, max_tokens: GENEROUS.max_tokens });
  const envelope: JsonObject = { type: 'query', query };
  if (p.correlation()) envelope.id = p.nextId();
  const reply = await p.exchange(envelope, `a query with max_frames ${maxFrames}`);
  if (reply.type === 'error') {
    // Nothing returned cannot exceed max_frames; only a frames reply is evidence.
    p.notes.push(`max_frames ${maxFrames} answered with error ${JSON.stringify(reply.code)}`);
    if (maxFrames > 0 && base.frames.length > 0) p.fail(`a query with max_frames ${maxFrames} got error ${JSON.stringify(reply.code)}; frames fit that budget, so required a frames reply`);
    p.ledger.witness('B4');
  } else if (reply.type !== 'frames') {
    p.fail(`a query with max_frames ${maxFrames} got a "${reply.type}" envelope; required frames (or an error)`);
  }
}

/** A max_tokens that admits the cheapest frame but not the two cheapest together. */
export async function queryTightTokens(p: ScenarioProbe): Promise<void> {
  const base = await p.baseline();
  const c = costs(base).filter((x) => x > 0);
  if (c.length < 2) {
    p.ledger.unwitnessedBecause('B1', `the target serves ${c.length} frame(s) with a positive token_cost; a tight budget needs two`);
    return;
  }
  const maxTokens = c[0]! + c[1]! - 1;
  const answer = await tightQuery(p, maxTokens, 'a query with max_tokens between one and two frames');
  if (answer && answer.frames.length === 0) {
    p.notes.push(`max_tokens ${maxTokens} admits a frame of cost ${c[0]}, yet zero frames came back`);
  }
}

/** A max_tokens below the cheapest frame: zero frames, or an error (budget_unsatisfiable). */
export async function queryBelowCheapest(p: ScenarioProbe): Promise<void> {
  const base = await p.baseline();
  const c = costs(base).filter((x) => x > 0);
  if (c.length === 0) {
    p.ledger.unwitnessedBecause('B1', 'no frame the target serves has a positive token_cost');
    return;
  }
  await tightQuery(p, c[0]! - 1, 'a query with max_tokens below the cheapest frame');
}

async function tightQuery(p: ScenarioProbe, maxTokens: number, purpose: string): Promise<FramesAnswer | undefined> {
  const query = probeQuery({ max_frames: GENEROUS.max_frames, max_tokens: maxTokens });
  const envelope: JsonObject = { type: 'query', query };
  if (p.correlation()) envelope.id = p.nextId();
  const reply = await p.exchange(envelope, `${purpose} (${maxTokens})`);
  if (reply.type === 'error') {
    p.notes.push(`${purpose} (max_tokens ${maxTokens}) answered with error ${JSON.stringify(reply.code)}`);
    p.ledger.witness('B1');
    return undefined;
  }
  if (reply.type !== 'frames') p.fail(`${purpose}: got a "${reply.type}" envelope; required frames or an error`);
  return p.answers[p.answers.length - 1];
}

// ── kinds (Q1) ──────────────────────────────────────────────────────────────────────────────────

function declaredKinds(p: ScenarioProbe): string[] {
  const q = p.capabilities().query;
  const kinds = isJsonObject(q) && Array.isArray(q.kinds) ? q.kinds : [];
  return kinds.filter((k): k is string => typeof k === 'string');
}

async function servedKinds(p: ScenarioProbe): Promise<{ declared: string[]; observed: string[]; all: string[] }> {
  const base = await p.baseline();
  const declared = declaredKinds(p);
  const observed = [...new Set(base.frames.map((f) => f.kind).filter((k): k is string => typeof k === 'string'))];
  return { declared, observed, all: [...new Set([...declared, ...observed])] };
}

/** Q1 with a kinds filter; refusing a kind the target declares or was just seen serving is a violation. */
async function kindsQuery(p: ScenarioProbe, kinds: string[], served: { declared: string[]; observed: string[] }): Promise<void> {
  const query = probeQuery({ ...GENEROUS, kinds });
  const envelope: JsonObject = { type: 'query', query };
  if (p.correlation()) envelope.id = p.nextId();
  const purpose = `a query with kinds ${JSON.stringify(kinds)}`;
  const reply = await p.exchange(envelope, purpose);
  if (reply.type === 'frames') return;
  if (reply.type !== 'error') p.fail(`${purpose}: got a "${reply.type}" envelope; required frames or error unsupported_kind`);
  const servedOnes = kinds.filter((k) => served.declared.includes(k) || served.observed.includes(k));
  p.ledger.witness('Q1');
  if (reply.code === 'unsupported_kind' && servedOnes.length === 0) return;
  const why =
    reply.code === 'unsupported_kind'
      ? `but the target ${served.observed.some((k) => servedOnes.includes(k)) ? 'returned frames of' : 'declares'} ${JSON.stringify(servedOnes)}; unsupported_kind is for "none of the requested kinds is served"`
      : `Q1 allows only zero frames or unsupported_kind for kinds it does not serve, and frames of the requested kinds otherwise`;
  p.ledger.add([violation('Q1', '/code', `${purpose} answered with error ${JSON.stringify(reply.code)} (${JSON.stringify(reply.message)}), ${why}`)]);
}

export async function queryEachKind(p: ScenarioProbe): Promise<void> {
  const served = await servedKinds(p);
  if (served.all.length === 0) p.ledger.unwitnessedBecause('Q1', 'the target declares no kinds and returned no frames');
  for (const kind of served.all) await kindsQuery(p, [kind], served);
  // Q1 "Empty kinds means any kind": the generous baseline (kinds: []) may not come back emptier than a filter
  // naming one kind — a provider answering kinds: [] with nothing would otherwise turn every frame check
  // not-applicable and pass on silence.
  const base = await p.baseline();
  if (served.all.length > 0) p.ledger.witness('Q1');
  if (base.frames.length > 0) return;
  const named = p.answers.filter((a) => Array.isArray(a.query.kinds) && a.query.kinds.length > 0 && a.frames.length > 0);
  if (named.length > 0) {
    const a = named[0]!;
    p.ledger.add([
      violation(
        'Q1',
        '/result/frames',
        `a query with kinds [] (empty = any kind) got 0 frames, but the same query with kinds ${JSON.stringify(a.query.kinds)} got ${a.frames.length}: empty kinds means any kind`,
      ),
    ]);
  }
}

export async function querySeveralKinds(p: ScenarioProbe): Promise<void> {
  const served = await servedKinds(p);
  if (served.all.length < 2) {
    p.ledger.unwitnessedBecause('Q1', `the target serves ${served.all.length} kind(s); a multi-kind filter needs two`);
    return;
  }
  // Leave at least one served kind out, so the filter has something to exclude.
  const kinds = served.all.length > 2 ? served.all.slice(0, 2) : [served.all[0]!];
  await kindsQuery(p, kinds, served);
  if (served.all.length === 2) await kindsQuery(p, served.all, served);
}

/**
 * Q1 "filter exactly": a served kind spelled in capitals (a kind the target does not serve) must not bring
 * back frames of the lower-case kind — kind names are compared as strings, not case-folded.
 */
export async function queryCapitalisedKind(p: ScenarioProbe): Promise<void> {
  const served = await servedKinds(p);
  const kind = served.all.map((k) => k.toUpperCase()).find((k) => !served.all.includes(k));
  if (kind === undefined) {
    p.ledger.unwitnessedBecause('Q1', 'no kind the target serves changes when spelled in capitals');
    return;
  }
  await kindsQuery(p, [kind], served);
}

export async function queryUnservedKind(p: ScenarioProbe): Promise<void> {
  const served = await servedKinds(p);
  const kind = FRAME_KINDS.find((k) => !served.all.includes(k)) ?? 'cgp-conformance:unserved-kind';
  await kindsQuery(p, [kind], served);
}

// ── as_of (S6.1) ────────────────────────────────────────────────────────────────────────────────

function shift(timestamp: string, seconds: number): string | undefined {
  const ms = Date.parse(timestamp);
  if (!Number.isFinite(ms)) return undefined;
  try {
    return formatProtocolTimestamp(new Date(Math.floor(ms / 1000) * 1000 + seconds * 1000));
  } catch {
    return undefined;
  }
}

/** Would a frame be out of its validity window at `pin`? */
function excludedAt(frame: JsonObject, pin: string): boolean {
  const from = compareProtocolTimestamps(frame.valid_from, pin);
  const to = compareProtocolTimestamps(frame.valid_to, pin);
  return (from !== undefined && from > 0) || (to !== undefined && to < 0);
}

/**
 * Pins derived from what the target serves: one second before a frame becomes valid, one second after a
 * frame stops being valid, plus the reference suite's 2026-07-01 pin. Each answered pin counts the frames of
 * the unpinned answer it should exclude as witnesses.
 */
export async function queryAsOfPins(p: ScenarioProbe): Promise<void> {
  const base = await p.baseline();
  const pins = new Set<string>(['2026-07-01T00:00:00Z']);
  for (const f of base.frames) {
    if (isProtocolTimestamp(f.valid_from)) {
      const pin = shift(f.valid_from, -1);
      if (pin) pins.add(pin);
    }
    if (isProtocolTimestamp(f.valid_to)) {
      const pin = shift(f.valid_to, 1);
      if (pin) pins.add(pin);
    }
  }
  const ordered = [...pins].sort().slice(0, 6);
  let excludable = 0;
  for (const pin of ordered) {
    await p.query(probeQuery({ ...GENEROUS, as_of: pin }), `a query with as_of ${pin}`);
    const n = base.frames.filter((f) => excludedAt(f, pin)).length;
    excludable += n;
    p.ledger.witness('S6.1-as-of', n);
  }
  // F4 profile edge: YYYY-MM-DDTHH:MM:SS(.f+)?Z admits fractional seconds. Half a second after a validity end is
  // a grammatical pin that still excludes the frame: it is answered, and honoured, like any other pin.
  const ended = base.frames.find((f) => isProtocolTimestamp(f.valid_to) && typeof f.valid_to === 'string' && !f.valid_to.includes('.'));
  if (ended && typeof ended.valid_to === 'string') {
    const pin = ended.valid_to.replace(/Z$/, '.5Z');
    const envelope: JsonObject = { type: 'query', query: probeQuery({ ...GENEROUS, as_of: pin }) };
    if (p.correlation()) envelope.id = p.nextId();
    const reply = await p.exchange(envelope, `a query with as_of ${pin} (fractional seconds, F4 profile)`);
    if (reply.type === 'frames') {
      excludable += 1;
      p.ledger.witness('S6.1-as-of');
    } else {
      const seen = reply.type === 'error' ? `error ${JSON.stringify(reply.code)} (${JSON.stringify(reply.message)})` : `a "${reply.type}" envelope`;
      p.ledger.add([
        warning('S6.1-as-of', '/query/as_of', `as_of ${pin} — grammatical under the F4 profile (fractional seconds allowed) — was answered with ${seen}; as_of pins retrieval to an instant`),
      ]);
    }
  }
  if (excludable === 0) {
    p.ledger.unwitnessedBecause('S6.1-as-of', 'no frame the target serves carries a valid_from/valid_to that an as_of pin could exclude');
  }
}

// ── anchors (G3, G4, S5-anchor-boost) ──────────────────────────────────────────────────────────

/**
 * zero-hop: a frame's own uri; one-hop: a relation target; one-hop-dangling: a relation target that is NO
 * served frame's uri (G4 compares strings: "any of its relations[].target_uri" — the target need not be a
 * node the provider serves).
 */
export type AnchorHop = 'zero-hop' | 'one-hop' | 'one-hop-dangling';

/**
 * An anchor URI taken from what the target serves, chosen (lowest-ranked first) so that the unanchored
 * answer's top frame is NOT anchored by it — then only anchoring can bring an anchored frame to the top.
 */
async function chooseAnchor(p: ScenarioProbe, hop: AnchorHop): Promise<string | undefined> {
  const base = await p.baseline();
  const top = base.frames[0];
  const candidates: string[] = [];
  const frameUris = new Set(base.frames.map((f) => f.uri).filter((u): u is string => typeof u === 'string'));
  for (const f of [...base.frames].reverse()) {
    if (hop === 'zero-hop' && typeof f.uri === 'string' && f.uri !== '') candidates.push(f.uri);
    if (hop !== 'zero-hop' && Array.isArray(f.relations)) {
      for (const r of f.relations) {
        if (!isJsonObject(r) || typeof r.target_uri !== 'string' || r.target_uri === '') continue;
        if (hop === 'one-hop-dangling' && frameUris.has(r.target_uri)) continue;
        candidates.push(r.target_uri);
      }
    }
  }
  const distinguishing = candidates.find((a) => top === undefined || !isAnchoredBy(top, [a]));
  if (distinguishing === undefined && candidates.length > 0) {
    p.notes.push(`every ${hop} anchor candidate also anchors the unanchored answer's top frame: ranking cannot be told apart`);
  }
  return distinguishing ?? candidates[0];
}

/**
 * G4: given an anchor the target has a frame for, the answer carries at least one anchored frame (MUST) —
 * with max_frames 1 the top frame must be anchored; with a generous budget anchored frames come first
 * (SHOULD: G4's second sentence; G3/S5-anchor-boost when the scenario checks those).
 */
export async function queryAnchored(p: ScenarioProbe, hop: AnchorHop, maxFrames: number): Promise<void> {
  const base = await p.baseline();
  const ruleIds = p.ids.filter((id) => ['G3', 'G4', 'S5-anchor-boost'].includes(id));
  const anchor = await chooseAnchor(p, hop);
  if (anchor === undefined) {
    const what = hop === 'zero-hop' ? 'no frame carries a uri' : hop === 'one-hop' ? 'no frame carries a relation' : "no relation target is other than some served frame's uri";
    for (const id of ruleIds) p.ledger.unwitnessedBecause(id, `${what} in the unanchored answer, so there is no ${hop} anchor to probe with`);
    if (hop === 'one-hop' && p.capabilities().graph === true) {
      p.ledger.add([warning('G3', '/result/frames', 'the target declares capabilities.graph but none of the frames it served carries a relation: there is nothing to boost')]);
    }
    return;
  }
  const servable = base.frames.filter((f) => isAnchoredBy(f, [anchor]));
  const answer = await p.query(probeQuery({ ...GENEROUS, max_frames: maxFrames, anchors: [anchor] }), `a query anchored (${hop}) on ${anchor} with max_frames ${maxFrames}`);
  const anchored = answer.frames.map((f) => isAnchoredBy(f, [anchor]));
  if (servable.length > 0) {
    p.ledger.witness('G4');
    if (!anchored.includes(true)) {
      p.ledger.add([
        violation(
          'G4',
          '/result/frames',
          `given anchors [${JSON.stringify(anchor)}] (${hop}) and max_frames ${maxFrames}, none of the ${answer.frames.length} returned frame(s) is anchored (own uri or a relation target equal to the anchor); the target serves anchored frame(s) ${servable.map(frameName).join(', ')}, so it MUST return at least one`,
        ),
      ]);
    }
  }
  // Ranking: every anchored frame before every unanchored one.
  const firstUnanchored = anchored.indexOf(false);
  const lateAnchored = anchored.lastIndexOf(true);
  if (anchored.includes(true) && anchored.includes(false)) {
    for (const id of ruleIds) p.ledger.witness(id);
    if (firstUnanchored < lateAnchored) {
      const detail = `given anchors [${JSON.stringify(anchor)}] (${hop}), unanchored frame ${frameName(answer.frames[firstUnanchored]!)} (rank ${firstUnanchored + 1}) precedes anchored frame ${frameName(answer.frames[lateAnchored]!)} (rank ${lateAnchored + 1})`;
      const findings = [warning('G4', '/result/frames', `${detail}; anchored frames SHOULD rank above unanchored ones`)];
      if (p.ids.includes('G3')) findings.push(warning('G3', '/result/frames', `${detail}; a graph provider SHOULD boost frames near a query anchor`));
      if (p.ids.includes('S5-anchor-boost'))
        findings.push(warning('S5-anchor-boost', '/result/frames', `${detail}; a graph-capable provider SHOULD boost frames within a small number of relation hops of an anchor`));
      p.ledger.add(findings);
    }
  } else if (ruleIds.some((id) => id !== 'G4')) {
    for (const id of ruleIds) p.ledger.unwitnessedBecause(id, `the anchored answer is all ${anchored.includes(true) ? 'anchored' : 'unanchored'}; ranking cannot be observed`);
  }
}

// ── embeddings (E1) ─────────────────────────────────────────────────────────────────────────────

function unitVector(length: number): number[] {
  const raw = Array.from({ length }, (_, i) => Math.sin(i + 1));
  const norm = Math.sqrt(raw.reduce((a, x) => a + x * x, 0)) || 1;
  return raw.map((x) => x / norm);
}

/** E1 (provider SHOULD): a vector whose length contradicts the declared dimension gets bad_request. */
export async function queryEmbedding(p: ScenarioProbe, which: 'wrong' | 'declared'): Promise<void> {
  const fingerprint = p.capabilities().embeddings_fingerprint;
  const dims = fingerprintDimensions(fingerprint);
  if (dims === undefined) p.fail(`embeddings_fingerprint ${JSON.stringify(fingerprint)} names no dimension (<model-id>/<dimensions>[/<normalization>])`);
  const length = which === 'declared' ? dims : dims + 1;
  const query = probeQuery({ ...GENEROUS, embedding: unitVector(length) });
  const envelope: JsonObject = { type: 'query', query };
  if (p.correlation()) envelope.id = p.nextId();
  const purpose = `a query with a ${length}-dimensional embedding (declared ${fingerprint})`;
  const reply = await p.exchange(envelope, purpose);
  p.ledger.witness('E1');
  if (which === 'wrong') {
    if (reply.type === 'error' && reply.code === 'bad_request') return;
    const seen =
      reply.type === 'frames'
        ? `${Array.isArray((reply.result as JsonObject | undefined)?.frames) ? ((reply.result as JsonObject).frames as unknown[]).length : '?'} frame(s)`
        : reply.type === 'error'
          ? `error ${JSON.stringify(reply.code)}`
          : `a "${reply.type}" envelope`;
    p.ledger.add([warning('E1', '', `${purpose} was answered with ${seen}; a vector whose length contradicts the declared dimension ${dims} SHOULD get error bad_request`)]);
    return;
  }
  if (reply.type !== 'frames') {
    const seen = reply.type === 'error' ? `error ${JSON.stringify(reply.code)} (${JSON.stringify(reply.message)})` : `a "${reply.type}" envelope`;
    p.ledger.add([warning('E1', '', `${purpose} — the dimension the target declares — was answered with ${seen}; a host whose fingerprint equals the declared one may populate query.embedding`)]);
  }
}

// ── budget with anchors (B1) ────────────────────────────────────────────────────────────────────

/**
 * B1 holds for anchored frames too: anchored on every frame the target served (zero hops), with max_tokens the
 * cheapest of their costs, the frames returned may cost no more than that in total — an anchor changes what
 * is relevant, never what is counted.
 */
export async function queryAnchoredTightTokens(p: ScenarioProbe): Promise<void> {
  const base = await p.baseline();
  const frames = base.frames.filter((f) => typeof f.uri === 'string' && typeof f.token_cost === 'number' && f.token_cost > 0);
  if (frames.length < 2) {
    p.ledger.unwitnessedBecause('B1', 'fewer than two frames of the unanchored answer carry a uri and a positive token_cost, so no anchored answer can overrun a budget');
    return;
  }
  const cheapest = Math.min(...frames.map((f) => f.token_cost as number));
  const anchors = [...new Set(frames.map((f) => f.uri as string))];
  const purpose = `a query anchored on every frame it served (${anchors.length} uri(s)) with max_tokens ${cheapest}, the cheapest frame's cost`;
  const envelope: JsonObject = { type: 'query', query: probeQuery({ max_frames: GENEROUS.max_frames, max_tokens: cheapest, anchors }) };
  if (p.correlation()) envelope.id = p.nextId();
  const reply = await p.exchange(envelope, purpose);
  // B1 bounds the sum (anchored frames included), checked on arrival for a frames reply, however many frames
  // it carries. It does not require a provider to skip ahead to a frame that fits: zero frames, or error
  // budget_unsatisfiable from one that packs by rank and stops at the first frame that does not fit, are
  // both within the budget (docs/interpretations.md §89).
  if (reply.type === 'frames') return;
  if (reply.type === 'error' && reply.code === 'budget_unsatisfiable') {
    p.ledger.witness('B1');
    p.notes.push(`${purpose}: answered with error "budget_unsatisfiable" — no frame served, so none over the budget (accepted)`);
    return;
  }
  p.ledger.unwitnessedBecause('B1', `${purpose} was answered with ${reply.type === 'error' ? `error ${JSON.stringify(reply.code)}` : `a "${reply.type}" envelope`}, which carries no frames to sum`);
}

// ── representations (P1–P5, §6.4.1) ─────────────────────────────────────────────────────────────

/** The baseline (no preference ⇒ full) plus one query per advertised non-full representation. */
export async function queryEveryRepresentation(p: ScenarioProbe): Promise<void> {
  await p.baseline();
  // the probe of a representation scenario (P1–P5); for the frame checks (F, D, S6) the answers they read
  const own = p.ids.some((id) => /^P\d$/.test(id));
  for (const rep of p.advertised() ?? []) {
    if (rep === 'full') continue;
    const answer = p.query(probeQuery({ ...GENEROUS, representation_preferences: [rep] }), `a query preferring the ${rep} representation`);
    await (own ? answer : p.setup(answer));
  }
}

/** P5 (provider SHOULD): asked for an unadvertised representation, reply unsupported_representation or fall back to full. */
export async function queryUnadvertisedRepresentation(p: ScenarioProbe): Promise<void> {
  const advertised = p.advertised() ?? ['full'];
  const rep = ['reference', 'compact'].find((r) => !advertised.includes(r));
  if (rep === undefined) {
    p.ledger.unwitnessedBecause('P5', 'the target advertises every representation, so none can be requested unadvertised');
    return;
  }
  const query = probeQuery({ ...TYPICAL, representation_preferences: [rep] });
  const envelope: JsonObject = { type: 'query', query };
  if (p.correlation()) envelope.id = p.nextId();
  const purpose = `a query preferring ${JSON.stringify(rep)}, which the target does not advertise (${JSON.stringify(advertised)})`;
  const reply = await p.exchange(envelope, purpose, { requested: [] });
  p.ledger.witness('P5');
  if (reply.type === 'error') {
    if (reply.code !== 'unsupported_representation') {
      p.ledger.add([warning('P5', '/code', `${purpose} got error ${JSON.stringify(reply.code)}; SHOULD be error unsupported_representation, or a fall back to full`)]);
    }
    return;
  }
  if (reply.type !== 'frames') p.fail(`${purpose}: got a "${reply.type}" envelope; required frames or an error`);
  const frames = isJsonObject(reply.result) && Array.isArray(reply.result.frames) ? reply.result.frames.filter(isJsonObject) : [];
  // "Fall back" is to what the target serves when no preference is stated: full, or the advertised default
  // of a compact-first provider (no rule requires full by default; docs/interpretations.md §79).
  const defaults = new Set<string>(['full']);
  if (frames.some((f) => (f.representation ?? 'full') !== 'full')) {
    const base = await p.baseline();
    for (const f of base.frames) {
      const r = f.representation ?? 'full';
      if (typeof r === 'string' && advertised.includes(r)) defaults.add(r);
    }
  }
  frames.forEach((f, i) => {
    const served = f.representation ?? 'full';
    if (typeof served !== 'string' || !defaults.has(served)) {
      p.ledger.add([
        warning('P5', `/result/frames/${i}/representation`, `${purpose}: frame ${frameName(f)} is served as ${JSON.stringify(served)}; SHOULD reply unsupported_representation or fall back to full`),
      ]);
    }
  });
}
