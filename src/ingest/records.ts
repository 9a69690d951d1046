/**
 * Repeated records (docs/interpretations.md §124): the same block printed again and again — commits of `git log
 * --stat`, entries of a slow-query log, resources of an infrastructure plan, advisories of an audit —
 * recognised by their shape, not by the tool that printed them.
 *
 * Recognition: every non-blank line has a key — its indentation and first word (digits folded; a
 * punctuation word such as `#` takes the label after it, `# Time:`). A key that recurs at least 3 times
 * splits the lines into records when the records are 3–40 lines long (median, none over 3× it) with at
 * least 2 non-blank lines each, the first record starts within the first 12 lines (or 20 %), and the key line does not start
 * with a timestamp (that is a log). Where records are separated by blank lines, a record starts after the
 * blank line before its key line (an audit's package line before its `Severity:`); the key chosen is the
 * one whose records are blank-separated, else the one that occurs first. The last record ends where it
 * stops looking like the others (at most twice the median length): the rest is a trailer.
 *
 * Distillation: each record's fields are its labelled values (`Label: value`, `key=value`, `key = value`);
 * records are compared field by field (salience.ts), each field summarised with counts or a range; the
 * records that differ, carry a marker or are named by the question are quoted whole (up to 30 lines; else
 * their first lines and the lines that differ) — a kept record keeps its header, id and time lines. The
 * preamble and the trailer (a plan's `Plan:` line, an audit's count) are quoted; every other line is named.
 */
import { budgetTokens } from '../protocol/token-cost.js';
import { leadingTimestamp } from './timestamps.js';
import { analyse, ALERT, type Item } from './salience.js';
import { intentHits } from './intent.js';
import { plural, numberRanges, clipLine } from './wording.js';

export interface RecordSplit {
  /** Line index (within the lines given) where each record starts. */
  starts: number[];
  /** Line index where the trailer starts (after the last record), or lines.length. */
  trailer: number;
  key: string;
}

const PUNCT = /^[^\p{L}\p{N}]+$/u;

/** The key of a line: indentation + first word (digits and long hex folded), a label after punctuation. */
export function lineKey(line: string): string | undefined {
  const m = /^([ \t]*)(\S+)(?:[ \t]+(\S+))?/.exec(line);
  if (!m) return undefined;
  const indent = m[1]!.replace(/\t/g, '    ').length;
  const fold = (w: string) => w.replace(/[0-9a-f]{7,}/gi, '#').replace(/\d+/g, '#');
  let key = fold(m[2]!);
  if (PUNCT.test(m[2]!) && m[3] !== undefined && m[3].endsWith(':')) key += ` ${fold(m[3])}`;
  return `${indent}|${key}`;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}

