import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import * as ed from '@noble/ed25519';
import { checkEd25519Strict, ED25519_L, ED25519_P, publicKeyOf, signEd25519, TEST_ONLY_RFC8032_TEST1, verifyEd25519Strict } from '../../src/attest/index.js';
import { equationHoldsNoble, isCanonicalScalar, signEd25519Noble } from '../../src/attest/ed25519-strict.js';
import { nodeEd25519Verify } from './reference-impl.js';

const WYCHEPROOF = fileURLToPath(new URL('../../../shared/vectors/wycheproof-ed25519_test.json', import.meta.url));

const hexOf = (b: Uint8Array) => Buffer.from(b).toString('hex');
const le32 = (n: bigint) => {
  const out = Buffer.alloc(32);
  for (let i = 0; i < 32; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn);
  return out;
};
const numLE = (b: Uint8Array) => BigInt('0x' + Buffer.from(b).reverse().toString('hex'));
const challenge = (r: Uint8Array, a: Uint8Array, m: Uint8Array) => numLE(createHash('sha512').update(r).update(a).update(m).digest()) % ED25519_L;
const mod = (x: bigint) => ((x % ED25519_L) + ED25519_L) % ED25519_L;
const B = ed.Point.BASE;
const mul = (p: ed.Point, n: bigint) => (mod(n) === 0n ? ed.Point.ZERO : p.multiply(mod(n), false));
const cofactored = (pub: string, msg: Uint8Array, sig: string) => ed.verify(Buffer.from(sig, 'hex'), msg, Buffer.from(pub, 'hex'), { zip215: false });
const zip215 = (pub: string, msg: Uint8Array, sig: string) => ed.verify(Buffer.from(sig, 'hex'), msg, Buffer.from(pub, 'hex'));

/** A fixed secret scalar and its public point, for constructing signatures by hand. */
const secret = ed.utils.getExtendedPublicKey(Buffer.from(TEST_ONLY_RFC8032_TEST1.secret_key, 'hex'));
const a = secret.scalar;
const A = secret.point;

/** The 8 small-order points, typed in; cross-checked below against the torsion subgroup computed from scratch. */
const SMALL_ORDER = [
  '0100000000000000000000000000000000000000000000000000000000000000', // identity (order 1)
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // (0, -1), order 2
  '0000000000000000000000000000000000000000000000000000000000000000', // order 4
  '0000000000000000000000000000000000000000000000000000000000000080', // order 4
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a', // order 8
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa', // order 8
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05', // order 8
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85', // order 8
];

/** A generator of the torsion subgroup: [L]P has P's torsion component, found by trial. */
function torsionGenerator(): ed.Point {
  for (let y = 2n; ; y++) {
    let p: ed.Point;
    try {
      p = ed.Point.fromBytes(le32(y), true);
    } catch {
      continue;
    }
    const t = p.multiply(ED25519_L - 1n, false).add(p);
    if (!t.multiply(4n, false).is0()) return t;
  }
}
const T8 = torsionGenerator();

describe('Wycheproof EdDSA (Ed25519) vectors, strict', () => {
  it('agrees with every result: valid ⇒ true; invalid and acceptable ⇒ false', (t) => {
    if (!existsSync(WYCHEPROOF)) {
      t.skip(`external vectors not run: ${WYCHEPROOF} is absent`);
      return;
    }
    const data = JSON.parse(readFileSync(WYCHEPROOF, 'utf8')) as {
      numberOfTests: number;
      testGroups: { publicKey: { pk: string }; tests: { tcId: number; msg: string; sig: string; result: string; flags: string[] }[] }[];
    };
    let agreed = 0;
    const disagreements: string[] = [];
    for (const group of data.testGroups) {
      for (const test of group.tests) {
        const expected = test.result === 'valid';
        const got = verifyEd25519Strict(group.publicKey.pk, Buffer.from(test.msg, 'hex'), test.sig);
        if (got === expected) agreed++;
        else disagreements.push(`tcId ${test.tcId} (${test.result}, ${test.flags.join(',')}): got ${got}`);
      }
    }
    t.diagnostic(`Wycheproof ed25519: ${agreed}/${data.numberOfTests} agree`);
    assert.deepEqual(disagreements, []);
    assert.equal(agreed, data.numberOfTests);
    assert.equal(agreed, 151);
  });
});

