/**
 * The ONE provider-identity mapping of the host suite (docs/host-control-protocol.md "Identity",
 * docs/interpretations.md §98). A host names a provider by its handshake `provider.name` or by its own
 * routing id (SPEC.md §6.5.2: "A host also keeps a local id for each provider it has configured"). Every
 * check compares provider identities through this table — the host's results (answers, failures, audits,
 * blocks, usage reports, attribution records, verify outcomes) and what the scripted providers recorded on
 * the wire (the identities of a `verify`) alike — so a host keyed by its local ids is judged exactly as one
 * keyed by names. Where SPEC.md binds the name itself (S6.5.2-provider-id), `localIdsIn` says which
 * references were local ids.
 */
import type { FrameId } from '../../../generated/types/index.js';
import type { ProviderDescriptor } from '../../host/types.js';
import { frameIdKey } from '../../protocol/identity.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export class ProviderIdentities {
  readonly #byRouting = new Map<string, ProviderDescriptor>();
  readonly #byName = new Map<string, ProviderDescriptor>();

  /** A provider the host connected (its descriptor: routingId and handshake name). */
  add(d: ProviderDescriptor): ProviderDescriptor {
    this.#byRouting.set(d.routingId, d);
    if (!this.#byName.has(d.name)) this.#byName.set(d.name, d);
    return d;
  }

  /** The descriptor a provider reference (name, routing id, or an object carrying one) denotes. */
  descriptorOf(ref: unknown): ProviderDescriptor | undefined {
    if (typeof ref === 'string') return this.#byRouting.get(ref) ?? this.#byName.get(ref);
    if (isObject(ref)) {
      if (typeof ref.routingId === 'string' && this.#byRouting.has(ref.routingId)) return this.#byRouting.get(ref.routingId);
      if (typeof ref.name === 'string' && this.#byName.has(ref.name)) return this.#byName.get(ref.name);
    }
    return undefined;
  }

  /** The handshake name a provider id denotes (a routing id mapped; a name, or an id nobody connected, as it is). */
  nameOf(providerId: string): string {
    const d = this.#byRouting.get(providerId);
    return d !== undefined ? d.name : providerId;
  }

  /** Whether `providerId` is a host-local routing id that is not its provider's handshake name. */
  isLocalId(providerId: string): boolean {
    const d = this.#byRouting.get(providerId);
    return d !== undefined && d.name !== providerId && !this.#byName.has(providerId);
  }

  /** A FrameId with its provider_id as the handshake name (the same object when nothing changes). */
  frameId<T extends FrameId>(id: T): T {
    if (!isObject(id) || typeof id.provider_id !== 'string') return id;
    const name = this.nameOf(id.provider_id);
    return name === id.provider_id ? id : { ...id, provider_id: name };
  }

  /** The canonical key of a FrameId-like value (provider mapped), or undefined when it is not one. */
  key(id: unknown): string | undefined {
    if (!isObject(id) || typeof id.provider_id !== 'string' || typeof id.frame_id !== 'string') return undefined;
    return frameIdKey(this.frameId(id as unknown as FrameId));
  }
}

/** The identity table of a scenario that connected nothing through the contract (tests of pure checks). */
export const NO_IDENTITIES = new ProviderIdentities();
