/**
 * The ingest provider: a local, egress-free CGP provider over one IngestStore. The same core serves
 * in-process (the library) and over stdio (`cgp-conformance ingest --serve`); the transport decides
 * only what is advertised:
 * - over a transport: representations [full, compact] — §6.4.1: a provider on a transport binding
 *   SHOULD NOT return `reference` frames, so it does not offer them;
 * - in-process: [full, compact, reference] (§6.4.1 MAY).
 * resolve:true either way (S6.4.1-resolve-declared), backed by a real `[full]` re-query.
 *
 * Reuses the reference provider's query parsing (U1-tolerant), representation choice (P5) and budget
 * (B1/B4) stages, its envelope helpers and the NDJSON framing parser; the frames come from the store.
 */
import { PROTOCOL_VERSION, majorFamily, versionsCompatible } from '../protocol/version.js';
import { parseEnvelopeLine, type RawEnvelope } from '../transport/ndjson.js';
import { NotAnEnvelopeError } from '../transport/errors.js';
import { budget, chooseRepresentation, parseQuery } from '../provider/engine.js';
import { correlationIdOf, errorEnvelope, isJsonObject, type JsonObject, type OutEnvelope } from '../provider/wire.js';
import { INGEST_PROVIDER_NAME } from './artifact.js';
import type { IngestStore } from './store.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findPackageRoot } from '../util/package-root.js';

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(findPackageRoot(), 'package.json'), 'utf8')) as { version?: unknown };
    if (typeof pkg.version === 'string' && pkg.version !== '') return pkg.version;
  } catch {
    // fall through: H2 still needs a non-empty version
  }
  return '0.0.0';
}

export interface IngestProviderOptions {
  /** true: reached over stdio/HTTP (no `reference`); false: loaded in-process. */
  transport: boolean;
  /** S3-handshake-first (stdio: one connection = one session). */
  requireHandshake?: boolean;
}

export interface IngestReply {
  envelopes: OutEnvelope[];
  lines: string[];
  /** `exit` after writing (shutdown); absent = keep serving. */
  exit?: number;
}

const INBOUND_IGNORED = new Set(['handshake_ack', 'frames', 'verified', 'error']);
const REQUEST_PAYLOAD_MEMBERS = ['request', 'query', 'params', 'payload'];

export interface IngestProvider {
  readonly ack: OutEnvelope;
  handle(input: string | Error | object): IngestReply;
}

