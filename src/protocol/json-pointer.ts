/** RFC 6901 JSON pointers, built from a base pointer and reference tokens. */

/** Escape one reference token: `~` → `~0`, `/` → `~1` (RFC 6901 §3). */
export function escapePointerToken(token: string | number): string {
  if (typeof token === 'number') return String(token);
  // most tokens need no escape: skip the two regex passes
  if (!token.includes('~') && !token.includes('/')) return token;
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** `pointerJoin('/result', 'frames', 0)` → `/result/frames/0`. */
export function pointerJoin(base: string, ...tokens: Array<string | number>): string {
  let out = base;
  for (const t of tokens) out += `/${escapePointerToken(t)}`;
  return out;
}