/** Records in the lines, or undefined (see the module comment). */
export function findRecords(lines: readonly string[]): RecordSplit | undefined {
  const n = lines.length;
  const blank = lines.map((l) => l.trim() === '');
  const nonBlank = blank.filter((b) => !b).length;
  if (nonBlank < 15) return undefined;
  const occ = new Map<string, number[]>();
  lines.forEach((l, i) => {
    if (blank[i]) return;
    const k = lineKey(l);
    if (k === undefined) return;
    const list = occ.get(k) ?? [];
    list.push(i);
    occ.set(k, list);
  });
  const preambleMax = Math.max(12, Math.floor(n * 0.2));
  let best: { split: RecordSplit; separated: number; first: number; count: number } | undefined;
  for (const [key, at] of occ) {
    if (at.length < 3 || at.length * 3 > nonBlank || at[0]! > preambleMax + 3) continue;
    if (leadingTimestamp(lines[at[0]!]!, 0, lines[at[0]!]!.length).kind !== 'none') continue;
    // snap each record start back to the line after the blank line before it (at most 3 lines back)
    const starts: number[] = [];
    let separated = 0;
    for (const a of at) {
      let s = a;
      for (let b = a - 1; b >= Math.max(0, a - 3) && b > (starts.at(-1) ?? -1); b--) {
        if (blank[b]) {
          s = b + 1;
          break;
        }
      }
      if (s === 0 || blank[s - 1]) separated++;
      starts.push(s);
    }
    if (starts[0]! > preambleMax) continue;
    const lengths = starts.slice(1).map((s, k) => s - starts[k]!);
    const med = median(lengths);
    if (med < 3 || med > 40) continue;
    const contentOf = (a: number, b: number) => {
      let c = 0;
      for (let x = a; x < b; x++) if (!blank[x]) c++;
      return c;
    };
    // regular records: every one (but the last) has 2+ non-blank lines, none is over 3× the median
    if (Math.min(...starts.slice(1).map((s, k) => contentOf(starts[k]!, s))) < 2 || Math.max(...lengths) > 3 * med) continue;
    // the last record ends where it stops looking like the others: after a blank line past its usual
    // length (or at twice the median); the rest is a trailer, which may be short only
    const last = starts.at(-1)!;
    let trailer = n;
    for (let x = last + Math.max(2, med - 2); x < n; x++) {
      if (blank[x] && x + 1 < n && !blank[x + 1]) {
        trailer = x + 1;
        break;
      }
      if (x - last >= 2 * med) {
        trailer = x;
        break;
      }
    }
    if (n - trailer > preambleMax) continue;
    const cand = { split: { starts, trailer, key }, separated: separated / at.length, first: starts[0]!, count: at.length };
    const sep = (c: { separated: number }) => (c.separated >= 0.8 ? 1 : 0);
    if (
      !best ||
      sep(cand) > sep(best) ||
      (sep(cand) === sep(best) && (cand.separated > best.separated || (cand.separated === best.separated && (cand.first < best.first || (cand.first === best.first && cand.count > best.count)))))
    ) {
      best = cand;
    }
  }
  return best?.split;
}

