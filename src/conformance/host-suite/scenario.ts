/**
 * One host-facing scenario: the host under test (fresh per scenario, with its own consent ledger in a
 * temporary directory) and the scripted providers the scenario puts in front of it. Steps call these
 * methods and the checks in ./checks.ts; nothing here decides conformance.
 *
 * Every provider is a real child process the host spawns and speaks NDJSON with over pipes (a relay child
 * or a node process running src/conformance/host-suite/scripted/scripted-provider.cjs: scripted-relay.ts), and it records
 * every line it RECEIVED — so "the provider never saw the payload" is an
 * observation of the wire, not of the host's own bookkeeping.
 */
import { rmSync } from 'node:fs';
import { makeScratchDir } from '../../util/scratch-dir.js';
import { join } from 'node:path';
import type { ContextQuery } from '../../../generated/types/index.js';
import type { ComposedPrompt } from '../../host/compose/types.js';
import type { FanOutResult } from '../../host/fan-out.js';
import type { ProviderDescriptor } from '../../host/types.js';
import type { UsageReport } from '../../host/usage.js';
import type { AttributionRecord } from '../../host/attribution.js';
import type { HostFactory, HostUnderTest } from './adapter.js';
import { readNdjsonFile } from './scripted/ndjson-file.js';
import { CapabilityNotApplicable, missingCapability, type HostCapability } from './capabilities.js';
import { contractHost, type ContractHost } from './control/contract-host.js';
import { ProviderIdentities } from './identity.js';
import { isNotSupported } from './control/contract.js';
import { HarnessError } from '../provider-suite/errors.js';
import { scriptedCommand, type ScriptedCommand } from './scripted/scripted-relay.js';

/**
 * Errors that decide the scenario rather than witness the host's behaviour: a contract error or a test
 * hook it lacks (inconclusive), a capability it lacks (not applicable). A step never keeps one as "the
 * host's refusal" to judge.
 */
export function isScenarioVerdict(err: unknown): boolean {
  return err instanceof HarnessError || err instanceof CapabilityNotApplicable;
}

/** What a scripted provider does (see the header of scripted-provider.cjs for every member). */
export type ScriptedConfig = Record<string, unknown> & { name?: string };

export interface HostSuiteConfig {
  factory: HostFactory;
  description: string;
  misbehave?: string;
  handshakeTimeoutMs: number;
  requestTimeoutMs: number;
}

export interface ScriptedProvider {
  /** The scenario's name for it (also its provider.name unless the script says otherwise). */
  label: string;
  config: ScriptedConfig;
  recordPath: string;
  descriptor?: ProviderDescriptor;
  /** The error connecting raised, if it was refused. */
  connectError?: unknown;
  /** What the host was told to spawn for it (scripted-relay.ts), one per connection. */
  commands: ScriptedCommand[];
}

export class HostScenario {
  readonly dir: string;
  readonly providers = new Map<string, ScriptedProvider>();
  /** The last outcome of each kind, for Then steps. */
  lastFanOut: FanOutResult | undefined;
  /** The query of the last fan-out (what `usage` is asked about). */
  lastQuery: ContextQuery | undefined;
  lastError: unknown;
  lastComposed: ComposedPrompt | undefined;
  lastUsage: UsageReport | undefined;
  lastAttribution: AttributionRecord | undefined;
  /** The host answered not_supported to an init carrying an embedding fingerprint (it has none of its own). */
  embeddingDeclined = false;
  /** Notes about the host's contract (unknown capabilities it declared, …). */
  readonly contractNotes: string[] = [];
  /** Group-specific state of step modules (key it by your module's name). */
  readonly state = new Map<string, unknown>();
  /** Extra cleanups (servers a step started), run at dispose. */
  readonly cleanups: Array<() => Promise<void> | void> = [];
  #host: HostUnderTest | undefined;

  constructor(
    readonly config: HostSuiteConfig,
    readonly ids: readonly string[],
    /** The host capabilities the scenario needs (its @needs-<capability> tags; capabilities.ts). */
    readonly needs: readonly HostCapability[] = [],
  ) {
    this.dir = makeScratchDir('cgp-host-scenario-');
  }

