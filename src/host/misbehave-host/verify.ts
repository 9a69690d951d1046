// Host misbehaviour variants of the "verify" group (see src/host/misbehaviours.ts for the contract).
import type { HostMisbehaviour } from '../misbehaviours.js';

export const VERIFY_VARIANTS: readonly HostMisbehaviour[] = [];
