// Host misbehaviour variants of the "transport" group (see src/host/misbehaviours.ts for the contract).
import type { HostMisbehaviour } from '../misbehaviours.js';

export const TRANSPORT_VARIANTS: readonly HostMisbehaviour[] = [];
