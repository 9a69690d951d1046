import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { DecodeError, decodeEnvelope, type DecodeResult } from '../../src/protocol/decoder.js';
import { EXTERNAL_SKIP, fullFrame, readShared, SHARED_PRESENT } from './helpers.js';

function expectError(r: DecodeResult, code: DecodeError['code']): DecodeError {
  assert.equal(r.ok, false, 'expected a decode failure');
  if (r.ok) throw new Error('unreachable');
  assert.ok(r.error instanceof DecodeError);
  assert.equal(r.error.code, code);
  assert.equal(r.error.rule, 'S2-wire-shape');
  assert.match(r.error.message, /^S2-wire-shape violated: /);
  return r.error;
}

const failures: Array<[string, unknown, DecodeError['code']]> = [
  ['not JSON', '{"type":', 'invalid-json'],
  ['empty text', '', 'invalid-json'],
  ['two values on one line', '{"type":"shutdown"} {}', 'invalid-json'],
  ['an array', '[{"type":"shutdown"}]', 'not-an-object'],
  ['null', 'null', 'not-an-object'],
  ['a JSON string', '"shutdown"', 'not-an-object'],
  ['a parsed number', 42, 'not-an-object'],
  ['no type', '{"protocol_version":"contextgraph/1.0"}', 'missing-type'],
  ['type not a string', '{"type":7}', 'missing-type'],
  ['known type, missing required member', '{"type":"query","query":{"max_frames":1,"max_tokens":1}}', 'invalid-shape'],
  ['known type, mistyped member', '{"type":"frames","result":{"frames":"none","truncated":false}}', 'invalid-shape'],
];
for (const [name, input, code] of failures) {
  test(`decodeEnvelope fails with ${code}: ${name}`, () => {
    const e = expectError(decodeEnvelope(input), code);
    if (code === 'invalid-shape') assert.ok(e.issues.length > 0, 'schema issues attached');
  });
}

test('S2.1-unknown-type: an unknown type decodes ok, flagged, kept verbatim', () => {
  const text = '{"type":"subscribe","id":"s1","topic":{"uri":"file:///a"}}';
  const r = decodeEnvelope(text);
  assert.equal(r.ok, true);
  if (!r.ok) return;
  assert.equal(r.unknownType, true);
  assert.equal(JSON.stringify(r.envelope), text);
});

test('a known, valid envelope decodes ok without the unknown-type flag (text or parsed value)', () => {
  for (const input of ['{"type":"handshake","protocol_version":"contextgraph/1.0"}', { type: 'shutdown' }]) {
    const r = decodeEnvelope(input);
    assert.equal(r.ok, true, JSON.stringify(r));
    if (r.ok) assert.notEqual(r.unknownType, true);
  }
});

test('H3 reachable: a foreign-family ack decodes, so the family check can name the mismatch', () => {
  const r = decodeEnvelope({
    type: 'handshake_ack',
    protocol_version: 'contextgraph/2.0',
    provider: { name: 'p', version: '1', data_flow: { reads: true, writes: false, egress: false } },
    capabilities: { query: { kinds: [] } },
  });
  assert.equal(r.ok, true, JSON.stringify(r));
});

test('U1/U2: unknown members ignored; unknown kind, rel, code and scope kept verbatim on re-serialisation', () => {
  const frames = {
    type: 'frames',
    id: 'q1',
    future_envelope_member: true,
    result: {
      frames: [fullFrame({ kind: 'image', future_frame_member: { a: [1, 2] }, relations: [{ rel: 'acme:depicts', target_uri: 'urn:x', display_name: 'x', weight: 0.5 }] })],
      truncated: false,
      future_result_member: 'x',
    },
  };
  const text = JSON.stringify(frames);
  const r = decodeEnvelope(text);
  assert.equal(r.ok, true, JSON.stringify(r));
  if (!r.ok) return;
  const again = JSON.stringify(r.envelope);
  assert.equal(again, text, 'decode → re-serialise is byte-identical');
  assert.ok(again.includes('"kind":"image"'));
  assert.ok(again.includes('"rel":"acme:depicts"'));

  const error = '{"type":"error","code":"quota_exhausted","message":"over quota","retry_after":3}';
  const re = decodeEnvelope(error);
  assert.equal(re.ok, true, JSON.stringify(re));
  if (re.ok) assert.equal(JSON.stringify(re.envelope), error);

  const ack = {
    type: 'handshake_ack',
    protocol_version: 'contextgraph/1.3',
    provider: { name: 'p', version: '1', data_flow: { reads: true, writes: false, egress: true, egress_scopes: ['acme:vector-store'] } },
    capabilities: { query: { kinds: ['image'] }, future_capability: { x: 1 } },
  };
  const ra = decodeEnvelope(JSON.stringify(ack));
  assert.equal(ra.ok, true, JSON.stringify(ra));
  if (ra.ok) assert.deepEqual(ra.envelope, ack);
});

test('property: decodeEnvelope never throws, whatever the text', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string({ unit: 'binary' }),
        fc.json(),
        fc.jsonValue().map((v) => JSON.stringify({ type: 'frames', result: v })),
      ),
      (text) => {
        const r = decodeEnvelope(text);
        return typeof r.ok === 'boolean';
      },
    ),
    { numRuns: 500 },
  );
});

test('reference examples: the session decodes; reference-messages fails only where its digests break D1/V4', (t) => {
  if (!SHARED_PRESENT) {
    t.skip(EXTERNAL_SKIP);
    return;
  }
  const lines = readShared('reference-examples', 'full-stdio-session.ndjson')
    .split('\n')
    .filter((l) => l.trim() !== '');
  for (const line of lines) {
    const r = decodeEnvelope(line);
    assert.equal(r.ok, true, `${line.slice(0, 60)}: ${r.ok ? '' : r.error.message}`);
  }
  // The interop profile keeps the digest grammar (a wire rule), so the short digests fail decoding.
  const expectedIssues: Record<number, string[]> = {
    4: ['D1@/result/frames/0/content_digest', 'D1@/result/frames/1/content_digest'],
    5: ['D1@/request/frames/0/content_digest', 'D1@/request/frames/1/content_digest'],
    6: ['D1@/response/verdicts/0/frame/content_digest', 'D1@/response/verdicts/1/frame/content_digest', 'V4@/response/verdicts/1/replacement_digest'],
    11: ['D1@/result/frames/0/content_digest'],
  };
  const messages = JSON.parse(readShared('reference-examples', 'reference-messages.json')) as unknown[];
  messages.forEach((m, i) => {
    const r = decodeEnvelope(m);
    if (expectedIssues[i] === undefined) {
      assert.equal(r.ok, true, `[${i}] ${r.ok ? '' : r.error.message}`);
    } else {
      const e = expectError(r, 'invalid-shape');
      assert.deepEqual(e.issues.map((x) => `${x.id}@${x.pointer}`).sort(), [...expectedIssues[i]!].sort(), `[${i}]`);
    }
  });
});
