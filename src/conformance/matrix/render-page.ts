/**
 * index.html of the matrix site (docs/matrix.md "The site"): one self-contained page, no external asset, that
 * works from file:// offline. What changed comes first; then the implementations (run outcome, score, badge,
 * links to each run's own coverage page and JUnit file); then the grid — anchors and rules grouped by SPEC
 * section, with their level, against the implementations. A cell is a link: a witnessed cell opens the run's
 * coverage page at the id; any other cell opens its panel on this page (pure CSS, :target) with the
 * finding's message, the wire transcript that shows it, or the reason it is not applicable or unverified.
 * Filters: side (columns) and level (rows) in CSS; status (rows holding a cell of a checked status) with a
 * small inline script.
 */
import { specSection } from '../../catalogue/documents.js';
import { changeCount } from './diff.js';
import { runText, scoreText } from './render-summary.js';
import { CELL_STATUSES, type Cell, type CellStatus, type Column, type MatrixDoc, type Row } from './types.js';

/** One line of a finding's evidence, as the run's --json report carries it. */
export interface EvidenceLine {
  direction: string;
  connection: string;
  t_ms: number | null;
  line: string;
  bytes?: number;
  clipped?: boolean;
}

export interface EvidenceFinding {
  id: string;
  severity: 'error' | 'warning';
  message: string;
  scenario: { name: string; uri: string; line: number };
  evidence?: EvidenceLine[];
}

/** Findings with their evidence, per implementation slug (from each run's report.json). */
export type EvidenceOf = (slug: string) => readonly EvidenceFinding[];

