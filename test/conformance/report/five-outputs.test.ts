// Every output tells the same story (src/conformance/report/outcome.ts): the summary line, the JUnit file, the
// JSON report's findings[], the bug reports and the HTML page, through the real CLI, for
//  1. a defect seen only in replies to other probes: the bundled provider with bad-timestamp, run on @B4 only —
//     every B4 scenario passes, yet every frames reply breaks F4: F4 is failed in all five outputs, under its
//     own id, naming the scenario that observed it, and the run exits 1;
//  2. unverified scenarios: a host declaring no capability, run on C8's HTTP scenarios — a test hook it lacks,
//     so each is unverified (never failed, never passed) in all five outputs, and the run exits 4;
//  3. a warned id (a SHOULD not met): S6.3-content-digest, in all five outputs, and the run exits 0.
// The page is checked as text (its browser test lives in coverage-page.browser.test.ts).
import assert from 'node:assert/strict';
import { cliEnv, runProcess, type Ran } from '../../helpers/run-process.js';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { bundledProviderCommand } from '../../../src/conformance/provider-suite/config.js';
import { findPackageRoot } from '../../../src/util/package-root.js';

const ROOT = findPackageRoot();
const BIN = join(ROOT, 'src', 'cli', 'bin.ts');
const DIR = mkdtempSync(join(tmpdir(), 'cgp-five-outputs-'));
after(() => rmSync(DIR, { recursive: true, force: true }));
const bundled = bundledProviderCommand(ROOT);
const HONEST_HOST = join(ROOT, 'test', 'fixtures', 'host', 'honest-host.ts');

const schema = JSON.parse(readFileSync(join(ROOT, 'schema', 'report', 'cgp-conformance-report.schema.json'), 'utf8')) as object;
const validate = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);

function cli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return runProcess([process.execPath, '--import', 'tsx', BIN, ...args], {
    cwd: ROOT,
    env: cliEnv(env),
    timeoutMs: 120_000,
  });
}

interface Outputs {
  text: Ran;
  json: Ran;
  doc: {
    exit_code: number;
    totals: Record<string, number>;
    ids: Array<{ id: string; status: string }>;
    findings: Array<{ id: string; severity: string; seen_in: string; message: string; scenario: { uri: string; line: number; ids: string[] }; evidence: unknown[] }>;
    scenarios: Array<{ status: string; harness_error?: string; ids: string[] }>;
  };
  junit: string;
  html: string;
  bugs: string[];
  bugDir: string;
}

/** One run in text mode and one with --json, each writing the JUnit file, the bug reports and the page. */
async function outputs(name: string, args: readonly string[], target: readonly string[], env: Record<string, string> = {}): Promise<Outputs> {
  const files = (mode: string) => {
    const d = join(DIR, `${name}-${mode}`);
    return ['--out', d, '--junit', join(d, 'junit.xml'), '--bug-report', join(d, 'bugs'), '--html', join(d, 'page.html')];
  };
  const [text, json] = await Promise.all([cli([...args, ...files('text'), ...target], env), cli([...args, '--json', ...files('json'), ...target], env)]);
  const d = join(DIR, `${name}-text`);
  const bugDir = join(d, 'bugs');
  const doc = JSON.parse(json.stdout) as Outputs['doc'];
  assert.ok(validate(doc), `the JSON report is valid against its schema: ${JSON.stringify(validate.errors, null, 1)}`);
  return {
    text,
    json,
    doc,
    junit: readFileSync(join(d, 'junit.xml'), 'utf8'),
    html: readFileSync(join(d, 'page.html'), 'utf8'),
    bugs: existsSync(bugDir) ? readdirSync(bugDir).sort() : [],
    bugDir,
  };
}

/** The summary line: the text report's line "N scenarios: …". */
function summaryLine(text: string): string {
  const line = text.split('\n').find((l) => /^\d+ scenarios: /.test(l));
  assert.ok(line, text);
  return line;
}

/** `<testsuites … failures="N" errors="M">` as numbers. */
function junitCounts(xml: string): { tests: number; failures: number; errors: number } {
  const m = /<testsuites [^>]*tests="(\d+)" failures="(\d+)" errors="(\d+)"/.exec(xml);
  assert.ok(m, xml.slice(0, 400));
  return { tests: Number(m[1]), failures: Number(m[2]), errors: Number(m[3]) };
}

