// Which tags name catalogue ids. A tag that LOOKS like an anchor (`@B9`: one to three capitals and a number)
// or like a rule id (`@S6.3-content-digest`: S, a section number, a dash and a name) must be in the catalogue —
// an unknown one is an error, never silently ignored. Every other tag (`@provider`, `@needs-verify`, `@wip`)
// is left alone.

import type { Catalogue, CatalogueEntry } from '../../catalogue/index.js';
import { UnknownCatalogueIdError } from './types.js';

const ANCHOR_LIKE = /^[A-Z]{1,3}[0-9]+$/;
const RULE_LIKE = /^S[0-9]+(?:\.[0-9]+)*-[A-Za-z0-9][A-Za-z0-9.-]*$/;

export function looksLikeCatalogueId(id: string): boolean {
  return ANCHOR_LIKE.test(id) || RULE_LIKE.test(id);
}

export class CatalogueIndex {
  readonly byId = new Map<string, CatalogueEntry>();

  constructor(readonly catalogue: Catalogue) {
    for (const e of [...catalogue.anchors, ...catalogue.rules]) this.byId.set(e.id, e);
  }

  get(id: string): CatalogueEntry | undefined {
    return this.byId.get(id);
  }

  /** The catalogue ids a scenario's tags name; throws UnknownCatalogueIdError on an id-like unknown tag. */
  idsFromTags(tags: readonly string[], where: string): string[] {
    const ids = new Set<string>();
    for (const tag of tags) {
      const name = tag.startsWith('@') ? tag.slice(1) : tag;
      if (this.byId.has(name)) ids.add(name);
      else if (looksLikeCatalogueId(name)) throw new UnknownCatalogueIdError(name, `${where} (tag @${name})`);
    }
    return [...ids];
  }

  /** Checks an id a finding names; throws UnknownCatalogueIdError when it is not in the catalogue. */
  requireFindingId(id: string, where: string): CatalogueEntry {
    const entry = this.byId.get(id);
    if (!entry) throw new UnknownCatalogueIdError(id, `${where} (finding)`);
    return entry;
  }
}

/**
 * The catalogue id a failure message starts with (docs/architecture.md "Failure messages": `B3 violated: …`), after an
 * optional `Error: ` / `AssertionError [ERR_ASSERTION]: ` prefix. Unknown ids in free text are not errors.
 */
export function idFromFailureMessage(message: string, index: CatalogueIndex): string | undefined {
  const m = /^\s*(?:[A-Za-z]*Error(?: \[[^\]]*\])?:\s*)?([A-Z][A-Za-z0-9.-]*)/.exec(message);
  if (!m) return undefined;
  let candidate = m[1] ?? '';
  // `B3:` / `S6.3-content-digest.` — drop trailing punctuation the regexp may have taken.
  candidate = candidate.replace(/[.-]+$/, '');
  return index.get(candidate) ? candidate : undefined;
}

/**
 * Every catalogue id of the list a failure message starts with (`B1, B3: the target failed …` → B1, B3;
 * `B4 violated: …` → B4), after an optional error-name prefix.
 */
export function idsFromFailureMessage(message: string, index: CatalogueIndex): string[] {
  const m = /^\s*(?:[A-Za-z]*Error(?: \[[^\]]*\])?:\s*)?([A-Z][A-Za-z0-9.-]*(?:, [A-Z][A-Za-z0-9.-]*)*)/.exec(message);
  if (!m) return [];
  return m[1]!
    .split(', ')
    .map((c) => c.replace(/[.-]+$/, ''))
    .filter((c) => index.get(c) !== undefined);
}
