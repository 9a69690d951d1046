// Runtime access to the rule catalogue: reads generated/anchors.json and generated/rules.json (produced
// from SPEC.md by scripts/extract-rules.ts). Works from src/ under tsx and from a compiled dist/src/.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATALOGUE_LEVELS, CATALOGUE_SIDES, type Catalogue, type CatalogueEntry, type CatalogueKind } from './types.js';

export type { Catalogue, CatalogueEntry, CatalogueKind, CatalogueLevel, CatalogueSide } from './types.js';
export { CATALOGUE_LEVELS, CATALOGUE_SIDES } from './types.js';

const ANCHORS_FILE = join('generated', 'anchors.json');
const RULES_FILE = join('generated', 'rules.json');

let repoRoot: string | undefined;

/**
 * The repository root: the nearest ancestor of this module's directory that holds generated/anchors.json
 * (src/catalogue/ → ../.., dist/src/catalogue/ → ../../..).
 */
export function catalogueRepoRoot(): string {
  // found once: every scenario looks its ids up (findCatalogueEntry)
  repoRoot ??= findRepoRoot();
  return repoRoot;
}

function findRepoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, ANCHORS_FILE))) return dir;
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error(`rule catalogue not found: no ${ANCHORS_FILE} above ${fileURLToPath(import.meta.url)}`);
    }
    dir = parent;
  }
}

const cache = new Map<string, Catalogue>();

/** Load the generated catalogue (cached per root). `repoRoot` defaults to the repository this module is in. */
export function loadCatalogue(repoRoot?: string): Catalogue {
  const root = resolve(repoRoot ?? catalogueRepoRoot());
  const cached = cache.get(root);
  if (cached) return cached;
  const catalogue: Catalogue = {
    anchors: readEntries(join(root, ANCHORS_FILE), 'anchors', 'anchor'),
    rules: readEntries(join(root, RULES_FILE), 'rules', 'rule'),
  };
  cache.set(root, catalogue);
  return catalogue;
}

/** Look an anchor or rule id up in the catalogue. */
export function findCatalogueEntry(id: string, repoRoot?: string): CatalogueEntry | undefined {
  const { anchors, rules } = loadCatalogue(repoRoot);
  return anchors.find((e) => e.id === id) ?? rules.find((e) => e.id === id);
}

function readEntries(path: string, member: 'anchors' | 'rules', kind: CatalogueKind): CatalogueEntry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read rule catalogue ${path}: ${(err as Error).message}`);
  }
  const list = (parsed as Record<string, unknown> | null)?.[member];
  if (!Array.isArray(list)) throw new Error(`${path}: missing "${member}" array`);
  return list.map((raw, index) => {
    const e = raw as Partial<CatalogueEntry>;
    const ok =
      typeof e.id === 'string' &&
      e.kind === kind &&
      typeof e.section === 'string' &&
      CATALOGUE_LEVELS.includes(e.level as CatalogueEntry['level']) &&
      CATALOGUE_SIDES.includes(e.side as CatalogueEntry['side']) &&
      typeof e.text === 'string';
    if (!ok) throw new Error(`${path}: ${member}[${index}] is not a valid ${kind} entry`);
    return { id: e.id, kind, section: e.section, level: e.level, side: e.side, text: e.text } as CatalogueEntry;
  });
}
