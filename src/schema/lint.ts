/**
 * Source diagnostics for schema/*.schema.json: every problem names the file and a JSON pointer, so that a
 * malformed edit (invalid JSON, a duplicate member, a bad `$ref`, an unknown keyword) fails `npm run generate`
 * with a location rather than a stack trace.
 */
import { ANCHOR_KEYWORD, INTEROP_KEYWORD, KNOWN_KEYWORDS, OPEN_KEYWORD, isSchemaObject, resolvePointer, walkSchema, type JsonValue, type SchemaNode } from './profile.js';
import { escapePointerToken } from '../util/json-pointer.js';

export const SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';
export const SCHEMA_ID_BASE = 'https://contextgraphprotocol.org/schema/v1/';

export interface SchemaProblem {
  file: string;
  /** JSON pointer into the file ("" = the document root). */
  pointer: string;
  message: string;
}

export class SchemaSourceError extends Error {
  readonly problems: SchemaProblem[];
  constructor(problems: SchemaProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'SchemaSourceError';
    this.problems = problems;
  }
}

export function formatProblem(p: SchemaProblem): string {
  return `${p.file}#${p.pointer}: ${p.message}`;
}

/**
 * A strict JSON reader that tracks the JSON pointer of the value being read. Used to locate syntax errors
 * (JSON.parse reports only an offset) and to reject duplicate member names (JSON.parse keeps the last one
 * silently, which hides a bad edit).
 */
class LocatingReader {
  private i = 0;
  constructor(private readonly text: string) {}

  read(): JsonValue {
    this.ws();
    const v = this.value('');
    this.ws();
    if (this.i < this.text.length) this.fail('', 'unexpected text after the JSON document');
    return v;
  }

  private where(): string {
    const before = this.text.slice(0, this.i);
    const line = before.split('\n').length;
    const column = this.i - before.lastIndexOf('\n');
    return `line ${line}, column ${column}`;
  }

  private fail(pointer: string, message: string): never {
    throw new LocatedJsonError(pointer, `${message} (${this.where()})`);
  }

  private ws(): void {
    while (this.i < this.text.length && ' \t\r\n'.includes(this.text[this.i]!)) this.i++;
  }

  private value(pointer: string): JsonValue {
    const c = this.text[this.i];
    if (c === '{') return this.object(pointer);
    if (c === '[') return this.array(pointer);
    if (c === '"') return this.string(pointer);
    const m = /^(?:-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null)/.exec(this.text.slice(this.i));
    if (!m) this.fail(pointer, c === undefined ? 'unexpected end of input' : `unexpected character ${JSON.stringify(c)}`);
    this.i += m[0].length;
    return JSON.parse(m[0]) as JsonValue;
  }

  private string(pointer: string): string {
    const m = /^"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/.exec(this.text.slice(this.i));
    if (!m) this.fail(pointer, 'malformed string');
    this.i += m[0].length;
    return JSON.parse(m[0]) as string;
  }

  private object(pointer: string): { [k: string]: JsonValue } {
    const out: { [k: string]: JsonValue } = {};
    this.i++;
    this.ws();
    if (this.text[this.i] === '}') {
      this.i++;
      return out;
    }
    for (;;) {
      this.ws();
      if (this.text[this.i] !== '"') this.fail(pointer, 'expected a member name');
      const key = this.string(pointer);
      const at = `${pointer}/${escapePointerToken(key)}`;
      if (Object.prototype.hasOwnProperty.call(out, key)) this.fail(at, `duplicate member ${JSON.stringify(key)}`);
      this.ws();
      if (this.text[this.i] !== ':') this.fail(at, 'expected ":"');
      this.i++;
      this.ws();
      out[key] = this.value(at);
      this.ws();
      const c = this.text[this.i];
      if (c === ',') {
        this.i++;
        continue;
      }
      if (c === '}') {
        this.i++;
        return out;
      }
      this.fail(at, 'expected "," or "}" after a member');
    }
  }

  private array(pointer: string): JsonValue[] {
    const out: JsonValue[] = [];
    this.i++;
    this.ws();
    if (this.text[this.i] === ']') {
      this.i++;
      return out;
    }
    for (;;) {
      this.ws();
      const at = `${pointer}/${out.length}`;
      out.push(this.value(at));
      this.ws();
      const c = this.text[this.i];
      if (c === ',') {
        this.i++;
        continue;
      }
      if (c === ']') {
        this.i++;
        return out;
      }
      this.fail(at, 'expected "," or "]" after an element');
    }
  }
}

