// The extensibility & correlation group of the host suite: its pure checks (each passes on a conformant
// observation and fails, naming its id, on a violating one) and the Host switches its misbehaving variants
// flip (replyRouting for H4, readNamespacedAsBase for U3), driven against the scripted provider.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  checkCorrelationFailureReported,
  checkNamespacedCodeNotBase,
  checkNamespacedScopeNotBase,
  checkRepliesDemultiplexed,
  checkUnknownMembersIgnored,
} from '../../../../src/conformance/host-suite/checks/extensibility.js';
import type { FanOutResult } from '../../../../src/host/fan-out.js';
import { ConsentRequired, CorrelationMismatch, Host, HandshakeFailed, ProviderError, ProviderTimeout } from '../../../../src/host/index.js';
import { HOST_MISBEHAVIOURS } from '../../../../src/conformance/host-suite/variants/manifest.js';
import { EXTENSIBILITY_VARIANTS } from '../../../../src/conformance/host-suite/variants/extensibility.js';
import type { HostPolicies } from '../../../../src/host/host.js';
import { answering, emptyFanOut, SAMPLE_QUERY, SCRIPTED, NODE } from '../../../fixtures/host/helpers.js';

import { errors, failsWith, passes } from '../../../fixtures/host/findings.js';

const handshake = { type: 'handshake', protocol_version: 'contextgraph/1.0' };
const query = (goal = SAMPLE_QUERY.goal) => ({ type: 'query', id: 'q1', query: { ...SAMPLE_QUERY, goal } });
const failing = (routingId: string, error: Error): FanOutResult => ({ ...emptyFanOut(), failures: [{ routingId, name: routingId, error: error as never }] });

describe('host-extensibility checks: U1', () => {
  const seen = { label: 'newer', routingId: 'newer', connectError: undefined, received: [handshake, query()] };
  const expected = { frameIds: ['frm_new'], unknown: ['/result/cursor'] };
  it('passes when the provider was accepted, queried and its frames taken', () => {
    passes(checkUnknownMembersIgnored(['U1', 'S13-interop-validator'], seen, expected, answering('newer', [{ id: 'frm_new' }]), undefined));
  });
  it('fails every id on a refusal at the handshake', () => {
    const fs = checkUnknownMembersIgnored(['U1', 'S13-interop-validator'], { ...seen, routingId: undefined, connectError: new HandshakeFailed('unknown member') }, expected, undefined, undefined);
    assert.deepEqual(
      errors(fs)
        .map((f) => f.id)
        .sort(),
      ['S13-interop-validator', 'U1'],
    );
  });
  it('fails on a rejected reply, and on a missing frame', () => {
    failsWith(checkUnknownMembersIgnored(['U1'], seen, expected, failing('newer', new Error('malformed')), undefined), 'U1');
    failsWith(checkUnknownMembersIgnored(['U1'], seen, expected, answering('newer', [{ id: 'frm_other' }]), undefined), 'U1');
  });
});

describe('host-extensibility checks: U3', () => {
  const seen = { label: 'vendor-busy', routingId: 'vendor-busy', connectError: undefined, received: [handshake, query()] };
  it('a namespaced code reported verbatim and read as internal passes', () => {
    passes(checkNamespacedCodeNotBase(seen, 'acme:unavailable', failing('vendor-busy', new ProviderError('acme:unavailable', 'busy', { routingId: 'vendor-busy' })), undefined));
  });
  it('a namespaced code read as the base code after its colon fails', () => {
    failsWith(checkNamespacedCodeNotBase(seen, 'acme:unavailable', failing('vendor-busy', new ProviderError('unavailable', 'busy', { routingId: 'vendor-busy' })), undefined), 'U3');
  });
  it('a namespaced code sent twice, or not reported, fails', () => {
    const twice = { ...seen, received: [handshake, query(), query()] };
    failsWith(checkNamespacedCodeNotBase(twice, 'acme:unavailable', failing('vendor-busy', new ProviderError('acme:unavailable', 'busy')), undefined), 'U3');
    failsWith(checkNamespacedCodeNotBase(seen, 'acme:unavailable', emptyFanOut(), undefined), 'U3');
  });
  const mirror = { label: 'mirror', routingId: 'mirror', connectError: undefined, received: [handshake] };
  it('a namespaced scope refused by name passes; queried, or refused without its name, fails', () => {
    const refusal = new ConsentRequired('mirror', ['acme:local-only'], false, { routingId: 'mirror' });
    passes(checkNamespacedScopeNotBase(mirror, 'acme:local-only', failing('mirror', refusal), undefined));
    failsWith(checkNamespacedScopeNotBase({ ...mirror, received: [handshake, query()] }, 'acme:local-only', answering('mirror', [{ id: 'frm_one' }]), undefined), 'U3');
    failsWith(checkNamespacedScopeNotBase(mirror, 'acme:local-only', failing('mirror', new Error('refused')), undefined), 'U3');
  });
});

