/**
 * Host-facing checks of the budget audit and of prompt composition: pure functions from what the
 * scenario observed (the fan-out result, the composed prompt the host handed back, its log) to
 * findings. Each message starts with the id it witnesses and says what was seen versus required.
 *
 *  - B2   (§7): a provider violating B1 is dropped whole, with a loud report naming it, what it
 *         declared and what was allowed — never silently truncated.
 *  - D2   (§6.3): frames with the same (provider id, frame id, content_digest) are one content:
 *         it reaches the prompt once.
 *  - F10  (§6.6): no cross-provider score threshold; no raw score presented as a cross-provider
 *         measure of relevance.
 *  - S6.6-single-provider-threshold (MAY): a threshold the caller sets on one provider's scores
 *         touches that provider only.
 *  - R3   (§11): content is quoted data — every block is fenced, nothing a provider sends can
 *         close its fence or forge a sibling block or attribute.
 *  - S6.4.1-unrehydratable-empty: a `reference` frame contributes empty content.
 *  - S7.2-budget-token: a model-token budget is mapped into budget tokens through a factor > 1.
 *  - S11-compose-reference (SHOULD, a warning): every offered frame is in the prompt or explained
 *         by a drop record in the audit; proven cross-provider duplicates are collapsed.
 *
 * The prompt is read with parseFences (the block format of src/host/compose/render.ts, which
 * `HostUnderTest.compose` returns).
 */
import type { ComposedPrompt } from '../../host/compose/types.js';
import { escapeAttribute, parseFences, type ParsedFence } from '../../host/compose/render.js';
import type { FanOutResult } from '../../host/fan-out.js';
import type { ProviderAnswer } from '../../host/types.js';
import { violation, warning, type Finding } from '../../protocol/findings.js';
import { frameIdKey } from '../../protocol/identity.js';
import { utf8ByteLength } from '../../protocol/token-cost.js';
import { describeError } from './check-text.js';

const describe = describeError;

/** The opening of a fence header for (provider, frame id), as the renderer escapes it. */
function headerPrefix(provider: string, id: string): string {
  return `<frame id="${escapeAttribute(id)}" provider="${escapeAttribute(provider)}" `;
}

function countOccurrences(text: string, needle: string): number {
  let n = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) n++;
  return n;
}

/** The fences of the prompt, or the reason it cannot be read as fenced blocks. */
export function fencesOf(composed: ComposedPrompt): { fences: ParsedFence[] } | { error: string } {
  try {
    return { fences: parseFences(composed.text) };
  } catch (err) {
    return { error: describe(err) };
  }
}

/** Why the host did not render a frame, as its audit says (or "no audit entry"). */
function auditReason(composed: ComposedPrompt, provider: string, id: string): string {
  const entry = composed.audit.find((e) => e.frame.provider_id === provider && e.frame.frame_id === id);
  if (entry === undefined) return 'no audit entry';
  if (entry.disposition === 'admitted') return 'audit says admitted';
  return `audit: dropped ${JSON.stringify(entry.reason)} — ${entry.detail}`;
}

// ── B2 ────────────────────────────────────────────────────────────────────────────────────────────

export interface OverBudgetProvider {
  label: string;
  /** Its handshake provider.name (the provider_id of its frames). */
  name: string;
  routingId: string;
  /** The frame ids it served. */
  servedIds: readonly string[];
  /** Σ token_cost it declared. */
  declaredTokens: number;
  /** The query's max_tokens. */
  maxTokens: number;
}

/**
 * B2 (§7): none of the violator's frames is kept (neither in the answers nor in the prompt), and the
 * host reported it loudly: a report (its budget audit or its log) naming the provider, its declared
 * total and the max_tokens allowed.
 */
