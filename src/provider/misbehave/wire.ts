/** Robustness and wire misbehaviours: R1, R2, U1, S2.1 (unknown type, no newline). */
import { correlationIdOf, errorEnvelope, isJsonObject, type JsonObject } from '../wire.js';
import { exitWith, hang, jsonDepth, noReply, type ModeHooks } from './shared.js';

/** The members this provider knows, per envelope type and nested payload. */
const KNOWN_MEMBERS: Record<string, readonly string[]> = {
  handshake: ['type', 'protocol_version'],
  query: ['type', 'id', 'query'],
  verify: ['type', 'id', 'request'],
  shutdown: ['type'],
};
const KNOWN_QUERY_MEMBERS = ['goal', 'query_text', 'embedding', 'kinds', 'anchors', 'max_frames', 'max_tokens', 'as_of', 'representation_preferences'];

function unknownMember(envelope: JsonObject): string | undefined {
  const known = KNOWN_MEMBERS[String(envelope.type)];
  if (!known) return undefined;
  const extra = Object.keys(envelope).find((k) => !known.includes(k));
  if (extra !== undefined) return extra;
  if (envelope.type === 'query' && isJsonObject(envelope.query)) {
    const inner = Object.keys(envelope.query).find((k) => !KNOWN_QUERY_MEMBERS.includes(k));
    if (inner !== undefined) return `query.${inner}`;
  }
  return undefined;
}

/** A verify whose request.frames is not an array (one malformed request type). */
function malformedVerify(request: JsonObject | undefined): boolean {
  const body = request?.request;
  return request?.type === 'verify' && !(isJsonObject(body) && Array.isArray(body.frames));
}

/** A query whose query.max_frames is not a number (the suite's malformed query). */
function malformedQuery(request: JsonObject | undefined): boolean {
  const body = request?.query;
  return request?.type === 'query' && isJsonObject(body) && body.max_frames !== undefined && typeof body.max_frames !== 'number';
}

export const WIRE_MODES = {
  // one malformed request type each; every other request, malformed or not, is served honestly
  'silent-on-malformed-verify': { verify: (honest, ctx) => (malformedVerify(ctx.request) ? hang() : honest) },
  'exit-on-malformed-verify': { verify: (honest, ctx) => (malformedVerify(ctx.request) ? exitWith(1) : honest) },
  'malformed-query-error-drops-id': {
    outgoing: (env, ctx) => {
      if (env.type !== 'error' || env.id === undefined || !malformedQuery(ctx.request)) return env;
      const { id: _dropped, ...rest } = env;
      return rest;
    },
  },
  'crash-on-deep-nesting': { inbound: (env) => (jsonDepth(env) > 64 ? exitWith(1) : undefined) },
  'crash-on-query': { beforeQuery: () => exitWith(1) },
  'hang-on-query': { beforeQuery: () => hang() },
  'crash-on-garbage': { garbage: () => exitWith(1) },
  'mislabel-malformed': {
    garbage: (honest) => ({ ...honest, envelopes: honest.envelopes.map((e) => ({ ...e, code: 'internal' })) }),
  },
  'silent-on-garbage': { garbage: () => noReply() },
  'deaf-after-garbage': {
    garbage: (honest, ctx) => {
      ctx.state.set('deaf', true);
      return honest;
    },
    inbound: (envelope, ctx) => (ctx.state.get('deaf') === true && envelope.type !== 'shutdown' ? noReply() : undefined),
  },
  'ignore-shutdown': { shutdown: () => noReply(), endOfInput: () => ({ kind: 'hang' }) },
  'exit-nonzero-on-shutdown': { shutdown: () => exitWith(3) },
  'reject-unknown-members': {
    inbound: (envelope) => {
      const extra = unknownMember(envelope);
      if (extra === undefined) return undefined;
      return {
        envelopes: [errorEnvelope('bad_request', `unrecognised member "${extra}"`, correlationIdOf(envelope))],
      };
    },
  },
  'reply-to-unknown-notification': {
    unknownType: (honest, ctx) => (honest.envelopes.length > 0 ? honest : { envelopes: [errorEnvelope('bad_request', `unknown envelope type ${JSON.stringify(ctx.request?.type)}`)] }),
  },
  'silent-on-unknown-request': { unknownType: () => noReply() },
  'newline-in-envelope': { encode: (envelope) => JSON.stringify(envelope, null, 2) },
} satisfies ModeHooks;
