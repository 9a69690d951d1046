import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { chainHead, chainHeads, encodeLink, encOpt, encStr, frameCommitment, genesisHead, parseDigest, renderDigest, toHex, type ProvenanceLinkInput } from '../../src/attest/index.js';
import { refCommitment, refEncode, refHeads, h } from './reference-impl.js';

const hex = (b: Uint8Array) => toHex(b);

describe('§6.5.1 enc_str / enc_opt', () => {
  it('prefixes the UTF-8 byte length as uint32 big-endian', () => {
    assert.equal(hex(encStr('')), '00000000');
    assert.equal(hex(encStr('ab')), '000000026162');
    // é is 2 UTF-8 bytes but 1 UTF-16 unit; 🦀 is 4 bytes but 2 units
    assert.equal(hex(encStr('é')), '00000002c3a9');
    assert.equal(hex(encStr('🦀')), '00000004f09fa680');
    assert.equal(hex(encStr('x'.repeat(256))).slice(0, 8), '00000100');
  });

  it('None is 0x00; Some("") is 0x01 ‖ uint32be(0) — null and "" never collide', () => {
    assert.equal(hex(encOpt(null)), '00');
    assert.equal(hex(encOpt(undefined)), '00');
    assert.equal(hex(encOpt('')), '0100000000');
    assert.equal(hex(encOpt('a')), '010000000161');
  });

  it('refuses strings with no UTF-8 encoding (lone surrogates) instead of replacing them', () => {
    assert.throws(() => encStr('\ud800'), /lone UTF-16 surrogate/);
    assert.throws(() => encStr('a\udc00b'), /lone UTF-16 surrogate/);
    assert.doesNotThrow(() => encStr('\ud83e\udd80'));
    assert.throws(() => encStr(42 as unknown as string), TypeError);
  });
});

describe('§6.5.1 encode(link)', () => {
  it('encodes the six fields in normative order', () => {
    const link = { type: 't', uri: 'u', range: null, digest: 'd', method: undefined, by: 'b' };
    assert.equal(hex(encodeLink(link)), '0000000174' + '010000000175' + '00' + '010000000164' + '00' + '010000000162');
  });

  it('separates uri "ab"/range "c" from uri "a"/range "bc" (the collision §6.5.1 names)', () => {
    const a = encodeLink({ type: 'file', uri: 'ab', range: 'c' });
    const b = encodeLink({ type: 'file', uri: 'a', range: 'bc' });
    assert.notEqual(hex(a), hex(b));
  });

  it('separates uri null from uri "" and treats absent as null', () => {
    assert.notEqual(hex(encodeLink({ type: 'file', uri: null })), hex(encodeLink({ type: 'file', uri: '' })));
    assert.equal(hex(encodeLink({ type: 'file' })), hex(encodeLink({ type: 'file', uri: null, range: null, digest: null, method: null, by: null })));
  });

  it('does not normalise Unicode (NFC and NFD differ)', () => {
    assert.notEqual(hex(encodeLink({ type: 'café' })), hex(encodeLink({ type: 'cafe\u0301' })));
  });

  const opt = (s: fc.Arbitrary<string>) => fc.option(s, { nil: null });
  // A tiny alphabet with multi-byte characters, so equal and near-equal pairs occur often.
  const small = fc.string({ unit: fc.constantFrom('a', 'b', 'é', '🦀', '\u0000'), maxLength: 3 });
  const linkArb = fc.record({ type: small, uri: opt(small), range: opt(small), digest: opt(small), method: opt(small), by: opt(small) });
  const normal = (l: ProvenanceLinkInput) => JSON.stringify([l.type, l.uri ?? null, l.range ?? null, l.digest ?? null, l.method ?? null, l.by ?? null]);

  /** Decoder for the encoding: if it recovers the link, the encoding is injective. */
  function decode(bytes: Uint8Array): ProvenanceLinkInput {
    const view = Buffer.from(bytes);
    let at = 0;
    const str = () => {
      const n = view.readUInt32BE(at);
      const s = view.subarray(at + 4, at + 4 + n).toString('utf8');
      at += 4 + n;
      return s;
    };
    const opt = () => (view[at++] === 0 ? null : str());
    const link = { type: str(), uri: opt(), range: opt(), digest: opt(), method: opt(), by: opt() };
    assert.equal(at, view.length, 'decoder consumed every byte');
    return link;
  }

  it('property: injective — equal encodings iff equal links (absent ≡ null), and decodable', () => {
    fc.assert(
      fc.property(linkArb, linkArb, (a, b) => {
        const ea = hex(encodeLink(a));
        const eb = hex(encodeLink(b));
        assert.equal(ea === eb, normal(a) === normal(b));
        assert.equal(normal(decode(encodeLink(a))), normal(a));
      }),
      { numRuns: 2000 },
    );
  });

  it('property: full Unicode strings round-trip and match the node:crypto reference encoder', () => {
    const any = fc.string({ unit: 'binary', maxLength: 20 });
    const arb = fc.record({ type: any, uri: opt(any), range: opt(any), digest: opt(any), method: opt(any), by: opt(any) });
    fc.assert(
      fc.property(arb, (link) => {
        const bytes = encodeLink(link);
        assert.equal(hex(bytes), refEncode(link).toString('hex'));
        assert.equal(normal(decode(bytes)), normal(link));
      }),
      { numRuns: 500 },
    );
  });
});