describe('every output tells the same story', () => {
  it('a defect seen only in replies to other probes: F4 failed in the summary line, JUnit, findings[], the bug report and the page', { timeout: 150_000 }, async () => {
    const o = await outputs('other-probe', ['stdio', '--tags', '@B4'], ['--', bundled.command, ...bundled.args, '--misbehave', 'bad-timestamp']);
    // the exit code: a definite MUST failure
    assert.equal(o.text.code, 1, o.text.stderr);
    assert.equal(o.json.code, 1, o.json.stderr);

    // 1. the summary line: every scenario passed its own id, and F4 is failed — seen only in replies to other probes
    const line = summaryLine(o.text.stdout);
    assert.match(line, /^(\d+) scenarios: \1 passed, 0 failed, 0 not applicable, 0 inconclusive, 0 unverified, 0 other; failed ids: F4 \(only in replies to other probes\); warned ids: none$/);
    const n = Number(/^(\d+)/.exec(line)![1]);
    assert.ok(n >= 3, line);
    assert.match(o.text.stdout, /failed in replies to other probes \(each a finding under its own id\):\n {2}F4 violated/);

    // 2. JUnit: a testcase of its own for F4, with a <failure>; the B4 scenarios pass
    const counts = junitCounts(o.junit);
    assert.deepEqual(counts, { tests: n + 1, failures: 1, errors: 0 }, "every B4 scenario, and F4's own testcase");
    assert.match(
      o.junit,
      /<testcase [^>]*name="F4 \[seen in replies to other probes\]"[^>]*>\s*<failure message="F4 violated[^"]*" type="ConformanceFailure">[^<]*seen by scenario: features\/provider\/budget\.feature:\d+/,
    );
    assert.equal((o.junit.match(/<failure /g) ?? []).length, 1);
    assert.match(o.junit, /<failure [^>]*>F4 failed in replies[^<]*wire evidence[^<]*&lt;&lt; shared [^<]*last tuesday/, 'the evidence of the F4 finding');

    // 3. JSON: ids[] and findings[] agree — F4 failed, each finding under F4 naming the scenario that saw it, with its evidence
    assert.equal(o.doc.exit_code, 1);
    assert.equal(o.doc.ids.find((i) => i.id === 'F4')?.status, 'failed');
    assert.equal(o.doc.ids.find((i) => i.id === 'B4')?.status, 'witnessed');
    assert.equal(o.doc.totals.failed, 0);
    assert.equal(o.doc.totals.passed, n);
    const f4 = o.doc.findings.filter((f) => f.id === 'F4');
    assert.ok(f4.length > 0);
    assert.deepEqual([...new Set(o.doc.findings.map((f) => f.id))], ['F4'], 'no other id is reported');
    for (const f of f4) {
      assert.equal(f.severity, 'error');
      assert.equal(f.seen_in, 'other-probe');
      assert.deepEqual(f.scenario.ids, ['B4']);
      assert.match(f.message, /^F4 violated/);
      assert.ok(f.evidence.length > 0, 'the reply that shows it');
    }

    // 4. the bug report: one, for F4, naming the scenario that saw it and reproducing with that scenario's id
    assert.deepEqual(o.bugs, ['F4.md']);
    const bug = readFileSync(join(o.bugDir, 'F4.md'), 'utf8');
    assert.match(bug, /^# `F4` violated/);
    assert.match(bug, /\*\*Seen by:\*\* `features\/provider\/budget\.feature:\d+` — .*, in a reply to its probe of B4/);
    assert.match(bug, /npx cgp-conformance stdio --tags @B4 -- /);
    assert.match(o.text.stderr, /bug reports: .*F4\.md/);

    // 5. the page: a failure card for F4 (seen in replies to other probes), and F4's row failed
    assert.match(o.html, /<div class="finding" data-outcome="other-probe"[^>]*>\s*<h3>.*F4<\/a>&nbsp;FAILED \(seen in replies to other probes\)<\/h3>/);
    assert.match(o.html, /<tr class="failed" id="F4"/);
    assert.doesNotMatch(o.html, /No scenario failed/);
    assert.match(o.html, /NOT CONFORMANT/);
  });

  it('unverified scenarios: their own status in the summary line, JUnit, JSON, the bug reports and the page — never failed', { timeout: 150_000 }, async () => {
    const o = await outputs('unverified', ['host', '--tags', '@C8 and @needs-http', '--adapter', HONEST_HOST], [], { CGP_HONEST_ALTERNATIVE: 'declares-no-options' });
    // the run is inconclusive: nothing failed, nothing passed
    assert.equal(o.text.code, 4, o.text.stderr);
    assert.equal(o.json.code, 4, o.json.stderr);

    // 1. the summary line
    const line = summaryLine(o.text.stdout);
    assert.match(
      line,
      /^(\d+) scenarios: 0 passed, 0 failed, 0 not applicable, 0 inconclusive, \1 unverified \(needs http: \1\), 0 other; failed ids: none; warned ids: none — the run is inconclusive$/,
    );
    const n = Number(/^(\d+)/.exec(line)![1]);
    assert.ok(n >= 4, line);

    // 2. JUnit: an <error type="Unverified"> each, no <failure>
    assert.deepEqual(junitCounts(o.junit), { tests: n, failures: 0, errors: n });
    assert.equal((o.junit.match(/<error [^>]*type="Unverified"/g) ?? []).length, n);
    assert.doesNotMatch(o.junit, /<failure /);
    assert.match(o.junit, /<error message="unverified: needs http — /);

    // 3. JSON: status unverified, counted apart, never failed; no finding
    assert.equal(o.doc.exit_code, 4);
    assert.equal(o.doc.totals.unverified, n);
    assert.equal(o.doc.totals.failed, 0);
    assert.equal(o.doc.totals.inconclusive, 0);
    assert.deepEqual(o.doc.findings, []);
    for (const s of o.doc.scenarios) {
      assert.equal(s.status, 'unverified');
      assert.match(s.harness_error ?? '', /^unverified: needs http — .*C8 binds every host/);
    }
    assert.equal(o.doc.ids.find((i) => i.id === 'C8')?.status, 'unwitnessed');

    // 4. the bug reports: none, and the run says so
    assert.deepEqual(o.bugs, []);
    assert.match(o.text.stderr, /bug reports: none \(no failed or warned id\)/);

    // 5. the page: unverified cards, no failure card, witnesses marked unverified
    assert.equal((o.html.match(/data-outcome="unverified"/g) ?? []).length, n);
    assert.doesNotMatch(o.html, /data-outcome="(?:failed|other-probe)"/);
    assert.match(o.html, /<h2 id="unverified">Unverified/);
    assert.match(o.html, /\(unverified\)/);
    assert.doesNotMatch(o.html, /\(failed\)/);
  });

  it('a warned id: S6.3-content-digest in the summary line, JUnit, findings[], a bug report and the page; the run exits 0', { timeout: 150_000 }, async () => {
    const o = await outputs('warned', ['stdio', '--tags', '@S6.3-content-digest'], ['--', bundled.command, ...bundled.args, '--misbehave', 'content-digest-mismatch']);
    assert.equal(o.text.code, 0, o.text.stderr);
    assert.equal(o.json.code, 0, o.json.stderr);
    assert.match(summaryLine(o.text.stdout), /; failed ids: none; warned ids: S6\.3-content-digest$/);
    assert.deepEqual(junitCounts(o.junit), { tests: o.doc.scenarios.length, failures: 0, errors: 0 });
    assert.match(o.junit, /<system-out>warning: S6\.3-content-digest warning: /);
    assert.match(
      o.junit,
      /the lines that show them \(&gt;&gt; sent to the target, &lt;&lt; received from it\):\n&gt;&gt; shared [^\n]*&quot;type&quot;:&quot;query&quot;[^\n]*\n&lt;&lt; shared [^\n]*&quot;type&quot;:&quot;frames&quot;/,
      "the warning's evidence",
    );
    assert.equal(o.doc.ids.find((i) => i.id === 'S6.3-content-digest')?.status, 'warning');
    assert.ok(o.doc.findings.length > 0);
    for (const f of o.doc.findings) {
      assert.equal(f.id, 'S6.3-content-digest');
      assert.equal(f.severity, 'warning');
      assert.equal(f.seen_in, 'own-probe');
      assert.ok(f.evidence.length > 0);
    }
    assert.deepEqual(o.bugs, ['S6.3-content-digest.md']);
    assert.match(readFileSync(join(o.bugDir, 'S6.3-content-digest.md'), 'utf8'), /^# `S6\.3-content-digest` not met \(SHOULD\): frame "/);
    assert.match(o.html, /data-outcome="warning"/);
    assert.match(o.html, /<tr class="warning" id="S6\.3-content-digest"/);
  });
});
