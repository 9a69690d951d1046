/**
 * `cgp-conformance explain <id>`: everything the package knows about one anchor or rule id — the requirement
 * (text, level, side, section), the SPEC.md passage stating it, the readings of docs/interpretations.md that
 * apply, the scenarios that witness it, the misbehaviour modes and host variants that prove its check can
 * fail, and the command that runs just those scenarios.
 */
import { findCatalogueEntry, loadCatalogue, type CatalogueEntry } from '../../catalogue/index.js';
import { interpretationsFor, specPassage, specSection } from '../../catalogue/documents.js';
import { HOST_MISBEHAVIOURS } from '../host-suite/variants/manifest.js';
import { MISBEHAVIOURS } from '../../provider/misbehaviours.js';
import { scenariosWitnessing, type IndexedScenario } from './feature-index.js';

export interface Explanation {
  id: string;
  kind: CatalogueEntry['kind'];
  level: CatalogueEntry['level'];
  side: CatalogueEntry['side'];
  section: string;
  section_title: string | null;
  requirement: string;
  spec: { file: 'SPEC.md'; line: number; passage: string } | null;
  interpretations: Array<{ section: number; title: string; cite: string; interprets: string }>;
  scenarios: Array<{ uri: string; line: number; name: string; side: IndexedScenario['side'] }>;
  misbehaviours: Array<{ side: 'provider' | 'host'; mode: string; description: string; command: string }>;
  commands: string[];
}

/** The command that runs just the scenarios tagged with `id`, per side that has some. */
export function commandsFor(id: string, scenarios: readonly IndexedScenario[]): string[] {
  const out: string[] = [];
  if (scenarios.some((s) => s.side === 'provider')) {
    out.push(`npx cgp-conformance stdio --tags @${id} -- <your provider command>`, `npx cgp-conformance http --tags @${id} <your provider URL>`);
  }
  // the published-types scenarios (@types) travel with the host run (run-suite)
  if (scenarios.some((s) => s.side === 'host' || s.side === 'types')) out.push(`npx cgp-conformance host --tags @${id} [--adapter <module> | --cmd "<host command>"]`);
  return out;
}

export function explain(id: string): Explanation | undefined {
  const entry = findCatalogueEntry(id);
  if (!entry) return undefined;
  const section = specSection(entry.section);
  const passage = specPassage(entry);
  const scenarios = scenariosWitnessing(id);
  const modes = [
    ...MISBEHAVIOURS.filter((m) => (m.breaks as readonly string[]).includes(id)).map((m) => ({
      side: 'provider' as const,
      mode: m.mode,
      description: m.description,
      command: `npx cgp-conformance stdio --tags @${id} -- npx cgp-conformance provider --misbehave ${m.mode}`,
    })),
    ...HOST_MISBEHAVIOURS.filter((m) => m.breaks.includes(id)).map((m) => ({
      side: 'host' as const,
      mode: m.mode,
      description: m.description,
      command: `npx cgp-conformance host --tags @${id} --misbehave ${m.mode}`,
    })),
  ];
  return {
    id: entry.id,
    kind: entry.kind,
    level: entry.level,
    side: entry.side,
    section: entry.section,
    section_title: section?.title ?? null,
    requirement: entry.text,
    spec: passage ? { file: 'SPEC.md', line: passage.line, passage: passage.text } : null,
    interpretations: interpretationsFor(entry).map((i) => ({ section: i.number, title: i.title, cite: `docs/interpretations.md §${i.number}`, interprets: i.interprets })),
    scenarios: scenarios.map((s) => ({ uri: s.uri, line: s.line, name: s.name, side: s.side })),
    misbehaviours: modes,
    commands: commandsFor(entry.id, scenarios),
  };
}

/** One catalogue id as `explain --list` shows it: its level, side, section and its requirement on one line. */
export interface ListedId {
  id: string;
  kind: CatalogueEntry['kind'];
  level: CatalogueEntry['level'];
  side: CatalogueEntry['side'];
  section: string;
  requirement: string;
}

