// The red team's verdict logic on synthetic scenario results, then end to end with the fixture runner
// (same interface as src/conformance/run/run-suite.ts) and the fixture manifests.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalogue } from '../../../src/catalogue/index.js';
import {
  applyBaseline,
  BaselineError,
  CatalogueIndex,
  collectWitnesses,
  evaluateMode,
  evaluateSmoke,
  honestFlags,
  pool,
  readBaseline,
  renderRedTeamTable,
  runRedTeam,
  serializeRedTeam,
  tagExpression,
  type ModeResult,
  type RedTeamReport,
  type SuiteRunner,
} from '../../../src/conformance/report/index.js';
import { runSuite } from '../../fixtures/report/fixture-suite.js';
import { BROKEN, MISBEHAVIOURS } from '../../fixtures/report/manifest.js';
import { syntheticScenario } from '../../fixtures/report/scenario.js';

const index = new CatalogueIndex(loadCatalogue());

const scenario = syntheticScenario;

const error = (id: string) => ({ id, severity: 'error' as const, pointer: '', message: `${id} violated` });
const warning = (id: string) => ({ id, severity: 'warning' as const, pointer: '', message: `${id} not met` });
const mode = (breaks: string[]) => ({ mode: 'm', breaks, description: 'd' });

describe('verdict per mode (synthetic results)', () => {
  test('a MUST id reported failed is caught', () => {
    const r = evaluateMode(mode(['B3']), [scenario(['@B3'], 'failed', { findings: [error('B3')] })], index);
    assert.equal(r.verdict, 'caught');
    assert.deepEqual(r.ids, [
      {
        id: 'B3',
        level: 'MUST',
        status: 'caught',
        seen: ['features/provider/x.feature:3 scenario @B3 (failed)'],
        discredited: [],
      },
    ]);
    assert.equal(r.tags, '@B3');
  });

  test('every id must be caught: one missing ⇒ NOT CAUGHT', () => {
    const r = evaluateMode(mode(['P4', 'B3']), [scenario(['@B3'], 'failed', { findings: [error('B3')] }), scenario(['@P4'], 'passed', {}, 9)], index);
    assert.equal(r.verdict, 'not-caught');
    assert.deepEqual(
      r.ids.map((i) => [i.id, i.status]),
      [
        ['P4', 'not-caught'],
        ['B3', 'caught'],
      ],
    );
    assert.equal(r.tags, '@P4 or @B3');
  });

  test('pass, skip, not-applicable, pending and blocked do not count', () => {
    for (const status of ['passed', 'skipped', 'not-applicable', 'pending', 'undefined', 'inconclusive', 'unverified'] as const) {
      const r = evaluateMode(mode(['F6']), [scenario(['@F6'], status)], index);
      assert.equal(r.verdict, 'not-caught', status);
    }
    const blocked = evaluateMode(mode(['B1']), [scenario(['@B1', '@B3'], 'failed', { findings: [error('B3')] })], index);
    assert.equal(blocked.verdict, 'not-caught');
    assert.deepEqual(blocked.ids[0]?.seen, ['features/provider/x.feature:3 scenario @B1 @B3 (blocked)']);
  });

  test('a MUST id reported only as a warning is not caught; a SHOULD id needs the warning', () => {
    const mustWarn = evaluateMode(mode(['B3']), [scenario(['@B3'], 'passed', { findings: [warning('B3')] })], index);
    assert.equal(mustWarn.verdict, 'not-caught');
    const should = evaluateMode(mode(['S6.3-content-digest']), [scenario(['@S6.3-content-digest'], 'passed', { findings: [warning('S6.3-content-digest')] })], index);
    assert.equal(should.verdict, 'caught');
    assert.equal(should.ids[0]?.level, 'SHOULD');
    const shouldAnchor = evaluateMode(mode(['C3']), [scenario(['@C3'], 'passed', { findings: [warning('C3')] })], index);
    assert.equal(shouldAnchor.verdict, 'caught');
  });

  test('an unattributed failure (crash, timeout) is charged to the tagged ids', () => {
    const r = evaluateMode(mode(['B1', 'B4']), [scenario(['@B1', '@B4'], 'failed', { failureMessages: ['Error: function timed out'] })], index);
    assert.equal(r.verdict, 'caught');
  });

  test('an id no scenario carries is a manifest ERROR, not a pass', () => {
    const r = evaluateMode(mode(['B3', 'C5']), [scenario(['@B3'], 'failed', { findings: [error('B3')] })], index);
    assert.equal(r.verdict, 'error');
    assert.deepEqual(
      r.ids.map((i) => [i.id, i.status]),
      [
        ['B3', 'caught'],
        ['C5', 'no-scenario'],
      ],
    );
    assert.match(r.problem ?? '', /no scenario is tagged @C5/);
  });

  test('an id the catalogue does not have is a manifest ERROR', () => {
    const r = evaluateMode(mode(['S7-truncated-honest']), [], index);
    assert.equal(r.verdict, 'error');
    assert.equal(r.ids[0]?.status, 'unknown-id');
    assert.match(r.problem ?? '', /S7-truncated-honest is not in the rule catalogue/);
  });

  test('an unknown id-like tag in the run makes the mode an ERROR', () => {
    const r = evaluateMode(mode(['B3']), [scenario(['@B3', '@B9'], 'failed')], index);
    assert.equal(r.verdict, 'error');
    assert.match(r.problem ?? '', /"B9"/);
  });

  test('a scenario that flags the id against the honest provider too earns no credit', () => {
    const honestRun = [scenario(['@S6.3-content-digest'], 'passed', { findings: [warning('S6.3-content-digest')] })];
    const honest = honestFlags(collectWitnesses(honestRun, index));
    const r = evaluateMode(mode(['S6.3-content-digest']), honestRun, index, honest);
    assert.equal(r.verdict, 'not-caught');
    assert.deepEqual(r.ids[0]?.discredited, ['features/provider/x.feature:3 scenario @S6.3-content-digest (warning)']);
  });

  test('smoke: the honest run must pass (or be not-applicable for) every scenario', () => {
    const ok = evaluateSmoke('@B3', [scenario(['@B3'], 'passed'), scenario(['@F6'], 'not-applicable', {}, 7)], index);
    assert.equal(ok.ok, true);
    const bad = evaluateSmoke('@B3', [scenario(['@B3'], 'failed'), scenario(['@B4'], 'skipped', {}, 8)], index);
    assert.equal(bad.ok, false);
    assert.deepEqual(bad.problems, ['features/provider/x.feature:3 scenario @B3 (failed)', 'features/provider/x.feature:8 scenario @B4 (skipped)']);
    const warned = evaluateSmoke('@C3', [scenario(['@C3'], 'passed', { findings: [warning('C3')] })], index);
    assert.equal(warned.ok, true);
    assert.deepEqual(warned.warnings, ['C3: features/provider/x.feature:3 scenario @C3']);
  });

  test('tag expression: one `@id` per distinct id joined by `or`', () => {
    assert.equal(tagExpression(['B1', 'B3', 'B1', 'S6.3-content-digest']), '@B1 or @B3 or @S6.3-content-digest');
  });
});

