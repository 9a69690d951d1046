import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkEnvelope, checkHandshakeAck } from '../../src/protocol/envelope-checks.js';
import { assertFindings, type Expected, fullFrame, HEX64, type Json } from './helpers.js';

const err = (id: string, pointer: string): Expected => ({ id, severity: 'error', pointer });
const warn = (id: string, pointer: string): Expected => ({ id, severity: 'warning', pointer });

function ack(over: { version?: unknown; provider?: Json; dataFlow?: Json; caps?: Json } = {}): Json {
  return {
    type: 'handshake_ack',
    protocol_version: 'version' in over ? over.version : 'contextgraph/1.0',
    provider: {
      name: 'docs',
      version: '1.0.0',
      data_flow: { reads: true, writes: false, egress: false, egress_scopes: ['local-only'], ...over.dataFlow },
      ...over.provider,
    },
    capabilities: {
      query: { kinds: ['doc'] },
      correlation: true,
      embeddings_fingerprint: 'bge-small-en-v1.5/384/l2',
      representations: ['full', 'compact'],
      resolve: true,
      ...over.caps,
    },
  };
}

const id = (digest: unknown = HEX64('1')): Json => ({ provider_id: 'docs', frame_id: 'f1', content_digest: digest });

const rows: Array<[string, unknown, Expected[]]> = [
  // handshake
  ['handshake, good', { type: 'handshake', protocol_version: 'contextgraph/1.0' }, []],
  ['handshake, draft', { type: 'handshake', protocol_version: 'contextgraph/1.0-draft' }, []],
  ['handshake, version outside the grammar', { type: 'handshake', protocol_version: 'contextgraph/1' }, [err('S2-wire-shape', '/protocol_version')]],
  // handshake_ack
  ['ack, good', ack(), []],
  ['ack, later minor of the family', ack({ version: 'contextgraph/1.4-draft' }), []],
  ['H1: foreign family', ack({ version: 'contextgraph/2.0' }), [err('H1', '/protocol_version')]],
  ['H1: not a version string', ack({ version: 'contextgraph/1' }), [err('H1', '/protocol_version')]],
  ['H1: version absent', ack({ version: undefined }), [err('H1', '/protocol_version')]],
  ['H2: empty provider name', ack({ provider: { name: '' } }), [err('H2', '/provider/name')]],
  ['H2: blank provider version', ack({ provider: { version: '  ' } }), [err('H2', '/provider/version')]],
  ['H2: name and version absent', ack({ provider: { name: undefined, version: undefined } }), [err('H2', '/provider/name'), err('H2', '/provider/version')]],
  ['C5: off-machine scope with egress false', ack({ dataFlow: { egress_scopes: ['local-only', 'third-party-model'] } }), [err('C5', '/provider/data_flow/egress_scopes/1')]],
  ['C5: unknown custom scope counts as off-machine', ack({ dataFlow: { egress_scopes: ['acme:lan'] } }), [err('C5', '/provider/data_flow/egress_scopes/0')]],
  ['C5: egress true with off-machine scopes is consistent', ack({ dataFlow: { egress: true, egress_scopes: ['org-tenant', 'acme:vector-store'] } }), []],
  ['U3: malformed custom scope (egress true)', ack({ dataFlow: { egress: true, egress_scopes: ['acme:'] } }), [err('U3', '/provider/data_flow/egress_scopes/0')]],
  ['U3 + C5: malformed scope with egress false', ack({ dataFlow: { egress_scopes: [':x'] } }), [err('U3', '/provider/data_flow/egress_scopes/0'), err('C5', '/provider/data_flow/egress_scopes/0')]],
  ['U3: unprefixed unknown scope is a warning', ack({ dataFlow: { egress: true, egress_scopes: ['cloud'] } }), [warn('U3', '/provider/data_flow/egress_scopes/0')]],
  ['egress_scopes not an array', ack({ dataFlow: { egress_scopes: 'org-tenant' } }), [err('S2-wire-shape', '/provider/data_flow/egress_scopes')]],
  ['E1: fingerprint without dimensions', ack({ caps: { embeddings_fingerprint: 'bge-small-en-v1.5' } }), [err('E1', '/capabilities/embeddings_fingerprint')]],
  ['E1: null fingerprint is no declaration', ack({ caps: { embeddings_fingerprint: null } }), []],
  ['S6.4.1-resolve-declared: compact without resolve', ack({ caps: { resolve: undefined } }), [err('S6.4.1-resolve-declared', '/capabilities/resolve')]],
  ['S6.4.1-resolve-declared: reference with resolve false', ack({ caps: { representations: ['reference'], resolve: false } }), [err('S6.4.1-resolve-declared', '/capabilities/resolve')]],
  ['full only needs no resolve', ack({ caps: { representations: ['full'], resolve: false } }), []],
  ['provider absent', { ...ack(), provider: undefined }, [err('S2-wire-shape', '/provider')]],
  ['capabilities not an object', { ...ack(), capabilities: [] }, [err('S2-wire-shape', '/capabilities')]],
  // query
  ['query, good', { type: 'query', id: 'q1', query: { goal: 'g', max_frames: 1, max_tokens: 1, as_of: '2026-07-01T00:00:00Z' } }, []],
  ['F4: query as_of with offset', { type: 'query', query: { goal: 'g', max_frames: 1, max_tokens: 1, as_of: '2026-07-01T00:00:00+02:00' } }, [err('F4', '/query/as_of')]],
  ['query without query member', { type: 'query' }, [err('S2-wire-shape', '/query')]],
  // frames (no context: frame checks only)
  ['frames, good', { type: 'frames', id: 'q1', result: { frames: [fullFrame()], truncated: false } }, []],
  ['frames, frame finding pointer', { type: 'frames', result: { frames: [fullFrame({ title: '' })], truncated: false } }, [err('F2', '/result/frames/0/title')]],
  // verify
  ['verify, good', { type: 'verify', request: { frames: [id(), id(HEX64('2'))] } }, []],
  [
    'V1: a frame body in a verify request',
    { type: 'verify', request: { frames: [{ ...id(), content: 'x', title: 't' }] } },
    [err('V1', '/request/frames/0/content'), err('V1', '/request/frames/0/title')],
  ],
  ['V1 (SHOULD): identity without content_digest', { type: 'verify', request: { frames: [{ provider_id: 'docs', frame_id: 'f1' }] } }, [warn('V1', '/request/frames/0')]],
  ['D1: short digest in a verify identity', { type: 'verify', request: { frames: [id('sha256:9f2c3e7a1b')] } }, [err('D1', '/request/frames/0/content_digest')]],
  ['verify identity without frame_id', { type: 'verify', request: { frames: [{ provider_id: 'docs', content_digest: HEX64('1') }] } }, [err('S2-wire-shape', '/request/frames/0/frame_id')]],
  ['verify request absent', { type: 'verify' }, [err('S2-wire-shape', '/request')]],
  // verified
  [
    'verified, good',
    {
      type: 'verified',
      response: {
        verdicts: [
          { frame: id(), status: 'valid' },
          { frame: id(), status: 'stale', replacement_digest: HEX64('3') },
          { frame: id(), status: 'gone' },
          { frame: id(), status: 'unknown' },
        ],
      },
    },
    [],
  ],
  ['V3: status outside the base set', { type: 'verified', response: { verdicts: [{ frame: id(), status: 'fresh' }] } }, [err('V3', '/response/verdicts/0/status')]],
  ['V3: status absent', { type: 'verified', response: { verdicts: [{ frame: id() }] } }, [err('V3', '/response/verdicts/0/status')]],
  [
    'V4: short replacement_digest',
    { type: 'verified', response: { verdicts: [{ frame: id(), status: 'stale', replacement_digest: 'sha256:7d8e9f0a1b' }] } },
    [err('V4', '/response/verdicts/0/replacement_digest')],
  ],
  [
    'V4: a body as replacement',
    { type: 'verified', response: { verdicts: [{ frame: id(), status: 'stale', replacement_digest: 'new content' }] } },
    [err('V4', '/response/verdicts/0/replacement_digest')],
  ],
  ['D1: short digest in a verdict identity', { type: 'verified', response: { verdicts: [{ frame: id('sha256:1a2b'), status: 'valid' }] } }, [err('D1', '/response/verdicts/0/frame/content_digest')]],
  ['verdicts not an array', { type: 'verified', response: { verdicts: {} } }, [err('S2-wire-shape', '/response/verdicts')]],
  // error
  ['error, good', { type: 'error', id: 'q1', code: 'unsupported_kind', message: "this provider serves only 'doc' frames" }, []],
  ['error, X2: no code', { type: 'error', message: 'boom' }, []],
  ['error, namespaced vendor code', { type: 'error', code: 'acme:quota', message: 'over quota' }, []],
  ['S2-wire-shape: empty message', { type: 'error', code: 'internal', message: '' }, [err('S2-wire-shape', '/message')]],
  ['S2-wire-shape: message absent', { type: 'error', code: 'internal' }, [err('S2-wire-shape', '/message')]],
  ['U3: unprefixed unknown code is a warning (X1 applies)', { type: 'error', code: 'quota_exhausted', message: 'm' }, [warn('U3', '/code')]],
  ['U3: malformed namespaced code', { type: 'error', code: 'acme:', message: 'm' }, [err('U3', '/code')]],
  ['error code not a string', { type: 'error', code: 7, message: 'm' }, [err('S2-wire-shape', '/code')]],
  // shutdown, unknown, malformed
  ['shutdown', { type: 'shutdown' }, []],
  ['S2.1-unknown-type: no finding', { type: 'subscribe', topic: 'x' }, []],
  ['type absent', { message: 'x' }, [err('S2-wire-shape', '/type')]],
  ['envelope not an object', [1, 2], [err('S2-wire-shape', '')]],
];

