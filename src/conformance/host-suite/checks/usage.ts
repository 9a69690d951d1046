/**
 * Host-facing checks of the usage report (§7.3 UR1) and attribution (§14 A1–A3): pure functions from
 * what the host handed its caller (answers, composed prompt, usage report, attribution record) and
 * the model output the scenario gave it, to findings. Messages start with the id and say seen vs
 * required. The served frames are the host's admitted answers (what the scripted provider delivered
 * and the budget audit admitted); the usage report and the attribution record are judged against them
 * and against each other, never against the host's own totals.
 */
import type { FrameId } from '../../../../generated/types/index.js';
import type { AttributionRecord } from '../../../host/attribution.js';
import type { ComposedPrompt } from '../../../host/compose/types.js';
import type { ProviderAnswer } from '../../../host/types.js';
import type { UsageReport } from '../../../host/usage.js';
import { violation, warning, type Finding } from '../../../protocol/findings.js';
import { frameIdKey } from '../../../protocol/identity.js';
import { harnessPrecondition, showValue } from './text.js';
import type { ProviderIdentities } from '../identity.js';

const show = (value: unknown): string => showValue(value, 120);

/** B3: the cost a frame's inline content actually has, ceil(UTF-8 bytes / 4). */
function byteCost(content: unknown): number {
  return typeof content === 'string' ? Math.ceil(Buffer.byteLength(content, 'utf8') / 4) : 0;
}

interface Served {
  id: FrameId;
  cost: number;
}

/** The frames the admitted answers delivered, by FrameId key. */
function servedOf(answers: readonly ProviderAnswer[]): Map<string, Served> {
  const out = new Map<string, Served>();
  for (const a of answers) for (const f of a.frames) out.set(frameIdKey(f.frameId), { id: f.frameId, cost: byteCost(f.frame.content) });
  return out;
}

/** The FrameId triple with exactly its members, for comparing handles (A1) and billing keys (UR1). */
function sameTriple(a: unknown, b: FrameId): boolean {
  if (a === null || typeof a !== 'object') return false;
  const x = a as Record<string, unknown>;
  const keys = Object.keys(x).filter((k) => x[k] !== undefined);
  const y = b as unknown as Record<string, unknown>;
  const want = Object.keys(y).filter((k) => y[k] !== undefined);
  return keys.length === want.length && want.every((k) => x[k] === y[k]);
}

/** The frames a usage report bills: its `frames` (FrameIds or {frame, token_cost}), else its per-provider breakdown. */
function billedOf(report: UsageReport): Array<{ frame: unknown; cost: unknown }> {
  const flat = (report as UsageReport & { frames?: unknown }).frames;
  if (Array.isArray(flat)) {
    return flat.map((x) =>
      x !== null && typeof x === 'object' && 'frame' in x ? { frame: (x as { frame: unknown }).frame, cost: (x as { token_cost?: unknown }).token_cost } : { frame: x, cost: undefined },
    );
  }
  return (report.providers ?? []).flatMap((p) => (p.served_frames ?? []).map((s) => ({ frame: s?.frame as unknown, cost: s?.token_cost as unknown })));
}

/**
 * UR1 (MUST): the usage report of the executed query bills exactly the frames served, each referenced by
 * its full FrameId triple (and at its token_cost when the report says one), and budget_consumed equals the
 * summed token_cost (B3: ceil(content bytes / 4)) of those frames. A report that gives only the
 * per-provider breakdown (no flat `frames`) is also held to its own consistency (checkUsageReport).
 */
