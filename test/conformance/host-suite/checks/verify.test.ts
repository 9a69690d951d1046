// The verify / attestation / usage / attribution / types group of the host suite: its pure checks
// (each passes on a conformant observation and fails, naming its id, on a violating one), the
// misbehaving variants driven end to end against a scripted provider (each must be caught by the
// check its scenario runs), and U4: a mutated copy of the schema fails the @types scenario's check —
// also through cucumber with CGP_SCHEMA_DIR, the way the scenario is run.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createBundledHost } from '../../../../src/conformance/host-suite/adapter.js';
import {
  checkDigestlessNotReused,
  checkReuseOnlyOnValid,
  checkSmallOrderKeyNotAttested,
  checkUnknownAlgorithmUncheckable,
  checkUnverifiableKept,
  checkVerdicts,
  checkVerifyCorrelated,
  checkVerifyIdentitiesOnly,
  servedFrames,
  smallOrderKeyScript,
} from '../../../../src/conformance/host-suite/checks/verify.js';
import { checkAttributionHandles, checkAttributionReconcilable, checkCitedObserved, checkUsageBillsServed } from '../../../../src/conformance/host-suite/checks/usage.js';
import { SCRIPTED_PROVIDER } from '../../../../src/conformance/host-suite/scripted/scripted-relay.js';
import { checkFieldStability, inventorySchemaDir, readInventory } from '../../../../src/conformance/types/types-stability.js';
import type { FanOutResult } from '../../../../src/host/fan-out.js';
import { hostMisbehaviour } from '../../../../src/conformance/host-suite/variants/manifest.js';
import type { ReceivedFrame } from '../../../../src/host/types.js';
import type { VerifyOutcome } from '../../../../src/host/verify-reuse.js';
import type { Finding } from '../../../../src/protocol/findings.js';
import { REPO_ROOT, SAMPLE_QUERY, tempDir } from '../../../fixtures/host/helpers.js';

const errors = (fs: Finding[]) => fs.filter((f) => f.severity === 'error');
const warnings = (fs: Finding[]) => fs.filter((f) => f.severity === 'warning');
function failsWith(fs: Finding[], id: string): void {
  const e = errors(fs);
  assert.ok(e.length > 0, `expected a ${id} violation, got none`);
  assert.ok(
    e.some((f) => f.message.startsWith(`${id} violated: `)),
    e.map((f) => f.message).join('\n'),
  );
}

const D = (c: string) => `sha256:${c.repeat(64)}`;
function rf(id: string, content: string, digest?: string): ReceivedFrame {
  return {
    frameId: { provider_id: 'docs', frame_id: id, ...(digest !== undefined ? { content_digest: digest } : {}) },
    frame: { id, kind: 'doc', title: id, content, score: 0.5, token_cost: 1, citation_label: id } as ReceivedFrame['frame'],
    providerRoutingId: 'docs',
    rank: 0,
  };
}
const alpha = rf('frm_alpha', 'alpha body text', D('a'));
const nodigest = rf('frm_nodigest', 'no digest body');
const beta = rf('frm_beta', 'beta body text', D('b'));
const verifyLine = (frames: unknown[], extra: Record<string, unknown> = {}) => ({ type: 'verify', request: { frames }, ...extra });
const outcome = (o: Partial<VerifyOutcome>): VerifyOutcome => ({ retained: [], requery: [], dropped: [], findings: [], sent: [], ...o });

