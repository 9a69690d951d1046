/**
 * Segmentation and classification of one attachment (a byte string + its line index).
 *
 * Segmentation: a line whose left-trimmed text starts with ``` or ~~~ toggles a fence; the fence
 * lines and everything between them form one atomic fenced-code block (an unterminated fence runs to
 * the end); outside fences, blocks are runs of non-blank lines. Blocks are byte ranges of the input
 * (fence lines included), so a block's [full] bytes are exactly what was pasted. Adjacent blocks of
 * the same kind among log / prose / unfenced code are then merged (with the blank lines between them)
 * so a log or a note with blank lines stays one frame — the reference splits them.
 *
 * Classification ladder, first hit wins (deterministic; known limits in docs/interpretations.md §41):
 *  1 fenced → code   2 path list (every line a path, ≤ 50) → path   3 binary (NUL/control-heavy)
 *  4 one JSON document → json (§122)   5 stack trace   6 timestamped log   7 JSON lines / container prefix → log
 *  8 delimited table (pipe, tab, CSV with quoting)   9 weak log   10 unified diff
 *  11 whitespace-aligned or fixed-width table (§121)   12 key/value lines → kv (§122)
 *  13 structured log (repeated line templates, §68)   14 code-shaped → code   15 prose
 * Then adjacent blocks that split into repeated records become one records block (§124).
 */
import { leadingTimestamp, startsWithTimestamp } from './timestamps.js';
import { asciiTrim, LINE_BLANK, LINE_CONTENT, LINE_FENCE, skipSpace, type LineIndex } from './lines.js';
import { alignedCells, fixedWidthSpans, splitCsvRecords } from './table.js';
import { DrainTree, tokenise } from './drain.js';
import { isJsonDocument } from './jsondoc.js';
import { findRecords } from './records.js';
import { isKeyValueBlock } from './kv.js';

export type BlockKind = 'log' | 'stack' | 'table' | 'code' | 'diff' | 'prose' | 'path' | 'binary' | 'json' | 'records' | 'kv';
export type TableDelimiter = 'pipe' | 'tab' | 'csv' | 'aligned';

export interface Block {
  /** Inclusive line range in the attachment. */
  first: number;
  last: number;
  fenced: boolean;
  kind: BlockKind;
  delimiter?: TableDelimiter;
}

// ── segmentation ───────────────────────────────────────────────────────────────────────────────

export function segment(ix: LineIndex): Array<{ first: number; last: number; fenced: boolean }> {
  const out: Array<{ first: number; last: number; fenced: boolean }> = [];
  const { shape, count } = ix;
  let i = 0;
  while (i < count) {
    if (shape[i] === LINE_BLANK) {
      i++;
      continue;
    }
    if (shape[i] === LINE_FENCE) {
      let j = i + 1;
      while (j < count && shape[j] !== LINE_FENCE) j++;
      const last = j < count ? j : count - 1;
      out.push({ first: i, last, fenced: true });
      i = last + 1;
      continue;
    }
    let j = i;
    while (j + 1 < count && shape[j + 1] === LINE_CONTENT) j++;
    out.push({ first: i, last: j, fenced: false });
    i = j + 1;
  }
  return out;
}

// ── line predicates ────────────────────────────────────────────────────────────────────────────

const LEVEL = /\b(?:ERR(?:OR)?|WARN(?:ING)?|INFO|DEBUG|TRACE|FATAL|CRIT(?:ICAL)?|PANIC(?:KED)?|SEVERE|NOTICE)\b/i;
const ALERT = /\b(?:ERR(?:OR)?|WARN(?:ING)?|FATAL|CRIT(?:ICAL)?|PANIC(?:KED)?|SEVERE)\b/i;
const LEVEL_WORD = /^(?:ERROR|ERR|WARN|WARNING|INFO|DEBUG|TRACE|FATAL|CRITICAL|CRIT|PANIC|PANICKED|SEVERE|NOTICE)$/i;

export function hasLevelToken(line: string): boolean {
  return LEVEL.test(line);
}

export function hasAlertToken(line: string): boolean {
  return ALERT.test(line);
}

