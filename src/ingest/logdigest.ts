/**
 * The structured log distiller (docs/interpretations.md §68): mine the block's line templates
 * (drain.ts), then keep what answers the question and summarise the rest.
 *
 * - Frequent templates become one line each — count, line span, time range — and, when the template
 *   has categorical fields (method, path, status, level), one line per combination with its own count,
 *   time range and, for a contiguous group, its line range: `GET /api/v2/orders → 200 ×212, 10:00:00–10:06:39`
 *   then `→ 502 ×40, 10:04:10–10:04:49 (lines 251–290)`. Numeric fields are given as their spread
 *   (min–max, median), ids and ips as a distinct count.
 * - Quoted verbatim, each with its line number: the lines of rare templates, and lines whose fields
 *   are anomalous for their template — a 4xx/5xx status outside the template's usual class, an
 *   error-class level (or a warn-class one that is a minority), an alert word the template does not
 *   usually carry, a latency outlier (≥ 4× the template's median and ≥ 100 ms above it). Anomalies of
 *   one template and kind that come close together (gaps ≤ 5 lines) are a burst: its first and last
 *   lines are quoted and the middle is counted with its line range and time range.
 * - The intent weights both: a template or line that mentions one of the intent's terms is listed and
 *   quoted first.
 * - Every line not quoted is named by the closing `elided` line's ranges; `[full]` returns them all.
 */
import { DrainTree, tokenise, type FieldType, type Template, type Token, type TokenisedLine } from './drain.js';
import { intentHits } from './intent.js';
import { plural, clipLine } from './wording.js';

export interface LogDigestOptions {
  /** 1-based line number of the block's first line in its attachment. */
  firstLineNo: number;
  terms: readonly string[];
}

/** Lines quoted at most (after burst compression); rank decides which. */
export const MAX_QUOTED_LINES = 36;
/** Longest quoted line (chars); longer ones are clipped with a marker. */
const MAX_TEMPLATES = 14;
const MAX_GROUPS = 8;
const BURST_GAP = 5;
/** More scattered occurrences of one anomaly than this are quoted first and last, the rest counted. */
const RECURRING_MIN = 6;

const ERROR_LEVEL = /^(?:error|err|fatal|crit|critical|panic|severe|alert|emerg|e|f)$/i;
const WARN_LEVEL = /^(?:warn|warning|w)$/i;
const ALERT_WORDS =
  /\b(?:fail(?:ed|ure|ing|s)?|errors?|exception|denied|refused|timed? ?out|timeout|killed|oom|out of memory|panic|fatal|crash\w*|unhealthy|backoff|back-off|abort(?:ed)?|segfault|exit(?:ed)? (?:code|status) [1-9]\d*|✗|✘|FAIL|not ok)\b/i;

interface Line {
  no: number;
  text: string;
  tok: TokenisedLine;
  tpl: number;
}

type Reason = 'status' | 'error' | 'warn' | 'alert' | 'latency';
const REASON_RANK: Record<Reason, number> = { status: 5, error: 5, alert: 4, latency: 3, warn: 2 };

interface Quote {
  line: number; // index into lines
  rank: number;
  /** When this line opens a burst: the burst's other members (indices, ascending). */
  burst?: number[];
  label?: string;
}

function durationMs(v: string): number | undefined {
  const m = /^(-?\d+(?:\.\d+)?)([a-zµμ]*)$/.exec(v);
  if (!m) return undefined;
  const n = Number(m[1]);
  switch (m[2]) {
    case '':
    case 'ms':
      return n;
    case 's':
    case 'sec':
    case 'secs':
      return n * 1000;
    case 'us':
    case 'µs':
    case 'μs':
      return n / 1000;
    case 'ns':
      return n / 1e6;
    case 'm':
      return n * 60_000;
    case 'h':
      return n * 3_600_000;
    default:
      return undefined;
  }
}

function fmtMs(ms: number, unitless: boolean): string {
  if (unitless) return String(Math.round(ms * 1000) / 1000);
  if (ms >= 1000) return `${Math.round(ms / 100) / 10}s`;
  if (ms >= 1) return `${Math.round(ms)}ms`;
  return `${Math.round(ms * 1000)}µs`;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}