describe('RFC 8032 §7.1 test vectors (published figures)', () => {
  const vectors = [
    {
      name: 'TEST 1',
      secret: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
      public: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
      message: '',
      signature: 'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
    },
    {
      name: 'TEST 2',
      secret: '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb',
      public: '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
      message: '72',
      signature: '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
    },
    {
      name: 'TEST 3',
      secret: 'c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7',
      public: 'fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025',
      message: 'af82',
      signature: '6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a',
    },
  ];
  for (const v of vectors) {
    it(`${v.name}: public key, signature byte-exact, and strict verify`, () => {
      const message = Buffer.from(v.message, 'hex');
      assert.equal(publicKeyOf(v.secret), v.public);
      assert.equal(signEd25519(v.secret, message), v.signature);
      assert.ok(verifyEd25519Strict(v.public, message, v.signature));
      assert.ok(nodeEd25519Verify(v.public, message, v.signature), 'node:crypto agrees');
      assert.equal(verifyEd25519Strict(v.public, Buffer.concat([message, Buffer.from([0])]), v.signature), false);
    });
  }

  it('the TEST-ONLY fixture key is RFC 8032 TEST 1', () => {
    assert.equal(TEST_ONLY_RFC8032_TEST1.secret_key, vectors[0]!.secret);
    assert.equal(TEST_ONLY_RFC8032_TEST1.public_key, vectors[0]!.public);
    assert.match(TEST_ONLY_RFC8032_TEST1.note, /TEST-ONLY/);
  });
});

