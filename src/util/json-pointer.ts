/** RFC 6901 JSON pointers: escaping, joining and splitting reference tokens (one home for every layer). */

/** Escape one reference token: `~` → `~0`, `/` → `~1` (RFC 6901 §3). */
export function escapePointerToken(token: string | number): string {
  if (typeof token === 'number') return String(token);
  // most tokens need no escape: skip the two regex passes
  if (!token.includes('~') && !token.includes('/')) return token;
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Undo escapePointerToken: `~1` → `/`, then `~0` → `~` (RFC 6901 §4). */
export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** `pointerJoin('/result', 'frames', 0)` → `/result/frames/0`. */
export function pointerJoin(base: string, ...tokens: Array<string | number>): string {
  let out = base;
  for (const t of tokens) out += `/${escapePointerToken(t)}`;
  return out;
}

/** Split a JSON pointer ("" or "/a/b", optionally prefixed with "#") into unescaped tokens. */
export function pointerTokens(pointer: string): string[] {
  const p = pointer.startsWith('#') ? pointer.slice(1) : pointer;
  if (p === '') return [];
  if (!p.startsWith('/')) throw new Error(`not a JSON pointer: ${JSON.stringify(pointer)}`);
  return p.slice(1).split('/').map(unescapePointerToken);
}
