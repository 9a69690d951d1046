/**
 * U4 (§15): a field contextgraph/1 defines keeps its name, type and meaning for the life of the major
 * family — superseded fields are deprecated (kept parseable), never deleted or redefined.
 *
 * What a machine can witness is the name and the type, so the check compares the PUBLISHED schema
 * (schema/*.schema.json, the source every generated type and validator is derived from) against a
 * frozen inventory of the contextgraph/1.0 fields (vectors/schema-inventory-1.0.json, written once by
 * scripts/freeze-schema-inventory.ts from the 1.0 schema):
 *
 *  - a field is addressed by its WIRE path, not by a schema $def name (renaming a $def changes no
 *    message): `<root>.<member>[.<member>…]`, `[]` marking array items. Roots are the envelope
 *    types (`handshake`, `frames`, …) and the lifecycle record kinds (`lifecycle:observation`, …);
 *  - its type is the JSON type the schema gives it after resolving $ref, `anyOf`/`oneOf` unions and
 *    nullability (`null|string`), `array<…>` for arrays, `const:"…"` for fixed discriminators;
 *  - a closed base vocabulary (an enum, e.g. FrameKind, Representation) lists its values: a 1.x may add
 *    values, never remove one (that would redefine the field).
 *
 * Findings: a frozen field that is gone is "deleted", one whose type differs is "redefined", a frozen
 * vocabulary value that is gone is "redefined". New fields and values are additive and fine. Meaning
 * is not machine-checkable; it is kept by review (the SPEC tables), not claimed here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { violation, type Finding } from '../../protocol/findings.js';
import { isJsonObject } from '../../util/json.js';

type Schema = Record<string, unknown> | boolean;

export interface InventoryField {
  /** Wire path, e.g. `frames.result.frames[].content_digest`. */
  path: string;
  /** JSON type descriptor after $ref/union resolution. */
  type: string;
  /** Closed base vocabulary values, sorted (only for enum-typed fields). */
  values?: string[];
}

export interface SchemaInventory {
  /** The protocol version the inventory describes. */
  protocol_version: string;
  /** Sorted by path. */
  fields: InventoryField[];
}

class SchemaDoc {
  constructor(
    readonly file: string,
    readonly root: Record<string, unknown>,
  ) {}

  /** Follow same-document $refs (docs/interpretations.md §10) to the schema they name. */
  resolve(schema: Schema, trail: string[] = []): { schema: Schema; refs: string[] } {
    let current = schema;
    const refs = [...trail];
    while (isJsonObject(current) && typeof current.$ref === 'string') {
      const ref = current.$ref;
      if (!ref.startsWith('#/')) throw new Error(`${this.file}: only same-document $refs are supported, got ${ref}`);
      if (refs.includes(ref)) break;
      refs.push(ref);
      let target: unknown = this.root;
      for (const part of ref.slice(2).split('/')) target = isJsonObject(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
      if (target === undefined) throw new Error(`${this.file}: unresolvable $ref ${ref}`);
      current = target as Schema;
    }
    return { schema: current, refs };
  }
}

/** The JSON type descriptor of a (resolved) schema. */
function typeOf(doc: SchemaDoc, schema: Schema, depth = 0): string {
  if (depth > 20) return 'any';
  const { schema: s } = doc.resolve(schema);
  if (s === true || !isJsonObject(s)) return 'any';
  if ('const' in s) return `const:${JSON.stringify(s.const)}`;
  const branches = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined) as Schema[] | undefined;
  let types: string[];
  if (s.type !== undefined) {
    types = (Array.isArray(s.type) ? s.type : [s.type]).map((t) => (t === 'array' ? `array<${s.items === undefined ? 'any' : typeOf(doc, s.items as Schema, depth + 1)}>` : String(t)));
  } else if (branches !== undefined) {
    types = branches.flatMap((b) => typeOf(doc, b, depth + 1).split('|'));
  } else if (Array.isArray(s.allOf)) {
    const typed = (s.allOf as Schema[]).map((b) => typeOf(doc, b, depth + 1)).filter((t) => t !== 'any');
    types = typed.length > 0 ? typed[0]!.split('|') : ['any'];
  } else types = ['any'];
  return [...new Set(types)].sort().join('|');
}

/** A closed vocabulary's values (own enum, or an enum inside allOf / behind $ref). */
function enumOf(doc: SchemaDoc, schema: Schema, depth = 0): string[] | undefined {
  if (depth > 20) return undefined;
  const { schema: s } = doc.resolve(schema);
  if (!isJsonObject(s)) return undefined;
  if (Array.isArray(s.enum)) return s.enum.map((v) => String(v)).sort();
  if (Array.isArray(s.allOf)) {
    for (const b of s.allOf as Schema[]) {
      const values = enumOf(doc, b, depth + 1);
      if (values !== undefined) return values;
    }
  }
  return undefined;
}

/** Own properties plus those contributed by allOf members (RecordEnvelope, conditionals). */
function propertiesOf(doc: SchemaDoc, schema: Schema, depth = 0): Map<string, Schema> {
  const out = new Map<string, Schema>();
  if (depth > 20) return out;
  const { schema: s } = doc.resolve(schema);
  if (!isJsonObject(s)) return out;
  if (Array.isArray(s.allOf)) {
    for (const b of s.allOf as Schema[]) for (const [k, v] of propertiesOf(doc, b, depth + 1)) if (v !== true && !out.has(k)) out.set(k, v);
  }
  if (isJsonObject(s.properties)) {
    // a `true` property schema only re-states a member (e.g. a conditional `required`); keep a real one
    for (const [k, v] of Object.entries(s.properties)) if (v !== true || !out.has(k)) out.set(k, v as Schema);
  }
  return out;
}

