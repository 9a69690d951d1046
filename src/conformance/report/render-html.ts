// coverage.html: one self-contained page (inline CSS and SVG, no external assets, no emoji) with the data of
// coverage.json plus what a reader needs to act: a header naming the target and its handshake_ack, the
// failures first (each with its message and a collapsible wire transcript), every id linked to its SPEC.md
// section (the section texts are embedded at the end of the page, so the links work offline), not-applicable
// reasons in the table, filters by side, level and status, and a print layout.
//
// The filters are pure CSS (checkboxes + :has()), so they work from file:// with scripts disabled; the only
// script is inline and opens every transcript before printing.

import type { Catalogue, CatalogueEntry } from '../../catalogue/index.js';
import { loadCatalogue } from '../../catalogue/index.js';
import { specSection, type SpecSection } from '../../catalogue/documents.js';
import type { WireEntry } from '../evidence/evidence.js';
import type { ScenarioSummary, TargetIdentity } from '../provider-suite/summary.js';
import { conformanceVerdict } from './build.js';
import { runOutcome, type ReportFinding } from './outcome.js';
import { failingIds } from '../provider-suite/summary.js';
import { bySection, countStatuses, failedBy, sectionsOf } from './render-common.js';
import type { CoverageEntry, CoverageReport, EntryStatus } from './types.js';

/** What the page shows beyond coverage.json: the run's scenarios (messages, transcripts) and the target's ack. */
export interface PageDetails {
  target?: TargetIdentity;
  scenarios?: readonly ScenarioSummary[];
}

const SIDES = ['provider', 'host', 'both', 'types'] as const;
const LEVELS = ['MUST', 'SHOULD', 'MAY', 'advisory'] as const;
const STATUSES: readonly EntryStatus[] = ['failed', 'unwitnessed', 'warning', 'witnessed', 'not-applicable'];
const STATUS_LABEL: Record<EntryStatus, string> = {
  witnessed: 'witnessed',
  warning: 'warning',
  failed: 'FAILED',
  unwitnessed: 'UNWITNESSED',
  'not-applicable': 'not applicable',
};

// Status marks as inline SVG (no font or emoji needed); aria-hidden, the status word is always written next to it.
const MARK: Record<EntryStatus, string> = {
  witnessed: '<path d="M3 8.5l3.2 3.2L13 4.8" fill="none" stroke="currentColor" stroke-width="2.2"/>',
  failed: '<path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" stroke-width="2.2"/>',
  warning: '<path d="M8 2L15 14H1z" fill="none" stroke="currentColor" stroke-width="1.6"/><path d="M8 6.5v3.6M8 11.6v1" stroke="currentColor" stroke-width="1.6"/>',
  unwitnessed: '<circle cx="8" cy="8" r="5.6" fill="none" stroke="currentColor" stroke-width="1.8"/><path d="M8 5v3.6M8 10.4v1" stroke="currentColor" stroke-width="1.8"/>',
  'not-applicable': '<path d="M3.5 8h9" stroke="currentColor" stroke-width="2"/>',
};

function mark(status: EntryStatus): string {
  return `<svg class="mark m-${status}" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">${MARK[status]}</svg>`;
}

