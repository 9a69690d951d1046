// The grammars the suite judges, at their edges, in every member that carries them (docs/interpretations.md
// §116): the F4 timestamp profile in valid_from, valid_to, recorded_at and query.as_of; sha256 digests in
// content_digest and file provenance; version strings (§3.1) with minors of any length. The same judgement
// must hold in every member: an edge accepted in one and refused in another would be a false verdict.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkEnvelope } from '../../../src/protocol/envelope-checks.js';
import { checkFrame } from '../../../src/protocol/frame-checks.js';
import type { JsonObject } from '../../../src/protocol/json-value.js';
import { majorFamily, versionsCompatible } from '../../../src/protocol/version.js';
import { createProvider } from '../../../src/provider/core.js';

async function servedFrame(): Promise<JsonObject> {
  const provider = createProvider({});
  const reply = await provider.handle(JSON.stringify({ type: 'query', id: 'g', query: { goal: 'g', max_frames: 8, max_tokens: 65_536 } }));
  const env = reply.envelopes[0] as unknown as { result: { frames: JsonObject[] } };
  const frame = env.result.frames.find((f) => f.valid_to !== undefined);
  assert.ok(frame, 'the bundled corpus serves a frame with valid_to');
  return frame;
}

const TIMESTAMP_EDGES_VALID = [
  '2026-07-01T00:00:00Z',
  '2026-07-01T00:00:00.0Z',
  '2026-07-01T00:00:00.123Z',
  '2026-07-01T00:00:00.123456789Z',
  '2024-02-29T23:59:59Z',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999999999Z',
];
const TIMESTAMP_EDGES_INVALID = [
  '2026-07-01t00:00:00Z',
  '2026-07-01T00:00:00z',
  '2026-07-01T00:00:00+00:00',
  '2026-07-01 00:00:00Z',
  '2026-07-01T00:00Z',
  '2026-07-01T00:00:00.Z',
  '2026-07-01',
  '2025-02-29T00:00:00Z',
  '2026-07-01T24:00:00Z',
  '2026-13-01T00:00:00Z',
  ' 2026-07-01T00:00:00Z',
];

test('F4 at its edges, the same in valid_from, valid_to and recorded_at', async () => {
  const base = await servedFrame();
  assert.deepEqual(checkFrame(base, '/f'), []);
  for (const member of ['valid_from', 'valid_to', 'recorded_at']) {
    for (const value of TIMESTAMP_EDGES_VALID) {
      const f4 = checkFrame({ ...base, [member]: value }, '/f').filter((x) => x.id === 'F4');
      assert.deepEqual(f4, [], `${member} ${value} is in the profile`);
    }
    for (const value of TIMESTAMP_EDGES_INVALID) {
      const f4 = checkFrame({ ...base, [member]: value }, '/f').filter((x) => x.id === 'F4');
      assert.equal(f4.length, 1, `${member} ${JSON.stringify(value)} is off the profile`);
      assert.equal(f4[0]!.pointer, `/f/${member}`);
    }
  }
});

test('F4 at its edges in query.as_of, judged as in a frame', () => {
  const query = (as_of: string) => ({ type: 'query', id: 'q', query: { goal: 'g', max_frames: 1, max_tokens: 1, as_of } });
  for (const value of TIMESTAMP_EDGES_VALID)
    assert.deepEqual(
      checkEnvelope(query(value)).filter((x) => x.id === 'F4'),
      [],
      value,
    );
  for (const value of TIMESTAMP_EDGES_INVALID) {
    const f4 = checkEnvelope(query(value)).filter((x) => x.id === 'F4');
    assert.equal(f4.length, 1, JSON.stringify(value));
    assert.equal(f4[0]!.pointer, '/query/as_of');
  }
});

