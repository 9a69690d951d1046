// File-system side of the catalogue: compare or write the generated files under a repository root.
// (extract.ts stays pure; scripts/extract-rules.ts and the tests use these.)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { renderCatalogueFiles } from './extract.js';

/** Repo-relative paths of the generated catalogue files that differ from a fresh render of SPEC.md. */
export function staleCatalogueFiles(repoRoot: string): string[] {
  const files = renderCatalogueFiles(readFileSync(join(repoRoot, 'SPEC.md'), 'utf8'));
  return Object.entries(files)
    .filter(([rel, text]) => {
      const path = join(repoRoot, rel);
      return !existsSync(path) || readFileSync(path, 'utf8') !== text;
    })
    .map(([rel]) => rel);
}

/** Regenerate the catalogue files from SPEC.md; returns the repo-relative paths that changed. */
export function writeCatalogueFiles(repoRoot: string): string[] {
  const files = renderCatalogueFiles(readFileSync(join(repoRoot, 'SPEC.md'), 'utf8'));
  const written: string[] = [];
  for (const [rel, text] of Object.entries(files)) {
    const path = join(repoRoot, rel);
    if (existsSync(path) && readFileSync(path, 'utf8') === text) continue;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    written.push(rel);
  }
  return written;
}
