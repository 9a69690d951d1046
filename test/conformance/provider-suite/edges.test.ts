// The edge probes (features/provider/edges.feature, robustness.feature's R1 over HTTP; docs/interpretations.md
// §111–§116): the honest bundled provider passes them over stdio, HTTP and in process, and each edge mode of
// the manifest fails exactly the ids it declares — caught only by its edge probe, every other scenario of
// those ids passing it.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runSuite, type RunSuiteOptions } from '../../../src/conformance/run/run-suite.js';
import type { SuiteSummary } from '../../../src/conformance/provider-suite/summary.js';
import { startBundledHttpProvider, type RunningHttpProvider } from '../../../src/provider/serve.js';
import { findMisbehaviour } from '../../../src/provider/misbehaviours.js';
import { scriptedRunner } from '../../fixtures/provider/scripted-runs.js';

const REPORTS = mkdtempSync(join(tmpdir(), 'cgp-edges-test-'));
const TIMEOUTS = { handshakeMs: 6_000, requestMs: 4_000, shutdownGraceMs: 2_000 };
const EDGE_IDS = ['B1', 'B4', 'R1', 'E1', 'H4', 'V2', 'U1', 'S6.1-as-of', 'Q1', 'G4', 'H1'];
let n = 0;

function run(tags: string, opts: Partial<RunSuiteOptions> = {}) {
  return runSuite({ side: 'provider', reportName: `edges-${++n}`, reportsDir: REPORTS, progress: null, timeouts: TIMEOUTS, tags, ...opts });
}

/** Ids reported failed or warning, and the scenarios that reported them (file:line). */
function reported(s: SuiteSummary): { ids: string[]; where: string[] } {
  const ids = s.ids
    .filter((i) => i.status === 'failed' || i.status === 'warning')
    .map((i) => i.id)
    .sort();
  const where = s.scenarios.filter((sc) => sc.status === 'failed' || sc.findings.length > 0).map((sc) => `${sc.uri.replace(/^.*features\//, '')}:${sc.line}`);
  return { ids, where };
}

function tagsOf(ids: readonly string[]): string {
  return `@provider and (${ids.map((id) => `@${id}`).join(' or ')})`;
}

function edgeScenarios(s: SuiteSummary): SuiteSummary['scenarios'] {
  return s.scenarios.filter((sc) => sc.uri.endsWith('edges.feature') || (sc.uri.endsWith('robustness.feature') && sc.ids.includes('R1')));
}

describe('edge probes: the honest bundled provider passes', () => {
  let http: RunningHttpProvider;
  before(async () => {
    http = await startBundledHttpProvider({ port: 0 });
  });
  after(async () => {
    await http.close();
  });

  it('over stdio: every edge scenario passes or is not applicable, with no warning', { timeout: 180_000 }, async () => {
    const result = await run(tagsOf(EDGE_IDS));
    assert.equal(result.summary.harness_errors, 0);
    assert.deepEqual(reported(result.summary), { ids: [], where: [] });
    const edges = edgeScenarios(result.summary);
    assert.ok(edges.length >= 15, `${edges.length} edge scenarios ran`);
    assert.ok(edges.filter((s) => s.status === 'passed').length >= 14);
    assert.equal(result.success, true);
  });

  it('over HTTP: the same, and malformed bodies are each answered bad_request with the next query answered', { timeout: 180_000 }, async () => {
    const result = await run(tagsOf(EDGE_IDS), { target: { kind: 'http', url: http.handle.url } });
    assert.equal(result.summary.harness_errors, 0);
    assert.deepEqual(reported(result.summary), { ids: [], where: [] });
    const bodies = result.summary.scenarios.find((s) => s.name.startsWith('Malformed input never crashes'));
    assert.equal(bodies?.status, 'passed');
    assert.equal(result.success, true);
  });

  it('in process: the same (the lines a binding carries are not applicable)', { timeout: 180_000 }, async () => {
    const result = await run(tagsOf(EDGE_IDS), { target: { kind: 'in-process' } });
    assert.equal(result.summary.harness_errors, 0);
    assert.deepEqual(reported(result.summary), { ids: [], where: [] });
    const deep = result.summary.scenarios.find((s) => s.name.startsWith('A valid line nested far deeper'));
    assert.equal(deep?.status, 'not-applicable');
    // R1's malformed input: in process only the bad request crosses (an object), and is refused
    assert.equal(result.summary.scenarios.find((s) => s.name.startsWith('Malformed input never crashes'))?.status, 'passed');
    assert.equal(result.success, true);
  });
});

