/**
 * JSON documents (docs/interpretations.md §122): a block that parses as one JSON value — a pretty-printed array
 * of objects, an API response with nested records, a config — whatever tool printed it.
 *
 * The records of a document are the objects of its largest collection: the array pattern (indices
 * folded, `$.Reservations[].Instances[]`) holding the most objects. They are compared field by field
 * (salience.ts; a field is a leaf's path inside its object, `State.Name`); each field is summarised
 * with counts or a range, and the objects that differ or that the question names are quoted — a kept
 * object keeps its path (`$.Reservations[8].Instances[0]`) and its lines. A document with no collection
 * is summarised by its top-level keys, quoting the lines with a marker or a term of the question.
 * Every line not quoted is named.
 */
import { budgetTokens } from '../protocol/token-cost.js';
import { analyse, ALERT, type Item } from './salience.js';
import { intentHits } from './intent.js';
import { plural, numberRanges, clipLine } from './wording.js';

export interface JNode {
  kind: 'object' | 'array' | 'scalar';
  /** [start, end) offsets in the text. */
  start: number;
  end: number;
  entries?: Array<[string, JNode]>;
  items?: JNode[];
}

const MAX_DEPTH = 256;

/** A positional JSON parser (RFC 8259; no extensions). Undefined when the text is not one JSON value. */
export function parseJson(text: string): JNode | undefined {
  let i = 0;
  const n = text.length;
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const fail = (): never => {
    throw new SyntaxError('not JSON');
  };
  const str = () => {
    if (text[i] !== '"') fail();
    i++;
    while (i < n) {
      const c = text[i]!;
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') i += 2;
      else if (c.charCodeAt(0) < 32) fail();
      else i++;
    }
    fail();
  };
  const value = (depth: number): JNode => {
    if (depth > MAX_DEPTH) fail();
    ws();
    const start = i;
    const c = text[i];
    if (c === '{') {
      i++;
      const entries: Array<[string, JNode]> = [];
      ws();
      if (text[i] === '}') {
        i++;
        return { kind: 'object', start, end: i, entries };
      }
      for (;;) {
        ws();
        const ks = i;
        str();
        const key = JSON.parse(text.slice(ks, i)) as string;
        ws();
        if (text[i] !== ':') fail();
        i++;
        entries.push([key, value(depth + 1)]);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return { kind: 'object', start, end: i, entries };
        }
        fail();
      }
    }
    if (c === '[') {
      i++;
      const items: JNode[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return { kind: 'array', start, end: i, items };
      }
      for (;;) {
        items.push(value(depth + 1));
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return { kind: 'array', start, end: i, items };
        }
        fail();
      }
    }
    if (c === '"') {
      str();
      return { kind: 'scalar', start, end: i };
    }
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 64));
    if (!m) fail();
    i += m![0].length;
    return { kind: 'scalar', start, end: i };
  };
  try {
    const root = value(0);
    ws();
    return i === n ? root : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a block is one JSON document (an object or an array), for the classification ladder. */
export function isJsonDocument(text: string): boolean {
  const t = text.trim();
  if (!((t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']')))) return false;
  try {
    const v = JSON.parse(t) as unknown;
    return v !== null && typeof v === 'object' && (!Array.isArray(v) || v.length > 0);
  } catch {
    return false;
  }
}

interface Rec {
  path: string;
  node: JNode;
}

