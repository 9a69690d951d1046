/**
 * The suite's side of the host contract (docs/host-control-protocol.md), between the host under test —
 * in this process or another — and the checks:
 *
 *  1. every result is validated against its published schema (contract.ts): a result that breaks it is a
 *     ContractError (inconclusive, naming op, field and schema path), never read by a check;
 *  2. provider identity is normalised: wherever the host named a provider by its handshake name OR by its
 *     own routingId (a FrameId's provider_id, an answer's, failure's or audit's `provider`, a block), the
 *     checks see the descriptor the host returned when it connected (routingId and name both);
 *  3. a `not_supported` answer becomes what capabilities.ts makes of it for this scenario (not applicable,
 *     or unverified), never a finding;
 *  4. what the suite hands back to the host (compose's answers, verify's frames, usage's fan-out,
 *     attribute's composition and usage) is exactly what the host returned, never the normalised view.
 */
import type { ContextQuery, FrameId } from '../../../../generated/types/index.js';
import type { ComposedPrompt, ComposeOptions } from '../../../host/compose/types.js';
import type { FanOutResult } from '../../../host/fan-out.js';
import type { ProviderAnswer, ProviderDescriptor, ReceivedFrame } from '../../../host/types.js';
import type { UsageReport } from '../../../host/usage.js';
import type { VerifyOutcome } from '../../../host/verify-reuse.js';
import type { AttributionRecord } from '../../../host/attribution.js';
import type { HostUnderTest } from '../../../host/under-test.js';
import { CapabilityUnverified, isHostCapability, missingCapability, readCapabilities, type HostCapability } from '../capabilities.js';
import { assertContract, isNotSupported } from './contract.js';
import { ControlledHostError, toWire } from './control-protocol.js';
import { ProviderIdentities } from '../identity.js';

/** The host's own value behind a normalised view (what is handed back to it). */
const RAW = Symbol('cgp.host-contract.raw');

function withRaw<T extends object>(view: T, raw: unknown): T {
  Object.defineProperty(view, RAW, { value: raw, enumerable: false });
  return view;
}

