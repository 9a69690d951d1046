/**
 * Attribution (§14, A1–A3): for every billed frame, three INDEPENDENT observations.
 *
 *  - handle = the FrameId triple (A1); no other attribution id exists.
 *  - `selected`: the frame entered the strategy's ranking (it survived the budget quarantine, the
 *    per-provider threshold and dedup) — whether or not the packer then found room for it.
 *  - `rendered`: the frame's fence is actually present in the composed prompt text (checked by
 *    parsing the text, not by trusting the frame list).
 *  - `cited`: OBSERVED in the model output the caller hands in — the frame's citation label as
 *    rendered (raw or attribute-escaped), or its frame id when that id names exactly one rendered
 *    frame, occurs literally. Never an inference about influence (A2). Matching rules (decision):
 *    case-sensitive; an occurrence must not run into a letter/digit/underscore on either side
 *    when the needle itself starts/ends with one (so "net.rs" is not found in "subnet.rs"); an
 *    occurrence lying inside an occurrence of another frame's LONGER label or id does not count
 *    (so "net.rs" inside "net.rs L1-5" cites only the frame labelled "net.rs L1-5"). Only a
 *    rendered frame has a label the model could have seen, so an unrendered frame is never cited.
 *
 * Which frames get a use: every frame the paired usage report billed, plus every frame the
 * composition selected or rendered (a record naming an unbilled frame is then caught by A3).
 * Frames of a quarantined provider were neither billed nor usable and get no use.
 */
import type { FrameId } from '../../generated/types/index.js';
import { violation, type Finding } from '../protocol/findings.js';
import { compareFrameIds, frameIdKey } from '../protocol/identity.js';
import { escapeAttribute, parseFences } from './compose/render.js';
import type { ComposedPrompt } from './compose/types.js';
import type { UsageReport } from './usage.js';

export interface ContextUse {
  frame: FrameId;
  selected: boolean;
  rendered: boolean;
  cited: boolean;
  /** What was observed in the model output when cited. */
  cited_via?: 'citation_label' | 'frame_id';
}

export interface AttributionSummary {
  /** Σ billed token_cost of cited frames. */
  cited_tokens: number;
  /** Σ billed token_cost of rendered frames. */
  rendered_tokens: number;
  /** Σ billed token_cost of rendered but not cited frames (paid for, read, unused). */
  uncited_rendered_tokens: number;
  /** cited_tokens / rendered_tokens, null when nothing was rendered. */
  cited_token_share: number | null;
}

export interface AttributionRecord {
  uses: ContextUse[];
  usage: UsageReport;
  summary: AttributionSummary;
  /** Observation caveats (a frame id shared by several rendered frames is not used as a handle, …). */
  notes: string[];
}

const WORD = /[\p{L}\p{N}_]/u;

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && ch !== '' && WORD.test(ch);
}

interface Needle {
  text: string;
  owner: string; // frameIdKey
  via: 'citation_label' | 'frame_id';
}

interface Occurrence {
  start: number;
  end: number;
  needle: Needle;
}

/** All boundary-respecting occurrences of the needles in `text`. */
function occurrences(text: string, needles: readonly Needle[]): Occurrence[] {
  const out: Occurrence[] = [];
  for (const needle of needles) {
    const t = needle.text;
    if (t === '') continue;
    const wordStart = isWordChar(String.fromCodePoint(t.codePointAt(0)!));
    const lastUnit = t.charCodeAt(t.length - 1);
    const wordEnd = isWordChar(lastUnit >= 0xdc00 && lastUnit <= 0xdfff ? t.slice(-2) : t.slice(-1));
    for (let at = text.indexOf(t); at !== -1; at = text.indexOf(t, at + 1)) {
      const end = at + t.length;
      if (wordStart && isWordChar(text[at - 1])) continue;
      if (wordEnd && isWordChar(text[end])) continue;
      out.push({ start: at, end, needle });
    }
  }
  return out;
}

