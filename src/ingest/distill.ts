/**
 * Distillers, one per block kind. Each returns the compact rendering and the transform method that
 * produced it; every omission is stated by an explicit elision marker (`… (<n> lines elided …) …`,
 * `… (<m> more frames)`, `… (<r> more rows)`, `… (<b> more bytes of this line)`), so a reader of the
 * compact text always knows what it is not seeing — and the [full] re-query returns it.
 *
 * The log distiller runs in the byte view (lines.ts) over typed-array offsets so a 50 MB paste is
 * distilled in one pass with O(kept lines) output; the others run on decoded text (small blocks).
 */
import { ALERT_SCAN_ANY, ALERT_SCAN_CAPS, FIRST_LEVEL, isFrameLine, isHeaderLine, type TableDelimiter } from './classify.js';
import { bytesToText, clipLine, type LineIndex } from './lines.js';
import { describeColumn, inferColumns, parseTable } from './table.js';
import { digestLog } from './logdigest.js';
import { analyse, type Item } from './salience.js';
import { budgetTokens } from '../protocol/token-cost.js';
import { plural, numberRanges } from './wording.js';

/** Log blocks up to this many lines (any size in bytes) get the template-mining distiller (§68); longer ones the streaming digest. */
export const STRUCTURED_MAX_LINES = 50_000;

/** The log distiller: templates, anomalies and the intent's terms (logdigest.ts, §68). */
export function distillStructuredLog(text: string, firstLineNo: number, terms: readonly string[]): Distilled {
  return { text: digestLog(text, { firstLineNo, terms }), method: 'log-templates' };
}

export interface Distilled {
  text: string;
  method: string;
}

/** Longest line a distillate quotes in full (bytes); longer lines are clipped with a marker. */
export const MAX_QUOTED_LINE = 400;

/** `line 7` / `lines 7–14` (1-based, in the attachment). */
function lineSpan(a: number, b: number): string {
  return a === b ? `line ${a}` : `lines ${a}–${b}`;
}

// ── logs ──────────────────────────────────────────────────────────────────────────────────────

const ERROR_CLASS = /\b(?:ERR(?:OR)?|FATAL|CRIT(?:ICAL)?|PANIC(?:KED)?|SEVERE)\b/i;
/** Alert runs quoted at most (first half and last half by position); the rest fall into gaps. */
const MAX_ALERT_RUNS = 24;

/** A log line minus its leading timestamp, digits folded to `#`: "the same message". */
function template(line: string): string {
  return line
    .replace(/^[ \t]*\[?\d{4}[-/]\d{2}[-/]\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|z|[+-]\d{2}:?\d{2}| ?UTC| ?GMT)?\]?[ \t]*/, '')
    .replace(/(?<![A-Za-z])\d+/g, '#')
    .slice(0, 120);
}

