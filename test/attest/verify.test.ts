import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  attestFrame,
  attestResult,
  frameCommitment,
  frameKey,
  isAttested,
  publicKeyOf,
  renderDigest,
  retainProofs,
  resultSetRoot,
  signCommitment,
  TEST_ONLY_RFC8032_TEST1,
  verifyAttestation,
  verifyFrameAttestations,
  verifyInclusionProof,
  verifyResultAttestation,
  withResultAttestations,
  type Attestation,
  type AttesterKeyInput,
  type FrameAttestationEntry,
} from '../../src/attest/index.js';

const PROVIDER = 'repo-graph';
const ISSUED = '2026-08-29T12:00:00Z';
const KEY = { key_id: 'k1', secret_key: TEST_ONLY_RFC8032_TEST1.secret_key };
const OTHER_SECRET = '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb';
const KEYS: AttesterKeyInput[] = [{ key_id: 'k1', algorithm: 'ed25519', public_key: TEST_ONLY_RFC8032_TEST1.public_key }];
const digest = (c: string) => 'sha256:' + c.repeat(64);

const frame = (id: string, d?: string) => ({
  id,
  kind: 'doc',
  title: id,
  score: 0.5,
  token_cost: 1,
  ...(d ? { content_digest: d } : {}),
  provenance: [{ type: 'file', uri: `file:///${id}` }],
});