/** The host's own value for an argument the suite passes back (views → what the host returned). */
function toRaw(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (RAW in value) return (value as Record<typeof RAW, unknown>)[RAW];
  if (Array.isArray(value)) return value.map(toRaw);
  return value;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What the scenario needs of the host (its @needs-<capability> tags) and the ids it judges. */
export interface ContractScenario {
  ids: readonly string[];
  needs: readonly HostCapability[];
}

/** The capability or hook a `not_supported` error names in its `capability` (or `hook`) member, if any. */
function namedCapability(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as Record<string, unknown>;
  const named = typeof e.capability === 'string' ? e.capability : typeof e.hook === 'string' ? e.hook : undefined;
  return named === '' ? undefined : named;
}

/** The capability a `not_supported` answer to `op` (with these arguments) withholds, if any. */
function capabilityOf(op: string, args: readonly unknown[], needs: readonly HostCapability[]): HostCapability | undefined {
  if (op === 'revokeConsent') return 'revoke';
  if (op === 'attribute') return 'attribution';
  if (op === 'connectHttp') return 'http';
  if (op === 'compose') {
    const opts = isObject(args[1]) ? args[1] : {};
    if (opts.providerThresholds !== undefined) return 'score-thresholds';
    if (opts.strategy !== undefined) return 'compose-strategies';
  }
  return needs.length === 1 ? needs[0] : undefined;
}

export interface ContractHost extends HostUnderTest {
  /** The capabilities the host declared (known ones), or undefined when it declared none. */
  readonly declared: readonly HostCapability[] | undefined;
  /** Notes about the contract (unknown capabilities ignored, …). */
  readonly notes: readonly string[];
  /** The one provider-identity mapping (identity.ts), filled as the host connects providers. */
  readonly identities: ProviderIdentities;
}

/**
 * The host under test behind the contract. `scenario` decides what a `not_supported` answer makes of the
 * scenario; the host's declared capabilities are checked by the caller (HostScenario) against its needs.
 */
export function contractHost(inner: HostUnderTest, scenario: ContractScenario): ContractHost {
  const { declared, notes } = readCapabilities(inner.capabilities);
  // the one identity mapping (identity.ts): every view below and every check go through it
  const identities = new ProviderIdentities();
  const descriptorOf = (ref: unknown): ProviderDescriptor | undefined => identities.descriptorOf(ref);
  /** A reference as {routingId, name} (unknown references kept as they are, both members the same string). */
  const refOf = (ref: unknown): { routingId: string; name: string } => {
    const d = descriptorOf(ref);
    if (d !== undefined) return { routingId: d.routingId, name: d.name };
    const s = typeof ref === 'string' ? ref : isObject(ref) ? String(ref.routingId ?? ref.name ?? '') : '';
    return { routingId: s, name: isObject(ref) && typeof ref.name === 'string' ? ref.name : s };
  };
  /** A FrameId with its provider_id as the handshake name (a routingId mapped through the descriptors). */
  const frameIdView = (id: FrameId): FrameId => identities.frameId(id);
  const frameView = (f: ReceivedFrame): ReceivedFrame => {
    if (!isObject(f) || !isObject(f.frameId)) return f;
    const id = frameIdView(f.frameId);
    return id === f.frameId ? f : withRaw({ ...f, frameId: id }, f);
  };
  const errorView = (e: unknown): unknown => (e instanceof Error ? e : isObject(e) ? new ControlledHostError(e) : e);

  /** One operation: arguments handed back raw, `not_supported` read, the result held to its schema. */
  const op = async <T>(name: string, args: unknown[], run: (...raw: unknown[]) => unknown): Promise<T> => {
    let result: unknown;
    try {
      result = await run(...args.map(toRaw));
    } catch (err) {
      if (isNotSupported(err)) {
        // the error may name what is missing (`capability`, or `hook`: docs/host-control-protocol.md); else it is read from the operation
        const named = namedCapability(err);
        if (named !== undefined && !isHostCapability(named)) {
          throw new CapabilityUnverified(
            named,
            `the host answered not_supported to ${name}, naming ${JSON.stringify(named)}, which is not in the closed set of capabilities; ${scenario.ids.join(', ')} not witnessed, counted apart`,
          );
        }
        const cap = named ?? capabilityOf(name, args, scenario.needs);
        if (cap !== undefined) throw missingCapability(cap, scenario.ids, `it answered not_supported to ${name}`);
        throw new CapabilityUnverified(
          `the operation ${name}`,
          `the host answered not_supported to ${name}, which this scenario needs to witness ${scenario.ids.join(', ')}; ${scenario.ids.join(', ')} bind every host and are never waived`,
        );
      }
      throw err;
    }
    assertContract(name, toWire(result ?? null));
    return result as T;
  };

  const connected = (d: ProviderDescriptor): ProviderDescriptor => identities.add(d);

  const fanOutView = (raw: FanOutResult): FanOutResult => {
    const answers = raw.answers.map((a) => {
      const d = descriptorOf(a.provider) ?? ({ ...refOf(a.provider) } as unknown as ProviderDescriptor);
      return withRaw({ ...a, provider: d, frames: a.frames.map(frameView) } as ProviderAnswer, a);
    });
    const failures = raw.failures.map((f) => {
      const r = f as unknown as Record<string, unknown>;
      return { ...refOf(r.provider ?? r.routingId), error: errorView(r.error) } as FanOutResult['failures'][number];
    });
    const skipped = (raw.skipped ?? []).map((s) => ({ ...s, ...refOf((s as unknown as Record<string, unknown>).provider ?? s.routingId) })) as FanOutResult['skipped'];
    const audits = (raw.audits ?? []).map((au) => ({ ...au, ...refOf((au as unknown as Record<string, unknown>).provider ?? au.routingId) })) as FanOutResult['audits'];
    return withRaw({ ...raw, answers, failures, skipped, audits, findings: raw.findings ?? [], notes: raw.notes ?? [] }, raw);
  };

  const composedView = (raw: ComposedPrompt): ComposedPrompt => {
    const blocks = raw.blocks.map((b) => ({ ...b, frameId: frameIdView(b.frameId) }));
    const dropped = (raw.dropped ?? []).map((d) => ({ ...d, frameId: frameIdView(d.frameId) }));
    return withRaw({ ...raw, blocks, dropped }, raw);
  };

  const usageView = (raw: UsageReport): UsageReport => {
    const r = raw as UsageReport & { frames?: unknown[] };
    const item = (x: unknown): unknown =>
      isObject(x) && isObject(x.frame) ? { ...x, frame: frameIdView(x.frame as unknown as FrameId) } : isObject(x) && typeof x.provider_id === 'string' ? frameIdView(x as unknown as FrameId) : x;
    return withRaw(
      {
        ...r,
        ...(Array.isArray(r.frames) ? { frames: r.frames.map(item) } : {}),
        ...(Array.isArray(r.providers)
          ? {
              providers: r.providers.map((p) =>
                isObject(p)
                  ? {
                      ...p,
                      ...(typeof p.provider_id === 'string' ? { provider_id: identities.nameOf(p.provider_id) } : {}),
                      ...(Array.isArray(p.served_frames) ? { served_frames: p.served_frames.map(item) } : {}),
                    }
                  : p,
              ),
            }
          : {}),
      } as UsageReport,
      raw,
    );
  };

  const attributionView = (raw: AttributionRecord): AttributionRecord =>
    withRaw({ ...raw, uses: raw.uses.map((u) => (isObject(u) && isObject(u.frame) ? { ...u, frame: frameIdView(u.frame) } : u)) }, raw);

  const verifyView = (raw: VerifyOutcome): VerifyOutcome =>
    withRaw(
      {
        ...raw,
        retained: raw.retained.map(frameView),
        requery: raw.requery.map(frameView),
        dropped: (raw.dropped ?? []).map((d) => (isObject(d) && isObject(d.frameId) ? { ...d, frameId: frameIdView(d.frameId), ...(isObject(d.frame) ? { frame: frameView(d.frame) } : {}) } : d)),
        findings: raw.findings ?? [],
        sent: raw.sent ?? [],
      },
      raw,
    );

  return {
    name: inner.name,
    ...(inner.capabilities !== undefined ? { capabilities: inner.capabilities } : {}),
    declared,
    notes,
    identities,
    connectStdio: async (command, args, opts) =>
      connected(await op<ProviderDescriptor>('connectStdio', [command, args, opts ?? {}], (c, a, o) => inner.connectStdio(c as string, a as string[], o as object))),
    connectHttp: async (url, opts) => connected(await op<ProviderDescriptor>('connectHttp', [url, opts ?? {}], (u, o) => inner.connectHttp(u as string, o as object))),
    grantConsent: (routingId, grant) => op<void>('grantConsent', [routingId, grant], (r, g) => inner.grantConsent(r as string, g as { grantor: string })),
    revokeConsent: (routingId, revoke) => op<void>('revokeConsent', [routingId, revoke], (r, g) => inner.revokeConsent(r as string, g as { grantor: string })),
    queryAll: async (query: ContextQuery) => fanOutView(await op<FanOutResult>('queryAll', [query], (q) => inner.queryAll(q as ContextQuery))),
    verify: async (routingId, held) => verifyView(await op<VerifyOutcome>('verify', [routingId, held], (r, h) => inner.verify(r as string, h as ReceivedFrame[]))),
    compose: async (answers, opts: ComposeOptions) => composedView(await op<ComposedPrompt>('compose', [answers, opts], (a, o) => inner.compose(a as ProviderAnswer[], o as ComposeOptions))),
    usage: async (query, fanOut) => usageView(await op<UsageReport>('usage', [query, fanOut], (q, f) => inner.usage(q as ContextQuery, f as FanOutResult))),
    attribute: async (composed, usage, output) =>
      attributionView(await op<AttributionRecord>('attribute', [composed, usage, output], (c, u, o) => inner.attribute(c as ComposedPrompt, u as UsageReport, o as string))),
    logText: () => op<string>('logText', [], () => inner.logText()),
    close: () => op<void>('close', [], () => inner.close()),
  };
}

/** The host's own value behind a view the contract layer returned (for tests). */
export function rawOf(view: unknown): unknown {
  return toRaw(view);
}
