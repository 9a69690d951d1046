// Time-saving must never cost a verdict. A slow but honest provider — 1.5 s to start, and in the
// second run every line it writes held 300 ms (longer than the fixed 250 ms silence window the suite once
// used) — gets exactly the verdicts the bundled provider gets: nothing failed, the same scenarios passed.
// The fixture loads the compiled provider (dist/bundle, built by `npm run build` / npm ci's prepare).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runSuite, type RunSuiteResult } from '../../../src/conformance/run/run-suite.js';
import { findPackageRoot } from '../../../src/util/package-root.js';

const ROOT = findPackageRoot();
const REPORTS = mkdtempSync(join(tmpdir(), 'cgp-slow-provider-'));
const SLOW = join(ROOT, 'fixtures', 'slow-start-provider.mjs');
const COMPILED = join(ROOT, 'dist', 'bundle', 'provider.cjs');
/** The scenarios whose silence the suite proves (malformed input, early query, unknown request, framing, notification). */
const SILENCE = '@R1 or @S3-handshake-first or @S2.1-unknown-type or @S2.1-no-newline or @S3.2-notification';

function statuses(r: RunSuiteResult): string[] {
  return r.summary.scenarios.map((s) => `${s.name}: ${s.status}`).sort();
}

async function slow(startMs: number, replyMs: number, tags?: string): Promise<RunSuiteResult> {
  const previous = process.env.SLOW_REPLY_MS;
  process.env.SLOW_REPLY_MS = String(replyMs);
  try {
    return await runSuite({
      side: 'provider',
      reportName: `slow-${startMs}-${replyMs}`,
      reportsDir: REPORTS,
      progress: null,
      target: { kind: 'stdio', command: process.execPath, args: [SLOW, String(startMs)], cwd: ROOT },
      ...(tags !== undefined ? { tags } : {}),
    });
  } finally {
    if (previous === undefined) delete process.env.SLOW_REPLY_MS;
    else process.env.SLOW_REPLY_MS = previous;
  }
}

async function fast(tags?: string): Promise<RunSuiteResult> {
  return runSuite({
    side: 'provider',
    reportName: `fast-${tags === undefined ? 'all' : 'silence'}`,
    reportsDir: REPORTS,
    progress: null,
    target: { kind: 'stdio', command: process.execPath, args: [COMPILED], cwd: ROOT },
    ...(tags !== undefined ? { tags } : {}),
  });
}

describe('a slow but honest provider is not failed', { skip: existsSync(COMPILED) ? false : `${COMPILED} is missing: run npm run build` }, () => {
  it('1.5 s to start: the whole suite gives the same verdicts as the same provider started at once', { timeout: 180_000 }, async () => {
    const [reference, slowed] = [await fast(), await slow(1_500, 0)];
    assert.equal(slowed.ran, true);
    assert.equal(
      slowed.summary.totals.failed,
      0,
      statuses(slowed)
        .filter((s) => !s.endsWith('passed') && !s.endsWith('not-applicable'))
        .join('\n'),
    );
    assert.equal(slowed.summary.harness_errors, 0);
    assert.equal(slowed.success, true);
    assert.deepEqual(statuses(slowed), statuses(reference));
  });

  it('every line held 300 ms: the silence scenarios give the same verdicts, with the same warnings', { timeout: 180_000 }, async () => {
    const [reference, slowed] = [await fast(SILENCE), await slow(200, 300, SILENCE)];
    assert.ok(slowed.summary.scenarios.length >= 5, `${slowed.summary.scenarios.length} scenarios`);
    assert.equal(slowed.success, true);
    assert.deepEqual(statuses(slowed), statuses(reference));
    const warnings = (r: RunSuiteResult) => r.summary.ids.map((i) => `${i.id}: ${i.status}`).sort();
    assert.deepEqual(warnings(slowed), warnings(reference));
  });
});