for (const [name, envelope, expected] of rows) {
  test(`checkEnvelope — ${name}`, () => assertFindings(checkEnvelope(envelope), expected));
}

test('checkEnvelope prefixes the given pointer', () => {
  assertFindings(checkEnvelope({ type: 'error', message: '' }, '/7'), [err('S2-wire-shape', '/7/message')]);
});

test('frames context: the query and provider name reach checkResult', () => {
  const frames = { type: 'frames', result: { frames: [fullFrame(), fullFrame({ id: 'two' })], truncated: false, frame_attestations: [{ frame: { provider_id: 'other', frame_id: 'two' } }] } };
  assertFindings(checkEnvelope(frames, '', { query: { max_frames: 1, max_tokens: 1000, kinds: ['doc'] }, providerName: 'docs' }), [
    err('B4', '/result/frames'),
    err('F11', '/result/frame_attestations/0/frame/provider_id'),
  ]);
});

test('frames context: overTransport reaches checkResult', () => {
  const frames = { type: 'frames', result: { frames: [{ ...fullFrame(), representation: 'reference' }], truncated: false } };
  const ids = checkEnvelope(frames, '', { overTransport: true }).map((f) => f.id);
  assert.ok(ids.includes('S6.4.1-no-reference-over-transport'), ids.join());
  assert.ok(!checkEnvelope(frames).some((f) => f.id === 'S6.4.1-no-reference-over-transport'));
});