/** Every anchor (SPEC order) and every rule id (catalogue order), each with its requirement as one line. */
export function listIds(): ListedId[] {
  const { anchors, rules } = loadCatalogue();
  return [...anchors, ...rules].map((e) => ({ id: e.id, kind: e.kind, level: e.level, side: e.side, section: e.section, requirement: e.text.replace(/\s+/g, ' ').trim() }));
}

export function renderIdList(list: readonly ListedId[]): string {
  const w = (pick: (e: ListedId) => string) => Math.max(...list.map((e) => pick(e).length));
  const wi = w((e) => e.id);
  const wl = w((e) => e.level);
  const ws = w((e) => e.side);
  const wsec = w((e) => `§${e.section}`);
  const row = (e: ListedId) => `${e.id.padEnd(wi)}  ${e.level.padEnd(wl)}  ${e.side.padEnd(ws)}  ${`§${e.section}`.padEnd(wsec)}  ${e.requirement}`;
  const anchors = list.filter((e) => e.kind === 'anchor');
  const rules = list.filter((e) => e.kind === 'rule');
  return `${[
    `${anchors.length} anchors (SPEC.md requirement tables):`,
    ...anchors.map(row),
    '',
    `${rules.length} rules without an anchor (normative sentences of SPEC.md):`,
    ...rules.map(row),
    '',
    'cgp-conformance explain <id> shows one in full: its SPEC.md passage, readings, scenarios and red-team modes.',
  ].join('\n')}\n`;
}

function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

/** The catalogue ids nearest to an unknown one (case-insensitive edit distance; prefix matches first). */
export function nearestIds(id: string, n = 5): string[] {
  const { anchors, rules } = loadCatalogue();
  const q = id.toLowerCase();
  return [...anchors, ...rules]
    .map((e) => {
      const k = e.id.toLowerCase();
      const d = k.startsWith(q) || q.startsWith(k) ? Math.abs(k.length - q.length) / 100 : distance(q, k);
      return { id: e.id, d };
    })
    .sort((x, y) => x.d - y.d || x.id.localeCompare(y.id))
    .slice(0, n)
    .map((x) => x.id);
}

const indent = (text: string, by = '    '): string =>
  text
    .split('\n')
    .map((l) => `${by}${l}`)
    .join('\n');

export function renderExplanation(e: Explanation): string {
  const out: string[] = [];
  out.push(`${e.id} — ${e.level}, ${e.side} side, SPEC.md §${e.section}${e.section_title ? ` ${e.section_title}` : ''} (${e.kind})`, '');
  out.push('Requirement:', indent(e.requirement), '');
  if (e.spec) out.push(`SPEC.md line ${e.spec.line}:`, indent(e.spec.passage), '');
  out.push('Interpretations:');
  if (e.interpretations.length === 0) out.push('    none: the toolkit reads the requirement as written');
  for (const i of e.interpretations) out.push(`    ${i.cite} ${i.title}${i.interprets ? ` (interprets: ${i.interprets})` : ''}`);
  out.push('', 'Witnessing scenarios:');
  if (e.scenarios.length === 0) out.push('    none: no scenario is tagged with this id');
  for (const s of e.scenarios) out.push(`    ${s.uri}:${s.line}  ${s.name}`);
  out.push('', 'Proved to fail by (red team):');
  if (e.misbehaviours.length === 0) out.push('    no misbehaviour mode or host variant breaks this id');
  for (const m of e.misbehaviours) out.push(`    ${m.side === 'provider' ? 'provider mode' : 'host variant '} ${m.mode} — ${m.description}`);
  out.push('', 'Run just these scenarios:');
  if (e.commands.length === 0) out.push('    (none to run)');
  for (const c of e.commands) out.push(`    ${c}`);
  return `${out.join('\n')}\n`;
}
