// Host misbehaviour variants of the "composition" group (see src/host/misbehaviours.ts for the contract).
import type { HostMisbehaviour } from '../misbehaviours.js';

export const COMPOSITION_VARIANTS: readonly HostMisbehaviour[] = [];
