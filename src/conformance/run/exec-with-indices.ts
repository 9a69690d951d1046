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

/** Per RegExp (neither global nor sticky), the texts it is known not to match. */
const knownMisses = new WeakMap<RegExp, Set<string>>();

/** exec(regexp, text) with match indices: the contract of regexp-match-indices' default export. */
export const execWithIndices: Exec = (regexp, text) => {
  // Most calls are cucumber trying a step's text against every step definition, and most of those do not
  // match: a regular expression whose lastIndex plays no part (neither global nor sticky) says so without
  // the slower search that records indices, and says it once per text (a suite's steps repeat the same
  // few hundred texts; a run of several suites in one process, as certify is, tries them again).
  if (!regexp.global && !regexp.sticky) {
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
