// The host contract (docs/host-control-protocol.md) against hosts that are not the bundled one:
//  - false verdicts: each honest alternative (src/conformance/host-suite/variants/honest.ts) — another prompt
//    format, a time-out for a mis-correlated reply, structured errors with extra members, no attribution —
//    passes every scenario it is run on, or is not applicable with the capability named;
//  - every op result of the bundled host is valid under the published schemas (schema/host-control).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runSuite } from '../../../../src/conformance/run/run-suite.js';

const HONEST = fileURLToPath(new URL('../../../fixtures/host/honest-host.ts', import.meta.url));
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
  assert.deepEqual(
    wrong.map((s) => `${s.status} ${s.ids.join(',')} ${s.name}: ${(s.harness_error ?? s.message ?? s.not_applicable ?? '').split('\n')[0]}`),
    [],
    verdicts(r).join('\n'),
  );
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

describe('capabilities decide applicability, never a pass', () => {
  it('a host declaring no optional capability: conditional scenarios not applicable naming the capability; never-waived MUSTs and test hooks unverified', async () => {
    const r = await runHonest('declares-no-options', '@needs-revoke or @needs-attribution or @needs-score-thresholds or @needs-attestation-checks or @needs-http or @needs-embedding');
    const bad = r.summary.scenarios.filter((s) => s.status === 'passed' || (s.status === 'failed' && !/unverified: needs /.test(s.harness_error ?? '')));
    assert.deepEqual(
      bad.map((s) => `${s.status} ${s.name}`),
      [],
      verdicts(r).join('\n'),
    );
    for (const s of r.summary.scenarios.filter((x) => x.status === 'not-applicable')) assert.match(s.not_applicable ?? '', /lacks the capability [a-z-]+/, s.name);
    // C8 binds every host: without http its scenarios are unverified, never not applicable
    const c8 = r.summary.scenarios.filter((s) => s.ids.includes('C8'));
    assert.ok(c8.length >= 4);
    for (const s of c8) assert.match(s.harness_error ?? '', /unverified: needs http .*C8 binds every host/, s.name);
    const na = new Set(r.summary.scenarios.filter((s) => s.status === 'not-applicable').flatMap((s) => s.ids));
    for (const id of ['A1', 'A2', 'A3', 'F8', 'F13', 'C4', 'C7', 'S6.6-single-provider-threshold']) assert.ok(na.has(id), id);
    // E1 binds what reaches the providers, whatever the host declares: judged, never not applicable
    assert.ok(!na.has('E1'));
  });
});

