// An honest alternative host that answers with ONLY what the published contract requires: every op result
// of the bundled host reduced to the members schema/host-control/<op>.schema.json requires (anyOf: the
// first branch the value satisfies), plus the members the contract requires on a condition a schema cannot
// state (docs/host-control-protocol.md "Conditionally required"). The host suite must judge it exactly as
// the bundled host: every check reads only what the schema requires (docs/interpretations.md §99).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contractSchemaDir } from '../control/contract.js';
import type { FanOutResult } from '../../../host/fan-out.js';
import type { HostUnderTest } from '../../../host/under-test.js';

type Schema = Record<string, unknown>;

const cache = new Map<string, Schema>();

function schemaFile(file: string): Schema {
  let s = cache.get(file);
  if (s === undefined) {
    s = JSON.parse(readFileSync(join(contractSchemaDir(), file), 'utf8')) as Schema;
    cache.set(file, s);
  }
  return s;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A schema node and the file its local `#/…` references resolve in. */
interface Node {
  schema: Schema;
  file: string;
}

function resolve(node: Node): Node {
  let { schema, file } = node;
  for (let guard = 0; typeof schema.$ref === 'string' && guard < 16; guard++) {
    const [target, pointer = ''] = (schema.$ref as string).split('#');
    if (target !== '') file = target!;
    let at: unknown = schemaFile(file);
    for (const part of pointer.split('/').filter((p) => p !== '')) at = (at as Schema)[part];
    schema = at as Schema;
  }
  return { schema, file };
}

/**
 * Members the contract requires on a condition its schemas cannot state, kept wherever they occur:
 * a FrameId's content_digest whenever the frame has one (SPEC.md §6.3: the identity is the triple), the
 * attestation verdict and the kept inclusion proof (capability attestation-checks: F8, F13), the strategy
 * and policy note of a composition ordered by raw score (F10), and the drop records (with their reason and
 * detail) of a composition that leaves an offered frame out (S11-compose-reference, a SHOULD).
 */
const CONDITIONAL: ReadonlySet<string> = new Set(['content_digest', 'evidence', 'verdict', 'inclusionProof', 'strategy', 'policyNote', 'dropped', 'reason', 'detail']);

/** Does `value` satisfy a bare `{required: [...]}` branch (or a typed branch of its kind)? */
function fits(branch: Node, value: unknown): boolean {
  const b = resolve(branch).schema;
  if (b.type === 'string') return typeof value === 'string';
  if (b.type === 'object' && !isObject(value)) return false;
  if (Array.isArray(b.required)) return isObject(value) && (b.required as string[]).every((k) => k in value);
  if (Array.isArray(b.anyOf)) return (b.anyOf as Schema[]).some((x) => fits({ schema: x, file: branch.file }, value));
  return true;
}

/** `value` reduced to what `node` requires. */
export function reduceToRequired(node: Node, input: unknown): unknown {
  let value = input;
  const { schema, file } = resolve(node);
  const child = (s: unknown): Node => ({ schema: (s ?? {}) as Schema, file });
  if (Array.isArray(value)) {
    if (Array.isArray(schema.prefixItems)) return value.map((v, i) => reduceToRequired(child((schema.prefixItems as unknown[])[i] ?? schema.items), v));
    if (schema.items !== undefined) return value.map((v) => reduceToRequired(child(schema.items), v));
    const branch = (schema.anyOf as Schema[] | undefined)?.find((b) => fits(child(b), value));
    return branch !== undefined ? reduceToRequired(child(branch), value) : value;
  }
  if (value instanceof Error) value = { ...value, name: value.name, message: value.message };
  if (!isObject(value)) return value;
  // the branches of an anyOf this value takes: the first it satisfies (their required members and properties join)
  const parts: Node[] = [{ schema, file }];
  const anyOf = schema.anyOf as Schema[] | undefined;
  if (anyOf !== undefined) {
    const branch = anyOf.find((b) => fits(child(b), value));
    if (branch !== undefined) parts.push(resolve(child(branch)));
  }
  const properties: Record<string, Node> = {};
  const required = new Set<string>();
  let described = false;
  for (const p of parts) {
    if (isObject(p.schema.properties)) {
      described = true;
      for (const [k, s] of Object.entries(p.schema.properties)) properties[k] ??= { schema: s as Schema, file: p.file };
    }
    for (const k of (p.schema.required as string[] | undefined) ?? []) required.add(k);
  }
  // an object the schema does not describe member by member (a CGP frame, an ack) is kept as it is
  if (!described && required.size === 0) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (!required.has(k) && !CONDITIONAL.has(k)) continue;
    out[k] = properties[k] !== undefined ? reduceToRequired(properties[k]!, v) : v;
  }
  return out;
}

/** An op's result reduced to what its published schema requires. */
export function minimalResult(op: string, result: unknown): unknown {
  if (result === undefined || result === null) return result;
  return reduceToRequired({ schema: { $ref: '#/$defs/result' }, file: `${op}.schema.json` }, result);
}

/**
 * The bundled host answering with minimal results. What the suite hands back (compose's answers, verify's
 * frames, usage's fan-out, attribute's composition and usage) is the minimal value it returned; the
 * wrapper maps it back to the bundled host's own value before calling it.
 */
export function schemaMinimal(honest: HostUnderTest): HostUnderTest {
  const originals = new WeakMap<object, unknown>();
  const keep = <T>(reduced: T, original: unknown): T => {
    if (typeof reduced === 'object' && reduced !== null) originals.set(reduced, original);
    return reduced;
  };
  const back = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    if (originals.has(v)) return originals.get(v);
    return Array.isArray(v) ? v.map(back) : v;
  };
  const minimal = <T>(op: string, result: T): T => keep(minimalResult(op, result) as T, result);
  return {
    ...honest,
    connectStdio: async (c, a, o) => minimal('connectStdio', await honest.connectStdio(c, a, o)),
    connectHttp: async (u, o) => minimal('connectHttp', await honest.connectHttp(u, o)),
    queryAll: async (query) => {
      const raw = await honest.queryAll(query);
      const reduced = minimal('queryAll', raw) as FanOutResult;
      reduced.answers.forEach((a, i) => {
        keep(a, raw.answers[i]);
        a.frames.forEach((f, j) => keep(f, raw.answers[i]!.frames[j]));
      });
      return reduced;
    },
    verify: async (routingId, held) => minimal('verify', await honest.verify(routingId, back(held) as never)),
    compose: async (answers, opts) => minimal('compose', await honest.compose(back(answers) as never, opts)),
    usage: async (query, fanOut) => minimal('usage', await honest.usage(query, back(fanOut) as never)),
    attribute: async (composed, usage, output) => minimal('attribute', await honest.attribute(back(composed) as never, back(usage) as never, output)),
  };
}
