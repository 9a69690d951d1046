// summary.md stays short enough for a pull-request comment however much changed, and the badge says what the
// column says (docs/matrix.md "The site"): rendered from a matrix.json made here, no run needed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyTotals, matrixRows } from '../../../src/conformance/matrix/column.js';
import { renderColumnBadge, renderSummary } from '../../../src/conformance/matrix/render-summary.js';
import type { Cell, Column, MatrixDoc } from '../../../src/conformance/matrix/types.js';

const rows = matrixRows();

function column(position: number, status: (id: string) => Cell['status'], outcome: Column['outcome'] = 'completed'): Column {
  const cells: Record<string, Cell> = {};
  const totals = emptyTotals();
  for (const r of rows) {
    const s = outcome === 'completed' ? status(r.id) : 'unverified';
    cells[r.id] = { status: s };
    totals[s] += 1;
  }
  const must = rows.filter((r) => r.level === 'MUST' && cells[r.id]!.status !== 'not-applicable');
  return {
    position,
    name: `impl ${position}`,
    slug: `impl-${position}`,
    side: 'provider',
    target: 'x',
    version: '1.0.0',
    outcome,
    exit_code: outcome === 'completed' ? 0 : null,
    ...(outcome !== 'completed' ? { reason: 'no result within 10 ms (run_timeout_ms): the run was stopped' } : {}),
    score: outcome === 'completed' ? { must_met: must.filter((r) => cells[r.id]!.status === 'witnessed').length, must_applicable: must.length } : null,
    totals,
    cells,
    files: { badge: `badges/impl-${position}.svg` },
    started_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:00:01.000Z',
  };
}

describe('summary.md and badges', () => {
  it('fifty implementations, every cell of them newly failed: still a short comment', () => {
    const cols = Array.from({ length: 50 }, (_, i) => column(i, () => 'failed'));
    const doc: MatrixDoc = {
      matrix_version: 1,
      tool_version: '0.1.0',
      protocol_version: 'contextgraph/1.0',
      generated_at: '2026-01-02T00:00:00.000Z',
      source: { file: 'm.yml', digest: `sha256:${'0'.repeat(64)}`, implementations: 50 },
      rows,
      implementations: cols,
      changes: {
        previous_generated_at: '2026-01-01T00:00:00.000Z',
        new_failures: cols.flatMap((c) => rows.map((r) => ({ implementation: c.name, id: r.id, from: 'witnessed' as const, to: 'failed' as const }))),
        fixes: [],
        other: [],
        added: [],
        gone: [],
        version_changes: [],
        outcome_changes: [],
      },
    };
    const md = renderSummary(doc);
    assert.ok(md.length < 20_000, `${md.length} characters`);
    assert.match(md, /- … and \d+ more \(the page lists them all\)/);
    assert.match(md, /, … \(\d+ failed\)/, 'a long list of failed ids is cut');
  });

  it('the badge: green when every applicable MUST is met, red when one failed, grey without a verdict', () => {
    const green = renderColumnBadge(column(0, (id) => (rows.find((r) => r.id === id)!.level === 'MUST' ? 'witnessed' : 'not-applicable')));
    assert.match(green, /fill="#2e7d32"/);
    assert.match(green, /CGP · impl 0: MUST (\d+)\/\1</);
    assert.match(renderColumnBadge(column(1, (id) => (id === 'B4' ? 'failed' : 'witnessed'))), /fill="#c62828"[\s\S]*· failed/);
    assert.match(renderColumnBadge(column(2, () => 'witnessed', 'hung')), /fill="#6b6b6b"[\s\S]*>hung</);
  });
});
