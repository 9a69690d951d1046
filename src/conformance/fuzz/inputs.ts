/**
 * Hostile and malformed input for `cgp-conformance fuzz`, as fast-check arbitraries.
 *
 * A fuzz CASE is one to three INPUTS; an input belongs to one AREA and is one or more wire lines. Lines are
 * kept as small descriptions (`LineSpec`) and turned into bytes only when sent, so a 16 MiB line costs
 * nothing to generate, to shrink or to print. Every line is sent followed by "\n".
 *
 * Nothing generated is a `shutdown` (the one envelope a provider may legitimately stop on): a line that
 * parses as an object whose `type` is "shutdown" is filtered out.
 */
import fc from 'fast-check';
import { requestMemberPaths, type JsonType, type MemberPath } from './schema-members.js';

export const AREAS = [
  'truncated-json',
  'wrong-member-type',
  'unknown-type',
  'deep-nesting',
  'proto-keys',
  'huge-numbers',
  'lone-surrogates',
  'invalid-utf8',
  'control-bytes',
  'blank-lines',
  'oversize-line',
  'extreme-query',
  'pipelined-burst',
] as const;
export type Area = (typeof AREAS)[number];

/** One wire line (without its "\n"): UTF-8 text, raw bytes (hex), or a concatenation of repeated units. */
export type LineSpec = { text: string } | { hex: string } | { repeat: ReadonlyArray<readonly [string, number]> };

export interface FuzzInput {
  area: Area;
  lines: LineSpec[];
}

export interface InputOptions {
  /** The line cap assumed for the target (default 16 MiB, docs/interpretations.md §12): oversize lines exceed it. */
  maxLineBytes?: number;
}

export const DEFAULT_FUZZ_MAX_LINE_BYTES = 16 * 1024 * 1024;

/** The bytes of one line (no newline). */
export function lineBytes(spec: LineSpec): Buffer {
  if ('text' in spec) return Buffer.from(spec.text, 'utf8');
  if ('hex' in spec) return Buffer.from(spec.hex, 'hex');
  // One allocation, each unit written by Buffer#fill (no intermediate 16 MiB string).
  const out = Buffer.allocUnsafe(lineLength(spec));
  let at = 0;
  for (const [unit, n] of spec.repeat) {
    const len = Buffer.byteLength(unit, 'utf8') * n;
    if (len > 0) out.fill(unit, at, at + len, 'utf8');
    at += len;
  }
  return out;
}

/** The byte length of a line without building it. */
export function lineLength(spec: LineSpec): number {
  if ('text' in spec) return Buffer.byteLength(spec.text, 'utf8');
  if ('hex' in spec) return spec.hex.length / 2;
  return spec.repeat.reduce((n, [unit, k]) => n + Buffer.byteLength(unit, 'utf8') * k, 0);
}

/** A short human-readable rendering of a line for progress and findings. */
export function describeLine(spec: LineSpec, max = 160): string {
  if ('repeat' in spec) return spec.repeat.map(([u, n]) => (n === 1 ? JSON.stringify(u) : `${JSON.stringify(u)}×${n}`)).join(' + ');
  const text = 'text' in spec ? spec.text : `hex:${spec.hex}`;
  const shown = JSON.stringify(text);
  return shown.length > max ? `${shown.slice(0, max)}… (${lineLength(spec)} bytes)` : shown;
}

// ── valid building blocks (from the schema's shapes) ─────────────────────────────────────────────────

const BASE_KINDS = ['snippet', 'symbol', 'fact', 'doc', 'memory', 'episode', 'graph'] as const;
const FUZZ_ID_PREFIX = 'fz-';

const word = fc.string({ minLength: 1, maxLength: 24 });
const hostileId = fc.oneof(
  fc.nat({ max: 1_000_000 }).map((n) => `${FUZZ_ID_PREFIX}${n}`),
  word.filter((s) => !s.startsWith('fuzz-probe-')),
);
const timestamp = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().replace('.000Z', 'Z'));

