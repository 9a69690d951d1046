// Which step definitions cite which anchors/rules in their comments (docs/architecture.md "Coverage report": ts-morph indexes
// the citations; cucumber's stepDefinition.sourceReference links scenarios to those definitions by (uri, line)).
//
// A citation is an id on a comment line that says so: `// spec: B3, B1`, `/** @spec S6.3-content-digest */`,
// `// anchors: H1 H3`, `// rules: S2.1-no-newline`, or a `SPEC.md#B3` link anywhere in a comment. An id-like
// token there that the catalogue does not know is an UnknownCatalogueIdError; other words and heading links
// (`SPEC.md#handshake-1`) are ignored.
//
// ts-morph is a development dependency: load this module dynamically (`await import(...)`), never from the
// runtime path of the bin.

import { relative, resolve } from 'node:path';
import type { CallExpression } from 'ts-morph';
import { loadCatalogue, type Catalogue } from '../../catalogue/index.js';
import { CatalogueIndex, looksLikeCatalogueId } from './ids.js';
import type { ParsedMessages } from './messages.js';
import { UnknownCatalogueIdError } from './types.js';

const STEP_FUNCTIONS = new Set(['Given', 'When', 'Then', 'defineStep']);
const COMMENT = /\/\/[^\n]*|\/\*[\s\S]*?\*\//g;
const CITATION_LINE = /(@spec\b|\bspec:|\banchors?:|\brules?:)/i;
const SPEC_LINK = /SPEC\.md#([A-Za-z0-9.-]+)/g;
const TOKEN = /[A-Za-z0-9][A-Za-z0-9.-]*/g;

export interface StepCitation {
  /** Relative to cwd, `/`-separated: the same form as cucumber's stepDefinition.sourceReference.uri. */
  uri: string;
  line: number;
  keyword: string;
  pattern: string;
  ids: string[];
}

export interface StepIndexOptions {
  cwd?: string;
  catalogue?: Catalogue;
}

/** Scans step files (paths or globs) for Given/When/Then calls and the ids their comments cite. */
export async function indexStepDefinitions(globs: readonly string[], options: StepIndexOptions = {}): Promise<StepCitation[]> {
  const { Project, SyntaxKind } = await import('ts-morph');
  const cwd = resolve(options.cwd ?? process.cwd());
  const index = new CatalogueIndex(options.catalogue ?? loadCatalogue());
  const project = new Project({ skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true });
  project.addSourceFilesAtPaths(globs.map((g) => resolve(cwd, g)));
  const out: StepCitation[] = [];
  for (const file of project.getSourceFiles()) {
    const uri = relative(cwd, file.getFilePath()).replace(/\\/g, '/');
    for (const call of file.getDescendantsOfKind(SyntaxKind.CallExpression)) {
      const keyword = call.getExpression().getText();
      if (!STEP_FUNCTIONS.has(keyword)) continue;
      const line = call.getStartLineNumber();
      const text = commentTextOf(call);
      out.push({ uri, line, keyword, pattern: patternOf(call), ids: citedIds(text, index, `${uri}:${line}`) });
    }
  }
  return out.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : a.line - b.line));
}

/** The ids a comment text cites; throws UnknownCatalogueIdError on an id-like unknown one. */
export function citedIds(text: string, index: CatalogueIndex, where: string): string[] {
  const ids = new Set<string>();
  for (const comment of text.match(COMMENT) ?? []) {
    for (const m of comment.matchAll(SPEC_LINK)) check(m[1] ?? '', ids, index, where);
    for (const line of comment.split('\n')) {
      const marker = CITATION_LINE.exec(line);
      if (!marker) continue;
      const rest = line.slice(marker.index + marker[0].length).replace(SPEC_LINK, ' ');
      for (const m of rest.matchAll(TOKEN)) check(m[0], ids, index, where);
    }
  }
  return [...ids].sort();
}

function check(token: string, ids: Set<string>, index: CatalogueIndex, where: string): void {
  const id = token.replace(/[.-]+$/, '');
  if (index.get(id)) ids.add(id);
  else if (looksLikeCatalogueId(id)) throw new UnknownCatalogueIdError(id, `${where} (step comment)`);
}

function commentTextOf(call: CallExpression): string {
  // The statement holding the call, with its leading comments, plus the comments inside the call itself.
  let node = call.getParent();
  while (node && !node.getKindName().endsWith('Statement') && node.getParent()) node = node.getParent();
  const statement = node ?? call;
  return statement.getFullText();
}

function patternOf(call: CallExpression): string {
  const first = call.getArguments()[0];
  if (!first) return '';
  const text = first.getText();
  if (/^['"`]/.test(text)) return text.slice(1, -1);
  return text;
}

export interface StepIndexReport {
  step_definitions: Array<StepCitation & { used_by: string[] }>;
  /** id → the step definitions citing it (`uri:line`). */
  citations: Record<string, string[]>;
  /** Scenarios tagged with an id none of their steps' definitions cite (informative). */
  uncited_tags: string[];
}

/** Joins the citations with the runs' stepDefinition sourceReferences by (uri, line). */
export function joinStepIndex(citations: readonly StepCitation[], runs: readonly ParsedMessages[], catalogue?: Catalogue): StepIndexReport {
  const index = new CatalogueIndex(catalogue ?? loadCatalogue());
  const key = (uri: string, line: number): string => `${uri}:${line}`;
  const byKey = new Map(citations.map((c) => [key(c.uri, c.line), c]));
  const usedBy = new Map<string, Set<string>>();
  const uncited = new Set<string>();
  for (const run of runs) {
    for (const s of run.scenarios) {
      const scenarioRef = `${s.feature}:${s.line}`;
      const cited = new Set<string>();
      for (const d of s.stepDefinitions) {
        const k = key(d.uri, d.line);
        const set = usedBy.get(k) ?? new Set<string>();
        set.add(scenarioRef);
        usedBy.set(k, set);
        for (const id of byKey.get(k)?.ids ?? []) cited.add(id);
      }
      for (const id of index.idsFromTags(s.tags, scenarioRef)) {
        if (!cited.has(id)) uncited.add(`${scenarioRef} @${id}`);
      }
    }
  }
  const ids: Record<string, string[]> = {};
  for (const e of [...index.catalogue.anchors, ...index.catalogue.rules]) {
    const list = citations.filter((c) => c.ids.includes(e.id)).map((c) => key(c.uri, c.line));
    if (list.length > 0) ids[e.id] = list;
  }
  return {
    step_definitions: citations.map((c) => ({
      ...c,
      used_by: [...(usedBy.get(key(c.uri, c.line)) ?? [])].sort(compareRef),
    })),
    citations: ids,
    uncited_tags: [...uncited].sort(compareRef),
  };
}

/** `file:line…` references: by file, then line as a number. */
function compareRef(a: string, b: string): number {
  const ma = /^(.*):(\d+)(.*)$/.exec(a);
  const mb = /^(.*):(\d+)(.*)$/.exec(b);
  if (!ma || !mb) return a < b ? -1 : a > b ? 1 : 0;
  const [, fa = '', la = '0', ra = ''] = ma;
  const [, fb = '', lb = '0', rb = ''] = mb;
  if (fa !== fb) return fa < fb ? -1 : 1;
  if (la !== lb) return Number(la) - Number(lb);
  return ra < rb ? -1 : ra > rb ? 1 : 0;
}