describe('verify checks: V1, D3, D4/V4, S9-verify-correlation', () => {
  it('V1 passes on identities only and fails on a body, under any member name', () => {
    const ok = [verifyLine([{ provider_id: 'docs', frame_id: 'frm_alpha', content_digest: D('a') }])];
    assert.deepEqual(checkVerifyIdentitiesOnly({ label: 'docs' }, ok, [alpha], true), []);
    failsWith(checkVerifyIdentitiesOnly({ label: 'docs' }, [verifyLine([{ provider_id: 'docs', frame_id: 'frm_alpha', content_digest: D('a'), content: 'alpha body text' }])], [alpha], true), 'V1');
    failsWith(checkVerifyIdentitiesOnly({ label: 'docs' }, [verifyLine([{ provider_id: 'docs', frame_id: 'frm_alpha' }], { bodies: ['alpha body text'] })], [alpha], true), 'V1');
  });
  it('V1 warns on a digest-less identity and reports a verify that never came', () => {
    const fs = checkVerifyIdentitiesOnly({ label: 'docs' }, [verifyLine([{ provider_id: 'docs', frame_id: 'frm_nodigest' }])], [nodigest], true);
    assert.deepEqual(errors(fs), []);
    assert.ok(warnings(fs)[0]?.message.startsWith('V1 warning: '));
    // no verify at all (a host may re-query instead): inconclusive, never a V1 finding
    assert.throws(() => checkVerifyIdentitiesOnly({ label: 'docs' }, [], [alpha], true), /^Inconclusive: could not observe V1: provider "docs"/);
    assert.deepEqual(checkVerifyIdentitiesOnly({ label: 'docs' }, [], [alpha], false), []);
  });
  it('D3 passes when the digest-less frame is re-queried and fails when it is retained', () => {
    assert.deepEqual(checkDigestlessNotReused(outcome({ retained: [alpha], requery: [nodigest] }), [alpha, nodigest]), []);
    failsWith(checkDigestlessNotReused(outcome({ retained: [alpha, nodigest] }), [alpha, nodigest]), 'D3');
    assert.throws(() => checkDigestlessNotReused(outcome({ retained: [alpha] }), [alpha]), /^Inconclusive: could not observe D3: /); // nothing to witness
  });
  it('D4/V4: reuse only what verify confirmed valid', () => {
    const received = [verifyLine([alpha.frameId, beta.frameId])];
    assert.deepEqual(checkReuseOnlyOnValid(outcome({ retained: [alpha] }), received, { frm_beta: 'stale' }, ['D4', 'V4']), []);
    const stale = checkReuseOnlyOnValid(outcome({ retained: [alpha, beta] }), received, { frm_beta: 'stale' }, ['D4', 'V4']);
    failsWith(stale, 'V4');
    assert.ok(warnings(stale).some((f) => f.message.startsWith('D4 warning: ')));
    const unasked = checkReuseOnlyOnValid(outcome({ retained: [alpha] }), [], {}, ['D4']);
    assert.deepEqual(errors(unasked), []);
    assert.ok(warnings(unasked)[0]?.message.startsWith('D4 warning: '));
  });
  it('S9-verify-correlation warns on a verify without an id', () => {
    assert.deepEqual(checkVerifyCorrelated({ label: 'docs' }, [verifyLine([], { id: 'v1' })]), []);
    assert.ok(warnings(checkVerifyCorrelated({ label: 'docs' }, [verifyLine([])]))[0]?.message.startsWith('S9-verify-correlation warning: '));
  });
});

describe('attestation checks: F8, F9, S6.5.4-distinct-verdicts', () => {
  const frame = { id: 'frm_alpha', kind: 'doc', title: 't', content: 'alpha body text', content_digest: D('a'), score: 0.5, token_cost: 4, citation_label: 'a' };
  const sent = [
    { type: 'handshake_ack' },
    {
      type: 'frames',
      result: {
        frames: [frame],
        truncated: false,
        frame_attestations: [{ frame: { provider_id: 'docs', frame_id: 'frm_alpha', content_digest: D('a') }, attestation: { algorithm: 'ed448' } }],
        result_attestation: { algorithm: 'ed448' },
      },
    },
  ];
  const served = servedFrames('docs', sent);
  const fanOut = (verdict: string | undefined): FanOutResult =>
    ({
      answers: verdict === undefined ? [] : [{ frames: [{ ...rf('frm_alpha', 'alpha body text', D('a')), evidence: { verdict } }] }],
      failures: [],
      skipped: [],
      audits: [],
      findings: [],
      notes: [],
    }) as unknown as FanOutResult;
  it('reads the served frames and their algorithms off the wire', () => {
    assert.deepEqual(served, [{ frameId: { provider_id: 'docs', frame_id: 'frm_alpha', content_digest: D('a') }, content: 'alpha body text', algorithms: ['ed448'] }]);
  });
  it('F8 passes on uncheckable and fails on attested or another verdict', () => {
    assert.deepEqual(checkUnknownAlgorithmUncheckable(served, fanOut('uncheckable')), []);
    failsWith(checkUnknownAlgorithmUncheckable(served, fanOut('attested')), 'F8');
    failsWith(checkUnknownAlgorithmUncheckable(served, fanOut('unattested')), 'F8');
  });
  it('F9 fails when the frame is dropped from the answers', () => {
    assert.deepEqual(checkUnverifiableKept(served, fanOut('uncheckable'), undefined), []);
    failsWith(checkUnverifiableKept(served, fanOut(undefined), undefined), 'F9');
  });
  it('S6.5.4-distinct-verdicts fails on a collapsed or boolean verdict', () => {
    assert.deepEqual(checkVerdicts({ frm_alpha: 'uncheckable' }, served, fanOut('uncheckable')), []);
    failsWith(checkVerdicts({ frm_alpha: 'uncheckable' }, served, fanOut('unattested')), 'S6.5.4-distinct-verdicts');
    failsWith(
      checkVerdicts({ frm_alpha: 'uncheckable' }, served, { ...fanOut('uncheckable'), answers: [{ frames: [{ ...alpha, evidence: { verdict: false } }] }] } as unknown as FanOutResult),
      'S6.5.4-distinct-verdicts',
    );
  });
});

