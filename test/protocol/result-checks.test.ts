import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkResult } from '../../src/protocol/result-checks.js';
import { assertFindings, compactFrame, type Expected, fullFrame, HEX64, type Json, referenceFrame } from './helpers.js';

const R = '/result';
const err = (id: string, at = ''): Expected => ({ id, severity: 'error', pointer: R + at });
const warn = (id: string, at = ''): Expected => ({ id, severity: 'warning', pointer: R + at });

const a = fullFrame({ id: 'a' });
const b = compactFrame({ id: 'b' });
const c = referenceFrame({ id: 'c' });
const cost = (f: Json) => f.token_cost as number;
const total = cost(a) + cost(b) + cost(c);
const query = { goal: 'g', kinds: [], max_frames: 3, max_tokens: total };
const result = (over: Json = {}): Json => ({ frames: [a, b, c], truncated: false, ...over });

const commitment = { signed_commitment: HEX64('e'), key_id: 'k', algorithm: 'ed25519', attester_id: 'p', signature: 'ab'.repeat(64), issued_at: '2026-08-29T12:00:00Z' };
const idOf = (f: Json, provider = 'docs') => ({ provider_id: provider, frame_id: f.id, content_digest: f.content_digest });
const noDigest = fullFrame({ id: 'nd', content_digest: null });

const rows: Array<[string, unknown, unknown, string | undefined, Expected[]]> = [
  ['good result, budget exactly met (B1 boundary)', result(), query, 'docs', []],
  ['good result without a query', result(), undefined, undefined, []],
  ['zero frames pass', { frames: [], truncated: true }, { max_frames: 0, max_tokens: 0 }, undefined, []],
  ['frame findings carry the frame pointer', result({ frames: [a, fullFrame({ id: 'x', score: 7 })] }), query, undefined, [err('F1', '/frames/1/score')]],
  ['result not an object', [], query, undefined, [{ id: 'S2-wire-shape', severity: 'error', pointer: R }]],
  ['frames absent', { truncated: false }, query, undefined, [err('S2-wire-shape', '/frames')]],
  ['truncated absent', { frames: [] }, query, undefined, [err('S2-wire-shape', '/truncated')]],
  ['truncated not a boolean', { frames: [], truncated: 'no' }, query, undefined, [err('S2-wire-shape', '/truncated')]],
  // B1, B4
  ['B1: sum over max_tokens by one', result(), { ...query, max_tokens: total - 1 }, undefined, [err('B1', '/frames')]],
  ['B4: more frames than max_frames', result(), { ...query, max_frames: 2 }, undefined, [err('B4', '/frames')]],
  ['B4: max_frames 0 with one frame', result({ frames: [a] }), { max_frames: 0, max_tokens: 100 }, undefined, [err('B4', '/frames')]],
  // Q1
  ['Q1: kind outside a non-empty filter', result(), { ...query, kinds: ['snippet', 'doc'] }, undefined, []],
  ['Q1: doc frames for a snippet-only query', result({ frames: [a, fullFrame({ id: 's', kind: 'snippet' })] }), { ...query, kinds: ['snippet'] }, undefined, [err('Q1', '/frames/0/kind')]],
  ['Q1: empty kinds means any kind', result({ frames: [fullFrame({ kind: 'image' })] }), { ...query, kinds: [] }, undefined, []],
  // S6.1-as-of
  [
    'S6.1-as-of: valid_from after as_of is a warning',
    result({ frames: [fullFrame({ valid_from: '2026-02-01T00:00:00Z' })] }),
    { ...query, as_of: '2026-01-01T00:00:00Z' },
    undefined,
    [warn('S6.1-as-of', '/frames/0/valid_from')],
  ],
  ['S6.1-as-of: valid_from equal to as_of is fine', result({ frames: [fullFrame({ valid_from: '2026-01-01T00:00:00.000Z' })] }), { ...query, as_of: '2026-01-01T00:00:00Z' }, undefined, []],
  [
    'S6.1-as-of: fraction compared chronologically',
    result({ frames: [fullFrame({ valid_from: '2026-01-01T00:00:00.5Z' })] }),
    { ...query, as_of: '2026-01-01T00:00:00Z' },
    undefined,
    [warn('S6.1-as-of', '/frames/0/valid_from')],
  ],
  // F11
  [
    'F11: entries naming carried frames by full identity',
    result({
      frames: [a, b, noDigest],
      frame_attestations: [
        { frame: idOf(a), attestation: commitment },
        { frame: idOf(b), inclusion_proof: { leaf_index: 1, leaf_count: 3, path: [] } },
        { frame: { provider_id: 'docs', frame_id: 'nd' } },
      ],
    }),
    undefined,
    'docs',
    [],
  ],
  ['F11: entry with neither member asserts nothing (no finding)', result({ frame_attestations: [{ frame: idOf(a) }] }), undefined, 'docs', []],
  [
    'F11: names a frame the result does not carry',
    result({ frame_attestations: [{ frame: { ...idOf(a), frame_id: 'zzz' }, attestation: commitment }] }),
    undefined,
    'docs',
    [err('F11', '/frame_attestations/0/frame/frame_id')],
  ],
  [
    'F11: names the right frame with another digest',
    result({ frame_attestations: [{ frame: { ...idOf(a), content_digest: HEX64('d') } }] }),
    undefined,
    'docs',
    [err('F11', '/frame_attestations/0/frame/content_digest')],
  ],
  [
    'F11: omits the digest of a frame that has one',
    result({ frame_attestations: [{ frame: { provider_id: 'docs', frame_id: 'a' } }] }),
    undefined,
    'docs',
    [err('F11', '/frame_attestations/0/frame/content_digest')],
  ],
  ['F11: names another provider', result({ frame_attestations: [{ frame: idOf(a, 'other') }] }), undefined, 'docs', [err('F11', '/frame_attestations/0/frame/provider_id')]],
  ['F11: provider unknown to the checker ⇒ matched on frame id + digest', result({ frame_attestations: [{ frame: idOf(a, 'other') }] }), undefined, undefined, []],
  ['F11: identity implied by position', result({ frame_attestations: [{ frame: 0, attestation: commitment }] }), undefined, 'docs', [err('F11', '/frame_attestations/0/frame')]],
  [
    'F11: identity without provider_id',
    result({ frame_attestations: [{ frame: { frame_id: 'a', content_digest: a.content_digest } }] }),
    undefined,
    'docs',
    [err('F11', '/frame_attestations/0/frame')],
  ],
  ['frame_attestations not an array', result({ frame_attestations: {} }), undefined, 'docs', [err('S2-wire-shape', '/frame_attestations')]],
  // F7 grammar
  [
    'F7: malformed per-frame signed_commitment',
    result({ frame_attestations: [{ frame: idOf(a), attestation: { ...commitment, signed_commitment: HEX64('E') } }] }),
    undefined,
    'docs',
    [err('F7', '/frame_attestations/0/attestation/signed_commitment')],
  ],
  [
    'F7: malformed result_attestation signed_commitment',
    result({ result_attestation: { ...commitment, signed_commitment: 'sha256:<64 hex>' } }),
    undefined,
    'docs',
    [err('F7', '/result_attestation/signed_commitment')],
  ],
  ['F7: result_attestation well-formed', result({ result_attestation: commitment }), undefined, 'docs', []],
  // F6 reaches through checkFrame
  ['F6: attestation inside a carried frame', result({ frames: [fullFrame({ attestation: commitment })] }), undefined, 'docs', [err('F6', '/frames/0/attestation')]],
];