describe('verifyAttestation: distinct verdicts (§6.5.4)', () => {
  const f = frame('a', digest('1'));
  const good = attestFrame(PROVIDER, f, KEY, ISSUED).attestation!;
  const check = (attestation: unknown, keys = KEYS, fr: typeof f = f) => verifyAttestation({ providerId: PROVIDER, frame: fr, attestation, keys });

  it('attested: commitment matches and the strict signature verifies', () => {
    const result = check(good);
    assert.equal(result.verdict, 'attested');
    assert.equal(result.commitment, renderDigest(frameCommitment(PROVIDER, f)));
    assert.equal(good.signed_commitment, result.commitment);
    assert.equal(check(good, KEYS, { ...f, title: 'retitled' }).verdict, 'attested', 'title is not committed');
    // a precomputed commitment is used as given
    assert.equal(verifyAttestation({ providerId: PROVIDER, frame: f, attestation: good, keys: KEYS, commitment: frameCommitment(PROVIDER, f) }).verdict, 'attested');
  });

  it('unattested: no attestation', () => {
    assert.equal(check(undefined).verdict, 'unattested');
    assert.equal(check(null).verdict, 'unattested');
  });

  it('commitment-mismatch: the frame changed after signing — reported before any signature/key check', () => {
    for (const tampered of [
      { ...f, content_digest: digest('2') },
      { ...f, id: 'b' },
      { ...f, provenance: [] },
      { ...f, provenance: [{ type: 'file', uri: 'file:///elsewhere' }] },
    ]) {
      assert.equal(check(good, KEYS, tampered).verdict, 'commitment-mismatch');
      // even with an unknown key or a garbage signature: tampering is the finding, not the key
      assert.equal(check({ ...good, key_id: 'nope' }, KEYS, tampered).verdict, 'commitment-mismatch');
      assert.equal(check({ ...good, signature: 'zz' }, KEYS, tampered).verdict, 'commitment-mismatch');
    }
    assert.equal(verifyAttestation({ providerId: 'cloud-docs', frame: f, attestation: good, keys: KEYS }).verdict, 'commitment-mismatch');
  });

  it('commitment-mismatch (F7): signed_commitment not sha256:<64 lowercase hex>', () => {
    const upper = check({ ...good, signed_commitment: good.signed_commitment.toUpperCase().replace('SHA256', 'sha256') });
    assert.equal(upper.verdict, 'commitment-mismatch');
    assert.match(upper.reason, /^F7/);
    assert.equal(check({ ...good, signed_commitment: good.signed_commitment.slice(7) }).verdict, 'commitment-mismatch');
  });

  it('bad-signature: matching commitment, signature by another key or altered', () => {
    const forged = { ...good, signature: signCommitment(frameCommitment(PROVIDER, f), { key_id: 'k1', secret_key: OTHER_SECRET }, ISSUED, PROVIDER).signature };
    assert.equal(check(forged).verdict, 'bad-signature');
    const flipped = { ...good, signature: (good.signature[0] === '0' ? '1' : '0') + good.signature.slice(1) };
    assert.equal(check(flipped).verdict, 'bad-signature');
    // a signature over the sha256: string instead of the raw 32 bytes is wrong (docs/interpretations.md §6)
    const overString = signCommitment(new Uint8Array(32), KEY, ISSUED, PROVIDER);
    assert.equal(check({ ...good, signature: overString.signature }).verdict, 'bad-signature');
    // a small-order published key never verifies
    const weak = [{ key_id: 'k1', algorithm: 'ed25519', public_key: '01' + '00'.repeat(31) }];
    const result = check(good, weak);
    assert.equal(result.verdict, 'bad-signature');
    assert.equal(result.signature_rejection, 'small-order-public-key');
  });

  it('unknown-key: key_id not among the published/trusted keys', () => {
    assert.equal(check({ ...good, key_id: 'k2' }).verdict, 'unknown-key');
    assert.equal(check(good, []).verdict, 'unknown-key');
  });

  it('uncheckable (F8): unknown algorithm, foreign-algorithm key, malformed key or signature — never attested', () => {
    const cases: [unknown, AttesterKeyInput[]][] = [
      [{ ...good, algorithm: 'ed448' }, KEYS],
      [{ ...good, algorithm: 'Ed25519' }, KEYS],
      [{ ...good, algorithm: undefined }, KEYS],
      [good, [{ ...KEYS[0]!, algorithm: 'ecdsa-p256' }]],
      [good, [{ ...KEYS[0]!, public_key: KEYS[0]!.public_key.toUpperCase() }]],
      [good, [{ ...KEYS[0]!, public_key: KEYS[0]!.public_key.slice(2) }]],
      [good, [{ ...KEYS[0]!, public_key: Buffer.from(KEYS[0]!.public_key, 'hex').toString('base64') }]],
      [{ ...good, signature: good.signature.slice(2) }, KEYS],
      [{ ...good, signature: good.signature.toUpperCase() }, KEYS],
      [{ ...good, signature: Buffer.from(good.signature, 'hex').toString('base64') }, KEYS],
      [good, [...KEYS, { key_id: 'k1', algorithm: 'ed25519', public_key: publicKeyOf(OTHER_SECRET) }]],
      ['not an object', KEYS],
    ];
    for (const [attestation, keys] of cases) {
      const result = check(attestation, keys);
      assert.equal(result.verdict, 'uncheckable', JSON.stringify(attestation).slice(0, 60));
      assert.equal(isAttested(result.verdict), false);
    }
    assert.match(check({ ...good, algorithm: 'ed448' }).reason, /^F8/);
    // the same key listed twice is not ambiguous
    assert.equal(check(good, [...KEYS, ...KEYS]).verdict, 'attested');
  });

  it('uncheckable: a frame whose commitment cannot be computed (lone surrogate in its id)', () => {
    assert.equal(check(good, KEYS, { ...f, id: '\ud800' }).verdict, 'uncheckable');
  });
});

describe('verifyResultAttestation (F12)', () => {
  const frames = [frame('c', digest('3')), frame('a'), frame('b', digest('2'))];
  const { result_attestation } = attestResult(PROVIDER, frames, KEY, ISSUED);

  it('attests exactly the frames, in any arrival order', () => {
    assert.equal(verifyResultAttestation(PROVIDER, frames, result_attestation, KEYS).verdict, 'attested');
    assert.equal(verifyResultAttestation(PROVIDER, [...frames].reverse(), result_attestation, KEYS).verdict, 'attested');
    assert.equal(result_attestation.signed_commitment, renderDigest(resultSetRoot(PROVIDER, frames)));
  });

  it('a root over a larger candidate set than the frames returned is a mismatch', () => {
    const candidates = [...frames, frame('d')];
    const overCandidates = attestResult(PROVIDER, candidates, KEY, ISSUED).result_attestation;
    assert.equal(verifyResultAttestation(PROVIDER, frames, overCandidates, KEYS).verdict, 'commitment-mismatch');
    assert.equal(verifyResultAttestation(PROVIDER, frames.slice(1), result_attestation, KEYS).verdict, 'commitment-mismatch');
  });

  it('an empty answer signs MTH({})', () => {
    const empty = attestResult(PROVIDER, [], KEY, ISSUED);
    assert.deepEqual(empty.frame_attestations, []);
    assert.equal(verifyResultAttestation(PROVIDER, [], empty.result_attestation, KEYS).verdict, 'attested');
  });
});

