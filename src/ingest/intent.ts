/**
 * The intent's terms, for weighting what a distiller keeps (never for rewriting the goal: query.goal is
 * the intent byte for byte). Words of 3+ letters minus stop words, folded to a crude stem (`failing` →
 * `fail`, `orders` → `order`), so `why are orders failing` matches `/api/v2/orders` and `failed`.
 */
const STOP = new Set(
  'the and are was were why what when where which who how does did doing this that these those with from into for not but you your our its it is be been being can could should would will there their them they have has had any all some out off over under again then than too very just only also about after before why here help fix figure find look see show tell please keep going goes get got give make made seems seem ive im dont cant wont'.split(
    ' ',
  ),
);

export function intentTerms(intent: string | undefined): string[] {
  if (!intent) return [];
  const out = new Set<string>();
  for (const w of intent.toLowerCase().split(/[^\p{L}\p{N}_]+/u)) {
    if (w.length < 3 || STOP.has(w) || /^\d+$/.test(w)) continue;
    out.add(stem(w));
  }
  return [...out].filter((s) => s.length >= 3);
}

export function stem(w: string): string {
  for (const suffix of ['ing', 'ed', 'es', 's']) {
    if (w.length - suffix.length >= 4 && w.endsWith(suffix)) return w.slice(0, w.length - suffix.length);
  }
  return w;
}

/** How many of the terms the text mentions (case-insensitive substring of a stem). */
export function intentHits(text: string, terms: readonly string[]): number {
  if (terms.length === 0) return 0;
  const t = text.toLowerCase();
  let n = 0;
  for (const s of terms) if (t.includes(s)) n++;
  return n;
}