export function distillLog(ix: LineIndex, first: number, last: number): Distilled {
  const { s, start, end } = ix;
  const lines = last - first + 1;
  // 1. runs of identical consecutive lines (the index marked each line equal to its predecessor)
  const runLine = new Uint32Array(lines);
  const runCount = new Uint32Array(lines);
  const same = ix.same;
  let runs = 0;
  for (let i = first; i <= last; i++) {
    if (i > first && same[i] === 1) runCount[runs - 1]!++;
    else {
      runLine[runs] = i;
      runCount[runs] = 1;
      runs++;
    }
  }
  const text = (r: number) => s.slice(start[runLine[r]!]!, end[runLine[r]!]!);
  // 2. alert runs and their class: one scan of the block for the alert words, mapped onto runs
  const alerts: number[] = [];
  let errors = 0;
  let warns = 0;
  const isError = new Uint8Array(runs);
  // The log's level casing, read from the first level word of up to 512 evenly spaced lines: a log that
  // writes its levels in lowercase (`error`, `level=warn`) is scanned in any casing; one that writes them
  // in capitals (ERROR, Error) is scanned for capitals only, so `retry after error` in an INFO line's
  // message is not an alert (§42).
  const stride = Math.max(1, Math.ceil(lines / 512));
  let lower = 0;
  let leveled = 0;
  for (let i = first; i <= last; i += stride) {
    const m = FIRST_LEVEL.exec(s.slice(start[i]!, end[i]!));
    if (!m) continue;
    leveled++;
    if (m[0] === m[0].toLowerCase()) lower++;
  }
  const ALERT_SCAN = lower * 2 > leveled ? ALERT_SCAN_ANY : ALERT_SCAN_CAPS;
  ALERT_SCAN.lastIndex = start[first]!;
  const stop = end[last]!;
  let r = 0;
  for (let m = ALERT_SCAN.exec(s); m !== null && m.index < stop; m = ALERT_SCAN.exec(s)) {
    // the run holding the match (runs are in line order, matches in text order: advance monotonically);
    // a match in a repeated copy of a run's line is the same verdict as in its first line
    while (r + 1 < runs && start[runLine[r + 1]!]! <= m.index) r++;
    alerts.push(r);
    if (ERROR_CLASS.test(text(r))) {
      errors += runCount[r]!;
      isError[r] = 1;
    } else warns += runCount[r]!;
    // one verdict per run: continue the scan at the next run
    if (r + 1 >= runs) break;
    ALERT_SCAN.lastIndex = start[runLine[r + 1]!]!;
  }
  // 3. what to keep
  const keep = new Uint8Array(runs);
  keep[0] = 1;
  keep[runs - 1] = 1;
  if (alerts.length === 0) {
    for (let r = 0; r < Math.min(8, runs); r++) keep[r] = 1;
    for (let r = Math.max(0, runs - 4); r < runs; r++) keep[r] = 1;
  } else {
    const half = MAX_ALERT_RUNS / 2;
    const quoted = alerts.length <= MAX_ALERT_RUNS ? alerts : [...alerts.slice(0, half), ...alerts.slice(-half)];
    for (const r of quoted) {
      keep[r] = 1;
      // an error travels with the line that led to it
      if (isError[r] && r > 0) keep[r - 1] = 1;
    }
  }
  // 4. render
  const counts: string[] = [];
  if (errors > 0) counts.push(`${errors} error`);
  if (warns > 0) counts.push(`${warns} warn`);
  // Markers are written in the byte view too (bytesToText decodes the whole distillate at the end).
  const b = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
  const out: string[] = [`[${lines}-line log${counts.length ? `; ${counts.join(', ')} line(s)` : ''}]`];
  // a gap is the run interval [gapFrom, gapTo)
  let gapFrom = -1;
  const flushGap = (gapTo: number) => {
    if (gapFrom < 0) return;
    let n = 0;
    for (let k = gapFrom; k < gapTo; k++) n += runCount[k]!;
    let what = '';
    if (gapTo - gapFrom <= 64) {
      const byTemplate = new Map<string, number>();
      for (let k = gapFrom; k < gapTo; k++) {
        const t = template(text(k));
        byTemplate.set(t, (byTemplate.get(t) ?? 0) + runCount[k]!);
      }
      if (byTemplate.size <= 2) what = `: ${[...byTemplate].map(([t, c]) => `${c}${b('×')} ${JSON.stringify(t)}`).join(', ')}`;
    }
    const a = runLine[gapFrom]! + 1;
    const z = runLine[gapTo - 1]! + runCount[gapTo - 1]!;
    out.push(`${b('… (')}${plural(n, 'line')} elided (${lineSpan(a, z)})${what}${b(') …')}`);
    gapFrom = -1;
  };
  for (let k = 0; k < runs; k++) {
    if (!keep[k]) {
      if (gapFrom < 0) gapFrom = k;
      continue;
    }
    flushGap(k);
    out.push(clipLine(text(k), MAX_QUOTED_LINE, b));
    if (runCount[k]! > 1) out.push(b(`… (×${runCount[k]} identical lines)`));
  }
  flushGap(runs);
  return { text: bytesToText(out.join('\n')), method: 'log-digest' };
}