function filterCss(): string {
  const rules: string[] = [];
  const dims: Array<[string, readonly string[]]> = [
    ['side', SIDES],
    ['level', LEVELS],
    ['status', STATUSES],
  ];
  for (const [dim, values] of dims) {
    for (const v of values) {
      rules.push(`body:has(#f-${dim}-${v}:not(:checked)) [data-${dim}="${v}"]{display:none}`);
    }
  }
  return rules.join('\n');
}

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;margin:1.5rem 2rem;color:#1b1b1b;line-height:1.4}
h1{font-size:1.5rem;margin-bottom:.3rem}h2{margin-top:2rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}h3{margin-top:1.5rem;font-size:1.05rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{border:1px solid #ccc;padding:.3rem .5rem;vertical-align:top;text-align:left;font-size:.9rem}
th{background:#f0f0f0}
a{color:#0b4f8a}
code,pre{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"Liberation Mono",monospace;font-size:.82rem}
pre{white-space:pre-wrap;word-break:break-all;background:#f7f7f7;border:1px solid #e2e2e2;padding:.5rem;margin:.3rem 0}
.verdict{font-size:1.15rem;font-weight:bold;padding:.6rem .8rem;border-radius:4px;display:inline-flex;gap:.5rem;align-items:center}
.verdict.ok{background:#e3f4e4;color:#1e5f22}.verdict.bad{background:#fde2e2;color:#8e1414}
.verdict .mark{width:18px;height:18px}
tr.failed,tr.unwitnessed{background:#fde2e2;font-weight:bold}
tr.warning{background:#fff4d6}tr.not-applicable{color:#555}
.mark{vertical-align:-2px;margin-right:.3rem;flex:none}
.m-failed,.m-unwitnessed,.status-failed,.status-unwitnessed{color:#a31515}.m-witnessed,.status-witnessed{color:#1e6b23}.m-warning,.status-warning{color:#8a5a00}.m-not-applicable{color:#666}
.reason{display:block;font-weight:normal;color:#444;font-size:.85rem}
.ack{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:.6rem 0;font-size:.9rem}
.ack dt{font-weight:bold}.ack dd{margin:0}
.filters{display:flex;flex-wrap:wrap;gap:1.2rem;background:#f5f7fa;border:1px solid #d8dee6;padding:.5rem .8rem;border-radius:4px;margin:1rem 0}
.filters fieldset{border:none;margin:0;padding:0}.filters legend{font-weight:bold;font-size:.85rem;padding:0}
.filters label{margin-right:.6rem;font-size:.88rem;white-space:nowrap}
.finding{border:1px solid #e3b4b4;border-left:5px solid #a31515;border-radius:3px;padding:.4rem .8rem;margin:.7rem 0;background:#fffafa}
.finding.warn{border-color:#e8d39c;border-left-color:#8a5a00;background:#fffdf5}
.finding.harness{border-color:#c9c9c9;border-left-color:#555;background:#fafafa}
.finding h3{margin:.2rem 0;font-size:1rem;display:flex;align-items:center}
.finding .where{color:#444;font-size:.85rem}
details summary{cursor:pointer;color:#0b4f8a;font-size:.9rem;margin:.3rem 0}
table.wire td{font-size:.8rem}table.wire td.line{font-family:ui-monospace,Menlo,Consolas,monospace;word-break:break-all}
table.wire td.dir,table.wire td:nth-child(3){white-space:nowrap}
table.wire tr.proof td{background:#fff1c2}table.wire tr.proof td.dir{box-shadow:inset 4px 0 0 #a31515}
table.wire tr.sent td.dir{color:#0b4f8a}table.wire tr.received td.dir{color:#5b2c83}
.spec{margin-top:1rem}.spec pre{background:#fbfbf4}
.note{color:#444;font-size:.88rem}
${filterCss()}
@media print{
  body{margin:0;font-size:10pt}
  .filters,.noprint{display:none!important}
  tr.failed,tr.unwitnessed,tr.warning{-webkit-print-color-adjust:exact;print-color-adjust:exact}
  .finding{break-inside:avoid}
  table{page-break-inside:auto}tr{break-inside:avoid}
  a{color:inherit;text-decoration:none}
  details summary{display:none}
  .spec{break-before:page}
}
`;

// Opens every transcript before printing, and closes them again afterwards (the print CSS cannot open <details>).
const PRINT_SCRIPT = `
(function(){var opened=[];addEventListener('beforeprint',function(){document.querySelectorAll('details:not([open])').forEach(function(d){d.open=true;opened.push(d);});});
addEventListener('afterprint',function(){opened.forEach(function(d){d.open=false;});opened=[];});})();
`;

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const specAnchor = (section: string) => `spec-${section.replace(/[^0-9.]/g, '').replace(/\./g, '-')}`;

function idLink(id: string, sections: ReadonlyMap<string, string>): string {
  const s = sections.get(id);
  return s ? `<a href="#${specAnchor(s)}" title="SPEC.md §${esc(s)}">${esc(id)}</a>` : esc(id);
}

function wireTable(entries: readonly WireEntry[], proof: ReadonlySet<number> = new Set()): string {
  const rows = entries.map((e, i) => {
    const dir = e.direction === 'sent' ? 'sent &rarr; target' : 'received &larr; target';
    const at = e.t_ms === null ? '' : `${e.t_ms} ms`;
    const notes = [
      e.clipped ? `clipped: ${e.bytes} bytes in full${e.summary ? `; ${e.summary}` : ''}` : '',
      e.error ? `transport error ${e.error}` : '',
      e.raw ? 'raw probe line' : '',
      e.note ?? '',
    ].filter((x) => x !== '');
    if (proof.has(i)) notes.unshift('this line shows the finding');
    return `<tr class="${e.direction}${proof.has(i) ? ' proof' : ''}"><td class="dir">${dir}</td><td>${esc(e.connection)}</td><td>${at}</td><td class="line">${esc(e.line)}${notes.length > 0 ? `<span class="reason">${esc(notes.join('; '))}</span>` : ''}</td></tr>`;
  });
  return `<table class="wire"><thead><tr><th>direction</th><th>connection</th><th>since start</th><th>line</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function describe(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

function header(out: string[], report: CoverageReport, details: PageDetails): void {
  const t = details.target;
  const ack = t?.ack ?? null;
  const provider = ack && typeof ack.provider === 'object' && ack.provider !== null ? (ack.provider as Record<string, unknown>) : undefined;
  const name = provider && typeof provider.name === 'string' ? `${provider.name}${typeof provider.version === 'string' ? ` ${provider.version}` : ''}` : report.target;
  out.push(`<h1>CGP conformance — ${esc(name)}</h1>`);
  out.push(
    `<p class="note">Target: <code>${esc(t?.label ?? report.target)}</code>${t ? ` over ${esc(t.transport)}` : ''} · protocol <code>${esc(report.protocol_version)}</code> · cgp-conformance ${esc(report.tool_version)}</p>`,
  );
  if (ack) {
    const caps = ack.capabilities && typeof ack.capabilities === 'object' ? (ack.capabilities as Record<string, unknown>) : {};
    const keys = Array.isArray(ack.attester_keys) ? ack.attester_keys : [];
    out.push('<dl class="ack" aria-label="handshake_ack">');
    out.push(`<dt>provider</dt><dd>${esc(name)}</dd>`);
    out.push(`<dt>protocol_version</dt><dd><code>${esc(describe(ack.protocol_version))}</code></dd>`);
    out.push(
      `<dt>capabilities</dt><dd><code>${esc(
        Object.entries(caps)
          .map(([k, v]) => `${k}: ${describe(v)}`)
          .join('; ') || '—',
      )}</code></dd>`,
    );
    out.push(`<dt>data_flow</dt><dd><code>${esc(describe(provider?.data_flow ?? ack.data_flow))}</code></dd>`);
    out.push(
      `<dt>attester_keys</dt><dd>${keys.length === 0 ? '—' : keys.map((k) => `<code>${esc(describe((k as Record<string, unknown>).key_id))}</code> (${esc(describe((k as Record<string, unknown>).algorithm))})`).join(', ')}</dd>`,
    );
    out.push('</dl>');
    out.push(`<details class="noprint"><summary>The handshake_ack as received</summary><pre>${esc(JSON.stringify(ack, null, 2))}</pre></details>`);
  }
}

function filters(out: string[]): void {
  const group = (dim: string, values: readonly string[], label: (v: string) => string) =>
    `<fieldset><legend>${dim}</legend>${values.map((v) => `<label><input type="checkbox" id="f-${dim}-${v}" checked> ${esc(label(v))}</label>`).join('')}</fieldset>`;
  out.push(
    '<form class="filters" aria-label="filters">',
    group('side', SIDES, (v) => v),
    group('level', LEVELS, (v) => v),
    group('status', STATUSES, (v) => STATUS_LABEL[v as EntryStatus]),
    '</form>',
  );
}

/** The attributes the filters read, for an id. */
function dataAttrs(entry: Pick<CatalogueEntry, 'side' | 'level'> | undefined, status: EntryStatus): string {
  return `data-side="${entry?.side ?? 'both'}" data-level="${entry?.level ?? 'MUST'}" data-status="${status}"`;
}

function failures(out: string[], report: CoverageReport, details: PageDetails, sections: ReadonlyMap<string, string>, byId: ReadonlyMap<string, CoverageEntry>): void {
  // the run's outcome (outcome.ts): the same failed and warned ids, findings and statuses as every other output
  const outcome = runOutcome({ scenarios: details.scenarios ?? [] });
  const warned = outcome.scenarios.filter((s) => s.findings.some((f) => f.severity === 'warning'));
  out.push('<h2 id="failures">Failures</h2>');
  if (outcome.failed.length === 0 && outcome.otherProbeIds.length === 0 && details.scenarios !== undefined)
    out.push('<p class="note">No scenario failed, and no violation was seen in a reply to another probe.</p>');
  if (details.scenarios === undefined) {
    // Built from coverage.json alone: the failed entries, without messages.
    const loud = [...report.anchors, ...report.rules].filter((e) => e.status === 'failed');
    if (loud.length === 0) out.push('<p class="note">No requirement failed.</p>');
    for (const e of loud) out.push(`<div class="finding" ${dataAttrs(e, 'failed')}><h3>${mark('failed')}${idLink(e.id, sections)} FAILED</h3><p class="where">${esc(failedBy(e))}</p></div>`);
  }
  const transcript = (t: readonly WireEntry[], proof: ReadonlySet<number>) =>
    t.length > 0
      ? `<details class="transcript"><summary>Wire transcript (${t.length} line${t.length === 1 ? '' : 's'})</summary>${wireTable(t, proof)}</details>`
      : '<p class="note">No wire lines were recorded for this scenario.</p>';
  const card = (s: ScenarioSummary, kind: 'failed' | 'warning' | 'inconclusive' | 'unverified') => {
    const ids = kind === 'warning' ? [...new Set(s.findings.filter((f) => f.severity === 'warning').map((f) => f.id))] : kind === 'failed' ? failingIdsOf(s) : s.ids;
    const first = byId.get(ids[0] ?? '');
    const status: EntryStatus = kind === 'warning' ? 'warning' : kind === 'failed' ? 'failed' : 'unwitnessed';
    const cls = kind === 'failed' ? 'finding' : kind === 'warning' ? 'finding warn' : 'finding harness';
    const message =
      kind === 'inconclusive' || kind === 'unverified'
        ? (s.harness_error ?? s.status)
        : kind === 'warning'
          ? s.findings
              .filter((f) => f.severity === 'warning')
              .map((f) => f.message)
              .join('\n')
          : (s.message ?? s.status);
    const label =
      kind === 'inconclusive' ? 'INCONCLUSIVE (never a pass, never a failure)' : kind === 'unverified' ? 'UNVERIFIED (never a pass, never a failure)' : kind === 'warning' ? 'warning' : 'FAILED';
    const proof = new Set(s.findings.filter((f) => f.severity === (kind === 'warning' ? 'warning' : 'error')).flatMap((f) => f.wire ?? []));
    out.push(
      `<div class="${cls}" data-outcome="${kind}" ${dataAttrs(first ? { side: first.side, level: first.level } : undefined, status)}>`,
      `<h3>${mark(status)}${ids.map((id) => idLink(id, sections)).join(', ')}&nbsp;${label}</h3>`,
      `<p class="where"><code>${esc(s.uri)}:${s.line}</code> ${esc(s.name)}</p>`,
      `<pre class="message">${esc(message)}</pre>`,
      transcript(s.transcript ?? [], proof),
      '</div>',
    );
  };
  // an id failed only in replies to other probes: one card, each observation with the scenario that saw it
  const otherProbeCard = (id: string, findings: readonly ReportFinding[]) => {
    const entry = byId.get(id);
    out.push(
      `<div class="finding" data-outcome="other-probe" ${dataAttrs(entry ? { side: entry.side, level: entry.level } : undefined, 'failed')}>`,
      `<h3>${mark('failed')}${idLink(id, sections)}&nbsp;FAILED (seen in replies to other probes)</h3>`,
    );
    for (const f of findings) {
      out.push(`<p class="where">seen by <code>${esc(f.scenario.uri)}:${f.scenario.line}</code> ${esc(f.scenario.name)}</p>`, `<pre class="message">${esc(f.message)}</pre>`);
      if (f.evidence.length > 0)
        out.push(
          `<details class="transcript"><summary>Wire evidence (${f.evidence.length} line${f.evidence.length === 1 ? '' : 's'})</summary>${wireTable(f.evidence, new Set(f.evidence.map((_, i) => i)))}</details>`,
        );
    }
    out.push('</div>');
  };
  for (const s of outcome.failed) card(s, 'failed');
  for (const id of outcome.otherProbeIds)
    otherProbeCard(
      id,
      outcome.findings.filter((f) => f.id === id && f.severity === 'error'),
    );
  if (outcome.inconclusive.length > 0) {
    out.push('<h2 id="inconclusive">Inconclusive (never a pass, never a failure)</h2>');
    for (const s of outcome.inconclusive) card(s, 'inconclusive');
  }
  if (outcome.unverified.length > 0) {
    out.push('<h2 id="unverified">Unverified (inconclusive: never a pass, never a failure)</h2>');
    for (const s of outcome.unverified) card(s, 'unverified');
  }
  if (warned.length > 0) {
    out.push('<h2 id="warnings">Warnings (SHOULD not met)</h2>');
    for (const s of warned) card(s, 'warning');
  }
}

function failingIdsOf(s: ScenarioSummary): string[] {
  return s.status === 'failed' ? failingIds(s) : s.ids;
}

export function renderHtml(report: CoverageReport, catalogue?: Catalogue, details: PageDetails = {}): string {
  const cat = catalogue ?? loadCatalogue();
  const sections = sectionsOf(cat);
  const catalogueById = new Map([...cat.anchors, ...cat.rules].map((e) => [e.id, e]));
  const byId = new Map([...report.anchors, ...report.rules].map((e) => [e.id, e]));
  const verdict = conformanceVerdict(report);
  const s = report.summary;
  const rs = countStatuses(report.rules);
  const out: string[] = [];
  out.push('<!DOCTYPE html>', '<html lang="en">', '<head>', '<meta charset="utf-8">', '<meta name="viewport" content="width=device-width, initial-scale=1">');
  out.push(`<title>CGP coverage — ${esc(report.target)}</title>`, `<style>${STYLE}</style>`, '</head>', '<body>');
  header(out, report, details);
  out.push(
    verdict.conformant
      ? `<p class="verdict ok">${mark('witnessed')}conformant — ${s.witnessed} of ${s.applicable} applicable anchors witnessed (${report.anchors.length} in the spec)</p>`
      : `<p class="verdict bad">${mark('failed')}NOT CONFORMANT — ${verdict.mustFailed.length} MUST failed, ${verdict.unwitnessed.length} applicable anchor(s) without a passing witness</p>`,
  );
  out.push('<table><thead><tr><th></th><th>total</th><th>witnessed</th><th>warning</th><th>failed</th><th>unwitnessed</th><th>not applicable</th><th>applicable</th></tr></thead><tbody>');
  out.push(
    `<tr><th>Anchors</th><td>${report.anchors.length}</td><td>${s.witnessed}</td><td>${s.warning}</td><td>${s.failed}</td><td>${s.unwitnessed}</td><td>${s.not_applicable}</td><td>${s.applicable}</td></tr>`,
  );
  out.push(
    `<tr><th>Rules</th><td>${report.rules.length}</td><td>${rs.witnessed}</td><td>${rs.warning}</td><td>${rs.failed}</td><td>${rs.unwitnessed}</td><td>${rs['not-applicable']}</td><td>${report.rules.length - rs['not-applicable']}</td></tr>`,
  );
  out.push('</tbody></table>');
  filters(out);
  failures(out, report, details, sections, byId);

  const unwitnessed = [...report.anchors, ...report.rules].filter((e) => e.status === 'unwitnessed');
  if (unwitnessed.length > 0) {
    out.push('<h2 id="unwitnessed">Applicable but not witnessed</h2>', '<ul class="attention">');
    for (const e of unwitnessed)
      out.push(`<li ${dataAttrs(e, e.status)}>${mark('unwitnessed')}${idLink(e.id, sections)} (${e.level}, ${e.side}) UNWITNESSED${e.reason ? ` — ${esc(e.reason)}` : ''}</li>`);
    out.push('</ul>');
  }
  out.push('<h2 id="anchors">Anchors</h2>');
  table(out, report.anchors, 'Anchor', sections);
  out.push('<h2 id="rules">Rules without an anchor</h2>');
  table(out, report.rules, 'Rule', sections);
  specAppendix(out, [...report.anchors, ...report.rules], catalogueById);
  out.push(`<script>${PRINT_SCRIPT}</script>`, '</body>', '</html>', '');
  return out.join('\n');
}

function table(out: string[], entries: readonly CoverageEntry[], head: string, sections: ReadonlyMap<string, string>): void {
  for (const [section, list] of bySection(entries, sections)) {
    out.push(`<h3><a href="#${specAnchor(section)}">§${esc(section)}</a></h3>`);
    out.push(`<table><thead><tr><th>${head}</th><th>Level</th><th>Side</th><th>Status</th><th>Witnesses</th><th>Requirement</th></tr></thead><tbody>`);
    for (const e of list) {
      const witnesses = e.witnesses.map((w) => `<code>${esc(w.feature)}:${w.line}</code> ${esc(w.scenario)} (${esc(w.status)})`).join('<br>');
      out.push(
        `<tr class="${e.status}" id="${esc(e.id)}" ${dataAttrs(e, e.status)}><td>${mark(e.status)}${idLink(e.id, sections)}</td><td>${e.level}</td><td>${e.side}</td>` +
          `<td class="status-${e.status}">${STATUS_LABEL[e.status]}${e.reason ? `<span class="reason">${esc(e.reason)}</span>` : ''}</td><td>${witnesses || '—'}</td><td>${esc(e.text)}</td></tr>`,
      );
    }
    out.push('</tbody></table>');
  }
}

/** The SPEC.md sections the report's ids sit in, as written, so every id link resolves inside the page. */
function specAppendix(out: string[], entries: readonly CoverageEntry[], catalogueById: ReadonlyMap<string, CatalogueEntry>): void {
  const numbers = [...new Set(entries.map((e) => catalogueById.get(e.id)?.section).filter((x): x is string => x !== undefined))];
  const found: SpecSection[] = [];
  for (const n of numbers) {
    try {
      const sec = specSection(n);
      if (sec) found.push(sec);
    } catch {
      // SPEC.md missing from the package: the ids still carry their section number.
    }
  }
  if (found.length === 0) return;
  const key = (n: string) =>
    n
      .split('.')
      .map((p) => p.padStart(3, '0'))
      .join('.');
  found.sort((a, b) => key(a.number).localeCompare(key(b.number)));
  out.push('<div class="spec">', '<h2 id="spec">The requirements, from SPEC.md</h2>', '<p class="note">Each section as the specification shipped with this package states it.</p>');
  for (const sec of found) out.push(`<section id="${specAnchor(sec.number)}"><pre>${esc(sec.text)}</pre></section>`);
  out.push('</div>');
}