describe('expected-failures baseline', () => {
  const result = (m: string, verdict: ModeResult['verdict']): ModeResult => ({
    mode: m,
    breaks: ['B3'],
    description: '',
    tags: '@B3',
    verdict,
    ids: [],
  });

  test('a listed NOT CAUGHT mode is a known gap; an unlisted one stays a failure', () => {
    const { modes, stale } = applyBaseline([result('a', 'not-caught'), result('b', 'not-caught')], [{ mode: 'a', reason: 'waiting for the §7 scenario' }]);
    assert.deepEqual(
      modes.map((m) => [m.mode, m.verdict]),
      [
        ['a', 'known-gap'],
        ['b', 'not-caught'],
      ],
    );
    assert.equal(modes[0]?.problem, 'baseline: waiting for the §7 scenario');
    assert.deepEqual(stale, []);
  });

  test('a listed mode that is now caught is stale (an error); so is a listed mode the manifest lacks', () => {
    const { modes, stale } = applyBaseline(
      [result('a', 'caught')],
      [
        { mode: 'a', reason: 'r' },
        { mode: 'gone', reason: 'r' },
      ],
    );
    assert.equal(modes[0]?.verdict, 'caught');
    assert.deepEqual(stale, ['a: listed in the baseline but now caught — remove the entry', 'gone: listed in the baseline but not in the manifest — remove the entry']);
  });

  test('a manifest error is never excused by the baseline', () => {
    const { modes } = applyBaseline([result('a', 'error')], [{ mode: 'a', reason: 'r' }]);
    assert.equal(modes[0]?.verdict, 'error');
  });

  test('the baseline file format is checked', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cgp-baseline-'));
    try {
      const good = join(dir, 'good.json');
      writeFileSync(good, JSON.stringify({ expected_failures: [{ mode: 'x', reason: 'because' }] }));
      assert.deepEqual(readBaseline(good), [{ mode: 'x', reason: 'because' }]);
      const noReason = join(dir, 'bad.json');
      writeFileSync(noReason, JSON.stringify({ expected_failures: [{ mode: 'x' }] }));
      assert.throws(() => readBaseline(noReason), BaselineError);
      assert.throws(() => readBaseline(join(dir, 'missing.json')), BaselineError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('bounded concurrency', () => {
  test('pool never has more than `limit` jobs in flight and runs them all', async () => {
    let inFlight = 0;
    let peak = 0;
    const done: number[] = [];
    await pool([1, 2, 3, 4, 5, 6, 7], 2, async (n) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      done.push(n);
      inFlight -= 1;
    });
    assert.equal(peak, 2);
    assert.deepEqual(done.sort(), [1, 2, 3, 4, 5, 6, 7]);
  });
});

describe('end to end with the fixture runner', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'cgp-red-team-test-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const runner =
    (sub: string): SuiteRunner =>
    (o) =>
      runSuite({ ...o, reportsDir: join(dir, sub) });

  test('an entry that breaks nothing runs no scenario: fixture with its reason, or an error without one', async () => {
    const calls: string[] = [];
    const spy: SuiteRunner = (o) => {
      calls.push(`${o.reportName}`);
      return runner('fixture-entries')(o);
    };
    const manifest = [
      { mode: 'fx-host-fixture', breaks: [], exercises: ['F8'], description: 'a conformant behaviour the host suite uses' },
      { mode: 'fx-unbacked', breaks: [], unbacked: 'no SPEC rule names this', description: 'misleading but not a violation' },
      { mode: 'fx-nothing', breaks: [], description: 'names no id and gives no reason' },
    ];
    const report = await runRedTeam({ manifest, runner: spy, concurrency: 1, toolVersion: '0' });
    assert.deepEqual(
      report.modes.map((m) => [m.mode, m.verdict]),
      [
        ['fx-host-fixture', 'fixture'],
        ['fx-unbacked', 'fixture'],
        ['fx-nothing', 'error'],
      ],
    );
    assert.match(report.modes[0]!.problem ?? '', /host-side F8/);
    assert.match(report.modes[1]!.problem ?? '', /no normative id: no SPEC rule names this/);
    assert.deepEqual(calls, ['smoke.honest'], 'only the smoke run ran');
    assert.equal(report.ok, false, 'an entry with neither breaks nor a reason fails the red team');
  });

  test('every fixture mode caught, honest smoke passes, runs use the manifest tags and names', async () => {
    const calls: string[] = [];
    const spy: SuiteRunner = (o) => {
      calls.push(`${o.side} ${o.reportName} ${o.misbehave ?? '-'} ${o.tags}`);
      return runner('ok')(o);
    };
    const report = await runRedTeam({ manifest: MISBEHAVIOURS, runner: spy, concurrency: 2, toolVersion: '0' });
    assert.equal(report.ok, true, renderRedTeamTable(report));
    assert.deepEqual(
      report.modes.map((m) => [m.mode, m.verdict]),
      [
        ['fx-bad-version', 'caught'],
        ['fx-two-ids', 'caught'],
        ['fx-crash', 'caught'],
        ['fx-digest', 'caught'],
      ],
    );
    assert.equal(report.smoke.ok, true);
    assert.deepEqual(calls.sort(), [
      'provider fx-bad-version fx-bad-version @H1',
      'provider fx-crash fx-crash @B1',
      'provider fx-digest fx-digest @S6.3-content-digest',
      'provider fx-two-ids fx-two-ids @H1 or @B1',
      'provider smoke.honest - @H1 or @B1 or @S6.3-content-digest',
    ]);
    assert.deepEqual(report.summary, { modes: 4, caught: 4, not_caught: 0, known_gaps: 0, fixtures: 0, errors: 0 });
  });

  let broken: RedTeamReport;
  test('the broken manifest: not caught, unscenarioed, unknown id, honest failure — each reported', async () => {
    broken = await runRedTeam({ manifest: BROKEN, runner: runner('broken'), concurrency: 2, toolVersion: '0' });
    assert.equal(broken.ok, false);
    assert.deepEqual(
      broken.modes.map((m) => [m.mode, m.verdict]),
      [
        ['fx-bad-version', 'caught'],
        ['fx-name', 'not-caught'],
        ['fx-half', 'not-caught'],
        ['fx-unscenarioed', 'error'],
        ['fx-unknown', 'error'],
        ['fx-honest-fails', 'not-caught'],
        ['fx-not-applicable', 'not-caught'],
      ],
    );
    const half = broken.modes.find((m) => m.mode === 'fx-half');
    assert.deepEqual(
      half?.ids.map((i) => [i.id, i.status]),
      [
        ['H1', 'caught'],
        ['H2', 'not-caught'],
      ],
    );
    const honestFails = broken.modes.find((m) => m.mode === 'fx-honest-fails');
    assert.equal(honestFails?.ids[0]?.discredited.length, 1);
    assert.equal(broken.smoke.ok, false);
    assert.deepEqual(broken.smoke.problems, ['test/fixtures/report/red-team/checks.feature:21 a check the honest target fails too (failed)']);
    const table = renderRedTeamTable(broken);
    assert.match(table, /fx-name +NOT CAUGHT +H2:not-caught/);
    assert.match(table, /fx-unscenarioed +ERROR +C5:no-scenario/);
    assert.match(table, /RED TEAM FAILED/);
  });

  test('the baseline turns a listed miss into a known gap, but the smoke and manifest errors still fail', async () => {
    const report = await runRedTeam({
      manifest: BROKEN.filter((m) => m.mode === 'fx-name' || m.mode === 'fx-bad-version'),
      runner: runner('baseline'),
      baseline: [{ mode: 'fx-name', reason: 'the fixture name check is a stub' }],
      toolVersion: '0',
    });
    assert.equal(report.ok, true, renderRedTeamTable(report));
    assert.deepEqual(report.summary, { modes: 2, caught: 1, not_caught: 0, known_gaps: 1, fixtures: 0, errors: 0 });
  });

  test('red-team.json is deterministic', async () => {
    const again = await runRedTeam({ manifest: BROKEN, runner: runner('broken-again'), concurrency: 1, toolVersion: '0' });
    assert.equal(serializeRedTeam(again), serializeRedTeam(broken));
    assert.doesNotMatch(serializeRedTeam(again), /timestamp|duration|nanos/);
  });

  test('a runner that throws makes the mode an ERROR', async () => {
    const failing: SuiteRunner = async (o) => {
      if (o.misbehave === 'fx-bad-version') throw new Error('provider binary missing');
      return runner('throws')(o);
    };
    const report = await runRedTeam({ manifest: MISBEHAVIOURS.slice(0, 1), runner: failing, toolVersion: '0' });
    assert.equal(report.modes[0]?.verdict, 'error');
    assert.match(report.modes[0]?.problem ?? '', /provider binary missing/);
    assert.equal(report.ok, false);
  });

  test('a run that did not run the scenarios (target never answered) is an ERROR, not a pass', async () => {
    const seen: Array<boolean | undefined> = [];
    const neverRan: SuiteRunner = async (o) => {
      seen.push(o.runIfNeverAnswered);
      if (o.misbehave !== undefined) return { success: false, ran: false, reason: 'spawn failed', messagesPath: '/nonexistent' };
      return runner('never')(o);
    };
    const report = await runRedTeam({ manifest: MISBEHAVIOURS.slice(0, 1), runner: neverRan, toolVersion: '0' });
    assert.equal(report.modes[0]?.verdict, 'error');
    assert.match(report.modes[0]?.problem ?? '', /the suite did not run: spawn failed/);
    assert.deepEqual(seen, [true, true], 'the red team asks the runner to run the scenarios anyway');
  });
});

describe('npm run red-team (scripts/run-red-team.ts)', () => {
  const script = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'scripts/run-red-team.ts', ...args], {
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });

  test('exit 0 when every mode is caught; exit 1 otherwise; red-team.json written; exit 2 without a runner', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cgp-red-team-cli-'));
    try {
      const common = ['--runner', 'test/fixtures/report/fixture-suite.ts', '--baseline', join(dir, 'none.json')];
      writeFileSync(join(dir, 'none.json'), JSON.stringify({ expected_failures: [] }));
      writeFileSync(join(dir, 'broken.ts'), `export { BROKEN as MISBEHAVIOURS } from '${process.cwd()}/test/fixtures/report/manifest.ts';\n`);
      const env = { CGP_REPORT_FIXTURE_OUT: join(dir, 'messages') };
      const ok = script([...common, '--manifest', 'test/fixtures/report/manifest.ts', '--out', join(dir, 'ok')], env);
      assert.equal(ok.status, 0, ok.stdout + ok.stderr);
      assert.match(ok.stdout, /fx-two-ids +caught +H1:caught B1:caught/);
      const json = JSON.parse(readFileSync(join(dir, 'ok', 'red-team.json'), 'utf8')) as RedTeamReport;
      assert.equal(json.ok, true);
      const bad = script([...common, '--manifest', join(dir, 'broken.ts'), '--out', join(dir, 'bad')], env);
      assert.equal(bad.status, 1, bad.stdout + bad.stderr);
      assert.match(bad.stdout, /fx-name +NOT CAUGHT/);
      const only = script([...common, '--manifest', join(dir, 'broken.ts'), '--mode', 'fx-bad-version', '--out', join(dir, 'only')], env);
      assert.equal(only.status, 0, only.stdout + only.stderr);
      const missing = script(['--runner', join(dir, 'no-such-runner.ts')]);
      assert.equal(missing.status, 2);
      assert.match(missing.stderr, /does not exist/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
