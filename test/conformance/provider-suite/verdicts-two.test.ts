// False verdicts seen on providers written elsewhere (the public SDK examples over HTTP, a compact-first
// provider, a provider launched through a package manager on a busy runner), each reproduced with a scripted
// peer (test/fixtures/provider/scripted-provider.ts: the bundled provider plus one quirk) before it was fixed.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildCoverage } from '../../../src/conformance/report/build.js';
import { detailsFromMessages } from '../../../src/conformance/report/page-details.js';
import { renderHtml } from '../../../src/conformance/report/render-html.js';
import { runSuite, type RunSuiteOptions, type RunSuiteResult } from '../../../src/conformance/run/run-suite.js';
import type { SuiteSummary } from '../../../src/conformance/provider-suite/summary.js';
import { findPackageRoot } from '../../../src/util/package-root.js';
import { FAST_TIMEOUTS, SCRIPTED_PROVIDER, scriptedRunner, startScriptedHttp } from '../../fixtures/provider/scripted-runs.js';

const ROOT = findPackageRoot();

const run = scriptedRunner('w');

function idStatus(s: SuiteSummary, id: string): string | undefined {
  return s.ids.find((i) => i.id === id)?.status;
}

function findingsFor(s: SuiteSummary, id: string) {
  return s.scenarios.flatMap((sc) => sc.findings.filter((f) => f.id === id));
}

describe('false verdicts, round two, each with a scripted peer', () => {
  it('HTTP: an empty 204 reply is no reply — never a malformed line (no S2-wire-shape, no S2.1-no-newline)', { timeout: 120_000 }, async () => {
    const url = await startScriptedHttp('http-204');
    const result = await run('http-204', '@S3.2-notification or @S2.1-unknown-type or @S2-wire-shape or @S2.1-no-newline or @H4 or @U1', { target: { kind: 'http', url } });
    assert.equal(result.summary.harness_errors, 0);
    for (const id of ['S2-wire-shape', 'S2.1-no-newline']) {
      assert.deepEqual(
        findingsFor(result.summary, id).map((f) => f.message),
        [],
        `${id}: no finding`,
      );
      assert.notEqual(idStatus(result.summary, id), 'failed', id);
    }
    // silence to a notification is the right answer
    assert.equal(idStatus(result.summary, 'S3.2-notification'), 'witnessed');
    // silence to a payload-bearing request of unknown type is a real S2.1-unknown-type violation, named as such
    assert.equal(idStatus(result.summary, 'S2.1-unknown-type'), 'failed');
    assert.ok(
      findingsFor(result.summary, 'S2.1-unknown-type').some((f) => /204/.test(f.message)),
      JSON.stringify(findingsFor(result.summary, 'S2.1-unknown-type')),
    );
  });

  it('compact by default: a provider advertising compact may serve it when the query states no preference (no P5, no V4 warning)', { timeout: 180_000 }, async () => {
    const result = await run('compact-default', '@P5 or @V4 or @V3 or @P2 or @P4');
    assert.equal(result.summary.harness_errors, 0);
    for (const id of ['P5', 'V4']) {
      assert.deepEqual(
        findingsFor(result.summary, id).map((f) => f.message),
        [],
        `${id}: no finding`,
      );
      assert.equal(idStatus(result.summary, id), 'witnessed', id);
    }
    assert.equal(result.success, true);
  });
});

