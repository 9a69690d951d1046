/**
 * Lifecycle record_hash (Context Exchange Provider profile; §13 schemas):
 *
 *   record_hash = "sha256:" + hex(SHA-256(UTF-8(JCS(record minus its record_hash member))))
 *
 * JCS is RFC 8785 (the `canonicalize` package: UTF-16 code-unit key order, ECMAScript number
 * rendering). The preimage is the record exactly as received minus only `record_hash`:
 * unknown members and `extensions` are included; a detached attestation never is.
 */
import canonicalize from 'canonicalize';
import { isWellFormedDigest, sha256Digest } from './digest.js';
import { violation, type Finding } from './findings.js';
import { pointerJoin } from '../util/json-pointer.js';
import { describeValue, isJsonObject, jsonTypeOf } from './json-value.js';

export const RECORD_HASH_RULE = 'LH1';

/** The record_hash a record should carry. Throws TypeError if `record` is not a JSON object. */
export function computeRecordHash(record: object): string {
  if (!isJsonObject(record)) throw new TypeError('computeRecordHash: a record is a JSON object');
  const { record_hash: _omitted, ...preimage } = record;
  const jcs = canonicalize(preimage);
  if (jcs === undefined) throw new TypeError('computeRecordHash: record is not serialisable as JSON');
  return sha256Digest(jcs);
}

/** LH1: the declared record_hash is well-formed and recomputes exactly. */
export function checkRecordHash(record: unknown, pointer = ''): Finding[] {
  if (!isJsonObject(record)) {
    return [violation(RECORD_HASH_RULE, pointer, `a lifecycle record is a JSON object, saw ${jsonTypeOf(record)}`)];
  }
  const at = pointerJoin(pointer, 'record_hash');
  const declared = record.record_hash;
  let recomputed: string;
  try {
    recomputed = computeRecordHash(record);
  } catch (e) {
    return [violation(RECORD_HASH_RULE, pointer, `record cannot be canonicalised (${e instanceof Error ? e.message : String(e)})`)];
  }
  if (!isWellFormedDigest(declared)) {
    return [violation(RECORD_HASH_RULE, at, `record_hash is ${describeValue(declared)}; required sha256:<64 lowercase hex> = ${recomputed}`)];
  }
  if (declared !== recomputed) {
    return [violation(RECORD_HASH_RULE, at, `record_hash declares ${declared}, recomputed sha256(JCS(record minus record_hash)) = ${recomputed}`)];
  }
  return [];
}
