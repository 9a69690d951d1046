import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkFrame } from '../../src/protocol/frame-checks.js';
import { assertFindings, compactFrame, type Expected, fullFrame, HEX64, type Json, referenceFrame, without } from './helpers.js';

const P = '/result/frames/3';
const err = (id: string, at = ''): Expected => ({ id, severity: 'error', pointer: P + at });
const warn = (id: string, at = ''): Expected => ({ id, severity: 'warning', pointer: P + at });

const rows: Array<[string, unknown, Expected[]]> = [
  // Good frames pass every check.
  ['good full frame', fullFrame(), []],
  ['good compact frame', compactFrame(), []],
  ['good reference frame', referenceFrame(), []],
  ['explicit representation "full"', fullFrame({ representation: 'full' }), []],
  ['minimal full frame', { id: 'm', kind: 'doc', title: 't', content: 'abcde', score: 0, token_cost: 2, citation_label: 'c' }, []],
  ['score 1 and 0 are in range', fullFrame({ score: 1 }), []],
  ['U2: unknown kind is opaque evidence', fullFrame({ kind: 'image' }), []],
  ['U1: unknown members are ignored', fullFrame({ future_field: { x: 1 } }), []],
  ['null optional timestamps and digest', fullFrame({ valid_to: null, content_digest: null }), []],
  ['non-file provenance needs no digest', fullFrame({ provenance: [{ type: 'episode' }] }), []],
  ['unknown dotted rel is left alone', fullFrame({ relations: [{ rel: 'myindex.owns', target_uri: 'urn:x', display_name: 'x' }] }), []],
  ['namespaced rel', fullFrame({ relations: [{ rel: 'acme:owns', target_uri: 'urn:x', display_name: 'x' }] }), []],

  // F1
  ['F1: score 1.5', fullFrame({ score: 1.5 }), [err('F1', '/score')]],
  ['F1: score -0.01', fullFrame({ score: -0.01 }), [err('F1', '/score')]],
  ['F1: score as a string', fullFrame({ score: '0.5' }), [err('F1', '/score')]],
  ['F1: score absent', without(fullFrame(), 'score'), [err('F1', '/score')]],
  // F2
  ['F2: empty title', fullFrame({ title: '' }), [err('F2', '/title')]],
  ['F2: blank title', fullFrame({ title: ' \t\n' }), [err('F2', '/title')]],
  ['F2: title absent', without(fullFrame(), 'title'), [err('F2', '/title')]],
  // F3
  ['F3: citation_label absent', without(fullFrame(), 'citation_label'), [err('F3', '/citation_label')]],
  ['F3: citation_label blank', fullFrame({ citation_label: ' \t ' }), [err('F3', '/citation_label')]],
  ['F3: citation_label null', fullFrame({ citation_label: null }), [err('F3', '/citation_label')]],
  ['F3: citation_label empty', fullFrame({ citation_label: '' }), [err('F3', '/citation_label')]],
  // F4
  ['F4: valid_from prose', fullFrame({ valid_from: 'last tuesday' }), [err('F4', '/valid_from')]],
  ['F4: valid_to not a calendar date', fullFrame({ valid_to: '2026-02-30T00:00:00Z' }), [err('F4', '/valid_to')]],
  ['F4: recorded_at with offset', fullFrame({ recorded_at: '2026-07-20T18:00:00+00:00' }), [err('F4', '/recorded_at')]],
  ['F4: recorded_at a number', fullFrame({ recorded_at: 1721498400 }), [err('F4', '/recorded_at')]],
  // F5
  ['F5: short file digest', fullFrame({ provenance: [{ type: 'file', uri: 'file:///a', digest: 'sha256:abc' }] }), [err('F5', '/provenance/0/digest')]],
  ['F5: uppercase file digest', fullFrame({ provenance: [{ type: 'episode' }, { type: 'file', digest: HEX64('A') }] }), [err('F5', '/provenance/1/digest')]],
  ['F5: file provenance without digest', fullFrame({ provenance: [{ type: 'file', uri: 'file:///a' }] }), [err('F5', '/provenance/0/digest')]],
  ['provenance not an array', fullFrame({ provenance: {} }), [err('S2-wire-shape', '/provenance')]],
  // D1 and S6.3
  ['D1: short content_digest (never S6.3)', fullFrame({ content_digest: 'sha256:9f2c3e7a1b' }), [err('D1', '/content_digest')]],
  ['D1: uppercase content_digest', fullFrame({ content_digest: HEX64('F') }), [err('D1', '/content_digest')]],
  ['D1: content_digest not a string', fullFrame({ content_digest: 12 }), [err('D1', '/content_digest')]],
  ['S6.3: well-formed digest of other bytes is a warning', fullFrame({ content_digest: HEX64('a') }), [warn('S6.3-content-digest', '/content_digest')]],
  ['S6.3: compact digest of other bytes', compactFrame({ content_digest: HEX64('b') }), [warn('S6.3-content-digest', '/content_digest')]],
  // P1
  ['P1: full frame without content', without(fullFrame({ token_cost: 0 }), 'content', 'content_digest'), [err('P1')]],
  ['P1: full frame with content_ref', fullFrame({ content_ref: { provider_id: 'p', uri: 'u' } }), [err('P1', '/content_ref')]],
  [
    'P1: explicit full with transform and canonical_content_hash',
    fullFrame({ representation: 'full', transform: {}, canonical_content_hash: HEX64('c') }),
    [err('P1', '/transform'), err('P1', '/canonical_content_hash')],
  ],
  ['P1: content not a string', fullFrame({ content: 42, content_digest: null, token_cost: 0 }), [err('P1'), err('S2-wire-shape', '/content')]],
  // P2
  ['P2: compact without transform', without(compactFrame(), 'transform'), [err('P2')]],
  ['P2: compact without content_digest and content_ref (one finding)', without(compactFrame(), 'content_digest', 'content_ref'), [err('P2')]],
  ['P2: compact without content', without(compactFrame({ token_cost: 0, content_digest: HEX64('1') }), 'content'), [err('P2')]],
  // P3
  ['P3: reference with content "" (not even empty)', referenceFrame({ content: '' }), [err('P3', '/content')]],
  ['P3: reference with content_digest', referenceFrame({ content_digest: HEX64('1') }), [err('P3', '/content_digest')]],
  ['P3: reference with content_digest null (key present)', referenceFrame({ content_digest: null }), [err('P3', '/content_digest')]],
  ['P3: reference with transform', referenceFrame({ transform: { method: 'm', implementation: 'i', version: '1' } }), [err('P3', '/transform')]],
  ['P3: reference without canonical_content_hash', without(referenceFrame(), 'canonical_content_hash'), [err('P3')]],
  ['P3: reference without content_ref', without(referenceFrame(), 'content_ref'), [err('P3')]],
  // P4 (reference cost is P4, not B3)
  ['P4: reference with token_cost 12', referenceFrame({ token_cost: 12 }), [err('P4', '/token_cost')]],
  ['P4: reference with content and its honest cost', referenceFrame({ content: 'abcdefgh', token_cost: 2 }), [err('P3', '/content'), err('P4', '/token_cost')]],
  // B3
  ['B3: under-reported cost', fullFrame({ token_cost: 1 }), [err('B3', '/token_cost')]],
  ['B3: over-reported cost', fullFrame({ token_cost: 99999 }), [err('B3', '/token_cost')]],
  ['B3: cost as a string', fullFrame({ token_cost: '18' }), [err('B3', '/token_cost')]],
  ['B3: cost absent', without(fullFrame(), 'token_cost'), [err('B3', '/token_cost')]],
  ['B3/P4: compact declares its full-source cost', compactFrame({ token_cost: 512 }), [err('B3', '/token_cost')]],
  // G1, G2, U3
  ['G1: relation without display_name', fullFrame({ relations: [{ rel: 'code.calls', target_uri: 'urn:x' }] }), [err('G1', '/relations/0/display_name')]],
  ['G1: blank display_name', fullFrame({ relations: [{ rel: 'code.calls', target_uri: 'urn:x', display_name: '  ' }] }), [err('G1', '/relations/0/display_name')]],
  ['G2: empty target_uri', fullFrame({ relations: [{ rel: 'code.calls', target_uri: '', display_name: 'x' }] }), [err('G2', '/relations/0/target_uri')]],
  ['G2: target_uri with a space', fullFrame({ relations: [{ rel: 'code.calls', target_uri: 'file:///a b', display_name: 'x' }] }), [err('G2', '/relations/0/target_uri')]],
  ['G2: target_uri absent', fullFrame({ relations: [{ rel: 'code.calls', display_name: 'x' }] }), [err('G2', '/relations/0/target_uri')]],
  ['U3: rel with an empty name side', fullFrame({ relations: [{ rel: 'acme:', target_uri: 'urn:x', display_name: 'x' }] }), [err('U3', '/relations/0/rel')]],
  ['relations not an array', fullFrame({ relations: 'x' }), [err('S2-wire-shape', '/relations')]],
  ['relation not an object', fullFrame({ relations: ['x'] }), [err('S2-wire-shape', '/relations/0')]],
  // F6
  ['F6: attestation inside the frame', fullFrame({ attestation: { signed_commitment: HEX64('1') } }), [err('F6', '/attestation')]],
  ['F6: attestations inside the frame', fullFrame({ attestations: [] }), [err('F6', '/attestations')]],
  // Representation vocabulary
  ['unknown representation (closed vocabulary); P1–P4 skipped', fullFrame({ representation: 'summary', content_ref: {} }), [err('S2-wire-shape', '/representation')]],
  // Not an object
  ['frame is an array', [], [err('S2-wire-shape')]],
  ['frame is null', null, [err('S2-wire-shape')]],
];