const validQueryBody = fc.record(
  {
    goal: word,
    query_text: fc.oneof(fc.constant(null), fc.string({ maxLength: 60 })),
    kinds: fc.array(fc.constantFrom(...BASE_KINDS), { maxLength: 3 }),
    anchors: fc.array(fc.string({ maxLength: 30 }), { maxLength: 3 }),
    max_frames: fc.integer({ min: 0, max: 20 }),
    max_tokens: fc.integer({ min: 0, max: 50_000 }),
    as_of: timestamp,
    representation_preferences: fc.array(fc.constantFrom('full', 'compact', 'reference'), { maxLength: 2 }),
  },
  { requiredKeys: ['goal', 'max_frames', 'max_tokens'] },
);

const digest = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => `sha256:${Buffer.from(b).toString('hex')}`);
const frameIdentity = fc.record({ provider_id: fc.oneof(fc.constant('example-docs'), word), frame_id: word, content_digest: digest }, { requiredKeys: ['provider_id', 'frame_id'] });

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const validQuery = fc.tuple(hostileId, validQueryBody).map(([id, query]) => ({ type: 'query', id, query }) as Json);
const validVerify = fc.tuple(hostileId, fc.array(frameIdentity, { minLength: 0, maxLength: 4 })).map(([id, frames]) => ({ type: 'verify', id, request: { frames } }) as Json);
const validHandshake = fc
  .constantFrom('contextgraph/1.0', 'contextgraph/1.1', 'contextgraph/1.0-draft', 'contextgraph/2.0', 'contextgraph/0.9', 'contextgraph/')
  .map((v) => ({ type: 'handshake', protocol_version: v }) as Json);
const validRequest = fc.oneof({ arbitrary: validQuery, weight: 4 }, { arbitrary: validVerify, weight: 2 }, { arbitrary: validHandshake, weight: 1 });

/** A template with every member of the envelope present, so any schema path can be replaced. */
function fullTemplate(envelope: MemberPath['envelope']): { [k: string]: Json } {
  if (envelope === 'handshake') return { type: 'handshake', protocol_version: 'contextgraph/1.0' };
  if (envelope === 'verify') {
    return {
      type: 'verify',
      id: `${FUZZ_ID_PREFIX}wrong-type`,
      request: { frames: [{ provider_id: 'example-docs', frame_id: 'doc-1', content_digest: `sha256:${'0'.repeat(64)}` }] },
    };
  }
  return {
    type: 'query',
    id: `${FUZZ_ID_PREFIX}wrong-type`,
    query: {
      goal: 'wrong member type',
      query_text: 'text',
      embedding: [0.1, 0.2],
      kinds: ['doc'],
      anchors: ['README.md'],
      max_frames: 3,
      max_tokens: 1000,
      as_of: '2026-01-01T00:00:00Z',
      representation_preferences: ['full'],
    },
  };
}

function setAt(doc: { [k: string]: Json }, path: readonly string[], value: Json): void {
  let cur: Json = doc;
  for (let i = 0; i < path.length; i++) {
    const step = path[i]!;
    const last = i === path.length - 1;
    if (step === '*') {
      if (!Array.isArray(cur)) return;
      if (last) {
        cur[0] = value;
        return;
      }
      if (cur.length === 0 || typeof cur[0] !== 'object' || cur[0] === null) cur[0] = {};
      cur = cur[0]!;
      continue;
    }
    if (typeof cur !== 'object' || cur === null || Array.isArray(cur)) return;
    if (last) {
      cur[step] = value;
      return;
    }
    const next: Json | undefined = cur[step];
    if (typeof next !== 'object' || next === null) cur[step] = path[i + 1] === '*' ? [] : {};
    cur = cur[step]!;
  }
}

