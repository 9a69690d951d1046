/**
 * Per-frame checks (§6 F1–F6, §6.3 D1 + S6.3-content-digest, §6.4 P1–P4, §7 B3, §8 G1–G2,
 * §13 U3 on rels). Run on raw, untrusted JSON: a missing or mistyped member is reported,
 * never thrown on.
 */
import { isWellFormedDigest, sha256Digest } from './digest.js';
import { violation, warning, WIRE_SHAPE, type Finding } from './findings.js';
import { pointerJoin } from '../util/json-pointer.js';
import { describeValue, hasMember, hasValue, isJsonObject, isNonBlankString, jsonTypeOf, type JsonObject } from './json-value.js';
import { classifyName } from './namespaced-name.js';
import { isProtocolTimestamp } from './timestamp.js';
import { budgetTokens, utf8ByteLength } from './token-cost.js';
import { BASE_RELS, REPRESENTATIONS } from './vocabulary.js';

/** How a frame is named in messages: `frame "frm_x"`, or by pointer when it has no string id. */
export function frameLabel(frame: unknown, pointer: string): string {
  if (isJsonObject(frame) && typeof frame.id === 'string') return `frame ${JSON.stringify(frame.id)}`;
  return `frame at ${pointer || '/'}`;
}

/** Frame timestamps held to F4 (query.as_of is checked with the query). */
const FRAME_TIMESTAMPS = ['valid_from', 'valid_to', 'recorded_at'] as const;

/** Members F6/F11 forbid inside a frame: attestations travel beside it, never inside. */
const ATTESTATION_MEMBERS = ['attestation', 'attestations'] as const;

// ASCII whitespace and control characters cannot occur in a URI (RFC 3986 §2).
const NOT_IN_URI = /[\u0000-\u0020\u007f]/;

export function checkFrame(frame: unknown, pointer: string): Finding[] {
  if (!isJsonObject(frame)) {
    return [violation(WIRE_SHAPE, pointer, `a frame must be a JSON object, saw ${jsonTypeOf(frame)}`)];
  }
  const label = frameLabel(frame, pointer);
  const at = (...tokens: Array<string | number>) => pointerJoin(pointer, ...tokens);
  const out: Finding[] = [];

  // F1: score MUST be in [0, 1].
  const score = frame.score;
  if (typeof score !== 'number' || !(score >= 0 && score <= 1)) {
    out.push(violation('F1', at('score'), `${label} has score ${describeValue(score)}; required a number in [0, 1]`));
  }

  // F2: title MUST be non-empty (whitespace-only counts as empty).
  if (!isNonBlankString(frame.title)) {
    out.push(violation('F2', at('title'), `${label} has title ${describeValue(frame.title)}; required a non-blank string`));
  }

  // F3: citation_label MUST be present and non-empty — a host cites by human label, never a bare id.
  if (!isNonBlankString(frame.citation_label)) {
    out.push(violation('F3', at('citation_label'), `${label} has citation_label ${describeValue(frame.citation_label)}; required a non-blank string`));
  }

  // F4: valid_from, valid_to, recorded_at MUST match YYYY-MM-DDTHH:MM:SS(.f+)?Z (calendar-valid).
  for (const key of FRAME_TIMESTAMPS) {
    if (hasValue(frame, key) && !isProtocolTimestamp(frame[key])) {
      out.push(violation('F4', at(key), `${label} has ${key} ${describeValue(frame[key])}; required YYYY-MM-DDTHH:MM:SS(.f+)?Z, a real UTC instant`));
    }
  }

  out.push(...checkProvenance(frame, label, at));
  out.push(...checkContentDigest(frame, label, at));
  out.push(...checkRepresentation(frame, label, pointer, at));
  out.push(...checkRelations(frame, label, at));

  // F6 (F11 on the wire): an attestation is detached — never a member of the frame it signs.
  for (const key of ATTESTATION_MEMBERS) {
    if (hasMember(frame, key)) {
      out.push(violation('F6', at(key), `${label} carries a "${key}" member; attestations travel beside the frame in result.frame_attestations / result.result_attestation, never inside it`));
    }
  }
  return out;
}

type At = (...tokens: Array<string | number>) => string;