// ── variants end to end: the honest host passes the checks, each variant is caught by its own ──────
const SCRIPT = {
  name: 'docs',
  verify: true,
  serve: [
    { id: 'frm_alpha', score: 0.9, citation_label: 'alpha.md L1-3', content: 'Retries back off exponentially, starting at 100 ms and doubling each attempt.' },
    { id: 'frm_beta', score: 0.8, citation_label: 'beta.md L4-9', content: 'The retry budget allows five attempts before the call fails.' },
    { id: 'frm_nodigest', score: 0.7, citation_label: 'nodigest.md', content: 'A frame whose provider declares no content_digest.', digest: false },
  ],
  verdicts: { frm_beta: 'stale' },
};
const OUTPUT = 'Retries double from 100 ms [alpha.md L1-3].';
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function observe(mode?: string) {
  const dir = tempDir('cgp-host-verify-');
  dirs.push(dir);
  const host = createBundledHost({ ledgerPath: join(dir, 'ledger.jsonl'), handshakeTimeoutMs: 10_000, requestTimeoutMs: 10_000, ...(mode ? { misbehave: mode } : {}) });
  try {
    const record = join(dir, 'received.ndjson');
    const d = await host.connectStdio(process.execPath, [SCRIPTED_PROVIDER, JSON.stringify({ ...SCRIPT, record })]);
    const fanOut = await host.queryAll(SAMPLE_QUERY);
    const held = fanOut.answers.flatMap((a) => a.frames);
    const verified = await host.verify(d.routingId, held);
    const composed = await host.compose(fanOut.answers, { budgetTokens: 4_000 });
    const usage = await host.usage(SAMPLE_QUERY, fanOut);
    const attribution = await host.attribute(composed, usage, OUTPUT);
    const received = readFileSync(record, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    return { fanOut, held, verified, composed, usage, attribution, received };
  } finally {
    await host.close();
  }
}

function judgeAll(o: Awaited<ReturnType<typeof observe>>): Finding[] {
  return [
    ...checkVerifyIdentitiesOnly({ label: 'docs' }, o.received, o.held, true),
    ...checkDigestlessNotReused(o.verified, o.held),
    ...checkReuseOnlyOnValid(o.verified, o.received, SCRIPT.verdicts, ['D4', 'V4']),
    ...checkUsageBillsServed(o.usage, o.fanOut.answers),
    ...checkAttributionHandles(o.attribution, o.fanOut.answers),
    ...checkCitedObserved(o.attribution, o.composed, OUTPUT),
    ...checkAttributionReconcilable(o.attribution, o.usage),
  ];
}

describe('host variants of the verify group, end to end', () => {
  it('the honest bundled host passes every check (V1 SHOULD included: no warning)', async () => {
    const fs = judgeAll(await observe());
    assert.deepEqual(fs, []);
  });
  for (const [mode, id] of [
    ['verify-sends-bodies', 'V1'],
    ['reuse-digestless', 'D3'],
    ['reuse-on-stale', 'V4'],
    ['miscount-usage', 'UR1'],
    ['attribution-by-title', 'A1'],
    ['infer-cited', 'A2'],
    ['unreconcilable-attribution', 'A3'],
  ] as const) {
    it(`${mode} is caught as ${id} (and the manifest says it breaks ${id})`, async () => {
      assert.ok(hostMisbehaviour(mode).breaks.includes(id));
      failsWith(judgeAll(await observe(mode)), id);
    });
  }
});

describe('S6.5.4-strict-ed25519: a small-order key never attests', () => {
  async function verdicts(mode?: string) {
    const dir = tempDir('cgp-host-strict-');
    dirs.push(dir);
    const host = createBundledHost({ ledgerPath: join(dir, 'ledger.jsonl'), handshakeTimeoutMs: 10_000, requestTimeoutMs: 10_000, ...(mode ? { misbehave: mode } : {}) });
    try {
      const script = smallOrderKeyScript('docs');
      await host.connectStdio(process.execPath, [SCRIPTED_PROVIDER, JSON.stringify({ name: 'docs', ...script })]);
      const fanOut = await host.queryAll(SAMPLE_QUERY);
      const served = servedFrames('docs', [{ type: 'frames', result: script.rawResult }]);
      return { fanOut, served, seen: fanOut.answers.flatMap((a) => a.frames.map((f) => f.evidence?.verdict)) };
    } finally {
      await host.close();
    }
  }
  it('the honest host reports bad-signature; the permissive variant attests and is warned', async () => {
    const honest = await verdicts();
    assert.deepEqual(honest.seen, ['bad-signature', 'bad-signature']);
    assert.deepEqual(checkSmallOrderKeyNotAttested(honest.served, honest.fanOut), []);
    const permissive = await verdicts('permissive-ed25519');
    assert.deepEqual(permissive.seen, ['attested', 'attested']);
    const fs = checkSmallOrderKeyNotAttested(permissive.served, permissive.fanOut);
    assert.equal(fs.length, 2);
    for (const f of fs) assert.ok(f.message.startsWith('S6.5.4-strict-ed25519 warning: '), f.message);
  });
});

// ── U4: the frozen 1.0 inventory against the published schema and against mutated copies ──────────
describe('U4: published schema stability', () => {
  const frozen = readInventory(join(REPO_ROOT, 'vectors', 'schema-inventory-1.0.json'));
  function mutated(change: (envelope: Record<string, any>) => void): string {
    const dir = tempDir('cgp-schema-');
    dirs.push(dir);
    cpSync(join(REPO_ROOT, 'schema'), dir, { recursive: true });
    const file = join(dir, 'contextgraph-envelope.schema.json');
    const schema = JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>;
    change(schema);
    writeFileSync(file, JSON.stringify(schema));
    return dir;
  }
  it('the published schema keeps every frozen field', () => {
    assert.ok(frozen.fields.length > 100);
    assert.deepEqual(checkFieldStability(frozen, inventorySchemaDir(join(REPO_ROOT, 'schema'))), []);
  });
  it('an added optional field is additive, not a finding', () => {
    const dir = mutated((s) => {
      s.$defs.ContextFrame.properties['x_new_field'] = { type: 'string' };
    });
    assert.deepEqual(checkFieldStability(frozen, inventorySchemaDir(dir)), []);
  });
  it('a deleted field, a retyped field and a removed base-vocabulary value each fail U4', () => {
    failsWith(checkFieldStability(frozen, inventorySchemaDir(mutated((s) => delete s.$defs.ContextFrame.properties.citation_label))), 'U4');
    failsWith(checkFieldStability(frozen, inventorySchemaDir(mutated((s) => (s.$defs.ContextFrame.properties.token_cost = { type: 'string' })))), 'U4');
    failsWith(checkFieldStability(frozen, inventorySchemaDir(mutated((s) => (s.$defs.Representation.enum = ['full', 'compact'])))), 'U4');
    // a $def renamed without any wire change is not a finding (fields are wire paths)
    const renamed = mutated((s) => {
      s.$defs.FrameIdentity = s.$defs.FrameId;
      delete s.$defs.FrameId;
      const text = JSON.stringify(s).replaceAll('#/$defs/FrameId"', '#/$defs/FrameIdentity"');
      for (const k of Object.keys(s)) delete s[k];
      Object.assign(s, JSON.parse(text));
    });
    assert.deepEqual(checkFieldStability(frozen, inventorySchemaDir(renamed)), []);
  });
  it('the @types scenario fails on a mutated copy given as CGP_SCHEMA_DIR and passes on schema/', async () => {
    const run = promisify(execFile);
    const dir = mutated((s) => delete s.$defs.FrameId.properties.content_digest);
    const cucumber = join(REPO_ROOT, 'node_modules', '.bin', 'cucumber-js');
    const bad = await run(cucumber, ['--tags', '@types and @U4'], { cwd: REPO_ROOT, env: { ...process.env, CGP_SCHEMA_DIR: dir } }).then(
      () => undefined,
      (err: { stdout?: string; code?: number }) => err,
    );
    assert.ok(bad !== undefined, 'the @types scenario passed against a schema with a deleted field');
    assert.match(String(bad.stdout), /U4 violated: field verify\.request\.frames\[\]\.content_digest/);
    const good = await run(cucumber, ['--tags', '@types and @U4'], { cwd: REPO_ROOT, env: { ...process.env, CGP_SCHEMA_DIR: '' } });
    assert.match(good.stdout, /1 scenario \(1 passed\)/);
  });
});
