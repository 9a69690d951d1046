// The coverage builder, fed with real Cucumber Messages: the tiny fixture features under
// test/fixtures/report/ are run through cucumber's JS API, and every status case is derived from that output.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalogue } from '../../../src/catalogue/index.js';
import {
  badgeText,
  buildCoverage,
  buildCoverageFromScenarios,
  CatalogueIndex,
  conformanceVerdict,
  idFromFailureMessage,
  inferSide,
  MalformedMessagesError,
  readMessagesFile,
  renderBadge,
  renderHtml,
  renderMarkdown,
  serializeCoverage,
  UnknownCatalogueIdError,
  type CoverageEntry,
  type CoverageReport,
  type ScenarioResult,
} from '../../../src/conformance/report/index.js';
import { runSuite } from '../../fixtures/report/fixture-suite.js';

const catalogue = loadCatalogue();
const FEATURE = 'test/fixtures/report/coverage/cases.feature';
let dir: string;
let plain: string; // the coverage fixtures, target declares no capability
let plainAgain: string; // the same run again (other uuids and timestamps)
let withVerify: string; // target declares verify
let report: CoverageReport;

function entry(r: CoverageReport, id: string): CoverageEntry {
  const e = [...r.anchors, ...r.rules].find((x) => x.id === id);
  assert.ok(e, `no entry ${id}`);
  return e;
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cgp-coverage-test-'));
  const run = async (reportName: string, capabilities: string[] = []): Promise<string> =>
    (await runSuite({ side: 'provider', features: 'coverage', reportName, reportsDir: dir, capabilities })).messagesPath;
  plain = await run('plain');
  plainAgain = await run('plain-again');
  withVerify = await run('with-verify', ['verify']);
  report = buildCoverage({ messages: [plain], target: 'fixture provider', side: 'provider', toolVersion: '9.9.9' });
});

after(() => rmSync(dir, { recursive: true, force: true }));