export function checkUsageBillsServed(report: UsageReport | undefined, answers: readonly ProviderAnswer[]): Finding[] {
  if (report === undefined) return [violation('UR1', '/', 'the host produced no usage report for the query it executed')];
  const flat = Array.isArray((report as UsageReport & { frames?: unknown }).frames);
  const out = flat ? [] : breakdownFindings(report);
  const served = servedOf(answers);
  if (served.size === 0 && out.length === 0) harnessPrecondition('UR1', 'the host holds no served frame to bill');
  if (served.size === 0) return out;
  const where = flat ? '/frames' : '/providers';
  const billed = new Map<string, { frame: unknown; cost: unknown }>();
  for (const b of billedOf(report)) {
    const frame = b.frame;
    if (frame !== null && typeof frame === 'object' && typeof (frame as FrameId).provider_id === 'string' && typeof (frame as FrameId).frame_id === 'string') {
      billed.set(frameIdKey(frame as FrameId), b);
    } else {
      out.push(violation('UR1', where, `the usage report bills ${show(frame)}, which is not a FrameId (provider id, frame id, content_digest)`));
    }
  }
  let total = 0;
  for (const [key, s] of served) {
    total += s.cost;
    const b = billed.get(key);
    if (b === undefined) {
      out.push(violation('UR1', where, `served frame ${key} is not referenced by its FrameId (provider id, frame id, content_digest) in the usage report`));
    } else {
      if (!sameTriple(b.frame, s.id)) out.push(violation('UR1', where, `served frame ${key} is billed under ${show(b.frame)}; required exactly its FrameId triple`));
      if (b.cost !== undefined && b.cost !== s.cost) out.push(violation('UR1', where, `served frame ${key} is billed ${show(b.cost)} tokens; its token_cost is ${s.cost}`));
    }
  }
  for (const key of billed.keys()) {
    if (!served.has(key)) out.push(violation('UR1', where, `the usage report bills ${key}, a frame the query did not serve`));
  }
  if (report.budget_consumed !== total) {
    out.push(violation('UR1', '/budget_consumed', `budget_consumed is ${show(report.budget_consumed)}; the served frames' summed token_cost is ${total}`));
  }
  return out;
}

/**
 * UR1 on a per-provider breakdown, reading only what the schema requires (`provider_id`) and the members
 * the host chose to give (`served_frames`, `token_cost`, `frames_served`): each billed frame is billed under
 * its own provider, and every total given agrees with the frames listed. Provider ids are compared through
 * the scenario's identity mapping (the view the contract layer hands the checks).
 */
function breakdownFindings(report: UsageReport): Finding[] {
  const out: Finding[] = [];
  (report.providers ?? []).forEach((p, i) => {
    const at = `/providers/${i}`;
    const served = Array.isArray(p.served_frames) ? p.served_frames : [];
    let sum = 0;
    let costed = true;
    served.forEach((s, j) => {
      const frame = s?.frame as unknown;
      if (frame !== null && typeof frame === 'object' && typeof (frame as FrameId).provider_id === 'string' && (frame as FrameId).provider_id !== p.provider_id) {
        out.push(violation('UR1', `${at}/served_frames/${j}/frame/provider_id`, `a frame of provider ${show((frame as FrameId).provider_id)} is billed under provider ${show(p.provider_id)}`));
      }
      if (typeof s?.token_cost === 'number') sum += s.token_cost;
      else costed = false;
    });
    if (typeof p.frames_served === 'number' && p.frames_served !== served.length) {
      out.push(violation('UR1', `${at}/frames_served`, `frames_served ${p.frames_served} ≠ ${served.length} served_frames listed`));
    }
    if (costed && typeof p.token_cost === 'number' && p.token_cost !== sum) {
      out.push(violation('UR1', `${at}/token_cost`, `provider ${show(p.provider_id)} token_cost ${p.token_cost} ≠ Σ its served frames' token_cost ${sum}`));
    }
  });
  return out;
}

/**
 * S6.5.2-provider-id (SHOULD, a warning; docs/interpretations.md §98): "`provider_id` is the provider's
 * handshake-declared `provider.name`" — a host's local id "is not a string the provider ever sees". Checked
 * where a FrameId leaves the host as an artifact: the usage report (its providers' ids and billed FrameIds)
 * and the attribution record. `raw` is the host's own value (before the identity mapping).
 */
