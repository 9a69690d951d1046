// Unit tests of the suite's pure parts: target config, raw-line framing, the ledger's verdicts, the
// live-exchange checks added on top of src/protocol, and capability applicability.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applicability, needsOf } from '../../../src/conformance/provider-suite/capabilities.js';
import { checkAckExtras, checkLines, checkReply, isAnchoredBy } from '../../../src/conformance/provider-suite/checks.js';
import { ConfigError, resolveSuiteConfig, splitCommandLine, type SuiteConfig } from '../../../src/conformance/provider-suite/config.js';
import { judgeForeign } from '../../../src/conformance/provider-suite/handshake.js';
import { ScenarioLedger } from '../../../src/conformance/provider-suite/scenario-ledger.js';
import { alteredDigest } from '../../../src/conformance/provider-suite/probes/verify.js';
import { sha256Digest } from '../../../src/protocol/digest.js';
import { violation, warning } from '../../../src/protocol/findings.js';
import { TimeoutError } from '../../../src/transport/errors.js';

describe('target config', () => {
  it('splits a command line like a POSIX shell (quotes, escapes, no expansion)', () => {
    assert.deepEqual(splitCommandLine(`node "my provider.js" --name 'a b' x\\ y $HOME`), ['node', 'my provider.js', '--name', 'a b', 'x y', '$HOME']);
    assert.deepEqual(splitCommandLine('  a   b  '), ['a', 'b']);
    assert.deepEqual(splitCommandLine(`a "" ''`), ['a', '', '']);
    assert.throws(() => splitCommandLine('node "unterminated'), ConfigError);
  });

  it('reads CGP_PROVIDER / CGP_PROVIDER_URL / CGP_MISBEHAVE and the timeouts', () => {
    const stdio = resolveSuiteConfig({ env: { CGP_PROVIDER: 'python3 -m prov --x', CGP_REQUEST_TIMEOUT_MS: '1500' } });
    assert.deepEqual(stdio.target, { kind: 'stdio', command: 'python3', args: ['-m', 'prov', '--x'], label: 'python3 -m prov --x', bundled: false });
    assert.equal(stdio.timeouts.requestMs, 1500);
    assert.equal(stdio.timeouts.handshakeMs, 10_000);
    assert.equal(stdio.timeouts.shutdownGraceMs, 2_000);
    // docs/interpretations.md §81: a stdio provider's working directory (here: the harness's) and nothing else
    assert.deepEqual(stdio.trustedRoots, [process.cwd()], 'only the working directory is trusted for a foreign stdio target');
    const http = resolveSuiteConfig({ env: { CGP_PROVIDER_URL: 'http://127.0.0.1:9/' } });
    assert.equal(http.target.kind, 'http');
    assert.deepEqual(http.trustedRoots, [], 'nothing is trusted for an HTTP target unless CGP_PROVIDER_FILE_ROOTS says so');
    const bundled = resolveSuiteConfig({ env: { CGP_MISBEHAVE: 'bad-score' } });
    assert.equal(bundled.target.kind === 'stdio' && bundled.target.bundled, true);
    assert.ok(bundled.target.kind === 'stdio' && bundled.target.args.slice(-2).join(' ') === '--misbehave bad-score');
    assert.ok(bundled.trustedRoots[0]!.endsWith('fixtures/provider'));
    assert.ok(bundled.retiredFrameIds.length > 0);
  });

  it('refuses contradictions and unsafe URLs as usage errors', () => {
    assert.throws(() => resolveSuiteConfig({ env: { CGP_PROVIDER: 'x', CGP_PROVIDER_URL: 'http://127.0.0.1:1/' } }), /not both/);
    assert.throws(() => resolveSuiteConfig({ env: { CGP_MISBEHAVE: 'no-such-mode' } }), /unknown misbehaviour mode/);
    assert.throws(() => resolveSuiteConfig({ env: { CGP_PROVIDER: 'x', CGP_MISBEHAVE: 'bad-score' } }), /only to the bundled/);
    assert.throws(() => resolveSuiteConfig({ env: { CGP_PROVIDER_URL: 'http://provider.example/' } }), /C7/);
    assert.throws(() => resolveSuiteConfig({ env: { CGP_REQUEST_TIMEOUT_MS: '0' } }), ConfigError);
  });
});

