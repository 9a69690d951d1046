// False verdicts against honest hosts written elsewhere (docs/interpretations.md §97–§101), each reproduced
// with an honest alternative to the bundled host (src/conformance/host-suite/variants/honest.ts):
//  - schema-minimal: every op result reduced to the members its published schema requires — the WHOLE host
//    suite gives the bundled host's verdicts, with no harness error;
//  - local-ids: providers keyed by local ids that are not their names, in every FrameId it reports and on the
//    wire's verify — one identity mapping, so no MUST check fails (S6.5.2-provider-id, a SHOULD, warns);
//  - commonmark-fences: each block fenced one backtick longer than any run in its content — R3 passes;
//  - declines-unknown-kind: the hostile frame of an unknown kind is not rendered — R3 is not observed
//    (inconclusive, "could not observe R3: …"), never an R3 finding;
// and the pure checks that read only what the schema requires (V2 on a dropped item {frameId}).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runSuite } from '../../../src/conformance/run/run-suite.js';
import { checkMissingVerdictUnknown, checkReusedOnlyOnValid } from '../../../src/conformance/host-suite/checks/proofs.js';
import { ProviderIdentities } from '../../../src/conformance/host-suite/identity.js';
import { Inconclusive } from '../../../src/conformance/host-suite/inconclusive.js';
import { HarnessError } from '../../../src/conformance/provider-suite/errors.js';
import type { VerifyOutcome } from '../../../src/host/verify-reuse.js';
import type { ReceivedFrame } from '../../../src/host/types.js';

const HONEST = fileURLToPath(new URL('../../fixtures/host/honest-host.ts', import.meta.url));
const reportsDir = mkdtempSync(join(tmpdir(), 'cgp-host-false-verdicts-'));
after(() => rmSync(reportsDir, { recursive: true, force: true }));

type Run = Awaited<ReturnType<typeof runSuite>>;

async function run(mode: string | undefined, tags?: string): Promise<Run> {
  if (mode !== undefined) process.env.CGP_HONEST_ALTERNATIVE = mode;
  try {
    return await runSuite({ side: 'host', ...(mode !== undefined ? { hostModule: HONEST } : {}), ...(tags !== undefined ? { tags } : {}), reportName: mode ?? 'bundled', reportsDir, progress: null });
  } finally {
    delete process.env.CGP_HONEST_ALTERNATIVE;
  }
}

/** Each scenario's verdict, its ids and the ids of its warnings (the whole story a report tells of it). */
function verdicts(r: Run): string[] {
  return r.summary.scenarios
    .map(
      (s) =>
        `${s.uri}:${s.line} ${s.status} [${s.findings
          .filter((f) => f.severity === 'warning')
          .map((f) => f.id)
          .sort()
          .join(',')}]${s.status === 'failed' ? ` ${(s.harness_error ?? s.message ?? '').split('\n')[0]}` : ''}`,
    )
    .sort();
}

function failures(r: Run): string[] {
  return r.summary.scenarios.filter((s) => s.status === 'failed').map((s) => `${s.ids.join(',')} ${s.name}: ${(s.harness_error ?? s.message ?? '').split('\n')[0]}`);
}

describe('the whole host suite against a host answering only what the schemas require', () => {
  it("schema-minimal: no harness error, the bundled host's verdicts", async () => {
    const bundled = await run(undefined);
    const minimal = await run('schema-minimal');
    assert.equal(minimal.summary.harness_errors, 0, failures(minimal).join('\n'));
    assert.ok(minimal.summary.scenarios.length >= 60, `${minimal.summary.scenarios.length} scenarios`);
    assert.deepEqual(verdicts(minimal), verdicts(bundled));
  });
});

