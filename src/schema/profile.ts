/**
 * Schema profiles: the authoring-strict schemas in schema/*.schema.json are the single source; the INTEROP
 * profile is derived from them mechanically (docs/architecture.md "Schema profiles").
 *
 * Derivation rules (applied to every subschema position, nothing else is touched, so every JSON pointer that
 * exists in the interop profile names the same subschema in the strict one):
 *   1. `additionalProperties: false` and `unevaluatedProperties: false` are removed (U1: unknown members are
 *      ignored on the wire, never rejected).
 *   2. A subschema marked `"x-cgp-open": true` (an open vocabulary: FrameKind, rel, egress scope, error code,
 *      attestation algorithm, ...) keeps only its non-vocabulary keywords: `enum`, `const`, `anyOf`, `oneOf`
 *      and `pattern` are removed, so the value becomes a plain string (U2, U3, X1).
 *   3. A subschema carrying `"x-cgp-interop": {keyword: value, ...}` gets those keywords overridden (a `null`
 *      value deletes the keyword). The envelope's VersionString uses it to accept any `contextgraph/...`
 *      string, so that a foreign family reaches the H3 family check instead of failing the schema.
 * Everything else (patterns on digests and timestamps, P1–P3, F5, C5, bounds) is kept: those are wire rules.
 */

import { escapePointerToken, pointerTokens } from '../util/json-pointer.js';

/** Custom keywords our schemas use; registered with ajv (`addKeyword`) so that strict mode accepts them. */
export const ANCHOR_KEYWORD = 'x-cgp-anchor';
export const OPEN_KEYWORD = 'x-cgp-open';
export const INTEROP_KEYWORD = 'x-cgp-interop';
export const CUSTOM_KEYWORDS = [ANCHOR_KEYWORD, OPEN_KEYWORD, INTEROP_KEYWORD] as const;

export type SchemaProfile = 'strict' | 'interop';
export const SCHEMA_PROFILES: readonly SchemaProfile[] = ['strict', 'interop'];

export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };
export type SchemaNode = { [k: string]: JsonValue };

/** Keywords whose value is one subschema. */
const SINGLE = new Set(['additionalProperties', 'unevaluatedProperties', 'items', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'unevaluatedItems']);
/** Keywords whose value is an array of subschemas. */
const ARRAY = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Keywords whose value is a map of name → subschema. */
const MAP = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

/** Every keyword of JSON Schema 2020-12 (core, applicator, unevaluated, validation, format, content, meta-data). */
export const KNOWN_KEYWORDS: ReadonlySet<string> = new Set([
  '$schema',
  '$id',
  '$ref',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$vocabulary',
  '$comment',
  '$defs',
  ...SINGLE,
  ...ARRAY,
  ...MAP,
  'dependentRequired',
  'type',
  'enum',
  'const',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxContains',
  'minContains',
  'maxProperties',
  'minProperties',
  'required',
  'format',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
  'title',
  'description',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'examples',
  ...CUSTOM_KEYWORDS,
]);

/** The value a JSON pointer names inside `doc`, or undefined when it names nothing. */
export function resolvePointer(doc: unknown, pointer: string): unknown {
  let node: unknown = doc;
  for (const token of pointerTokens(pointer)) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (node !== null && typeof node === 'object') {
      if (!Object.prototype.hasOwnProperty.call(node, token)) return undefined;
      node = (node as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return node;
}

export function isSchemaObject(v: unknown): v is SchemaNode {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Visit every subschema position (depth-first, parents before children, keys in document order).
 * Boolean subschemas are visited too; `node` is then a boolean.
 */
export function walkSchema(schema: JsonValue, visit: (node: JsonValue, pointer: string) => void, pointer = ''): void {
  visit(schema, pointer);
  if (!isSchemaObject(schema)) return;
  for (const [key, value] of Object.entries(schema)) {
    const at = `${pointer}/${escapePointerToken(key)}`;
    if (SINGLE.has(key)) {
      if (typeof value === 'boolean' || isSchemaObject(value)) walkSchema(value, visit, at);
    } else if (ARRAY.has(key)) {
      if (Array.isArray(value)) value.forEach((sub, i) => walkSchema(sub, visit, `${at}/${i}`));
    } else if (MAP.has(key)) {
      if (isSchemaObject(value)) {
        for (const [name, sub] of Object.entries(value)) walkSchema(sub, visit, `${at}/${escapePointerToken(name)}`);
      }
    }
  }
}

function clone<T extends JsonValue>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** Derive the interop profile from an authoring-strict schema document (see the rules at the top of this file). */
export function deriveInterop(strict: SchemaNode): SchemaNode {
  const out = clone(strict);
  walkSchema(out, (node) => {
    if (!isSchemaObject(node)) return;
    if (node.additionalProperties === false) delete node.additionalProperties;
    if (node.unevaluatedProperties === false) delete node.unevaluatedProperties;
    if (node[OPEN_KEYWORD] === true) {
      for (const k of ['enum', 'const', 'anyOf', 'oneOf', 'pattern']) delete node[k];
    }
    const overrides = node[INTEROP_KEYWORD];
    if (isSchemaObject(overrides)) {
      for (const [k, v] of Object.entries(overrides)) {
        if (v === null) delete node[k];
        else node[k] = clone(v);
      }
    }
  });
  return out;
}

/** Both profiles of one strict document. */
export function schemaForProfile(strict: SchemaNode, profile: SchemaProfile): SchemaNode {
  return profile === 'strict' ? strict : deriveInterop(strict);
}
