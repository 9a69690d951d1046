/**
 * Key/value lines (docs/interpretations.md §122): a block whose lines are mostly `key: value`, `key = value`,
 * `key.......: value` (a summary report) or `name{label="…"} value` (a metrics exposition page), whatever
 * printed it. Comment lines (`# …`) may sit among them.
 *
 * The lines are grouped — a metric family (`node_filesystem_avail_bytes`), or lines at one indentation
 * whose values carry the same sub-fields (`avg= min= med= max= p(90)= p(95)=`) — and each group of 5 or
 * more is compared field by field (salience.ts: labels, sub-fields, the value): one summary line per
 * group (count, lines, the spread of its numeric fields), the lines that differ or that the question names
 * quoted verbatim with their line numbers, then the lines of small groups while the budget lasts. Every
 * line not quoted is named.
 */
import { budgetTokens } from '../protocol/token-cost.js';
import { analyse, ALERT, numberOf, type Item } from './salience.js';
import { intentHits } from './intent.js';
import { plural, numberRanges, clipLine } from './wording.js';

interface KvLine {
  at: number;
  indent: number;
  key: string;
  group: string;
  fields: Array<[string, string]>;
}

const EXPOSITION = /^([A-Za-z_:][\w:]*)(\{[^}]*\})?[ \t]+(\S+)(?:[ \t]+-?\d+)?[ \t]*$/;
const LEADER = /^([ \t]*)(\S.*?)\.{3,}:?[ \t]*(.*)$/;
const COLON = /^([ \t]*)([^\s:=][^:=]{0,40}?)[ \t]*:[ \t]+(\S.*)$/;
const EQUALS = /^([ \t]*)([\w.-]+)[ \t]*=[ \t]*(\S.*)$/;
const SPACED_KEY = /^([ \t]*)(\{[^}]*\}|\S+)[ \t]{2,}:[ \t]*(\S.*)$/;

function parseLine(line: string, at: number): KvLine | 'comment' | undefined {
  const t = line.trim();
  if (t === '') return undefined;
  if (t.startsWith('#')) return 'comment';
  const indent = line.length - line.trimStart().length;
  let m = EXPOSITION.exec(t);
  if ((m && numberOf(m[3]!) !== undefined) || (m && /^(?:[+-]?Inf|NaN)$/.test(m[3]!))) {
    const fields: Array<[string, string]> = [];
    for (const p of (m![2] ?? '').matchAll(/([\w]+)="((?:[^"\\]|\\.)*)"/g)) fields.push([p[1]!, p[2]!]);
    fields.push(['value', m![3]!]);
    return { at, indent, key: m![1]!, group: `metric ${m![1]!}`, fields };
  }
  m = LEADER.exec(line) ?? SPACED_KEY.exec(line) ?? COLON.exec(line) ?? EQUALS.exec(line);
  if (!m) return undefined;
  const key = m[2]!.trim();
  const value = m[3]!.trim();
  const subs = [...value.matchAll(/([\w()]+)=(\S+)/g)].map((p) => [p[1]!, p[2]!] as [string, string]);
  const fields: Array<[string, string]> = subs.length >= 2 ? subs : [['value', value]];
  const group = subs.length >= 2 ? `${m[1]!.length}|${subs.map(([k]) => k).join(' ')}` : `${m[1]!.length}|plain`;
  return { at, indent, key, group, fields };
}

/** At least 5 non-blank lines, 70 % of them key/value lines or comments, and at least 4 key/value lines. */
export function isKeyValueBlock(lines: readonly string[]): boolean {
  let seen = 0;
  let kv = 0;
  let comments = 0;
  for (let i = 0; i < lines.length; i++) {
    const p = parseLine(lines[i]!, i);
    if (lines[i]!.trim() === '') continue;
    seen++;
    if (p === 'comment') comments++;
    else if (p) kv++;
  }
  return seen >= 5 && kv >= 4 && (kv + comments) * 10 >= seen * 7 && comments * 2 <= seen;
}

