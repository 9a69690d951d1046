/**
 * Runtime schema validation for the CLI, the decoder and the checks.
 *
 * - `strict`  = the authoring-strict lint (schema/*.schema.json as written).
 * - `interop` = the wire profile derived from it (src/schema/profile.ts): unknown members and open-vocabulary
 *   values are accepted (U1/U2), protocol_version is checked by family only (H3 handles the family).
 *
 * Every ajv error becomes one SchemaIssue with the JSON pointer of the offending value (for a missing member:
 * the pointer the member would have) and an `id`: the nearest `x-cgp-anchor` found by walking the error's
 * schemaPath up through the schema document, else `S13-authoring-strict` for a closed-object failure
 * (additionalProperties / unevaluatedProperties), else `S2-wire-shape`.
 */
import * as strictValidators from '../../generated/validators/strict.js';
import * as interopValidators from '../../generated/validators/interop.js';
import { envelopeSchema, lifecycleSchema } from '../../generated/validators/documents.js';
import { ANCHOR_KEYWORD, deriveInterop, isSchemaObject, resolvePointer, type SchemaNode, type SchemaProfile } from './profile.js';
import { escapePointerToken, pointerTokens } from '../util/json-pointer.js';
import { isJsonObject } from '../util/json.js';

export type { SchemaProfile } from './profile.js';

export interface SchemaIssue {
  /** anchor or rule id: the nearest x-cgp-anchor, else S13-authoring-strict (closed object), else S2-wire-shape */
  id: string;
  /** JSON pointer of the offending value in the validated instance ("" = the whole value) */
  pointer: string;
  /** the failing JSON Schema keyword (ajv's name, e.g. "pattern", "required", "false schema") */
  keyword: string;
  /** starts with the id; says what was seen and what was required */
  message: string;
  /** absolute location of the failing keyword in its schema document, e.g. "#/$defs/ContextFrame/properties/score/maximum" */
  schemaPath: string;
}

/** Rule id for a closed-object (authoring-strict lint) failure. */
export const AUTHORING_STRICT_ID = 'S13-authoring-strict';
/** Rule id for any other shape failure with no more specific anchor. */
export const WIRE_SHAPE_ID = 'S2-wire-shape';
/** Rule id for an envelope whose `type` is not one this implementation knows (§2.1). */
export const UNKNOWN_TYPE_ID = 'S2.1-unknown-type';

type SchemaKey = 'envelope' | 'lifecycle';
type ErrorLike = {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
  propertyName?: string;
};
type Validator = ((data: unknown) => boolean) & { errors?: ErrorLike[] | null };
type Entry = { readonly validate: Validator; readonly schema: SchemaKey; readonly pointer: string };

const VALIDATOR_TABLES: Record<SchemaProfile, Readonly<Record<string, Entry>>> = {
  strict: strictValidators.VALIDATORS as unknown as Readonly<Record<string, Entry>>,
  interop: interopValidators.VALIDATORS as unknown as Readonly<Record<string, Entry>>,
};

const STRICT_DOCUMENTS: Record<SchemaKey, SchemaNode> = {
  envelope: envelopeSchema as unknown as SchemaNode,
  lifecycle: lifecycleSchema as unknown as SchemaNode,
};
let interopDocuments: Record<SchemaKey, SchemaNode> | undefined;
/**
 * The schema documents of a profile (errors are mapped to anchors through them). The interop ones are
 * derived on first use, not at load: a process whose messages all validate never needs them, and deriving
 * them is a walk of both whole documents (a fresh host process per scenario pays it otherwise).
 */
function documentsOf(profile: SchemaProfile): Record<SchemaKey, SchemaNode> {
  if (profile === 'strict') return STRICT_DOCUMENTS;
  if (profile !== 'interop') throw new Error(`unknown schema profile ${JSON.stringify(profile)} (expected "strict" or "interop")`);
  return (interopDocuments ??= { envelope: deriveInterop(STRICT_DOCUMENTS.envelope), lifecycle: deriveInterop(STRICT_DOCUMENTS.lifecycle) });
}