/** The same words as ALERT in any casing, for one scan over a whole block (whole words: `\b`). */
export const ALERT_SCAN_ANY = /\b(?:ERR(?:OR)?|WARN(?:ING)?|FATAL|CRIT(?:ICAL)?|PANIC(?:KED)?|SEVERE)\b/gi;
/**
 * The alert words in capitals or capitalised (ERROR, Error) — how a log that writes its levels in
 * capitals spells an alert. Every alternative starts with a capital letter, so the scan is ~2.5× faster
 * than the any-casing one (bench/ingest).
 */
export const ALERT_SCAN_CAPS = /\b(?:ERR(?:OR)?|WARN(?:ING)?|FATAL|CRIT(?:ICAL)?|PANIC(?:KED)?|SEVERE|Err(?:or)?|Warn(?:ing)?|Fatal|Crit(?:ical)?|Panic(?:ked)?|Severe)\b/g;
/** The first level word of a line says how the log spells its levels. */
export const FIRST_LEVEL = LEVEL;

/** A stack-frame line (Java/Node/.NET `at `, Python `File "`, Go tab + `.go:`, Rust `N: `, Ruby `from …:`, Java `... N more`). */
export function isFrameLine(raw: string): boolean {
  return isFrameLineAt(raw, 0, raw.length);
}

/** isFrameLine on s[a, b) without slicing (the classification pass asks it of every line). */
export function isFrameLineAt(s: string, a: number, b: number): boolean {
  const i = skipSpace(s, a, b);
  if (i >= b) return false;
  const c = s.charCodeAt(i);
  const tab = s.charCodeAt(a) === 9;
  if (c === 97 /* a */) return s.startsWith('at ', i) && i + 3 <= b;
  if (c === 70 /* F */) return s.startsWith('File "', i) && i + 6 <= b;
  if (c >= 48 && c <= 57) {
    // Rust `N: symbol` — decided on char codes (every timestamped log line starts with a digit)
    let j = i;
    while (j < b && s.charCodeAt(j) >= 48 && s.charCodeAt(j) <= 57) j++;
    if (j + 2 < b && s.charCodeAt(j) === 58 && s.charCodeAt(j + 1) === 32 && s.charCodeAt(j + 2) > 32) return true;
  } else if (c === 102 /* f */) {
    if (s.startsWith('from ', i)) {
      const colon = s.indexOf(':', i);
      if (colon >= 0 && colon < b) return true;
    }
  } else if (c === 46 /* . */) {
    return /^\.\.\. \d+ more[ \t]*$/.test(s.slice(i, b));
  }
  if (tab) {
    const go = s.indexOf('.go:', i);
    return go >= 0 && go < b;
  }
  return false;
}

const STACK_MARKERS = ['at ', 'File "', 'Traceback', 'panicked at', '-->', 'Caused by', "thread '", 'goroutine '];

/** Strip up to 4 leading log tokens (a timestamp, a `[…]` token, a level word). */
function stripLogPrefix(raw: string): string {
  let t = raw;
  const ts = leadingTimestamp(t, 0, t.length);
  if (ts.kind !== 'none') t = t.slice(ts.end);
  for (let k = 0; k < 4; k++) {
    const m = /^[ \t]*(\S+)/.exec(t);
    if (!m) break;
    const w = m[1]!;
    if (w.startsWith('[') || LEVEL_WORD.test(w.replace(/[:\]]$/, ''))) t = t.slice(m[0].length);
    else break;
  }
  return t.replace(/^[ \t]+/, '');
}

/** An exception/panic header line: what a stack trace is about. */
export function isHeaderLine(raw: string): boolean {
  const bare = raw.replace(/^[ \t]+/, '');
  if (bare.startsWith('panic: ') || bare.startsWith('PANIC: ')) return true;
  let t = stripLogPrefix(raw);
  if (t.startsWith('Traceback (most recent call last)') || t.startsWith("thread '") || t.includes('panicked at')) return true;
  if (t.startsWith('Caused by') || t.startsWith('panic: ') || (t.startsWith('goroutine ') && t.includes('[running]'))) return true;
  if (t.startsWith('---> ')) t = t.slice(5);
  t = t.replace(/^Exception in thread "[^"]*" /, '').replace(/^Unhandled [Ee]xception[.:] ?/, '');
  const colon = t.indexOf(':');
  const head = colon >= 0 ? t.slice(0, colon) : t;
  const words = head.split(/[ \t]+/).filter((w) => w !== '');
  if (words.length < 1 || words.length > 2) return false;
  const last = words[words.length - 1]!;
  const seg = last.slice(last.lastIndexOf('.') + 1);
  return /(?:Error|Exception|Throwable|Panic|Fault)$/.test(seg) && /^[A-Za-z_$][\w$]*$/.test(seg) && (colon >= 0 || words.length === 1);
}

