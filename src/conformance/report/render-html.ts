// coverage.html: one self-contained page (inline CSS, no scripts, no external assets) with the same data as
// coverage.json. Failed and unwitnessed rows are highlighted and listed again at the top.

import type { Catalogue } from '../../catalogue/index.js';
import { conformanceVerdict } from './build.js';
import { bySection, countStatuses, failedBy, sectionsOf } from './render-common.js';
import type { CoverageEntry, CoverageReport, EntryStatus } from './types.js';

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem;color:#1b1b1b;line-height:1.4}
h1{font-size:1.5rem}h2{margin-top:2rem}h3{margin-top:1.5rem;font-size:1.05rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{border:1px solid #ccc;padding:.3rem .5rem;vertical-align:top;text-align:left;font-size:.9rem}
th{background:#f0f0f0}
.verdict{font-size:1.15rem;font-weight:bold;padding:.6rem .8rem;border-radius:4px;display:inline-block}
.verdict.ok{background:#e3f4e4;color:#1e5f22}.verdict.bad{background:#fde2e2;color:#8e1414}
tr.failed,tr.unwitnessed{background:#fde2e2;font-weight:bold}
tr.warning{background:#fff4d6}tr.not-applicable{color:#666}
.status-failed,.status-unwitnessed{color:#8e1414}.status-witnessed{color:#1e5f22}.status-warning{color:#7a5200}
ul.attention li{color:#8e1414;font-weight:bold}
code{font-size:.85rem}
`;

export function renderHtml(report: CoverageReport, catalogue?: Catalogue): string {
  const sections = sectionsOf(catalogue);
  const verdict = conformanceVerdict(report);
  const s = report.summary;
  const rs = countStatuses(report.rules);
  const out: string[] = [];
  out.push('<!DOCTYPE html>', '<html lang="en">', '<head>', '<meta charset="utf-8">');
  out.push(`<title>CGP coverage — ${esc(report.target)}</title>`, `<style>${STYLE}</style>`, '</head>', '<body>');
  out.push(`<h1>CGP coverage — ${esc(report.target)}</h1>`);
  out.push(
    `<p>Protocol <code>${esc(report.protocol_version)}</code> · cgp-conformance ${esc(report.tool_version)}</p>`,
  );
  out.push(
    verdict.conformant
      ? `<p class="verdict ok">✅ conformant — ${s.witnessed} of ${s.applicable} applicable anchors witnessed (${report.anchors.length} in the spec)</p>`
      : `<p class="verdict bad">❌ NOT CONFORMANT — ${verdict.mustFailed.length} MUST failed, ${verdict.unwitnessed.length} applicable anchor(s) without a passing witness</p>`,
  );
  out.push('<table><thead><tr><th></th><th>total</th><th>witnessed</th><th>warning</th><th>failed</th><th>unwitnessed</th><th>not applicable</th><th>applicable</th></tr></thead><tbody>');
  out.push(
    `<tr><th>Anchors</th><td>${report.anchors.length}</td><td>${s.witnessed}</td><td>${s.warning}</td><td>${s.failed}</td><td>${s.unwitnessed}</td><td>${s.not_applicable}</td><td>${s.applicable}</td></tr>`,
  );
  out.push(
    `<tr><th>Rules</th><td>${report.rules.length}</td><td>${rs.witnessed}</td><td>${rs.warning}</td><td>${rs.failed}</td><td>${rs.unwitnessed}</td><td>${rs['not-applicable']}</td><td>${report.rules.length - rs['not-applicable']}</td></tr>`,
  );
  out.push('</tbody></table>');

  const loud = [...report.anchors, ...report.rules].filter((e) => e.status === 'failed' || e.status === 'unwitnessed');
  if (loud.length > 0) {
    out.push('<h2>❌ Needs attention</h2>', '<ul class="attention">');
    for (const e of loud) {
      const why = e.status === 'failed' ? failedBy(e) : (e.reason ?? '');
      out.push(`<li>❌ ${esc(e.id)} (${e.level}, ${e.side}) ${e.status.toUpperCase()}${why ? ` — ${esc(why)}` : ''}</li>`);
    }
    out.push('</ul>');
  }
  out.push('<h2>Anchors</h2>');
  table(out, report.anchors, 'Anchor', sections);
  out.push('<h2>Rules without an anchor</h2>');
  table(out, report.rules, 'Rule', sections);
  out.push('</body>', '</html>', '');
  return out.join('\n');
}

function table(out: string[], entries: readonly CoverageEntry[], head: string, sections: ReadonlyMap<string, string>): void {
  for (const [section, list] of bySection(entries, sections)) {
    out.push(`<h3>§${esc(section)}</h3>`);
    out.push(
      `<table><thead><tr><th>${head}</th><th>Level</th><th>Side</th><th>Status</th><th>Witnesses</th><th>Requirement</th></tr></thead><tbody>`,
    );
    for (const e of list) {
      const witnesses = e.witnesses
        .map((w) => `<code>${esc(w.feature)}:${w.line}</code> ${esc(w.scenario)} (${esc(w.status)})`)
        .join('<br>');
      out.push(
        `<tr class="${e.status}" id="${esc(e.id)}"><td>${statusMark(e.status)}${esc(e.id)}</td><td>${e.level}</td><td>${e.side}</td>` +
          `<td class="status-${e.status}">${statusText(e)}</td><td>${witnesses || '—'}</td><td>${esc(e.text)}</td></tr>`,
      );
    }
    out.push('</tbody></table>');
  }
}

function statusMark(status: EntryStatus): string {
  return status === 'failed' || status === 'unwitnessed' ? '❌ ' : '';
}

function statusText(e: CoverageEntry): string {
  const label: Record<EntryStatus, string> = {
    witnessed: '✅ witnessed',
    warning: '⚠️ warning',
    failed: '❌ FAILED',
    unwitnessed: '❌ UNWITNESSED',
    'not-applicable': '➖ not applicable',
  };
  const reason = e.reason ? (e.status === 'not-applicable' ? ` (${esc(e.reason)})` : ` — ${esc(e.reason)}`) : '';
  return `${label[e.status]}${reason}`;
}

function esc(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
