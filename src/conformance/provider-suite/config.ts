/**
 * Target selection for the provider-facing suite (docs/architecture.md "Targets"; timeouts: docs/interpretations.md §12).
 *
 *   CGP_PROVIDER="<command line>"   a stdio provider, spawned per connection
 *   CGP_PROVIDER_URL=<url>          an HTTP provider
 *   (neither)                       the bundled reference provider "example-docs"; CGP_MISBEHAVE=<mode>
 *                                   is passed to it as --misbehave (the red team uses that)
 *
 * Timeouts: CGP_HANDSHAKE_TIMEOUT_MS (10 s), CGP_REQUEST_TIMEOUT_MS (10 s), CGP_SHUTDOWN_GRACE_MS (2 s).
 * Fresh stdio connections started ahead of need: at most CGP_SPAWN_AHEAD starting at once (default: what
 * the machine can run at once, os.availableParallelism(), between 1 and 16); set, it also caps how many
 * are kept started ahead (else up to 16).
 * Files the harness may re-read for S6.2-digested-bytes: CGP_PROVIDER_FILE_ROOTS (path-delimiter separated),
 * plus, by default, a stdio provider's working directory (and the bundled provider's fixture folder); nothing
 * else ever is.
 * Frame ids a target is known to have retired (V3 probe): CGP_PROVIDER_RETIRED_IDS (comma separated).
 * A bearer token for an HTTP target: CGP_PROVIDER_TOKEN — read from the environment where it is used, never
 * copied into the config (which is serialised into the run's world parameters).
 *
 * The resolved config is plain JSON: it travels to the steps as a cucumber world parameter.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { delimiter, join, resolve as resolvePath } from 'node:path';
import { FIXTURE_DIR, RETIRED_FRAME_IDS } from '../../provider/catalogue.js';
import { isMisbehaviourMode, MISBEHAVIOUR_MODES } from '../../provider/misbehaviours.js';
import { DEFAULT_HANDSHAKE_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_SHUTDOWN_GRACE_MS } from '../../transport/stdio-client.js';
import { checkProviderUrl } from '../../transport/loopback.js';
import { findPackageRoot } from '../../util/package-root.js';

export interface SuiteTimeouts {
  handshakeMs: number;
  requestMs: number;
  shutdownGraceMs: number;
}

export type TargetSpec =
  | {
      kind: 'stdio';
      command: string;
      args: string[];
      cwd?: string;
      /** How reports name the target. */
      label: string;
      /** The bundled reference provider (possibly misbehaving). */
      bundled: boolean;
      misbehave?: string;
    }
  | { kind: 'http'; url: string; label: string; bundled: false }
  /**
   * The bundled reference provider loaded into the suite's own process (no transport binding): what
   * §6.4.1 calls an in-process provider, the only kind that MAY serve `reference` frames.
   */
  | { kind: 'in-process'; label: string; bundled: true; misbehave?: string };

export interface SuiteConfig {
  target: TargetSpec;
  timeouts: SuiteTimeouts;
  /** Directories whose files the harness may read to re-hash file provenance (never anything else). */
  trustedRoots: string[];
  /** Frame ids the target is known to have retired: verify must never call them valid (V3). */
  retiredFrameIds: string[];
  /** Copy the target's stderr to ours. */
  forwardStderr: boolean;
  /**
   * At most this many fresh stdio connections are STARTING at once ahead of the scenarios that will take
   * them (CGP_SPAWN_AHEAD, default defaultSpawnAhead()): a provider's start-up is overlapped instead of
   * paid once per scenario (docs/interpretations.md §80).
   */
  spawnAhead: number;
  /**
   * At most this many started ahead and not yet taken, started or still starting: CGP_SPAWN_AHEAD when it
   * is set (a provider that cannot run more instances at once), else MAX_DEFAULT_SPAWN_AHEAD.
   */
  keepAhead: number;
}

/** Upper bound of the default CGP_SPAWN_AHEAD: more than the full provider suite needs (12 fresh connections). */
export const MAX_DEFAULT_SPAWN_AHEAD = 16;

/**
 * Default CGP_SPAWN_AHEAD: as many processes as the machine can run at once (os.availableParallelism(),
 * 1…16). Starting more than that at once on a busy runner only makes every one of them slower to start, and
 * the harness would then blame on the provider the contention it created (docs/interpretations.md §80).
 */