/**
 * A stack trace preceded by the log that led to it (a log line announcing the exception merges the two
 * into one block): the log part gets the log distiller, the trace the stack distiller (§68).
 */
export function distillStackBlock(text: string, firstLineNo: number, terms: readonly string[]): Distilled {
  const lines = text.split(/\r\n|\n|\r/);
  const header = lines.findIndex((l) => isHeaderLine(l) && !isFrameLine(l));
  // the log part ends before the line that announces the exception (the one before the header)
  const cut = header - 1;
  if (cut < 8) return distillStack(text, firstLineNo);
  const logPart = lines.slice(0, cut).join('\n');
  const log = distillStructuredLog(logPart, firstLineNo, terms).text;
  const stack = distillStack(lines.slice(cut).join('\n'), firstLineNo + cut).text;
  return { text: `${log}\n[stack trace from line ${firstLineNo + cut}]\n${stack}`, method: 'log-templates+stack-frame-head' };
}

// ── stack traces ──────────────────────────────────────────────────────────────────────────────

const SECTION_MARKERS = ['Caused by', '---> ', 'During handling of the above exception', 'The above exception was the direct cause', '--- End of inner exception', 'goroutine '];
const GO_FUNC = /^[A-Za-z_][\w.*/()[\]-]*\(.*\)$/;

function indentOf(l: string): number {
  let i = 0;
  while (i < l.length && (l[i] === ' ' || l[i] === '\t')) i++;
  return i;
}

/** Frames kept at the top of the first section, and of each later section (Caused by, inner exceptions). */
const HEAD_FRAMES = 5;
const CAUSE_FRAMES = 3;

export function distillStack(text: string, firstLineNo = 1): Distilled {
  const lines = text.split(/\r\n|\n|\r/);
  type Unit = { from: number; to: number };
  type Item = { kind: 'line'; at: number } | { kind: 'unit'; unit: Unit };
  const sections: Array<{ items: Item[]; python: boolean }> = [{ items: [], python: false }];
  let i = 0;
  while (i < lines.length) {
    const l = lines[i]!;
    const t = l.trimStart();
    const header = isHeaderLine(l) && !isFrameLine(l);
    const marker = SECTION_MARKERS.some((m) => t.startsWith(m));
    const cur = sections[sections.length - 1]!;
    if ((header || marker) && cur.items.some((it) => it.kind === 'unit')) sections.push({ items: [], python: false });
    const sec = sections[sections.length - 1]!;
    if (t.startsWith('Traceback (most recent call last)')) sec.python = true;
    const primary = !header && (isFrameLine(l) || (GO_FUNC.test(t) && (lines[i + 1] ?? '').startsWith('\t')));
    if (!primary) {
      sec.items.push({ kind: 'line', at: i });
      i++;
      continue;
    }
    const ind = indentOf(l);
    let j = i + 1;
    while (j < lines.length) {
      const n = lines[j]!;
      if (n.trim() === '' || indentOf(n) <= ind || isHeaderLine(n)) break;
      if (isFrameLine(n) && indentOf(n) <= ind) break;
      j++;
    }
    sec.items.push({ kind: 'unit', unit: { from: i, to: j - 1 } });
    i = j;
  }
  const out: string[] = [];
  let dropped = 0;
  let droppedFrom = 0;
  let droppedTo = 0;
  const flush = () => {
    if (dropped > 0) out.push(`… (${plural(dropped, 'more frame')}: ${lineSpan(firstLineNo + droppedFrom, firstLineNo + droppedTo)})`);
    dropped = 0;
  };
  sections.forEach((sec, k) => {
    const units = sec.items.filter((it) => it.kind === 'unit');
    const budget = k === 0 ? HEAD_FRAMES : CAUSE_FRAMES;
    const keepFrom = sec.python ? Math.max(0, units.length - budget) : 0;
    const keepTo = sec.python ? units.length : Math.min(units.length, budget);
    let u = 0;
    for (const it of sec.items) {
      if (it.kind === 'line') {
        flush();
        out.push(clipLine(lines[it.at]!, MAX_QUOTED_LINE));
        continue;
      }
      const kept = u >= keepFrom && u < keepTo;
      u++;
      if (!kept) {
        if (dropped === 0) droppedFrom = it.unit.from;
        droppedTo = it.unit.to;
        dropped++;
        continue;
      }
      flush();
      for (let x = it.unit.from; x <= it.unit.to; x++) out.push(clipLine(lines[x]!, MAX_QUOTED_LINE));
    }
  });
  flush();
  return { text: out.join('\n'), method: 'stack-frame-head' };
}