const smallJson = fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>;
const VALUE_OF: Record<'null' | 'boolean' | 'integer' | 'fraction' | 'string' | 'array' | 'object', fc.Arbitrary<Json>> = {
  null: fc.constant(null),
  boolean: fc.boolean(),
  integer: fc.oneof(fc.integer(), fc.constantFrom(-1, 0, 4_294_967_296, Number.MAX_SAFE_INTEGER)),
  fraction: fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)),
  string: fc.string({ maxLength: 20 }),
  array: fc.array(smallJson, { maxLength: 3 }),
  object: fc.dictionary(fc.string({ maxLength: 6 }), smallJson, { maxKeys: 3 }),
};

/** Values whose JSON type the schema does not allow at `allowed`. */
function wrongValue(allowed: readonly JsonType[]): fc.Arbitrary<Json> {
  const ok = new Set(allowed);
  const kinds = (Object.keys(VALUE_OF) as (keyof typeof VALUE_OF)[]).filter((k) => {
    if (k === 'integer') return !ok.has('integer') && !ok.has('number');
    if (k === 'fraction') return !ok.has('number');
    return !ok.has(k);
  });
  return fc.oneof(...kinds.map((k) => VALUE_OF[k]));
}

const text = (t: string): LineSpec => ({ text: t });
const one =
  (area: Area) =>
  (line: LineSpec): FuzzInput => ({ area, lines: [line] });

// ── the areas ───────────────────────────────────────────────────────────────────────────────────────

const truncatedJson = fc
  .tuple(validRequest, fc.double({ min: 0, max: 1, noNaN: true }))
  .map(([env, at]) => {
    const t = JSON.stringify(env);
    return text(t.slice(0, Math.min(t.length - 1, Math.floor(at * t.length))));
  })
  .map(one('truncated-json'));

function wrongMemberType(): fc.Arbitrary<FuzzInput> {
  const paths = requestMemberPaths();
  return fc
    .constantFrom(...paths)
    .chain((p) => wrongValue(p.allowed).map((v) => ({ p, v })))
    .map(({ p, v }) => {
      const doc = fullTemplate(p.envelope);
      setAt(doc, p.path, v);
      return text(JSON.stringify(doc));
    })
    .map(one('wrong-member-type'));
}

const KNOWN_TYPES = new Set(['handshake', 'handshake_ack', 'query', 'frames', 'verify', 'verified', 'shutdown', 'error']);
const unknownType = fc
  .record(
    {
      type: fc.oneof(
        fc.string({ maxLength: 24 }).filter((s) => !KNOWN_TYPES.has(s)),
        fc.constantFrom('Query', 'QUERY', 'query ', ' shutdown', 'Shutdown', 'vendor:ping', 'resolve', 'subscribe'),
      ),
      id: hostileId,
      payload: smallJson,
      query: validQueryBody as fc.Arbitrary<unknown> as fc.Arbitrary<Json>,
    },
    { requiredKeys: ['type'] },
  )
  .map((env) => text(JSON.stringify(env)))
  .map(one('unknown-type'));