export function checkOverBudgetDropped(
  p: OverBudgetProvider,
  fanOut: FanOutResult | undefined,
  composed: ComposedPrompt | undefined,
  logText: string,
  thrown: unknown,
): Finding[] {
  if (thrown !== undefined) return [violation('B2', '/', `the fan-out failed instead of dropping ${JSON.stringify(p.label)}: ${describe(thrown)}`)];
  if (fanOut === undefined) return [violation('B2', '/', 'the host returned no fan-out result')];
  const out: Finding[] = [];
  const kept = fanOut.answers.filter((a) => a.provider.routingId === p.routingId || a.provider.name === p.name).flatMap((a) => a.frames.map((f) => f.frameId.frame_id));
  if (kept.length > 0) {
    out.push(
      violation('B2', '/answers', `the host kept ${kept.length} of the ${p.servedIds.length} frames of provider ${JSON.stringify(p.name)} (${kept.map((k) => JSON.stringify(k)).join(', ')}) although it declared ${p.declaredTokens} tokens > max_tokens ${p.maxTokens}; required: drop all its frames, never truncate them`),
    );
  }
  if (composed !== undefined) {
    const rendered = p.servedIds.filter((id) => composed.text.includes(headerPrefix(p.name, id)));
    if (rendered.length > 0) {
      out.push(violation('B2', '/text', `the composed prompt holds frame(s) ${rendered.map((r) => JSON.stringify(r)).join(', ')} of over-budget provider ${JSON.stringify(p.name)}; required: none of its frames reaches the prompt`));
    }
  }
  const loud = (text: string) => text.includes(p.name) && text.includes(String(p.declaredTokens)) && text.includes(String(p.maxTokens));
  const audit = fanOut.audits.find((a) => a.routingId === p.routingId);
  const reportedInAudit = audit !== undefined && audit.admitted === false && loud(audit.report);
  const reportedInLog = logText.split('\n').some(loud);
  if (!reportedInAudit && !reportedInLog) {
    out.push(
      violation('B2', '/audits', `no loud report of the drop: neither the budget audit (${audit === undefined ? 'absent' : `admitted=${audit.admitted}, report ${JSON.stringify(audit.report)}`}) nor the host log names provider ${JSON.stringify(p.name)} with its declared ${p.declaredTokens} tokens and max_tokens ${p.maxTokens}; required: a loud report naming the provider, declared vs allowed`),
    );
  }
  return out;
}

// ── D2 ────────────────────────────────────────────────────────────────────────────────────────────

/**
 * D2 (§6.3): a FrameId triple offered more than once reaches the prompt exactly once. `offered` are
 * the answers the host composed from; the frame must have been offered twice with one triple (else
 * the scenario proves nothing and that is reported).
 */
export function checkSameFrameIdOnce(provider: string, id: string, offered: readonly ProviderAnswer[], composed: ComposedPrompt | undefined): Finding[] {
  if (composed === undefined) return [violation('D2', '/', 'the host composed no prompt')];
  const copies = offered.flatMap((a) => a.frames).filter((f) => f.frameId.provider_id === provider && f.frameId.frame_id === id);
  const triples = new Set(copies.map((f) => frameIdKey(f.frameId)));
  if (copies.length < 2 || triples.size !== 1) {
    return [violation('D2', '/answers', `expected the frame ${JSON.stringify(id)} of ${JSON.stringify(provider)} offered at least twice with one (provider id, frame id, content_digest), saw ${copies.length} cop(ies) with ${triples.size} distinct triple(s)`)];
  }
  const n = countOccurrences(composed.text, headerPrefix(provider, id));
  if (n === 1) return [];
  return [
    violation('D2', '/text', `the frame ${[...triples][0]} offered ${copies.length} times is rendered ${n} times in the prompt (${auditReason(composed, provider, id)}); required: the same (provider id, frame id, content_digest) is the same content, in the prompt once`),
  ];
}

// ── F10 / S6.6 ────────────────────────────────────────────────────────────────────────────────────

export interface ServedFrame {
  id: string;
  score: number;
}

/**
 * F10 (§6.6): with a budget that holds every offered frame, each frame of `provider` (whose scores
 * are low next to another provider's) reaches the prompt — nothing is cut by a score compared
 * across providers. `cause` says why every frame should have fitted.
 */
export function checkLowScoresKept(provider: string, served: readonly ServedFrame[], composed: ComposedPrompt | undefined, cause: string): Finding[] {
  if (composed === undefined) return [violation('F10', '/', 'the host composed no prompt')];
  const out: Finding[] = [];
  for (const f of served) {
    if (composed.text.includes(headerPrefix(provider, f.id))) continue;
    out.push(
      violation('F10', '/text', `frame ${JSON.stringify(f.id)} of provider ${JSON.stringify(provider)} (score ${f.score}) is not in the prompt (${auditReason(composed, provider, f.id)}) although ${cause}; required: no score threshold across providers — a score is provider-local and ordinal`),
    );
  }
  return out;
}

