/**
 * One routine behind both entry points (src/provider/main.ts and `cgp-conformance provider`):
 * validate the options, then serve over stdio or HTTP until the provider stops.
 */
import { isMisbehaviourMode, MISBEHAVIOUR_MODES } from './misbehaviours.js';
import { createProvider } from './core.js';
import { runStdioProvider, startBundledHttpProvider } from './serve.js';

export class UsageError extends Error {}

export interface RunOptions {
  /** Serve HTTP on 127.0.0.1:<port> (0 = ephemeral) instead of stdio. */
  http?: string | number;
  misbehave?: string;
  /** Package root holding fixtures/provider/ (default: found from this module). */
  root?: string;
  /** Where to announce the HTTP URL (default stderr; stdout stays protocol-only). */
  log?: (line: string) => void;
}

export function parsePort(value: string | number): number {
  const port = typeof value === 'number' ? value : /^[0-9]+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new UsageError(`--http expects a port number 0-65535, got ${JSON.stringify(String(value))}`);
  }
  return port;
}

export function checkMode(mode: string | undefined): void {
  if (mode !== undefined && !isMisbehaviourMode(mode)) {
    throw new UsageError(`unknown misbehaviour mode "${mode}"; valid modes: ${MISBEHAVIOUR_MODES.join(', ')}`);
  }
}

/** Serve until the provider stops; resolves with the process exit code. */
export async function runProvider(opts: RunOptions): Promise<number> {
  checkMode(opts.misbehave);
  const port = opts.http === undefined ? undefined : parsePort(opts.http);
  // stdio is one session per process, so S3-handshake-first is enforced there; HTTP is stateless.
  const provider = createProvider({ misbehave: opts.misbehave, root: opts.root, requireHandshake: port === undefined });
  if (port === undefined) return runStdioProvider({}, provider);
  const running = await startBundledHttpProvider({ port }, provider);
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  log(`example-docs${opts.misbehave ? ` (misbehave: ${opts.misbehave})` : ''} listening on ${running.handle.url}`);
  return running.done;
}
