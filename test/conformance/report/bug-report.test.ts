// A bug report's "How the toolkit reads it" lists only the readings of docs/interpretations.md that apply to
// its id: a section whose "Interprets:" line names the id, or (without that line) whose title or a bullet
// names it — not a section that mentions the id in passing (`validate`'s list of cross-message checks).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { interpretationsFor, type Interpretation } from '../../../src/catalogue/documents.js';
import { findCatalogueEntry } from '../../../src/catalogue/index.js';
import { interpretationsApplying, renderBugReport } from '../../../src/conformance/report/bug-report.js';
import type { ReportFinding } from '../../../src/conformance/provider-suite/cli-report.js';

const finding = (id: string): ReportFinding =>
  ({
    id,
    severity: 'error',
    pointer: '',
    message: `${id} violated: something`,
    scenario: { uri: 'features/provider/budget.feature', line: 39, name: 'max_frames 1 returns at most one frame' },
    evidence: [],
  }) as unknown as ReportFinding;

const ctx = { targetName: 't', targetLabel: 't', toolVersion: '0.0.0', repro: (id: string) => `npx cgp-conformance stdio --tags @${id} -- ./p` };

function cited(report: string): number[] {
  const line = report.split('\n').find((l) => l.startsWith('- **How the toolkit reads it:**')) ?? '';
  return [...line.matchAll(/§(\d+)/g)].map((m) => Number(m[1]));
}

describe('bug report: the interpretations that apply to the id', () => {
  it('B4 does not cite the `validate` section, which only lists B4 among cross-message checks', () => {
    const all = interpretationsFor(findCatalogueEntry('B4')!);
    const validate = all.find((i) => /validate/.test(i.title));
    assert.ok(validate, 'the validate section mentions B4 (the case this test is about)');
    const sections = cited(renderBugReport('B4', [finding('B4')], ctx));
    assert.ok(!sections.includes(validate.number), `B4 cites §${validate.number} (${validate.title}): ${sections.join(', ')}`);
    assert.ok(sections.length > 0, 'B4 still cites the reading of budgets with anchors');
  });

  it('every cited section names the id in its Interprets line, its title or a bullet, for every anchor', () => {
    const sample: Interpretation = { number: 999, title: 'About other things', interprets: 'B1, §7', text: 'B4 is mentioned here in passing.' };
    assert.deepEqual(interpretationsApplying('B4', [sample]), [], 'an Interprets line not naming the id excludes the section');
    const bullet: Interpretation = { number: 998, title: 'Edges', interprets: '', text: 'Intro naming nothing.\n\n- **Budgets**: anchored queries\n  count too (B4).\n- **Other**: H1.' };
    assert.deepEqual(
      interpretationsApplying('B4', [bullet]).map((i) => i.number),
      [998],
    );
    const passing: Interpretation = { number: 997, title: 'validate', interprets: '', text: 'Cross-message checks (B1, B4, Q1) mean something within a session.' };
    assert.deepEqual(interpretationsApplying('B4', [passing]), []);
  });
});