// F5: provenance of type "file" MUST carry a digest matching sha256:<64 lowercase hex>.
function checkProvenance(frame: JsonObject, label: string, at: At): Finding[] {
  if (!hasValue(frame, 'provenance')) return [];
  const provenance = frame.provenance;
  if (!Array.isArray(provenance)) {
    return [violation(WIRE_SHAPE, at('provenance'), `${label} has provenance ${describeValue(provenance)}; required an array`)];
  }
  const out: Finding[] = [];
  provenance.forEach((link, i) => {
    if (!isJsonObject(link)) {
      out.push(violation(WIRE_SHAPE, at('provenance', i), `${label} provenance[${i}] is ${jsonTypeOf(link)}; required an object`));
      return;
    }
    if (link.type === 'file' && !isWellFormedDigest(link.digest)) {
      out.push(violation('F5', at('provenance', i, 'digest'), `${label} provenance[${i}] (type "file") has digest ${describeValue(link.digest)}; required sha256:<64 lowercase hex>`));
    }
  });
  return out;
}

// D1: content_digest, when present, MUST match sha256:<64 lowercase hex>.
// S6.3-content-digest (warning, never D1/D2): a well-formed digest that is not the SHA-256 of
// the inline content bytes (§6.3 defines it so; the spec calls the value opaque — docs/interpretations.md §3).
function checkContentDigest(frame: JsonObject, label: string, at: At): Finding[] {
  if (!hasValue(frame, 'content_digest')) return [];
  const digest = frame.content_digest;
  if (!isWellFormedDigest(digest)) {
    return [violation('D1', at('content_digest'), `${label} has content_digest ${describeValue(digest)}; required sha256:<64 lowercase hex>`)];
  }
  if (typeof frame.content !== 'string') return [];
  const actual = sha256Digest(frame.content);
  if (actual === digest) return [];
  return [
    warning('S6.3-content-digest', at('content_digest'), `${label} declares content_digest ${digest}, but the SHA-256 of its ${utf8ByteLength(frame.content)} inline content bytes is ${actual}`),
  ];
}

/** Representation members §6.4 constrains. */
const P_MEMBERS = ['content', 'content_digest', 'canonical_content_hash', 'transform', 'content_ref'] as const;
type PMember = (typeof P_MEMBERS)[number];
// P1: a full frame MUST carry content and MUST NOT carry content_ref, transform, canonical_content_hash.
const P1_REQUIRED: readonly PMember[] = ['content'];
const P1_FORBIDDEN: readonly PMember[] = ['content_ref', 'transform', 'canonical_content_hash'];
// P2: a compact frame MUST carry content, content_digest, canonical_content_hash, transform, content_ref.
const P2_REQUIRED: readonly PMember[] = ['content', 'content_digest', 'canonical_content_hash', 'transform', 'content_ref'];
// P3: a reference frame MUST carry content_ref + canonical_content_hash and MUST NOT carry content, content_digest, transform.
const P3_REQUIRED: readonly PMember[] = ['content_ref', 'canonical_content_hash'];
const P3_FORBIDDEN: readonly PMember[] = ['content', 'content_digest', 'transform'];

