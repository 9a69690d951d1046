// Host misbehaviour variants of the "connection" group (see src/conformance/host-suite/variants/manifest.ts for the contract):
// handshake acceptance (H3, C5), per-provider query shaping (E1, P5, S3.2), error-code handling (X1, X2,
// S10-not-retryable) and the open vocabularies of received frames (U2, S8.1-rel-open). Each flips ONE Host
// policy switch (src/host/host.ts header) or wraps the host-under-test surface; the scenarios in
// features/host/connection.feature and features/host/fan-out.feature must fail against every one of them.
import type { HostUnderTest } from '../../../host/under-test.js';
import type { FanOutResult } from '../../../host/fan-out.js';
import { BASE_RELS, FRAME_KINDS } from '../../../protocol/vocabulary.js';
import { MalformedReply } from '../../../host/errors.js';
import type { HostMisbehaviour } from './manifest.js';
import { HOST_CAPABILITIES } from '../capabilities.js';
import type { ProviderAnswer } from '../../../host/types.js';

/**
 * A fan-out wrapper that refuses (moves to `failures`) every answer with a frame the predicate calls
 * unacceptable — the "reject what I do not recognise" misreading of an open vocabulary. Everything else
 * is passed through untouched.
 */
function rejectAnswers(honest: HostUnderTest, anchor: string, reject: (answer: ProviderAnswer) => string | undefined): HostUnderTest {
  return {
    ...honest,
    queryAll: async (query) => {
      const result: FanOutResult = await honest.queryAll(query);
      const kept: ProviderAnswer[] = [];
      for (const answer of result.answers) {
        const why = reject(answer);
        if (why === undefined) {
          kept.push(answer);
          continue;
        }
        const routingId = answer.provider.routingId;
        result.failures.push({ routingId, name: answer.provider.name, provider: routingId, error: new MalformedReply(why, { routingId, anchor }) } as (typeof result.failures)[number]);
      }
      return { ...result, answers: kept };
    },
  };
}

const BASE_KINDS: readonly string[] = FRAME_KINDS;
const KNOWN_RELS: readonly string[] = BASE_RELS;

export const CONNECTION_VARIANTS: readonly HostMisbehaviour[] = [
  {
    mode: 'accept-foreign-version',
    breaks: ['H3'],
    description: 'accepts a handshake_ack from another major protocol family (contextgraph/2.0) and goes on to query the provider',
    policies: { acceptForeignVersion: true },
  },
  {
    mode: 'skip-scope-consistency',
    breaks: ['C5'],
    description: 'accepts a provider declaring egress:false alongside an off-machine egress scope (and so never gates it)',
    policies: { skipScopeConsistency: true },
  },
  {
    mode: 'send-embedding-always',
    breaks: ['E1'],
    description: 'sends query.embedding to every provider, whatever its declared embeddings_fingerprint',
    policies: { sendEmbeddingAlways: true },
  },
  {
    mode: 'undeclared-embedding-passthrough',
    breaks: ['E1'],
    description: "declares its capabilities without embedding, yet passes the caller's query.embedding through to every provider",
    policies: { sendEmbeddingAlways: true },
    wrap: (honest) => ({ ...honest, capabilities: HOST_CAPABILITIES.filter((c) => c !== 'embedding') }),
  },
  {
    mode: 'representation-passthrough',
    breaks: ['P5'],
    description: 'sends query.representation_preferences as asked, including representations the provider never advertised',
    policies: { representationPolicy: 'passthrough' },
  },
  {
    mode: 'send-ids-to-all',
    breaks: ['S3.2-no-id-without-correlation'],
    description: 'puts a correlation id on queries to providers that did not declare capabilities.correlation',
    policies: { sendIdsToAll: true },
  },
  {
    mode: 'retry-unknown-code',
    breaks: ['X1'],
    description: 'reads an error with an unrecognised code as transient and sends the query again (instead of internal: report, never retry)',
    policies: { retryNonRetryable: ['X1'] },
  },
  {
    mode: 'retry-absent-code',
    breaks: ['X2'],
    description: 'reads an error with no code as transient and sends the query again (instead of internal: report, never retry)',
    policies: { retryNonRetryable: ['X2'] },
  },
  {
    mode: 'retry-incompatible-version',
    breaks: ['S10-not-retryable'],
    description: 'retries a query the provider answered with incompatible_version, a permanent failure',
    policies: { retryNonRetryable: ['S10-not-retryable'] },
  },
  {
    mode: 'reject-unknown-kind',
    breaks: ['U2'],
    description: 'refuses a provider answer carrying a frame whose kind is outside the base FrameKind vocabulary',
    wrap: (honest) =>
      rejectAnswers(honest, 'U2', (answer) => {
        const odd = answer.frames.find((f) => !BASE_KINDS.includes(String(f.frame.kind)));
        return odd === undefined ? undefined : `frame ${JSON.stringify(odd.frame.id)} has unknown kind ${JSON.stringify(odd.frame.kind)}`;
      }),
  },
  {
    mode: 'reject-unknown-rel',
    breaks: ['S8.1-rel-open'],
    description: 'refuses a provider answer carrying a relation whose rel is outside the base rel vocabulary',
    wrap: (honest) =>
      rejectAnswers(honest, 'S8.1-rel-open', (answer) => {
        for (const f of answer.frames) {
          const rels = Array.isArray(f.frame.relations) ? f.frame.relations : [];
          const odd = rels.find((r) => !KNOWN_RELS.includes(String(r.rel)));
          if (odd !== undefined) return `frame ${JSON.stringify(f.frame.id)} has a relation with unknown rel ${JSON.stringify(odd.rel)}`;
        }
        return undefined;
      }),
  },
];