/** Map discriminator value → $defs name, read from a root `oneOf` of `$ref`s whose targets pin `member` by const. */
function branchTable(doc: SchemaNode, member: string): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  const branches = Array.isArray(doc.oneOf) ? doc.oneOf : [];
  for (const b of branches) {
    if (!isSchemaObject(b) || typeof b.$ref !== 'string') continue;
    const def = resolvePointer(doc, b.$ref);
    const name = pointerTokens(b.$ref).at(-1);
    const props = isSchemaObject(def) ? def.properties : undefined;
    const tag = isSchemaObject(props) && isSchemaObject(props[member]) ? props[member].const : undefined;
    if (typeof tag === 'string' && name) out.set(tag, name);
  }
  return out;
}

/** envelope `type` → $defs name (e.g. "handshake_ack" → "HandshakeAckEnvelope") */
export const ENVELOPE_DEFS: ReadonlyMap<string, string> = branchTable(STRICT_DOCUMENTS.envelope, 'type');
/** lifecycle `record_kind` → $defs name (e.g. "observation" → "ObservationRecord") */
export const RECORD_DEFS: ReadonlyMap<string, string> = branchTable(STRICT_DOCUMENTS.lifecycle, 'record_kind');
const ENVELOPE_ROOT = String(STRICT_DOCUMENTS.envelope.title);
const RECORD_ROOT = String(STRICT_DOCUMENTS.lifecycle.title);

/** Every name validateDef accepts (each $defs entry of both schemas, plus the roots Envelope and LifecycleRecord). */
export const DEF_NAMES: readonly string[] = Object.keys(VALIDATOR_TABLES.strict);

