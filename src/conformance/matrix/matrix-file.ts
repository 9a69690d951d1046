/**
 * Reading a matrix file (docs/matrix.md "The matrix file"): YAML or JSON, checked against
 * schema/matrix/matrix-file.schema.json, then resolved — one way to reach each implementation, names unique,
 * relative paths made absolute against the file's directory, ${PACKAGE} filled in. Anything wrong is one
 * MatrixFileError naming the file, the entry and what is wrong (a usage error, exit 2).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { findPackageRoot } from '../../util/package-root.js';
import { ConfigError } from '../provider-suite/config.js';
import type { Implementation, MatrixFile, Reach } from './types.js';

export class MatrixFileError extends ConfigError {
  constructor(message: string) {
    super(message);
    this.name = 'MatrixFileError';
  }
}

export const DEFAULT_RUN_TIMEOUT_MS = 600_000;
export const DEFAULT_START_TIMEOUT_MS = 30_000;

interface RawEntry {
  name: string;
  side: 'provider' | 'host';
  stdio?: string | string[];
  url?: string;
  start?: string | string[];
  cmd?: string;
  adapter?: string;
  bundled?: true;
  misbehave?: string;
  language?: string;
  homepage?: string;
  version?: string;
  cwd?: string;
  baseline?: string;
  tags?: string;
  file_roots?: string[];
  retired_ids?: string[];
  spawn_ahead?: number;
  timeout_ms?: number;
  run_timeout_ms?: number;
  start_timeout_ms?: number;
}

interface RawFile {
  defaults?: { timeout_ms?: number; run_timeout_ms?: number; start_timeout_ms?: number; spawn_ahead?: number };
  implementations: RawEntry[];
}

let validator: (((doc: unknown) => boolean) & { errors?: Array<{ instancePath: string; message?: string; params?: Record<string, unknown> }> | null }) | undefined;

function validate(doc: unknown): string | undefined {
  if (validator === undefined) {
    const schema = JSON.parse(readFileSync(join(findPackageRoot(), 'schema', 'matrix', 'matrix-file.schema.json'), 'utf8')) as object;
    validator = new Ajv2020({ allErrors: false, strict: false }).compile(schema);
  }
  if (validator(doc)) return undefined;
  const e = validator.errors?.[0];
  if (!e) return 'does not match schema/matrix/matrix-file.schema.json';
  const where = e.instancePath === '' ? 'the document' : e.instancePath.replace(/^\/implementations\/(\d+)/, (_m, i: string) => `implementation ${Number(i) + 1}`);
  const extra =
    e.params && 'additionalProperty' in e.params
      ? ` (${String(e.params.additionalProperty)})`
      : e.params && 'allowedValues' in e.params
        ? ` (${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')})`
        : '';
  return `${where}: ${e.message ?? 'is not valid'}${extra}`;
}

/** A string command is split on runs of spaces (no quoting); an array is taken as is. */
export function commandWords(c: string | string[]): string[] {
  return Array.isArray(c) ? [...c] : c.trim().split(/\s+/);
}

/** A column's directory name: the name in lower case, runs of anything but [a-z0-9] as one `-`. */
export function slugOf(name: string): string {
  const s = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return s === '' ? 'implementation' : s.slice(0, 60);
}

function fill(text: string, pkg: string): string {
  return text.replaceAll('${PACKAGE}', pkg);
}

