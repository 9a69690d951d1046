/**
 * generated/validators/host-control.ts (scripts/generate.ts): ajv standalone validators for the host control
 * protocol's published schemas (schema/host-control/<op>.schema.json, their shared defs.schema.json), one
 * per operation and part (`args`, `result`), compiled here so that a host run does not compile them (about
 * 0.2 s of ajv at every start). Every error's schemaPath is rebased to where its keyword is published:
 * `<file>#<pointer>` (e.g. `compose.schema.json#/$defs/result/required`), what a contract error names.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import _standalone from 'ajv/dist/standalone/index.js';
import { escapePointerToken } from '../src/util/json-pointer.js';
import { functionLocations, rebaseSchemaPaths, STANDALONE_PRELUDE } from './ajv-standalone.js';

const standaloneCode = _standalone.default;

/** The $id base of the published host-control schemas (src/conformance/host-suite/control/contract.ts). */
export const HOST_CONTROL_BASE = 'https://cgp-conformance.dev/schema/host-control/';
export const HOST_CONTROL_FILE = 'generated/validators/host-control.ts';

function walk(node: unknown, pointer: string, visit: (node: object, pointer: string) => void): void {
  if (typeof node !== 'object' || node === null) return;
  visit(node, pointer);
  for (const [k, v] of Object.entries(node)) walk(v, `${pointer}/${escapePointerToken(k)}`, visit);
}

export async function renderHostControlValidators(root: string, banner: (sources: string[]) => string): Promise<string> {
  const dir = path.join(root, 'schema', 'host-control');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.schema.json')).sort();
  // the options the contract has always been checked with (allErrors: every issue, not the first)
  const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true, inlineRefs: false, code: { source: true, esm: true, lines: true } });
  const where = new Map<object, string>();
  for (const file of files) {
    const doc = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as object;
    walk(doc, '', (node, pointer) => {
      if (!where.has(node)) where.set(node, `${file}#${pointer}`);
    });
    ajv.addSchema(doc);
  }
  const ops = files.filter((f) => f !== 'defs.schema.json').map((f) => f.replace(/\.schema\.json$/, ''));
  const exports: Record<string, string> = {};
  for (const op of ops) {
    for (const part of ['args', 'result'] as const) {
      const id = `${HOST_CONTROL_BASE}${op}.schema.json#/$defs/${part}`;
      if (!ajv.getSchema(id)) throw new Error(`schema/host-control/${op}.schema.json defines no $defs/${part}`);
      exports[`${op}__${part}`] = id;
    }
  }
  const located = functionLocations(ajv, where);
  const code0 = standaloneCode(ajv, exports).replace(/^"use strict";\n?/, '');
  let code = rebaseSchemaPaths(code0, (fn) => located.get(fn));
  const exportLine = /^export const (\w+) = (validate\d+);$/gm;
  const fnOf = new Map<string, string>();
  for (const m of code.matchAll(exportLine)) fnOf.set(m[1]!, m[2]!);
  code = code.replace(exportLine, '').trim();

  const out: string[] = [];
  out.push(banner(files.map((f) => `schema/host-control/${f}`)));
  out.push("/* ajv standalone (Ajv2020, allErrors), one validator per operation and part; every error's schemaPath is");
  out.push(' * `<file>#<pointer>` into the published schema/host-control files. */');
  out.push(...STANDALONE_PRELUDE);
  out.push(code);
  out.push('');
  out.push('/** Every validator by `<operation>/<part>`. */');
  out.push('export const HOST_CONTROL_VALIDATORS: Readonly<Record<string, CompiledValidator>> = {');
  for (const name of Object.keys(exports)) {
    const fn = fnOf.get(name);
    if (fn === undefined) throw new Error(`ajv standalone output has no export for ${name}`);
    out.push(`  ${JSON.stringify(name.replace('__', '/'))}: ${fn},`);
  }
  out.push('};');
  out.push('');
  return out.join('\n');
}
