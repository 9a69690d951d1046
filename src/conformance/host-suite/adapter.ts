/**
 * The host under test, as the host-facing suite drives it.
 *
 * A host is certified by what it does at its two edges: what it sends to providers (observed by the
 * scripted providers the suite puts in front of it, over real pipes and sockets) and what it hands to
 * its caller (the composed prompt with its audit, the usage report, the attribution record, its errors
 * and its log). `HostUnderTest` is that surface. The bundled reference host implements it directly
 * (createBundledHost); another host is certified by a module exporting `createHost(options)` that
 * adapts it to this interface (CGP_HOST=<module path>) — the result shapes are this package's types.
 *
 * A misbehaving variant of the bundled host (the red team) is the same host with one switch flipped:
 * ./variants/manifest.ts names the switch and the ids it breaks.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildAttribution } from '../../host/attribution.js';
import { composeForPrompt } from '../../host/compose/index.js';
import { Host } from '../../host/host.js';
import { Credential } from '../../transport/credential.js';
import type { LogEntry } from '../../host/http-security.js';
import { HOST_CAPABILITIES } from './capabilities.js';
import { hostMisbehaviour, type HostMisbehaviour } from './variants/manifest.js';
import { buildUsageReport } from '../../host/usage.js';
import { verifyHeld } from '../../host/verify-reuse.js';
import { frameIdKey } from '../../protocol/identity.js';
import type { HostFactory, HostUnderTest, HostUnderTestOptions } from '../../host/under-test.js';

export type { Awaitable, ConnectHttpOptions, ConnectStdioOptions, HostFactory, HostUnderTest, HostUnderTestOptions } from '../../host/under-test.js';

/** The bundled reference host (optionally one of its misbehaving variants). */
export function createBundledHost(options: HostUnderTestOptions): HostUnderTest {
  const mode: HostMisbehaviour | undefined = options.misbehave === undefined ? undefined : hostMisbehaviour(options.misbehave);
  const logs: LogEntry[] = [];
  const host = new Host({
    ledgerPath: options.ledgerPath,
    handshakeTimeoutMs: options.handshakeTimeoutMs,
    requestTimeoutMs: options.requestTimeoutMs,
    shutdownGraceMs: 2_000,
    ...(options.embeddingFingerprint !== undefined ? { embeddingFingerprint: options.embeddingFingerprint } : {}),
    log: (entry) => logs.push(entry),
    ...(mode?.policies ? { policies: mode.policies } : {}),
  });
  const honest: HostUnderTest = {
    name: mode ? `bundled host (misbehaving: ${mode.mode})` : 'bundled host',
    capabilities: HOST_CAPABILITIES,
    connectStdio: (command, args, opts = {}) => host.connectStdio(command, args, { ...opts, forwardStderr: false }),
    connectHttp: (url, { credential, ...opts } = {}) => host.connectHttp(url, { ...opts, ...(credential !== undefined ? { credential: new Credential(credential) } : {}) }),
    grantConsent: async (routingId, grant) => {
      await host.grantConsent(routingId, { grantor: { kind: 'human', id: grant.grantor }, ...(grant.scopes ? { scopes: grant.scopes } : {}) });
    },
    revokeConsent: async (routingId, revoke) => {
      await host.revokeConsent(routingId, { grantor: { kind: 'human', id: revoke.grantor }, ...(revoke.scopes ? { scopes: revoke.scopes } : {}) });
    },
    // the contract names a failure's, audit's and skip's provider as `provider` (here: the routing id)
    queryAll: async (query) => {
      const r = await host.queryAll(query);
      return {
        ...r,
        failures: r.failures.map((f) => ({ ...f, provider: f.routingId })),
        audits: r.audits.map((a) => ({ ...a, provider: a.routingId })),
        skipped: r.skipped.map((s) => ({ ...s, provider: s.routingId })),
      };
    },
    verify: (routingId, held) => verifyHeld(held, (request, id) => host.sendVerify(routingId, request, id), { provider: host.connection(routingId).descriptor }),
    // F13: the inclusion proof kept for a frame, on its block (the contract's member), beside the frame record
    compose: (answers, opts) => {
      const composed = composeForPrompt(answers, opts);
      const proofs = new Map(composed.frames.map((f) => [frameIdKey(f.frameId), f.evidence?.inclusionProof]));
      return { ...composed, blocks: composed.blocks.map((b) => (proofs.get(frameIdKey(b.frameId)) !== undefined ? { ...b, inclusionProof: proofs.get(frameIdKey(b.frameId)) } : b)) };
    },
    // the contract's flat `frames` beside the per-provider breakdown (docs/host-control-protocol.md)
    usage: (query, fanOut) => {
      const report = buildUsageReport(fanOut.answers, undefined, typeof query.max_tokens === 'number' ? { budgetRequested: query.max_tokens } : {});
      return { ...report, frames: report.providers.flatMap((p) => p.served_frames) };
    },
    attribute: (composed, usage, modelOutput) => buildAttribution(composed, usage, modelOutput),
    logText: () => logs.map((e) => `${e.level} ${e.routingId ?? '-'} ${e.message}`).join('\n'),
    close: async () => {
      await host.close();
    },
  };
  return mode?.wrap ? mode.wrap(honest) : honest;
}

/**
 * The host the suite certifies: CGP_HOST=<module> (exporting `createHost`), else the bundled host
 * (CGP_HOST_MISBEHAVE=<mode> selects a misbehaving variant of it).
 */
export async function loadHostFactory(modulePath: string | undefined): Promise<{ factory: HostFactory; description: string }> {
  if (modulePath === undefined || modulePath === '') return { factory: createBundledHost, description: 'the bundled reference host' };
  const file = isAbsolute(modulePath) ? modulePath : resolve(process.cwd(), modulePath);
  if (!existsSync(file)) throw new AdapterError(`host adapter ${file} does not exist`);
  let mod: { createHost?: unknown; default?: { createHost?: unknown } };
  try {
    mod = (await import(pathToFileURL(file).href)) as typeof mod;
  } catch (err) {
    throw new AdapterError(`host adapter ${describeImportFailure(file, err)}`);
  }
  const factory = mod.createHost ?? mod.default?.createHost;
  if (typeof factory !== 'function') throw new AdapterError(`host adapter ${file} exports no createHost(options) function`);
  return { factory: factory as HostFactory, description: `host adapter ${file}` };
}

/** The adapter module could not be loaded: a configuration error of the run (exit 2), one line. */
export class AdapterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdapterError';
  }
}

/**
 * Why `import(file)` failed, in one line. A syntax error names its file and line: V8 does not put them in
 * an ESM SyntaxError's message, so `node --check` is asked (it prints `<file>:<line>` first).
 */
function describeImportFailure(file: string, err: unknown): string {
  const e = err as Error & { code?: string };
  if (e instanceof SyntaxError) {
    const check = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8', timeout: 10_000 });
    const where = /^(.+:\d+)$/m.exec(check.stderr ?? '')?.[1];
    return where !== undefined ? `${where}: SyntaxError: ${e.message}` : `${file} (or a module it imports): SyntaxError: ${e.message}`;
  }
  const first = (e?.message ?? String(err)).split('\n')[0];
  return `${file} failed to load: ${e?.code ? `${e.code}: ` : ''}${first}`;
}