/** F10: no raw score served is presented in the prompt (a raw score is not a cross-provider measure of relevance). */
export function checkNoRawScores(served: readonly ServedFrame[], composed: ComposedPrompt | undefined): Finding[] {
  if (composed === undefined) return [violation('F10', '/', 'the host composed no prompt')];
  const shown = served.filter((f) => composed.text.includes(String(f.score)));
  if (shown.length === 0) return [];
  return [
    violation('F10', '/text', `the prompt presents raw provider score(s) ${shown.map((f) => `${f.score} (frame ${JSON.stringify(f.id)})`).join(', ')} to the model; required: never present a raw score as a cross-provider measure of relevance`),
  ];
}

/**
 * F10: a host that orders frames from several providers states that order as its own policy — the
 * composed output names its strategy and carries a policy note — never leaving it to pass as a
 * protocol guarantee.
 */
export function checkOrderDeclaredAsPolicy(composed: ComposedPrompt | undefined): Finding[] {
  if (composed === undefined) return [violation('F10', '/', 'the host composed no prompt')];
  const providers = new Set(composed.frames.map((f) => f.frameId.provider_id));
  if (providers.size < 2) {
    return [violation('F10', '/frames', `the prompt holds frames of ${providers.size} provider(s); the scenario needs frames of several providers to judge their ordering`)];
  }
  const out: Finding[] = [];
  if (typeof composed.strategy !== 'string' || composed.strategy.trim() === '') {
    out.push(violation('F10', '/strategy', `frames of ${providers.size} providers are ordered but the composition names no ranking strategy; required: a cross-provider order is documented as the host's own policy`));
  }
  if (typeof composed.policyNote !== 'string' || composed.policyNote.trim() === '') {
    out.push(violation('F10', '/policyNote', `frames of ${providers.size} providers are ordered (strategy ${JSON.stringify(composed.strategy)}) with no policy note; required: the order is stated as the host's policy choice, never as a protocol guarantee`));
  }
  return out;
}

/**
 * S6.6-single-provider-threshold (and F10): a threshold set on `thresholded`'s scores only must not
 * touch any other provider's frames. The threshold's own effect is a MAY, so it is not required.
 */
export function checkThresholdConfined(thresholded: string, threshold: number, others: ReadonlyMap<string, readonly ServedFrame[]>, composed: ComposedPrompt | undefined): Finding[] {
  const out: Finding[] = [];
  for (const [provider, served] of others) {
    const missed = checkLowScoresKept(provider, served, composed, `the only threshold given (${threshold}) is ${JSON.stringify(thresholded)}'s own and the budget holds every frame`);
    out.push(...missed);
    if (missed.length > 0 && composed !== undefined) {
      out.push(
        warning('S6.6-single-provider-threshold', '/text', `the threshold ${threshold} set for provider ${JSON.stringify(thresholded)} only was applied to ${JSON.stringify(provider)}'s frames too (${missed.length} missing); a threshold may apply to a single provider's scores only`),
      );
    }
  }
  return out;
}

// ── R3 ────────────────────────────────────────────────────────────────────────────────────────────

export interface OfferedBlock {
  provider: string;
  id: string;
  kind: string;
  /** A distinctive piece of the content that must stay inside this frame's own block. */
  marker: string;
}

/**
 * R3 (§11): the prompt is the preamble plus well-formed fenced blocks; every block names a frame that
 * was offered (no forged sibling); the hostile frame's attributes read back exactly as served, and
 * its content (marker included) stays inside its own block.
 */