describe('host-extensibility checks: H4', () => {
  const p = { label: 'pipelined', routingId: 'pipelined', received: [handshake, query('a'), query('b')] };
  it('each query answered with the frames of its own goal passes; swapped answers fail', () => {
    const own = (goal: string) => ({ goal, fanOut: answering('pipelined', [{ id: 'frm_one', content: `goal: ${goal}` }]), thrown: undefined });
    passes(checkRepliesDemultiplexed(p, [own('a'), own('b')]));
    const swapped = [
      { goal: 'a', fanOut: answering('pipelined', [{ id: 'frm_one', content: 'goal: b' }]), thrown: undefined },
      { goal: 'b', fanOut: answering('pipelined', [{ id: 'frm_one', content: 'goal: a' }]), thrown: undefined },
    ];
    failsWith(checkRepliesDemultiplexed(p, swapped), 'H4');
  });
  it('only a delivered answer fails: a correlation failure, a timeout (any named failure) or silence passes', () => {
    const who = { label: 'misfiling', routingId: 'misfiling' };
    passes(checkCorrelationFailureReported(who, 'a wrong id', failing('misfiling', new CorrelationMismatch(['q1'], 'q1-x', 'frames', { routingId: 'misfiling' })), undefined));
    failsWith(checkCorrelationFailureReported(who, 'a wrong id', answering('misfiling', [{ id: 'frm_one' }]), undefined), 'H4');
    passes(checkCorrelationFailureReported(who, 'a wrong id', failing('misfiling', new ProviderTimeout('query', 100, { routingId: 'misfiling' })), undefined));
    passes(checkCorrelationFailureReported(who, 'a wrong id', emptyFanOut(), undefined));
  });
});

describe('host switches of the extensibility variants', () => {
  const hosts: Host[] = [];
  after(async () => {
    await Promise.all(hosts.map((h) => h.close()));
  });
  const host = (policies?: HostPolicies) => {
    const h = new Host(policies ? { policies, requestTimeoutMs: 5_000 } : { requestTimeoutMs: 5_000 });
    hosts.push(h);
    return h;
  };
  const provider = (config: Record<string, unknown>): [string, string[]] => [NODE, [SCRIPTED, JSON.stringify(config)]];

  it('every variant is in the manifest', () => {
    for (const v of EXTENSIBILITY_VARIANTS) assert.ok(HOST_MISBEHAVIOURS.includes(v), v.mode);
  });

  for (const idMode of ['wrong', 'omit'] as const) {
    it(`idMode ${idMode}: the honest host reports CorrelationMismatch; replyRouting lockstep/arrival take the reply`, async () => {
      const honest = host();
      await honest.connectStdio(...provider({ correlation: true, idMode }));
      const r = await honest.queryAll(SAMPLE_QUERY);
      assert.equal(r.answers.length, 0);
      assert.ok(r.failures[0]?.error instanceof CorrelationMismatch, String(r.failures[0]?.error));
      for (const replyRouting of ['lockstep', 'arrival'] as const) {
        const bad = host({ replyRouting });
        await bad.connectStdio(...provider({ correlation: true, idMode }));
        const b = await bad.queryAll(SAMPLE_QUERY);
        assert.equal(b.answers.length, 1, `${replyRouting}: ${b.failures.map((f) => f.error.message).join('; ')}`);
      }
    });
  }

  it('out-of-order pipelined replies: by id (honest) each query gets its own; by arrival they are swapped', async () => {
    const run = async (h: Host) => {
      await h.connectStdio(...provider({ correlation: true, concurrent: true, echoGoal: true }));
      const [slow, fast] = await Promise.all([h.queryAll({ ...SAMPLE_QUERY, goal: 'slow delay=300' }), h.queryAll({ ...SAMPLE_QUERY, goal: 'fast delay=0' })]);
      return [slow.answers[0]?.frames[0]?.frame.content, fast.answers[0]?.frames[0]?.frame.content];
    };
    assert.deepEqual(await run(host()), ['goal: slow delay=300', 'goal: fast delay=0']);
    assert.deepEqual(await run(host({ replyRouting: 'arrival' })), ['goal: fast delay=0', 'goal: slow delay=300']);
  });

  it('strictInterop refuses an ack or a reply carrying a member the schema does not define; the honest host ignores it', async () => {
    const ack = { capabilities: { query: { kinds: ['doc'] }, correlation: false, streaming: { chunk_bytes: 4096 } } };
    await host().connectStdio(...provider({ name: 'future', ack }));
    await assert.rejects(host({ strictInterop: true }).connectStdio(...provider({ name: 'future', ack })), HandshakeFailed);
    for (const [policies, answers] of [
      [undefined, 1],
      [{ strictInterop: true }, 0],
    ] as const) {
      const h = host(policies);
      await h.connectStdio(...provider({ name: 'newer', resultExtra: { cursor: 'next' } }));
      assert.equal((await h.queryAll(SAMPLE_QUERY)).answers.length, answers);
    }
  });

  it('readNamespacedAsBase reads acme:unavailable as unavailable and acme:local-only as on-machine', async () => {
    for (const [policies, code, scopes] of [
      [undefined, 'acme:unavailable', ['org-tenant', 'acme:local-only']],
      [{ readNamespacedAsBase: true }, 'unavailable', ['org-tenant']],
    ] as const) {
      const h = host(policies);
      await h.connectStdio(...provider({ name: 'busy', errorCode: 'acme:unavailable' }));
      const r = await h.queryAll(SAMPLE_QUERY);
      const err = r.failures[0]?.error;
      assert.ok(err instanceof ProviderError);
      assert.equal(err.rawCode, code);
      const d = await h.connectStdio(...provider({ name: 'mirror', egress: true, egress_scopes: ['org-tenant', 'acme:local-only'] }));
      assert.deepEqual(d.offMachineScopes, scopes);
    }
  });
});