/** Object-shaped schemas reachable from a property schema (itself, its array items, its union branches). */
function nestedObjects(doc: SchemaDoc, schema: Schema, path: string, depth = 0): Array<{ schema: Schema; path: string }> {
  if (depth > 20) return [];
  const { schema: s } = doc.resolve(schema);
  if (!isJsonObject(s)) return [];
  const out: Array<{ schema: Schema; path: string }> = [];
  const types = Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type];
  if (types.includes('object') || isJsonObject(s.properties) || (Array.isArray(s.allOf) && propertiesOf(doc, s).size > 0)) out.push({ schema: s, path });
  if (types.includes('array') && s.items !== undefined) out.push(...nestedObjects(doc, s.items as Schema, `${path}[]`, depth + 1));
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(s[key])) for (const b of s[key] as Schema[]) out.push(...nestedObjects(doc, b, path, depth + 1));
  }
  return out;
}

function walk(doc: SchemaDoc, schema: Schema, path: string, fields: Map<string, InventoryField>, stack: readonly string[]): void {
  const { refs } = doc.resolve(schema);
  if (refs.some((r) => stack.includes(r))) return; // recursive structure: inventoried once
  const nextStack = [...stack, ...refs];
  for (const [name, prop] of propertiesOf(doc, schema)) {
    const fieldPath = `${path}.${name}`;
    const field: InventoryField = { path: fieldPath, type: typeOf(doc, prop) };
    const values = enumOf(doc, prop);
    if (values !== undefined) field.values = values;
    if (!fields.has(fieldPath)) fields.set(fieldPath, field);
    for (const nested of nestedObjects(doc, prop, fieldPath)) walk(doc, nested.schema, nested.path, fields, nextStack);
  }
}

/** The root of a top-level branch: its `type` (envelopes) or `record_kind` (lifecycle records) const. */
function rootName(doc: SchemaDoc, branch: Schema, prefix: string, index: number): string {
  const props = propertiesOf(doc, branch);
  for (const discriminator of ['type', 'record_kind']) {
    const p = props.get(discriminator);
    const { schema } = p === undefined ? { schema: undefined } : doc.resolve(p);
    if (isJsonObject(schema) && typeof schema.const === 'string') return `${prefix}${schema.const}`;
  }
  const { refs } = doc.resolve(branch);
  return `${prefix}${refs.at(-1)?.split('/').pop() ?? `branch${index}`}`;
}

/** Inventory every field a schema directory defines (every *.schema.json in it). */
export function inventorySchemaDir(dir: string): InventoryField[] {
  const fields = new Map<string, InventoryField>();
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.schema.json'))
    .sort();
  if (files.length === 0) throw new Error(`no *.schema.json in ${dir}`);
  for (const file of files) {
    const root = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
    const doc = new SchemaDoc(file, root);
    const prefix = file.includes('lifecycle') ? 'lifecycle:' : '';
    const branches = (Array.isArray(root.oneOf) ? root.oneOf : [root]) as Schema[];
    branches.forEach((branch, i) => walk(doc, branch, rootName(doc, branch, prefix, i), fields, []));
  }
  return [...fields.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * U4: every field of the frozen inventory is still defined by the schema with the same type, and
 * every frozen vocabulary value is still in it. Additions are not findings.
 */
export function checkFieldStability(frozen: SchemaInventory, current: readonly InventoryField[]): Finding[] {
  const out: Finding[] = [];
  const now = new Map(current.map((f) => [f.path, f]));
  for (const field of frozen.fields) {
    const c = now.get(field.path);
    if (c === undefined) {
      out.push(
        violation(
          'U4',
          `/${field.path}`,
          `field ${field.path} (${field.type}) defined by ${frozen.protocol_version} is gone from the published schema; required: kept (deprecated at most) for the life of contextgraph/1 — deletion needs a new major family`,
        ),
      );
      continue;
    }
    if (c.type !== field.type) {
      out.push(
        violation(
          'U4',
          `/${field.path}`,
          `field ${field.path} is ${c.type} in the published schema; ${frozen.protocol_version} defines it as ${field.type} — a field is never redefined within contextgraph/1`,
        ),
      );
    }
    if (field.values !== undefined) {
      const have = new Set(c.values ?? []);
      const gone = field.values.filter((v) => !have.has(v));
      if (gone.length > 0) {
        out.push(
          violation(
            'U4',
            `/${field.path}`,
            `field ${field.path} no longer accepts ${gone.map((v) => JSON.stringify(v)).join(', ')} of its ${frozen.protocol_version} vocabulary; a 1.x may add values, never remove one`,
          ),
        );
      }
    }
  }
  return out;
}

/** Read a frozen inventory file. */
export function readInventory(file: string): SchemaInventory {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<SchemaInventory>;
  if (typeof raw.protocol_version !== 'string' || !Array.isArray(raw.fields)) throw new Error(`${file} is not a schema inventory ({protocol_version, fields})`);
  return { protocol_version: raw.protocol_version, fields: raw.fields };
}
