// Host misbehaviour variants of the "extensibility & correlation" group (see src/host/misbehaviours.ts for
// the contract): unknown members (U1, S13-interop-validator), namespaced vendor values (U3, host half) and
// the demultiplexing of a correlating provider's replies by id (H4, host half). Each flips ONE Host policy
// switch (src/host/host.ts header) or wraps the host-under-test surface; the scenarios in
// features/host/extensibility.feature and features/host/correlation.feature must fail against every one.
import type { HostUnderTest } from '../../conformance/host/adapter.js';
import { AUTHORING_STRICT_ID, validateDef, validateEnvelope, type SchemaIssue } from '../../schema/validate.js';
import { HandshakeFailed, MalformedReply } from '../errors.js';
import type { FanOutResult } from '../fan-out.js';
import type { HostMisbehaviour } from '../misbehaviours.js';
import type { ProviderAnswer } from '../types.js';

/** The closed-object issues of the authoring-strict profile: a member the schema does not define. */
function unknownMembers(issues: readonly SchemaIssue[]): string[] {
  return issues.filter((i) => i.id === AUTHORING_STRICT_ID).map((i) => i.pointer || '/');
}

/**
 * The "validate peers with the authoring lint" mistake (U1, S13-interop-validator): the handshake_ack and
 * every answer's result are checked against the authoring-strict profile (additionalProperties:false) and a
 * provider carrying a member the schema does not define is refused — at connect (the connection is dropped
 * from every later fan-out) or for that answer (moved to `failures`). Nothing else changes.
 */
function rejectUnknownMembers(honest: HostUnderTest): HostUnderTest {
  const refused = new Set<string>();
  const strictAck = async (connect: Promise<Awaited<ReturnType<HostUnderTest['connectStdio']>>>) => {
    const d = await connect;
    const odd = unknownMembers(validateEnvelope(d.ack, 'strict'));
    if (odd.length === 0) return d;
    refused.add(d.routingId);
    throw new HandshakeFailed(`handshake_ack from ${d.routingId} carries members the schema does not define: ${odd.join(', ')}`, { routingId: d.routingId, anchor: 'S2-wire-shape' });
  };
  const oddIn = (answer: ProviderAnswer): string[] => unknownMembers(validateDef('ContextQueryResult', answer.result, 'strict'));
  return {
    ...honest,
    connectStdio: (command, args, opts) => strictAck(honest.connectStdio(command, args, opts)),
    connectHttp: (url, opts) => strictAck(honest.connectHttp(url, opts)),
    queryAll: async (query) => {
      const result: FanOutResult = await honest.queryAll(query);
      const kept: ProviderAnswer[] = [];
      for (const answer of result.answers) {
        const routingId = answer.provider.routingId;
        if (refused.has(routingId)) continue;
        const odd = oddIn(answer);
        if (odd.length === 0) {
          kept.push(answer);
          continue;
        }
        result.failures.push({ routingId, name: answer.provider.name, error: new MalformedReply(`frames reply carries members the schema does not define: ${odd.join(', ')}`, { routingId }) });
      }
      return { ...result, answers: kept, failures: result.failures.filter((f) => !refused.has(f.routingId)) };
    },
  };
}

export const EXTENSIBILITY_VARIANTS: readonly HostMisbehaviour[] = [
  {
    mode: 'reject-unknown-member',
    breaks: ['U1', 'S13-interop-validator'],
    description: 'validates providers\' messages with the authoring-strict schema (additionalProperties:false) on the interop path: a handshake_ack or frames result carrying a member it does not recognise is refused',
    wrap: rejectUnknownMembers,
  },
  {
    mode: 'read-namespaced-as-base',
    breaks: ['U3'],
    description: 'reads a namespaced vendor value as the base value after its colon: error code acme:unavailable as unavailable (retryable), egress scope acme:local-only as local-only (on-machine, no receipt needed)',
    policies: { readNamespacedAsBase: true },
  },
  {
    mode: 'accept-any-correlation-id',
    breaks: ['H4'],
    description: 'queries a correlation-declaring provider in lock-step and takes the next reply as the answer whatever id it carries (wrong, missing or an earlier request\'s)',
    policies: { replyRouting: 'lockstep' },
  },
  {
    mode: 'route-replies-by-arrival',
    breaks: ['H4'],
    description: 'pipelines queries to a correlation-declaring provider but hands each reply to the oldest pending request, ignoring its id (out-of-order replies answer the wrong query)',
    policies: { replyRouting: 'arrival' },
  },
];
