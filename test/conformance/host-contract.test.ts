// The host contract (docs/host-control-protocol.md) against hosts that are not the bundled one:
//  - false verdicts: each honest alternative (src/conformance/host/variants/honest.ts) — another prompt
//    format, a time-out for a mis-correlated reply, structured errors with extra members, no attribution —
//    passes every scenario it is run on, or is not applicable with the capability named;
//  - every op result of the bundled host is valid under the published schemas (schema/host-control).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runSuite } from '../../src/conformance/run-suite.js';

const HONEST = fileURLToPath(new URL('./fixtures/honest-host.ts', import.meta.url));
const reportsDir = mkdtempSync(join(tmpdir(), 'cgp-host-contract-'));
after(() => rmSync(reportsDir, { recursive: true, force: true }));

async function runHonest(mode: string, tags: string) {
  process.env.CGP_HONEST_ALTERNATIVE = mode;
  try {
    return await runSuite({ side: 'host', hostModule: HONEST, tags, reportName: mode, reportsDir, progress: null });
  } finally {
    delete process.env.CGP_HONEST_ALTERNATIVE;
  }
}

function verdicts(r: Awaited<ReturnType<typeof runSuite>>): string[] {
  return r.summary.scenarios.map((s) => `${s.status} ${s.ids.join(',')} ${s.name}${s.status === 'failed' ? `\n    ${(s.harness_error ?? s.message ?? '').split('\n')[0]}` : ''}`);
}

function assertNoFalseVerdict(r: Awaited<ReturnType<typeof runSuite>>, expectNotApplicable: readonly string[] = []): void {
  const wrong = r.summary.scenarios.filter((s) => s.status === 'failed' || (s.status === 'not-applicable' && !s.ids.some((id) => expectNotApplicable.includes(id))));
  assert.deepEqual(wrong.map((s) => `${s.status} ${s.ids.join(',')} ${s.name}: ${(s.harness_error ?? s.message ?? s.not_applicable ?? '').split('\n')[0]}`), [], verdicts(r).join('\n'));
  assert.ok(r.summary.scenarios.length > 0, 'no scenario ran');
}

describe('honest alternatives to the bundled host get no false verdict', () => {
  it('own-format: another delimiting, attribute order and provider naming; chrome not counted (D2, F10, B2, R3, S7.2, S6.4.1, S11)', async () => {
    const r = await runHonest('own-format', '@D2 or @F10 or @B2 or @R3 or @S7.2-budget-token or @S6.4.1-unrehydratable-empty or @S11-compose-reference');
    assertNoFalseVerdict(r);
    assert.ok(r.summary.scenarios.filter((s) => s.status === 'passed').length >= 9);
  });

  it('timeout-on-miscorrelation: a mis-correlated reply timed out, never delivered, satisfies H4', async () => {
    assertNoFalseVerdict(await runHonest('timeout-on-miscorrelation', '@H4'));
  });

  it('structured-errors: error objects with extra members are read field by field (C6, U1, U3, X1, X2, H3, C5)', async () => {
    assertNoFalseVerdict(await runHonest('structured-errors', '@C1 or @C2 or @C6 or @U1 or @U3 or @X1 or @X2 or @S10-not-retryable or @H3 or @C5'));
  });

  it('no-attribution: UR1 is judged without attribution; A1–A3 are not applicable, naming the capability', async () => {
    const r = await runHonest('no-attribution', '@UR1 or @A1 or @A2 or @A3');
    assertNoFalseVerdict(r, ['A1', 'A2', 'A3']);
    const ur1 = r.summary.scenarios.find((s) => s.ids.includes('UR1'));
    assert.equal(ur1?.status, 'passed');
    for (const s of r.summary.scenarios.filter((x) => !x.ids.includes('UR1'))) {
      assert.equal(s.status, 'not-applicable', s.name);
      assert.match(s.not_applicable ?? '', /attribution/);
    }
  });
});