describe('one identity mapping, applied everywhere', () => {
  it('local-ids: no MUST check fails; S6.5.2-provider-id warns where a FrameId leaves the host', async () => {
    const r = await run('local-ids');
    assert.deepEqual(failures(r), []);
    const warned = r.summary.scenarios.filter((s) => s.findings.some((f) => f.id === 'S6.5.2-provider-id' && f.severity === 'warning')).map((s) => s.ids.join(','));
    assert.deepEqual(warned.sort(), ['A1,S6.5.2-provider-id', 'D3,V1,S6.5.2-provider-id', 'UR1,S6.5.2-provider-id', 'V1,S6.5.2-provider-id']);
  });

  it("the wire verify's identities are read through the same mapping as the host's results (V2, V3)", () => {
    const identities = new ProviderIdentities();
    identities.add({ routingId: 'local-1', name: 'docs' } as never);
    const held = ['frm_alpha', 'frm_beta'].map((id) => ({ frameId: { provider_id: 'docs', frame_id: id, content_digest: `sha256:${'a'.repeat(64)}` }, frame: {} }) as unknown as ReceivedFrame);
    const received = [{ type: 'verify', request: { frames: held.map((f) => ({ ...f.frameId, provider_id: 'local-1' })) } }];
    const outcome = { retained: [held[0]!], requery: [held[1]!], dropped: [{ frameId: held[1]!.frameId }] } as unknown as VerifyOutcome;
    assert.deepEqual(checkMissingVerdictUnknown(outcome, received, held, ['frm_beta'], identities), []);
    assert.deepEqual(checkReusedOnlyOnValid(outcome, received, held, { frm_beta: 'unknown' }, [], identities), []);
  });
});

describe('checks read only what the published schema requires', () => {
  it('V2: a dropped item {frameId} (no frame, no reason) is read, never crashes', () => {
    const held = [{ frameId: { provider_id: 'docs', frame_id: 'frm_beta', content_digest: `sha256:${'b'.repeat(64)}` }, frame: {} }] as unknown as ReceivedFrame[];
    const received = [{ type: 'verify', request: { frames: [held[0]!.frameId] } }];
    const ok = { retained: [], requery: [held[0]!], dropped: [{ frameId: held[0]!.frameId }] } as unknown as VerifyOutcome;
    assert.deepEqual(checkMissingVerdictUnknown(ok, received, held, ['frm_beta']), []);
    const gone = { retained: [], requery: [], dropped: [{ frameId: held[0]!.frameId, reason: 'gone' }] } as unknown as VerifyOutcome;
    assert.match(checkMissingVerdictUnknown(gone, received, held, ['frm_beta'])[0]?.message ?? '', /^V2 violated: .*treated it as "gone"/);
  });

  it('a failed precondition is inconclusive, never a violation: "could not observe <ID>: <cause>"', () => {
    const held = [{ frameId: { provider_id: 'docs', frame_id: 'frm_beta', content_digest: `sha256:${'b'.repeat(64)}` }, frame: {} }] as unknown as ReceivedFrame[];
    const outcome = { retained: [], requery: held, dropped: [] } as unknown as VerifyOutcome;
    assert.throws(
      () => checkReusedOnlyOnValid(outcome, [], held, { frm_beta: 'unknown' }),
      (err: unknown) => err instanceof Inconclusive && err instanceof HarnessError && /^could not observe V3: none of "frm_beta" reached the provider in a verify/.test((err as Error).message),
    );
  });
});