function isWeakLogLine(raw: string): boolean {
  const t = raw.replace(/^[ \t]+/, '');
  if (STACK_MARKERS.some((m) => t.startsWith(m))) return true;
  if (LEVEL.test(raw)) return true;
  if (leadingTimestamp(raw, 0, raw.length).kind !== 'none') return true;
  const w = /^\S+/.exec(t)?.[0] ?? '';
  if (w.startsWith('[')) return true;
  return /^[0-9]/.test(w) && (w.includes(':') || w.includes('-'));
}

// ── path references ───────────────────────────────────────────────────────────────────────────

const PATH_EXTS = new Set('rs ts tsx js jsx mjs cjs py go rb java kt c h cc cpp hpp cs md toml json yaml yml txt sh sql lock cfg ini xml html css swift scala php'.split(' '));

/** A single token that names a file or directory (not a URL, not a host name). */
export function looksLikePath(text: string): boolean {
  const t = asciiTrim(text);
  if (t === '' || /[ \t]/.test(t)) return false;
  if (/^https?:\/\//i.test(t)) return false;
  if (t.startsWith('file://')) return true;
  if (/^[A-Za-z]:[\\/]/.test(t)) return true;
  const rooted = t.startsWith('./') || t.startsWith('../') || t.startsWith('~/') || t.startsWith('/');
  const lastSeg = t.slice(t.lastIndexOf('/') + 1);
  const dot = lastSeg.lastIndexOf('.');
  const hasExt = dot > 0 && PATH_EXTS.has(lastSeg.slice(dot + 1).toLowerCase());
  if (!rooted && !hasExt && t.split('/')[0]!.includes('.')) return false;
  if (/[<>"|*?]/.test(t)) return false;
  return t.includes('/') || rooted || hasExt;
}

// ── tables ────────────────────────────────────────────────────────────────────────────────────

/** The most common value (ties → the earliest seen) and how many entries have it. */
function mode(values: readonly number[]): { value: number; agree: number } {
  const counts = new Map<number, number>();
  let best = 0;
  let bestCount = 0;
  for (const v of values) {
    const c = (counts.get(v) ?? 0) + 1;
    counts.set(v, c);
    if (c > bestCount) {
      best = v;
      bestCount = c;
    }
  }
  return { value: best, agree: bestCount };
}

function countChar(line: string, ch: string): number {
  let n = 0;
  for (let i = line.indexOf(ch); i >= 0; i = line.indexOf(ch, i + 1)) n++;
  return n;
}

function rowsAgree(counts: readonly number[]): boolean {
  const m = mode(counts);
  return m.value >= 1 && m.agree * 10 >= counts.length * 7;
}

function words(cell: string): number {
  return cell.split(/[ \t]+/).filter((w) => w !== '').length;
}

export function delimitedTable(lines: readonly string[]): TableDelimiter | undefined {
  if (lines.length < 2) return undefined;
  if (rowsAgree(lines.map((l) => countChar(l, '|')))) return 'pipe';
  const startsTab = lines.filter((l) => l.startsWith('\t')).length;
  if (rowsAgree(lines.map((l) => countChar(l, '\t'))) && startsTab * 10 < lines.length * 7) return 'tab';
  if (lines.length >= 3) {
    const records = splitCsvRecords(lines.join('\n'));
    if (records.length >= 3) {
      const m = mode(records.map((r) => r.length));
      const shortCells = records.every((r) => r.every((c) => c.quoted || words(c.text) <= 4));
      if (m.value >= 2 && m.agree * 10 >= records.length * 7 && shortCells) return 'csv';
    }
  }
  return undefined;
}

function alignedTable(lines: readonly string[]): boolean {
  if (lines.length < 3) return false;
  const cells = lines.map(alignedCells);
  const m = mode(cells.map((c) => c.length));
  if (m.value >= 2 && m.agree * 10 >= lines.length * 7 && cells.every((row) => row.every((c) => words(c) <= 4))) return true;
  return fixedWidthTable(lines);
}

/**
 * Fixed-width columns read from the data (table.ts): at least 4 lines and 3 columns, every column filled
 * on ≥ 70 % of the rows, and short cells (≤ 4 words) — a header with single spaces (`Used Avail Use%`)
 * no longer hides the table (docs/interpretations.md §121).
 */
function fixedWidthTable(lines: readonly string[]): boolean {
  if (lines.length < 4 || lines.some((l) => l.includes('\t') || /[^\x20-\x7e]/.test(l))) return false;
  const spans = fixedWidthSpans(lines);
  if (!spans || spans.length < 3) return false;
  const rows = lines.slice(1).filter((l) => asciiTrim(l) !== '');
  for (const [a, b] of spans) {
    let filled = 0;
    for (const l of rows) {
      const c = asciiTrim(l.slice(a, Math.min(b, l.length)));
      if (c !== '') filled++;
      if (words(c) > 4) return false;
    }
    if (filled * 10 < rows.length * 7) return false;
  }
  return true;
}

// ── code ──────────────────────────────────────────────────────────────────────────────────────

const CODE_STARTS = [
  'fn ',
  'def ',
  'class ',
  'import ',
  'const ',
  'let ',
  'var ',
  'pub ',
  'function ',
  '#include',
  'package ',
  'func ',
  'return ',
  'if ',
  'for ',
  'while ',
  '@',
  'async ',
  'export ',
  'use ',
  'struct ',
  'impl ',
  'interface ',
  'type ',
];
const CODE_ENDS = [';', '{', '}', '=>', '):', '(', ','];

function codeShaped(lines: readonly string[]): boolean {
  if (lines.length < 3) return false;
  let hits = 0;
  for (const l of lines) {
    const r = l.replace(/[ \t]+$/, '');
    const t = r.replace(/^[ \t]+/, '');
    if (CODE_ENDS.some((e) => r.endsWith(e)) || CODE_STARTS.some((p) => t.startsWith(p))) hits++;
  }
  return hits * 2 >= lines.length;
}

// ── diffs and structured logs ──────────────────────────────────────────────────────────────────

/** A unified diff: a `diff --git` / `--- a` + `+++ b` header and at least one `@@ … @@` hunk header. */
export function unifiedDiff(lines: readonly string[]): boolean {
  if (lines.length < 3) return false;
  let header = false;
  let hunk = false;
  for (let i = 0; i < lines.length && i < 20_000; i++) {
    const l = lines[i]!;
    if (l.startsWith('diff --git ') || (l.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ '))) header = true;
    else if (/^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/.test(l)) hunk = true;
    if (header && hunk) return true;
  }
  return false;
}

/**
 * Repeated line shapes are a log, whatever its format (§68): mine the templates of the sampled lines
 * (drain.ts); at least 8 lines, at least 60 % of them in templates of 3+ lines, and at most one template
 * per 3 lines. Lines carrying no typed field at all (a timestamp, a number, an ip, …) do not count —
 * a bulleted list of words has a shape but no fields.
 */
export function structuredLog(ix: LineIndex, first: number, last: number, stride: number): boolean {
  const tree = new DrainTree();
  let sampled = 0;
  let fielded = 0;
  for (let i = first; i <= last; i += stride) {
    const text = ix.s.slice(ix.start[i]!, ix.end[i]!);
    if (asciiTrim(text) === '') continue;
    const tok = tokenise(text);
    if (tok.tokens.length < 2) continue;
    sampled++;
    if (tok.tokens.some((t) => t.type !== undefined)) fielded++;
    tree.add(
      tok.tokens.map((t) => t.key),
      sampled - 1,
    );
  }
  if (sampled < 8 || fielded * 10 < sampled * 7) return false;
  const covered = tree.templates.filter((t) => t.members.length >= 3).reduce((k, t) => k + t.members.length, 0);
  return covered * 10 >= sampled * 6 && tree.templates.length * 3 <= sampled;
}

/** `docker compose logs` / `kubectl logs --prefix`: `name  | …` on 70 % of at least 3 lines (one pipe is not a table). */
function containerPrefixed(ix: LineIndex, first: number, last: number, stride: number): boolean {
  let seen = 0;
  let hits = 0;
  for (let i = first; i <= last; i += stride) {
    const t = ix.s.slice(ix.start[i]!, ix.end[i]!);
    if (asciiTrim(t) === '') continue;
    seen++;
    if (/^(?:\[[\w./-]+\]|[\w.-]+(?:\/[\w.-]+)?)[ \t]*\| \S/.test(t) && t.indexOf('|', t.indexOf('|') + 1) < 0) hits++;
  }
  return seen >= 3 && hits * 10 >= seen * 7;
}

/** At least 3 lines, and 70 % of the (sampled) non-blank lines are JSON objects. */
function jsonLines(ix: LineIndex, first: number, last: number, stride: number): boolean {
  let seen = 0;
  let objects = 0;
  for (let i = first; i <= last; i += stride) {
    const t = asciiTrim(ix.s.slice(ix.start[i]!, ix.end[i]!));
    if (t === '') continue;
    seen++;
    if (t.startsWith('{') && t.endsWith('}')) {
      try {
        const v = JSON.parse(t) as unknown;
        if (v !== null && typeof v === 'object' && !Array.isArray(v)) objects++;
      } catch {
        // not JSON
      }
    }
  }
  return seen >= 3 && objects * 10 >= seen * 7;
}

// ── the ladder ────────────────────────────────────────────────────────────────────────────────

function isBinary(s: string, a: number, b: number): boolean {
  let control = 0;
  const n = Math.min(b - a, 2048);
  for (let i = a; i < a + n; i++) {
    const c = s.charCodeAt(i);
    if (c === 0 || (c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12 && c !== 27)) control++;
  }
  return n > 0 && control * 10 > n;
}

/** Lines a block is judged on at most (a fixed stride beyond that). */
export const SAMPLE_LINES = 128;

export function classifyBlock(ix: LineIndex, first: number, last: number, fenced: boolean): Omit<Block, 'first' | 'last' | 'fenced'> {
  if (fenced) return { kind: 'code' };
  const { s, start, end } = ix;
  const n = last - first + 1;
  const line = (i: number) => s.slice(start[i]!, end[i]!);
  // A list of paths (one per line, up to 50) is a run of path references, each its own anchor.
  if (n <= 50) {
    let all = true;
    for (let i = first; i <= last && all; i++) all = looksLikePath(line(i));
    if (all) return { kind: 'path' };
  }
  if (isBinary(s, start[first]!, end[last]!)) return { kind: 'binary' };
  // one JSON value (an array of objects, nested records, a config) is a document, whatever printed it
  // (docs/interpretations.md §122); JSON lines (one object per line) fail to parse as one value and stay a log
  if (end[last]! - start[first]! <= 8 * 1024 * 1024) {
    const c = s.charCodeAt(skipSpace(s, start[first]!, end[first]!));
    if ((c === 123 || c === 91) && isJsonDocument(s.slice(start[first]!, end[last]!))) return { kind: 'json' };
  }

  // One pass for the per-line facts the log and stack rungs need. A block of more than SAMPLE_LINES
  // lines is judged on a fixed stride of its lines (deterministic; §41 known limits): a 50 MB log is
  // classified in the time of 128 lines per block, and its distiller still reads every line.
  const stride = Math.max(1, Math.ceil(n / SAMPLE_LINES));
  const sampled = Math.ceil(n / stride);
  let stamped = 0;
  let leveled = 0;
  let frames = 0;
  for (let i = first; i <= last; i += stride) {
    const a = start[i]!;
    const b = end[i]!;
    if (startsWithTimestamp(s, a, b)) stamped++;
    if (leveled === 0 && LEVEL.test(s.slice(a, b))) leveled++;
    if (isFrameLineAt(s, a, b)) frames++;
  }
  if (frames >= 2 && frames * 4 >= sampled) {
    for (let i = first; i <= last; i++) {
      const l = line(i);
      if (!isFrameLine(l) && isHeaderLine(l)) return { kind: 'stack' };
    }
  }
  if (stamped * 2 >= sampled && leveled > 0) return { kind: 'log' };

  // JSON lines are a log before they are anything else (their commas are not a CSV's, §68)
  if (jsonLines(ix, first, last, stride) || containerPrefixed(ix, first, last, stride)) return { kind: 'log' };
  // Tables and code are small in practice; they get materialised lines.
  const lines: string[] = [];
  for (let i = first; i <= last && lines.length <= 20_000; i++) lines.push(line(i));
  const delimiter = n <= 20_000 ? delimitedTable(lines) : undefined;
  if (delimiter) return { kind: 'table', delimiter };
  let weak = 0;
  for (let i = first; i <= last; i += stride) if (isWeakLogLine(line(i))) weak++;
  if (weak * 2 >= sampled) return { kind: 'log' };
  if (unifiedDiff(lines)) return { kind: 'diff' };
  if (n <= 20_000 && alignedTable(lines)) return { kind: 'table', delimiter: 'aligned' };
  // key/value lines (a summary report, a metrics page) before the structural log rung (docs/interpretations.md §122)
  if (n <= 20_000 && isKeyValueBlock(lines)) return { kind: 'kv' };
  if (structuredLog(ix, first, last, stride)) return { kind: 'log' };
  if (codeShaped(lines)) return { kind: 'code' };
  return { kind: 'prose' };
}

const MERGEABLE = new Set<BlockKind>(['log', 'prose', 'stack']);
const CHAIN_MARKER = /^(?:During handling of the above exception|The above exception was the direct cause)/;

function textOf(ix: LineIndex, b: { first: number; last: number }): string[] {
  const out: string[] = [];
  for (let i = b.first; i <= b.last; i++) out.push(ix.s.slice(ix.start[i]!, ix.end[i]!));
  return out;
}

/**
 * Segment, classify, then merge: adjacent same-kind log / prose / stack / unfenced-code blocks; a
 * one- or two-line block ending in an exception header (Go's `panic:` line, a log line announcing the
 * exception) into the stack trace that follows it; a Python chain marker line between two traces.
 */
export function blocksOf(ix: LineIndex): Block[] {
  const out: Block[] = [];
  for (const seg of segment(ix)) {
    const c = classifyBlock(ix, seg.first, seg.last, seg.fenced);
    let prev = out[out.length - 1];
    if (prev && c.kind === 'stack' && !prev.fenced && prev.kind !== 'stack' && prev.last - prev.first < 2 && isHeaderLine(textOf(ix, prev).at(-1)!)) {
      out.pop();
      const before = out[out.length - 1];
      const chained = before && before.kind === 'stack' && CHAIN_MARKER.test(asciiTrim(textOf(ix, prev)[0]!));
      if (chained) {
        before.last = seg.last;
        continue;
      }
      out.push({ first: prev.first, last: seg.last, fenced: false, ...c });
      continue;
    }
    if (prev && c.kind === 'stack' && prev.kind === 'prose' && prev.first === prev.last && CHAIN_MARKER.test(asciiTrim(textOf(ix, prev)[0]!))) {
      const before = out[out.length - 2];
      if (before && before.kind === 'stack') {
        out.pop();
        before.last = seg.last;
        continue;
      }
    }
    prev = out[out.length - 1];
    const mergeable = MERGEABLE.has(c.kind) || (c.kind === 'code' && !seg.fenced);
    if (prev && mergeable && prev.kind === c.kind && !prev.fenced && !seg.fenced) {
      prev.last = seg.last;
      continue;
    }
    out.push({ first: seg.first, last: seg.last, fenced: seg.fenced, ...c });
  }
  return mergeRecords(ix, out);
}

/** Lines a run of blocks may have for the repeated-records search (records.ts). */
const RECORDS_MAX_LINES = 20_000;

/**
 * Repeated records (docs/interpretations.md §124): a run of adjacent unfenced blocks — no stack trace, diff, JSON
 * document, path list or binary among them, and not mostly large tables (a table printed again and
 * again keeps its own distiller) — whose lines split into records becomes one `records` block.
 */
function mergeRecords(ix: LineIndex, blocks: Block[]): Block[] {
  const out: Block[] = [];
  let i = 0;
  const breaks = (b: Block) => b.fenced || b.kind === 'path' || b.kind === 'binary' || b.kind === 'json';
  while (i < blocks.length) {
    if (breaks(blocks[i]!)) {
      out.push(blocks[i]!);
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < blocks.length && !breaks(blocks[j + 1]!)) j++;
    const run = blocks.slice(i, j + 1);
    const first = run[0]!.first;
    const last = run[run.length - 1]!.last;
    const lines = last - first + 1;
    let bigTables = 0;
    for (const b of run) if (b.kind === 'table' && b.last - b.first + 1 >= 6) bigTables += b.last - b.first + 1;
    const eligible = lines <= RECORDS_MAX_LINES && !run.some((b) => b.kind === 'stack' || b.kind === 'diff') && bigTables * 2 < lines;
    if (eligible && findRecords(textOf(ix, { first, last }))) out.push({ first, last, fenced: false, kind: 'records' });
    else out.push(...run);
    i = j + 1;
  }
  return out;
}
