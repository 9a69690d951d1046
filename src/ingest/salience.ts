/**
 * What differs in a repeated structure (docs/interpretations.md §120): the items of any repeated structure —
 * table rows, JSON objects, records, key/value lines — are compared field by field, and an item is
 * kept verbatim when something about it differs from its peers:
 *
 * - a rare value of a categorical field: the field has few kinds of value (the values as written when
 *   there are few, else digits folded to `#`, so `Up 3 hours` and `Up 9 days` are one kind), the commonest
 *   held by at least a quarter of the items; a value is rare when it is held by at most a fifth as many
 *   items as the commonest, and the field's rare items together are at most max(1, 5 %) of the items;
 * - a numeric outlier of its field: the top (or bottom) k ≤ max(1, 5 %) values stand apart from the
 *   rest by a gap at least twice the rest's own range (on a linear scale, or on a log scale when every
 *   value is positive), so `100 %` among 0–32 %, `398.0` among 0.0–4.0 and `3.7e+07` among 1e+10–9e+10
 *   are outliers, and a uniform spread (ids, counters) has none;
 * - a field present on at most max(1, 5 %) of the items (a `StateReason` only the stopped instance has);
 * - an error, failed or destructive marker (ALERT) that at most 30 % of the items carry;
 * - a term of the question that at most 30 % of the items mention (a term every item mentions does not
 *   tell them apart).
 * Everything else is summarised: per field its values with counts, or its range and median.
 * Deterministic: a function of the items in order.
 */
import { intentHits } from './intent.js';
import { plural } from './wording.js';

export interface Item {
  /** Field name → value as written (a missing field is absent). */
  fields: ReadonlyArray<readonly [string, string]>;
  /** The item's text, for markers and the question's terms. */
  text: string;
}

export interface Marked {
  /** Why the item is kept (empty: summarised). */
  why: string[];
  /** The fields it differs in, the markers it carries, the question's terms it mentions — for a short "why". */
  tags: string[];
  score: number;
}

/** Error, failed and destructive markers (whole words; a marker most items carry is not a difference). */
export const ALERT =
  /\b(?:fail(?:ed|ure|ing|s)?|errors?|exception|denied|refused|timed? ?out|timeout|killed|oom|out of memory|panic|fatal|crash\w*|unhealthy|unreachable|backoff|abort(?:ed)?|segfault|critical|emerg|destroy(?:ed)?|must be replaced|forces replacement|delet(?:e|ed|ing)|drop(?:ped)?|exit(?:ed)? (?:code|status) [1-9]\d*|not ok)\b|✗|✘|-\/\+ /i;