export function checkFenced(hostile: OfferedBlock, offered: readonly ProviderAnswer[], composed: ComposedPrompt | undefined): Finding[] {
  if (composed === undefined) return [violation('R3', '/', 'the host composed no prompt')];
  const parsed = fencesOf(composed);
  if ('error' in parsed) return [violation('R3', '/text', `the composed prompt is not a sequence of well-formed fenced blocks (${parsed.error}); required: content delimited as quoted material`)];
  const out: Finding[] = [];
  const offeredIds = new Set(offered.flatMap((a) => a.frames.map((f) => JSON.stringify([f.frameId.provider_id, f.frameId.frame_id]))));
  for (const f of parsed.fences) {
    if (!offeredIds.has(JSON.stringify([f.provider, f.id]))) {
      out.push(violation('R3', '/text', `the prompt holds a block id=${JSON.stringify(f.id)} provider=${JSON.stringify(f.provider)} that no provider offered — served content escaped its fence and forged a sibling; required: content stays quoted inside its own block`));
    }
  }
  if (parsed.fences.length !== composed.frames.length) {
    out.push(violation('R3', '/text', `the prompt reads as ${parsed.fences.length} block(s) but the host admitted ${composed.frames.length} frame(s); required: one fenced block per admitted frame`));
  }
  const own = parsed.fences.filter((f) => f.provider === hostile.provider && f.id === hostile.id);
  if (own.length !== 1) {
    out.push(violation('R3', '/text', `the hostile frame ${JSON.stringify(hostile.id)} of ${JSON.stringify(hostile.provider)} reads back as ${own.length} block(s); required: exactly its own block, attributes escaped`));
  } else {
    if (own[0]!.kind !== hostile.kind) {
      out.push(violation('R3', '/text', `the hostile frame's kind attribute reads back as ${JSON.stringify(own[0]!.kind)}, served ${JSON.stringify(hostile.kind)}; required: attributes escaped so they cannot end their quotes or the tag`));
    }
    if (!own[0]!.content.includes(hostile.marker)) {
      out.push(violation('R3', '/text', `the text ${JSON.stringify(hostile.marker)} of frame ${JSON.stringify(hostile.id)} is not inside its own block (block content ${JSON.stringify(own[0]!.content.slice(0, 120))}); required: content stays quoted inside its fence`));
    }
  }
  return out;
}

// ── S6.4.1 ────────────────────────────────────────────────────────────────────────────────────────

/**
 * S6.4.1-unrehydratable-empty: a `reference` frame the host cannot rehydrate contributes nothing —
 * its block (if the host renders one) is empty, and neither its carried content (if it wrongly
 * carries one, P3) nor text made up from its title appears anywhere in the prompt.
 */
export function checkReferenceEmpty(
  provider: string,
  id: string,
  forbidden: readonly string[],
  offered: readonly ProviderAnswer[],
  composed: ComposedPrompt | undefined,
): Finding[] {
  const ID = 'S6.4.1-unrehydratable-empty';
  if (composed === undefined) return [violation(ID, '/', 'the host composed no prompt')];
  // Precondition: the (well-formed) reference frame reached composition, else nothing was proven.
  const ref = offered.flatMap((a) => a.frames).find((f) => f.frameId.provider_id === provider && f.frameId.frame_id === id);
  if (ref === undefined || ref.frame.representation !== 'reference') {
    return [violation(ID, '/answers', `the reference frame ${JSON.stringify(id)} of ${JSON.stringify(provider)} was not among the answers the host composed (${ref === undefined ? 'absent' : `representation ${JSON.stringify(ref.frame.representation)}`}); required: a well-formed reference frame is composed, with an empty contribution`)];
  }
  const parsed = fencesOf(composed);
  const out: Finding[] = [];
  if ('fences' in parsed) {
    for (const f of parsed.fences) {
      if (f.provider === provider && f.id === id && f.content !== '') {
        out.push(violation(ID, '/text', `the reference frame ${JSON.stringify(id)} of ${JSON.stringify(provider)} contributes ${utf8ByteLength(f.content)} bytes (${JSON.stringify(f.content.slice(0, 80))}); required: an unrehydratable reference contributes empty content`));
      }
    }
  }
  for (const text of forbidden) {
    if (text !== '' && composed.text.includes(text)) {
      out.push(violation(ID, '/text', `the prompt contains ${JSON.stringify(text)}, made from the reference frame ${JSON.stringify(id)} of ${JSON.stringify(provider)}; required: empty contribution, never fabricated content`));
    }
  }
  return out;
}

// ── S7.2 ──────────────────────────────────────────────────────────────────────────────────────────

/**
 * S7.2-budget-token: composing for a model budget of `modelTokens`, the host must not count one
 * budget token as one model token: the budget it packs against is below `modelTokens` (a safety
 * factor > 1), and the prompt's own budget-token cost ceil(utf8 bytes / 4) stays within it.
 */