describe('statuses consistent with findings, for every id of the report', () => {
  it('every id with an error finding is failed, and every id with a warning is warning or failed — in the JSON summary, coverage.json and the coverage page', { timeout: 120_000 }, async () => {
    const result = await run('answer-notification', '@S3.2-notification or @S2.1-unknown-type or @H4');
    const report = buildCoverage({ messages: [result.messagesPath], target: 'answer-notification', side: 'provider' });
    const page = renderHtml(report, undefined, detailsFromMessages([result.messagesPath]));
    const rows = new Map([...page.matchAll(/<tr class="([a-z-]+)" id="([^"]+)"/g)].map((m) => [m[2]!, m[1]!]));
    const findings = result.summary.scenarios.flatMap((s) => s.findings);
    // the quirk this run is about: a warning for an id whose own scenario failed on another id
    assert.ok(
      findings.some((f) => f.id === 'S3.2-notification' && f.severity === 'warning'),
      'the peer draws the S3.2-notification warning',
    );
    assert.ok(findings.some((f) => f.id === 'S2.1-unknown-type' && f.severity === 'error'));
    const entries = [...report.anchors, ...report.rules];
    assert.ok(entries.length > 61);
    const wrong: string[] = [];
    for (const e of entries) {
      const mine = findings.filter((f) => f.id === e.id);
      const expect = mine.some((f) => f.severity === 'error') ? ['failed'] : mine.length > 0 ? ['warning', 'failed'] : undefined;
      if (expect === undefined) continue;
      const summaryStatus = result.summary.ids.find((i) => i.id === e.id)?.status;
      if (!expect.includes(summaryStatus ?? '')) wrong.push(`${e.id}: JSON summary says ${summaryStatus}, findings say ${expect.join('/')}`);
      if (!expect.includes(e.status)) wrong.push(`${e.id}: coverage.json says ${e.status}, findings say ${expect.join('/')}`);
      if (!expect.includes(rows.get(e.id) ?? '')) wrong.push(`${e.id}: the coverage page says ${rows.get(e.id)}, findings say ${expect.join('/')}`);
    }
    assert.deepEqual(wrong, []);
    // and the converse: no id is failed or warning without a finding or a failure naming it
    for (const i of result.summary.ids) {
      if (i.status === 'warning')
        assert.ok(
          findings.some((f) => f.id === i.id),
          `${i.id} is warning with no finding`,
        );
    }
  });
});

describe('a fresh connection that never answered while the target answers on another: retried once, started alone', () => {
  const SHORT = { handshakeMs: 5_000, requestMs: 5_000, shutdownGraceMs: 1_000 };
  const TAGS = '@H3 or @R2 or @S3-handshake-first or @S2.1-unknown-type or @U1';

  it('one start-up stuck past the handshake timeout is not a failure; the report says it was retried', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cgp-starts-'));
    const result = await run('second-start-stuck', TAGS, {
      timeouts: SHORT,
      target: { kind: 'stdio', command: process.execPath, args: ['--import', 'tsx', SCRIPTED_PROVIDER, 'second-start-stuck', dir], cwd: ROOT },
    });
    const failed = result.summary.scenarios.filter((s) => s.status === 'failed').map((s) => `${s.uri}:${s.line} ${s.message ?? ''}`);
    assert.deepEqual(failed, []);
    const notes = result.summary.scenarios.flatMap((s) => s.notes ?? []).filter((n) => /retried once, started alone/.test(n));
    assert.equal(notes.length, 1, JSON.stringify(result.summary.scenarios.map((s) => s.notes)));
    assert.match(notes[0]!, /got no byte within 5000 ms .* answered \d+ ms after they were sent \(start-up, apart: \d+ ms\)/);
    assert.equal(result.success, true);
  });

  it('a target that answers only its first connection still fails on the others, and the failure says it was retried', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cgp-starts-'));
    const result = await run('first-only', '@H3 or @R2', {
      timeouts: SHORT,
      target: { kind: 'stdio', command: process.execPath, args: ['--import', 'tsx', SCRIPTED_PROVIDER, 'first-only', dir], cwd: ROOT },
    });
    const failed = result.summary.scenarios.filter((s) => s.status === 'failed');
    // every scenario (the H3 ones and R2) runs on a fresh connection, and none gets an answer: the H3 scenarios
    // judge the handshake, so theirs is a finding; R2's scenario needed an acknowledged connection to judge
    // shutdown, so it is inconclusive (a failed precondition is never a violation, docs/interpretations.md §87)
    const seen = JSON.stringify(result.summary.scenarios.map((s) => [s.name, s.status]));
    assert.ok(failed.length >= 2, seen);
    for (const s of failed) assert.ok(s.ids.includes('H3'), seen);
    for (const s of failed) assert.match(s.message ?? '', /retried once on a connection started alone/, s.message);
    const r2 = result.summary.scenarios.filter((s) => s.ids.includes('R2'));
    assert.ok(r2.length >= 1, seen);
    for (const s of r2) {
      assert.equal(s.status, 'inconclusive', seen);
      assert.match(s.harness_error ?? '', /^could not observe R2\b.*retried once/, s.harness_error);
    }
    assert.equal(failed.length + r2.length, result.summary.scenarios.length, seen);
    assert.equal(result.success, false);
  });
});
