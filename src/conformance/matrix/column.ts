/**
 * A column of the grid from one implementation's run (docs/matrix.md "Cells"). A completed run's messages file
 * goes through the coverage builder every report uses (report/write.ts: the run's coverage.{json,md,html} and
 * badge.svg are written beside it), so a cell is exactly the status the single run's coverage report gives
 * the id: witnessed, failed, warning, not applicable (with its reason), or unverified (the coverage report's
 * "unwitnessed": applicable, and no scenario passed on it — a harness error or a missing test hook included).
 * A run that did not complete is a column that says why, every cell unverified.
 */
import { relative } from 'node:path';
import { loadCatalogue } from '../../catalogue/index.js';
import { writeCoverage } from '../report/write.js';
import type { CoverageEntry, EntryStatus } from '../report/types.js';
import { messagesPathOf, type ColumnRun } from './run-one.js';
import { MAX_CELL_FINDINGS, type Cell, type CellFinding, type CellStatus, type Column, type ColumnOutcome, type Row } from './types.js';

const CELL_OF: Record<EntryStatus, CellStatus> = {
  witnessed: 'witnessed',
  failed: 'failed',
  warning: 'warning',
  'not-applicable': 'not-applicable',
  unwitnessed: 'unverified',
};

/** The grid's rows: every anchor and rule of the catalogue, grouped by SPEC section (in section order). */
export function matrixRows(): Row[] {
  const cat = loadCatalogue();
  const all = [...cat.anchors, ...cat.rules];
  const key = (s: string) =>
    s
      .split('.')
      .map((p) => p.replace(/[^0-9]/g, '').padStart(4, '0'))
      .join('.');
  return all
    .map((e, i) => ({ e, i }))
    .sort((a, b) => (key(a.e.section) < key(b.e.section) ? -1 : key(a.e.section) > key(b.e.section) ? 1 : a.i - b.i))
    .map(({ e }) => ({ id: e.id, kind: e.kind, section: e.section, level: e.level, side: e.side, text: e.text }));
}

export function emptyTotals(): Record<CellStatus, number> {
  return { witnessed: 0, failed: 0, warning: 0, 'not-applicable': 0, unverified: 0 };
}

interface ReportFindingLike {
  id: string;
  severity: 'error' | 'warning';
  message: string;
  scenario: { name: string; uri: string; line: number };
}

function reportFindings(report: Record<string, unknown> | undefined): ReportFindingLike[] {
  const f = report?.findings;
  return Array.isArray(f) ? (f as ReportFindingLike[]) : [];
}

/** Baseline-accepted ids of the run (the CI kit's JSON), id → reason. */
function knownFailures(report: Record<string, unknown> | undefined): Map<string, string> {
  const out = new Map<string, string>();
  const b = report?.baseline as { accepted?: Array<{ ids?: string[]; reason?: string }> } | undefined;
  for (const a of b?.accepted ?? []) for (const id of a.ids ?? []) if (!out.has(id)) out.set(id, a.reason ?? '');
  return out;
}

function lastLines(text: string, n: number): string {
  return text
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l !== '')
    .slice(-n)
    .join('\n');
}

function outcomeOf(run: ColumnRun): { outcome: ColumnOutcome; reason?: string } {
  const ms = run.implementation.runTimeoutMs;
  if (run.startFailure !== undefined) return { outcome: 'not-started', reason: run.startFailure };
  if (run.timedOut) return { outcome: 'hung', reason: `no result within ${ms} ms (run_timeout_ms): the run was stopped` };
  const r = run.report;
  if (r !== undefined && r.never_answered === true)
    return { outcome: 'never-answered', reason: `the target never answered the handshake: ${typeof r.reason === 'string' ? r.reason : 'no reason recorded'}` };
  if (r !== undefined && messagesPathOf(run) !== undefined && (run.exitCode === 0 || run.exitCode === 1 || run.exitCode === 4)) return { outcome: 'completed' };
  if (run.exitCode === 2) return { outcome: 'not-started', reason: `exit status 2 (usage or configuration error): ${lastLines(run.stderrTail, 3) || 'no message'}` };
  const how = run.signal !== null ? `signal ${run.signal}` : `exit status ${run.exitCode}`;
  return { outcome: 'crashed', reason: `the run ended (${how}) without a report${lastLines(run.stderrTail, 3) ? `: ${lastLines(run.stderrTail, 3)}` : ''}` };
}