for (const [name, frame, expected] of rows) {
  test(`checkFrame — ${name}`, () => assertFindings(checkFrame(frame, P), expected));
}

test('B3 message says declared vs required (docs/architecture.md "Failure messages")', () => {
  const [f] = checkFrame(fullFrame({ id: 'frm_x', content: 'x'.repeat(108), content_digest: null, token_cost: 1 }), '');
  assert.equal(f?.message, 'B3 violated: frame "frm_x" declares token_cost 1, content is 108 bytes → ceil(108/4) = 27');
  assert.equal(f?.pointer, '/token_cost');
});

test('messages name the frame and the seen value', () => {
  const [f1] = checkFrame(fullFrame({ score: 1.5 }), '');
  assert.match(f1!.message, /^F1 violated: frame "frm_full" has score 1\.5; required a number in \[0, 1\]$/);
  const [d1] = checkFrame(fullFrame({ content_digest: 'sha256:abc' }), '');
  assert.match(d1!.message, /"sha256:abc"/);
  const [s63] = checkFrame(fullFrame({ content_digest: HEX64('a') }), '');
  assert.match(s63!.message, /^S6\.3-content-digest warning: .*sha256:a{64}.*sha256:[0-9a-f]{64}/);
});

test('pointer tokens are RFC 6901-escaped and an id-less frame is named by pointer', () => {
  const frame: Json = without(fullFrame({ score: 2 }), 'id');
  const [f] = checkFrame(frame, '/a~1b');
  assert.equal(f?.pointer, '/a~1b/score');
  assert.match(f!.message, /frame at \/a~1b/);
});

test('checkFrame never throws on hostile input', () => {
  for (const v of [undefined, 0, 'x', true, { provenance: [null, 1, 'x'] }, { relations: [null] }, { representation: 7 }, Object.create(null)]) {
    assert.doesNotThrow(() => checkFrame(v, ''));
  }
});