/** `251–290` / `7` / `3, 9, 12` / `3, 9, … 12` — line numbers, compactly. */
function ranges(nos: readonly number[], max = 8): string {
  const out: string[] = [];
  let i = 0;
  while (i < nos.length) {
    let j = i;
    while (j + 1 < nos.length && nos[j + 1] === nos[j]! + 1) j++;
    out.push(i === j ? `${nos[i]}` : `${nos[i]}–${nos[j]}`);
    i = j + 1;
  }
  if (out.length <= max) return out.join(', ');
  return `${out.slice(0, max - 1).join(', ')}, … ${out.at(-1)} (${out.length} ranges)`;
}

/** Where a template's lines are: their ranges when few, else the span they are scattered over. */
function where(nos: readonly number[]): string {
  if (nos.length === 1) return `line ${nos[0]}`;
  const r = ranges(nos, 3);
  if (!r.includes('…')) return `lines ${r}`;
  return `lines ${nos[0]}–${nos.at(-1)}, interleaved`;
}

function timeSpan(ls: readonly Line[]): string {
  let lo: Line | undefined;
  let hi: Line | undefined;
  for (const l of ls) {
    if (!l.tok.sortKey) continue;
    if (!lo || l.tok.sortKey < lo.tok.sortKey!) lo = l;
    if (!hi || l.tok.sortKey > hi.tok.sortKey!) hi = l;
  }
  if (!lo || !hi) return '';
  return lo.tok.clock === hi.tok.clock ? lo.tok.clock! : `${lo.tok.clock}–${hi.tok.clock}`;
}