// ── tables ────────────────────────────────────────────────────────────────────────────────────

const SAMPLE_ROWS = 3;
/** Tokens a distillate may spend when the caller gives no budget (ingest.ts shares one budget per paste). */
export const DEFAULT_BUDGET = 600;

/**
 * A table (docs/interpretations.md §120–§121): its shape and typed columns; a summary per column (values with
 * counts, or range and median); then the rows that differ (salience.ts) or the question names, each
 * quoted verbatim with its line number under the header line (a kept row keeps its header); with no such
 * row, the first 3 rows as a sample. Every row left out is named by its lines.
 */
export function distillTable(text: string, delimiter: TableDelimiter, firstLineNo = 1, terms: readonly string[] = [], budget = DEFAULT_BUDGET, sameHeaderAt?: number): Distilled {
  const table = parseTable(text, delimiter);
  const columns = inferColumns(table);
  const out = [
    `[${plural(table.rows.length, 'row')} × ${plural(table.columns, 'column')}${table.spans ? '; fixed-width columns read from the data' : ''}]`,
    sameHeaderAt !== undefined
      ? `columns: as in the table at line ${sameHeaderAt} (the same header)`
      : `columns: ${columns.map((c) => (columns.length > 8 ? describeColumn({ ...c, range: undefined }) : describeColumn(c))).join(' · ')}`,
  ];
  const all = text.split(/\r\n|\n|\r/);
  const at: number[] = [];
  all.forEach((l, i) => {
    if (l.trim() !== '' && !(delimiter === 'pipe' && /^[\s|:-]+$/.test(l))) at.push(i);
  });
  const source = at.map((i) => all[i]!);
  const sameShape = source.length === table.rows.length + 1;
  const show = (cells: string[], k: number) => clipLine(sameShape ? source[k]! : cells.join(' | '), MAX_QUOTED_LINE);
  const names = columns.map((c) => c.name);
  const items: Item[] = table.rows.map((r, i) => ({ fields: r.map((v, c) => [names[c] ?? `column ${c + 1}`, v] as const), text: sameShape ? source[i + 1]! : r.join(' ') }));
  // a first column whose values are (nearly) all distinct names the row (NAME, endpoint): compared, not summarised
  const firstValues = new Set(table.rows.map((r) => r[0] ?? ''));
  const nameColumn = names[0] !== undefined && firstValues.size * 10 >= table.rows.length * 9;
  const { marked, summaries } = analyse(items, terms, { numericSummaries: false, ...(nameColumn ? { nameField: names[0] } : {}) });
  const lead = `${out.join('\n')}\n${summaries.join('\n')}\n${show(table.header, 0)}`;
  let left = budget - budgetTokens(lead);
  const order = marked
    .map((m, i) => ({ i, score: m.score }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i);
  const keep = new Set<number>();
  for (const { i } of order) {
    const cost = budgetTokens(show(table.rows[i]!, i + 1)) + 1;
    if (cost > left && keep.size > 0) break;
    keep.add(i);
    left -= cost;
  }
  const sample = keep.size === 0;
  if (sample) for (let r = 0; r < Math.min(SAMPLE_ROWS, table.rows.length); r++) keep.add(r);
  out.push(...summaries);
  if (!sample) {
    const tags: string[] = [];
    for (const i of keep) for (const t of marked[i]!.tags) if (!tags.includes(t)) tags.push(t);
    out.push(`kept ${keep.size} of ${plural(table.rows.length, 'row')}, which differ in or carry: ${tags.slice(0, 8).join(', ')}${tags.length > 8 ? ', …' : ''}`);
  }
  const lineNo = (k: number) => (sameShape ? firstLineNo + at[k]! : undefined);
  out.push(sample ? show(table.header, 0) : `${lineNo(0) !== undefined ? `L${lineNo(0)} ` : ''}${show(table.header, 0)}`);
  const kept = [...keep].sort((a, b) => a - b);
  for (const r of kept) {
    const no = lineNo(r + 1);
    out.push(sample ? show(table.rows[r]!, r + 1) : `${no !== undefined ? `L${no} ` : ''}${show(table.rows[r]!, r + 1)}`);
  }
  const left_out = table.rows.length - kept.length;
  if (left_out > 0) {
    const last = firstLineNo + all.length - 1 - (all.at(-1) === '' ? 1 : 0);
    if (sameShape) {
      const nos: number[] = [];
      for (let r = 0; r < table.rows.length; r++) if (!keep.has(r)) nos.push(firstLineNo + at[r + 1]!);
      out.push(`… (${plural(left_out, 'more row')}: ${lineList(nos)})`);
    } else out.push(`… (${plural(left_out, 'more row')}: through line ${last})`);
  }
  return { text: out.join('\n'), method: sample ? 'tabular-sample' : 'tabular-salient' };
}

/** `lines 5–34` / `line 7` / `lines 2–43, 45–71` — line numbers, as ranges. */
export function lineList(nos: readonly number[]): string {
  return `${nos.length === 1 ? 'line' : 'lines'} ${numberRanges(nos)}`;
}

// ── code and long text ────────────────────────────────────────────────────────────────────────

const DECLARATION =
  /^\s*(?:export\s+|pub(?:\([^)]*\))?\s+|public\s+|private\s+|protected\s+|static\s+|async\s+)*(?:fn|def|class|function|func|interface|struct|enum|trait|impl|type|module|namespace)\b/;