describe('verifyFrameAttestations (F9, F11, F13)', () => {
  const frames = [frame('c', digest('3')), frame('a'), frame('b', digest('2')), frame('d', digest('4'))];
  const signed = withResultAttestations(PROVIDER, { frames, truncated: false }, KEY, ISSUED);

  it('a signed result with proofs: every frame attested, no findings', () => {
    const report = verifyFrameAttestations(PROVIDER, signed, KEYS);
    assert.equal(report.result.verdict, 'attested');
    assert.deepEqual(report.findings, []);
    assert.deepEqual(
      report.frames.map((o) => o.verdict),
      ['attested', 'attested', 'attested', 'attested'],
    );
    assert.deepEqual(
      report.frames.map((o) => o.frame.frame_id),
      ['c', 'a', 'b', 'd'],
    );
    assert.deepEqual(
      report.frames.map((o) => o.proofs),
      [['verified'], ['verified'], ['verified'], ['verified']],
    );
    assert.equal(report.byKey.get(frameKey({ provider_id: PROVIDER, frame_id: 'a' }))!.verdict, 'attested');
  });

  it('F6: signing leaves the frames untouched and puts nothing inside them', () => {
    const before = JSON.stringify(frames);
    const out = withResultAttestations(PROVIDER, { frames, truncated: false }, KEY, ISSUED, { perFrame: true });
    assert.equal(JSON.stringify(frames), before);
    assert.equal(out.frames, frames);
    for (const f of out.frames) for (const member of Object.keys(f)) assert.ok(!/attest|signature/.test(member));
    assert.equal(out.frame_attestations!.length, 4);
    assert.ok(out.frame_attestations!.every((e) => e.attestation && e.inclusion_proof));
    assert.deepEqual(
      verifyFrameAttestations(PROVIDER, out, KEYS).frames.map((o) => o.verdict),
      ['attested', 'attested', 'attested', 'attested'],
    );
    // unsigned-per-frame, no proofs: frame_attestations is omitted entirely
    const rootOnly = withResultAttestations(PROVIDER, { frames, truncated: false }, KEY, ISSUED, { proofs: false });
    assert.equal('frame_attestations' in rootOnly, false);
    assert.deepEqual(
      verifyFrameAttestations(PROVIDER, rootOnly, KEYS).frames.map((o) => o.verdict),
      ['attested', 'attested', 'attested', 'attested'],
    );
  });

  it('F11: entries name the full identity; an identity-less or foreign entry is a finding and attests nothing', () => {
    const entries = signed.frame_attestations as FrameAttestationEntry[];
    const positional = { ...signed, frame_attestations: [{ attestation: attestFrame(PROVIDER, frames[0]!, KEY, ISSUED).attestation }], result_attestation: undefined };
    const report = verifyFrameAttestations(PROVIDER, positional, KEYS);
    assert.equal(report.frames[0]!.verdict, 'unattested');
    assert.deepEqual(
      report.findings.map((x) => [x.anchor, x.severity, x.entry]),
      [['F11', 'violation', 0]],
    );

    const noFrameId = { ...signed, frame_attestations: [{ ...entries[0]!, frame: { provider_id: PROVIDER } }] };
    assert.equal(verifyFrameAttestations(PROVIDER, noFrameId, KEYS).findings[0]!.anchor, 'F11');

    const wrongDigest = { ...signed, frame_attestations: [{ ...entries[0]!, frame: { ...entries[0]!.frame, content_digest: digest('9') } }] };
    const r2 = verifyFrameAttestations(PROVIDER, wrongDigest, KEYS);
    assert.match(r2.findings[0]!.message, /not a frame this result carries/);
    const wrongProvider = { ...signed, frame_attestations: [{ ...entries[0]!, frame: { ...entries[0]!.frame, provider_id: 'cloud-docs' } }] };
    assert.match(verifyFrameAttestations(PROVIDER, wrongProvider, KEYS).findings[0]!.message, /not a frame this result carries/);
    // the root still covers every frame (the host holds all siblings)
    assert.deepEqual(
      r2.frames.map((o) => o.verdict),
      ['attested', 'attested', 'attested', 'attested'],
    );

    const notArray = verifyFrameAttestations(PROVIDER, { ...signed, frame_attestations: { 0: entries[0] } }, KEYS);
    assert.equal(notArray.findings[0]!.anchor, 'F11');

    const duplicate = verifyFrameAttestations(PROVIDER, { ...signed, frame_attestations: [...entries, entries[0]!] }, KEYS);
    assert.deepEqual(
      duplicate.findings.map((x) => [x.anchor, x.severity]),
      [['F11', 'notice']],
    );
  });

  it('F13: a proof that does not recompute the root is proof-mismatch (with a finding); the frame is kept', () => {
    const entries = structuredClone(signed.frame_attestations) as FrameAttestationEntry[];
    entries[1]!.inclusion_proof!.path[0]!.sibling = digest('0');
    const report = verifyFrameAttestations(PROVIDER, { ...signed, frame_attestations: entries }, KEYS);
    assert.equal(report.frames.length, 4, 'F9: nothing dropped');
    assert.deepEqual(
      report.frames.map((o) => o.verdict),
      ['attested', 'proof-mismatch', 'attested', 'attested'],
    );
    assert.deepEqual(
      report.findings.map((x) => [x.anchor, x.entry]),
      [['F13', 1]],
    );

    // a proof replayed for another frame / at another index
    const swapped = structuredClone(signed.frame_attestations) as FrameAttestationEntry[];
    [swapped[0]!.inclusion_proof, swapped[1]!.inclusion_proof] = [swapped[1]!.inclusion_proof, swapped[0]!.inclusion_proof];
    assert.deepEqual(
      verifyFrameAttestations(PROVIDER, { ...signed, frame_attestations: swapped }, KEYS).frames.map((o) => o.verdict),
      ['proof-mismatch', 'proof-mismatch', 'attested', 'attested'],
    );

    // a proof with no result_attestation to recompute
    const noRoot = verifyFrameAttestations(PROVIDER, { frames, frame_attestations: signed.frame_attestations }, KEYS);
    assert.ok(noRoot.findings.every((x) => x.anchor === 'F13'));
    assert.deepEqual(
      noRoot.frames.map((o) => o.verdict),
      ['unattested', 'unattested', 'unattested', 'unattested'],
    );
  });

  it('F12 via proofs: a root and proofs over a larger candidate set do not attest the returned frames', () => {
    const candidates = [...frames, frame('e')];
    const overSigned = attestResult(PROVIDER, candidates, KEY, ISSUED);
    const truncated = {
      frames,
      truncated: true,
      frame_attestations: overSigned.frame_attestations.filter((e) => e.frame.frame_id !== 'e'),
      result_attestation: overSigned.result_attestation,
    };
    const report = verifyFrameAttestations(PROVIDER, truncated, KEYS);
    assert.equal(report.result.verdict, 'commitment-mismatch');
    assert.ok(report.findings.some((x) => x.anchor === 'F12'));
    assert.ok(report.frames.every((o) => !isAttested(o.verdict)));
    assert.ok(report.frames.every((o) => o.verdict === 'proof-mismatch'));
    assert.match(report.findings.find((x) => x.anchor === 'F13')!.message, /leaf_count 5 .* 4 frame/);
  });

  it('F9: unverifiable attestations degrade to unattested-equivalent verdicts, never drop a frame', () => {
    const entries = frames.map((f, i) => {
      const e = attestFrame(PROVIDER, f, KEY, ISSUED);
      const attestation: Attestation = { ...e.attestation! };
      if (i === 0) attestation.algorithm = 'rsa-pss';
      if (i === 1) attestation.key_id = 'who';
      if (i === 2) attestation.signature = 'garbage';
      return { ...e, attestation };
    });
    const report = verifyFrameAttestations(PROVIDER, { frames, frame_attestations: entries }, KEYS);
    assert.deepEqual(
      report.frames.map((o) => o.verdict),
      ['uncheckable', 'unknown-key', 'uncheckable', 'attested'],
    );
    assert.equal(report.frames.length, frames.length);
    assert.equal(report.result.verdict, 'unattested');
  });

  it('a failing own attestation dominates a good root; a good own attestation survives a forged root', () => {
    const entries = frames.map((f) => attestFrame(PROVIDER, f, KEY, ISSUED));
    entries[0] = { ...entries[0]!, attestation: { ...entries[0]!.attestation!, signed_commitment: digest('7') } };
    const forgedRoot = { ...signed.result_attestation, signature: signCommitment(new Uint8Array(32), KEY, ISSUED, PROVIDER).signature };
    const withGoodRoot = verifyFrameAttestations(PROVIDER, { frames, frame_attestations: entries, result_attestation: signed.result_attestation }, KEYS);
    assert.deepEqual(
      withGoodRoot.frames.map((o) => o.verdict),
      ['commitment-mismatch', 'attested', 'attested', 'attested'],
    );
    const withForgedRoot = verifyFrameAttestations(PROVIDER, { frames, frame_attestations: entries.slice(1), result_attestation: forgedRoot }, KEYS);
    assert.equal(withForgedRoot.result.verdict, 'bad-signature');
    assert.deepEqual(
      withForgedRoot.frames.map((o) => o.verdict),
      ['bad-signature', 'attested', 'attested', 'attested'],
    );
  });

  it('an unsigned result: every frame unattested, no findings', () => {
    const report = verifyFrameAttestations(PROVIDER, { frames }, KEYS);
    assert.deepEqual(
      report.frames.map((o) => o.verdict),
      ['unattested', 'unattested', 'unattested', 'unattested'],
    );
    assert.deepEqual(report.findings, []);
  });
});