describe('status derivation from cucumber messages', () => {
  test('a passing scenario witnesses its anchor', () => {
    const e = entry(report, 'H1');
    assert.equal(e.status, 'witnessed');
    assert.deepEqual(e.witnesses, [{ scenario: 'H1 passes', feature: FEATURE, line: 5, status: 'passed' }]);
    assert.equal(e.reason, undefined);
  });

  test('one failed witness makes the anchor failed even when another scenario passed', () => {
    const e = entry(report, 'H2');
    assert.equal(e.status, 'failed');
    assert.deepEqual(
      e.witnesses.map((w) => [w.line, w.status]),
      [
        [10, 'failed'],
        [15, 'passed'],
      ],
    );
  });

  test('a passed scenario with a warning finding makes a SHOULD anchor warning', () => {
    const e = entry(report, 'C3');
    assert.equal(e.level, 'SHOULD');
    assert.equal(e.status, 'warning');
    assert.deepEqual(
      e.witnesses.map((w) => w.status),
      ['warning'],
    );
    assert.equal(entry(report, 'S6.3-content-digest').status, 'warning');
  });

  test('a capability the target did not declare ⇒ not-applicable with the reason (never a pass)', () => {
    const e = entry(report, 'F6');
    assert.equal(e.status, 'not-applicable');
    assert.equal(e.reason, 'target did not declare capabilities.verify');
    assert.deepEqual(
      e.witnesses.map((w) => w.status),
      ['not-applicable'],
    );
  });

  test('a failure message starting with an id is charged to that id; the other tag is blocked, not passed', () => {
    assert.equal(entry(report, 'B3').status, 'failed');
    const b1 = entry(report, 'B1');
    assert.equal(b1.status, 'unwitnessed');
    assert.equal(b1.reason, 'no passing witness (1 blocked)');
    assert.deepEqual(
      b1.witnesses.map((w) => w.status),
      ['blocked'],
    );
  });

  test('a failure that names no id is charged to every tagged id', () => {
    assert.equal(entry(report, 'B4').status, 'failed');
  });

  test('a pending scenario is not a witness', () => {
    const e = entry(report, 'G1');
    assert.equal(e.status, 'unwitnessed');
    assert.equal(e.reason, 'no passing witness (1 pending)');
  });

  test('a harness error is inconclusive: never counted against the target, nor as a pass', () => {
    const e = entry(report, 'G2');
    assert.equal(e.status, 'unwitnessed');
    assert.equal(e.reason, 'no passing witness (1 inconclusive)');
    assert.deepEqual(
      e.witnesses.map((w) => [w.line, w.status]),
      [[65, 'inconclusive']],
    );
  });

  test('an anchor no scenario carries is unwitnessed, loudly', () => {
    const e = entry(report, 'Q1');
    assert.equal(e.status, 'unwitnessed');
    assert.equal(e.reason, 'no scenario carries this id');
    assert.deepEqual(e.witnesses, []);
  });

  test('a host-side anchor in a provider run is not-applicable (target is a provider), witnesses kept', () => {
    const e = entry(report, 'C1');
    assert.equal(e.side, 'host');
    assert.equal(e.status, 'not-applicable');
    assert.equal(e.reason, 'target is a provider');
    assert.equal(e.witnesses.length, 1);
    assert.equal(entry(report, 'UR1').reason, 'target is a provider');
  });

  test('the same messages read as a host run: provider anchors not-applicable, failures still shown', () => {
    const host = buildCoverage({ messages: [plain], target: 't', side: 'host', toolVersion: '0' });
    assert.equal(entry(host, 'H1').status, 'not-applicable');
    assert.equal(entry(host, 'H1').reason, 'target is a host');
    assert.equal(entry(host, 'H2').status, 'failed', 'a failure is never hidden behind applicability');
    assert.equal(entry(host, 'C1').status, 'witnessed');
    assert.equal(entry(host, 'H3').status, 'unwitnessed', 'a both-sides anchor applies to a host');
  });

  test('types-side ids apply only to the merged run', () => {
    assert.equal(entry(report, 'U4').status, 'not-applicable');
    const both = buildCoverage({ messages: [plain], target: 't', side: 'both', toolVersion: '0' });
    assert.equal(entry(both, 'U4').status, 'unwitnessed');
    assert.equal(entry(both, 'C1').status, 'witnessed');
  });

  test('outline rows are separate witnesses with their own lines', () => {
    const e = entry(report, 'S6.1-as-of');
    assert.equal(e.status, 'witnessed');
    assert.deepEqual(
      e.witnesses.map((w) => [w.scenario, w.line]),
      [
        ['a rule witnessed by an outline row 1', 61],
        ['a rule witnessed by an outline row 2', 62],
      ],
    );
  });

  test('merging runs: a pass in one run beats not-applicable in the other', () => {
    const merged = buildCoverage({ messages: [plain, withVerify], target: 't', side: 'provider', toolVersion: '0' });
    const e = entry(merged, 'F6');
    assert.equal(e.status, 'witnessed');
    assert.deepEqual(e.witnesses.map((w) => w.status).sort(), ['not-applicable', 'passed']);
    // identical witnesses from two runs are listed once
    const twice = buildCoverage({ messages: [plain, plainAgain], target: 't', side: 'provider', toolVersion: '0' });
    assert.deepEqual(entry(twice, 'H1').witnesses, entry(report, 'H1').witnesses);
  });

  test('summary counts anchors; applicable = all minus not-applicable', () => {
    const s = report.summary;
    assert.equal(s.witnessed + s.failed + s.warning + s.unwitnessed + s.not_applicable, 61);
    assert.equal(s.applicable, 61 - s.not_applicable);
    assert.equal(s.witnessed, report.anchors.filter((a) => a.status === 'witnessed').length);
  });

  test('the side is inferred from the @provider / @host tags', () => {
    assert.equal(inferSide([plain]), 'provider');
  });
});

