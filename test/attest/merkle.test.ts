import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  allInclusionProofs,
  auditPathShape,
  canonicalOrder,
  compareUtf8,
  emptyRoot,
  inclusionProof,
  leafHash,
  merkleRoot,
  renderDigest,
  resultSetRoot,
  rootFromProof,
  toHex,
  verifyInclusionProof,
  type InclusionProofInput,
} from '../../src/attest/index.js';
import { h, refCommitment, refCompareIds, refFold, refMth, refPath, render } from './reference-impl.js';

const leavesOf = (n: number) => Array.from({ length: n }, (_, i) => h(Buffer.from(String(i))));
const asBytes = (bs: Buffer[]) => bs.map((b) => new Uint8Array(b));

describe('§6.5.3 Merkle tree hash (RFC 6962)', () => {
  it('MTH({}) is the merkle-empty domain hash; MTH({c}) = leaf(c)', () => {
    assert.equal(toHex(emptyRoot()), h(Buffer.from('contextgraph/attest/1/merkle-empty')).toString('hex'));
    assert.equal(toHex(merkleRoot([])), toHex(emptyRoot()));
    const [c] = leavesOf(1);
    assert.equal(toHex(merkleRoot([c!])), h(Buffer.from([0]), c!).toString('hex'));
    assert.equal(toHex(leafHash(c!)), h(Buffer.from([0]), c!).toString('hex'));
  });

  it('bottom-up construction equals the recursive definition for n = 0 … 70 and 1000', () => {
    for (const n of [...Array.from({ length: 71 }, (_, i) => i), 1000]) {
      const cs = leavesOf(n);
      assert.equal(toHex(merkleRoot(asBytes(cs))), refMth(cs).toString('hex'), `n = ${n}`);
    }
  });

  it('is not the duplicate-last-leaf tree: [a,b,c] and [a,b,c,c] have different roots', () => {
    const [a, b, c] = leavesOf(3);
    assert.notEqual(toHex(merkleRoot([a!, b!, c!])), toHex(merkleRoot([a!, b!, c!, c!])));
  });

  it('leaf and node prefixes differ: a 2-leaf root is not the leaf hash of its children concatenated', () => {
    const [a, b] = leavesOf(2);
    const root = toHex(merkleRoot([a!, b!]));
    assert.notEqual(root, h(Buffer.from([0]), a!, b!).toString('hex'));
  });
});