/** A path with its query dropped and id-like segments folded (`/orders/8812` → `/orders/:id`). */
function normPath(p: string): string {
  const q = p.split(/[?#]/)[0]!;
  return q
    .split('/')
    .map((seg) => (/^\d+$/.test(seg) || /^[0-9a-f]{8,}$/i.test(seg) || /^[0-9a-f-]{36}$/i.test(seg) ? ':id' : seg))
    .join('/');
}

interface Slot {
  pos: number;
  type?: FieldType;
  name?: string;
}

interface TemplateInfo {
  id: number;
  keys: string[];
  lines: Line[];
  /** Variable slots whose value varies (constant ones are shown in `keys`). */
  slots: Slot[];
  /** Every variable slot, constant or not (what anomalies are judged on). */
  fieldSlots: Slot[];
  groupSlots: Slot[];
  intent: number;
  anomalous: number;
}

const GROUP_TYPES = new Set<FieldType>(['method', 'path', 'status', 'level']);

function slotsOf(keys: readonly string[], ls: readonly Line[]): Slot[] {
  const out: Slot[] = [];
  keys.forEach((k, pos) => {
    if (k !== '<*>' && !k.includes('<')) return;
    let type: FieldType | undefined;
    let name: string | undefined;
    let mixed = false;
    for (const l of ls) {
      const t = l.tok.tokens[pos];
      if (!t) continue;
      if (type === undefined && !mixed) {
        type = t.type;
        name = t.name;
        if (type === undefined) mixed = true;
      } else if (t.type !== type) {
        mixed = true;
      }
    }
    out.push(mixed || type === undefined ? { pos, ...(name ? { name } : {}) } : { pos, type, ...(name ? { name } : {}) });
  });
  return out;
}

function valueAt(l: Line, pos: number): Token | undefined {
  return l.tok.tokens[pos];
}

function slotValue(l: Line, s: Slot): string {
  const t = valueAt(l, s.pos);
  if (!t) return '';
  if (s.type === 'path') return normPath(t.value ?? t.text);
  return t.value ?? t.text;
}

function templateText(keys: readonly string[]): string {
  const t = keys.join(' ');
  return t.length > 220 ? `${t.slice(0, 220)} …` : t;
}

function statusClass(v: string): number {
  return Number(v[0]);
}

export function digestLog(text: string, opts: LogDigestOptions): string {
  const mined = mineTemplates(text, opts.firstLineNo);
  const { lines } = mined;
  const infos = mined.tree.templates.map((t) => analyseTemplate(t, lines, opts.terms));
  const indexOfLine = new Map<Line, number>();
  lines.forEach((l, i) => indexOfLine.set(l, i));
  const reasonOf = findAnomalies(infos, indexOfLine);
  const rare = rareTemplates(infos, Math.max(2, Math.ceil(lines.length * 0.01)));
  const quotes = quoteRareLines(infos, rare, reasonOf, indexOfLine, opts.terms).concat(compressAnomalies(reasonOf, lines, rare, opts.terms));
  const chosen = chooseQuotes(quotes);
  const quotedLines = new Set<number>();
  for (const q of chosen) {
    quotedLines.add(q.line);
    if (q.burst) quotedLines.add(q.burst.at(-1)!);
  }
  const listed = rankTemplates(infos, rare, quotedLines, indexOfLine);
  return summaryLines(mined, infos, reasonOf.size, listed, opts.terms)
    .concat(quotedLineEntries(chosen, lines), elidedLines(mined, quotedLines, opts.firstLineNo))
    .join('\n');
}

interface Mined {
  /** Every line of the block, blank ones included. */
  raw: string[];
  /** The non-blank lines, in order, each with its template. */
  lines: Line[];
  /** Indices into `raw` of the blank lines. */
  blank: number[];
  tree: DrainTree;
}

/** Tokenise each non-blank line and add it to the template tree. */
function mineTemplates(text: string, firstLineNo: number): Mined {
  const raw = text.split(/\r\n|\n|\r/);
  const tree = new DrainTree();
  const lines: Line[] = [];
  const blank: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const t = raw[i]!;
    if (t.trim() === '') {
      blank.push(i);
      continue;
    }
    const tok = tokenise(t);
    const idx = lines.length;
    const tpl = tree.add(
      tok.tokens.map((x) => x.key),
      idx,
    );
    lines.push({ no: firstLineNo + i, text: t, tok, tpl: tpl.id });
  }
  // a time is a time only where its template puts times: a line whose time token sits where the
  // template's other lines have something else (a MAC address, a hex dump) carries no time
  for (const l of lines) {
    if (l.tok.tsIndex === undefined) continue;
    const key = tree.templates[l.tpl]!.keys[l.tok.tsIndex];
    if (key === undefined || !key.includes('<timestamp>')) {
      delete l.tok.sortKey;
      delete l.tok.clock;
    }
  }
  return { raw, lines, blank, tree };
}

/** A template's slots: which are constant (shown as their value), which vary, which group its lines. */
function analyseTemplate(t: Template, lines: readonly Line[], terms: readonly string[]): TemplateInfo {
  const ls = t.members.map((m) => lines[m]!);
  const slots = slotsOf(t.keys, ls);
  // a slot with one value throughout is shown as that value in the template text
  const constant = new Map<number, string>();
  for (const sl of slots) {
    if (sl.type === 'timestamp' || ls.length < 2) continue;
    const first = ls[0]!.tok.tokens[sl.pos]?.text;
    if (first !== undefined && ls.every((l) => l.tok.tokens[sl.pos]?.text === first)) constant.set(sl.pos, first);
  }
  const groupSlots = slots.filter((s) => {
    if (constant.has(s.pos)) return false;
    if (!s.type || !GROUP_TYPES.has(s.type)) return false;
    if (s.type === 'status' || s.type === 'level' || s.type === 'method') return true;
    const distinct = new Set(ls.map((l) => slotValue(l, s)));
    return distinct.size <= 12;
  });
  const shown = t.keys.map((k, pos) => constant.get(pos) ?? k);
  return { id: t.id, keys: shown, lines: ls, slots: slots.filter((sl) => !constant.has(sl.pos)), fieldSlots: slots, groupSlots, intent: intentHits(shown.join(' '), terms), anomalous: 0 };
}

interface Anomaly {
  reason: Reason;
  key: string;
}

/** Whether a line is anomalous for its template, and why. */
type Judge = (l: Line) => Anomaly | undefined;

/** Each anomalous line (index into lines) with its reason; counts them on their template. */
function findAnomalies(infos: readonly TemplateInfo[], indexOfLine: ReadonlyMap<Line, number>): Map<number, Anomaly> {
  const reasonOf = new Map<number, Anomaly>();
  for (const info of infos) {
    const judge = anomalyJudge(info);
    for (const l of info.lines) {
      const r = judge(l);
      if (r) {
        reasonOf.set(indexOfLine.get(l)!, r);
        info.anomalous++;
      }
    }
  }
  return reasonOf;
}

/** The template's judges, first verdict wins: status, then level, then alert words, then latency. */
function anomalyJudge(info: TemplateInfo): Judge {
  const ls = info.lines;
  const statusSlot = info.fieldSlots.find((s) => s.type === 'status');
  const levelSlot = info.fieldSlots.find((s) => s.type === 'level');
  const durSlot = info.fieldSlots.find((s) => s.type === 'duration');
  const judges: Judge[] = [];
  if (statusSlot) judges.push(statusJudge(info, statusSlot));
  if (levelSlot) judges.push(levelJudge(ls, levelSlot));
  const alertCount = ls.filter((l) => ALERT_WORDS.test(l.text)).length;
  if (alertCount * 2 < ls.length) judges.push((l) => (ALERT_WORDS.test(l.text) ? { reason: 'alert', key: '' } : undefined));
  const latency = durSlot ? latencyJudge(ls, durSlot) : undefined;
  if (latency) judges.push(latency);
  return (l) => {
    for (const j of judges) {
      const r = j(l);
      if (r) return r;
    }
    return undefined;
  };
}

function statusJudge(info: TemplateInfo, statusSlot: Slot): Judge {
  // a status is judged against the usual class of its own group (same method and path): a 404 on a
  // path that always 404s is that path's normal, a 500 among a path's 302s is not; a 5xx always is
  const statusGroup = (l: Line) =>
    info.groupSlots
      .filter((s) => s !== statusSlot)
      .map((s) => slotValue(l, s))
      .join(' ');
  const classCount = new Map<string, Map<number, number>>();
  for (const l of info.lines) {
    const g = statusGroup(l);
    const c = statusClass(slotValue(l, statusSlot));
    const m = classCount.get(g) ?? new Map<number, number>();
    m.set(c, (m.get(c) ?? 0) + 1);
    classCount.set(g, m);
  }
  const usualClass = (g: string) => {
    let best = -1;
    let cls = 0;
    for (const [c, k] of classCount.get(g) ?? []) if (k > best) [cls, best] = [c, k];
    return cls;
  };
  return (l) => {
    const v = slotValue(l, statusSlot);
    const c = statusClass(v);
    return c === 5 || (c === 4 && c !== usualClass(statusGroup(l))) ? { reason: 'status', key: v } : undefined;
  };
}

/** An error-class level always; a warn-class one when warnings are a minority of the template. */
function levelJudge(ls: readonly Line[], levelSlot: Slot): Judge {
  const warnCount = ls.filter((l) => WARN_LEVEL.test(slotValue(l, levelSlot))).length;
  return (l) => {
    const v = slotValue(l, levelSlot);
    if (ERROR_LEVEL.test(v)) return { reason: 'error', key: v };
    if (WARN_LEVEL.test(v) && warnCount * 2 < ls.length) return { reason: 'warn', key: v };
    return undefined;
  };
}

/** Latency outliers against the template's median, when it has one (8+ measured lines). */
function latencyJudge(ls: readonly Line[], durSlot: Slot): Judge | undefined {
  if (ls.length < 8) return undefined;
  const vs = ls.map((l) => durationMs(slotValue(l, durSlot))).filter((v): v is number => v !== undefined);
  const med = vs.length >= 8 ? median(vs) : 0;
  const unitless = ls.every((l) => /^-?\d+(?:\.\d+)?$/.test(slotValue(l, durSlot)));
  if (!(med > 0)) return undefined;
  return (l) => {
    const v = durationMs(slotValue(l, durSlot));
    return v !== undefined && (unitless ? v > 4 * med && v - med >= 0.1 : v >= 4 * med && v - med >= 100) ? { reason: 'latency', key: '' } : undefined;
  };
}

/** Templates with so few lines that their lines are quoted rather than summarised. */
function rareTemplates(infos: readonly TemplateInfo[], rareMax: number): Set<number> {
  const rare = new Set<number>();
  for (const info of infos) if (info.lines.length <= rareMax) rare.add(info.id);
  return rare;
}

/** The lines of rare templates that are not anomalies (those are quoted as anomalies). */
function quoteRareLines(infos: readonly TemplateInfo[], rare: ReadonlySet<number>, reasonOf: ReadonlyMap<number, Anomaly>, indexOfLine: ReadonlyMap<Line, number>, terms: readonly string[]): Quote[] {
  const quotes: Quote[] = [];
  for (const info of infos) {
    if (!rare.has(info.id)) continue;
    for (const l of info.lines) {
      const i = indexOfLine.get(l)!;
      if (reasonOf.has(i)) continue;
      quotes.push({ line: i, rank: 2 + (intentHits(l.text, terms) > 0 ? 3 : 0) + (ALERT_WORDS.test(l.text) ? 2 : 0) });
    }
  }
  return quotes;
}

/** Anomalies by kind (template, reason, key), bursts and recurrences of one kind compressed. */
function compressAnomalies(reasonOf: ReadonlyMap<number, Anomaly>, lines: readonly Line[], rare: ReadonlySet<number>, terms: readonly string[]): Quote[] {
  const byKind = new Map<string, number[]>();
  for (const [i, r] of reasonOf) {
    const k = `${lines[i]!.tpl}|${r.reason}|${r.key}`;
    const list = byKind.get(k) ?? [];
    list.push(i);
    byKind.set(k, list);
  }
  const rankOf = (run: readonly number[], reason: Reason) => REASON_RANK[reason] + (run.some((i) => intentHits(lines[i]!.text, terms) > 0) ? 3 : 0) + (rare.has(lines[run[0]!]!.tpl) ? 1 : 0);
  const quotes: Quote[] = [];
  for (const [k, list] of byKind) {
    list.sort((a, b) => a - b);
    const reason = k.split('|')[1] as Reason;
    const key = k.split('|')[2]!;
    const what = reason === 'status' ? `status ${key}` : reason === 'error' || reason === 'warn' ? key : reason === 'latency' ? 'latency outliers' : 'alerts';
    for (const q of kindQuotes(splitBursts(list, lines), what, (run) => rankOf(run, reason))) quotes.push(q);
  }
  return quotes;
}

/** One kind's lines (ascending) as bursts (3+ lines with gaps ≤ BURST_GAP) and the singles between. */
function splitBursts(list: readonly number[], lines: readonly Line[]): { singles: number[]; bursts: number[][] } {
  const singles: number[] = [];
  const bursts: number[][] = [];
  let s = 0;
  while (s < list.length) {
    let e = s;
    while (e + 1 < list.length && lines[list[e + 1]!]!.no - lines[list[e]!]!.no <= BURST_GAP) e++;
    const run = list.slice(s, e + 1);
    if (run.length >= 3) bursts.push(run);
    else singles.push(...run);
    s = e + 1;
  }
  return { singles, bursts };
}

function kindQuotes({ singles, bursts }: { singles: number[]; bursts: number[][] }, what: string, rankOf: (run: readonly number[]) => number): Quote[] {
  const quotes: Quote[] = [];
  // bursts of one kind: the first two and the last quoted; any between them counted together
  bursts.forEach((run, b) => {
    if (bursts.length > 3 && b >= 2 && b < bursts.length - 1) return;
    quotes.push({ line: run[0]!, rank: rankOf(run) + 1, burst: run.slice(1), label: `burst of ${run.length} ${what}` });
  });
  if (bursts.length > 3) {
    const mid = bursts.slice(2, -1).flat();
    quotes.push({ line: mid[0]!, rank: rankOf(mid), burst: mid.slice(1), label: `${bursts.length - 3} more bursts of ${what}` });
  }
  // the same anomaly recurring apart (not a burst): its first and last occurrence, the rest counted
  if (singles.length > RECURRING_MIN) quotes.push({ line: singles[0]!, rank: rankOf(singles), burst: singles.slice(1), label: `${what} recurring ×${singles.length}` });
  else for (const i of singles) quotes.push({ line: i, rank: rankOf([i]) });
  return quotes;
}

/** The highest-ranked quotes that fit MAX_QUOTED_LINES (a burst costs its first and last line), in line order. */
function chooseQuotes(quotes: Quote[]): Quote[] {
  quotes.sort((a, b) => b.rank - a.rank || a.line - b.line);
  const chosen: Quote[] = [];
  let used = 0;
  for (const q of quotes) {
    const cost = q.burst ? 2 : 1;
    if (used + cost > MAX_QUOTED_LINES) continue;
    used += cost;
    chosen.push(q);
  }
  chosen.sort((a, b) => a.line - b.line);
  return chosen;
}

/** Templates to list (rare ones only while some line is unquoted): intent first, then anomalous, then by size. */
function rankTemplates(infos: readonly TemplateInfo[], rare: ReadonlySet<number>, quotedLines: ReadonlySet<number>, indexOfLine: ReadonlyMap<Line, number>): TemplateInfo[] {
  return infos
    .filter((t) => !rare.has(t.id) || t.lines.some((l) => !quotedLines.has(indexOfLine.get(l)!)))
    .sort((a, b) => (b.intent > 0 ? 1 : 0) - (a.intent > 0 ? 1 : 0) || (b.anomalous > 0 ? 1 : 0) - (a.anomalous > 0 ? 1 : 0) || b.lines.length - a.lines.length || a.id - b.id);
}

/** The header line, then one line per listed template (with its groups), then how many were left out. */
function summaryLines(m: Mined, infos: readonly TemplateInfo[], anomalies: number, listed: readonly TemplateInfo[], terms: readonly string[]): string[] {
  const out: string[] = [];
  const all = timeSpan(m.lines);
  out.push(`[${m.raw.length}-line log · ${plural(infos.length, 'template')}${all ? ` · ${all}` : ''}${anomalies ? ` · ${plural(anomalies, 'anomalous line')}` : ''}]`);
  const shown = listed.slice(0, MAX_TEMPLATES);
  for (const t of shown) {
    const nos = t.lines.map((l) => l.no);
    const span = timeSpan(t.lines);
    out.push(`×${t.lines.length} (${where(nos)})${span ? ` ${span}` : ''}: ${templateText(t.keys)}${spread(t)}`);
    for (const g of groupsOf(t, terms)) out.push(`  ${g}`);
  }
  if (listed.length > shown.length) {
    const rest = listed.slice(shown.length);
    out.push(
      `… ${plural(rest.length, 'more template')} (${plural(
        rest.reduce((k, t) => k + t.lines.length, 0),
        'line',
      )})`,
    );
  }
  return out;
}

/** `quoted:` and the chosen lines verbatim, in line order; a burst's count follows its first line, its last line takes its own place. */
function quotedLineEntries(chosen: readonly Quote[], lines: readonly Line[]): string[] {
  if (chosen.length === 0) return [];
  const entries: Array<{ no: number; seq: number; text: string }> = [];
  let seq = 0;
  for (const q of chosen) {
    const l = lines[q.line]!;
    entries.push({ no: l.no, seq: seq++, text: `L${l.no} ${clipLine(l.text)}` });
    if (q.burst) {
      const mid = q.burst.slice(0, -1);
      const last = lines[q.burst.at(-1)!]!;
      if (mid.length > 0) {
        const ms = mid.map((i) => lines[i]!);
        const span = timeSpan(ms);
        entries.push({
          no: l.no,
          seq: seq++,
          text: `… ${q.label}: ${plural(mid.length, 'more line')} like these (${mid.length === 1 ? 'line' : 'lines'} ${ranges(
            ms.map((x) => x.no),
            4,
          )})${span ? `, ${span}` : ''} …`,
        });
      } else entries.push({ no: l.no, seq: seq++, text: `… ${q.label} …` });
      entries.push({ no: last.no, seq: seq++, text: `L${last.no} ${clipLine(last.text)}` });
    }
  }
  entries.sort((a, b) => a.no - b.no || a.seq - b.seq);
  return ['quoted:', ...entries.map((e) => e.text)];
}

/** The closing `elided` line: every line not quoted, by number. */
function elidedLines(m: Mined, quotedLines: ReadonlySet<number>, firstLineNo: number): string[] {
  const quotedNos = new Set([...quotedLines].map((i) => m.lines[i]!.no));
  const elided: number[] = [];
  for (let i = 0; i < m.raw.length; i++) {
    const no = firstLineNo + i;
    if (!quotedNos.has(no)) elided.push(no);
  }
  if (elided.length === 0) return [];
  return [`elided (in [full]): lines ${ranges(elided, 1_000)}${m.blank.length ? ` (${plural(m.blank.length, 'blank line')})` : ''}`];
}

/** Numeric spread and distinct counts of a template's free slots (not its group slots). */
function spread(t: TemplateInfo): string {
  const parts: string[] = [];
  if (t.lines.length < 2) return '';
  for (const s of t.slots) {
    if (t.groupSlots.includes(s) || s.type === 'timestamp') continue;
    const label = s.name ?? `<${s.type ?? '*'}>`;
    const vals = t.lines.map((l) => slotValue(l, s));
    if (s.type === 'duration' || s.type === 'number') {
      const unitless = vals.every((v) => /^-?\d+(?:\.\d+)?$/.test(v));
      const ms = vals.map((v) => (s.type === 'duration' ? durationMs(v) : Number(/^-?\d+(?:\.\d+)?/.exec(v)?.[0]))).filter((v): v is number => v !== undefined && !Number.isNaN(v));
      if (ms.length === 0) continue;
      const lo = Math.min(...ms);
      const hi = Math.max(...ms);
      if (s.type === 'duration') parts.push(`${label} ${fmtMs(lo, unitless)}–${fmtMs(hi, unitless)} (median ${fmtMs(median(ms), unitless)})`);
      else if (lo !== hi) parts.push(`${label} ${lo}–${hi}`);
      continue;
    }
    const distinct = new Set(vals);
    const short = [...distinct].every((v) => v.length <= 32);
    if (distinct.size === 1 && short) parts.push(`${label} ${[...distinct][0]!}`);
    else if (distinct.size <= 3 && short) parts.push(`${label} ${[...distinct].join('|')}`);
    else parts.push(`${label} ${distinct.size} distinct`);
  }
  return parts.length > 0 ? `; ${parts.slice(0, 5).join(' · ')}` : '';
}

/** One line per combination of a template's categorical fields (status shown after `→`). */
function groupsOf(t: TemplateInfo, terms: readonly string[]): string[] {
  if (t.groupSlots.length === 0) return [];
  const status = t.groupSlots.find((s) => s.type === 'status');
  const others = t.groupSlots.filter((s) => s !== status);
  const groups = new Map<string, { label: string; status: string; lines: Line[] }>();
  for (const l of t.lines) {
    const label = others.map((s) => slotValue(l, s)).join(' ');
    const st = status ? slotValue(l, status) : '';
    const k = `${label}\u0000${st}`;
    const g = groups.get(k) ?? { label, status: st, lines: [] };
    g.lines.push(l);
    groups.set(k, g);
  }
  if (groups.size <= 1 && !status) return [];
  const durSlot = t.slots.find((s) => s.type === 'duration');
  const list = [...groups.values()].sort(
    (a, b) =>
      intentHits(b.label, terms) - intentHits(a.label, terms) ||
      byCount(a, b, groups) ||
      (a.label < b.label ? -1 : a.label > b.label ? 1 : 0) ||
      b.lines.length - a.lines.length ||
      (a.status < b.status ? -1 : 1),
  );
  // keep each label's groups together, labels in the order above, the label's groups by count
  const labels: string[] = [];
  for (const g of list) if (!labels.includes(g.label)) labels.push(g.label);
  const ordered = labels.flatMap((lab) => list.filter((g) => g.label === lab).sort((a, b) => b.lines.length - a.lines.length || (a.status < b.status ? -1 : 1)));
  const out: string[] = [];
  let prev: string | undefined;
  let shown = 0;
  const anomalousFirst = ordered.filter((g) => isAnomalousStatus(g.status)).slice(0, MAX_GROUPS);
  for (const g of ordered) {
    if (shown >= MAX_GROUPS && !anomalousFirst.includes(g)) continue;
    shown++;
    const nos = g.lines.map((l) => l.no);
    const contiguous = nos.length > 1 && nos.at(-1)! - nos[0]! + 1 === nos.length;
    const where = contiguous || nos.length <= 3 ? ` (${nos.length === 1 ? 'line' : 'lines'} ${ranges(nos, 3)})` : '';
    const span = timeSpan(g.lines);
    let dur = '';
    if (durSlot) {
      const ms = g.lines.map((l) => durationMs(slotValue(l, durSlot))).filter((v): v is number => v !== undefined);
      const unitless = g.lines.every((l) => /^-?\d+(?:\.\d+)?$/.test(slotValue(l, durSlot)));
      if (ms.length > 0) dur = `, ${durSlot.name ?? 'duration'} ${fmtMs(Math.min(...ms), unitless)}–${fmtMs(Math.max(...ms), unitless)} (median ${fmtMs(median(ms), unitless)})`;
    }
    const head = g.label === prev ? '' : g.label;
    const st = status ? `${head ? ' ' : ''}→ ${g.status}` : '';
    out.push(`${head}${st} ×${g.lines.length}${span ? `, ${span}` : ''}${dur}${where}`);
    prev = g.label;
  }
  const hidden = ordered.length - shown;
  if (hidden > 0) out.push(`… ${plural(hidden, 'more group')}`);
  return out;
}

function isAnomalousStatus(s: string): boolean {
  return /^[45]\d\d$/.test(s);
}

function byCount(a: { label: string; lines: Line[] }, b: { label: string; lines: Line[] }, groups: Map<string, { label: string; lines: Line[] }>): number {
  const total = (label: string) => {
    let n = 0;
    for (const g of groups.values()) if (g.label === label) n += g.lines.length;
    return n;
  };
  return total(b.label) - total(a.label);
}