describe('the catalogue is complete and in order', () => {
  test('all 61 anchors are listed, in SPEC order, and every rule', () => {
    assert.equal(report.anchors.length, 61);
    assert.deepEqual(
      report.anchors.map((a) => a.id),
      catalogue.anchors.map((a) => a.id),
    );
    assert.deepEqual(
      report.rules.map((r) => r.id),
      catalogue.rules.map((r) => r.id),
    );
    for (const a of report.anchors) {
      const c = catalogue.anchors.find((x) => x.id === a.id);
      assert.equal(a.text, c?.text);
      assert.equal(a.level, c?.level);
      assert.equal(a.side, c?.side);
    }
  });

  test('an empty run still lists everything, all unwitnessed or not-applicable', () => {
    const empty = buildCoverageFromScenarios([], { target: 't', side: 'both', toolVersion: '0' });
    assert.equal(empty.anchors.length, 61);
    assert.ok(empty.anchors.every((a) => a.status === 'unwitnessed'));
    assert.equal(empty.summary.unwitnessed, 61);
    assert.equal(conformanceVerdict(empty).conformant, false);
  });

  test('report header fields', () => {
    assert.equal(report.protocol_version, 'contextgraph/1.0');
    assert.equal(report.tool_version, '9.9.9');
    assert.equal(report.target, 'fixture provider');
    const defaulted = buildCoverageFromScenarios([], { target: 't', side: 'provider' });
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    assert.equal(defaulted.tool_version, pkg.version);
  });
});

describe('unknown ids are errors', () => {
  test('a tag that looks like an anchor but is not one (@B9) ⇒ UnknownCatalogueIdError naming it', async () => {
    const { messagesPath } = await runSuite({ side: 'provider', features: 'unknown-tag', reportName: 'unknown-tag', reportsDir: dir });
    assert.throws(
      () => buildCoverage({ messages: [messagesPath], target: 't', side: 'provider', toolVersion: '0' }),
      (err: unknown) => err instanceof UnknownCatalogueIdError && err.id === 'B9' && err.where.startsWith('test/fixtures/report/unknown-tag/unknown.feature:5') && err.message.includes('"B9"'),
    );
  });

  test('a finding naming an uncatalogued rule id ⇒ UnknownCatalogueIdError', async () => {
    const { messagesPath } = await runSuite({
      side: 'provider',
      features: 'unknown-finding',
      reportName: 'unknown-finding',
      reportsDir: dir,
    });
    assert.throws(
      () => buildCoverage({ messages: [messagesPath], target: 't', side: 'provider', toolVersion: '0' }),
      (err: unknown) => err instanceof UnknownCatalogueIdError && err.id === 'S99-made-up' && err.where.includes('(finding)'),
    );
  });

  test('a rule-like tag not in the catalogue is an error; ordinary tags are ignored', () => {
    const index = new CatalogueIndex(catalogue);
    assert.deepEqual(index.idsFromTags(['@provider', '@needs-verify', '@wip', '@B3', '@S6.3-content-digest'], 'x'), ['B3', 'S6.3-content-digest']);
    assert.throws(() => index.idsFromTags(['@S7-truncated-honest'], 'x'), UnknownCatalogueIdError);
    assert.throws(() => index.idsFromTags(['@UR9'], 'x'), UnknownCatalogueIdError);
  });

  test('a file that is not Cucumber Messages ⇒ MalformedMessagesError', () => {
    const bad = join(dir, 'bad.ndjson');
    writeFileSync(bad, 'this is not json\n');
    assert.throws(() => readMessagesFile(bad), MalformedMessagesError);
    assert.throws(() => readMessagesFile(join(dir, 'missing.ndjson')), MalformedMessagesError);
  });

  test('failure messages: the leading id is recognised, free text is not an error', () => {
    const index = new CatalogueIndex(catalogue);
    assert.equal(idFromFailureMessage('Error: B3 violated: frame "frm_x" …', index), 'B3');
    assert.equal(idFromFailureMessage('AssertionError [ERR_ASSERTION]: S6.4.1-resolve-declared violated', index), 'S6.4.1-resolve-declared');
    assert.equal(idFromFailureMessage('UR1: usage report missing', index), 'UR1');
    assert.equal(idFromFailureMessage('Error: target unresponsive since step 1', index), undefined);
    assert.equal(idFromFailureMessage('Z9 something', index), undefined);
  });
});