  /** The host under test (created on first use, so a scenario can set options first). */
  async host(options: { embeddingFingerprint?: string } = {}): Promise<HostUnderTest> {
    if (this.#host === undefined) {
      let inner: HostUnderTest;
      try {
        inner = await this.config.factory({
          ledgerPath: join(this.dir, 'consent.jsonl'),
          handshakeTimeoutMs: this.config.handshakeTimeoutMs,
          requestTimeoutMs: this.config.requestTimeoutMs,
          ...(options.embeddingFingerprint !== undefined ? { embeddingFingerprint: options.embeddingFingerprint } : {}),
          ...(this.config.misbehave !== undefined ? { misbehave: this.config.misbehave } : {}),
        });
      } catch (err) {
        // a host refusing init over a capability it lacks (embedding) says so with not_supported: it has no
        // embedding fingerprint of its own, and is judged as such (E1 binds what reaches the providers,
        // whatever the host declares: docs/interpretations.md §104)
        if (options.embeddingFingerprint === undefined || !isNotSupported(err)) throw err;
        this.embeddingDeclined = true;
        const { embeddingFingerprint: _fp, ...rest } = options;
        void _fp;
        return this.host(rest);
      }
      // every result held to the published contract, provider identity normalised (contract-host.ts)
      const host = contractHost(inner, { ids: this.ids, needs: this.needs });
      this.#host = host;
      this.contractNotes.push(...host.notes);
      if (host.declared !== undefined) {
        const lacking = this.needs.filter((n) => !host.declared!.includes(n));
        if (lacking.length > 0) throw missingCapability(lacking[0]!, this.ids, `it declares the capabilities [${host.declared.join(', ')}] without it`);
      }
    }
    return this.#host;
  }

  /** The scenario's one provider-identity mapping (identity.ts): every check compares providers through it. */
  get identities(): ProviderIdentities {
    return this.#host === undefined ? new ProviderIdentities() : (this.#host as ContractHost).identities;
  }

  /** What the host declares it has (undefined: it declared nothing). */
  declaredCapabilities(): readonly HostCapability[] | undefined {
    return this.#host === undefined ? undefined : (this.#host as ContractHost).declared;
  }

  /** Declare a scripted provider (not yet connected). */
  scripted(label: string, config: ScriptedConfig = {}): ScriptedProvider {
    const recordPath = join(this.dir, `${label.replace(/[^A-Za-z0-9_-]/g, '_')}.received.ndjson`);
    const provider: ScriptedProvider = { label, config: { name: label, ...config, record: recordPath }, recordPath, commands: [] };
    this.providers.set(label, provider);
    return provider;
  }

  provider(label: string): ScriptedProvider {
    const p = this.providers.get(label);
    if (p === undefined) throw new Error(`no scripted provider ${JSON.stringify(label)} in this scenario`);
    return p;
  }

  /** Have the host connect a scripted provider over stdio; a refusal is kept (lastError), not thrown. */
  async connect(label: string, opts: { alias?: string } = {}): Promise<ScriptedProvider> {
    const p = this.provider(label);
    const host = await this.host();
    let command: ScriptedCommand;
    try {
      command = await scriptedCommand(p.config);
    } catch (err) {
      throw new HarnessError(`the scripted provider ${JSON.stringify(label)} could not be prepared: ${(err as Error).message}`, { cause: err });
    }
    p.commands.push(command);
    try {
      p.descriptor = await host.connectStdio(command.command, command.args, opts);
      delete p.connectError;
    } catch (err) {
      if (isScenarioVerdict(err)) throw err;
      p.connectError = err;
      this.lastError = err;
    }
    return p;
  }

  routingId(label: string): string {
    const p = this.provider(label);
    if (p.descriptor === undefined) throw new Error(`scripted provider ${JSON.stringify(label)} is not connected${p.connectError ? ` (refused: ${String(p.connectError)})` : ''}`);
    return p.descriptor.routingId;
  }

  /** Fan a query out; a rejection is kept in lastError. */
  async queryAll(query: ContextQuery): Promise<FanOutResult | undefined> {
    const host = await this.host();
    this.lastFanOut = undefined;
    this.lastError = undefined;
    this.lastQuery = query;
    try {
      this.lastFanOut = await host.queryAll(query);
    } catch (err) {
      if (isScenarioVerdict(err)) throw err;
      this.lastError = err;
    }
    return this.lastFanOut;
  }

  /** Every line the scripted provider received, parsed (unparseable lines kept as {raw}). */
  received(label: string): Array<Record<string, unknown>> {
    return readNdjsonFile(this.provider(label).recordPath);
  }

  async dispose(): Promise<void> {
    try {
      await this.#host?.close();
      for (const p of this.providers.values()) for (const c of p.commands.splice(0)) c.release();
      for (const cleanup of this.cleanups.splice(0).reverse()) await cleanup();
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }
}