const LABEL: Record<CellStatus, string> = { witnessed: 'witnessed', failed: 'FAILED', warning: 'warning', 'not-applicable': 'n/a', unverified: 'unverified' };
const SHORT: Record<CellStatus, string> = { witnessed: 'ok', failed: 'FAIL', warning: 'warn', 'not-applicable': 'n/a', unverified: '?' };
const LEVELS = ['MUST', 'SHOULD', 'MAY', 'advisory'] as const;
const SIDES = ['provider', 'host'] as const;
const MAX_EVIDENCE_FINDINGS = 3;
const MAX_LINE = 2000;

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** An element id from a column slug and a catalogue id (both [A-Za-z0-9.-]). */
export function panelId(slug: string, id: string): string {
  return `d-${slug}--${id.replace(/[^A-Za-z0-9-]/g, '_')}`;
}

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;margin:1.2rem 1.6rem;color:#1b1b1b;line-height:1.35}
h1{font-size:1.45rem;margin-bottom:.2rem}h2{margin-top:1.6rem;border-bottom:1px solid #ddd;padding-bottom:.2rem;font-size:1.2rem}
table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:.25rem .4rem;vertical-align:top;text-align:left;font-size:.85rem}
thead th{background:#f0f0f0;position:sticky;top:0}
a{color:#0b4f8a}code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.8rem}
pre{white-space:pre-wrap;word-break:break-all;background:#f7f7f7;border:1px solid #e2e2e2;padding:.4rem;margin:.3rem 0}
.note{color:#444;font-size:.88rem}
.changes{border:2px solid #0b4f8a;border-radius:4px;padding:.4rem .9rem;background:#f3f8fd}
.changes li.new{color:#8e1414;font-weight:bold}.changes li.fix{color:#1e5f22}
.filters{display:flex;flex-wrap:wrap;gap:1.2rem;background:#f5f7fa;border:1px solid #d8dee6;padding:.45rem .8rem;border-radius:4px;margin:1rem 0}
.filters fieldset{border:none;margin:0;padding:0}.filters legend{font-weight:bold;font-size:.85rem;padding:0}.filters label{margin-right:.6rem;font-size:.86rem;white-space:nowrap}
table.grid td.c{text-align:center;white-space:nowrap;padding:0}table.grid td.c a{display:block;padding:.25rem .4rem;text-decoration:none;color:inherit}
td.s-witnessed{background:#e3f4e4;color:#1e5f22}td.s-failed{background:#f8c9c9;color:#8e1414;font-weight:bold}td.s-warning{background:#fff0c2;color:#7a4f00}
td.s-not-applicable{background:#f4f4f4;color:#777}td.s-unverified{background:#ececf8;color:#3b3b8f}
tr.sec th{background:#e8eef5;font-size:.9rem}
th.impl{min-width:6.5rem;font-size:.8rem}
.out-bad{color:#8e1414;font-weight:bold}
.panel{display:none}
.panel:target{display:block;position:fixed;top:4%;left:6%;right:6%;max-height:88%;overflow:auto;background:#fff;border:2px solid #444;border-radius:6px;box-shadow:0 6px 30px rgba(0,0,0,.35);padding:.6rem 1.1rem;z-index:10}
.panel h3{margin:.2rem 0}.panel .close{float:right}
.finding{border-left:5px solid #a31515;padding:.2rem .7rem;margin:.6rem 0;background:#fffafa}.finding.warn{border-left-color:#8a5a00;background:#fffdf5}
table.wire td{font-size:.75rem}table.wire td.line{font-family:ui-monospace,Menlo,Consolas,monospace;word-break:break-all}
.hidden-by-status{display:none}
${SIDES.map((s) => `body:has(#f-side-${s}:not(:checked)) [data-iside="${s}"]{display:none}`).join('\n')}
${LEVELS.map((l) => `body:has(#f-level-${l}:not(:checked)) tr[data-level="${l}"]{display:none}`).join('\n')}
`;

// Status filter: a row stays when one of its visible cells has a checked status; a section heading stays when
// one of its rows does. Side and level are CSS (above) and work without scripts.
const SCRIPT = `
(function(){
function apply(){
  var on={};document.querySelectorAll('input[data-filter="status"]').forEach(function(i){on[i.value]=i.checked;});
  var sides={};document.querySelectorAll('input[data-filter="side"]').forEach(function(i){sides[i.value]=i.checked;});
  var levels={};document.querySelectorAll('input[data-filter="level"]').forEach(function(i){levels[i.value]=i.checked;});
  var section=null,any=false;
  function close(){if(section){section.classList.toggle('hidden-by-status',!any);}}
  document.querySelectorAll('table.grid tbody tr').forEach(function(tr){
    if(tr.classList.contains('sec')){close();section=tr;any=false;return;}
    var keep=false;tr.querySelectorAll('td.c').forEach(function(td){if(sides[td.dataset.iside]&&on[td.dataset.status])keep=true;});
    tr.classList.toggle('hidden-by-status',!keep);
    if(keep&&levels[tr.dataset.level])any=true;
  });
  close();
}
document.querySelectorAll('.filters input').forEach(function(i){i.addEventListener('change',apply);});
apply();
})();
`;

function wireTable(lines: readonly EvidenceLine[]): string {
  const rows = lines.map((e) => {
    const text = e.line.length > MAX_LINE ? `${e.line.slice(0, MAX_LINE)}… (${e.bytes ?? e.line.length} bytes)` : e.line;
    const dir = e.direction === 'sent' ? 'sent &rarr; target' : 'received &larr; target';
    return `<tr class="${e.direction === 'sent' ? 'sent' : 'received'}"><td>${dir}</td><td>${esc(e.connection)}</td><td>${e.t_ms === null ? '' : `${e.t_ms} ms`}</td><td class="line">${esc(text)}${e.clipped ? ' (clipped)' : ''}</td></tr>`;
  });
  return `<table class="wire"><thead><tr><th>direction</th><th>connection</th><th>since start</th><th>line</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function panel(c: Column, row: Row, cell: Cell, evidence: readonly EvidenceFinding[]): string {
  const out: string[] = [];
  out.push(`<section class="panel" id="${panelId(c.slug, row.id)}" role="dialog" aria-label="${esc(`${c.name} ${row.id}`)}">`);
  out.push(`<a class="close" href="#grid">close</a>`);
  out.push(`<h3>${esc(c.name)} · ${esc(row.id)} (${row.level}, §${esc(row.section)}) — <span class="s-${cell.status}">${LABEL[cell.status]}</span></h3>`);
  out.push(`<p class="note">${esc(row.text)}</p>`);
  if (cell.known !== undefined) out.push(`<p><b>Known failure</b> (the implementation's baseline): ${esc(cell.known)}</p>`);
  if (cell.reason !== undefined) out.push(`<p>Why: ${esc(cell.reason)}</p>`);
  const severity = cell.status === 'warning' ? 'warning' : 'error';
  const mine = evidence.filter((f) => f.id === row.id && f.severity === severity);
  const shown = mine.length > 0 ? mine.slice(0, MAX_EVIDENCE_FINDINGS) : [];
  for (const f of shown) {
    out.push(`<div class="finding${severity === 'warning' ? ' warn' : ''}">`);
    out.push(`<p class="note"><code>${esc(f.scenario.uri)}:${f.scenario.line}</code> ${esc(f.scenario.name)}</p>`);
    out.push(`<pre class="message">${esc(f.message)}</pre>`);
    const lines = f.evidence ?? [];
    out.push(
      lines.length > 0
        ? `<div class="transcript"><b>Wire transcript</b> (${lines.length} line${lines.length === 1 ? '' : 's'})${wireTable(lines)}</div>`
        : '<p class="note">No wire lines were recorded for this finding.</p>',
    );
    out.push('</div>');
  }
  if (shown.length === 0) for (const f of cell.findings ?? []) out.push(`<div class="finding"><pre class="message">${esc(f.message)}</pre></div>`);
  if (mine.length > shown.length) out.push(`<p class="note">${mine.length - shown.length} more finding(s) in the run's report.</p>`);
  if (c.files.page !== undefined) out.push(`<p><a href="${esc(c.files.page)}#${esc(row.id)}">The run's full report at ${esc(row.id)}</a> (every scenario, transcript and witness)</p>`);
  out.push('</section>');
  return out.join('\n');
}

function changesSection(doc: MatrixDoc): string[] {
  const c = doc.changes;
  if (c === undefined) return [];
  const out = ['<section class="changes" id="changes">', `<h2>What changed since ${esc(c.previous_generated_at)}</h2>`];
  if (changeCount(c) === 0) out.push('<p>Nothing: every implementation, version and cell is as before.</p>');
  else {
    out.push('<ul>');
    const cellLink = (impl: string, id: string) => {
      const col = doc.implementations.find((x) => x.name === impl);
      return col ? `<a href="#${panelId(col.slug, id)}">${esc(id)}</a>` : esc(id);
    };
    for (const x of c.new_failures) out.push(`<li class="new">new failure: ${esc(x.implementation)} ${cellLink(x.implementation, x.id)} (${x.from} → failed)</li>`);
    for (const x of c.fixes) out.push(`<li class="fix">fixed: ${esc(x.implementation)} ${esc(x.id)} (failed → witnessed)</li>`);
    for (const x of c.other) out.push(`<li>changed: ${esc(x.implementation)} ${cellLink(x.implementation, x.id)} (${x.from} → ${x.to})</li>`);
    for (const n of c.added) out.push(`<li>added: ${esc(n)}</li>`);
    for (const n of c.gone) out.push(`<li>gone: ${esc(n)}</li>`);
    for (const v of c.version_changes) out.push(`<li>version: ${esc(v.implementation)} ${esc(v.from ?? '(none)')} → ${esc(v.to ?? '(none)')}</li>`);
    for (const o of c.outcome_changes) out.push(`<li>run: ${esc(o.implementation)} ${o.from} → ${o.to}</li>`);
    out.push('</ul>');
  }
  out.push('</section>');
  return out;
}

/** " — Title" of a SPEC.md section, or nothing when SPEC.md is not there to say. */
function sectionTitle(number: string): string {
  try {
    const t = specSection(number)?.title;
    return t ? ` — ${esc(t)}` : '';
  } catch {
    return '';
  }
}

export function renderPage(doc: MatrixDoc, evidenceOf: EvidenceOf): string {
  const cols = doc.implementations;
  const out: string[] = [];
  out.push('<!DOCTYPE html>', '<html lang="en">', '<head>', '<meta charset="utf-8">', '<meta name="viewport" content="width=device-width, initial-scale=1">');
  out.push('<title>CGP conformance matrix</title>', `<style>${STYLE}</style>`, '</head>', '<body>');
  out.push('<h1>CGP conformance matrix</h1>');
  out.push(
    `<p class="note">${cols.length} implementation${cols.length === 1 ? '' : 's'} · ${doc.rows.length} anchors and rules · protocol <code>${esc(doc.protocol_version)}</code> · cgp-conformance ${esc(doc.tool_version)} · generated ${esc(doc.generated_at)} · <a href="matrix.json">matrix.json</a> · <a href="summary.md">summary.md</a></p>`,
  );
  out.push(...changesSection(doc));

  out.push('<h2 id="implementations">Implementations</h2>');
  out.push(
    '<table class="impls"><thead><tr><th>implementation</th><th>side</th><th>language</th><th>version</th><th>run</th><th>MUSTs met</th><th>failed</th><th>warning</th><th>unverified</th><th>badge</th><th>files</th></tr></thead><tbody>',
  );
  for (const c of cols) {
    const name = c.homepage !== undefined ? `<a href="${esc(c.homepage)}">${esc(c.name)}</a>` : esc(c.name);
    const run =
      c.outcome === 'completed'
        ? esc(runText(c))
        : `<span class="out-bad">${esc(runText(c))}</span><br><span class="note">${esc(c.reason ?? '')}</span>${c.stderr_tail ? `<details><summary>stderr</summary><pre>${esc(c.stderr_tail)}</pre></details>` : ''}`;
    const files = [c.files.page ? `<a href="${esc(c.files.page)}">report</a>` : '', c.files.junit ? `<a href="${esc(c.files.junit)}">JUnit</a>` : ''].filter((x) => x).join(' · ') || '—';
    const n = (k: CellStatus) => (c.score === null ? '—' : String(c.totals[k]));
    out.push(
      `<tr data-iside="${c.side}" id="impl-${esc(c.slug)}"><td>${name}<br><code class="note">${esc(c.target)}</code></td><td>${c.side}</td><td>${esc(c.language ?? '—')}</td><td>${esc(c.version ?? '—')}</td><td>${run}</td><td>${scoreText(c)}</td><td>${n('failed')}</td><td>${n('warning')}</td><td>${n('unverified')}</td><td><img src="${esc(c.files.badge ?? '')}" alt="badge: ${esc(c.name)} ${scoreText(c)}"></td><td>${files}</td></tr>`,
    );
  }
  out.push('</tbody></table>');

  const box = (dim: string, v: string, label: string) => `<label><input type="checkbox" id="f-${dim}-${v}" data-filter="${dim}" value="${v}" checked> ${esc(label)}</label>`;
  out.push(
    '<form class="filters" aria-label="filters">',
    `<fieldset><legend>side</legend>${SIDES.map((s) => box('side', s, s)).join('')}</fieldset>`,
    `<fieldset><legend>level</legend>${LEVELS.map((l) => box('level', l, l)).join('')}</fieldset>`,
    `<fieldset><legend>status</legend>${CELL_STATUSES.map((s) => box('status', s, LABEL[s])).join('')}</fieldset>`,
    '</form>',
  );

  out.push(
    '<h2 id="grid">The grid</h2>',
    '<p class="note">A cell opens what the run showed: a witnessed cell, the run\'s report at the id; any other cell, the finding, its wire transcript, or the reason.</p>',
  );
  out.push('<table class="grid"><thead><tr><th>anchor / rule</th><th>level</th>');
  for (const c of cols) out.push(`<th class="impl" data-iside="${c.side}" scope="col">${esc(c.name)}<br><span class="note">${scoreText(c)}</span></th>`);
  out.push('</tr></thead><tbody>');
  let section: string | undefined;
  const panels: string[] = [];
  const evidence = new Map(cols.map((c) => [c.slug, evidenceOf(c.slug)]));
  for (const row of doc.rows) {
    if (row.section !== section) {
      section = row.section;
      out.push(`<tr class="sec"><th colspan="${cols.length + 2}">§${esc(row.section)}${sectionTitle(row.section)}</th></tr>`);
    }
    out.push(`<tr data-level="${row.level}" data-rside="${row.side}" id="row-${esc(row.id)}"><th title="${esc(row.text)}">${esc(row.id)}</th><td>${row.level}</td>`);
    for (const c of cols) {
      const cell = c.cells[row.id] ?? { status: 'unverified' as const, reason: 'not in this run' };
      const tip = `${c.name} · ${row.id}: ${LABEL[cell.status]}${cell.reason ? ` — ${cell.reason}` : ''}${cell.known !== undefined ? ' (known failure)' : ''}`;
      const href = cell.status === 'witnessed' && c.files.page !== undefined ? `${c.files.page}#${row.id}` : `#${panelId(c.slug, row.id)}`;
      out.push(
        `<td class="c s-${cell.status}" data-status="${cell.status}" data-iside="${c.side}"><a href="${esc(href)}" title="${esc(tip)}">${SHORT[cell.status]}${cell.known !== undefined ? '*' : ''}</a></td>`,
      );
      if (href.startsWith('#')) panels.push(panel(c, row, cell, evidence.get(c.slug) ?? []));
    }
    out.push('</tr>');
  }
  out.push('</tbody></table>');
  out.push(
    '<p class="note">ok = witnessed · FAIL = a MUST failed (* known: in the implementation\'s baseline) · warn = a SHOULD not met · n/a = not applicable (the panel says why) · ? = unverified (applicable, no scenario passed on it; or the run did not complete)</p>',
  );
  out.push(...panels);
  out.push(`<script>${SCRIPT}</script>`, '</body>', '</html>', '');
  return out.join('\n');
}