test('sha256 digests at their edges, the same in content_digest (D1) and file provenance (F5)', async () => {
  const base = await servedFrame();
  const hex = 'a'.repeat(64);
  const bad = [`sha256:${'a'.repeat(63)}`, `sha256:${'a'.repeat(65)}`, `sha256:${'A'.repeat(64)}`, `SHA256:${hex}`, `sha256: ${hex}`, `sha256:${'g'.repeat(64)}`, hex, ''];
  const link = (digest: string) => [{ ...(base.provenance as JsonObject[])[0]!, digest }];
  for (const value of bad) {
    assert.equal(checkFrame({ ...base, content_digest: value }, '/f').filter((x) => x.id === 'D1').length, 1, `content_digest ${JSON.stringify(value)}`);
    assert.equal(checkFrame({ ...base, provenance: link(value) }, '/f').filter((x) => x.id === 'F5').length, 1, `provenance digest ${JSON.stringify(value)}`);
  }
  assert.deepEqual(
    checkFrame({ ...base, provenance: link(`sha256:${hex}`) }, '/f').filter((x) => x.id === 'F5'),
    [],
  );
});

test('version strings: a minor of any length is in the family; the family is the whole major', () => {
  for (const v of ['contextgraph/1.4294967296', 'contextgraph/1.340282366920938463463374607431768211456-draft', 'contextgraph/1.0', 'contextgraph/1.99']) {
    assert.equal(majorFamily(v), 'contextgraph/1', v);
    assert.equal(versionsCompatible(v, 'contextgraph/1.0'), true, v);
  }
  for (const v of ['contextgraph/10.0', 'contextgraph/0.9', 'contextgraph/2.4294967296']) assert.equal(versionsCompatible(v, 'contextgraph/1.0'), false, v);
});

test('numeric bounds the suite judges, at both sides: F1 score in [0, 1], B3 ceil(UTF-8 bytes / 4)', async () => {
  const base = await servedFrame();
  for (const score of [0, 1, Number.MIN_VALUE, 0.5])
    assert.deepEqual(
      checkFrame({ ...base, score }, '/f').filter((x) => x.id === 'F1'),
      [],
      `score ${score}`,
    );
  for (const score of [-Number.MIN_VALUE, 1 + Number.EPSILON, -1, 2]) assert.equal(checkFrame({ ...base, score }, '/f').filter((x) => x.id === 'F1').length, 1, `score ${score}`);
  // byte lengths 0, 1, 4, 5 and multi-byte characters (é: 2 bytes, 😀: 4 bytes), each at its exact cost and one off
  const cases: Array<[string, number]> = [
    ['', 0],
    ['a', 1],
    ['abcd', 1],
    ['abcde', 2],
    ['é', 1],
    ['éé', 1],
    ['ééé', 2],
    ['😀', 1],
    ['😀a', 2],
  ];
  for (const [content, cost] of cases) {
    const frame = { ...base, content, token_cost: cost };
    delete (frame as { content_digest?: unknown }).content_digest;
    assert.deepEqual(
      checkFrame(frame, '/f').filter((x) => x.id === 'B3'),
      [],
      `${JSON.stringify(content)} costs ${cost}`,
    );
    for (const off of [cost - 1, cost + 1].filter((c) => c >= 0)) {
      assert.equal(checkFrame({ ...frame, token_cost: off }, '/f').filter((x) => x.id === 'B3').length, 1, `${JSON.stringify(content)} does not cost ${off}`);
    }
  }
});

test('G2 target_uri at its edges: a URI of any scheme is one; whitespace, control characters or nothing are not', async () => {
  const base = await servedFrame();
  const rel = (target_uri: string) => [{ rel: 'doc.documents', target_uri, display_name: 'edge' }];
  for (const uri of ['file:///a%20b', 'symbol:///example-docs/backoff.rs#next_delay', 'urn:isbn:0451450523', 'https://example.org/?q=a&b=c#frag', 'x:y']) {
    assert.deepEqual(
      checkFrame({ ...base, relations: rel(uri) }, '/f').filter((x) => x.id === 'G2'),
      [],
      uri,
    );
  }
  for (const uri of ['', ' ', 'file:///a b', 'file:///a\tb', 'file:///a\nb', 'file:///a\u0000b', ' file:///a']) {
    assert.equal(checkFrame({ ...base, relations: rel(uri) }, '/f').filter((x) => x.id === 'G2').length, 1, JSON.stringify(uri));
  }
});