/** Every array of objects, by pattern (`$.a[].b[]`), with its objects' concrete paths. */
function collections(root: JNode): Map<string, Rec[]> {
  const out = new Map<string, Rec[]>();
  const walk = (node: JNode, path: string, pattern: string) => {
    if (node.kind === 'object') {
      for (const [k, v] of node.entries!) {
        const seg = /^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`;
        walk(v, path + seg, pattern + seg);
      }
    } else if (node.kind === 'array') {
      const objects = node.items!.filter((x) => x.kind === 'object').length;
      const isCollection = objects >= 1 && objects * 10 >= node.items!.length * 7;
      node.items!.forEach((x, k) => {
        if (isCollection && x.kind === 'object') {
          const list = out.get(`${pattern}[]`) ?? [];
          list.push({ path: `${path}[${k}]`, node: x });
          out.set(`${pattern}[]`, list);
        }
        walk(x, `${path}[${k}]`, `${pattern}[]`);
      });
    }
  };
  walk(root, '$', '$');
  return out;
}

/** Leaves of an object outside its nested arrays. */
function ownFields(node: JNode): number {
  if (node.kind === 'scalar') return 1;
  if (node.kind === 'array') return 0;
  let n = 0;
  for (const [, v] of node.entries!) n += ownFields(v);
  return n;
}

function scalarText(text: string, node: JNode): string {
  const raw = text.slice(node.start, node.end);
  if (raw.startsWith('"')) {
    try {
      return JSON.parse(raw) as string;
    } catch {
      return raw;
    }
  }
  return raw;
}

/** The leaves of an object: relative path (array indices folded) → value; repeated paths joined. */
function leaves(text: string, node: JNode): Array<[string, string]> {
  const acc = new Map<string, string[]>();
  const walk = (x: JNode, path: string) => {
    if (x.kind === 'object') for (const [k, v] of x.entries!) walk(v, path ? `${path}.${k}` : k);
    else if (x.kind === 'array') {
      if (x.items!.length === 0) return;
      for (const y of x.items!) walk(y, `${path}[]`);
    } else {
      const list = acc.get(path) ?? [];
      list.push(scalarText(text, x));
      acc.set(path, list);
    }
  };
  walk(node, '');
  return [...acc].map(([k, vs]) => [k, vs.join(', ')]);
}

/** Lines an object quoted whole spans at most; a longer one is quoted by its identifying and differing lines. */
const WHOLE_OBJECT_LINES = 40;

export function distillJson(text: string, firstLineNo: number, terms: readonly string[], budget: number): { text: string; method: string } {
  const root = parseJson(text);
  if (!root) return { text, method: 'verbatim' };
  const lines = text.split(/\r\n|\n|\r/);
  const lineStart: number[] = [];
  {
    let off = 0;
    for (const l of text.split(/(\r\n|\n|\r)/)) {
      if (l === '\r\n' || l === '\n' || l === '\r') off += l.length;
      else {
        lineStart.push(off);
        off += l.length;
      }
    }
  }
  const lineOf = (offset: number) => {
    let lo = 0;
    let hi = lineStart.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStart[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const quoted = new Set<number>();
  const out: string[] = [];
  const cols = collections(root);
  // the records: the collection with the most objects among those whose objects are records (3+ fields
  // of their own, outside nested arrays: an Instance, not its Tags), else the largest collection
  let best: [string, Rec[]] | undefined;
  let bestRecordLike = false;
  for (const e of cols) {
    const own = e[1].map((r) => ownFields(r.node)).sort((a, b) => a - b);
    const recordLike = own[Math.floor(own.length / 2)]! >= 3;
    if (!best || (recordLike && !bestRecordLike) || (recordLike === bestRecordLike && e[1].length > best[1].length)) {
      best = e;
      bestRecordLike = recordLike;
    }
  }
  if (best && best[1].length >= 3) {
    const [pattern, recs] = best;
    const items: Item[] = recs.map((r) => ({ fields: leaves(text, r.node), text: text.slice(r.node.start, r.node.end) }));
    const { marked, summaries } = analyse(items, terms);
    const fieldCount = new Set(items.flatMap((it) => it.fields.map(([k]) => k))).size;
    out.push(`[JSON document: ${plural(recs.length, 'object')} at ${pattern}, ${plural(fieldCount, 'field')}; lines ${firstLineNo}–${firstLineNo + lines.length - 1}]`);
    if (summaries.length > 0) out.push(`fields: ${summaries.slice(0, 12).join(' · ')}${summaries.length > 12 ? ` · ${plural(summaries.length - 12, 'more field')}` : ''}`);
    let left = budget - budgetTokens(out.join('\n'));
    const order = marked
      .map((m, i) => ({ i, score: m.score }))
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score || a.i - b.i);
    const kept: Array<{ i: number; lines: string[] }> = [];
    for (const { i } of order) {
      const r = recs[i]!;
      const a = lineOf(r.node.start);
      const b = lineOf(r.node.end - 1);
      const body: number[] = [];
      if (a === b) {
        // minified: the object's own text, clipped
        const q = [`${r.path} (${`line ${firstLineNo + a}`}; ${marked[i]!.why.slice(0, 3).join(', ')}): ${clipLine(text.slice(r.node.start, r.node.end))}`];
        const cost = budgetTokens(q.join('\n'));
        if (cost > left && kept.length > 0) break;
        left -= cost;
        kept.push({ i, lines: q });
        continue;
      }
      if (b - a + 1 <= WHOLE_OBJECT_LINES) for (let x = a; x <= b; x++) body.push(x);
      else {
        // identifying lines (the opening line and the first three leaves) and the lines that differ
        const want = new Set<number>([a, b]);
        const firstLeaves = r.node.entries!.slice(0, 3).map(([, v]) => lineOf(v.start));
        for (const x of firstLeaves) want.add(x);
        const why = marked[i]!.why.join(' ');
        for (let x = a; x <= b; x++) {
          const l = lines[x]!;
          if (ALERT.test(l) || intentHits(l, terms) > 0) want.add(x);
          const key = /^\s*"([^"]+)"\s*:/.exec(l)?.[1];
          if (key && why.includes(key)) want.add(x);
        }
        body.push(...[...want].sort((p, q) => p - q));
      }
      const q = [`${r.path} (lines ${firstLineNo + a}–${firstLineNo + b}; ${marked[i]!.why.slice(0, 3).join(', ')}):`];
      let prev = -1;
      for (const x of body) {
        if (prev >= 0 && x > prev + 1) q.push(`  … (lines ${firstLineNo + prev + 1}–${firstLineNo + x - 1} of this object elided) …`);
        q.push(`L${firstLineNo + x} ${clipLine(lines[x]!)}`);
        prev = x;
      }
      const cost = budgetTokens(q.join('\n'));
      if (cost > left && kept.length > 0) break;
      left -= cost;
      kept.push({ i, lines: q });
      for (const x of body) quoted.add(x);
    }
    kept.sort((p, q) => p.i - q.i);
    if (kept.length > 0) {
      out.push(`kept ${kept.length} of ${plural(recs.length, 'object')} (they differ, or the question names them):`);
      for (const k of kept) out.push(...k.lines);
    } else out.push(`no object differs from the others; first object: ${recs[0]!.path}`);
    const elidedObjects = recs.length - kept.length;
    if (elidedObjects > 0) out.push(`… ${plural(elidedObjects, 'object')} of ${pattern} summarised above, not quoted`);
  } else {
    // one object or a short array: its top-level shape, and the lines a marker or the question points at
    const keys =
      root.kind === 'object'
        ? root.entries!.map(([k, v]) => `${k} (${v.kind === 'object' ? `object, ${v.entries!.length} keys` : v.kind === 'array' ? `array of ${v.items!.length}` : 'value'})`)
        : [`${root.items!.length} items`];
    out.push(
      `[JSON document: ${root.kind}; lines ${firstLineNo}–${firstLineNo + lines.length - 1}]`,
      `top level: ${keys.slice(0, 20).join(', ')}${keys.length > 20 ? `, ${plural(keys.length - 20, 'more key')}` : ''}`,
    );
    let left = budget - budgetTokens(out.join('\n'));
    lines.forEach((l, x) => {
      if (!(ALERT.test(l) || intentHits(l, terms) > 0)) return;
      const q = `L${firstLineNo + x} ${clipLine(l)}`;
      const cost = budgetTokens(q) + 1;
      if (cost > left) return;
      left -= cost;
      out.push(q);
      quoted.add(x);
    });
  }
  const elided: number[] = [];
  lines.forEach((l, x) => {
    if (!quoted.has(x) && l.trim() !== '') elided.push(firstLineNo + x);
  });
  if (elided.length > 0) out.push(`elided (in [full]): lines ${numberRanges(elided)}`);
  return { text: out.join('\n'), method: 'json-records' };
}
