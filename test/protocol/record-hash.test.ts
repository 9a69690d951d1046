import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { sha256Digest } from '../../src/protocol/digest.js';
import { checkRecordHash, computeRecordHash } from '../../src/protocol/record-hash.js';
import { assertFindings, EXTERNAL_SKIP, HEX64, readShared, SHARED_DIR, SHARED_PRESENT } from './helpers.js';

// A record of our own: the hash is computed by hand from its JCS text below.
const own = { schema_version: 'contextgraph/lifecycle/1.0', record_hash: 'x', b: [1.0, 0.5, 'é'], a: { z: true, '\uFB33': 1e21, '\u{1F600}': null } };
// RFC 8785: members sorted by UTF-16 code units (U+1F600 = D83D DE00 sorts before U+FB33, unlike
// code point order), 1.0 → 1, 1e21 → 1e+21, non-ASCII written raw.
const ownJcs = '{"a":{"z":true,"\u{1F600}":null,"\uFB33":1e+21},"b":[1,0.5,"é"],"schema_version":"contextgraph/lifecycle/1.0"}';

test('computeRecordHash = sha256 of the JCS of the record minus record_hash', () => {
  assert.equal(computeRecordHash(own), sha256Digest(ownJcs));
  assert.equal(computeRecordHash({ ...own, record_hash: 'anything else' }), sha256Digest(ownJcs)); // record_hash excluded
  assert.equal(computeRecordHash({ b: own.b, schema_version: own.schema_version, a: own.a }), sha256Digest(ownJcs)); // key order irrelevant
  assert.notEqual(computeRecordHash({ ...own, extensions: { 'acme:x': 'y' } }), sha256Digest(ownJcs)); // unknown members included
});

test('LH1: good, mismatched, malformed, absent, not an object', () => {
  const good = { ...own, record_hash: sha256Digest(ownJcs) };
  assertFindings(checkRecordHash(good, ''), []);
  assertFindings(checkRecordHash({ ...good, record_hash: HEX64('0') }, '/2'), [{ id: 'LH1', severity: 'error', pointer: '/2/record_hash' }]);
  assertFindings(checkRecordHash({ ...good, record_hash: 'sha256:abc' }, ''), [{ id: 'LH1', severity: 'error', pointer: '/record_hash' }]);
  assertFindings(checkRecordHash({ ...good, record_hash: undefined }, ''), [{ id: 'LH1', severity: 'error', pointer: '/record_hash' }]);
  assertFindings(checkRecordHash([], ''), [{ id: 'LH1', severity: 'error', pointer: '' }]);
  const [f] = checkRecordHash({ ...good, record_hash: HEX64('0') }, '');
  assert.equal(f?.message, `LH1 violated: record_hash declares ${HEX64('0')}, recomputed sha256(JCS(record minus record_hash)) = ${good.record_hash}`);
});

test('computeRecordHash rejects a non-object', () => {
  assert.throws(() => computeRecordHash([] as unknown as object), TypeError);
});

const dir = join(SHARED_DIR, 'lifecycle-examples');
test('every shared lifecycle example record_hash recomputes exactly; a one-character edit changes it', (t) => {
  if (!SHARED_PRESENT) {
    t.skip(EXTERNAL_SKIP);
    return;
  }
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  assert.ok(files.length >= 6, `expected the six lifecycle examples, found ${files.length}`);
  for (const file of files) {
    const record = JSON.parse(readShared('lifecycle-examples', file)) as Record<string, unknown>;
    assert.equal(computeRecordHash(record), record.record_hash, file);
    assertFindings(checkRecordHash(record, ''), []);
    const edited = { ...record, record_id: `${String(record.record_id)}x` };
    assert.notEqual(computeRecordHash(edited), record.record_hash, `${file}: edit must change the hash`);
    assertFindings(checkRecordHash(edited, ''), [{ id: 'LH1', severity: 'error', pointer: '/record_hash' }]);
  }
});