/** Build the attribution record of one composed prompt, its usage report and the model's output. */
export function buildAttribution(composed: ComposedPrompt, usage: UsageReport, modelOutputText: string): AttributionRecord {
  const notes: string[] = [];
  // rendered: parse the text itself
  const renderedFences = new Set<string>();
  try {
    for (const fence of parseFences(composed.text)) renderedFences.add(JSON.stringify([fence.provider, fence.id, fence.cite]));
  } catch (err) {
    notes.push(`composed text does not parse as fenced blocks (${(err as Error).message}); no frame counts as rendered`);
  }
  const renderedKeys = new Set<string>();
  const renderedFrames = composed.frames.filter((f) => renderedFences.has(JSON.stringify([f.provider, f.frameId.frame_id, f.citation])));
  for (const f of renderedFrames) renderedKeys.add(frameIdKey(f.frameId));

  const selectedKeys = new Set<string>();
  const ids = new Map<string, FrameId>();
  for (const entry of composed.audit) {
    if (entry.selectionRank === undefined) continue;
    const key = frameIdKey(entry.frame);
    selectedKeys.add(key);
    ids.set(key, entry.frame);
  }
  for (const f of renderedFrames) ids.set(frameIdKey(f.frameId), f.frameId);

  // cited: observed in the model output
  const idCount = new Map<string, number>();
  for (const f of renderedFrames) idCount.set(f.frameId.frame_id, (idCount.get(f.frameId.frame_id) ?? 0) + 1);
  const needles: Needle[] = [];
  for (const f of renderedFrames) {
    const owner = frameIdKey(f.frameId);
    needles.push({ text: f.citation, owner, via: 'citation_label' });
    const escaped = escapeAttribute(f.citation);
    if (escaped !== f.citation) needles.push({ text: escaped, owner, via: 'citation_label' });
    if (idCount.get(f.frameId.frame_id) === 1) needles.push({ text: f.frameId.frame_id, owner, via: 'frame_id' });
  }
  for (const [id, count] of [...idCount].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    if (count > 1) notes.push(`frame id ${JSON.stringify(id)} names ${count} rendered frames; it is not used as a citation handle`);
  }
  const found = occurrences(modelOutputText, needles);
  const citedVia = new Map<string, 'citation_label' | 'frame_id'>();
  if (found.length > 0) {
    const sorted = found.slice().sort((a, b) => a.start - b.start || b.end - a.end);
    for (const occ of sorted) {
      const inside = sorted.some(
        (other) => other !== occ && other.needle.owner !== occ.needle.owner && other.start <= occ.start && other.end >= occ.end && other.end - other.start > occ.end - occ.start,
      );
      if (inside) continue;
      const prior = citedVia.get(occ.needle.owner);
      if (prior === undefined || (prior === 'frame_id' && occ.needle.via === 'citation_label')) citedVia.set(occ.needle.owner, occ.needle.via);
    }
  }

  // billed frames
  const billed = new Map<string, number>();
  for (const p of usage.providers ?? []) {
    for (const s of p.served_frames ?? []) {
      const key = frameIdKey(s.frame);
      if (!ids.has(key)) ids.set(key, s.frame);
      billed.set(key, (billed.get(key) ?? 0) + s.token_cost);
    }
  }

  const uses: ContextUse[] = [...ids.values()].sort(compareFrameIds).map((frame) => {
    const key = frameIdKey(frame);
    const via = citedVia.get(key);
    const use: ContextUse = { frame, selected: selectedKeys.has(key), rendered: renderedKeys.has(key), cited: via !== undefined };
    if (via !== undefined) use.cited_via = via;
    return use;
  });

  let cited = 0;
  let rendered = 0;
  for (const use of uses) {
    const cost = billed.get(frameIdKey(use.frame)) ?? 0;
    if (use.cited) cited += cost;
    if (use.rendered) rendered += cost;
  }
  return {
    uses,
    usage,
    summary: {
      cited_tokens: cited,
      rendered_tokens: rendered,
      uncited_rendered_tokens: uses.reduce((s, u) => s + (u.rendered && !u.cited ? (billed.get(frameIdKey(u.frame)) ?? 0) : 0), 0),
      cited_token_share: rendered === 0 ? null : cited / rendered,
    },
    notes,
  };
}

/** A3 (and A1/A2 shape): every use coherent (cited ⇒ rendered ⇒ selected) and billed by `usage`. */
export function checkAttribution(record: AttributionRecord, usage: UsageReport): Finding[] {
  const findings: Finding[] = [];
  const billed = new Set<string>();
  for (const p of usage.providers ?? []) for (const s of p.served_frames ?? []) billed.add(frameIdKey(s.frame));
  if (record.usage !== undefined && record.usage !== usage && JSON.stringify(record.usage) !== JSON.stringify(usage)) {
    findings.push(violation('A3', '/usage', 'the attribution record carries a different usage report than the one it is reconciled against'));
  }
  const seen = new Set<string>();
  (record.uses ?? []).forEach((use, i) => {
    const at = `/uses/${i}`;
    const f = use.frame as Partial<FrameId> | undefined;
    if (!f || typeof f.provider_id !== 'string' || f.provider_id === '' || typeof f.frame_id !== 'string' || f.frame_id === '') {
      findings.push(violation('A1', `${at}/frame`, "an attribution handle must be the frame's FrameId (provider_id, frame_id, content_digest)"));
      return;
    }
    const key = frameIdKey(use.frame);
    const name = key;
    if (seen.has(key)) findings.push(violation('A1', `${at}/frame`, `FrameId ${name} has more than one attribution record`));
    seen.add(key);
    for (const flag of ['selected', 'rendered', 'cited'] as const) {
      if (typeof use[flag] !== 'boolean') {
        findings.push(violation('A2', `${at}/${flag}`, `${flag} must be an independent boolean observation, got ${JSON.stringify(use[flag])}`));
      }
    }
    if (use.cited === true && use.rendered !== true) {
      findings.push(violation('A3', at, `${name} is cited but was not rendered (cited ⇒ rendered)`));
    }
    if (use.rendered === true && use.selected !== true) {
      findings.push(violation('A3', at, `${name} is rendered but was not selected (rendered ⇒ selected)`));
    }
    if (!billed.has(key)) {
      findings.push(violation('A3', `${at}/frame`, `${name} is not billed by the paired usage report`));
    }
  });
  return findings;
}
