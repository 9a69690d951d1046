/**
 * §6.5.1 provenance-link encoding (anchors F6, F7):
 *
 *   enc_str(s)       = uint32be(byte_length(utf8(s))) ‖ utf8(s)
 *   enc_opt(None)    = 0x00
 *   enc_opt(Some(s)) = 0x01 ‖ enc_str(s)
 *   encode(link)     = enc_str(type) ‖ enc_opt(uri) ‖ enc_opt(range) ‖ enc_opt(digest)
 *                      ‖ enc_opt(method) ‖ enc_opt(by)
 *
 * Field order is normative; the length prefix stops the uri "ab"/range "c" vs uri "a"/range "bc"
 * collision and the presence byte stops null vs "" colliding. Deliberately not JCS.
 *
 * A string that has no UTF-8 encoding (a lone UTF-16 surrogate, reachable only through a JSON
 * `\ud800` escape) is refused with a TypeError rather than silently replaced by U+FFFD: a lossy
 * replacement would make two different strings encode identically.
 */
import type { Provenance } from '../../generated/types/index.js';
import { concatBytes } from './bytes.js';

/** The six typed fields of a §6 provenance link: the wire `Provenance`. */
export type ProvenanceLinkInput = Provenance;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UTF8 = new TextEncoder();
const MAX_U32 = 0xffff_ffff;

/** UTF-8 bytes of `s`; throws on a non-string or on a string with a lone surrogate. */
export function utf8(s: string): Uint8Array {
  if (typeof s !== 'string') throw new TypeError(`expected a string, got ${s === null ? 'null' : typeof s}`);
  if (LONE_SURROGATE.test(s)) throw new TypeError('string contains a lone UTF-16 surrogate and has no UTF-8 encoding');
  return UTF8.encode(s);
}

/** Big-endian uint32. */
export function uint32be(value: number): Uint8Array {
  if (!Number.isInteger(value) || value < 0 || value > MAX_U32) throw new RangeError(`${value} does not fit a uint32`);
  return Uint8Array.of((value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff);
}

/** enc_str(s) = uint32be(byte_length(utf8(s))) ‖ utf8(s). */
export function encStr(s: string): Uint8Array {
  const bytes = utf8(s);
  return concatBytes(uint32be(bytes.length), bytes);
}

/** enc_opt: null and undefined (an absent member) are None → 0x00; a string is 0x01 ‖ enc_str. */
export function encOpt(s: string | null | undefined): Uint8Array {
  if (s === null || s === undefined) return Uint8Array.of(0x00);
  return concatBytes(Uint8Array.of(0x01), encStr(s));
}

/** encode(link), fields in the normative order type, uri, range, digest, method, by. */
export function encodeLink(link: ProvenanceLinkInput): Uint8Array {
  if (link === null || typeof link !== 'object') throw new TypeError('a provenance link must be an object');
  return concatBytes(encStr(link.type), encOpt(link.uri), encOpt(link.range), encOpt(link.digest), encOpt(link.method), encOpt(link.by));
}