function checkRepresentation(frame: JsonObject, label: string, pointer: string, at: At): Finding[] {
  const out: Finding[] = [];
  const declared = frame.representation;
  // Absent means full (§6.4).
  const rep = declared === undefined ? 'full' : declared;
  const present = (key: (typeof P_MEMBERS)[number]) => (key === 'content' ? typeof frame.content === 'string' : hasValue(frame, key));

  const lacks = (id: string, required: readonly (typeof P_MEMBERS)[number][]) => {
    if (required.every(present)) return; // the common case: no array built
    const missing = required.filter((k) => !present(k));
    if (missing.length > 0) {
      out.push(violation(id, pointer, `${rep} ${label} lacks ${missing.join(', ')}; required ${required.join(', ')}`));
    }
  };
  const forbids = (id: string, forbidden: readonly (typeof P_MEMBERS)[number][]) => {
    for (const key of forbidden) {
      // Key presence counts: a reference frame may not carry content, not even "" (P3).
      if (hasMember(frame, key)) {
        out.push(violation(id, at(key), `${rep} ${label} carries ${key} ${describeValue(frame[key])}; ${rep} frames MUST NOT carry ${key}${key === 'content' ? ' (not even "")' : ''}`));
      }
    }
  };

  if (rep === 'full') {
    // P1: a full frame MUST carry content and MUST NOT carry content_ref, transform, canonical_content_hash.
    lacks('P1', P1_REQUIRED);
    forbids('P1', P1_FORBIDDEN);
  } else if (rep === 'compact') {
    // P2: a compact frame MUST carry content, content_digest, canonical_content_hash, transform, content_ref.
    lacks('P2', P2_REQUIRED);
  } else if (rep === 'reference') {
    // P3: a reference frame MUST carry content_ref + canonical_content_hash and MUST NOT carry
    // content (not even ""), content_digest, or transform.
    lacks('P3', P3_REQUIRED);
    forbids('P3', P3_FORBIDDEN);
  } else {
    // §6.4 wire shape: representation is one of full, compact, reference (not an open vocabulary).
    out.push(violation(WIRE_SHAPE, at('representation'), `${label} declares representation ${describeValue(declared)}; required one of ${REPRESENTATIONS.join(', ')} (P1–P4 not checked)`));
  }
  const cost = frame.token_cost;
  if (rep === 'reference') {
    // P4: token_cost is the cost of the inline rendering only; a reference frame has none ⇒ 0.
    if (cost !== 0) {
      out.push(violation('P4', at('token_cost'), `reference ${label} declares token_cost ${describeValue(cost)}; a reference frame has no inline rendering, so required 0`));
    }
  } else {
    // B3: token_cost = ceil(utf8_bytes(content) / 4); missing content counts as "".
    // (P4: for a compact frame this is the cost of its distilled inline bytes.)
    const content = typeof frame.content === 'string' ? frame.content : '';
    const bytes = utf8ByteLength(content);
    const expected = budgetTokens(content);
    if (cost !== expected) {
      const seen = typeof frame.content === 'string' ? `content is ${bytes} bytes` : `content is ${describeValue(frame.content)} (counted as "", 0 bytes)`;
      out.push(violation('B3', at('token_cost'), `${label} declares token_cost ${describeValue(cost)}, ${seen} → ceil(${bytes}/4) = ${expected}`));
    }
  }
  if (hasMember(frame, 'content') && typeof frame.content !== 'string') {
    out.push(violation(WIRE_SHAPE, at('content'), `${label} has content ${describeValue(frame.content)}; required a string when present`));
  }
  return out;
}

// G1: every Relation carries a non-empty display_name. G2: target_uri is a non-empty URI.
// U3: a namespaced rel has non-empty sides (an unprefixed unknown rel is left alone: §8.1
// itself suggests dot-namespaces like `myindex.owns`).
function checkRelations(frame: JsonObject, label: string, at: At): Finding[] {
  if (!hasValue(frame, 'relations')) return [];
  const relations = frame.relations;
  if (!Array.isArray(relations)) {
    return [violation(WIRE_SHAPE, at('relations'), `${label} has relations ${describeValue(relations)}; required an array`)];
  }
  const out: Finding[] = [];
  relations.forEach((rel, i) => {
    if (!isJsonObject(rel)) {
      out.push(violation(WIRE_SHAPE, at('relations', i), `${label} relations[${i}] is ${jsonTypeOf(rel)}; required an object`));
      return;
    }
    if (!isNonBlankString(rel.display_name)) {
      out.push(violation('G1', at('relations', i, 'display_name'), `${label} relations[${i}] has display_name ${describeValue(rel.display_name)}; required a non-blank human label`));
    }
    const target = rel.target_uri;
    if (!isNonBlankString(target) || NOT_IN_URI.test(target)) {
      out.push(violation('G2', at('relations', i, 'target_uri'), `${label} relations[${i}] has target_uri ${describeValue(target)}; required a non-empty URI (no whitespace or control characters)`));
    }
    const relClass = classifyName(rel.rel, BASE_RELS);
    if (relClass === 'malformed-namespace') {
      out.push(violation('U3', at('relations', i, 'rel'), `${label} relations[${i}] has rel ${describeValue(rel.rel)}; a namespaced name MUST be vendor:name with both sides non-empty`));
    }
  });
  return out;
}
