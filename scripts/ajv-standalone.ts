/**
 * What both ajv standalone generators of scripts/generate.ts share (generated/validators/{strict,interop}.ts
 * and host-control.ts): which schema each compiled function validates, the rebasing of every error's
 * schemaPath onto where its keyword is written, and the prelude that types the output and gives it a require.
 */

/** Function name (`validateN`) → where its schema is, looked up in `where` (schema object → location). */
export function functionLocations(ajv: unknown, where: ReadonlyMap<object, string>): Map<string, string> {
  // ajv's value scope: each compiled function carries its SchemaEnv
  type ScopeName = { str: string; value?: { ref?: { schemaEnv?: { schema: unknown } } } };
  const scope = (ajv as { scope: { _values: Record<string, Map<unknown, ScopeName> | undefined> } }).scope._values;
  const out = new Map<string, string>();
  for (const name of scope.validate?.values() ?? []) {
    const schema = name.value?.ref?.schemaEnv?.schema;
    const at = schema !== null && typeof schema === 'object' ? where.get(schema) : undefined;
    if (at !== undefined) out.set(name.str, at);
  }
  return out;
}

/**
 * Prefix every `schemaPath:"#…` of each top-level function of ajv standalone `code` with `prefixOf(name)`
 * (the function's schema, as `#<pointer>` or `<file>#<pointer>`, minus the leading `#` ajv writes).
 */
export function rebaseSchemaPaths(code: string, prefixOf: (fn: string) => string | undefined): string {
  const parts = code.split(/^(?=function validate\d+\()/m);
  return parts
    .map((part) => {
      const m = /^function (validate\d+)\(/.exec(part);
      if (!m) {
        if (part.includes('schemaPath:"#')) throw new Error('ajv standalone output: schemaPath outside a function');
        return part;
      }
      const prefix = prefixOf(m[1]!);
      if (prefix === undefined) throw new Error(`ajv standalone output: cannot locate the schema of ${m[1]}`);
      return part.replace(/schemaPath:"#/g, `schemaPath:"${prefix.replace(/"/g, '\\"')}`);
    })
    .join('')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The lines between a generated validators file's header comment and the ajv code. */
export const STANDALONE_PRELUDE: readonly string[] = [
  '// @ts-nocheck -- ajv standalone output; the exports below are typed explicitly.',
  "import { createRequire } from 'node:module';",
  "import type { ErrorObject } from 'ajv';",
  '// ajv standalone output require()s its runtime helpers (ucs2length, formats); give it a require in ESM.',
  'const require = createRequire(import.meta.url);',
  '',
  'export interface CompiledValidator {',
  '  (data: unknown): boolean;',
  '  errors?: ErrorObject[] | null;',
  '}',
  '',
];
