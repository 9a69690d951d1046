/**
 * Path references → query.anchors (§5: anchors are URIs the host considers focal).
 * An absolute path becomes a file:// URI; a relative one becomes a file:// URI only when a workspace
 * root is given and the path resolves to an existing entry inside it; `file://` URIs are kept; anything
 * else (no root, `~/…`, outside the root, missing) is kept exactly as typed — never guessed at.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { asciiTrim } from './lines.js';

export interface Anchor {
  /** The anchor as it goes into query.anchors. */
  uri: string;
  /** The path as it was typed. */
  typed: string;
  /** How it was read: `uri` (typed as a URI), `absolute`, `root` (resolved against the root), `as-typed`. */
  how: 'uri' | 'absolute' | 'root' | 'as-typed';
}

export function anchorFor(text: string, root?: string): Anchor {
  const typed = asciiTrim(text);
  if (/^file:\/\//.test(typed)) return { uri: typed, typed, how: 'uri' };
  if (typed.startsWith('/') && isAbsolute(typed)) {
    const href = pathToFileURL(typed).href;
    return { uri: typed.endsWith('/') && !href.endsWith('/') ? `${href}/` : href, typed, how: 'absolute' };
  }
  if (root !== undefined && !typed.startsWith('~')) {
    const base = resolve(root);
    const target = resolve(base, typed);
    const rel = relative(base, target);
    const inside = rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
    if (inside && existsSync(target)) return { uri: pathToFileURL(target).href, typed, how: 'root' };
  }
  return { uri: typed, typed, how: 'as-typed' };
}