describe('§6.5.1 hash chain', () => {
  const links: ProvenanceLinkInput[] = [
    { type: 'file', uri: 'file:///a', digest: renderDigest(new Uint8Array(32)) },
    { type: 'derivation', method: 'summarize' },
    { type: 'review', by: 'alice' },
  ];

  it('empty provenance hashes to the genesis value, not zero', () => {
    const genesis = h(Buffer.from('contextgraph/attest/1/genesis'));
    assert.equal(hex(genesisHead()), genesis.toString('hex'));
    assert.equal(hex(chainHead([])), genesis.toString('hex'));
    assert.equal(hex(chainHead(undefined)), genesis.toString('hex'));
    assert.notEqual(hex(chainHead([])), '0'.repeat(64));
  });

  it('folds source-first and matches the reference chain', () => {
    assert.deepEqual(
      chainHeads(links).map(hex),
      refHeads(links).map((b) => b.toString('hex')),
    );
  });

  it('inserting, removing, reordering or editing a link changes the head', () => {
    const base = hex(chainHead(links));
    const variants = [
      [links[0]!, links[1]!],
      [links[1]!, links[0]!, links[2]!],
      [...links, { type: 'review', by: 'bob' }],
      [links[0]!, { ...links[1]!, method: 'summarise' }, links[2]!],
      [links[0]!, { ...links[1]!, by: '' }, links[2]!],
    ];
    for (const variant of variants) assert.notEqual(hex(chainHead(variant)), base);
  });
});

describe('§6.5.2 frame commitment', () => {
  const frame = { id: 'repo-graph:retry-doc', content_digest: renderDigest(h(Buffer.from('x'))), provenance: [{ type: 'file', uri: 'file:///x' }] };

  it('matches the reference construction, with and without content_digest', () => {
    assert.equal(hex(frameCommitment('repo-graph', frame)), refCommitment('repo-graph', frame).toString('hex'));
    const noDigest = { id: frame.id, provenance: frame.provenance };
    assert.equal(hex(frameCommitment('repo-graph', noDigest)), refCommitment('repo-graph', noDigest).toString('hex'));
    assert.equal(hex(frameCommitment('repo-graph', { ...noDigest, content_digest: null })), hex(frameCommitment('repo-graph', noDigest)));
  });

  it('binds the identity: provider, frame id and digest each change it; other members do not enter', () => {
    const base = hex(frameCommitment('repo-graph', frame));
    assert.notEqual(hex(frameCommitment('cloud-docs', frame)), base);
    assert.notEqual(hex(frameCommitment('repo-graph', { ...frame, id: 'repo-graph:other' })), base);
    assert.notEqual(hex(frameCommitment('repo-graph', { ...frame, content_digest: undefined })), base);
    // F6: an attestation wrongly placed inside the frame is never part of the preimage
    const withJunk = { ...frame, title: 'changed', attestation: { signature: 'ff' } };
    assert.equal(hex(frameCommitment('repo-graph', withJunk)), base);
  });

  it('renders and parses sha256:<64 lowercase hex> strictly (F7)', () => {
    const bytes = h(Buffer.from('abc'));
    const rendered = renderDigest(bytes);
    assert.equal(rendered, 'sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.deepEqual(parseDigest(rendered), new Uint8Array(bytes));
    assert.equal(parseDigest(rendered.toUpperCase()), undefined);
    assert.equal(parseDigest('sha256:' + 'A'.repeat(64)), undefined);
    assert.equal(parseDigest('sha256:' + 'a'.repeat(63)), undefined);
    assert.equal(parseDigest('SHA256:' + 'a'.repeat(64)), undefined);
    assert.equal(parseDigest('a'.repeat(64)), undefined);
    assert.equal(parseDigest(42), undefined);
    assert.throws(() => renderDigest(new Uint8Array(31)), RangeError);
  });
});
