/**
 * exec(regexp, text) with native match indices (the RegExp `d` flag): the contract of the
 * `regexp-match-indices` polyfill's default export, which cucumber-expressions calls to find where each
 * parameter of a step sits. Without side effects, so that both ways cucumber is loaded can use it:
 * native-match-indices.ts puts it in node's module cache in the polyfill's place, and the linked build of
 * cucumber (linked-cucumber.ts) is built with it in the polyfill's place.
 */
type Exec = (regexp: RegExp, text: string) => RegExpExecArray | null;

/** The same regular expression with the `d` flag (cached per RegExp object, as the polyfill caches its rewrite). */
const withIndices = new WeakMap<RegExp, RegExp>();

/**
 * Per RegExp, the text every match must start with, where its source says so plainly: anchored (`^`), with
 * no alternative anywhere (`|`), no flag that changes what `^` or a letter matches (i, m), and the literal
 * characters up to the first one that is not a plain letter, digit, space or inert punctuation (a
 * character a quantifier follows is not part of it). '' when there is none.
 */
const prefixes = new WeakMap<RegExp, string>();

/** Per RegExp (neither global nor sticky), the texts it is known not to match. */
const knownMisses = new WeakMap<RegExp, Set<string>>();

function literalPrefix(regexp: RegExp): string {
  let prefix = prefixes.get(regexp);
  if (prefix !== undefined) return prefix;
  prefix = '';
  const source = regexp.source;
  if (source.startsWith('^') && !source.includes('|') && !/[im]/.test(regexp.flags)) {
    let end = 1;
    while (end < source.length && /[A-Za-z0-9 _,:;'"=<>@#%&!~-]/.test(source[end]!)) end++;
    // a quantifier binds the character before it
    if (end < source.length && /[?*+{]/.test(source[end]!)) end--;
    prefix = source.slice(1, Math.max(1, end));
  }
  prefixes.set(regexp, prefix);
  return prefix;
}

/** exec(regexp, text) with match indices: the contract of regexp-match-indices' default export. */
export const execWithIndices: Exec = (regexp, text) => {
  // Most calls are cucumber trying a step's text against every step definition, and most of those do not
  // match: a text that does not start as every match must is no match, and a regular expression whose
  // lastIndex plays no part (neither global nor sticky) says so without the slower search that records
  // indices.
  if (!regexp.global && !regexp.sticky) {
    if (!text.startsWith(literalPrefix(regexp))) return null;
    // and it says so once per text (a suite's steps repeat a few hundred texts; certify runs three suites)
    let misses = knownMisses.get(regexp);
    if (misses?.has(text)) return null;
    if (!regexp.test(text)) {
      if (misses === undefined) knownMisses.set(regexp, (misses = new Set()));
      misses.add(text);
      return null;
    }
  }
  let measured = withIndices.get(regexp);
  if (measured === undefined) {
    measured = regexp.hasIndices ? regexp : new RegExp(regexp.source, `${regexp.flags}d`);
    withIndices.set(regexp, measured);
  }
  measured.lastIndex = regexp.lastIndex;
  const match = measured.exec(text);
  if (measured !== regexp) regexp.lastIndex = measured.lastIndex;
  return match;
};