/** Code over 28 lines: the first 12, declaration lines from the middle (≤ 16), the last 6. */
export function distillCode(text: string, firstLineNo = 1): Distilled {
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.length <= 28) return { text, method: 'verbatim' };
  const keep = new Uint8Array(lines.length);
  for (let i = 0; i < 12; i++) keep[i] = 1;
  for (let i = lines.length - 6; i < lines.length; i++) keep[i] = 1;
  let decls = 0;
  for (let i = 12; i < lines.length - 6 && decls < 16; i++) {
    if (DECLARATION.test(lines[i]!)) {
      keep[i] = 1;
      decls++;
    }
  }
  const out: string[] = [];
  let gap = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!keep[i]) {
      gap++;
      continue;
    }
    if (gap > 0) out.push(`… (${plural(gap, 'line')} elided: ${lineSpan(firstLineNo + i - gap, firstLineNo + i - 1)}) …`);
    gap = 0;
    out.push(clipLine(lines[i]!, MAX_QUOTED_LINE));
  }
  return { text: out.join('\n'), method: 'head-tail' };
}

/**
 * Prose is served verbatim unless it is very long; then — the last resort, for text with no structure
 * a distiller can use (§68) — a head and a tail by bytes, labelled as such, the elided middle named by
 * its line numbers.
 */
export const PROSE_LIMIT = 4096;