export function checkModelBudgetMapped(modelTokens: number, composed: ComposedPrompt | undefined): Finding[] {
  const ID = 'S7.2-budget-token';
  if (composed === undefined) return [violation(ID, '/', 'the host composed no prompt')];
  const out: Finding[] = [];
  const cost = Math.ceil(utf8ByteLength(composed.text) / 4);
  const budget = composed.budget.budgetTokens;
  if (!(budget < modelTokens)) {
    out.push(violation(ID, '/budget/budgetTokens', `for a model budget of ${modelTokens} model tokens the host packed against ${budget} budget tokens (factor ${budget === 0 ? '∞' : (modelTokens / budget).toFixed(3)}); required: map model tokens into budget tokens through a safety factor > 1, never one for one`));
  }
  if (cost > budget) {
    out.push(violation(ID, '/text', `the prompt costs ceil(${utf8ByteLength(composed.text)}/4) = ${cost} budget tokens > the ${budget} the host reports it packed against (model budget ${modelTokens})`));
  }
  if (cost >= modelTokens) {
    out.push(violation(ID, '/text', `the prompt costs ${cost} budget tokens ≥ the model budget of ${modelTokens} model tokens; required: budget tokens are not model tokens — leave the safety margin`));
  }
  return out;
}

// ── S11 ───────────────────────────────────────────────────────────────────────────────────────────

/**
 * S11-compose-reference (SHOULD → warnings): the audit explains every offered frame that is not in
 * the prompt (a drop record with its reason), and `duplicates` — contents offered by several providers
 * with the same digest and bytes, proven duplicates — reach the prompt once.
 */
export function checkAuditExplainsDrops(offered: readonly ProviderAnswer[], composed: ComposedPrompt | undefined, duplicates: readonly string[]): Finding[] {
  const ID = 'S11-compose-reference';
  if (composed === undefined) return [warning(ID, '/', 'the host composed no prompt')];
  const out: Finding[] = [];
  const admitted = new Set(composed.frames.map((f) => frameIdKey(f.frameId)));
  const dropped = new Map(composed.audit.filter((e) => e.disposition === 'dropped').map((e) => [frameIdKey(e.frame), e]));
  for (const rf of offered.flatMap((a) => a.frames)) {
    const key = frameIdKey(rf.frameId);
    if (admitted.has(key)) continue;
    const entry = dropped.get(key);
    if (entry === undefined || entry.disposition !== 'dropped' || entry.reason === undefined || entry.detail === '') {
      out.push(warning(ID, '/audit', `frame ${key} was offered, is not in the prompt, and no audit record explains its drop; the reference composition audits every drop with its reason`));
    }
  }
  for (const content of duplicates) {
    const n = countOccurrences(composed.text, content);
    if (n !== 1) {
      out.push(warning(ID, '/text', `content ${JSON.stringify(content.slice(0, 60))} offered by several providers with one digest appears ${n} times in the prompt; the reference composition dedups proven duplicates across providers`));
    }
  }
  return out;
}

// ── what a scripted provider serves (mirrors the defaults of scripted-provider.cjs) ─────────────────

export interface ScriptedFrame {
  id: string;
  kind: string;
  score: number;
  title?: string;
  /** Inline content, when the frame carries one. */
  content?: string;
  /** Declared token_cost. */
  tokenCost: number;
  representation?: string;
}

/** The frames a scripted provider's config serves (rawFrames verbatim, else `serve` with its defaults). */
export function servedBy(config: Record<string, unknown>): ScriptedFrame[] {
  const cost = (s: string) => Math.ceil(utf8ByteLength(s) / 4);
  if (Array.isArray(config.rawFrames)) {
    return (config.rawFrames as Array<Record<string, unknown>>).map((f) => ({
      id: String(f.id),
      kind: String(f.kind),
      score: typeof f.score === 'number' ? f.score : NaN,
      ...(typeof f.title === 'string' ? { title: f.title } : {}),
      ...(typeof f.content === 'string' ? { content: f.content } : {}),
      tokenCost: typeof f.token_cost === 'number' ? f.token_cost : NaN,
      ...(typeof f.representation === 'string' ? { representation: f.representation } : {}),
    }));
  }
  const specs = Array.isArray(config.serve) ? (config.serve as Array<Record<string, unknown>>) : [{ id: 'frm_one', kind: 'doc' }];
  return specs.map((s) => {
    const id = String(s.id);
    const content = typeof s.content === 'string' ? s.content : `content of ${id}`;
    return {
      id,
      kind: typeof s.kind === 'string' ? s.kind : 'doc',
      score: typeof s.score === 'number' ? s.score : 0.5,
      title: typeof s.title === 'string' ? s.title : `title ${id}`,
      content,
      tokenCost: typeof s.token_cost === 'number' ? s.token_cost : cost(content),
    };
  });
}
