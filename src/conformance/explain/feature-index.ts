/**
 * Which scenarios witness which id, read from the feature files the package ships (features/**\/*.feature):
 * each scenario's tags are its feature's, its rule's and its own (an outline's Examples tags count too).
 * `explain` lists them and builds the command that runs just them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { findPackageRoot } from '../../util/package-root.js';

export interface IndexedScenario {
  /** `features/provider/budget.feature`, `/`-separated, relative to the package root. */
  uri: string;
  line: number;
  name: string;
  /** Tag names without `@`. */
  tags: string[];
  /** provider | host | types, from the side tag. */
  side: 'provider' | 'host' | 'types' | 'unknown';
}

function featureFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...featureFiles(path));
    else if (name.endsWith('.feature')) out.push(path);
  }
  return out;
}

const tagsOf = (line: string): string[] => [...line.matchAll(/@([^\s@]+)/g)].map((m) => m[1]!);

export function parseFeature(uri: string, text: string): IndexedScenario[] {
  const out: IndexedScenario[] = [];
  let featureTags: string[] = [];
  let ruleTags: string[] = [];
  let pending: string[] = [];
  let current: IndexedScenario | undefined;
  text.split('\n').forEach((raw, i) => {
    const l = raw.trim();
    if (l.startsWith('#')) return;
    if (l.startsWith('@')) {
      pending.push(...tagsOf(l));
      return;
    }
    const kw = /^(Feature|Rule|Scenario Outline|Scenario Template|Scenario|Example|Examples|Scenarios):\s*(.*)$/.exec(l);
    if (!kw) return;
    const [, keyword, name] = kw;
    if (keyword === 'Feature') featureTags = pending;
    else if (keyword === 'Rule') ruleTags = pending;
    else if (keyword === 'Examples' || keyword === 'Scenarios') {
      if (current) for (const t of pending) if (!current.tags.includes(t)) current.tags.push(t);
    } else {
      const tags = [...new Set([...featureTags, ...ruleTags, ...pending])];
      const side = tags.includes('provider') ? 'provider' : tags.includes('host') ? 'host' : tags.includes('types') ? 'types' : 'unknown';
      current = { uri, line: i + 1, name: name!.trim(), tags, side };
      out.push(current);
    }
    pending = [];
  });
  return out;
}

let cache: IndexedScenario[] | undefined;

/** Every scenario of the shipped feature files. */
export function indexScenarios(root = findPackageRoot()): IndexedScenario[] {
  if (cache && root === findPackageRoot()) return cache;
  const dir = join(root, 'features');
  const all = featureFiles(dir).flatMap((f) => parseFeature(relative(root, f).split('\\').join('/'), readFileSync(f, 'utf8')));
  if (root === findPackageRoot()) cache = all;
  return all;
}

export function scenariosWitnessing(id: string, root?: string): IndexedScenario[] {
  return indexScenarios(root).filter((s) => s.tags.includes(id));
}