function lineOfOffset(view: string, offset: number): number {
  let n = 1;
  for (let i = view.indexOf('\n'); i >= 0 && i < offset; i = view.indexOf('\n', i + 1)) n++;
  return n;
}

export function distillProse(text: string, firstLineNo = 1): Distilled {
  const view = Buffer.from(text, 'utf8').toString('latin1');
  if (view.length <= PROSE_LIMIT) return { text, method: 'verbatim' };
  let cut = 2048;
  while (cut > 0 && (view.charCodeAt(cut) & 0xc0) === 0x80) cut--;
  let tail = view.length - 1024;
  while (tail < view.length && (view.charCodeAt(tail) & 0xc0) === 0x80) tail++;
  const a = firstLineNo - 1 + lineOfOffset(view, cut);
  const b = firstLineNo - 1 + lineOfOffset(view, tail);
  const label = `[unstructured text: head and tail only (no line structure to select by); ${tail - cut} bytes of lines ${a === b ? a : `${a}–${b}`} elided, in [full]]`;
  return { text: bytesToText(`${label}\n${view.slice(0, cut)}\n… (${tail - cut} bytes elided, lines ${a === b ? a : `${a}–${b}`}) …\n${view.slice(tail)}`), method: 'head-tail' };
}

// ── diffs ─────────────────────────────────────────────────────────────────────────────────────

/** Changed lines quoted at most; the rest are counted with their line ranges. */
const MAX_DIFF_LINES = 160;

/**
 * A unified diff: every file header, hunk header and changed (`+`/`-`) line is kept, up to
 * MAX_DIFF_LINES; context lines are elided, each run named by its line range.
 */
export function distillDiff(text: string, firstLineNo = 1): Distilled {
  const lines = text.split(/\r\n|\n|\r/);
  const out: string[] = [];
  let files = 0;
  let added = 0;
  let removed = 0;
  let kept = 0;
  let gapFrom = -1;
  let gapTo = -1;
  const flush = () => {
    if (gapFrom < 0) return;
    const a = firstLineNo + gapFrom;
    const b = firstLineNo + gapTo;
    out.push(`… (${plural(gapTo - gapFrom + 1, 'line')} elided: ${a === b ? `line ${a}` : `lines ${a}–${b}`}) …`);
    gapFrom = -1;
  };
  lines.forEach((l, i) => {
    const header =
      l.startsWith('diff ') ||
      l.startsWith('--- ') ||
      l.startsWith('+++ ') ||
      l.startsWith('@@') ||
      l.startsWith('index ') ||
      l.startsWith('new file') ||
      l.startsWith('deleted file') ||
      l.startsWith('rename ');
    if (l.startsWith('diff ')) files++;
    const change = !header && (l.startsWith('+') || l.startsWith('-'));
    if (change && l.startsWith('+')) added++;
    if (change && l.startsWith('-')) removed++;
    const keep = (header && !l.startsWith('index ')) || (change && kept < MAX_DIFF_LINES);
    if (change && keep) kept++;
    if (!keep) {
      if (gapFrom < 0) gapFrom = i;
      gapTo = i;
      return;
    }
    flush();
    out.push(clipLine(l, MAX_QUOTED_LINE));
  });
  flush();
  const head = `[unified diff: ${plural(Math.max(files, 1), 'file')}, +${added} −${removed}; context and index lines elided, in [full]]`;
  return { text: [head, ...out].join('\n'), method: 'diff-changes' };
}

export function distillBinary(bytes: Uint8Array): Distilled {
  let nul = 0;
  let control = 0;
  for (const b of bytes) {
    if (b === 0) nul++;
    else if (b < 32 && b !== 9 && b !== 10 && b !== 13) control++;
  }
  return { text: `[binary data: ${plural(bytes.length, 'byte')}; ${nul} NUL, ${control} other control bytes; not quoted]`, method: 'binary-summary' };
}