export function defaultSpawnAhead(parallelism: number = availableParallelism()): number {
  return Math.max(1, Math.min(MAX_DEFAULT_SPAWN_AHEAD, Math.floor(parallelism)));
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Split a command line the way a POSIX shell splits words: quotes and backslashes, no expansion. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) word += line[++i];
      else word += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new ConfigError(`unterminated ${quote} quote in command line ${JSON.stringify(line)}`);
  if (inWord) words.push(word);
  return words;
}

/**
 * How to start the bundled provider: the same way this module runs. Compiled code (the installed package,
 * `npm start`) spawns the compiled entry — never TypeScript through tsx, a devDependency users do not have;
 * under tsx (development, the tests) it spawns the TypeScript entry through tsx, so a test never runs a
 * stale dist/.
 */
export function bundledProviderCommand(root = findPackageRoot()): { command: string; args: string[]; compiled: boolean } {
  if (fileURLToPath(import.meta.url).endsWith('.js')) {
    // the provider bundle (scripts/build.ts, plain esbuild): a fresh provider process loads one module, not ~50
    const bundle = join(root, 'dist', 'bundle', 'provider.cjs');
    return { command: process.execPath, args: [existsSync(bundle) ? bundle : join(root, 'dist', 'src', 'provider', 'main.js')], compiled: true };
  }
  return { command: process.execPath, args: ['--import', 'tsx', join(root, 'src', 'provider', 'main.ts')], compiled: false };
}

function positiveInt(env: Record<string, string | undefined>, name: string, fallback: number, unit = 'milliseconds'): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[0-9]+$/.test(raw) || Number(raw) <= 0) throw new ConfigError(`${name} must be a positive integer (${unit}), got ${JSON.stringify(raw)}`);
  return Number(raw);
}

export interface ResolveOptions {
  /** Environment to read (default process.env). */
  env?: Record<string, string | undefined>;
  /** Explicit target (the CLI); overrides CGP_PROVIDER / CGP_PROVIDER_URL. */
  target?: { kind: 'stdio'; command: string; args: string[]; cwd?: string } | { kind: 'http'; url: string } | { kind: 'in-process' } | { kind: 'bundled' };
  /** Misbehaviour mode for the bundled provider; overrides CGP_MISBEHAVE. */
  misbehave?: string;
  /** Timeout overrides (ms). */
  timeouts?: Partial<SuiteTimeouts>;
  /** Overrides CGP_SPAWN_AHEAD. */
  spawnAhead?: number;
}

