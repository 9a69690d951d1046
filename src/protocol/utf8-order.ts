/**
 * String order by UTF-8 bytes (= Unicode code point order), as the canonical FrameId order of
 * §6.3 requires — not JavaScript's default UTF-16 code-unit order, which puts an astral
 * character (surrogate pair, D800–DFFF) BEFORE a private-use BMP character (E000–FFFF) although
 * its UTF-8 bytes (F0…) sort after (EE…/EF…).
 *
 * Done without encoding: at the first differing code unit, surrogates are ranked above
 * E000–FFFF. For well-formed strings this equals `Buffer.compare` of the UTF-8 encodings.
 * Lone surrogates (only reachable through JSON `\ud800` escapes) still get a deterministic
 * total order, consistent with string equality.
 */

function rank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit <= 0xdfff ? unit + 0x2000 : unit - 0x800;
}

/** Negative, 0 or positive as `a` sorts before, equal to, or after `b` in UTF-8 byte order. */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return rank(x) < rank(y) ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}
