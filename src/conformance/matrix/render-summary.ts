/**
 * summary.md (short enough for a pull-request comment: one table row per implementation, at most
 * MAX_CHANGE_LINES lines of changes and one line of failed ids per implementation) and the badge per
 * implementation (badges/<slug>.svg). docs/matrix.md "The site".
 */
import { badgeSvg } from '../report/badge.js';
import { changeCount, changeLines } from './diff.js';
import type { Column, MatrixDoc } from './types.js';

export const MAX_CHANGE_LINES = 20;
const MAX_IDS_PER_LINE = 12;

function md(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function runText(c: Column): string {
  if (c.outcome === 'completed') return `completed (exit ${c.exit_code})`;
  return c.exit_code === null ? c.outcome : `${c.outcome} (exit ${c.exit_code})`;
}

export function scoreText(c: Column): string {
  return c.score === null ? '—' : `${c.score.must_met}/${c.score.must_applicable}`;
}

export function renderSummary(doc: MatrixDoc): string {
  const out: string[] = [];
  out.push('## CGP conformance matrix', '');
  out.push(`${doc.implementations.length} implementation${doc.implementations.length === 1 ? '' : 's'} · ${doc.protocol_version} · cgp-conformance ${doc.tool_version}`, '');
  if (doc.changes !== undefined) {
    const c = doc.changes;
    const n = changeCount(c);
    out.push(
      n === 0
        ? `**What changed** since ${c.previous_generated_at}: nothing.`
        : `**What changed** since ${c.previous_generated_at}: ${c.new_failures.length} new failure(s), ${c.fixes.length} fix(es), ${c.other.length} other cell change(s), ${c.added.length} added, ${c.gone.length} gone, ${c.version_changes.length} version change(s), ${c.outcome_changes.length} run change(s).`,
    );
    const lines = changeLines(c);
    for (const l of lines.slice(0, MAX_CHANGE_LINES)) out.push(`- ${md(l)}`);
    if (lines.length > MAX_CHANGE_LINES) out.push(`- … and ${lines.length - MAX_CHANGE_LINES} more (the page lists them all)`);
    out.push('');
  }
  out.push('| implementation | side | version | MUSTs met | failed | warning | unverified | run |', '|---|---|---|---|---|---|---|---|');
  for (const c of doc.implementations) {
    out.push(
      `| ${md(c.name)} | ${c.side} | ${md(c.version ?? '—')} | ${scoreText(c)} | ${c.score === null ? '—' : c.totals.failed} | ${c.score === null ? '—' : c.totals.warning} | ${c.score === null ? '—' : c.totals.unverified} | ${md(runText(c))} |`,
    );
  }
  const red = doc.implementations.filter((c) => c.totals.failed > 0 || c.outcome !== 'completed');
  if (red.length > 0) {
    out.push('', '**Red**:');
    for (const c of red) {
      if (c.outcome !== 'completed') {
        out.push(`- ${md(c.name)}: ${md((c.reason ?? c.outcome).slice(0, 200))}`);
        continue;
      }
      const ids = Object.entries(c.cells)
        .filter(([, cell]) => cell.status === 'failed')
        .map(([id, cell]) => (cell.known !== undefined ? `${id} (known)` : id));
      out.push(`- ${md(c.name)}: ${ids.slice(0, MAX_IDS_PER_LINE).join(', ')}${ids.length > MAX_IDS_PER_LINE ? `, … (${ids.length} failed)` : ''}`);
    }
  }
  out.push('');
  return `${out.join('\n')}\n`;
}

/** "CGP · <name> | MUST 58/60" (green: every applicable MUST met; red: a MUST failed; grey: no verdict). */
export function renderColumnBadge(c: Column): string {
  const label = `CGP · ${c.name}`;
  const mustFailed = c.score !== null && Object.values(c.cells).some((x) => x.status === 'failed');
  const message = c.score === null ? c.outcome.replace('-', ' ') : `MUST ${c.score.must_met}/${c.score.must_applicable}${mustFailed ? ' · failed' : ''}`;
  const color = c.score === null ? '#6b6b6b' : mustFailed ? '#c62828' : c.score.must_met === c.score.must_applicable ? '#2e7d32' : '#b26a00';
  return badgeSvg(label, message, color, `${label}: ${message}`);
}