describe("R3 is judged on what is rendered, from the host's own blocks", () => {
  it('commonmark-fences: a fence one backtick longer than any run in its content passes R3', async () => {
    const r = await run('commonmark-fences', '@R3');
    assert.equal(r.summary.scenarios.length, 2);
    assert.deepEqual(failures(r), []);
  });

  it('declines-unknown-kind: a hostile frame the host does not render is not observed, never an R3 finding', async () => {
    const r = await run('declines-unknown-kind', '@R3');
    const hostile = r.summary.scenarios.find((s) => /forges a sibling/.test(s.name));
    assert.equal(hostile?.findings.length, 0);
    assert.match(hostile?.harness_error ?? '', /^could not observe R3: the hostile frame "frm_attack" of "hostile" was not rendered \(dropped "unknown-kind"/);
    const mimic = r.summary.scenarios.find((s) => /own block delimiters/.test(s.name));
    assert.equal(mimic?.status, 'passed');
  });
});

describe('the capability model, as a host author meets it', () => {
  it('refuses-test-ca: a not_supported naming the hook it lacks is read as that hook, never as "lacks http"', async () => {
    const r = await run('refuses-test-ca', '@needs-http or @needs-https-test-ca or @C8');
    assert.equal(r.summary.scenarios.filter((s) => s.status === 'not-applicable').length, 0, verdicts(r).join('\n'));
    const unverified = r.summary.scenarios.filter((s) => s.status === 'unverified');
    assert.ok(unverified.length >= 5);
    for (const s of unverified) assert.match(s.harness_error ?? '', /unverified: needs https-test-ca/, s.name);
    assert.ok(r.summary.scenarios.some((s) => s.ids.includes('C7') && s.status === 'passed'));
  });
});

describe('what a host declares does not hide what reaches the providers', () => {
  it('no-embedding: E1 is judged (and passes) for a host declaring its capabilities without embedding', async () => {
    const r = await run('no-embedding', '@E1');
    assert.equal(r.summary.scenarios.length, 2);
    for (const s of r.summary.scenarios) assert.equal(s.status, 'passed', `${s.name}: ${s.not_applicable ?? s.harness_error ?? s.message ?? ''}`);
  });

  it('no-name-hook: C7 is judged without the name-resolution hook when the host refuses before resolving', async () => {
    const r = await run('no-name-hook', '@C7');
    assert.deepEqual(
      r.summary.scenarios.map((s) => s.status),
      ['passed'],
      verdicts(r).join('\n'),
    );
  });
});

describe('R3 and D2 on synthetic compositions', () => {
  const answer = (provider: string, frames: Array<[string, string]>) =>
    ({
      provider: { routingId: provider, name: provider },
      frames: frames.map(([id, content]) => ({
        frameId: { provider_id: provider, frame_id: id, content_digest: `sha256:${Buffer.from(content).toString('hex').padEnd(64, '0').slice(0, 64)}` },
        frame: { id, kind: 'doc', content },
      })),
    }) as never;
  /** Blocks rendered as `open + content + close` after a preamble, spans in UTF-8 bytes. */
  const composed = (parts: Array<{ provider: string; id: string; open: string; content: string; close: string }>) => {
    let text = 'preamble: ``` and </frame> may be described here\n';
    const blocks = parts.map((p) => {
      const start = Buffer.byteLength(text);
      const c0 = start + Buffer.byteLength(p.open);
      const c1 = c0 + Buffer.byteLength(p.content);
      text += p.open + p.content + p.close;
      return { frameId: { provider_id: p.provider, frame_id: p.id }, span: [start, Buffer.byteLength(text)], contentSpan: [c0, c1] };
    });
    return { text, blocks, dropped: [] } as never;
  };

  it("R3: fences of different lengths pass; content holding its own block's closer fails", async () => {
    const { checkFenced } = await import('../../../src/conformance/host-suite/checks/composition.js');
    const hostile = { provider: 'h', id: 'frm_h', kind: 'doc', marker: 'OVERRIDE' };
    const a = 'plain ``` inside';
    const h = 'x\n```\nOVERRIDE';
    const offered = [answer('d', [['frm_a', a]]), answer('h', [['frm_h', h]])];
    const fenced = composed([
      { provider: 'd', id: 'frm_a', open: '\n````a\n', content: a, close: '\n````\n' },
      { provider: 'h', id: 'frm_h', open: '\n````h\n', content: h, close: '\n````\n' },
    ]);
    assert.deepEqual(checkFenced(hostile, offered, fenced), []);
    const broken = composed([
      { provider: 'd', id: 'frm_a', open: '\n````a\n', content: a, close: '\n````\n' },
      { provider: 'h', id: 'frm_h', open: '\n```h\n', content: h, close: '\n```\n' },
    ]);
    const findings = checkFenced(hostile, offered, broken);
    assert.ok(
      findings.some((f) => f.id === 'R3' && /closer "\\n```\\n" of the block of "frm_h" \("h"\) first occurs inside its content/.test(f.message)),
      findings.map((f) => f.message).join('\n'),
    );
  });

  it('D2: two content_digests of one frame id are two contents; dedup by id alone fails', async () => {
    const { checkVersionsKept } = await import('../../../src/conformance/host-suite/checks/composition.js');
    const offered = [answer('docs', [['frm_p', 'revision 1']]), answer('docs', [['frm_p', 'revision 2']])];
    const both = composed([
      { provider: 'docs', id: 'frm_p', open: '<q>', content: 'revision 1', close: '</q>' },
      { provider: 'docs', id: 'frm_p', open: '<q>', content: 'revision 2', close: '</q>' },
    ]);
    assert.deepEqual(checkVersionsKept('docs', 'frm_p', ['revision 1', 'revision 2'], offered, both), []);
    const one = composed([{ provider: 'docs', id: 'frm_p', open: '<q>', content: 'revision 1', close: '</q>' }]);
    assert.match(
      checkVersionsKept('docs', 'frm_p', ['revision 1', 'revision 2'], offered, one)[0]?.message ?? '',
      /^D2 violated: the version of frame "frm_p" of "docs" whose content is "revision 2"/,
    );
  });
});