describe('§6.5.3 inclusion proofs (F13)', () => {
  it('every proof equals the RFC 6962 PATH and recomputes the root, n = 1 … 40', () => {
    for (let n = 1; n <= 40; n++) {
      const cs = leavesOf(n);
      const root = merkleRoot(asBytes(cs));
      const all = allInclusionProofs(asBytes(cs));
      for (let i = 0; i < n; i++) {
        const proof = inclusionProof(asBytes(cs), i);
        assert.deepEqual(all[i], proof);
        const expected = refPath(i, cs).map(([sibling, left]) => ({ sibling: render(sibling), sibling_is_left: left }));
        assert.deepEqual(proof, { leaf_index: i, leaf_count: n, path: expected }, `n=${n} i=${i}`);
        assert.deepEqual(
          auditPathShape(i, n),
          expected.map((s) => s.sibling_is_left),
        );
        assert.equal(refFold(cs[i]!, proof.path).toString('hex'), toHex(root));
        assert.ok(verifyInclusionProof(cs[i]!, proof, root));
        assert.ok(verifyInclusionProof(cs[i]!, proof, renderDigest(root), n));
      }
    }
  });

  it('bounds: leaf_count ≥ 1, 0 ≤ leaf_index < leaf_count, integers, path array, well-formed siblings', () => {
    const cs = asBytes(leavesOf(5));
    const root = merkleRoot(cs);
    const good = inclusionProof(cs, 2);
    const bad: unknown[] = [
      null,
      'proof',
      { ...good, leaf_count: 0 },
      { ...good, leaf_count: -5 },
      { ...good, leaf_index: -1 },
      { ...good, leaf_index: 5 },
      { ...good, leaf_index: 2.5 },
      { ...good, leaf_index: '2' },
      { ...good, leaf_count: 5.0000001 },
      { ...good, leaf_count: 2 ** 32 },
      { ...good, leaf_count: Number.NaN },
      { ...good, path: 'x' },
      { ...good, path: good.path.slice(1) },
      { ...good, path: [...good.path, good.path[0]] },
      { ...good, path: good.path.map((s, i) => (i === 0 ? { ...s, sibling: s.sibling.toUpperCase() } : s)) },
      { ...good, path: good.path.map((s, i) => (i === 0 ? { ...s, sibling: s.sibling.slice(7) } : s)) },
      { ...good, path: good.path.map((s, i) => (i === 0 ? { ...s, sibling_is_left: 'true' } : s)) },
      { ...good, path: good.path.map((s, i) => (i === 0 ? null : s)) },
    ];
    assert.ok(verifyInclusionProof(cs[2]!, good, root));
    for (const proof of bad) assert.equal(verifyInclusionProof(cs[2]!, proof, root), false, JSON.stringify(proof));
    assert.equal(verifyInclusionProof(cs[2]!, good, 'sha256:' + toHex(root).toUpperCase()), false);
    assert.equal(verifyInclusionProof(new Uint8Array(31), good, root), false);
    assert.throws(() => inclusionProof(cs, 5), RangeError);
    assert.throws(() => inclusionProof([], 0), RangeError);
  });

  it('a proof replayed at another leaf_index fails even when its hashes would fold (shape check)', () => {
    // n = 2: leaves equal → the sibling is the same hash, so only the shape catches the replay
    const c = leavesOf(1)[0]!;
    const cs = [c, c];
    const root = merkleRoot(cs);
    const proof = inclusionProof(cs, 0);
    assert.ok(verifyInclusionProof(c, proof, root));
    assert.ok(verifyInclusionProof(c, inclusionProof(cs, 1), root));
    assert.equal(verifyInclusionProof(c, { ...proof, leaf_index: 1 }, root), false);
  });

  const proofCase = fc.integer({ min: 1, max: 70 }).chain((n) => fc.record({ n: fc.constant(n), index: fc.nat(n - 1), seed: fc.uint8Array({ minLength: 8, maxLength: 8 }) }));

  const build = (n: number, seed: Uint8Array) => Array.from({ length: n }, (_, i) => new Uint8Array(h(Buffer.from(seed), Buffer.from(String(i)))));

  it('property: every proof of a random set verifies, and fails at any other leaf_index', () => {
    fc.assert(
      fc.property(proofCase, ({ n, index, seed }) => {
        const cs = build(n, seed);
        const root = merkleRoot(cs);
        const proof = inclusionProof(cs, index);
        assert.ok(verifyInclusionProof(cs[index]!, proof, root, n));
        for (let other = 0; other < n; other++) {
          if (other === index) continue;
          assert.equal(verifyInclusionProof(cs[index]!, { ...proof, leaf_index: other }, root), false);
          // the commitment of another leaf does not verify with this proof either
          assert.equal(verifyInclusionProof(cs[other]!, proof, root), false);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('property: fails at any other leaf_count (by shape, or by the expected count the verifier holds)', () => {
    fc.assert(
      fc.property(proofCase, ({ n, index, seed }) => {
        const cs = build(n, seed);
        const root = merkleRoot(cs);
        const proof = inclusionProof(cs, index);
        for (let m = index + 1; m <= n + 70; m++) {
          if (m === n) continue;
          const moved = { ...proof, leaf_count: m };
          assert.equal(verifyInclusionProof(cs[index]!, moved, root, n), false, `n=${n} m=${m}`);
          const sameShape = JSON.stringify(auditPathShape(index, m)) === JSON.stringify(auditPathShape(index, n));
          // An RFC 6962 root does not commit to its size: without an expected count, a count whose
          // audit path has the same shape folds to the same root (documented limitation).
          assert.equal(verifyInclusionProof(cs[index]!, moved, root), sameShape, `n=${n} m=${m}`);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('property: a flipped side or an altered sibling at any step fails', () => {
    fc.assert(
      fc.property(proofCase, fc.nat(255), ({ n, index, seed }, bit) => {
        const cs = build(n, seed);
        const root = merkleRoot(cs);
        const proof = inclusionProof(cs, index);
        proof.path.forEach((step, at) => {
          const flipped: InclusionProofInput = { ...proof, path: proof.path.map((s, i) => (i === at ? { ...s, sibling_is_left: !s.sibling_is_left } : s)) };
          assert.equal(verifyInclusionProof(cs[index]!, flipped, root), false);
          const bytes = Buffer.from(step.sibling.slice(7), 'hex');
          bytes[bit >> 3]! ^= 1 << (bit & 7);
          const altered: InclusionProofInput = { ...proof, path: proof.path.map((s, i) => (i === at ? { ...s, sibling: render(bytes) } : s)) };
          assert.equal(verifyInclusionProof(cs[index]!, altered, root), false);
          assert.equal(rootFromProof(cs[index]!, altered) === undefined, false, 'well-formed, just wrong');
        });
        const otherRoot = merkleRoot(
          build(
            n,
            Uint8Array.from(seed, (x) => x ^ 0xff),
          ),
        );
        assert.equal(verifyInclusionProof(cs[index]!, proof, otherRoot), false);
      }),
      { numRuns: 150 },
    );
  });
});

describe('§6.3 canonical order and the F12 result root', () => {
  it('compares UTF-8 bytes, not UTF-16 code units', () => {
    // U+FF5E (EF BD 9E) sorts before U+1F980 (F0 9F A6 80) in UTF-8; UTF-16 order says the opposite
    assert.ok('\u{1f980}' < '\uff5e');
    assert.ok(compareUtf8('\uff5e', '\u{1f980}') < 0);
    assert.ok(compareUtf8('a', 'ab') < 0);
    assert.equal(compareUtf8('é', 'é'), 0);
  });

  it('orders by provider_id, then frame_id, then content_digest with absent first', () => {
    const d1 = 'sha256:' + '1'.repeat(64);
    const d2 = 'sha256:' + '2'.repeat(64);
    const ids = [
      { provider_id: 'b', frame_id: 'a' },
      { provider_id: 'a', frame_id: 'b', content_digest: d2 },
      { provider_id: 'a', frame_id: 'b', content_digest: d1 },
      { provider_id: 'a', frame_id: 'b' },
      { provider_id: 'a', frame_id: 'b', content_digest: null },
      { provider_id: 'a', frame_id: '\u{1f980}' },
      { provider_id: 'a', frame_id: '\uff5e' },
    ];
    const sorted = canonicalOrder(ids).map((id) => [id.frame_id, id.content_digest ?? null]);
    assert.deepEqual(sorted.slice(0, 4), [
      ['b', null],
      ['b', null],
      ['b', d1],
      ['b', d2],
    ]);
    assert.deepEqual(
      sorted.slice(4, 6).map((x) => x[0]),
      ['\uff5e', '\u{1f980}'],
    );
    assert.equal(canonicalOrder(ids).at(-1)!.provider_id, 'b');
  });

  it('property: canonicalOrder agrees with Buffer.compare of the UTF-8 bytes', () => {
    const s = fc.string({ unit: 'binary', maxLength: 4 });
    const id = fc.record({ provider_id: s, frame_id: s, content_digest: fc.option(s, { nil: undefined }) });
    fc.assert(
      fc.property(fc.array(id, { maxLength: 12 }), (ids) => {
        const mine = canonicalOrder(ids);
        for (let i = 1; i < mine.length; i++) assert.ok(refCompareIds(mine[i - 1]!, mine[i]!) <= 0);
      }),
    );
  });

  it('resultSetRoot = MTH over exactly the given frames in canonical order, independent of input order', () => {
    const frames = [
      { id: 'z', content_digest: 'sha256:' + 'a'.repeat(64), provenance: [] },
      { id: 'a', provenance: [{ type: 'file', uri: 'file:///x' }] },
      { id: '\u{1f980}' },
      { id: '\uff5e' },
      { id: 'a', content_digest: 'sha256:' + 'b'.repeat(64) },
    ];
    const sorted = [...frames].sort((x, y) =>
      refCompareIds({ provider_id: 'p', frame_id: x.id, content_digest: x.content_digest }, { provider_id: 'p', frame_id: y.id, content_digest: y.content_digest }),
    );
    const expected = refMth(sorted.map((f) => refCommitment('p', f))).toString('hex');
    assert.equal(toHex(resultSetRoot('p', frames)), expected);
    assert.equal(toHex(resultSetRoot('p', [...frames].reverse())), expected);
    // F12: a root over a larger candidate set is a different root
    assert.notEqual(toHex(resultSetRoot('p', frames.slice(0, 4))), expected);
    assert.equal(toHex(resultSetRoot('p', [])), toHex(emptyRoot()));
  });
});
