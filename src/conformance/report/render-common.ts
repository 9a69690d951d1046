// Helpers shared by the Markdown and HTML renderers.

import { loadCatalogue, type Catalogue } from '../../catalogue/index.js';
import type { CoverageEntry, EntryStatus } from './types.js';

export function bySection(entries: readonly CoverageEntry[], sections: ReadonlyMap<string, string>): Map<string, CoverageEntry[]> {
  const out = new Map<string, CoverageEntry[]>();
  for (const e of entries) {
    const section = sections.get(e.id) ?? '?';
    const list = out.get(section) ?? [];
    list.push(e);
    out.set(section, list);
  }
  return out;
}

/** id → SPEC section number, from the catalogue (the report shape itself does not carry sections). */
export function sectionsOf(catalogue: Catalogue = loadCatalogue()): Map<string, string> {
  return new Map([...catalogue.anchors, ...catalogue.rules].map((e) => [e.id, e.section]));
}

export function failedBy(e: CoverageEntry): string {
  const by = e.witnesses.filter((w) => w.status === 'failed').map((w) => `${w.feature}:${w.line} ${w.scenario}`);
  return by.length > 0 ? `failed in ${by.join('; ')}` : '';
}

export function countStatuses(entries: readonly CoverageEntry[]): Record<EntryStatus, number> {
  const counts: Record<EntryStatus, number> = {
    witnessed: 0,
    warning: 0,
    failed: 0,
    unwitnessed: 0,
    'not-applicable': 0,
  };
  for (const e of entries) counts[e.status] += 1;
  return counts;
}