describe('retainProofs (F13: derive before dropping)', () => {
  const frames = Array.from({ length: 9 }, (_, i) => frame(`f${i}`, i % 2 ? digest(String(i)) : undefined));
  const signed = attestResult(PROVIDER, frames, KEY, ISSUED, { proofs: false });

  it('proofs for a kept subset verify against the signed root after the siblings are gone', () => {
    const keep = [frames[7]!, frames[2]!];
    const ids = keep.map((f) => ({ provider_id: PROVIDER, frame_id: f.id, ...(f.content_digest ? { content_digest: f.content_digest } : {}) }));
    const retained = retainProofs(PROVIDER, frames, ids);
    assert.deepEqual(
      retained.map((r) => r.frame.frame_id),
      ['f7', 'f2'],
    );
    keep.forEach((f, i) => {
      assert.ok(verifyInclusionProof(frameCommitment(PROVIDER, f), retained[i]!.inclusion_proof, signed.result_attestation.signed_commitment, 9));
    });
    // …and the host, now holding only the subset, cannot rebuild the root
    assert.notEqual(renderDigest(resultSetRoot(PROVIDER, keep)), signed.result_attestation.signed_commitment);
  });

  it('refuses an identity that is not in the signed set', () => {
    assert.throws(() => retainProofs(PROVIDER, frames, [{ provider_id: PROVIDER, frame_id: 'zz' }]), /F13/);
  });

  it('issued_at must be a protocol timestamp', () => {
    assert.throws(() => attestFrame(PROVIDER, frames[0]!, KEY, '2026-08-29 12:00:00Z'), /F4/);
  });
});