describe('strict Ed25519 edge cases (own vectors)', () => {
  const msg = Buffer.from('contextgraph strict ed25519');
  const goodSig = signEd25519(TEST_ONLY_RFC8032_TEST1.secret_key, msg);
  const pub = TEST_ONLY_RFC8032_TEST1.public_key;

  it('the 8 small-order encodings are exactly the torsion subgroup', () => {
    const computed = Array.from({ length: 8 }, (_, i) => hexOf((i === 0 ? ed.Point.ZERO : T8.multiply(BigInt(i), false)).toBytes()));
    assert.deepEqual([...computed].sort(), [...SMALL_ORDER].sort());
  });

  it('rejects each small-order A — even where the cofactorless equation holds', () => {
    for (const encoding of SMALL_ORDER) {
      const T = ed.Point.fromBytes(Buffer.from(encoding, 'hex'), true);
      // R = rB, S = r satisfies [S]B = R + [k]T whenever [k]T = identity: search such a message
      const r = 12345n;
      const R = B.multiply(r, false).toBytes();
      let message: Buffer | undefined;
      for (let i = 0; i < 200 && message === undefined; i++) {
        const m = Buffer.from(`small-order A ${i}`);
        if (mul(T, challenge(R, Buffer.from(encoding, 'hex'), m)).is0()) message = m;
      }
      assert.ok(message, `found a message for ${encoding}`);
      const sig = hexOf(R) + le32(r).toString('hex');
      assert.ok(B.multiply(r, false).equals(ed.Point.fromBytes(R).add(mul(T, challenge(R, Buffer.from(encoding, 'hex'), message)))), 'equation holds');
      assert.deepEqual(checkEd25519Strict(encoding, message, sig), { ok: false, reason: 'small-order-public-key' }, encoding);
    }
    // The classic: A = identity, R = identity, S = 0 "verifies" any message under ZIP-215
    const identity = SMALL_ORDER[0]!;
    const forged = identity + '00'.repeat(32);
    assert.equal(zip215(identity, msg, forged), true, 'noble default (ZIP-215) accepts the forgery');
    assert.equal(verifyEd25519Strict(identity, msg, forged), false);
  });

  it('rejects each small-order R — including R = identity with an equation that holds', () => {
    for (const encoding of SMALL_ORDER) {
      const sig = encoding + goodSig.slice(64);
      assert.deepEqual(checkEd25519Strict(pub, msg, sig), { ok: false, reason: 'small-order-r' }, encoding);
    }
    // R = identity, S = k·a: [S]B = [k]A = R + [k]A holds exactly
    const R = Buffer.from(SMALL_ORDER[0]!, 'hex');
    const S = mod(challenge(R, Buffer.from(pub, 'hex'), msg) * a);
    const sig = SMALL_ORDER[0]! + le32(S).toString('hex');
    assert.equal(cofactored(pub, msg, sig), true, 'noble {zip215:false} accepts a small-order R');
    assert.deepEqual(checkEd25519Strict(pub, msg, sig), { ok: false, reason: 'small-order-r' });
  });

  it('mixed-order A: the cofactored equation passes, the cofactorless one fails → rejected', () => {
    const mixed = A.add(T8);
    const mixedHex = hexOf(mixed.toBytes());
    assert.equal(mixed.isSmallOrder(), false);
    assert.equal(mixed.isTorsionFree(), false);
    const r = 777n;
    const R = B.multiply(r, false).toBytes();
    const signFor = (m: Uint8Array) => hexOf(R) + le32(mod(r + challenge(R, mixed.toBytes(), m) * a)).toString('hex');
    let rejected = 0;
    let accepted = 0;
    for (let i = 0; i < 64; i++) {
      const m = Buffer.from(`mixed A ${i}`);
      const k = challenge(R, mixed.toBytes(), m);
      const sig = signFor(m);
      assert.equal(cofactored(mixedHex, m, sig), true, 'cofactored verifiers accept every one');
      const ours = checkEd25519Strict(mixedHex, m, sig);
      if (k % 8n === 0n) {
        // [k]T8 = identity: the equation holds exactly; like libsodium and dalek verify_strict we
        // do not reject a key merely for its torsion component (documented decision)
        assert.deepEqual(ours, { ok: true });
        accepted++;
      } else {
        assert.deepEqual(ours, { ok: false, reason: 'equation-failed' });
        rejected++;
      }
    }
    assert.ok(rejected > 0 && accepted > 0, `rejected ${rejected}, accepted ${accepted}`);
  });

  it('mixed-order R: the cofactored equation passes, the cofactorless one fails → rejected', () => {
    const r = 4242n;
    const R = B.multiply(r, false).add(T8).toBytes();
    const S = mod(r + challenge(R, A.toBytes(), msg) * a);
    const sig = hexOf(R) + le32(S).toString('hex');
    assert.equal(cofactored(pub, msg, sig), true);
    assert.deepEqual(checkEd25519Strict(pub, msg, sig), { ok: false, reason: 'equation-failed' });
  });

  it('S = L, S > L (S + L), S = 2²⁵⁶ − 1 are non-canonical; S = L − 1 is in range', () => {
    const R = goodSig.slice(0, 64);
    const S = numLE(Buffer.from(goodSig.slice(64), 'hex'));
    for (const bad of [ED25519_L, S + ED25519_L, ED25519_L + 1n, (1n << 256n) - 1n]) {
      assert.deepEqual(checkEd25519Strict(pub, msg, R + le32(bad).toString('hex')), { ok: false, reason: 'non-canonical-s' });
    }
    assert.equal(isCanonicalScalar(le32(ED25519_L - 1n)), true);
    assert.equal(isCanonicalScalar(le32(ED25519_L)), false);
    assert.equal(isCanonicalScalar(le32(0n)), true);
    // S = L − 1 passes the range check and fails only the equation (no signature with that S is known)
    assert.deepEqual(checkEd25519Strict(pub, msg, R + le32(ED25519_L - 1n).toString('hex')), { ok: false, reason: 'equation-failed' });
    assert.equal(verifyEd25519Strict(pub, msg, goodSig), true);
  });

  it('non-canonical encodings y = p … p + 18 and y = 2²⁵⁵ − 1 (both sign bits) are rejected as A and as R', () => {
    const ys = [...Array.from({ length: 19 }, (_, i) => ED25519_P + BigInt(i)), (1n << 255n) - 1n];
    for (const y of ys) {
      for (const sign of [0, 0x80]) {
        const enc = le32(y);
        enc[31] = enc[31]! | sign;
        const encHex = enc.toString('hex');
        const asA = checkEd25519Strict(encHex, msg, goodSig);
        assert.ok(!asA.ok && ['non-canonical-public-key'].includes(asA.reason), `A ${encHex}: ${JSON.stringify(asA)}`);
        const asR = checkEd25519Strict(pub, msg, encHex + goodSig.slice(64));
        assert.ok(!asR.ok && asR.reason === 'non-canonical-r', `R ${encHex}: ${JSON.stringify(asR)}`);
      }
    }
  });

  it('x = 0 with the sign bit set is non-canonical (RFC 8032 §5.1.3 step 4)', () => {
    for (const encHex of ['0100000000000000000000000000000000000000000000000000000000000080', 'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff']) {
      assert.deepEqual(checkEd25519Strict(encHex, msg, goodSig), { ok: false, reason: 'non-canonical-public-key' });
      assert.deepEqual(checkEd25519Strict(pub, msg, encHex + goodSig.slice(64)), { ok: false, reason: 'non-canonical-r' });
    }
  });

  it('an encoding that is not on the curve is invalid', () => {
    let y = 2n;
    for (; ; y++) {
      try {
        ed.Point.fromBytes(le32(y), true);
      } catch {
        break;
      }
    }
    assert.deepEqual(checkEd25519Strict(le32(y).toString('hex'), msg, goodSig), { ok: false, reason: 'invalid-public-key' });
    assert.deepEqual(checkEd25519Strict(pub, msg, le32(y).toString('hex') + goodSig.slice(64)), { ok: false, reason: 'invalid-r' });
  });

  it('wrong lengths, uppercase, non-hex and non-string input are rejected without throwing', () => {
    const cases: [unknown, unknown, string][] = [
      [pub.toUpperCase(), goodSig, 'malformed-public-key'],
      [pub.slice(2), goodSig, 'malformed-public-key'],
      [pub + '00', goodSig, 'malformed-public-key'],
      ['zz' + pub.slice(2), goodSig, 'malformed-public-key'],
      [undefined, goodSig, 'malformed-public-key'],
      [pub, goodSig.toUpperCase(), 'malformed-signature'],
      [pub, goodSig.slice(0, 126), 'malformed-signature'],
      [pub, goodSig + '00', 'malformed-signature'],
      [pub, 'g' + goodSig.slice(1), 'malformed-signature'],
      [pub, 42, 'malformed-signature'],
    ];
    for (const [key, sig, reason] of cases) assert.deepEqual(checkEd25519Strict(key, msg, sig), { ok: false, reason });
    assert.equal(verifyEd25519Strict(pub, msg, goodSig), true);
  });

  it('signEd25519 / publicKeyOf refuse malformed secret keys', () => {
    assert.throws(() => signEd25519('00', msg), TypeError);
    assert.throws(() => publicKeyOf(TEST_ONLY_RFC8032_TEST1.secret_key.toUpperCase()), TypeError);
  });
});

