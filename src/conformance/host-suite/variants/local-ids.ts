// A host keyed by its OWN provider ids (SPEC.md §6.5.2: "A host also keeps a local id for each provider it
// has configured"), as the public reference host is: every provider gets a local routing id that is not its
// handshake name, and that local id is the provider_id of every FrameId the host reports — answers, blocks,
// verify outcomes, usage report (its per-provider breakdown only), attribution record — and of the identities
// it sends in a verify on the wire.
// It compares identities by the providers' names (D2 holds across two connections to one provider).
//
// Every MUST check must judge it exactly as the bundled host (docs/interpretations.md §98: one identity
// mapping); only S6.5.2-provider-id ("provider_id is the provider's handshake-declared provider.name", a
// SHOULD) is reported, where a FrameId leaves the host. It is the honest alternative of the identity
// mapping and the variant that only the S6.5.2-provider-id check catches.
import type { HostUnderTest } from '../../../host/under-test.js';
import type { FanOutResult } from '../../../host/fan-out.js';
import { relayCommand } from './verify.js';

type Rename = (providerId: string) => string;

function isPlain(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);
}

/** A copy of `value` with every `provider_id` string renamed (plain objects and arrays only). */
function renamed<T>(value: T, rename: Rename): T {
  if (Array.isArray(value)) return value.map((v) => renamed(v, rename)) as T;
  if (!isPlain(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = k === 'provider_id' && typeof v === 'string' ? rename(v) : renamed(v, rename);
  return out as T;
}

export function localIds(honest: HostUnderTest): HostUnderTest {
  const nameOf = new Map<string, string>(); // local id → handshake name
  const localOf = new Map<string, string>(); // handshake name → its first local id
  let n = 0;
  const toName: Rename = (id) => nameOf.get(id) ?? id;
  const toLocal: Rename = (id) => localOf.get(id) ?? id;
  const register = <T extends { routingId: string; name: string }>(d: T): T => {
    nameOf.set(d.routingId, d.name);
    if (!localOf.has(d.name)) localOf.set(d.name, d.routingId);
    return d;
  };
  return {
    ...honest,
    connectStdio: async (command, args, opts = {}) => {
      const local = opts.alias ?? `local-${++n}`;
      const relay = relayCommand(`local-id:${local}`, command, args);
      return register(await honest.connectStdio(relay.command, relay.args, { ...opts, alias: local }));
    },
    connectHttp: async (url, opts = {}) => register(await honest.connectHttp(url, { ...opts, alias: opts.alias ?? `local-${++n}` })),
    queryAll: async (query) => {
      const r = await honest.queryAll(query);
      // each answer's frames under the local id of the connection that served them
      return { ...r, answers: r.answers.map((a) => ({ ...a, frames: renamed(a.frames, () => a.provider.routingId) })) } as FanOutResult;
    },
    verify: async (routingId, held) => renamed(await honest.verify(routingId, renamed(held, toName)), toLocal),
    compose: async (answers, opts) => renamed(await honest.compose(renamed(answers, toName), opts), toLocal),
    // the per-provider breakdown only (as the public reference host reports it), keyed by local ids
    usage: async (query, fanOut) => {
      const { frames: _flat, ...report } = renamed(await honest.usage(query, renamed(fanOut, toName)), toLocal) as Awaited<ReturnType<HostUnderTest['usage']>> & { frames?: unknown };
      void _flat;
      return report;
    },
    attribute: async (composed, usage, output) => renamed(await honest.attribute(renamed(composed, toName), renamed(usage, toName), output), toLocal),
  };
}