const deepNesting = fc
  .tuple(fc.integer({ min: 64, max: 200_000 }), fc.constantFrom('array', 'object', 'in-query', 'in-id', 'unbalanced'))
  .map(([depth, where]): LineSpec => {
    switch (where) {
      case 'array':
        return {
          repeat: [
            ['[', depth],
            [']', depth],
          ],
        };
      case 'object':
        return {
          repeat: [
            ['{"type":"query","a":', 1],
            ['{"a":', depth],
            ['1', 1],
            ['}', depth + 1],
          ],
        };
      case 'in-query':
        return {
          repeat: [
            ['{"type":"query","id":"fz-deep","query":{"goal":"deep","max_frames":1,"max_tokens":100,"anchors":', 1],
            ['[', depth],
            [']', depth],
            ['}}', 1],
          ],
        };
      case 'in-id':
        return {
          repeat: [
            ['{"type":"query","id":', 1],
            ['[', depth],
            [']', depth],
            [',"query":{"goal":"g","max_frames":1,"max_tokens":1}}', 1],
          ],
        };
      default:
        return {
          repeat: [
            ['{"type":"verify","request":{"frames":', 1],
            ['[', depth],
          ],
        };
    }
  })
  .map(one('deep-nesting'));

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];
const protoKeys = fc
  .tuple(fc.constantFrom(...PROTO_KEYS), fc.constantFrom('top', 'query', 'frame', 'both', 'type-shadow'), hostileId)
  .map(([key, where, id]): LineSpec => {
    const k = JSON.stringify(key);
    const poison = `{"type":"shutdown","max_frames":"x","polluted":true,"frames":null}`;
    const q = `{"goal":"proto","max_frames":2,"max_tokens":500${where === 'query' || where === 'both' ? `,${k}:${poison}` : ''}}`;
    switch (where) {
      case 'frame':
        return text(`{"type":"verify","id":${JSON.stringify(id)},"request":{"frames":[{"provider_id":"example-docs","frame_id":"x",${k}:${poison}}]}}`);
      case 'type-shadow':
        return text(`{${k}:{"type":"shutdown"},"id":${JSON.stringify(id)},"query":${q}}`);
      default:
        return text(`{"type":"query","id":${JSON.stringify(id)},${where === 'top' || where === 'both' ? `${k}:${poison},` : ''}"query":${q}}`);
    }
  })
  .map(one('proto-keys'));

const HUGE = [
  '1e400',
  '-1e400',
  '1e-400',
  '-0',
  '9007199254740993',
  '18446744073709551616',
  '123456789012345678901234567890123456789012345678901234567890',
  '4294967296',
  '4294967295.0000000001',
  '0.1e999999999',
  '1E+2147483648',
  `1${'0'.repeat(5000)}`,
];
const hugeNumbers = fc
  .tuple(fc.constantFrom(...HUGE), fc.constantFrom('max_frames', 'max_tokens', 'id', 'embedding', 'leaf'))
  .map(([n, where]) => {
    const q = (mf: string, mt: string, extra = '') => `{"goal":"huge","max_frames":${mf},"max_tokens":${mt}${extra}}`;
    switch (where) {
      case 'max_frames':
        return text(`{"type":"query","id":"fz-huge","query":${q(n, '100')}}`);
      case 'max_tokens':
        return text(`{"type":"query","id":"fz-huge","query":${q('1', n)}}`);
      case 'id':
        return text(`{"type":"query","id":${n},"query":${q('1', '100')}}`);
      case 'embedding':
        return text(`{"type":"query","id":"fz-huge","query":${q('1', '100', `,"embedding":[${n},${n}]`)}}`);
      default:
        return text(`{"type":"verify","id":"fz-huge","request":{"frames":[{"provider_id":"example-docs","frame_id":${n}}]}}`);
    }
  })
  .map(one('huge-numbers'));