describe('every op result of the bundled host is valid under the published schemas (schema/host-control)', () => {
  it('in process and over the control protocol', async () => {
    const { createBundledHost } = await import('../../../../src/conformance/host-suite/adapter.js');
    const { controlledHostFactory, disposeWarmHosts } = await import('../../../../src/conformance/host-suite/control/control-client.js');
    const { contractIssues } = await import('../../../../src/conformance/host-suite/control/contract.js');
    const { toWire } = await import('../../../../src/conformance/host-suite/control/control-protocol.js');
    const { SCRIPTED_PROVIDER } = await import('../../../../src/conformance/host-suite/scripted/scripted-relay.js');
    const dir = mkdtempSync(join(tmpdir(), 'cgp-host-schema-'));
    const options = { ledgerPath: join(dir, 'ledger.jsonl'), handshakeTimeoutMs: 10_000, requestTimeoutMs: 10_000 };
    const script = {
      name: 'docs',
      verify: true,
      correlation: true,
      egress: true,
      scopes: ['cloud'],
      serve: [
        { id: 'frm_alpha', citation_label: 'alpha.md', content: 'Retries back off exponentially, starting at 100 ms.' },
        { id: 'frm_beta', content: 'The retry budget allows five attempts before the call fails.' },
      ],
    };
    const query = { goal: 'how does the retry policy back off', max_frames: 8, max_tokens: 2000 };
    const drive = async (host: import('../../../../src/host/under-test.js').HostUnderTest, label: string) => {
      const results: Array<[string, unknown]> = [];
      const d = await host.connectStdio(process.execPath, [SCRIPTED_PROVIDER, JSON.stringify({ ...script, record: join(dir, `${label}.ndjson`) })], {});
      results.push(['connectStdio', d]);
      const refused = await host.queryAll(query); // no consent yet: a refusal inside the result
      results.push(['queryAll', refused]);
      assert.equal(refused.failures.length, 1, `${label}: the consent gate refuses first`);
      results.push(['grantConsent', await host.grantConsent(d.routingId, { grantor: 'test' })]);
      const fanOut = await host.queryAll(query);
      results.push(['queryAll', fanOut]);
      results.push([
        'verify',
        await host.verify(
          d.routingId,
          fanOut.answers.flatMap((a) => a.frames),
        ),
      ]);
      const composed = await host.compose(fanOut.answers, { budgetTokens: 4000 });
      results.push(['compose', composed]);
      results.push(['compose', await host.compose(fanOut.answers, { modelBudgetTokens: 40 })]);
      const usage = await host.usage(query, fanOut);
      results.push(['usage', usage]);
      results.push(['attribute', await host.attribute(composed, usage, 'see [alpha.md]')]);
      results.push(['revokeConsent', await host.revokeConsent(d.routingId, { grantor: 'test' })]);
      results.push(['logText', await host.logText()]);
      results.push(['close', await host.close()]);
      for (const [op, value] of results) assert.deepEqual(contractIssues(op, 'result', toWire(value ?? null)), [], `${label} ${op}`);
      assert.ok((composed.blocks ?? []).length === 2, `${label}: one block per rendered frame`);
    };
    try {
      await drive(createBundledHost(options), 'in-process');
      const factory = controlledHostFactory(`${process.execPath} --import tsx src/conformance/host-suite/control/control-server.ts`);
      await drive(await factory({ ...options, ledgerPath: join(dir, 'ledger2.jsonl') }), 'controlled');
    } finally {
      await disposeWarmHosts();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a result that breaks the published contract', () => {
  it('is a contract error naming op, field and schema path: inconclusive, never an anchor failure', async () => {
    const r = await runHonest('breaks-contract', '@D2');
    assert.ok(r.summary.scenarios.length >= 2);
    for (const s of r.summary.scenarios) {
      assert.equal(s.status, 'inconclusive', s.name);
      assert.equal(s.findings.length, 0, 'no finding against D2');
      assert.match(
        s.harness_error ?? '',
        /contract error: the compose result breaks schema\/host-control\/compose\.schema\.json — \/blocks is required \(schema compose\.schema\.json#\/\$defs\/result\/required\)/,
      );
    }
    assert.equal(r.summary.ids.find((i) => i.id === 'D2')?.status, 'unwitnessed');
  });
});

describe('errors are printed field by field', () => {
  it('a plain error object with extra members, and a wire error, never print as [object Object]', async () => {
    const { describeHostError } = await import('../../../../src/conformance/host-suite/checks/text.js');
    const { ControlledHostError } = await import('../../../../src/conformance/host-suite/control/control-protocol.js');
    const plain = describeHostError({ code: 'consent_required', message: 'no receipt', anchor: 'C6', scopes: ['cloud'], provider: 'p1', hint: 'x' });
    assert.equal(plain, 'consent_required: no receipt [anchor=C6, scopes=["cloud"], provider=p1, hint=x]');
    const wire = describeHostError(new ControlledHostError({ code: 'provider_error', message: 'failed', rawCode: 'acme:busy', detail: { a: 1 } }));
    assert.equal(wire, 'provider_error: failed [rawCode=acme:busy, detail={"a":1}]');
    assert.doesNotMatch(describeHostError({ nested: { deep: true } }), /object Object/);
  });
});