describe('determinism', () => {
  test('two builds of the same messages are byte-identical, and so are two runs of the same suite', () => {
    const a = buildCoverage({ messages: [plain], target: 't', side: 'provider', toolVersion: '1' });
    const b = buildCoverage({ messages: [plain], target: 't', side: 'provider', toolVersion: '1' });
    const c = buildCoverage({ messages: [plainAgain], target: 't', side: 'provider', toolVersion: '1' });
    assert.equal(serializeCoverage(a), serializeCoverage(b));
    assert.equal(serializeCoverage(a), serializeCoverage(c));
    assert.equal(renderMarkdown(a), renderMarkdown(c));
    assert.equal(renderHtml(a), renderHtml(c));
    assert.equal(renderBadge(a), renderBadge(c));
    // merge order does not matter
    const ab = buildCoverage({ messages: [plain, withVerify], target: 't', side: 'provider', toolVersion: '1' });
    const ba = buildCoverage({ messages: [withVerify, plain], target: 't', side: 'provider', toolVersion: '1' });
    assert.equal(serializeCoverage(ab), serializeCoverage(ba));
  });

  test('no timestamps, durations or message ids in coverage.json', () => {
    const json = serializeCoverage(report);
    assert.doesNotMatch(json, /timestamp|duration|seconds|nanos/i);
    assert.doesNotMatch(json, /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-/);
    assert.deepEqual(Object.keys(report), ['target', 'protocol_version', 'tool_version', 'anchors', 'rules', 'summary']);
    assert.deepEqual(Object.keys(entry(report, 'F6')), ['id', 'level', 'side', 'status', 'reason', 'witnesses', 'text']);
    assert.deepEqual(Object.keys(entry(report, 'H1')), ['id', 'level', 'side', 'status', 'witnesses', 'text']);
  });
});