export function readMatrixFile(path: string): MatrixFile {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw new MatrixFileError(`cannot read the matrix file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const text = bytes.toString('utf8');
  let doc: unknown;
  try {
    doc = /\.json$/i.test(path) ? JSON.parse(text) : (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text);
  } catch (err) {
    throw new MatrixFileError(`${path} is not valid ${/\.json$/i.test(path) ? 'JSON' : 'YAML'}: ${(err as Error).message.split('\n')[0]}`);
  }
  const problem = validate(doc);
  if (problem !== undefined) throw new MatrixFileError(`${path}: ${problem}`);
  const raw = doc as RawFile;
  const base = dirname(resolve(path));
  const pkg = findPackageRoot();
  const names = new Set<string>();
  const slugs = new Map<string, number>();
  const implementations = raw.implementations.map((e, i): Implementation => {
    const where = `${path}: implementation ${i + 1} (${JSON.stringify(e.name)})`;
    if (names.has(e.name)) throw new MatrixFileError(`${where}: the name is used twice (names identify implementations across runs)`);
    names.add(e.name);
    const ways = (['stdio', 'url', 'cmd', 'adapter', 'bundled'] as const).filter((k) => e[k] !== undefined);
    if (ways.length !== 1) throw new MatrixFileError(`${where}: give exactly one of stdio, url, cmd, adapter, bundled (got ${ways.length === 0 ? 'none' : ways.join(', ')})`);
    const way = ways[0]!;
    if (e.side === 'provider' && (way === 'cmd' || way === 'adapter')) throw new MatrixFileError(`${where}: ${way} reaches a host; a provider takes stdio, url or bundled`);
    if (e.side === 'host' && (way === 'stdio' || way === 'url')) throw new MatrixFileError(`${where}: ${way} reaches a provider; a host takes cmd, adapter or bundled`);
    if (e.start !== undefined && way !== 'url') throw new MatrixFileError(`${where}: start goes with url`);
    if (e.misbehave !== undefined && way !== 'bundled') throw new MatrixFileError(`${where}: misbehave goes with bundled`);
    if (e.side === 'host' && (e.file_roots !== undefined || e.retired_ids !== undefined || e.spawn_ahead !== undefined)) {
      throw new MatrixFileError(`${where}: file_roots, retired_ids and spawn_ahead are provider options`);
    }
    const at = (p: string) => (isAbsolute(fill(p, pkg)) ? fill(p, pkg) : resolve(base, fill(p, pkg)));
    const words = (c: string | string[]) => commandWords(c).map((w) => fill(w, pkg));
    const reach: Reach =
      way === 'stdio'
        ? { kind: 'stdio', command: words(e.stdio!) }
        : way === 'url'
          ? { kind: 'url', url: fill(e.url!, pkg), ...(e.start !== undefined ? { start: words(e.start) } : {}) }
          : way === 'cmd'
            ? { kind: 'host-cmd', cmd: fill(e.cmd!, pkg) }
            : way === 'adapter'
              ? { kind: 'adapter', adapter: at(e.adapter!) }
              : { kind: 'bundled', ...(e.misbehave !== undefined ? { misbehave: e.misbehave } : {}) };
    if (reach.kind === 'url' && reach.url.includes('${PORT}') !== (reach.start?.some((w) => w.includes('${PORT}')) ?? false)) {
      throw new MatrixFileError(`${where}: \${PORT} must appear in both url and start (the port is chosen for the run)`);
    }
    const cwd = e.cwd !== undefined ? at(e.cwd) : base;
    if (!existsSync(cwd)) throw new MatrixFileError(`${where}: cwd ${cwd} does not exist`);
    let slug = slugOf(e.name);
    const n = slugs.get(slug) ?? 0;
    slugs.set(slug, n + 1);
    if (n > 0) slug = `${slug}-${n + 1}`;
    const d = raw.defaults ?? {};
    const spawnAhead = e.spawn_ahead ?? (e.side === 'provider' ? d.spawn_ahead : undefined);
    const timeoutMs = e.timeout_ms ?? d.timeout_ms;
    return {
      position: i,
      name: e.name,
      slug,
      side: e.side,
      reach,
      ...(e.language !== undefined ? { language: e.language } : {}),
      ...(e.homepage !== undefined ? { homepage: e.homepage } : {}),
      ...(e.version !== undefined ? { version: e.version } : {}),
      cwd,
      ...(e.baseline !== undefined ? { baseline: at(e.baseline) } : {}),
      ...(e.tags !== undefined ? { tags: e.tags } : {}),
      ...(e.file_roots !== undefined ? { fileRoots: e.file_roots.map(at) } : {}),
      ...(e.retired_ids !== undefined ? { retiredIds: e.retired_ids } : {}),
      ...(spawnAhead !== undefined ? { spawnAhead } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      runTimeoutMs: e.run_timeout_ms ?? d.run_timeout_ms ?? DEFAULT_RUN_TIMEOUT_MS,
      startTimeoutMs: e.start_timeout_ms ?? d.start_timeout_ms ?? DEFAULT_START_TIMEOUT_MS,
    };
  });
  return { path: resolve(path), digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`, implementations };
}

/** `--shard i/n`: the entries whose position is i-1 modulo n (a deterministic, even split). */
export function parseShard(text: string): { index: number; count: number } {
  const m = /^([0-9]+)\/([0-9]+)$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) throw new ConfigError(`--shard expects i/n with 1 ≤ i ≤ n (e.g. 1/2), got ${JSON.stringify(text)}`);
  return { index, count };
}

export function shardOf<T extends { position: number }>(items: readonly T[], shard: { index: number; count: number } | undefined): T[] {
  return shard === undefined ? [...items] : items.filter((x) => x.position % shard.count === shard.index - 1);
}
