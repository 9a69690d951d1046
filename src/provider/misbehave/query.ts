/** Query-semantics misbehaviours: Q1 kinds, G4 anchors, S6.1 as_of, E1 embedding. */
import { EMBEDDING_DIMENSIONS } from '../catalogue.js';
import { compareProtocolTimestamps } from '../../protocol/timestamp.js';
import { filterKinds, isAnchored, rank } from '../engine.js';
import { correlationIdOf, errorEnvelope, isJsonObject } from '../wire.js';
import type { ModeHooks } from './shared.js';

export const QUERY_MODES = {
  'ignore-kinds': { query: (q) => ({ ...q, kinds: [] }) },
  'refuse-served-kinds': {
    beforeQuery: (ctx) => {
      const q = ctx.request?.query;
      if (!isJsonObject(q) || !Array.isArray(q.kinds) || q.kinds.length === 0) return undefined;
      return {
        envelopes: [errorEnvelope('unsupported_kind', 'kinds filtering is not supported', correlationIdOf(ctx.request))],
      };
    },
  },
  'case-folded-kinds': {
    stages: {
      filterKinds: (frames, kinds) =>
        filterKinds(
          frames,
          kinds.map((k) => k.toLowerCase()),
        ),
    },
  },
  'ignore-anchors': {
    stages: {
      rank: (frames, q) => rank(q.anchors.length === 0 ? frames : frames.filter((f) => !isAnchored(f, q.anchors)), q),
    },
  },
  'one-hop-via-nodes': {
    // follows a relation only when its target is a node it serves (some frame's own uri)
    stages: {
      rank: (frames, q) => {
        const nodes = new Set(frames.map((f) => f.uri));
        const anchors = q.anchors.filter((a) => nodes.has(a));
        return rank(frames, { ...q, anchors });
      },
    },
  },
  'reject-fractional-as-of': {
    // refuses an as_of with fractional seconds (the F4 profile allows "(.f+)?")
    beforeQuery: (ctx) => {
      const q = ctx.request?.query;
      if (!isJsonObject(q) || typeof q.as_of !== 'string' || !q.as_of.includes('.')) return undefined;
      return { envelopes: [errorEnvelope('bad_request', `as_of ${q.as_of} is not a timestamp`, correlationIdOf(ctx.request))] };
    },
  },
  'anchors-no-effect': { query: (q) => ({ ...q, anchors: [] }) },
  'ignore-as-of': {
    query: (q) => {
      const { as_of: _ignored, ...rest } = q;
      return rest;
    },
  },
  'ignore-valid-to': {
    stages: {
      filterTime: (frames, asOf) => (asOf === undefined ? [...frames] : frames.filter((f) => (compareProtocolTimestamps(f.spec.valid_from, asOf) ?? 0) <= 0)),
    },
  },
  'accept-bad-embedding': {
    query: (q) => {
      if (q.embedding === undefined || q.embedding.length === EMBEDDING_DIMENSIONS) return q;
      const { embedding: _ignored, ...rest } = q;
      return rest;
    },
  },
  'resize-bad-embedding': {
    query: (q) => {
      if (q.embedding === undefined || q.embedding.length === EMBEDDING_DIMENSIONS) return q;
      const resized = Array.from({ length: EMBEDDING_DIMENSIONS }, (_, i) => q.embedding![i] ?? 0);
      return { ...q, embedding: resized };
    },
  },
} satisfies ModeHooks;
