// The proofs group of the host suite (F13, V2, V3): its pure checks (each passes on a conformant
// observation and fails, naming its id, on a violating one — and reports a scenario that leaves nothing
// to witness instead of passing it), and the misbehaving variants of src/conformance/host-suite/variants/proofs.ts
// driven end to end against the scripted provider (each caught by the check its scenario runs).
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { retainProofs, type CommittedFrame } from '../../../../src/attest/index.js';
import { createBundledHost } from '../../../../src/conformance/host-suite/adapter.js';
import { checkKeptProofsRecomputeRoot, checkMissingVerdictUnknown, checkReusedOnlyOnValid, signedResultScript } from '../../../../src/conformance/host-suite/checks/proofs.js';
import { SCRIPTED_PROVIDER } from '../../../../src/conformance/host-suite/scripted/scripted-relay.js';
import type { ComposedPrompt } from '../../../../src/host/compose/types.js';
import { hostMisbehaviour, HOST_MISBEHAVIOURS } from '../../../../src/conformance/host-suite/variants/manifest.js';
import { PROOFS_VARIANTS } from '../../../../src/conformance/host-suite/variants/proofs.js';
import type { ReceivedFrame } from '../../../../src/host/types.js';
import type { VerifyOutcome } from '../../../../src/host/verify-reuse.js';
import type { Finding } from '../../../../src/protocol/findings.js';
import { SAMPLE_QUERY, tempDir } from '../../../fixtures/host/helpers.js';

import { failsWith } from '../../../fixtures/host/findings.js';

const D = (c: string) => `sha256:${c.repeat(64)}`;
function rf(id: string, digest: string): ReceivedFrame {
  return {
    frameId: { provider_id: 'docs', frame_id: id, content_digest: digest },
    frame: { id, kind: 'doc', title: id, content: `${id} body`, score: 0.5, token_cost: 1, citation_label: id } as ReceivedFrame['frame'],
    providerRoutingId: 'docs',
    rank: 0,
  };
}
const alpha = rf('frm_alpha', D('a'));
const beta = rf('frm_beta', D('b'));
const held = [alpha, beta];
const asked = [{ type: 'verify', request: { frames: held.map((f) => f.frameId) } }];
const outcome = (retained: ReceivedFrame[], dropped: Array<[ReceivedFrame, string, string]>, requery?: ReceivedFrame[]): VerifyOutcome => ({
  retained,
  dropped: dropped.map(([frame, reason, detail]) => ({ frameId: frame.frameId, frame, reason: reason as never, detail })),
  requery: requery ?? dropped.filter(([, r]) => r !== 'gone').map(([f]) => f),
  findings: [],
  sent: held.map((f) => f.frameId),
});

describe('V2: a requested identity with no verdict is unknown', () => {
  it('passes when the unanswered frame is dropped as unknown and re-queried', () => {
    assert.deepEqual(checkMissingVerdictUnknown(outcome([alpha], [[beta, 'unknown', 'V2: no verdict']]), asked, held, ['frm_beta']), []);
  });
  it('fails when it is retained as if valid, or read as gone', () => {
    failsWith(checkMissingVerdictUnknown(outcome([alpha, beta], []), asked, held, ['frm_beta']), 'V2', 'as if valid');
    failsWith(checkMissingVerdictUnknown(outcome([alpha], [[beta, 'gone', 'gone']]), asked, held, ['frm_beta']), 'V2', '"gone"');
    failsWith(checkMissingVerdictUnknown(outcome([alpha], [[beta, 'unknown', 'x']], []), asked, held, ['frm_beta']), 'V2', 'nor lists it for re-query');
  });
  it('reports a scenario with nothing to witness as inconclusive, never a pass or a finding', () => {
    // a failed precondition (docs/interpretations.md §97): "could not observe V2: …", a harness-side error
    assert.throws(() => checkMissingVerdictUnknown(outcome([], []), asked, held, []), /^Inconclusive: could not observe V2: the script leaves no requested identity/);
    // the host re-queried instead of verifying: the missing verdict was never met
    assert.throws(
      () => checkMissingVerdictUnknown(outcome([alpha], [[beta, 'unknown', 'x']]), [], held, ['frm_beta']),
      /^Inconclusive: could not observe V2: the identity of "frm_beta" never reached the provider/,
    );
    failsWith(checkMissingVerdictUnknown(undefined, asked, held, ['frm_beta']), 'V2');
  });
});

