// Host misbehaviour variants of the "connection" group (see src/host/misbehaviours.ts for the contract).
import type { HostMisbehaviour } from '../misbehaviours.js';

export const CONNECTION_VARIANTS: readonly HostMisbehaviour[] = [];