describe('signing by node crypto = the RFC 8032 signature of noble (oracle)', () => {
  it('gives the same signature bytes for random keys and messages of many lengths, and verifies strictly', () => {
    for (let i = 0; i < 64; i++) {
      const secret = createHash('sha256').update(`signing key ${i}`).digest('hex');
      const m = Buffer.alloc(i * 37 + (i % 3), i); // 0 … ~2.3 kB, including the empty message
      const ours = signEd25519(secret, m);
      assert.equal(ours, signEd25519Noble(secret, m), `key ${i}, ${m.length} bytes`);
      assert.equal(verifyEd25519Strict(publicKeyOf(secret), m, ours), true);
    }
    assert.equal(signEd25519(TEST_ONLY_RFC8032_TEST1.secret_key, new Uint8Array(0)), signEd25519Noble(TEST_ONLY_RFC8032_TEST1.secret_key, new Uint8Array(0)));
  });
});

describe('rule 5 by node crypto = the noble cofactorless equation (oracle)', () => {
  it('agrees on random keys and messages, valid and corrupted signatures, and on every Wycheproof vector that passes rules 1–4', () => {
    let compared = 0;
    for (let i = 0; i < 48; i++) {
      const secret = createHash('sha256').update(`oracle key ${i}`).digest('hex');
      const pk = publicKeyOf(secret);
      const m = Buffer.from(`oracle message ${i}`);
      const good = signEd25519(secret, m);
      // flip one bit of R or of S (kept canonical by clearing the top bits of S)
      const bytes = Buffer.from(good, 'hex');
      bytes[i % 64]! ^= 1 << (i % 7);
      bytes[63]! &= 0x0f;
      for (const sig of [good, bytes.toString('hex')]) {
        const ours = checkEd25519Strict(pk, m, sig);
        if (ours.ok || ours.reason === 'equation-failed') {
          assert.equal(ours.ok, equationHoldsNoble(Buffer.from(pk, 'hex'), Buffer.from(sig, 'hex'), m), `key ${i} ${sig}`);
          compared++;
        }
      }
    }
    if (existsSync(WYCHEPROOF)) {
      const data = JSON.parse(readFileSync(WYCHEPROOF, 'utf8')) as { testGroups: { publicKey: { pk: string }; tests: { msg: string; sig: string }[] }[] };
      for (const group of data.testGroups) {
        for (const test of group.tests) {
          const m = Buffer.from(test.msg, 'hex');
          const ours = checkEd25519Strict(group.publicKey.pk, m, test.sig);
          if (ours.ok || ours.reason === 'equation-failed') {
            assert.equal(ours.ok, equationHoldsNoble(Buffer.from(group.publicKey.pk, 'hex'), Buffer.from(test.sig, 'hex'), m), `${test.sig}`);
            compared++;
          }
        }
      }
    }
    assert.ok(compared >= 60, `${compared} compared`);
  });
});
