/**
 * Edge misbehaviours (docs/interpretations.md §111–§116): each breaks one anchor only at an edge the suite's
 * other probes do not reach — a budget of 0, a number beyond u32, a short vector, a numeric-looking id, an
 * empty verify, a line longer than a read buffer, a line nested deeper than a recursive parser goes, a member
 * spelled in other case, a grammar at its edge (fractional seconds, a long minor, a kind prefix, a second anchor).
 */
import { EMBEDDING_DIMENSIONS } from '../catalogue.js';
import { budget, filterKinds } from '../engine.js';
import { correlationIdOf, errorEnvelope, isJsonObject, type JsonObject, type OutEnvelope } from '../wire.js';
import { exitWith, jsonDepth, type ModeHooks } from './shared.js';

const U32_MAX = 4_294_967_295;
/** A common fixed read buffer: a line longer than this is read as several (mode split-long-lines). */
const READ_BUFFER = 64 * 1024;

/** About how many bytes an envelope took on the wire: the length of its strings and member names (iterative). */
function approximateBytes(value: unknown): number {
  let n = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') n += v.length + 2;
    else if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        n += k.length + 3;
        stack.push(child);
      }
    } else n += 4;
  }
  return n;
}

/** The raw query object of the request being answered. */
function rawQuery(request: JsonObject | undefined): JsonObject | undefined {
  return isJsonObject(request?.query) ? request.query : undefined;
}

/** The value of the LAST member whose name equals `name` case-insensitively (a case-folding reader, last wins). */
function folded(obj: JsonObject, name: string): unknown {
  let value: unknown;
  for (const [k, v] of Object.entries(obj)) if (k.toLowerCase() === name) value = v;
  return value;
}

const PROFILE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z$/;
const NUMERIC = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