/* ------------------------------------------------------------------------------------------------------ */

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function preview(v: unknown): string {
  if (v === undefined) return 'nothing';
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

function where(pointer: string): string {
  return pointer === '' ? '(root)' : pointer;
}

function issue(id: string, pointer: string, keyword: string, saw: string, required: string, schemaPath: string): SchemaIssue {
  return { id, pointer, keyword, schemaPath, message: `${id} violated at ${where(pointer)}: saw ${saw}; required ${required}` };
}

/** The nearest x-cgp-anchor at or above `schemaPath` (absolute, "#/..."), with the annotated node. */
export function anchorAt(doc: SchemaNode, schemaPath: string): { id: string; node: SchemaNode } | undefined {
  let tokens: string[];
  try {
    tokens = pointerTokens(schemaPath);
  } catch {
    return undefined;
  }
  for (let n = tokens.length; n >= 0; n--) {
    const node = resolvePointer(doc, `/${tokens.slice(0, n).map(escapePointerToken).join('/')}`.replace(/^\/$/, ''));
    if (isSchemaObject(node) && typeof node[ANCHOR_KEYWORD] === 'string') return { id: node[ANCHOR_KEYWORD], node };
  }
  return undefined;
}

function parentPath(schemaPath: string): string {
  const i = schemaPath.lastIndexOf('/');
  return i < 0 ? schemaPath : schemaPath.slice(0, i);
}

/** Human description of one subschema, for "required one of ..." messages. */
function describeSchema(node: unknown): string {
  if (node === true) return 'anything';
  if (node === false) return 'nothing';
  if (!isSchemaObject(node)) return 'a valid value';
  const parts: string[] = [];
  if (Array.isArray(node.enum)) parts.push(`one of ${node.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  if ('const' in node) parts.push(`exactly ${JSON.stringify(node.const)}`);
  if (typeof node.pattern === 'string') parts.push(`a string matching /${node.pattern}/`);
  if (node.type !== undefined && parts.length === 0) parts.push(`a value of type ${Array.isArray(node.type) ? node.type.join(' or ') : String(node.type)}`);
  if (typeof node.$ref === 'string' && parts.length === 0) parts.push(`a ${pointerTokens(node.$ref).at(-1) ?? node.$ref}`);
  return parts.join(' and ') || 'a valid value';
}

/** Member names a schema object declares, through its own `properties` and those of its allOf members ($ref followed). */
function declaredMembers(doc: SchemaNode, node: unknown, out = new Set<string>(), seen = new Set<unknown>()): Set<string> {
  if (!isSchemaObject(node) || seen.has(node)) return out;
  seen.add(node);
  if (isSchemaObject(node.properties)) for (const k of Object.keys(node.properties)) out.add(k);
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#')) declaredMembers(doc, resolvePointer(doc, node.$ref), out, seen);
  if (Array.isArray(node.allOf)) for (const m of node.allOf) declaredMembers(doc, m, out, seen);
  return out;
}

function isNullOnly(node: unknown): boolean {
  return isSchemaObject(node) && node.type === 'null' && Object.keys(node).every((k) => k === 'type' || k === 'description');
}

/**
 * Drop the noise ajv's allErrors mode produces around composite keywords:
 *  - `if` errors ("must match then schema") always accompany the `then` errors that say what is wrong;
 *  - an anyOf/oneOf with a `{type:"null"}` branch is a nullable: keep the other branch's errors, drop the
 *    null branch's and the composite's;
 *  - any other anyOf/oneOf (a vocabulary: base enum or namespaced pattern) is reported once, as itself;
 *  - a propertyNames wrapper error is dropped when its inner error is reported;
 *  - an unevaluatedProperties error for a member the closed object does declare is dropped (see below);
 *  - after a `type` failure, the same schema's other failures on the same value are dropped.
 */
function prune(errors: ErrorLike[], doc: SchemaNode): ErrorLike[] {
  const drop = new Set<ErrorLike>();
  for (const e of errors) {
    if (e.keyword === 'if') drop.add(e);
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf') {
      const branches = resolvePointer(doc, e.schemaPath);
      const nullIdx = Array.isArray(branches) ? branches.findIndex(isNullOnly) : -1;
      const under = (x: ErrorLike, prefix: string) => x !== e && x.schemaPath.startsWith(`${prefix}/`) && x.instancePath.startsWith(e.instancePath);
      if (nullIdx >= 0) {
        drop.add(e);
        for (const x of errors) if (under(x, `${e.schemaPath}/${nullIdx}`)) drop.add(x);
      } else {
        for (const x of errors) if (under(x, e.schemaPath)) drop.add(x);
      }
    }
    // A subschema that fails contributes no annotations, so when the common part of a record fails every
    // common member is also reported "unevaluated". Keep only the members the closed object does not declare.
    if (e.keyword === 'unevaluatedProperties' && typeof e.params.unevaluatedProperty === 'string') {
      if (declaredMembers(doc, resolvePointer(doc, parentPath(e.schemaPath))).has(e.params.unevaluatedProperty)) drop.add(e);
    }
    if (e.keyword === 'propertyNames') {
      const inner = errors.some((x) => x !== e && x.schemaPath.startsWith(`${e.schemaPath}/`) && x.propertyName === e.params.propertyName);
      if (inner) drop.add(e);
    }
  }
  // A value of the wrong JSON type: further keyword failures of the same schema on the same value (e.g. the
  // vocabulary enum of a FrameKind given a number) say nothing the type error does not.
  for (const e of errors) {
    if (e.keyword !== 'type' || drop.has(e)) continue;
    const owner = `${parentPath(e.schemaPath)}/`;
    for (const x of errors) if (x !== e && x.instancePath === e.instancePath && x.schemaPath.startsWith(owner)) drop.add(x);
  }
  return errors.filter((e) => !drop.has(e));
}

/** True when the provenance link owning `pointer` (the link itself, or its digest member) has type "file". */
function provenanceIsFile(value: unknown, pointer: string): boolean {
  const linkPointer = /\/provenance\/[0-9]+$/.test(pointer) ? pointer : pointer.replace(/\/[^/]*$/, '');
  let link: unknown;
  try {
    link = resolvePointer(value, linkPointer);
  } catch {
    return true;
  }
  return typeof link !== 'object' || link === null || (link as { type?: unknown }).type === 'file';
}

function toIssue(e: ErrorLike, doc: SchemaNode, value: unknown): SchemaIssue {
  const base = e.instancePath;
  const p = e.params ?? {};
  let pointer = base;
  if (e.keyword === 'required' && typeof p.missingProperty === 'string') pointer = `${base}/${escapePointerToken(p.missingProperty)}`;
  else if (e.keyword === 'additionalProperties' && typeof p.additionalProperty === 'string') pointer = `${base}/${escapePointerToken(p.additionalProperty)}`;
  else if (e.keyword === 'unevaluatedProperties' && typeof p.unevaluatedProperty === 'string') pointer = `${base}/${escapePointerToken(p.unevaluatedProperty)}`;
  else if (typeof e.propertyName === 'string') pointer = `${base}/${escapePointerToken(e.propertyName)}`;
  else if (e.keyword === 'propertyNames' && typeof p.propertyName === 'string') pointer = `${base}/${escapePointerToken(p.propertyName)}`;

  // The schema node that owns the failing keyword ("false schema" names the boolean subschema itself).
  const ownerPath = e.keyword === 'false schema' ? e.schemaPath.replace(/\/false schema$/, '') : parentPath(e.schemaPath);
  const anchored = anchorAt(doc, ownerPath);
  let id = anchored?.id ?? (e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties' ? AUTHORING_STRICT_ID : WIRE_SHAPE_ID);
  // F5 binds provenance of type "file" only ("Only file provenance is held to F5", §6.2): the digest
  // pattern on any other link is the schema's wire shape, S2-wire-shape.
  if (id === 'F5' && !provenanceIsFile(value, base)) id = WIRE_SHAPE_ID;
  const rule =
    anchored && typeof anchored.node.description === 'string' && (e.keyword === 'required' || e.keyword === 'false schema' || anchored.node.if !== undefined) ? ` (${anchored.node.description})` : '';
  const schemaPath = e.keyword === 'false schema' ? ownerPath : e.schemaPath;
  let seen: unknown;
  try {
    seen = resolvePointer(value, base);
  } catch {
    seen = undefined;
  }

  switch (e.keyword) {
    case 'required':
      return issue(id, pointer, e.keyword, `no ${JSON.stringify(p.missingProperty)} member`, `${JSON.stringify(p.missingProperty)} to be present${rule}`, schemaPath);
    case 'additionalProperties': {
      const owner = resolvePointer(doc, ownerPath);
      const allowed = isSchemaObject(owner) && isSchemaObject(owner.properties) ? Object.keys(owner.properties) : [];
      return issue(
        id,
        pointer,
        e.keyword,
        `unknown member ${JSON.stringify(p.additionalProperty)}`,
        `only the declared members (${allowed.join(', ')}) in the authoring-strict profile; the interop profile ignores unknown members (U1)`,
        schemaPath,
      );
    }
    case 'unevaluatedProperties':
      return issue(
        id,
        pointer,
        e.keyword,
        `member ${JSON.stringify(p.unevaluatedProperty)} that this record kind does not declare`,
        'only the members of the common envelope and of this record kind in the authoring-strict profile; the interop profile ignores unknown members (U1)',
        schemaPath,
      );
    case 'false schema':
      return issue(id, pointer, e.keyword, `member ${JSON.stringify(pointer.split('/').pop() ?? '')} = ${preview(resolvePointer(value, pointer))}`, `that member to be absent${rule}`, schemaPath);
    case 'type':
      return issue(id, pointer, e.keyword, `${jsonType(seen)} ${preview(seen)}`, `a value of type ${Array.isArray(p.type) ? p.type.join(' or ') : String(p.type)}`, schemaPath);
    case 'enum':
      return issue(id, pointer, e.keyword, preview(seen), `one of ${(Array.isArray(p.allowedValues) ? p.allowedValues : []).map((v) => JSON.stringify(v)).join(', ')}${rule}`, schemaPath);
    case 'const':
      return issue(id, pointer, e.keyword, preview(seen), `exactly ${JSON.stringify(p.allowedValue)}${rule}`, schemaPath);
    case 'pattern':
      if (typeof e.propertyName === 'string') {
        return issue(id, pointer, e.keyword, `member name ${JSON.stringify(e.propertyName)}`, `member names matching /${String(p.pattern)}/`, schemaPath);
      }
      return issue(id, pointer, e.keyword, preview(seen), `a string matching /${String(p.pattern)}/`, schemaPath);
    case 'minLength':
    case 'maxLength':
      return issue(id, pointer, e.keyword, `${preview(seen)}`, `${e.keyword === 'minLength' ? 'at least' : 'at most'} ${String(p.limit)} character(s)`, schemaPath);
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return issue(id, pointer, e.keyword, preview(seen), `a number ${String(p.comparison)} ${String(p.limit)}`, schemaPath);
    case 'anyOf':
    case 'oneOf': {
      const branches = resolvePointer(doc, e.schemaPath);
      const alts = Array.isArray(branches) ? branches.map(describeSchema).join(', or ') : 'one of the alternatives';
      return issue(id, pointer, e.keyword, preview(seen), `${e.keyword === 'oneOf' ? 'exactly one of' : 'any of'}: ${alts}`, schemaPath);
    }
    default:
      return issue(id, pointer, e.keyword, preview(seen), `${e.message ?? e.keyword} (${e.keyword} ${preview(p)})`, schemaPath);
  }
}

function run(defName: string, value: unknown, profile: SchemaProfile): SchemaIssue[] {
  const table = VALIDATOR_TABLES[profile];
  if (!table) throw new Error(`unknown schema profile ${JSON.stringify(profile)} (expected "strict" or "interop")`);
  const entry = Object.prototype.hasOwnProperty.call(table, defName) ? table[defName] : undefined;
  if (!entry) throw new Error(`unknown schema definition ${JSON.stringify(defName)}`);
  if (entry.validate(value)) return [];
  const doc = documentsOf(profile)[entry.schema];
  return prune([...(entry.validate.errors ?? [])], doc).map((e) => toIssue(e, doc, value));
}

function tagged(value: unknown, profile: SchemaProfile, member: string, table: ReadonlyMap<string, string>, what: string, schemaKey: SchemaKey, unknownId: string): SchemaIssue[] {
  if (!isJsonObject(value)) {
    return [issue(WIRE_SHAPE_ID, '', 'type', `${jsonType(value)} ${preview(value)}`, `${what} to be a JSON object`, '#/type')];
  }
  const tag = value[member];
  // the common case first: a known tag, validated against its branch (the message pieces below only on failure)
  const known = typeof tag === 'string' ? table.get(tag) : undefined;
  if (known) return run(known, value, profile);
  const ptr = `/${member}`;
  const allowed = [...table.keys()].map((k) => JSON.stringify(k)).join(', ');
  if (tag === undefined) {
    return [issue(WIRE_SHAPE_ID, ptr, 'required', `no ${JSON.stringify(member)} member`, `${what} to be tagged by a string "${member}" member (${allowed})`, '#/oneOf')];
  }
  if (typeof tag !== 'string') {
    return [issue(WIRE_SHAPE_ID, ptr, 'type', `${jsonType(tag)} ${preview(tag)}`, `a string "${member}" (${allowed})`, '#/oneOf')];
  }
  const def = table.get(tag);
  if (!def) {
    const schemaPath = schemaKey === 'envelope' ? '#/oneOf' : '#/$defs/RecordKind/enum';
    return [issue(unknownId, ptr, 'enum', preview(tag), `one of ${allowed}`, schemaPath)];
  }
  return run(def, value, profile);
}

/**
 * Validate one envelope. The branch is picked by its `type` member and validated against that $defs entry
 * alone, so errors are not multiplied across the root oneOf. A non-object, an absent or non-string `type`
 * gives one S2-wire-shape issue; an unknown `type` gives one S2.1-unknown-type issue (a receiver replies
 * bad_request or ignores it, never rejects the peer for it).
 */
export function validateEnvelope(value: unknown, profile: SchemaProfile): SchemaIssue[] {
  return tagged(value, profile, 'type', ENVELOPE_DEFS, 'an envelope', 'envelope', UNKNOWN_TYPE_ID);
}

/** Validate one lifecycle record, picking the branch by `record_kind` (closed within lifecycle/1.0). */
export function validateRecord(value: unknown, profile: SchemaProfile): SchemaIssue[] {
  return tagged(value, profile, 'record_kind', RECORD_DEFS, 'a lifecycle record', 'lifecycle', WIRE_SHAPE_ID);
}

/**
 * Validate against one named definition of either schema (e.g. "ContextFrame", "ContextQueryResult",
 * "RecordAttestation"). The roots "Envelope" and "LifecycleRecord" are validated through their discriminator
 * (validateEnvelope / validateRecord), which accepts and rejects exactly what the root oneOf does.
 * Throws on an unknown definition name or profile (a programming error, not a finding).
 */
export function validateDef(defName: string, value: unknown, profile: SchemaProfile): SchemaIssue[] {
  if (defName === ENVELOPE_ROOT) {
    if (!VALIDATOR_TABLES[profile]) run(defName, value, profile);
    return validateEnvelope(value, profile);
  }
  if (defName === RECORD_ROOT) {
    if (!VALIDATOR_TABLES[profile]) run(defName, value, profile);
    return validateRecord(value, profile);
  }
  return run(defName, value, profile);
}

/** True when the value validates against the named definition in the given profile. */
export function isValidDef(defName: string, value: unknown, profile: SchemaProfile): boolean {
  return validateDef(defName, value, profile).length === 0;
}

/** The schema document (strict, or the derived interop one) a definition belongs to, for tools such as `explain`. */
export function schemaDocument(which: SchemaKey, profile: SchemaProfile): SchemaNode {
  return documentsOf(profile)[which];
}