describe('V3: reuse only on valid', () => {
  it('passes when only the valid frame is retained', () => {
    assert.deepEqual(checkReusedOnlyOnValid(outcome([alpha], [[beta, 'unknown', 'V3: unknown']]), asked, held, { frm_beta: 'unknown' }), []);
  });
  it('fails on a body reused on unknown, on no verdict, or without a verify', () => {
    failsWith(checkReusedOnlyOnValid(outcome([alpha, beta], []), asked, held, { frm_beta: 'unknown' }), 'V3', 'unknown is never validity');
    failsWith(checkReusedOnlyOnValid(outcome([alpha], [[beta, 'verify-failed', 'error']]), asked, held, {}, ['frm_alpha', 'frm_beta']), 'V3', 'no verdict');
    failsWith(checkReusedOnlyOnValid(outcome([alpha], [[beta, 'unknown', 'x']]), [{ type: 'verify', request: { frames: [beta.frameId] } }], held, { frm_beta: 'unknown' }), 'V3', 'no verify named it');
  });
  it('reports a script with no unknown answer instead of passing it', () => {
    assert.throws(() => checkReusedOnlyOnValid(outcome([alpha, beta], []), asked, held, { frm_beta: 'stale' }), /^Inconclusive: could not observe V3: the script gives no frame/);
  });
});

