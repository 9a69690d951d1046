// The host contract's validators are compiled ahead of time (generated/validators/host-control.ts, from the
// published schema/host-control files). They must judge exactly as the published schemas compiled at run time
// do, and every schemaPath they report must name the published keyword that failed.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { contractIssues, contractSchemaDir, CONTRACT_SCHEMA_BASE } from '../../../../src/conformance/host-suite/control/contract.js';
import { pointerTokens } from '../../../../src/util/json-pointer.js';

const at = (doc: unknown, pointer: string): unknown =>
  pointerTokens(pointer).reduce<unknown>((node, t) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[t] : undefined), doc);

const DIR = contractSchemaDir();
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith('.schema.json'))
  .sort();
const DOCS = new Map(FILES.map((f) => [f, JSON.parse(readFileSync(join(DIR, f), 'utf8')) as unknown]));
const OPS = FILES.filter((f) => f !== 'defs.schema.json').map((f) => f.replace(/\.schema\.json$/, ''));

const runtime = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true });
for (const doc of DOCS.values()) runtime.addSchema(doc as object);

/** Wrong values of every shape, and each value's members broken one at a time. */
const BAD: unknown[] = [
  null,
  0,
  'x',
  true,
  [],
  {},
  [null],
  [{}],
  [1, 2, 3, 4, 5, 6, 7, 8],
  { blocks: 'x' },
  { answers: [{}], failures: [{ error: {} }] },
  { routingId: 3, name: [] },
  ['a', [1], { alias: 2 }],
];

test('every operation and part: the ahead-of-time validators judge every value as the published schemas do', () => {
  let compared = 0;
  for (const op of OPS) {
    for (const part of ['args', 'result'] as const) {
      const validate = runtime.getSchema(`${CONTRACT_SCHEMA_BASE}${op}.schema.json#/$defs/${part}`);
      assert.ok(validate, `${op}/${part}`);
      for (const value of BAD) {
        const ok: boolean = validate(value) === true;
        const issues = contractIssues(op, part, value);
        assert.equal(issues.length === 0, ok, `${op}/${part} ${JSON.stringify(value)}: runtime ${ok ? 'accepts' : 'rejects'}`);
        if (!ok) {
          const expected = new Set((validate.errors ?? []).map((e) => `${e.instancePath}${e.keyword === 'required' ? `/${String(e.params.missingProperty)}` : ''}`));
          for (const i of issues) assert.ok(expected.has(i.field), `${op}/${part}: ${i.field} is among the runtime's error paths ${[...expected].join(', ')}`);
        }
        compared++;
      }
    }
  }
  assert.ok(compared >= OPS.length * 2 * BAD.length);
});

test('every schemaPath an issue names is a keyword of a published file', () => {
  let named = 0;
  for (const op of OPS) {
    for (const part of ['args', 'result'] as const) {
      for (const value of BAD) {
        for (const issue of contractIssues(op, part, value)) {
          const m = /^([a-zA-Z-]+\.schema\.json)#(\/.*)$/.exec(issue.schemaPath);
          assert.ok(m, `${op}/${part}: ${issue.schemaPath} is <file>#<pointer>`);
          const doc = DOCS.get(m[1]!);
          assert.ok(doc !== undefined, `${issue.schemaPath}: no such published file`);
          const keyword = m[2]!.split('/').at(-1)!;
          const parent = at(doc, m[2]!.slice(0, -(keyword.length + 1)));
          assert.ok(parent !== undefined && typeof parent === 'object' && parent !== null && keyword in parent, `${issue.schemaPath}: the keyword ${keyword} is not there`);
          named++;
        }
      }
    }
  }
  assert.ok(named > 50, `${named} issues named`);
});