test('H1 honours the host version and names both families', () => {
  assertFindings(checkHandshakeAck(ack({ version: 'contextgraph/2.1' }), '', { hostVersion: 'contextgraph/2.0' }), []);
  const [f] = checkHandshakeAck(ack({ version: 'contextgraph/2.0' }));
  assert.equal(f?.message, 'H1 violated: handshake_ack protocol_version is "contextgraph/2.0" (family contextgraph/2); required the host\'s family contextgraph/1 (host speaks contextgraph/1.0)');
  assertFindings(checkEnvelope(ack({ version: 'contextgraph/1.0' }), '', { hostVersion: 'contextgraph/2.0' }), [err('H1', '/protocol_version')]);
});

test('checkEnvelope never throws on hostile input', () => {
  const hostile: unknown[] = [
    undefined,
    null,
    0,
    '',
    'x',
    [],
    {},
    { type: null },
    { type: 'handshake_ack', provider: { data_flow: { egress_scopes: [null, 1, {}] } }, capabilities: { representations: 'compact' } },
    { type: 'verify', request: { frames: [null, 1, []] } },
    { type: 'verified', response: { verdicts: [null, { frame: null }] } },
    { type: 'frames', result: null },
    { type: 'query', query: null },
    { type: 'error', message: {}, code: [] },
  ];
  for (const env of hostile) assert.doesNotThrow(() => checkEnvelope(env, '', { query: { max_tokens: 1 } }));
});