for (const [name, res, q, providerName, expected] of rows) {
  test(`checkResult — ${name}`, () => {
    const options = providerName === undefined ? {} : { providerName };
    assertFindings(checkResult(res, R, q, options), expected);
  });
}

test('S6.4.1-no-reference-over-transport: a warning only when the result came over a transport', () => {
  assertFindings(checkResult(result(), R, query, { overTransport: true }), [warn('S6.4.1-no-reference-over-transport', '/frames/2/representation')]);
  assertFindings(checkResult(result(), R, query, { overTransport: false }), []);
  assertFindings(checkResult(result(), R, query), []); // in-process MAY use reference
});

test('B1 and B4 messages say seen vs required', () => {
  const [b1] = checkResult(result(), R, { max_tokens: 1 });
  assert.equal(b1?.message, `B1 violated: 3 frames declare token_cost summing to ${total}; the query's max_tokens is 1`);
  const [b4] = checkResult(result(), R, { max_frames: 1 });
  assert.equal(b4?.message, "B4 violated: 3 frames returned; the query's max_frames is 1");
});

test('checkResult never throws on hostile input', () => {
  for (const v of [undefined, null, 'x', { frames: [null, 1] }, { frames: [], frame_attestations: [null, { frame: null }, { attestation: 1 }] }, { frames: [], result_attestation: 'x' }]) {
    assert.doesNotThrow(() => checkResult(v, '', { kinds: ['doc'], max_tokens: 0, max_frames: 0, as_of: '2026-01-01T00:00:00Z' }));
  }
});
