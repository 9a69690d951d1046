/**
 * The matrix site in one directory (docs/matrix.md "The site"): matrix.json, index.html, summary.md,
 * badges/<slug>.svg, and runs/<slug>/ (each run's messages, JUnit, --json report and coverage page, written
 * by the run itself). Everything here is rendered from matrix.json and the runs/ files alone, so a merge of
 * shards renders the same site as one run.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderPage, type EvidenceFinding } from './render-page.js';
import { renderColumnBadge, renderSummary } from './render-summary.js';
import type { MatrixDoc } from './types.js';

export function serializeMatrix(doc: MatrixDoc): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** The findings (with evidence) of a column's run, from runs/<slug>/report.json; none when it wrote none. */
export function evidenceFrom(dir: string): (slug: string) => EvidenceFinding[] {
  return (slug) => {
    const p = join(dir, 'runs', slug, 'report.json');
    if (!existsSync(p)) return [];
    try {
      const r = JSON.parse(readFileSync(p, 'utf8')) as { findings?: unknown };
      return Array.isArray(r.findings) ? (r.findings as EvidenceFinding[]) : [];
    } catch {
      return [];
    }
  };
}

export function writeSite(dir: string, doc: MatrixDoc): string[] {
  mkdirSync(join(dir, 'badges'), { recursive: true });
  const written: string[] = [];
  const put = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    written.push(join(dir, name));
  };
  put('matrix.json', serializeMatrix(doc));
  for (const c of doc.implementations) put(`badges/${c.slug}.svg`, renderColumnBadge(c));
  put('summary.md', renderSummary(doc));
  put('index.html', renderPage(doc, evidenceFrom(dir)));
  return written;
}
