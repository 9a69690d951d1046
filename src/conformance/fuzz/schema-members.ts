/**
 * The request members the fuzzer attacks, read from the published envelope schema at run time (so a new
 * member in schema/ is attacked without touching the fuzzer): every member path of the envelopes a host
 * sends (handshake, query, verify) with the JSON types the schema allows there. "Wrong types in every
 * member" = replace the value at one of these paths with a value of a type NOT allowed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findPackageRoot } from '../../util/package-root.js';

export type JsonType = 'null' | 'boolean' | 'number' | 'integer' | 'string' | 'array' | 'object';

export interface MemberPath {
  /** The envelope type this path belongs to. */
  envelope: 'handshake' | 'query' | 'verify';
  /** Member names from the envelope root; a `*` step is "every item of the array". */
  path: readonly string[];
  /** JSON types the schema allows at the path (empty = unconstrained). */
  allowed: readonly JsonType[];
}

type Schema = Record<string, unknown>;

const ROOTS = { handshake: 'HandshakeEnvelope', query: 'QueryEnvelope', verify: 'VerifyEnvelope' } as const;

function deref(defs: Record<string, Schema>, s: Schema): Schema {
  let cur = s;
  for (let i = 0; i < 16 && typeof cur.$ref === 'string'; i++) {
    const name = (cur.$ref as string).replace('#/$defs/', '');
    cur = defs[name] ?? {};
  }
  return cur;
}

function typesOf(s: Schema): JsonType[] {
  if ('const' in s) return [typeof s.const === 'string' ? 'string' : s.const === null ? 'null' : (typeof s.const as JsonType)];
  const t = s.type;
  if (typeof t === 'string') return [t as JsonType];
  if (Array.isArray(t)) return t as JsonType[];
  return [];
}

function walk(defs: Record<string, Schema>, envelope: MemberPath['envelope'], s: Schema, path: string[], out: MemberPath[], depth: number): void {
  const node = deref(defs, s);
  if (depth > 0) out.push({ envelope, path, allowed: typesOf(node) });
  if (depth > 6) return;
  const props = node.properties as Record<string, Schema> | undefined;
  if (props) for (const [name, sub] of Object.entries(props)) walk(defs, envelope, sub, [...path, name], out, depth + 1);
  const items = node.items as Schema | undefined;
  if (items && typeof items === 'object') walk(defs, envelope, items, [...path, '*'], out, depth + 1);
}

let cached: MemberPath[] | undefined;

/** Every member path of handshake, query and verify (the `type` member included), from schema/. */
export function requestMemberPaths(root = findPackageRoot()): MemberPath[] {
  if (cached) return cached;
  const schema = JSON.parse(readFileSync(join(root, 'schema', 'contextgraph-envelope.schema.json'), 'utf8')) as Schema;
  const defs = (schema.$defs ?? {}) as Record<string, Schema>;
  const out: MemberPath[] = [];
  for (const [envelope, def] of Object.entries(ROOTS) as [MemberPath['envelope'], string][]) {
    const s = defs[def];
    if (!s) throw new Error(`schema/contextgraph-envelope.schema.json has no $defs/${def}`);
    walk(defs, envelope, s, [], out, 0);
  }
  cached = out;
  return out;
}
