/**
 * The host suite's per-run configuration: which host (CGP_HOST module, else the bundled host; the red
 * team's CGP_HOST_MISBEHAVE mode) and the bounds it is held to. Resolved once per run from cucumber's
 * world parameters (run-suite passes them) or, for a plain `cucumber-js` run, from the environment.
 */
import { loadHostFactory } from './adapter.js';
import { controlledHostFactory } from './control/control-client.js';
import type { HostSuiteConfig } from './scenario.js';
import { ConfigError } from '../provider-suite/config.js';

export interface HostRunParameters {
  /** Module path of a host adapter exporting createHost (default: the bundled host). */
  hostModule?: string;
  /** Or: a host in another process speaking the host control protocol (docs/host-control-protocol.md). */
  hostCommand?: string;
  /** Bundled host only: misbehaviour mode. */
  misbehave?: string;
  handshakeTimeoutMs?: number;
  requestTimeoutMs?: number;
}

let cached: { key: string; config: Promise<HostSuiteConfig> } | undefined;

export function hostParametersFromEnv(env: NodeJS.ProcessEnv = process.env): HostRunParameters {
  return {
    ...(env.CGP_HOST ? { hostModule: env.CGP_HOST } : {}),
    ...(env.CGP_HOST_CMD ? { hostCommand: env.CGP_HOST_CMD } : {}),
    ...(env.CGP_HOST_MISBEHAVE ? { misbehave: env.CGP_HOST_MISBEHAVE } : {}),
  };
}

export function hostSuiteConfig(parameters: { host?: HostRunParameters } = {}): Promise<HostSuiteConfig> {
  const p: HostRunParameters = parameters.host ?? hostParametersFromEnv();
  const key = JSON.stringify(p);
  if (cached?.key === key) return cached.config;
  if (p.hostModule !== undefined && p.hostCommand !== undefined) {
    return Promise.reject(new Error('give one host under test: CGP_HOST (an adapter module) or CGP_HOST_CMD (a controlled process), not both'));
  }
  const loaded =
    p.hostCommand !== undefined ? Promise.resolve({ factory: controlledHostFactory(p.hostCommand), description: `controlled host process: ${p.hostCommand}` }) : loadHostFactory(p.hostModule);
  const config = loaded.then(({ factory, description }) => ({
    factory,
    description,
    ...(p.misbehave !== undefined ? { misbehave: p.misbehave } : {}),
    handshakeTimeoutMs: p.handshakeTimeoutMs ?? 10_000,
    requestTimeoutMs: p.requestTimeoutMs ?? 10_000,
  }));
  cached = { key, config };
  return config;
}

/**
 * Before any scenario runs: load the adapter, or start the host process and `init` it, then close it. A
 * host that cannot be loaded or started is a configuration error of the run (one line, exit 2), not 62
 * failed scenarios.
 */
export async function preflightHost(p: HostRunParameters): Promise<void> {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  let config: HostSuiteConfig;
  try {
    config = await hostSuiteConfig({ host: p });
  } catch (err) {
    cached = undefined;
    throw new ConfigError((err as Error).message);
  }
  if (p.hostCommand === undefined) return; // an adapter module is proven by loading it; creating hosts is the scenarios' job
  const dir = mkdtempSync(join(tmpdir(), 'cgp-host-preflight-'));
  try {
    const host = await config.factory({
      ledgerPath: join(dir, 'consent.ndjson'),
      handshakeTimeoutMs: config.handshakeTimeoutMs,
      requestTimeoutMs: config.requestTimeoutMs,
    });
    await host.close();
  } catch (err) {
    throw new ConfigError(
      `the host process ${JSON.stringify(p.hostCommand)} could not be started and initialised: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`.split('\n')[0]!,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