/** Labelled values of a record: `Label: value` (one per line: the rest of the line), `k=v`, `k = v`. */
function fieldsOf(lines: readonly string[]): Array<[string, string]> {
  const out = new Map<string, string>();
  const add = (k: string, v: string) => {
    if (!out.has(k)) out.set(k, v.trim());
  };
  for (const l of lines) {
    const t = l.trim();
    if (t === '') continue;
    const pairs = [...t.matchAll(/(?:^|\s)#?\s*([A-Za-z_][\w@./-]*):\s+(\S+)/g)];
    if (pairs.length >= 2) {
      for (const p of pairs) add(p[1]!, p[2]!);
      continue;
    }
    const one = /^[#*\s]*([A-Za-z_][\w@./ -]{0,30}?):\s+(.+)$/.exec(t);
    if (one) {
      add(one[1]!, one[2]!);
      continue;
    }
    const eqs = [...t.matchAll(/(?:^|\s)([A-Za-z_][\w.-]*)=("[^"]*"|\S+)/g)];
    if (eqs.length > 0) {
      for (const p of eqs) add(p[1]!, p[2]!.replace(/;$/, ''));
      continue;
    }
    const assign = /^[~+\-/ ]*("?[\w.-]+"?)\s+=\s+(.+)$/.exec(t);
    if (assign) add(assign[1]!.replace(/"/g, ''), assign[2]!);
  }
  return [...out];
}

const WHOLE_RECORD_LINES = 30;
const MAX_EDGE_LINES = 12;

export function distillRecords(text: string, firstLineNo: number, terms: readonly string[], budget: number): { text: string; method: string } {
  const lines = text.split(/\r\n|\n|\r/);
  const split = findRecords(lines);
  if (!split) return { text, method: 'verbatim' };
  const { starts, trailer } = split;
  const recs = starts.map((s, k) => ({ from: s, to: (starts[k + 1] ?? trailer) - 1 }));
  // a record's last blank lines belong to the gap, not to it
  for (const r of recs) while (r.to > r.from && lines[r.to]!.trim() === '') r.to--;
  const items: Item[] = recs.map((r) => ({ fields: fieldsOf(lines.slice(r.from, r.to + 1)), text: lines.slice(r.from, r.to + 1).join('\n') }));
  const { marked, summaries } = analyse(items, terms);
  const quoted = new Set<number>();
  const no = (x: number) => firstLineNo + x;
  const head = lines[starts[0]!]!.trim();
  const lens = recs.map((r) => r.to - r.from + 1);
  const out = [
    `[${plural(recs.length, 'record')} (repeated reports), each starting like ${JSON.stringify(head.length > 60 ? `${head.slice(0, 60)}…` : head)}; ${Math.min(...lens)}–${Math.max(...lens)} lines each; lines ${no(starts[0]!)}–${no(trailer - 1)}]`,
  ];
  if (summaries.length > 0) out.push(`fields: ${summaries.slice(0, 10).join(' · ')}${summaries.length > 10 ? ` · ${plural(summaries.length - 10, 'more field')}` : ''}`);
  // the preamble and the trailer: what the report says about all of its records
  const edge = (a: number, b: number, label: string) => {
    const idx: number[] = [];
    for (let x = a; x < b; x++) if (lines[x]!.trim() !== '') idx.push(x);
    if (idx.length === 0) return;
    const take = idx.length <= MAX_EDGE_LINES ? idx : [...idx.slice(0, MAX_EDGE_LINES - 3), ...idx.slice(-3)];
    out.push(`${label} (lines ${no(a)}–${no(b - 1)}):`);
    let prev = -1;
    for (const x of take) {
      if (prev >= 0 && x > prev + 1 && take.indexOf(x) > 0 && idx.indexOf(x) - idx.indexOf(prev) > 1) out.push(`… (lines ${no(prev + 1)}–${no(x - 1)} elided) …`);
      out.push(clipLine(lines[x]!));
      quoted.add(x);
      prev = x;
    }
  };
  edge(0, starts[0]!, 'before the records');
  let left = budget - budgetTokens(out.join('\n'));
  const trailerCost = (() => {
    let c = 0;
    for (let x = trailer; x < lines.length; x++) c += budgetTokens(lines[x]!) + 1;
    return Math.min(c, 200);
  })();
  left -= trailerCost;
  const order = marked
    .map((m, i) => ({ i, score: m.score }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i);
  const kept: Array<{ i: number; text: string[]; lines: number[] }> = [];
  for (const { i } of order) {
    const r = recs[i]!;
    let body: number[] = [];
    for (let x = r.from; x <= r.to; x++) body.push(x);
    if (body.length > WHOLE_RECORD_LINES) {
      const why = marked[i]!.why.join(' ');
      body = body.filter((x, k) => {
        const l = lines[x]!;
        return k < 3 || ALERT.test(l) || intentHits(l, terms) > 0 || fieldsOf([l]).some(([f]) => why.includes(`${f} `) || why.includes(`has ${f}`));
      });
    }
    const t = [`record ${i + 1} of ${recs.length}, lines ${no(r.from)}–${no(r.to)} (${marked[i]!.why.slice(0, 3).join(', ')}):`];
    let prev = -1;
    for (const x of body) {
      if (prev >= 0 && x > prev + 1) t.push(`… (lines ${no(prev + 1)}–${no(x - 1)} of this record elided) …`);
      t.push(clipLine(lines[x]!));
      prev = x;
    }
    const cost = budgetTokens(t.join('\n')) + 1;
    if (cost > left && kept.length > 0) break;
    left -= cost;
    kept.push({ i, text: t, lines: body });
  }
  kept.sort((a, b) => a.i - b.i);
  if (kept.length > 0) {
    out.push(`kept ${kept.length} of ${plural(recs.length, 'record')} (they differ, carry a marker, or the question names them):`);
    for (const k of kept) {
      out.push(...k.text);
      for (const x of k.lines) quoted.add(x);
    }
  } else {
    // nothing differs: the first record shows the shape
    const r = recs[0]!;
    out.push(`no record differs from the others; the first, lines ${no(r.from)}–${no(r.to)}:`);
    for (let x = r.from; x <= Math.min(r.to, r.from + WHOLE_RECORD_LINES - 1); x++) {
      out.push(clipLine(lines[x]!));
      quoted.add(x);
    }
  }
  edge(trailer, lines.length, 'after the records');
  // every line not quoted, blank ones included, as ranges (a record's blank lines do not split them)
  const elided: number[] = [];
  lines.forEach((l, x) => {
    if (!quoted.has(x) && !(x === lines.length - 1 && l === '')) elided.push(no(x));
  });
  if (elided.length > 0) out.push(`elided (in [full]): lines ${numberRanges(elided)}`);
  return { text: out.join('\n'), method: 'records' };
}
