// coverage.md: the same data as coverage.json, one table per SPEC section. Failed and unwitnessed rows are
// bold with ❌ and repeated at the top under "Needs attention"; nothing is folded away.

import type { Catalogue } from '../../catalogue/index.js';
import { conformanceVerdict } from './build.js';
import { bySection, countStatuses, failedBy, sectionsOf } from './render-common.js';
import type { CoverageEntry, CoverageReport, EntryStatus } from './types.js';

export function renderMarkdown(report: CoverageReport, catalogue?: Catalogue): string {
  const sections = sectionsOf(catalogue);
  const verdict = conformanceVerdict(report);
  const s = report.summary;
  const out: string[] = [];
  out.push(`# CGP coverage — ${inline(report.target)}`, '');
  out.push(`Protocol \`${report.protocol_version}\` · cgp-conformance ${inline(report.tool_version)}`, '');
  out.push(
    verdict.conformant
      ? `**Verdict: ✅ conformant** — ${s.witnessed} of ${s.applicable} applicable anchors witnessed (${report.anchors.length} anchors in the spec).`
      : `**Verdict: ❌ NOT CONFORMANT** — ${verdict.mustFailed.length} MUST failed, ${verdict.unwitnessed.length} applicable anchor(s) without a passing witness.`,
    '',
  );
  out.push('| Anchors | witnessed | warning | failed | unwitnessed | not applicable | applicable |');
  out.push('|---|---|---|---|---|---|---|');
  out.push(`| ${report.anchors.length} | ${s.witnessed} | ${s.warning} | ${s.failed} | ${s.unwitnessed} | ${s.not_applicable} | ${s.applicable} |`);
  const rs = countStatuses(report.rules);
  out.push('', '| Rules | witnessed | warning | failed | unwitnessed | not applicable |', '|---|---|---|---|---|---|');
  out.push(`| ${report.rules.length} | ${rs.witnessed} | ${rs.warning} | ${rs.failed} | ${rs.unwitnessed} | ${rs['not-applicable']} |`);

  const loud = [...report.anchors, ...report.rules].filter((e) => e.status === 'failed' || e.status === 'unwitnessed');
  if (loud.length > 0) {
    out.push('', '## ❌ Needs attention', '');
    for (const e of loud) {
      const why = e.status === 'failed' ? failedBy(e) : (e.reason ?? '');
      out.push(`- **❌ ${e.id}** (${e.level}, ${e.side}) **${e.status.toUpperCase()}**${why ? ` — ${inline(why)}` : ''}`);
    }
  }

  out.push('', '## Anchors');
  renderSections(out, report.anchors, 'Anchor', sections);
  out.push('', '## Rules without an anchor');
  renderSections(out, report.rules, 'Rule', sections);
  out.push('');
  return out.join('\n');
}

function renderSections(out: string[], entries: readonly CoverageEntry[], head: string, sections: ReadonlyMap<string, string>): void {
  for (const [section, list] of bySection(entries, sections)) {
    out.push('', `### §${section}`, '');
    out.push(`| ${head} | Level | Side | Status | Witnesses | Requirement |`, '|---|---|---|---|---|---|');
    for (const e of list) {
      const loud = e.status === 'failed' || e.status === 'unwitnessed';
      const id = loud ? `**❌ ${cell(e.id)}**` : cell(e.id);
      const witnesses = e.witnesses.map((w) => `\`${cell(w.feature)}:${w.line}\` ${cell(w.scenario)} (${w.status})`).join('<br>');
      out.push(`| ${id} | ${e.level} | ${e.side} | ${statusCell(e)} | ${witnesses || '—'} | ${cell(e.text)} |`);
    }
  }
}

function statusCell(e: CoverageEntry): string {
  const label: Record<EntryStatus, string> = {
    witnessed: '✅ witnessed',
    warning: '⚠️ warning',
    failed: '**❌ FAILED**',
    unwitnessed: '**❌ UNWITNESSED**',
    'not-applicable': '➖ not applicable',
  };
  const reason = e.reason ? (e.status === 'not-applicable' ? ` (${cell(e.reason)})` : ` — ${cell(e.reason)}`) : '';
  return `${label[e.status]}${reason}`;
}

/** Text safe inside a Markdown table cell. */
function cell(text: string): string {
  return inline(text).replace(/\|/g, '\\|');
}

function inline(text: string): string {
  return text
    .replace(/\r?\n/g, ' ')
    .replace(/\\/g, '\\\\')
    .replace(/([*_`])/g, '\\$1')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}