function describeReach(run: ColumnRun): string {
  const r = run.implementation.reach;
  switch (r.kind) {
    case 'stdio':
      return r.command.join(' ');
    case 'url':
      return r.url;
    case 'host-cmd':
      return `host process: ${r.cmd}`;
    case 'adapter':
      return `host adapter: ${r.adapter}`;
    case 'bundled':
      return `bundled ${run.implementation.side}${r.misbehave !== undefined ? ` (misbehaving: ${r.misbehave})` : ''}`;
  }
}

function unport(text: string, port: number | undefined): string {
  return port === undefined ? text : text.replaceAll(`:${port}`, ':${PORT}');
}

/** The column of one run; a completed run's coverage files are written into its directory. */
export function buildColumn(run: ColumnRun, siteDir: string, rows: readonly Row[]): Column {
  const impl = run.implementation;
  const { outcome, reason } = outcomeOf(run);
  const rel = (p: string) => relative(siteDir, p).split('\\').join('/');
  const target = run.report?.target as { label?: unknown; provider?: { version?: unknown } | null } | undefined;
  const ackVersion = typeof target?.provider?.version === 'string' ? target.provider.version : undefined;
  const cells: Record<string, Cell> = {};
  const totals = emptyTotals();
  const files: Column['files'] = {};
  let score: Column['score'] = null;
  if (outcome === 'completed') {
    const messages = messagesPathOf(run)!;
    const written = writeCoverage({ messages: [messages], target: impl.name, side: impl.side, outDir: run.dir });
    const byId = new Map<string, CoverageEntry>([...written.report.anchors, ...written.report.rules].map((e) => [e.id, e]));
    const findings = reportFindings(run.report);
    const known = knownFailures(run.report);
    let met = 0;
    let applicable = 0;
    for (const row of rows) {
      const e = byId.get(row.id);
      const status: CellStatus = e ? CELL_OF[e.status] : 'unverified';
      const cell: Cell = { status };
      if ((status === 'not-applicable' || status === 'unverified') && e?.reason) cell.reason = e.reason;
      if (status === 'unverified' && cell.reason === undefined) cell.reason = "applicable, and no scenario passed on it (see the run's report)";
      if (status === 'failed' || status === 'warning') {
        const severity = status === 'failed' ? 'error' : 'warning';
        const mine: CellFinding[] = findings
          .filter((f) => f.id === row.id && f.severity === severity)
          .slice(0, MAX_CELL_FINDINGS)
          .map((f) => ({ severity: f.severity, message: f.message, scenario: { name: f.scenario.name, uri: f.scenario.uri, line: f.scenario.line } }));
        if (mine.length > 0) cell.findings = mine;
        if (status === 'failed' && known.has(row.id)) cell.known = known.get(row.id)!;
      }
      cells[row.id] = cell;
      totals[status] += 1;
      if (row.level === 'MUST' && status !== 'not-applicable') {
        applicable += 1;
        if (status === 'witnessed') met += 1;
      }
    }
    score = { must_met: met, must_applicable: applicable };
    files.messages = rel(messages);
    files.junit = rel(`${run.dir}/${impl.slug}.junit.xml`);
    files.page = rel(`${run.dir}/coverage.html`);
    files.coverage = rel(`${run.dir}/coverage.json`);
  } else {
    for (const row of rows) {
      cells[row.id] = { status: 'unverified', reason: `the run did not complete (${outcome})` };
      totals.unverified += 1;
    }
  }
  files.badge = `badges/${impl.slug}.svg`;
  return {
    position: impl.position,
    name: impl.name,
    slug: impl.slug,
    side: impl.side,
    ...(impl.language !== undefined ? { language: impl.language } : {}),
    ...(impl.homepage !== undefined ? { homepage: impl.homepage } : {}),
    // the port chosen for ${PORT} is the run's, not the implementation's: matrix.json names the placeholder
    target: unport(typeof target?.label === 'string' ? target.label : describeReach(run), run.port),
    version: ackVersion ?? impl.version ?? null,
    outcome,
    exit_code: run.timedOut || run.startFailure !== undefined ? null : run.exitCode,
    ...(reason !== undefined ? { reason } : {}),
    ...(outcome !== 'completed' && run.stderrTail.trim() !== '' ? { stderr_tail: run.stderrTail } : {}),
    score,
    totals,
    cells,
    files,
    started_at: run.startedAt.toISOString(),
    finished_at: run.finishedAt.toISOString(),
  };
}