/** Resolve the suite configuration from options and the environment. Throws ConfigError on a usage problem. */
export function resolveSuiteConfig(opts: ResolveOptions = {}): SuiteConfig {
  const env = opts.env ?? process.env;
  const timeouts: SuiteTimeouts = {
    handshakeMs: opts.timeouts?.handshakeMs ?? positiveInt(env, 'CGP_HANDSHAKE_TIMEOUT_MS', DEFAULT_HANDSHAKE_TIMEOUT_MS),
    requestMs: opts.timeouts?.requestMs ?? positiveInt(env, 'CGP_REQUEST_TIMEOUT_MS', DEFAULT_REQUEST_TIMEOUT_MS),
    shutdownGraceMs: opts.timeouts?.shutdownGraceMs ?? positiveInt(env, 'CGP_SHUTDOWN_GRACE_MS', DEFAULT_SHUTDOWN_GRACE_MS),
  };
  const extraRoots = (env.CGP_PROVIDER_FILE_ROOTS ?? '').split(delimiter).filter((r) => r !== '');
  const retired = (env.CGP_PROVIDER_RETIRED_IDS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const forwardStderr = env.CGP_FORWARD_STDERR === '1';
  const spawnAhead = opts.spawnAhead ?? positiveInt(env, 'CGP_SPAWN_AHEAD', defaultSpawnAhead(), 'a count of connections');
  const keepAhead = opts.spawnAhead !== undefined || (env.CGP_SPAWN_AHEAD ?? '') !== '' ? spawnAhead : Math.max(spawnAhead, MAX_DEFAULT_SPAWN_AHEAD);
  const misbehave = opts.misbehave ?? (env.CGP_MISBEHAVE !== undefined && env.CGP_MISBEHAVE !== '' ? env.CGP_MISBEHAVE : undefined);

  let target: TargetSpec;
  const explicit = opts.target;
  const command = env.CGP_PROVIDER !== undefined && env.CGP_PROVIDER.trim() !== '' ? env.CGP_PROVIDER : undefined;
  const url = env.CGP_PROVIDER_URL !== undefined && env.CGP_PROVIDER_URL.trim() !== '' ? env.CGP_PROVIDER_URL.trim() : undefined;
  if (explicit?.kind === 'stdio') {
    if (explicit.command === '') throw new ConfigError('the stdio target needs a command');
    target = { kind: 'stdio', command: explicit.command, args: [...explicit.args], label: [explicit.command, ...explicit.args].join(' '), bundled: false };
    if (explicit.cwd !== undefined) target.cwd = explicit.cwd;
  } else if (explicit?.kind === 'http') {
    target = { kind: 'http', url: explicit.url, label: explicit.url, bundled: false };
  } else if (explicit?.kind === 'in-process') {
    if (misbehave !== undefined && !isMisbehaviourMode(misbehave)) {
      throw new ConfigError(`unknown misbehaviour mode ${JSON.stringify(misbehave)}; valid modes: ${MISBEHAVIOUR_MODES.join(', ')}`);
    }
    target = {
      kind: 'in-process',
      label: `bundled example-docs (in-process)${misbehave ? ` --misbehave ${misbehave}` : ''}`,
      bundled: true,
      ...(misbehave !== undefined ? { misbehave } : {}),
    };
  } else if (explicit?.kind !== 'bundled' && command !== undefined && url !== undefined) {
    throw new ConfigError('set CGP_PROVIDER (stdio) or CGP_PROVIDER_URL (HTTP), not both');
  } else if (explicit?.kind !== 'bundled' && command !== undefined) {
    const words = splitCommandLine(command);
    if (words.length === 0) throw new ConfigError('CGP_PROVIDER is empty');
    target = { kind: 'stdio', command: words[0]!, args: words.slice(1), label: command, bundled: false };
  } else if (explicit?.kind !== 'bundled' && url !== undefined) {
    target = { kind: 'http', url, label: url, bundled: false };
  } else {
    // the bundled reference provider (explicitly, or because the environment names no other)
    const root = findPackageRoot();
    const entry = bundledProviderCommand(root);
    const args = [...entry.args];
    if (misbehave !== undefined) {
      if (!isMisbehaviourMode(misbehave)) {
        throw new ConfigError(`unknown misbehaviour mode ${JSON.stringify(misbehave)}; valid modes: ${MISBEHAVIOUR_MODES.join(', ')}`);
      }
      args.push('--misbehave', misbehave);
    }
    target = {
      kind: 'stdio',
      command: entry.command,
      args,
      cwd: root,
      label: `bundled example-docs${misbehave ? ` --misbehave ${misbehave}` : ''}`,
      bundled: true,
      ...(misbehave !== undefined ? { misbehave } : {}),
    };
  }
  if (target.kind === 'http') {
    try {
      // C7 + URL grammar, before anything touches the network: a usage problem, not a target finding.
      checkProviderUrl(target.url);
    } catch (err) {
      throw new ConfigError((err as Error).message);
    }
  }
  if (misbehave !== undefined && !target.bundled) {
    throw new ConfigError('CGP_MISBEHAVE / --misbehave applies only to the bundled reference provider');
  }

  const trustedRoots = [...extraRoots];
  const retiredFrameIds = [...retired];
  // S6.2: a stdio provider's working directory is trusted by default (the public reference's checker re-reads
  // file provenance by default too): the files a local provider serves are usually under it. Reads stay
  // bounded and symlink-safe (probes/provenance.ts); a path outside every root is not applicable, naming
  // CGP_PROVIDER_FILE_ROOTS (docs/interpretations.md §81).
  if (target.bundled) {
    trustedRoots.push(join(findPackageRoot(), FIXTURE_DIR));
    retiredFrameIds.push(...RETIRED_FRAME_IDS);
  }
  if (target.kind === 'stdio') trustedRoots.push(resolvePath(target.cwd ?? process.cwd()));
  return { target, timeouts, trustedRoots, retiredFrameIds, forwardStderr, spawnAhead, keepAhead };
}