/** Each edge mode, and the start of the name of the one edges.feature scenario that must catch it. */
const EDGE_MODES: ReadonlyArray<[mode: string, scenario: string]> = [
  ['zero-max-tokens-unbounded', 'max_tokens 0 returns no frame'],
  ['tokens-fast-path-off-by-one', 'max_tokens exactly at a sum of costs'],
  ['frames-fast-path-off-by-one', 'max_frames exactly at the served count'],
  ['crash-on-budget-overflow', "Budgets beyond their type's range"],
  ['accept-short-embedding', 'A query vector shorter than the declared dimension'],
  ['numeric-id-normalised', 'Ids of every shape'],
  ['refuse-empty-verify', 'A verify naming no identity'],
  ['split-long-lines', 'Valid lines longer than common read buffers'],
  ['crash-on-very-deep-nesting', 'A valid line nested far deeper than 512 levels'],
  ['case-folded-members', 'A member spelled in other case'],
  ['millisecond-as-of', 'as_of with one to nine fractional digits'],
  ['lenient-as-of', 'as_of spellings off the F4 profile'],
  ['first-anchor-only', 'Every anchor of the list counts'],
  ['prefix-matched-kinds', 'Kind names at their edges'],
  ['bounded-minor', 'A minor of any length is in the family'],
];

describe('edge modes: each fails exactly its ids, caught only by its edge probe', () => {
  for (const [mode, scenario] of EDGE_MODES) {
    it(mode, { timeout: 180_000 }, async () => {
      const entry = findMisbehaviour(mode);
      assert.ok(entry, `${mode} is in the manifest`);
      const result = await run(tagsOf(entry.breaks), { misbehave: mode });
      assert.equal(result.summary.harness_errors, 0);
      const { ids, where } = reported(result.summary);
      assert.deepEqual(ids, [...entry.breaks].sort(), `${mode}: reported ids (scenarios: ${where.join(', ')})`);
      const catching = result.summary.scenarios.filter((s) => s.status === 'failed' || s.findings.length > 0);
      assert.ok(catching.length > 0);
      for (const s of catching) assert.ok(s.uri.endsWith('edges.feature') && s.name.startsWith(scenario), `${mode} is caught by "${s.name}" (${s.uri}:${s.line}); only "${scenario}…" may catch it`);
    });
  }
});

describe('R1 over HTTP: robustness modes are caught over HTTP too', () => {
  const cases: ReadonlyArray<[mode: string, status: 'failed' | 'warning', message: RegExp]> = [
    ['crash-on-garbage', 'failed', /could not be reached|went away/],
    ['deaf-after-garbage', 'failed', /next valid query was answered with no envelope/],
    ['silent-on-garbage', 'warning', /got no envelope \(an empty response\); a provider SHOULD reply error with code bad_request/],
    ['mislabel-malformed', 'warning', /error "internal"/],
  ];
  for (const [mode, status, message] of cases) {
    it(`${mode}: R1 ${status}, and no other id`, { timeout: 120_000 }, async () => {
      const provider = await startBundledHttpProvider({ port: 0, misbehave: mode });
      try {
        const result = await run('@provider and @R1', { target: { kind: 'http', url: provider.handle.url } });
        assert.equal(result.summary.harness_errors, 0);
        assert.deepEqual(reported(result.summary).ids, ['R1']);
        assert.equal(result.summary.ids.find((i) => i.id === 'R1')?.status, status);
        const findings = result.summary.scenarios.flatMap((s) => s.findings.filter((f) => f.id === 'R1'));
        assert.ok(
          findings.some((f) => message.test(f.message)),
          findings.map((f) => f.message).join('\n'),
        );
      } finally {
        await provider.close().catch(() => undefined);
      }
    });
  }
});

describe('edge probes: no false verdict on odd but honest peers (scripted)', () => {
  it('errors written after the next reply (ids unique among exchanges in flight) draw no R1 finding', { timeout: 120_000 }, async () => {
    const result = await scriptedRunner('e')('r1-out-of-order', '@provider and @R1');
    assert.equal(result.summary.harness_errors, 0);
    const r1 = result.summary.scenarios.flatMap((s) => s.findings.filter((f) => f.id === 'R1'));
    assert.deepEqual(
      r1.map((f) => f.message),
      [],
    );
    assert.equal(result.summary.ids.find((i) => i.id === 'R1')?.status, 'witnessed');
    assert.ok(edgeScenarios(result.summary).filter((s) => s.status === 'passed').length >= 4);
  });

  it('a line that is not an envelope before every reply is a framing finding (S2-wire-shape), never an R1 one in an edge probe', { timeout: 120_000 }, async () => {
    const result = await scriptedRunner('g')('garbage', '@provider and @R1');
    assert.equal(result.summary.harness_errors, 0);
    const edges = result.summary.scenarios.filter((s) => s.uri.endsWith('edges.feature'));
    assert.ok(edges.length >= 4);
    for (const s of edges) {
      assert.equal(s.status, 'passed', `${s.name}: ${s.message ?? ''}`);
      assert.deepEqual(
        s.findings.filter((f) => f.id === 'R1').map((f) => f.message),
        [],
        s.name,
      );
    }
    assert.ok(
      result.summary.scenarios.some((s) => s.findings.some((f) => f.id === 'S2-wire-shape')),
      'the garbage lines are reported, against S2-wire-shape',
    );
  });
});