const SURROGATES = ['\\ud800', '\\udfff', '\\udc00\\ud800', '\\ud83d', 'a\\ud800b', '\\ud800\\u0000'];
const loneSurrogates = fc
  .tuple(fc.constantFrom(...SURROGATES), fc.constantFrom('id', 'goal', 'type', 'key', 'frame_id', 'cesu-bytes'))
  .map(([s, where]): LineSpec => {
    switch (where) {
      case 'id':
        return text(`{"type":"query","id":"${s}","query":{"goal":"g","max_frames":1,"max_tokens":100}}`);
      case 'goal':
        return text(`{"type":"query","id":"fz-sur","query":{"goal":"${s}","max_frames":1,"max_tokens":100,"anchors":["${s}"]}}`);
      case 'type':
        return text(`{"type":"${s}","id":"fz-sur"}`);
      case 'key':
        return text(`{"type":"query","id":"fz-sur","${s}":1,"query":{"goal":"g","max_frames":1,"max_tokens":100,"${s}":2}}`);
      case 'frame_id':
        return text(`{"type":"verify","id":"fz-sur","request":{"frames":[{"provider_id":"${s}","frame_id":"${s}"}]}}`);
      default:
        // A surrogate encoded as UTF-8 bytes (CESU-8 / WTF-8): ill-formed UTF-8 on the wire.
        return {
          hex: Buffer.concat([Buffer.from('{"type":"query","id":"fz-sur","query":{"goal":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('","max_frames":1,"max_tokens":1}}')]).toString('hex'),
        };
    }
  })
  .map(one('lone-surrogates'));

const BAD_SEQUENCES = [[0xff], [0xfe], [0xc0, 0x80], [0xc1, 0xbf], [0xe0, 0x80, 0x80], [0xf5, 0x80, 0x80, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x80], [0xe2, 0x82], [0xf0, 0x9f, 0x98]];
const invalidUtf8 = fc
  .tuple(validRequest, fc.constantFrom(...BAD_SEQUENCES), fc.double({ min: 0, max: 1, noNaN: true }))
  .map(([env, bad, at]) => {
    const t = Buffer.from(JSON.stringify(env), 'utf8');
    const i = Math.floor(at * t.length);
    return { hex: Buffer.concat([t.subarray(0, i), Buffer.from(bad), t.subarray(i)]).toString('hex') } as LineSpec;
  })
  .map(one('invalid-utf8'));

const controlBytes = fc
  .tuple(validRequest, fc.constantFrom('bom', 'nul-inside', 'raw-tab-in-string', 'raw-cr', 'nul-line', 'del'), fc.double({ min: 0, max: 1, noNaN: true }))
  .map(([env, how, at]): LineSpec => {
    const t = JSON.stringify(env);
    const i = Math.floor(at * t.length);
    switch (how) {
      case 'bom':
        return text(`\ufeff${t}`);
      case 'nul-inside':
        return text(`${t.slice(0, i)}\u0000${t.slice(i)}`);
      case 'raw-tab-in-string':
        return text(t.replace(/":"/, '":"\t\u0001'));
      case 'raw-cr':
        return text(`${t.slice(0, i)}\r${t.slice(i)}`);
      case 'nul-line':
        return { repeat: [['\u0000', 1 + Math.floor(at * 64)]] };
      default:
        return text(`${t}\u007f`);
    }
  })
  .map(one('control-bytes'));

const blankLines = fc
  .array(fc.constantFrom('', ' ', '\t', '\r', '  \r', '\u000b', '\u000c', '\u00a0', '\u2028'), { minLength: 1, maxLength: 5 })
  .map((ls): FuzzInput => ({ area: 'blank-lines', lines: ls.map(text) }));

function oversizeLine(maxLineBytes: number): fc.Arbitrary<FuzzInput> {
  return fc
    .tuple(fc.integer({ min: 1, max: 4096 }), fc.constantFrom('filler', 'string-member', 'under-cap'))
    .map(([extra, how]): LineSpec => {
      if (how === 'filler') return { repeat: [['a', maxLineBytes + extra]] };
      if (how === 'string-member') {
        const head = '{"type":"query","id":"fz-big","query":{"goal":"';
        return {
          repeat: [
            [head, 1],
            ['x', maxLineBytes + extra],
            ['","max_frames":1,"max_tokens":1}}', 1],
          ],
        };
      }
      // Valid but large (1 MiB goal, well under any sensible cap).
      return {
        repeat: [
          ['{"type":"query","id":"fz-big","query":{"goal":"', 1],
          ['y', 1_048_576 + extra],
          ['","max_frames":1,"max_tokens":1}}', 1],
        ],
      };
    })
    .map(one('oversize-line'));
}

const AS_OF_EDGES = [
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '9999-12-31T23:59:60.999999999Z',
  '1970-01-01T00:00:00Z',
  '2016-12-31T23:59:60Z',
  '2024-02-29T00:00:00.000000000000000000001Z',
  '2023-02-29T00:00:00Z',
  '2026-01-01T00:00:00+00:00',
  '2026-01-01t00:00:00z',
  '',
];
const extremeQuery = fc
  .record({
    id: hostileId,
    max_frames: fc.constantFrom(0, 1, 4_294_967_295, 2 ** 53, 2 ** 53 - 1),
    max_tokens: fc.constantFrom(0, 1, 2, 4_294_967_295, 2 ** 53),
    anchors: fc.integer({ min: 0, max: 5000 }),
    kinds: fc.integer({ min: 0, max: 3000 }),
    as_of: fc.option(fc.constantFrom(...AS_OF_EDGES), { nil: undefined }),
    goal: fc.constantFrom('x', 'README', 'a'.repeat(10_000), '*', '%s%s%n', '\u0000', '../../etc/passwd'),
    embedding: fc.option(fc.integer({ min: 0, max: 4096 }), { nil: undefined }),
  })
  .map((r) => {
    const query: { [k: string]: Json } = { goal: r.goal, max_frames: r.max_frames, max_tokens: r.max_tokens };
    if (r.anchors > 0) query.anchors = Array.from({ length: r.anchors }, (_, i) => (i % 2 ? `docs/${i}.md` : `README.md#${i}`));
    if (r.kinds > 0) query.kinds = Array.from({ length: r.kinds }, (_, i) => (i % 7 === 0 ? 'doc' : `vendor:kind-${i}`));
    if (r.as_of !== undefined) query.as_of = r.as_of;
    if (r.embedding !== undefined) query.embedding = Array.from({ length: r.embedding }, (_, i) => (i % 3) / 3);
    return text(JSON.stringify({ type: 'query', id: r.id, query }));
  })
  .map(one('extreme-query'));

const pipelinedBurst = fc.array(validRequest, { minLength: 2, maxLength: 64 }).map((envs): FuzzInput => ({
  area: 'pipelined-burst',
  lines: envs.map((e, i) => {
    const env = e as { [k: string]: Json };
    if (typeof env.id === 'string') env.id = `${env.id}#${i}`;
    return text(JSON.stringify(env));
  }),
}));

// ── assembly ────────────────────────────────────────────────────────────────────────────────────────

/** True when a line would be read as a `shutdown` (the fuzzer never sends one inside a case). */
export function isShutdownLine(spec: LineSpec): boolean {
  if (!('text' in spec)) return false;
  return spec.text.split('\n').some((seg) => {
    try {
      const v = JSON.parse(seg.replace(/^\ufeff/, '')) as unknown;
      return typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'shutdown';
    } catch {
      return false;
    }
  });
}

/** One hostile input, any area (weights keep the expensive areas rare). */
export function fuzzInput(opts: InputOptions = {}): fc.Arbitrary<FuzzInput> {
  const max = opts.maxLineBytes ?? DEFAULT_FUZZ_MAX_LINE_BYTES;
  return fc
    .oneof(
      { arbitrary: truncatedJson, weight: 10 },
      { arbitrary: wrongMemberType(), weight: 14 },
      { arbitrary: unknownType, weight: 8 },
      { arbitrary: deepNesting, weight: 4 },
      { arbitrary: protoKeys, weight: 6 },
      { arbitrary: hugeNumbers, weight: 6 },
      { arbitrary: loneSurrogates, weight: 6 },
      { arbitrary: invalidUtf8, weight: 8 },
      { arbitrary: controlBytes, weight: 6 },
      { arbitrary: blankLines, weight: 4 },
      { arbitrary: oversizeLine(max), weight: 1 },
      { arbitrary: extremeQuery, weight: 8 },
      { arbitrary: pipelinedBurst, weight: 4 },
    )
    .filter((input) => !input.lines.some(isShutdownLine));
}

/** A case: one to three inputs, sent back to back before the liveness probe. */
export function fuzzCase(opts: InputOptions = {}): fc.Arbitrary<FuzzInput[]> {
  return fc.array(fuzzInput(opts), { minLength: 1, maxLength: 3 });
}