export function checkProviderIdsAreNames(what: 'usage report' | 'attribution record', raw: unknown, identities: ProviderIdentities): Finding[] {
  const local = new Set<string>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.provider_id === 'string' && identities.isLocalId(o.provider_id)) local.add(o.provider_id);
      for (const [k, x] of Object.entries(o)) if (k !== 'usage') visit(x);
    }
  };
  visit(raw);
  return [...local].map((id) =>
    warning(
      'S6.5.2-provider-id',
      '/',
      `the ${what} names provider ${show(identities.nameOf(id))} by the host's local id ${show(id)}; provider_id is the provider's handshake provider.name (SPEC.md §6.5.2), the only identifier both ends of the wire observe`,
    ),
  );
}

/** A member of a use that names a handle of its own (A1: no separate attribution id). */
const MINTED = /(^id$|_id$|^handle$|^key$)/;

/**
 * A1 (MUST): every attribution record's handle is the FrameId triple of a frame served — the same
 * triple the usage report bills — and no record carries a separately minted id; every served frame
 * has its record under that handle.
 */
export function checkAttributionHandles(record: AttributionRecord | undefined, answers: readonly ProviderAnswer[]): Finding[] {
  if (record === undefined) return [violation('A1', '/', 'the host produced no attribution record')];
  const out: Finding[] = [];
  const served = servedOf(answers);
  const handled = new Set<string>();
  (record.uses ?? []).forEach((use, i) => {
    const at = `/uses/${i}`;
    const minted = Object.keys(use).filter((k) => k !== 'frame' && MINTED.test(k));
    if (minted.length > 0) out.push(violation('A1', at, `the record carries its own handle member(s) ${minted.join(', ')}; required: the FrameId is the only attribution handle`));
    const frame = use.frame as unknown;
    const match = [...served.values()].find((s) => sameTriple(frame, s.id));
    if (match === undefined) {
      out.push(violation('A1', `${at}/frame`, `attribution handle ${show(frame)} is not the FrameId (provider id, frame id, content_digest) of any frame served`));
    } else handled.add(frameIdKey(match.id));
  });
  for (const [key] of served) {
    if (!handled.has(key)) out.push(violation('A1', '/uses', `served frame ${key} has no attribution record under its FrameId`));
  }
  return out;
}

/** Whether `needle` occurs in `text` (the model output) as written. */
function mentions(text: string, needle: string): boolean {
  return needle !== '' && text.includes(needle);
}

/**
 * A2 (MUST): selected, rendered and cited are three boolean observations, and `cited` is an
 * observed fact: a frame is cited only if it was rendered (its label was in the prompt) and the
 * model output names it — its citation label, or its frame id — and a rendered frame whose citation
 * label the output quotes verbatim is cited.
 */
