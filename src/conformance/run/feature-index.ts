/**
 * The scenarios a tag expression selects, read from an index of the feature files instead of parsing them.
 *
 * A suite run must know what it selects before it starts anything (selection.ts): a selection of nothing is
 * a usage error, and the fresh connections the selected scenarios open are started ahead. Parsing the
 * features for that takes cucumber, loaded, and a parse of every file, which cucumber then repeats when it
 * runs them. The build (scripts/finish-build.mjs) writes dist/bundle/features.json: for every feature file,
 * its path, a digest of its text and its pickles (each scenario, and each Examples row of an outline) with
 * the line cucumber gives it and its tags, inherited ones included. A run reads it, checks that the feature
 * files it would run are exactly the ones indexed, each with the text indexed, and evaluates the tag
 * expression on each pickle's tags as cucumber's own filter does (@cucumber/tag-expressions). Where the index
 * is missing or does not match the files (a checkout whose features changed since its build), it says so
 * (undefined) and the run parses the features as before.
 */
import parseTagExpression from '@cucumber/tag-expressions';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SelectedScenario } from './selection.js';

export const FEATURE_INDEX_VERSION = 1;

/** One feature file in the index. `uri` is relative to the package root, with forward slashes (cucumber's pickle uri). */
export interface IndexedFeature {
  uri: string;
  sha256: string;
  pickles: Array<{ line: number; tags: string[] }>;
}

export interface FeatureIndex {
  version: typeof FEATURE_INDEX_VERSION;
  features: IndexedFeature[];
}

/** Where the build writes the index. */
export function featureIndexFile(root: string): string {
  return join(root, 'dist', 'bundle', 'features.json');
}

/** The digest the index keeps of a feature file's text. */
export function featureDigest(text: Buffer | string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The .feature files under features/<dir> (every depth), as uris relative to the root, sorted. */
export function featureFiles(root: string, dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    let entries;
    try {
      entries = readdirSync(join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const child = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(child);
      else if (e.name.endsWith('.feature')) out.push(child);
    }
  };
  for (const dir of dirs) walk(`features/${dir}`);
  return out.sort();
}

function readIndex(root: string): FeatureIndex | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(featureIndexFile(root), 'utf8'));
  } catch {
    return undefined;
  }
  const index = parsed as Partial<FeatureIndex> | null;
  if (index === null || typeof index !== 'object' || index.version !== FEATURE_INDEX_VERSION || !Array.isArray(index.features)) return undefined;
  return index as FeatureIndex;
}

/**
 * The pickles of features/<dirs> that `tags` selects, from the build's index; undefined when there is no
 * index, or when the feature files are not exactly the ones it indexed, with the text it indexed.
 */
export function indexedSelection(root: string, dirs: readonly string[], tags: string): SelectedScenario[] | undefined {
  const index = readIndex(root);
  if (index === undefined) return undefined;
  const files = featureFiles(root, dirs);
  const inDirs = index.features.filter((f) => dirs.some((d) => f.uri.startsWith(`features/${d}/`)));
  if (inDirs.length !== files.length) return undefined;
  const byUri = new Map(inDirs.map((f) => [f.uri, f]));
  const expression = parseTagExpression(tags);
  const selected: SelectedScenario[] = [];
  for (const uri of files) {
    const indexed = byUri.get(uri);
    if (indexed === undefined) return undefined;
    let text: Buffer;
    try {
      text = readFileSync(join(root, uri));
    } catch {
      return undefined;
    }
    if (featureDigest(text) !== indexed.sha256) return undefined;
    for (const p of indexed.pickles) if (expression.evaluate(p.tags)) selected.push({ uri, line: p.line });
  }
  return selected;
}