export function distillKeyValue(text: string, firstLineNo: number, terms: readonly string[], budget: number): { text: string; method: string } {
  const lines = text.split(/\r\n|\n|\r/);
  const parsed: KvLine[] = [];
  lines.forEach((l, i) => {
    const p = parseLine(l, i);
    if (p && p !== 'comment') parsed.push(p);
  });
  const groups = new Map<string, KvLine[]>();
  for (const p of parsed) {
    const g = groups.get(p.group) ?? [];
    g.push(p);
    groups.set(p.group, g);
  }
  const no = (x: number) => firstLineNo + x;
  // compared: metric families, lines with the same sub-fields, and plain `key: value` lines whose keys
  // repeat (`ok: [host]` ×47, `fatal: [host]` ×1: the key is a field too); plain lines with one-off keys
  // are a report's values, quoted in order while the budget lasts
  for (const [name, g] of groups) {
    if (name.endsWith('|plain') && new Set(g.map((p) => p.key)).size * 2 <= g.length) for (const p of g) p.fields = [['key', p.key], ...p.fields];
  }
  const compared = (name: string, g: readonly KvLine[]) => g.length >= 5 && (!name.endsWith('|plain') || g[0]!.fields[0]![0] === 'key');
  const big = [...groups].filter(([name, g]) => compared(name, g));
  const out = [`[${plural(parsed.length, 'key/value line')}${big.length > 0 ? `; ${plural(big.length, 'group')} compared line by line` : ''}]`];
  const score = new Map<number, number>();
  const why = new Map<number, string>();
  for (const [name, g] of big) {
    const items: Item[] = g.map((p) => ({ fields: p.fields, text: lines[p.at]! }));
    const { marked, summaries } = analyse(items, terms);
    const label = name.startsWith('metric ') ? name.slice(7) : name.endsWith('|plain') ? 'key: value' : `${g[0]!.key} … (${name.slice(name.indexOf('|') + 1)})`;
    const nums = summaries.filter((s) => !s.startsWith('the same on every one')).slice(0, name.startsWith('metric ') ? 3 : 2);
    out.push(`${label} ×${g.length} (lines ${numberRanges(g.map((p) => no(p.at)))})${nums.length > 0 ? `: ${nums.join(' · ')}` : ''}`);
    marked.forEach((m, k) => {
      if (m.score > 0) {
        score.set(g[k]!.at, m.score);
        why.set(g[k]!.at, m.tags.join(', '));
      }
    });
  }
  // outside the groups: markers and the question's terms
  for (const p of parsed) {
    if (compared(p.group, groups.get(p.group)!)) continue;
    const l = lines[p.at]!;
    const s = (ALERT.test(l) ? 3 : 0) + 2 * intentHits(l, terms);
    score.set(p.at, s);
  }
  const quoted = new Set<number>();
  let left = budget - budgetTokens(out.join('\n'));
  const take = (x: number, always = false) => {
    const cost = budgetTokens(lines[x]!) + 3;
    if (cost > left && !always) return false;
    left -= cost;
    quoted.add(x);
    return true;
  };
  const ranked = [...score].filter(([, s]) => s > 0).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  // the line that differs most is quoted whatever it costs
  ranked.forEach(([x], k) => {
    if (k === 0) take(x, true);
  });
  for (const [x] of ranked.slice(1)) if (!take(x)) break;
  // then the lines of the small groups (a report's one-off values), in order, while the budget lasts
  for (const p of parsed) if (!compared(p.group, groups.get(p.group)!) && !quoted.has(p.at) && !take(p.at)) break;
  if (quoted.size > 0) {
    out.push('quoted:');
    for (const x of [...quoted].sort((a, b) => a - b)) out.push(`L${no(x)} ${clipLine(lines[x]!)}${why.has(x) ? `  ← ${why.get(x)}` : ''}`);
  }
  const elided: number[] = [];
  lines.forEach((l, x) => {
    if (!quoted.has(x) && l.trim() !== '') elided.push(no(x));
  });
  if (elided.length > 0) out.push(`elided (in [full]): lines ${numberRanges(elided)}`);
  return { text: out.join('\n'), method: 'key-value' };
}
