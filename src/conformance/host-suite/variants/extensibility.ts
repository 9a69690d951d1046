// Host misbehaviour variants of the "extensibility & correlation" group (see src/conformance/host-suite/variants/manifest.ts for
// the contract): unknown members (U1, S13-interop-validator), namespaced vendor values (U3, host half) and
// the demultiplexing of a correlating provider's replies by id (H4, host half). Each flips ONE Host policy
// switch (src/host/host.ts header); the scenarios in features/host/extensibility.feature and
// features/host/correlation.feature must fail against every one of them.
import type { HostMisbehaviour } from './manifest.js';

export const EXTENSIBILITY_VARIANTS: readonly HostMisbehaviour[] = [
  {
    mode: 'reject-unknown-member',
    breaks: ['U1', 'S13-interop-validator'],
    description:
      "validates providers' messages with the authoring-strict schema (additionalProperties:false) on the interop path: a handshake_ack, frames or error reply carrying a member it does not recognise is refused",
    policies: { strictInterop: true },
  },
  {
    mode: 'read-namespaced-as-base',
    breaks: ['U3'],
    description:
      'reads a namespaced vendor value as the base value after its colon: error code acme:unavailable as unavailable (retryable), egress scope acme:local-only as local-only (on-machine, no receipt needed)',
    policies: { readNamespacedAsBase: true },
  },
  {
    mode: 'accept-any-correlation-id',
    breaks: ['H4'],
    description: "queries a correlation-declaring provider in lock-step and takes the next reply as the answer whatever id it carries (wrong, missing or an earlier request's)",
    policies: { replyRouting: 'lockstep' },
  },
  {
    mode: 'route-replies-by-arrival',
    breaks: ['H4'],
    description: 'pipelines queries to a correlation-declaring provider but hands each reply to the oldest pending request, ignoring its id (out-of-order replies answer the wrong query)',
    policies: { replyRouting: 'arrival' },
  },
];
