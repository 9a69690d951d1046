import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { compareFrameIds, frameIdKey, frameIdOf, sameFrameId } from '../../src/protocol/identity.js';
import type { FrameId } from '../../generated/types/index.js';
import { compareUtf8 } from '../../src/protocol/utf8-order.js';

const D1 = `sha256:${'1'.repeat(64)}`;
const D2 = `sha256:${'2'.repeat(64)}`;

test('frameIdOf uses the provider name and omits an absent or null digest', () => {
  assert.deepEqual(frameIdOf('repo-graph', { id: 'f1', content_digest: D1 }), { provider_id: 'repo-graph', frame_id: 'f1', content_digest: D1 });
  assert.deepEqual(frameIdOf('repo-graph', { id: 'f1' }), { provider_id: 'repo-graph', frame_id: 'f1' });
  assert.deepEqual(frameIdOf('repo-graph', { id: 'f1', content_digest: null }), { provider_id: 'repo-graph', frame_id: 'f1' });
});

test('frameIdKey is stable, unambiguous, and treats absent and null digests alike', () => {
  const a: FrameId = { provider_id: 'p', frame_id: 'f', content_digest: D1 };
  assert.equal(frameIdKey(a), frameIdKey({ content_digest: D1, frame_id: 'f', provider_id: 'p' }));
  assert.equal(frameIdKey({ provider_id: 'p', frame_id: 'f' }), frameIdKey({ provider_id: 'p', frame_id: 'f', content_digest: null }));
  assert.notEqual(frameIdKey({ provider_id: 'a|b', frame_id: 'c' }), frameIdKey({ provider_id: 'a', frame_id: 'b|c' }));
  assert.notEqual(frameIdKey({ provider_id: 'p', frame_id: 'f' }), frameIdKey(a));
});

test('canonical order: provider_id, then frame_id, then content_digest with absent first', () => {
  const ids: FrameId[] = [
    { provider_id: 'b', frame_id: 'a' },
    { provider_id: 'a', frame_id: 'b', content_digest: D2 },
    { provider_id: 'a', frame_id: 'b', content_digest: D1 },
    { provider_id: 'a', frame_id: 'b' },
    { provider_id: 'a', frame_id: 'a', content_digest: D2 },
  ];
  const sorted = [...ids].sort(compareFrameIds).map(frameIdKey);
  assert.deepEqual(sorted, [
    frameIdKey({ provider_id: 'a', frame_id: 'a', content_digest: D2 }),
    frameIdKey({ provider_id: 'a', frame_id: 'b' }),
    frameIdKey({ provider_id: 'a', frame_id: 'b', content_digest: D1 }),
    frameIdKey({ provider_id: 'a', frame_id: 'b', content_digest: D2 }),
    frameIdKey({ provider_id: 'b', frame_id: 'a' }),
  ]);
  assert.equal(sameFrameId({ provider_id: 'a', frame_id: 'b' }, { provider_id: 'a', frame_id: 'b', content_digest: null }), true);
  assert.equal(sameFrameId({ provider_id: 'a', frame_id: 'b' }, { provider_id: 'a', frame_id: 'b', content_digest: D1 }), false);
});

test('UTF-8 byte order, not UTF-16: an astral character sorts after a BMP private-use character', () => {
  const astral = '\u{1F600}'; // UTF-16 D83D DE00, UTF-8 F0 9F 98 80
  const privateUse = '\uE000'; // UTF-16 E000,      UTF-8 EE 80 80
  assert.ok(astral < privateUse, 'JS default order puts the astral character first');
  assert.equal(compareUtf8(astral, privateUse), 1);
  assert.equal(compareUtf8(privateUse, astral), -1);
  const a: FrameId = { provider_id: 'p', frame_id: astral };
  const b: FrameId = { provider_id: 'p', frame_id: privateUse };
  assert.deepEqual([a, b].sort(compareFrameIds), [b, a]);
  assert.equal(compareFrameIds({ provider_id: astral, frame_id: 'z' }, { provider_id: '\uFFFD', frame_id: 'a' }), 1);
});

const bytes = (s: string) => Buffer.from(s, 'utf8');
const unicode = fc.string({ unit: 'binary', maxLength: 12 });
// Bias toward the characters where UTF-16 and UTF-8 orders disagree.
const tricky = fc.string({
  unit: fc.constantFrom('a', 'z', '\uD7FF', '\uE000', '\uFFFD', '\uFFFF', '\u{10000}', '\u{1F600}', '\u{10FFFF}', 'é'),
  maxLength: 6,
});
const text = fc.oneof(unicode, tricky);

test('property: compareUtf8 agrees with Buffer.compare of the UTF-8 encodings', () => {
  fc.assert(
    fc.property(text, text, (a, b) => Math.sign(compareUtf8(a, b)) === Buffer.compare(bytes(a), bytes(b))),
    { numRuns: 2000 },
  );
});

const frameId = fc.record(
  { provider_id: tricky, frame_id: text, content_digest: fc.option(fc.constantFrom(D1, D2), { nil: undefined }) },
  { requiredKeys: ['provider_id', 'frame_id'] },
) as fc.Arbitrary<FrameId>;

test('property: compareFrameIds is a total order (antisymmetric, transitive, consistent with key equality)', () => {
  fc.assert(
    fc.property(frameId, frameId, frameId, (a, b, c) => {
      const ab = Math.sign(compareFrameIds(a, b));
      if (ab !== -Math.sign(compareFrameIds(b, a))) return false;
      if ((ab === 0) !== (frameIdKey(a) === frameIdKey(b))) return false;
      if (compareFrameIds(a, a) !== 0) return false;
      if (compareFrameIds(a, b) <= 0 && compareFrameIds(b, c) <= 0 && compareFrameIds(a, c) > 0) return false;
      return true;
    }),
    { numRuns: 2000 },
  );
});

test('property: sorting by compareFrameIds equals sorting by UTF-8 bytes of each field', () => {
  const byBytes = (x: FrameId, y: FrameId) =>
    Buffer.compare(bytes(x.provider_id), bytes(y.provider_id)) ||
    Buffer.compare(bytes(x.frame_id), bytes(y.frame_id)) ||
    (x.content_digest == null ? (y.content_digest == null ? 0 : -1) : y.content_digest == null ? 1 : Buffer.compare(bytes(x.content_digest), bytes(y.content_digest)));
  fc.assert(
    fc.property(fc.array(frameId, { maxLength: 20 }), (ids) => {
      const mine = [...ids].sort(compareFrameIds).map(frameIdKey);
      const reference = [...ids].sort(byBytes).map(frameIdKey);
      return JSON.stringify(mine) === JSON.stringify(reference);
    }),
  );
});
