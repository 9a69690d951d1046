/**
 * `--bug-report DIR`: one Markdown file per failed or warned id, ready to paste into the tracker of the provider or host
 * under test — a title "`<id>` violated: …", the requirement quoted with its SPEC.md section, what was seen
 * vs what is required, the minimal transcript, the tool version, and the command that reproduces exactly
 * that failure. The findings are the run's outcome (outcome.ts): an id failed only in a reply to another
 * probe gets its report too, naming the scenario that saw it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findCatalogueEntry } from '../../catalogue/index.js';
import { idsInterpreted, interpretationsFor, specSection, type Interpretation } from '../../catalogue/documents.js';
import { formatTranscript } from '../evidence/evidence.js';
import type { ReportFinding } from './outcome.js';

export interface BugReportContext {
  /** "example-docs 0.1.0 (contextgraph/1.0)" or the target's label. */
  targetName: string;
  /** The command line, URL or host the run was pointed at. */
  targetLabel: string;
  toolVersion: string;
  /** The command reproducing the failures of one id: `npx cgp-conformance stdio --tags @B4 -- …`. */
  repro: (id: string) => string;
}

/** A file name for an id (ids hold only [A-Za-z0-9.-]). */
export function bugReportFile(id: string): string {
  return `${id.replace(/[^A-Za-z0-9.-]/g, '_')}.md`;
}

function fence(text: string, lang = ''): string {
  const ticks = text.includes('```') ? '````' : '```';
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

/** The detail after "<id> violated: " / "<id> warning: " (keeping "at <pointer>: "), or the whole message. */
function seen(message: string, id: string): string {
  const first = message.split('\n')[0]!;
  const m = new RegExp(`^(?:[^:]*?\\b)?${id.replace(/[.]/g, '\\.')}(?: violated| warning)?( at [^:]+)?:\\s*(.*)$`).exec(first);
  return (m ? `${m[1] ? `${m[1].trim()}: ` : ''}${m[2]!}` : first).trim();
}

/**
 * The readings of docs/interpretations.md that apply to `id`: a section whose "Interprets:" line names it, or —
 * for a section without that line — whose title, or one of whose bullets, names it. A
 * section that merely mentions the id in passing (e.g. `validate`'s list of cross-message checks) is not
 * listed.
 */
export function interpretationsApplying(id: string, candidates: readonly Interpretation[]): Interpretation[] {
  const word = new RegExp(`(^|[^A-Za-z0-9.-])${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9-]|\\.\\d)`);
  return candidates.filter((i) => {
    if (i.interprets.trim() !== '') return idsInterpreted(i.interprets).has(id);
    if (word.test(i.title)) return true;
    // each bullet (its first line and the indented lines that continue it) is one reading
    return i.text.split(/\n(?=- )/).some((chunk) => /^- /.test(chunk) && word.test(chunk.split(/\n(?! )/)[0]!));
  });
}

export function renderBugReport(id: string, findings: readonly ReportFinding[], ctx: BugReportContext): string {
  const f = findings[0]!;
  const entry = findCatalogueEntry(id);
  const section = entry ? specSection(entry.section) : undefined;
  const detail = seen(f.message, id);
  const warned = f.severity === 'warning';
  const out: string[] = [];
  out.push(warned ? `# \`${id}\` not met (${entry?.level ?? 'SHOULD'}): ${detail}` : `# \`${id}\` violated: ${detail}`, '');
  out.push(`**Target:** ${ctx.targetName}${ctx.targetLabel !== ctx.targetName ? ` — \`${ctx.targetLabel}\`` : ''}  `);
  out.push(`**Found by:** cgp-conformance ${ctx.toolVersion} (protocol contextgraph/1.0)`, '');
  if (entry) {
    out.push(`## Requirement — SPEC.md §${entry.section}${section ? ` ${section.title}` : ''}`, '');
    out.push(`> **${id}** (${entry.level}, ${entry.side} side): ${entry.text}`, '');
  }
  if (warned) out.push('A warning: a recommendation the target does not meet. It never fails the run, except under `--strict`.', '');
  out.push('## Seen vs required', '');
  out.push(`- **Seen:** ${detail}`);
  if (entry) out.push(`- **Required:** ${entry.text}`);
  if (f.seen_in === 'other-probe')
    out.push(
      `- **Seen by:** \`${f.scenario.uri}:${f.scenario.line}\` — ${f.scenario.name}, in a reply to its probe of ${f.scenario.ids.join(', ') || 'other ids'} (a violation of ${id} seen in a reply to another probe)`,
    );
  else out.push(`- **Scenario:** \`${f.scenario.uri}:${f.scenario.line}\` — ${f.scenario.name}`);
  if (f.pointer !== '') out.push(`- **Where in the reply:** \`${f.pointer}\` (JSON pointer)`);
  const interp = entry ? interpretationsApplying(id, interpretationsFor(entry)) : [];
  if (interp.length > 0) out.push(`- **How the toolkit reads it:** ${interp.map((i) => `docs/interpretations.md §${i.number} (${i.title})`).join('; ')}`);
  out.push('');
  const others = findings.slice(1).filter((o) => o.message !== f.message || o.scenario.line !== f.scenario.line);
  if (others.length > 0) {
    out.push('Also seen:', '');
    for (const o of others) out.push(`- \`${o.scenario.uri}:${o.scenario.line}\` ${o.scenario.name}: ${o.message.split('\n')[0]}`);
    out.push('');
  }
  out.push('## Transcript', '');
  if (f.evidence.length === 0) out.push('No wire lines were recorded for this finding.');
  else {
    out.push("`>>` sent to the target, `<<` received from it; times are ms since the scenario started (negative: before it, the connection's handshake).", '');
    out.push(fence(formatTranscript(f.evidence)));
  }
  // a violation seen in a reply to another probe reproduces with that probe's scenarios
  const reproId = f.seen_in === 'other-probe' && f.scenario.ids.length > 0 ? f.scenario.ids[0]! : id;
  out.push('', '## Reproduce', '', fence(ctx.repro(reproId), 'sh'), '');
  out.push(`See \`npx cgp-conformance explain ${id}\` for the requirement, the passage of the spec and every scenario that checks it.`, '');
  return out.join('\n');
}

/**
 * Write one file per failed id, and one per warned id (a warning and no error); returns the paths written.
 * An id's file is built from its error findings when it has any, else from its warnings.
 */
export function writeBugReports(dir: string, findings: readonly ReportFinding[], ctx: BugReportContext): string[] {
  const byId = new Map<string, ReportFinding[]>();
  for (const f of findings.filter((x) => x.severity === 'error')) byId.set(f.id, [...(byId.get(f.id) ?? []), f]);
  const warned = new Map<string, ReportFinding[]>();
  for (const f of findings.filter((x) => x.severity === 'warning' && !byId.has(x.id))) warned.set(f.id, [...(warned.get(f.id) ?? []), f]);
  for (const [id, list] of warned) byId.set(id, list);
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const [id, list] of byId) {
    const path = join(dir, bugReportFile(id));
    writeFileSync(path, renderBugReport(id, list, ctx));
    written.push(path);
  }
  return written;
}