describe('raw line framing (S2.1-no-newline, S2-wire-shape)', () => {
  const lines = (texts: string[]) => texts.map((text, i) => ({ line: i + 1, text }));

  it('accepts one envelope per line', () => {
    const ev = checkLines(lines(['{"type":"handshake_ack"}', '{"type":"frames","result":{}}']), 'test');
    assert.deepEqual(ev.findings, []);
    assert.equal(ev.witnesses['S2.1-no-newline'], 2);
  });

  it('names an envelope split over several lines as S2.1-no-newline', () => {
    const pretty = JSON.stringify({ type: 'handshake_ack', provider: { name: 'x' } }, null, 2).split('\n');
    const ev = checkLines(lines([...pretty, '{"type":"frames"}']), 'test');
    assert.equal(ev.findings.length, 1);
    assert.equal(ev.findings[0]!.id, 'S2.1-no-newline');
    assert.match(ev.findings[0]!.message, /^S2\.1-no-newline violated: test: lines 1–\d+ are one "handshake_ack" envelope split by \d+ literal newline/);
  });

  it('reports any other non-envelope line as S2-wire-shape', () => {
    const ev = checkLines(
      [
        { line: 1, text: 'starting up…' },
        { line: 2, text: '', error: 'invalid_utf8' },
      ],
      'test',
    );
    assert.deepEqual(
      ev.findings.map((f) => f.id),
      ['S2-wire-shape', 'S2-wire-shape'],
    );
    assert.match(ev.findings[0]!.message, /line 1 is not an envelope/);
  });
});

describe('ledger verdicts', () => {
  it('fails on an error of the checked ids only; warnings never fail', () => {
    const l = new ScenarioLedger();
    l.add([violation('B1', '', 'too much'), warning('F1', '', 'hmm')]);
    l.witness('F1');
    assert.equal(l.verdict(['F1']).status, 'passed');
    const v = l.verdict(['B1']);
    assert.equal(v.status, 'failed');
    assert.match(v.status === 'failed' ? v.message : '', /^B1 violated: too much/);
  });

  it('is not-applicable (with the reason) when nothing was examined — never a pass', () => {
    const l = new ScenarioLedger();
    l.unwitnessedBecause('G1', 'no frame carried a relation');
    const v = l.verdict(['G1']);
    assert.deepEqual(v, { status: 'not-applicable', reason: 'G1: no frame carried a relation', warnings: [] });
  });

  it('dedupes identical findings', () => {
    const l = new ScenarioLedger();
    l.add([violation('F1', '/x', 'a'), violation('F1', '/x', 'a')]);
    assert.equal(l.findings.length, 1);
  });
});

describe('live-exchange checks', () => {
  const content = 'hello world';
  const frame = (over: Record<string, unknown>) => ({
    id: 'f1',
    kind: 'doc',
    title: 't',
    citation_label: 'c',
    score: 0.5,
    content,
    content_digest: sha256Digest(content),
    token_cost: 3,
    ...over,
  });
  const frames = (fs: unknown[], extra: Record<string, unknown> = {}) => ({ type: 'frames', result: { frames: fs, truncated: false, ...extra } });

  it('H4: a reply must echo the id the request carried', () => {
    const ev = checkReply({ ...frames([frame({})]), id: 'q-x' }, { requestId: 'q' });
    assert.ok(ev.findings.some((f) => f.id === 'H4' && f.severity === 'error'));
    assert.equal(checkReply({ ...frames([frame({})]), id: 'q' }, { requestId: 'q' }).findings.filter((f) => f.id === 'H4').length, 0);
  });

  it('P4: a compact frame costed at its full source is a P4 violation beside B3', () => {
    const compact = frame({
      representation: 'compact',
      canonical_content_hash: sha256Digest('the full source'),
      transform: { method: 'm', implementation: 'i', version: '1' },
      content_ref: { provider_id: 'p', uri: 'urn:x' },
      token_cost: 99,
      canonical_token_cost: 99,
    });
    const ids = checkReply(frames([compact]), { advertised: ['full', 'compact'] }).findings.map((f) => f.id);
    assert.ok(ids.includes('B3') && ids.includes('P4'));
  });

  it('F11: an attestation inside a frame is reported as F11 too', () => {
    const ids = checkReply(frames([frame({ attestation: { signed_commitment: 'x' } })])).findings.map((f) => f.id);
    assert.ok(ids.includes('F6') && ids.includes('F11'));
  });

  it('P5: a representation the target did not advertise, and was not asked for, is a warning', () => {
    const compact = frame({ representation: 'compact' });
    const f = checkReply(frames([compact]), { advertised: ['full'] }).findings.filter((x) => x.id === 'P5');
    assert.equal(f.length, 1);
    assert.equal(f[0]!.severity, 'warning');
  });

  it('S6.1-as-of: a frame whose valid_to precedes the pin is a warning', () => {
    const old = frame({ valid_from: '2026-01-01T00:00:00Z', valid_to: '2026-06-30T23:59:59Z' });
    const f = checkReply(frames([old]), { query: { as_of: '2026-07-01T00:00:00Z', max_frames: 8, max_tokens: 100 } }).findings;
    assert.ok(f.some((x) => x.id === 'S6.1-as-of' && x.severity === 'warning' && /valid_to/.test(x.message)));
  });

  it('C3: egress false on a non-loopback HTTP target is a warning; on stdio it is not', () => {
    const ack = { type: 'handshake_ack', provider: { name: 'p', version: '1', data_flow: { reads: true, writes: false, egress: false } }, capabilities: { query: {} } };
    const remote = checkAckExtras(ack, { kind: 'http', url: 'https://provider.example/', label: 'x', bundled: false });
    assert.ok(remote.findings.some((f) => f.id === 'C3'));
    const local = checkAckExtras(ack, { kind: 'stdio', command: 'x', args: [], label: 'x', bundled: false });
    assert.equal(local.findings.length, 0);
    assert.equal(local.witnesses.C3, 1);
  });

  it('G4 predicate: zero hops (own uri) or one hop (a relation target)', () => {
    assert.equal(isAnchoredBy({ uri: 'a' }, ['a']), true);
    assert.equal(isAnchoredBy({ uri: 'b', relations: [{ target_uri: 'a' }] }, ['a']), true);
    assert.equal(isAnchoredBy({ uri: 'b', relations: [{ target_uri: 'c' }] }, ['a']), false);
  });

  it('an altered digest stays well-formed and differs', () => {
    const d = sha256Digest('x');
    const a = alteredDigest(d);
    assert.notEqual(a, d);
    assert.match(a, /^sha256:[0-9a-f]{64}$/);
  });
});