class LocatedJsonError extends Error {
  constructor(
    readonly pointer: string,
    message: string,
  ) {
    super(message);
  }
}

/** Parse a schema file's text; throws SchemaSourceError naming the file and the pointer on any syntax error. */
export function parseSchemaText(text: string, file: string): SchemaNode {
  let doc: JsonValue;
  try {
    doc = new LocatingReader(text).read();
  } catch (e) {
    if (e instanceof LocatedJsonError) {
      throw new SchemaSourceError([{ file, pointer: e.pointer, message: `invalid JSON: ${e.message}` }]);
    }
    throw e;
  }
  if (!isSchemaObject(doc)) throw new SchemaSourceError([{ file, pointer: '', message: 'a schema document must be a JSON object' }]);
  return doc;
}

const ANCHOR_ID = /^[A-Z][A-Za-z0-9.]*(-[A-Za-z0-9.]+)*$/;

/**
 * Structural lint of one authoring-strict schema document. `fileName` is the file's base name, which the
 * `$id` must end with.
 */
export function lintSchemaDocument(doc: SchemaNode, file: string, fileName: string): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const add = (pointer: string, message: string) => problems.push({ file, pointer, message });

  if (doc.$schema !== SCHEMA_DIALECT) add('/$schema', `must be ${JSON.stringify(SCHEMA_DIALECT)}`);
  if (doc.$id !== SCHEMA_ID_BASE + fileName) add('/$id', `must be ${JSON.stringify(SCHEMA_ID_BASE + fileName)}`);
  if (typeof doc.title !== 'string' || doc.title === '') add('/title', 'the root needs a title (it names the root TypeScript type)');

  const defs = doc.$defs;
  if (!isSchemaObject(defs)) add('/$defs', 'missing $defs');
  else {
    for (const [name, def] of Object.entries(defs)) {
      const at = `/$defs/${escapePointerToken(name)}`;
      if (!isSchemaObject(def)) add(at, 'a $defs entry must be a schema object');
      else if (def.title !== name) add(`${at}/title`, `title must equal the $defs name ${JSON.stringify(name)} (it names the TypeScript type)`);
    }
  }

  walkSchema(doc, (node, pointer) => {
    if (typeof node === 'boolean') return;
    if (!isSchemaObject(node)) {
      add(pointer, 'a subschema must be an object or a boolean');
      return;
    }
    for (const key of Object.keys(node)) {
      if (!KNOWN_KEYWORDS.has(key)) add(`${pointer}/${escapePointerToken(key)}`, `unknown keyword ${JSON.stringify(key)}`);
    }
    if ('$ref' in node) {
      const ref = node.$ref;
      if (typeof ref !== 'string' || !ref.startsWith('#/')) {
        add(`${pointer}/$ref`, `only same-document references ("#/$defs/...") are allowed, saw ${JSON.stringify(ref)}`);
      } else {
        let target: unknown;
        try {
          target = resolvePointer(doc, ref);
        } catch {
          target = undefined;
        }
        if (target === undefined) add(`${pointer}/$ref`, `unresolvable reference ${JSON.stringify(ref)}`);
        else if (typeof target !== 'boolean' && !isSchemaObject(target)) add(`${pointer}/$ref`, `${JSON.stringify(ref)} does not name a schema`);
      }
    }
    if (ANCHOR_KEYWORD in node) {
      const a = node[ANCHOR_KEYWORD];
      if (typeof a !== 'string' || !ANCHOR_ID.test(a)) add(`${pointer}/${ANCHOR_KEYWORD}`, `must be an anchor or rule id (e.g. "F1", "S13-authoring-strict"), saw ${JSON.stringify(a)}`);
    }
    if (OPEN_KEYWORD in node && node[OPEN_KEYWORD] !== true) add(`${pointer}/${OPEN_KEYWORD}`, 'must be true when present');
    if (INTEROP_KEYWORD in node) {
      const o = node[INTEROP_KEYWORD];
      if (!isSchemaObject(o)) add(`${pointer}/${INTEROP_KEYWORD}`, 'must be an object of keyword overrides');
      else {
        for (const k of Object.keys(o)) {
          if (!KNOWN_KEYWORDS.has(k) || k.startsWith('x-cgp-') || k.startsWith('$')) {
            add(`${pointer}/${INTEROP_KEYWORD}/${escapePointerToken(k)}`, `cannot override ${JSON.stringify(k)}`);
          }
        }
      }
    }
  });
  return problems;
}