export const EDGE_MODES = {
  'zero-max-tokens-unbounded': {
    // the `if (max_tokens)` bug: 0 reads as "no limit"
    query: (q) => (q.max_tokens === 0 ? { ...q, max_tokens: U32_MAX } : q),
  },
  'frames-fast-path-off-by-one': {
    // "nothing to truncate" tested as max_frames >= eligible - 1: at one below the eligible count, every frame comes back
    stages: { budget: (frames, q) => budget(frames, q.max_frames >= frames.length - 1 ? { ...q, max_frames: Math.max(q.max_frames, frames.length) } : q) },
  },
  'tokens-fast-path-off-by-one': {
    // "everything fits" tested as max_tokens >= total - 1: one token short of the total, every frame comes back
    stages: {
      budget: (frames, q) => {
        const total = frames.reduce((a, f) => a + f.token_cost, 0);
        return budget(frames, q.max_tokens >= total - 1 ? { ...q, max_tokens: Math.max(q.max_tokens, total) } : q);
      },
    },
  },
  'crash-on-budget-overflow': {
    beforeQuery: (ctx) => {
      const q = rawQuery(ctx.request);
      if (!q) return undefined;
      const over = [q.max_frames, q.max_tokens].some((v) => typeof v === 'number' && v > U32_MAX);
      return over ? exitWith(1) : undefined;
    },
  },
  'accept-short-embedding': {
    stages: {
      // refuses only a vector LONGER than the declared dimension; a shorter one is padded with zeros
      checkEmbedding: (q) => {
        if (q.embedding === undefined || q.embedding.length === EMBEDDING_DIMENSIONS) return { ok: true, value: q };
        if (q.embedding.length > EMBEDDING_DIMENSIONS) {
          return { ok: false, code: 'bad_request', message: `query.embedding has ${q.embedding.length} dimensions; at most ${EMBEDDING_DIMENSIONS}` };
        }
        const padded = Array.from({ length: EMBEDDING_DIMENSIONS }, (_, i) => q.embedding![i] ?? 0);
        return { ok: true, value: { ...q, embedding: padded } };
      },
    },
  },
  'numeric-id-normalised': {
    // an id that looks like a number is echoed as that number's canonical spelling ("007" → "7", "1e3" → "1000")
    outgoing: (envelope: OutEnvelope) => (typeof envelope.id === 'string' && NUMERIC.test(envelope.id) ? { ...envelope, id: String(Number(envelope.id)) } : envelope),
  },
  'refuse-empty-verify': {
    verify: (honest, ctx) => {
      const request = ctx.request?.request;
      if (!isJsonObject(request) || !Array.isArray(request.frames) || request.frames.length > 0) return honest;
      return { envelopes: [errorEnvelope('bad_request', 'verify names no frame identity', correlationIdOf(ctx.request))] };
    },
  },
  'split-long-lines': {
    // a 64 KiB read buffer: a longer line is read as pieces, each answered as a line that is not JSON
    inbound: (envelope) => {
      const bytes = approximateBytes(envelope);
      if (bytes <= READ_BUFFER) return undefined;
      const pieces = Math.ceil(bytes / READ_BUFFER);
      return { envelopes: Array.from({ length: pieces }, (_, i) => errorEnvelope('bad_request', `not a CGP envelope (line piece ${i + 1} of ${pieces} is not JSON) (R1)`)) };
    },
  },
  'crash-on-very-deep-nesting': {
    // a recursive parser with a 1000-level stack: the suite's 512-level line passes, a far deeper one does not
    inbound: (envelope) => (jsonDepth(envelope) > 1000 ? exitWith(1) : undefined),
  },
  'case-folded-members': {
    // member names read case-insensitively, the last spelling wins: `Max_Frames` overrides `max_frames`
    inbound: (envelope) => {
      const type = folded(envelope, 'type');
      if (type === envelope.type || typeof type !== 'string') return undefined;
      return { envelopes: [errorEnvelope('bad_request', `envelope type ${JSON.stringify(type)} is not implemented by this provider`, correlationIdOf(envelope))] };
    },
    query: (q, ctx) => {
      const raw = rawQuery(ctx.request);
      if (!raw) return q;
      const out = { ...q };
      const frames = folded(raw, 'max_frames');
      const tokens = folded(raw, 'max_tokens');
      const kinds = folded(raw, 'kinds');
      if (typeof frames === 'number') out.max_frames = frames;
      if (typeof tokens === 'number') out.max_tokens = tokens;
      if (Array.isArray(kinds) && kinds.every((k) => typeof k === 'string')) out.kinds = kinds as string[];
      return out;
    },
  },
  'millisecond-as-of': {
    // a timestamp reader that takes at most three fractional digits
    beforeQuery: (ctx) => {
      const asOf = rawQuery(ctx.request)?.as_of;
      if (typeof asOf !== 'string' || !/\.[0-9]{4,}Z$/.test(asOf)) return undefined;
      return { envelopes: [errorEnvelope('bad_request', `query.as_of ${JSON.stringify(asOf)}: at most millisecond precision`, correlationIdOf(ctx.request))] };
    },
  },
  'lenient-as-of': {
    // reads any spelling Date.parse accepts (lower-case t/z, a space, an offset) as an instant, instead of
    // refusing it: the off-profile as_of is rewritten to the profile before the honest parser sees it
    beforeQuery: (ctx) => {
      const raw = rawQuery(ctx.request);
      if (!raw || typeof raw.as_of !== 'string' || PROFILE.test(raw.as_of)) return undefined;
      const ms = Date.parse(raw.as_of);
      if (Number.isFinite(ms)) raw.as_of = new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
      return undefined;
    },
  },
  'first-anchor-only': { query: (q) => ({ ...q, anchors: q.anchors.slice(0, 1) }) },
  'prefix-matched-kinds': {
    stages: {
      filterKinds: (frames, kinds) => {
        if (kinds.length === 0) return filterKinds(frames, kinds);
        const kept = frames.filter((f) => kinds.some((k) => k !== '' && f.spec.kind.startsWith(k)));
        return kept.length > 0 ? { ok: true, value: kept } : filterKinds(frames, kinds);
      },
    },
  },
  'bounded-minor': {
    // reads the minor as a u32 and refuses one it cannot hold as another family
    handshake: (honest, ctx) => {
      const version = ctx.request?.protocol_version;
      const minor = typeof version === 'string' ? /^contextgraph\/1\.([0-9]+)/.exec(version)?.[1] : undefined;
      if (minor === undefined || Number(minor) <= U32_MAX) return honest;
      return { envelopes: [errorEnvelope('incompatible_version', `minor ${minor} is out of range`, correlationIdOf(ctx.request))] };
    },
  },
} satisfies ModeHooks;