export function createIngestProvider(store: IngestStore, opts: IngestProviderOptions): IngestProvider {
  const representations = opts.transport ? ['full', 'compact'] : ['full', 'compact', 'reference'];
  const ack: OutEnvelope = {
    type: 'handshake_ack',
    protocol_version: PROTOCOL_VERSION,
    provider: {
      name: INGEST_PROVIDER_NAME,
      version: packageVersion(),
      // C3/C5: reads the paste, writes nothing, nothing leaves the machine.
      data_flow: { reads: true, writes: false, egress: false, egress_scopes: ['local-only'] },
    },
    capabilities: {
      query: { kinds: store.kinds },
      correlation: true,
      graph: false,
      verify: true,
      representations,
      resolve: true,
    },
  };
  let handshaken = false;

  const withId = (env: OutEnvelope, id: string | number | undefined): OutEnvelope => (id === undefined ? env : { ...env, id });

  function query(env: JsonObject): OutEnvelope {
    const id = correlationIdOf(env);
    const parsed = parseQuery(env.query);
    if (!parsed.ok) return errorEnvelope(parsed.code, parsed.message, id);
    const q = parsed.value;
    const rep = chooseRepresentation(q.representation_preferences, representations);
    if (!rep.ok) return errorEnvelope(rep.code, rep.message, id);
    const eligible = store.eligible({ kinds: q.kinds, ...(q.as_of !== undefined ? { asOf: q.as_of } : {}) });
    if (q.kinds.length > 0 && eligible.length === 0 && !store.artifacts.some((a) => q.kinds.includes(a.frameKind))) {
      return errorEnvelope('unsupported_kind', `none of the requested kinds (${q.kinds.join(', ')}) is served; this provider serves ${store.kinds.join(', ') || 'nothing'} (Q1)`, id);
    }
    const rendered = store.serve({ representation: rep.value, kinds: q.kinds, ...(q.as_of !== undefined ? { asOf: q.as_of } : {}) });
    const { selected, dropped } = budget(rendered, q);
    const result: JsonObject = { frames: selected as unknown as JsonObject[], truncated: dropped > 0 };
    if (dropped > 0) result.dropped_estimate = dropped;
    return withId({ type: 'frames', result }, id);
  }

  function verify(env: JsonObject): OutEnvelope {
    const id = correlationIdOf(env);
    const request = env.request;
    const identities = isJsonObject(request) ? request.frames : undefined;
    if (!Array.isArray(identities)) return errorEnvelope('bad_request', 'verify carries no request.frames array', id);
    const verdicts: JsonObject[] = [];
    for (const [i, raw] of identities.entries()) {
      if (!isJsonObject(raw) || typeof raw.provider_id !== 'string' || typeof raw.frame_id !== 'string') {
        return errorEnvelope('bad_request', `request.frames[${i}] is not a frame identity`, id);
      }
      const digest = raw.content_digest;
      if (digest !== undefined && digest !== null && typeof digest !== 'string') {
        return errorEnvelope('bad_request', `request.frames[${i}].content_digest is not a string`, id);
      }
      verdicts.push(store.verify({ provider_id: raw.provider_id, frame_id: raw.frame_id, ...(typeof digest === 'string' ? { content_digest: digest } : {}) }) as unknown as JsonObject);
    }
    return withId({ type: 'verified', response: { verdicts } }, id);
  }

  function handshake(env: JsonObject): OutEnvelope {
    const id = correlationIdOf(env);
    const version = env.protocol_version;
    if (typeof version !== 'string') return errorEnvelope('bad_request', 'handshake carries no protocol_version string', id);
    if (majorFamily(version) !== majorFamily(PROTOCOL_VERSION)) {
      return errorEnvelope('incompatible_version', `host speaks ${version}; this provider speaks ${PROTOCOL_VERSION} (H3)`, id);
    }
    if (!versionsCompatible(version, PROTOCOL_VERSION)) return errorEnvelope('bad_request', `protocol_version ${JSON.stringify(version)} is not a version string`, id);
    handshaken = true;
    return structuredClone(ack);
  }

  function dispatch(input: string | Error | object): { out: OutEnvelope[]; exit?: number } {
    let env: RawEnvelope | Error;
    if (typeof input === 'string') env = parseEnvelopeLine(input);
    else if (input instanceof Error) env = input;
    else if (isJsonObject(input) && typeof input.type === 'string') env = input as RawEnvelope;
    else env = new NotAnEnvelopeError('not an object with a string "type"', JSON.stringify(input) ?? '');
    if (env instanceof Error) {
      let id: string | number | undefined;
      if (env instanceof NotAnEnvelopeError) {
        try {
          id = correlationIdOf(JSON.parse(env.preview));
        } catch {
          id = undefined;
        }
      }
      const reason = env instanceof NotAnEnvelopeError ? env.reason : env.message;
      return { out: [errorEnvelope('bad_request', `not a CGP envelope (${reason}) (R1)`, id)] };
    }
    if (opts.requireHandshake && !handshaken && (env.type === 'query' || env.type === 'verify')) {
      return { out: [errorEnvelope('bad_request', `${env.type} before a completed handshake: no payload moves before the handshake (S3)`, correlationIdOf(env))] };
    }
    switch (env.type) {
      case 'handshake':
        return { out: [handshake(env)] };
      case 'query':
        return { out: [query(env)] };
      case 'verify':
        return { out: [verify(env)] };
      case 'shutdown':
        return { out: [], exit: 0 };
      default: {
        if (INBOUND_IGNORED.has(env.type)) return { out: [] };
        const payload = (env.id !== undefined && env.id !== null) || REQUEST_PAYLOAD_MEMBERS.some((m) => isJsonObject(env[m]));
        // S2.1: an unknown notification is ignored; an unknown request is answered bad_request.
        if (!payload) return { out: [] };
        return { out: [errorEnvelope('bad_request', `envelope type ${JSON.stringify(env.type)} is not implemented by this provider (S2.1)`, correlationIdOf(env))] };
      }
    }
  }

  return {
    ack,
    handle(input) {
      let result: { out: OutEnvelope[]; exit?: number };
      try {
        result = dispatch(input);
      } catch (err) {
        // R1: a fault of ours is an `internal` error, never a crash.
        result = { out: [errorEnvelope('internal', `provider fault: ${err instanceof Error ? err.message : String(err)}`)] };
      }
      const reply: IngestReply = { envelopes: result.out, lines: result.out.map((e) => JSON.stringify(e)) };
      if (result.exit !== undefined) reply.exit = result.exit;
      return reply;
    },
  };
}
