// The in-process target (§6.4.1): the bundled provider loaded into the suite's process advertises and
// serves `reference` frames, which witnesses P3 and S6.4.1-in-process-reference; the transport-only
// SHOULD NOT does not apply; a provider whose reference frames break P3 is caught in-process too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSuite } from '../../../src/conformance/run/run-suite.js';

const reportsDir = mkdtempSync(join(tmpdir(), 'cgp-in-process-'));
const TAGS = '@P3 or @S6.4.1-in-process-reference or @S6.4.1-no-reference-over-transport';

test('in-process bundled provider: P3 and S6.4.1-in-process-reference witnessed, the transport rule not applicable', async () => {
  const r = await runSuite({ side: 'provider', target: { kind: 'in-process' }, tags: TAGS, reportName: 'in-process', reportsDir, progress: null });
  assert.equal(r.success, true);
  const status = Object.fromEntries(r.summary.ids.map((i) => [i.id, i.status]));
  assert.equal(status.P3, 'witnessed');
  assert.equal(status['S6.4.1-in-process-reference'], 'witnessed');
  assert.equal(status['S6.4.1-no-reference-over-transport'], 'not-applicable');
});

test('in-process: the lying-representation mode fails P3', async () => {
  const r = await runSuite({ side: 'provider', target: { kind: 'in-process' }, misbehave: 'lying-representation', tags: '@P3', reportName: 'in-process-bad', reportsDir, progress: null });
  assert.equal(r.success, false);
  assert.equal(r.summary.ids.find((i) => i.id === 'P3')?.status, 'failed');
});