export function checkCitedObserved(record: AttributionRecord | undefined, composed: ComposedPrompt | undefined, modelOutput: string, answers: readonly ProviderAnswer[] = []): Finding[] {
  if (record === undefined || composed === undefined) return [violation('A2', '/', 'the host produced no attribution record (or no composed prompt) to observe')];
  const out: Finding[] = [];
  // rendered = a block of the composition. Its citation label: the block's `citation` when the host gives
  // one (optional), else the label the provider served, when the block's text carries it.
  const text = Buffer.from(composed.text ?? '', 'utf8');
  const servedLabel = new Map<string, string>();
  for (const a of answers) for (const f of a.frames) if (typeof f.frame.citation_label === 'string') servedLabel.set(`${f.frameId.provider_id}\u0000${f.frameId.frame_id}`, f.frame.citation_label);
  const labels = new Map((composed.frames ?? []).map((f) => [`${f.frameId.provider_id}\u0000${f.frameId.frame_id}`, f.citation]));
  const rendered = new Map(
    (composed.blocks ?? []).map((b) => {
      const key = `${b.frameId.provider_id}\u0000${b.frameId.frame_id}`;
      const blockText = Array.isArray(b.span) ? text.subarray(b.span[0], b.span[1]).toString('utf8') : '';
      const served = servedLabel.get(key);
      const citation = b.citation ?? labels.get(key) ?? (served !== undefined && served !== '' && blockText.includes(served) ? served : '');
      return [key, { citation }] as const;
    }),
  );
  (record.uses ?? []).forEach((use, i) => {
    const at = `/uses/${i}`;
    for (const flag of ['selected', 'rendered', 'cited'] as const) {
      if (typeof use[flag] !== 'boolean') out.push(violation('A2', `${at}/${flag}`, `${flag} is ${show(use[flag])}; required an independent boolean observation, not a score`));
    }
    const frame = use.frame as FrameId | undefined;
    if (frame === undefined || typeof frame.frame_id !== 'string') return; // A1's business
    const r = rendered.get(`${frame.provider_id}\u0000${frame.frame_id}`);
    const named = r !== undefined && (mentions(modelOutput, r.citation) || mentions(modelOutput, frame.frame_id));
    if (use.cited === true && !named) {
      out.push(
        violation(
          'A2',
          `${at}/cited`,
          `${frameIdKey(frame)} is reported cited, but ${r === undefined ? 'it was never rendered' : `the model output names neither its citation label ${show(r.citation)} nor its frame id`}; cited must be observed in the output, never inferred`,
        ),
      );
    }
    if (use.cited === false && r !== undefined && mentions(modelOutput, r.citation)) {
      out.push(violation('A2', `${at}/cited`, `the model output quotes the citation label ${show(r.citation)} of ${frameIdKey(frame)}, yet it is reported not cited`));
    }
  });
  return out;
}

/**
 * A3 (MUST): the record is reconcilable — coherent (cited ⇒ rendered ⇒ selected) and naming only frames
 * the paired usage report billed (its `frames`, or its per-provider `served_frames`). `cited ⇒ rendered` is
 * also held to what was observed: a frame the record calls cited has a block in the composition (the
 * scenario's model output names a frame that cannot have been rendered, docs/interpretations.md §103).
 * Reads only what the schemas require (uses[].frame and its three flags).
 */
export function checkAttributionReconcilable(record: AttributionRecord | undefined, usage: UsageReport | undefined, composed?: ComposedPrompt): Finding[] {
  if (record === undefined || usage === undefined) return [violation('A3', '/', 'the host produced no attribution record or no usage report to reconcile it with')];
  const out: Finding[] = [];
  const billed = new Set<string>();
  for (const b of billedOf(usage)) {
    const f = b.frame as FrameId | undefined;
    if (f !== null && typeof f === 'object' && typeof f.provider_id === 'string' && typeof f.frame_id === 'string') billed.add(frameIdKey(f));
  }
  const rendered = composed === undefined ? undefined : new Set((composed.blocks ?? []).map((b) => `${b.frameId.provider_id}\u0000${b.frameId.frame_id}`));
  (record.uses ?? []).forEach((use, i) => {
    const at = `/uses/${i}`;
    const f = use.frame as FrameId | undefined;
    if (f === null || typeof f !== 'object' || typeof f.provider_id !== 'string' || typeof f.frame_id !== 'string') return; // A1's business
    const name = frameIdKey(f);
    if (use.cited === true && use.rendered !== true) out.push(violation('A3', at, `${name} is cited but was not rendered (cited ⇒ rendered)`));
    if (use.rendered === true && use.selected !== true) out.push(violation('A3', at, `${name} is rendered but was not selected (rendered ⇒ selected)`));
    if (use.cited === true && rendered !== undefined && !rendered.has(`${f.provider_id}\u0000${f.frame_id}`)) {
      out.push(violation('A3', at, `${name} is reported cited, but the composition has no block for it: it was never rendered, so it cannot have been cited (cited ⇒ rendered)`));
    }
    if (!billed.has(name)) out.push(violation('A3', `${at}/frame`, `${name} is not billed by the paired usage report`));
  });
  if (billed.size > 0 && (record.uses ?? []).length === 0) out.push(violation('A3', '/uses', 'the attribution record names no frame although the usage report bills some; nothing reconciles'));
  return out;
}