const SIZE = /^([+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*(%|[kKMGTP]i?B?|B|ms|s|us|µs|μs|ns|m|h)?$/;
const UNIT: Record<string, number> = { '': 1, '%': 1, B: 1, k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, ms: 1, s: 1000, us: 1e-3, µs: 1e-3, μs: 1e-3, ns: 1e-6, m: 60_000, h: 3_600_000 };

/** A value read as a number (units scaled: `98G`, `4.0K`, `1.12s`, `44%`, `-18,450.00`), or undefined. */
export function numberOf(raw: string): number | undefined {
  let v = raw.trim().replace(/^["']|["']$/g, '');
  if (v.startsWith('$') || v.startsWith('€') || v.startsWith('£')) v = v.slice(1);
  v = v.replace(/(\d),(\d{3})/g, '$1$2');
  const m = SIZE.exec(v);
  if (!m) return undefined;
  let unit = m[2] ?? '';
  if (/^[kKMGTP]i?B?$/.test(unit)) unit = unit[0]!;
  const scale = UNIT[unit];
  if (scale === undefined) return undefined;
  const n = Number(m[1]) * scale;
  return Number.isFinite(n) ? n : undefined;
}

/** Digits folded (`Up 3 hours` → `Up # hours`), for telling a categorical value's kind. */
export function fold(v: string): string {
  return v.replace(/\d+(?:\.\d+)?/g, '#');
}

interface FieldStats {
  name: string;
  present: number;
  numeric: boolean;
  values: string[];
  /** Folded value → count (categorical fields only). */
  counts?: Map<string, number>;
  categorical: boolean;
  keyOf?: (v: string) => string;
  top?: number;
  lo?: number;
  hi?: number;
  median?: number;
  /** Raw text of the min and max, as written. */
  loText?: string;
  hiText?: string;
}

export interface Analysis {
  marked: Marked[];
  /** One line per field worth a summary (`STATUS: Running ×69, CrashLoopBackOff ×1`, `%CPU 0.0–398.0 (median 2.0)`). */
  summaries: string[];
}

function rareMax(n: number): number {
  return Math.max(1, Math.floor(n * 0.05));
}

/** Indices of the values that stand apart (see the module comment), or none. */
export function outliers(values: ReadonlyArray<number | undefined>): Set<number> {
  const idx: number[] = [];
  values.forEach((v, i) => {
    if (v !== undefined) idx.push(i);
  });
  const out = new Set<number>();
  const n = idx.length;
  if (n < 5) return out;
  const byValue = [...idx].sort((a, b) => values[a]! - values[b]!);
  const k = rareMax(n);
  const positive = byValue.every((i) => values[i]! > 0);
  const scales: Array<(x: number) => number> = positive ? [(x) => x, Math.log10] : [(x) => x];
  for (const f of scales) {
    const s = byValue.map((i) => f(values[i]!));
    for (let j = 1; j <= k; j++) {
      // top j stand apart from the rest
      const gapHi = s[n - j]! - s[n - j - 1]!;
      const restHi = s[n - j - 1]! - s[0]!;
      if (gapHi > 0 && gapHi >= 2 * restHi && gapHi > 1e-9 * Math.abs(s[n - j]!)) for (let x = n - j; x < n; x++) out.add(byValue[x]!);
      const gapLo = s[j]! - s[j - 1]!;
      const restLo = s[n - 1]! - s[j]!;
      if (gapLo > 0 && gapLo >= 2 * restLo && gapLo > 1e-9 * Math.abs(s[j - 1]!)) for (let x = 0; x < j; x++) out.add(byValue[x]!);
    }
  }
  return out;
}

/** The value nearest the extreme one (what the rest reach), as written. */
function secondHigh(st: FieldStats): string {
  const xs = st.values
    .filter((v) => v.trim() !== '')
    .map((v) => ({ v: v.trim(), n: numberOf(v)! }))
    .sort((a, b) => b.n - a.n);
  return xs.find((x) => x.n < xs[0]!.n)?.v ?? xs[0]!.v;
}

function secondLow(st: FieldStats): string {
  const xs = st.values
    .filter((v) => v.trim() !== '')
    .map((v) => ({ v: v.trim(), n: numberOf(v)! }))
    .sort((a, b) => a.n - b.n);
  return xs.find((x) => x.n > xs[0]!.n)?.v ?? xs[0]!.v;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}

function statsOf(name: string, values: string[], n: number): FieldStats {
  const present = values.filter((v) => v.trim() !== '');
  const nums = present.map(numberOf);
  const numeric = present.length > 0 && nums.every((x) => x !== undefined);
  const st: FieldStats = { name, present: present.length, numeric, values, categorical: false };
  // categories are the values as written when there are few of them, else their kinds (digits folded)
  const raw = new Set(present.map((v) => v.trim()));
  const few = Math.max(6, Math.ceil(n * 0.1));
  const keyOf = numeric || raw.size <= few ? (v: string) => v.trim() : (v: string) => fold(v.trim());
  const counts = new Map<string, number>();
  for (const v of present) counts.set(keyOf(v), (counts.get(keyOf(v)) ?? 0) + 1);
  let top = 0;
  for (const c of counts.values()) top = Math.max(top, c);
  st.keyOf = keyOf;
  st.top = top;
  // categorical: few kinds of value, one of them held by at least a quarter of the items, and not a
  // pattern every value shares (ips, ids: one kind, many values)
  st.categorical = present.length >= 3 && counts.size <= few && top * 4 >= present.length && top >= 3 && counts.size < present.length && !(counts.size === 1 && raw.size > 1);
  if (st.categorical) st.counts = counts;
  if (numeric) {
    const xs = nums as number[];
    let lo = 0;
    let hi = 0;
    xs.forEach((x, i) => {
      if (x < xs[lo]!) lo = i;
      if (x > xs[hi]!) hi = i;
    });
    st.lo = xs[lo];
    st.hi = xs[hi];
    st.loText = present[lo]!.trim();
    st.hiText = present[hi]!.trim();
    st.median = median(xs);
  }
  return st;
}

function fmt(x: number): string {
  return Math.abs(x) >= 1e6 || (Math.abs(x) < 1e-3 && x !== 0) ? x.toPrecision(3) : String(Math.round(x * 1000) / 1000);
}

/** Display value of a folded categorical key: the raw value when every value of that kind is the same, else the kind (`Up # hours`). */
function shown(st: FieldStats, key: string): string {
  if (st.numeric) return key;
  let one: string | undefined;
  for (const v of st.values) {
    if (v.trim() === '' || st.keyOf!(v) !== key) continue;
    if (one === undefined) one = v.trim();
    else if (one !== v.trim()) return key;
  }
  return one ?? key;
}

export function analyse(items: readonly Item[], terms: readonly string[], opts: { numericSummaries?: boolean; nameField?: string } = {}): Analysis {
  const n = items.length;
  const names: string[] = [];
  const seen = new Set<string>();
  for (const it of items) {
    for (const [k] of it.fields) {
      if (!seen.has(k)) {
        seen.add(k);
        names.push(k);
      }
    }
  }
  const valuesOf = (name: string) => items.map((it) => it.fields.find(([k]) => k === name)?.[1] ?? '');
  const stats = names.map((name) => statsOf(name, valuesOf(name), n));
  const marked: Marked[] = items.map(() => ({ why: [], tags: [], score: 0 }));
  const tag = (i: number, t: string) => {
    if (!marked[i]!.tags.includes(t)) marked[i]!.tags.push(t);
  };
  if (n >= 3 && n < 5) {
    // too few items for rates and gaps: one item whose value of a field every item has differs from the value
    // all the others share stands apart (`status "locked"` beside three "active")
    for (const st of stats) {
      if (st.present < n) continue;
      const keys = st.values.map((v) => st.keyOf!(v));
      const counts = new Map<string, number>();
      for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
      if (counts.size !== 2 || ![...counts.values()].includes(n - 1)) continue;
      const i = keys.findIndex((k) => counts.get(k) === 1);
      const others = st.values.find((_, j) => j !== i)!.trim();
      marked[i]!.why.push(`${st.name} ${JSON.stringify(st.values[i]!.trim())} (the other ${n - 1}: ${JSON.stringify(others)})`);
      tag(i, st.name);
      marked[i]!.score += 3;
    }
  }
  if (n >= 5) {
    for (const st of stats) {
      // a field few items have
      if (st.present <= rareMax(n) && n >= 8) {
        st.values.forEach((v, i) => {
          if (v.trim() !== '') {
            marked[i]!.why.push(`has ${st.name} (${st.present} of ${n})`);
            tag(i, st.name);
            marked[i]!.score += 3;
          }
        });
        continue;
      }
      if (st.categorical && st.counts && st.counts.size > 1) {
        // a rare value is an odd one out: the field's rare items together are at most max(1, 5 %)
        const rare = st.values.map((v) => v.trim() !== '' && st.counts!.get(st.keyOf!(v))! <= rareMax(n) && st.counts!.get(st.keyOf!(v))! * 5 <= st.top!);
        if (rare.filter(Boolean).length <= rareMax(n)) {
          st.values.forEach((v, i) => {
            if (!rare[i]) return;
            marked[i]!.why.push(`${st.name} ${JSON.stringify(v.trim())} (${st.counts!.get(st.keyOf!(v))} of ${n})`);
            tag(i, st.name);
            marked[i]!.score += 3;
          });
        }
      }
      if (st.numeric && !(st.categorical && st.counts && st.counts.size <= 2 && st.lo === st.hi)) {
        const nums = st.values.map((v) => (v.trim() === '' ? undefined : numberOf(v)));
        for (const i of outliers(nums)) {
          if (marked[i]!.why.some((w) => w.startsWith(`${st.name} `))) continue;
          marked[i]!.why.push(
            `${st.name} ${st.values[i]!.trim()} (others ${st.loText === st.values[i]!.trim() ? 'from' : 'to'} ${st.loText === st.values[i]!.trim() ? secondLow(st) : secondHigh(st)})`,
          );
          tag(i, st.name);
          marked[i]!.score += 3;
        }
      }
    }
    // markers and the question's terms, when they tell the items apart
    const alertCount = items.filter((it) => ALERT.test(it.text)).length;
    if (alertCount * 10 <= n * 3) {
      items.forEach((it, i) => {
        const m = ALERT.exec(it.text);
        if (m) {
          marked[i]!.why.push(`marker ${JSON.stringify(m[0].trim())}`);
          tag(i, `marker ${JSON.stringify(m[0].trim())}`);
          marked[i]!.score += 3;
        }
      });
    }
  }
  for (const t of terms) {
    const hit = items.map((it) => intentHits(it.text, [t]) > 0);
    const c = hit.filter(Boolean).length;
    if (c === 0 || (n >= 4 && c * 10 > n * 3)) continue;
    hit.forEach((h, i) => {
      if (h) {
        marked[i]!.why.push(`mentions ${JSON.stringify(t)}`);
        tag(i, `mentions ${JSON.stringify(t)}`);
        marked[i]!.score += 2;
      }
    });
  }
  return {
    marked,
    summaries: summarise(
      stats.filter((st) => st.name !== opts.nameField),
      n,
      opts.numericSummaries !== false,
    ),
  };
}

function summarise(stats: readonly FieldStats[], n: number, numericSummaries: boolean): string[] {
  const out: string[] = [];
  const constant: string[] = [];
  for (const st of stats) {
    if (st.present === 0) continue;
    if (st.categorical && st.counts && st.counts.size === 1 && st.present === n) {
      const v = shown(st, [...st.counts.keys()][0]!);
      if (!v.includes('#') || st.numeric) constant.push(`${st.name} ${v.length > 40 ? `${v.slice(0, 40)}…` : v}`);
      continue;
    }
    if (st.categorical && st.counts) {
      const top = [...st.counts].sort((a, b) => b[1] - a[1]);
      const short = (v: string) => (v.length > 40 ? `${v.slice(0, 40)}…` : v);
      const shownList = top.slice(0, 5).map(([k, c]) => `${short(shown(st, k))} ×${c}`);
      if (top.length > 5) shownList.push(`${plural(top.length - 5, 'more value')}`);
      out.push(`${st.name}: ${shownList.join(', ')}${st.present < n ? ` (${st.present} of ${n} have it)` : ''}`);
    } else if (st.numeric && st.lo !== undefined) {
      // a median is shown only for plain numbers (values with units are compared in a base unit)
      const plain = st.values.every((v) => v.trim() === '' || /^[+-]?[\d.,]+(?:[eE][+-]?\d+)?$/.test(v.trim()));
      if (numericSummaries && st.lo !== st.hi) out.push(`${st.name}: ${st.loText}..${st.hiText}${plain ? ` (median ${fmt(st.median!)})` : ''}`);
    } else {
      // many distinct values: say how many, and any value that repeats notably
      const counts = new Map<string, number>();
      for (const v of st.values) if (v.trim() !== '') counts.set(v.trim(), (counts.get(v.trim()) ?? 0) + 1);
      const rep = [...counts].filter(([, c]) => c >= 3 && c * 10 >= st.present).sort((a, b) => b[1] - a[1]);
      if (rep.length > 0)
        out.push(
          `${st.name}: ${rep
            .slice(0, 3)
            .map(([v, c]) => `${v.length > 60 ? `${v.slice(0, 60)}…` : v} ×${c}`)
            .join(', ')}; ${counts.size} distinct`,
        );
    }
  }
  if (constant.length > 0) out.push(`the same on every one: ${constant.join(' · ')}`);
  return out;
}