describe('renderers', () => {
  function synthetic(side: 'provider' | 'both', extra: Partial<ScenarioResult> = {}): CoverageReport {
    const scenarios: ScenarioResult[] = catalogue.anchors.map((a, i) => ({
      source: 'synthetic',
      scenario: `witnesses ${a.id}`,
      feature: 'features/synthetic.feature',
      line: 10 + i,
      tags: [side === 'both' ? '@provider' : '@provider', `@${a.id}`],
      status: 'passed',
      notApplicable: [],
      findings: [],
      failureMessages: [],
      harnessErrors: [],
      stepDefinitions: [],
    }));
    if (extra.findings) scenarios[0] = { ...scenarios[0]!, ...extra };
    return buildCoverageFromScenarios(scenarios, { target: 'synthetic', side, toolVersion: '0' });
  }

  test('badge: all 61 witnessed in the merged run ⇒ "CGP conformant · 61/61"', () => {
    const r = synthetic('both');
    const b = badgeText(r);
    assert.equal(`${b.label} ${b.message}`, 'CGP conformant · 61/61');
    assert.equal(b.conformant, true);
    const svg = renderBadge(r);
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.ok(svg.includes('aria-label="CGP conformant · 61/61"'));
  });

  test('badge: a provider run states witnessed / applicable and the total', () => {
    const r = synthetic('provider');
    const b = badgeText(r);
    assert.equal(r.summary.applicable, r.summary.witnessed);
    assert.equal(`${b.label} ${b.message}`, `CGP conformant · ${r.summary.witnessed}/${r.summary.applicable} applicable of 61`);
  });

  test('badge: a SHOULD warning keeps conformance and is counted', () => {
    const r = synthetic('both', { findings: [{ id: 'H1', severity: 'warning', pointer: '', message: 'H1 not met' }] });
    assert.equal(`${badgeText(r).label} ${badgeText(r).message}`, 'CGP conformant · 60/61 · 1 warning');
  });

  test('badge: failures or unwitnessed anchors ⇒ "not conformant" with both numbers', () => {
    const b = badgeText(report);
    const s = report.summary;
    const v = conformanceVerdict(report);
    assert.equal(b.conformant, false);
    assert.equal(`${b.label} ${b.message}`, `CGP not conformant · ${s.witnessed}/${s.applicable} applicable of 61 · ${v.mustFailed.length} MUST failed · ${v.unwitnessed.length} unwitnessed`);
    assert.equal(v.mustFailed.map((e) => e.id).join(' '), 'H2 B3 B4');
    assert.ok(renderBadge(report).includes('#c62828'));
  });

  test('markdown: failed and unwitnessed rows are bold with ❌, listed under "Needs attention"', () => {
    const md = renderMarkdown(report);
    assert.match(md, /\| \*\*❌ H2\*\* \| MUST \| provider \| \*\*❌ FAILED\*\*/);
    assert.match(md, /\| \*\*❌ Q1\*\* \| MUST \| provider \| \*\*❌ UNWITNESSED\*\* — no scenario carries this id/);
    assert.match(md, /\| H1 \| MUST \| provider \| ✅ witnessed \|/);
    assert.match(md, /\| F6 \| MUST \| provider \| ➖ not applicable \(target did not declare capabilities\.verify\)/);
    assert.match(md, /## ❌ Needs attention/);
    assert.match(md, /- \*\*❌ B1\*\* \(MUST, provider\) \*\*UNWITNESSED\*\* — no passing witness \(1 blocked\)/);
    assert.match(md, /\*\*Verdict: ❌ NOT CONFORMANT\*\*/);
    for (const a of catalogue.anchors) assert.ok(md.includes(`| ${a.id} |`) || md.includes(`| **❌ ${a.id}** |`), a.id);
  });

  test('html: self-contained, same data, failed and unwitnessed rows highlighted, no emoji', () => {
    const html = renderHtml(report);
    // the one script is inline (it opens transcripts for printing); nothing is loaded from anywhere
    assert.doesNotMatch(html, /<link|src=|@import|url\(/i);
    assert.equal(html.match(/<script/g)?.length, 1);
    assert.doesNotMatch(html, /https?:/);
    assert.doesNotMatch(html, /[\u{1F000}-\u{1FAFF}\u{2600}-\u{27BF}\u{2B00}-\u{2BFF}\u{FE0F}]/u, 'status marks are SVG, not emoji');
    assert.match(html, /<tr class="failed" id="H2" data-side="provider" data-level="MUST" data-status="failed">/);
    assert.match(html, /<tr class="unwitnessed" id="Q1" /);
    assert.match(html, /<tr class="witnessed" id="H1" /);
    assert.match(html, /<a href="#spec-3" title="SPEC.md §3">H1<\/a>/, 'ids link to their SPEC.md section');
    assert.match(html, /<section id="spec-3"><pre>## 3\. Handshake/, 'which is embedded in the page');
    assert.match(html, /tr\.failed,tr\.unwitnessed\{background/);
    for (const a of catalogue.anchors) assert.ok(html.includes(`id="${a.id}"`), a.id);
  });
});

describe('cgp-conformance report', () => {
  test('writes the four files and exits 1 listing MUST failures and unwitnessed anchors', () => {
    const out = join(dir, 'out');
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'report', '--messages', plain, '--out', out, '--target', 'fixture'], { encoding: 'utf8' });
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /^MUST FAILED \(3\):/m);
    assert.match(r.stdout, /^ {2}H2 {2}test\/fixtures\/report\/coverage\/cases\.feature:10/m);
    assert.match(r.stdout, /APPLICABLE ANCHORS WITHOUT A PASSING WITNESS/);
    assert.match(r.stdout, /^ {2}Q1 {2}unwitnessed — no scenario carries this id/m);
    assert.match(r.stdout, /^NOT CONFORMANT$/m);
    const json = JSON.parse(readFileSync(join(out, 'coverage.json'), 'utf8')) as CoverageReport;
    assert.equal(json.anchors.length, 61);
    assert.equal(json.target, 'fixture');
    assert.equal(entry(json, 'C1').reason, 'target is a provider', 'side inferred from @provider');
    assert.ok(readFileSync(join(out, 'coverage.md'), 'utf8').startsWith('# CGP coverage — fixture'));
    assert.ok(readFileSync(join(out, 'coverage.html'), 'utf8').startsWith('<!DOCTYPE html>'));
    assert.ok(readFileSync(join(out, 'badge.svg'), 'utf8').includes('not conformant'));
  });

  test('usage errors exit 2: no --messages, an unreadable message file', () => {
    const none = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'report'], { encoding: 'utf8' });
    assert.equal(none.status, 2);
    assert.match(none.stderr, /--messages/);
    const missing = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'report', '--messages', join(dir, 'nope.ndjson'), '--out', join(dir, 'o2')], { encoding: 'utf8' });
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /nope\.ndjson: cannot read/);
  });
});