describe('H3 judgement', () => {
  it('accepts only a prompt error incompatible_version', () => {
    const ok = judgeForeign({ version: 'contextgraph/2.0', reply: { type: 'error', code: 'incompatible_version', message: 'no' }, elapsedMs: 3 }, 1000);
    assert.deepEqual(ok.findings, []);
    const hang = judgeForeign({ version: 'contextgraph/2.0', error: new TimeoutError('handshake', 1000), elapsedMs: 1000 }, 1000);
    assert.match(hang.findings[0]!.message, /^H3 violated: .*left to hang/);
    const code = judgeForeign({ version: 'contextgraph/2.0', reply: { type: 'error', code: 'bad_request', message: 'no' }, elapsedMs: 3 }, 1000);
    assert.equal(code.findings[0]!.id, 'H3');
    const ack = judgeForeign({ version: 'contextgraph/2.0', reply: { type: 'handshake_ack', protocol_version: 'contextgraph/1.0' }, elapsedMs: 3 }, 1000);
    assert.match(ack.findings.find((f) => f.id === 'H3')!.message, /acknowledged/);
    // the ack is not in the 2.0 host's family: H1 as well
    assert.match(ack.findings.find((f) => f.id === 'H1')!.message, /contextgraph\/1\.0.*host's family contextgraph\/2/);
    // an in-family 2.x ack to a 2.0 handshake satisfies H1 (H3 still fails: this provider is contextgraph/1)
    const inFamily = judgeForeign({ version: 'contextgraph/2.0', reply: { type: 'handshake_ack', protocol_version: 'contextgraph/2.0' }, elapsedMs: 3 }, 1000);
    assert.equal(
      inFamily.findings.some((f) => f.id === 'H1'),
      false,
    );
    assert.equal(
      inFamily.findings.some((f) => f.id === 'H3'),
      true,
    );
  });
});

describe('capability applicability', () => {
  const config = resolveSuiteConfig({ env: { CGP_PROVIDER: 'x' } }) as SuiteConfig;

  it('an undeclared need is not applicable, with the reason', () => {
    const a = applicability(needsOf(['@provider', '@V2', '@needs-verify']), config, { capabilities: { query: {} } });
    assert.deepEqual(a, { applicable: false, reason: '@needs-verify: the target does not declare capabilities.verify' });
    assert.deepEqual(applicability(needsOf(['@needs-verify']), config, { capabilities: { verify: true } }), { applicable: true });
  });

  it('without an ack, ack-based needs are not excused (the scenario runs and fails on the handshake)', () => {
    assert.deepEqual(applicability(needsOf(['@needs-graph']), config, undefined), { applicable: true });
    assert.equal(applicability(needsOf(['@needs-http']), config, undefined).applicable, false);
  });

  it('an unknown capability tag is a harness error', () => {
    assert.throws(() => needsOf(['@needs-telepathy']), /harness error.*unknown capability tag @needs-telepathy/);
  });
});
