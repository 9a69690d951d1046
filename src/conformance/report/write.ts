/**
 * Build the coverage report from message files and write it: coverage.json / .md / .html and badge.svg in
 * one directory. Shared by `cgp-conformance report` (from files a run left) and `certify` (right after its
 * runs).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureReportsDir } from '../run/reports-dir.js';
import { renderBadge } from './badge.js';
import { buildCoverage, conformanceVerdict, type ConformanceVerdict } from './build.js';
import { renderHtml } from './render-html.js';
import { detailsFromMessages } from './page-details.js';
import { renderMarkdown } from './render-markdown.js';
import type { CoverageReport, RunSide } from './types.js';

export interface WrittenCoverage {
  report: CoverageReport;
  verdict: ConformanceVerdict;
  files: string[];
}

export function writeCoverage(opts: { messages: readonly string[]; target: string; side: RunSide; outDir: string }): WrittenCoverage {
  const report = buildCoverage({ messages: [...opts.messages], target: opts.target, side: opts.side });
  const dir = ensureReportsDir(opts.outDir);
  const outputs: Array<[string, string]> = [
    ['coverage.json', `${JSON.stringify(report, null, 2)}\n`],
    ['coverage.md', renderMarkdown(report)],
    // the page also shows failure messages and transcripts (and, for one run, the target's ack)
    ['coverage.html', renderHtml(report, undefined, pageDetails(opts.messages))],
    ['badge.svg', renderBadge(report)],
  ];
  const files: string[] = [];
  for (const [name, text] of outputs) {
    const path = join(dir, name);
    writeFileSync(path, text);
    files.push(path);
  }
  return { report, verdict: conformanceVerdict(report), files };
}

function pageDetails(messages: readonly string[]) {
  const d = detailsFromMessages(messages);
  return messages.length === 1 ? d : { ...(d.scenarios ? { scenarios: d.scenarios } : {}) };
}

/** The verdict in a few lines of text (what `report` and `certify` print). */
export function verdictText(report: CoverageReport, verdict: ConformanceVerdict): string {
  const s = report.summary;
  const lines = [
    `coverage: ${s.witnessed} witnessed, ${s.warning} warning, ${s.failed} failed, ${s.unwitnessed} unwitnessed, ${s.not_applicable} not applicable — ${s.applicable} applicable of ${report.anchors.length} anchors`,
  ];
  if (verdict.mustFailed.length > 0) {
    lines.push(`MUST FAILED (${verdict.mustFailed.length}):`);
    for (const e of verdict.mustFailed) {
      const by = e.witnesses.filter((w) => w.status === 'failed').map((w) => `${w.feature}:${w.line}`);
      lines.push(`  ${e.id}  ${by.join(', ')}`);
    }
  }
  if (verdict.unwitnessed.length > 0) {
    lines.push(`APPLICABLE ANCHORS WITHOUT A PASSING WITNESS (${verdict.unwitnessed.length}):`);
    for (const e of verdict.unwitnessed) lines.push(`  ${e.id}  ${e.status}${e.reason ? ` — ${e.reason}` : ''}`);
  }
  lines.push(verdict.conformant ? 'CONFORMANT' : 'NOT CONFORMANT');
  return `${lines.join('\n')}\n`;
}