describe('F13: kept frames of a signed strict subset carry proofs recomputing the root', () => {
  const script = signedResultScript('signed', false);
  const raw = script.rawResult as { frames: CommittedFrame[] };
  const ids = raw.frames.map((f) => ({ provider_id: 'signed', frame_id: f.id, content_digest: (f as { content_digest: string }).content_digest }));
  const composedWith = (kept: number, proof: (i: number) => unknown): ComposedPrompt =>
    ({
      frames: ids.slice(0, kept).map((frameId, i) => ({ frameId, position: i, evidence: proof(i) === undefined ? undefined : { verdict: 'attested', inclusionProof: proof(i) } })),
      blocks: ids.slice(0, kept).map((frameId) => ({ frameId, span: [0, 0], contentSpan: [0, 0], tokens: 0, citation: '' })),
    }) as unknown as ComposedPrompt;
  const full = retainProofs('signed', raw.frames, ids);

  it('passes on proofs derived from the complete signed set', () => {
    assert.deepEqual(
      checkKeptProofsRecomputeRoot(
        'signed',
        raw,
        composedWith(2, (i) => full[i]!.inclusion_proof),
      ),
      [],
    );
  });
  it('fails on a kept frame without a proof, or with one derived after dropping the rest', () => {
    failsWith(
      checkKeptProofsRecomputeRoot(
        'signed',
        raw,
        composedWith(2, () => undefined),
      ),
      'F13',
      'no inclusion proof',
    );
    const late = retainProofs('signed', raw.frames.slice(0, 2), ids.slice(0, 2));
    failsWith(
      checkKeptProofsRecomputeRoot(
        'signed',
        raw,
        composedWith(2, (i) => late[i]!.inclusion_proof),
      ),
      'F13',
      'does not recompute',
    );
    // a sibling's proof: right root, wrong leaf
    failsWith(
      checkKeptProofsRecomputeRoot(
        'signed',
        raw,
        composedWith(2, (i) => full[(i + 1) % 4]!.inclusion_proof),
      ),
      'F13',
      'does not recompute',
    );
  });
  it('reports a composition keeping all or none of the signed frames instead of passing it', () => {
    assert.throws(
      () =>
        checkKeptProofsRecomputeRoot(
          'signed',
          raw,
          composedWith(4, (i) => full[i]!.inclusion_proof),
        ),
      /^Inconclusive: could not observe F13: the composition kept 4 of the 4/,
    );
    assert.throws(
      () =>
        checkKeptProofsRecomputeRoot(
          'signed',
          raw,
          composedWith(0, () => undefined),
        ),
      /^Inconclusive: could not observe F13: the composition kept 0 of the 4/,
    );
    // the harness's own provider serving no signed result is a harness error, not a finding
    assert.throws(
      () =>
        checkKeptProofsRecomputeRoot(
          'signed',
          { frames: raw.frames },
          composedWith(2, () => undefined),
        ),
      /^Inconclusive: could not observe F13: the harness's provider served no signed result/,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// End to end: the bundled host (honest and each variant) against the scripted provider

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function observeVerify(script: Record<string, unknown>, mode?: string) {
  const dir = tempDir('cgp-host-proofs-');
  dirs.push(dir);
  const host = createBundledHost({ ledgerPath: join(dir, 'ledger.jsonl'), handshakeTimeoutMs: 10_000, requestTimeoutMs: 10_000, ...(mode ? { misbehave: mode } : {}) });
  try {
    const record = join(dir, 'received.ndjson');
    const d = await host.connectStdio(process.execPath, [SCRIPTED_PROVIDER, JSON.stringify({ name: 'docs', ...script, record })]);
    const fanOut = await host.queryAll(SAMPLE_QUERY);
    const frames = fanOut.answers.flatMap((a) => a.frames);
    const verified = await host.verify(d.routingId, frames);
    const received = readFileSync(record, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    return { frames, verified, received };
  } finally {
    await host.close();
  }
}

async function observeCompose(proofs: boolean, mode?: string) {
  const dir = tempDir('cgp-host-proofs-');
  dirs.push(dir);
  const host = createBundledHost({ ledgerPath: join(dir, 'ledger.jsonl'), handshakeTimeoutMs: 10_000, requestTimeoutMs: 10_000, ...(mode ? { misbehave: mode } : {}) });
  const script = signedResultScript('signed', proofs);
  try {
    await host.connectStdio(process.execPath, [SCRIPTED_PROVIDER, JSON.stringify({ name: 'signed', ...script })]);
    const fanOut = await host.queryAll(SAMPLE_QUERY);
    const composed = await host.compose(fanOut.answers, { budgetTokens: 420 });
    return checkKeptProofsRecomputeRoot('signed', script.rawResult, composed);
  } finally {
    await host.close();
  }
}

const SERVE = [
  { id: 'frm_alpha', content: 'alpha: retries back off exponentially from 100 ms' },
  { id: 'frm_beta', content: 'beta: the retry budget is five attempts' },
  { id: 'frm_gamma', content: 'gamma: jitter is drawn uniformly from the delay' },
];
const V2_SCRIPT = { verify: true, serve: SERVE, noVerdict: ['frm_beta'] };
const V3_SCRIPT = { verify: true, serve: SERVE, verdicts: { frm_beta: 'unknown', frm_gamma: { status: 'unknown' } } };
const V3_ERROR_SCRIPT = { verify: true, serve: SERVE, verifyError: { type: 'error', code: 'unavailable', message: 'rebuilding' } };

async function judgeVerify(mode?: string): Promise<Finding[]> {
  const v2 = await observeVerify(V2_SCRIPT, mode);
  const v3 = await observeVerify(V3_SCRIPT, mode);
  const v3e = await observeVerify(V3_ERROR_SCRIPT, mode);
  return [
    ...checkMissingVerdictUnknown(v2.verified, v2.received, v2.frames, V2_SCRIPT.noVerdict),
    ...checkReusedOnlyOnValid(v3.verified, v3.received, v3.frames, { frm_beta: 'unknown', frm_gamma: 'unknown' }),
    ...checkReusedOnlyOnValid(
      v3e.verified,
      v3e.received,
      v3e.frames,
      {},
      v3e.frames.map((f) => f.frameId.frame_id),
    ),
  ];
}

describe('host variants of the proofs group, end to end', () => {
  it('every variant is wired into the host manifest', () => {
    for (const v of PROOFS_VARIANTS)
      assert.equal(
        HOST_MISBEHAVIOURS.find((m) => m.mode === v.mode),
        v,
      );
  });
  it('the honest bundled host passes V2, V3 and F13 (derived and carried proofs)', async () => {
    assert.deepEqual(await judgeVerify(), []);
    assert.deepEqual(await observeCompose(false), []);
    assert.deepEqual(await observeCompose(true), []);
  });
  for (const [mode, id] of [
    ['missing-verdict-is-valid', 'V2'],
    ['reuse-on-unknown', 'V3'],
    ['reuse-on-failed-verify', 'V3'],
  ] as const) {
    it(`${mode} is caught as ${id} (and the manifest says it breaks ${id})`, async () => {
      assert.deepEqual(hostMisbehaviour(mode).breaks, [id]);
      failsWith(await judgeVerify(mode), id);
    });
  }
  for (const mode of ['discard-proofs', 'proofs-after-drop'] as const) {
    it(`${mode} is caught as F13 with and without shipped proofs`, async () => {
      assert.deepEqual(hostMisbehaviour(mode).breaks, ['F13']);
      failsWith(await observeCompose(false, mode), 'F13');
      failsWith(await observeCompose(true, mode), 'F13');
    });
  }
});
