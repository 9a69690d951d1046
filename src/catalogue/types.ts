// The rule catalogue's entry shape (docs/architecture.md "Rule catalogue"). One entry per anchor parsed from a SPEC.md
// requirement table (kind "anchor") or per normative prose sentence that carries no anchor (kind "rule").

export type CatalogueKind = 'anchor' | 'rule';

/** MUST violated = failure; SHOULD not met = warning; MAY = permission; advisory = reported through the rule that backs it. */
export type CatalogueLevel = 'MUST' | 'SHOULD' | 'MAY' | 'advisory';

/** Who the rule binds: a provider, a host, either side, or the published types/schemas themselves. */
export type CatalogueSide = 'provider' | 'host' | 'both' | 'types';

export interface CatalogueEntry {
  /** Anchor (`H1`, `UR1`) or rule id (`S6.3-content-digest`). */
  id: string;
  kind: CatalogueKind;
  /** Section number of the SPEC.md heading the entry sits under, e.g. "6.4.1". */
  section: string;
  level: CatalogueLevel;
  side: CatalogueSide;
  /** The requirement (or sentence) text with Markdown formatting removed. */
  text: string;
}

export interface Catalogue {
  anchors: CatalogueEntry[];
  rules: CatalogueEntry[];
}

export const CATALOGUE_LEVELS: readonly CatalogueLevel[] = ['MUST', 'SHOULD', 'MAY', 'advisory'];
export const CATALOGUE_SIDES: readonly CatalogueSide[] = ['provider', 'host', 'both', 'types'];
