// C8 token scan: run the host suite's HTTP scenarios (C4, C7, C8, S4.2-bearer-credential — every
// one that hands the host a bearer credential, each minted as the recognisable `cgp-c8-<24 hex>`) through the CLI,
// then scan EVERY byte the tool wrote — stdout, stderr, and every file in its reports directory (messages with
// their attachments, junit) — for a token. Required: 0 hits. `scanForTokens` is exported so a test can show that
// a planted token is found (a scan that cannot fail is no check).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findPackageRoot } from '../../src/util/package-root.js';

const ROOT = findPackageRoot();
/** The shape of every credential the host suite's HTTP steps mint (steps/host/http-security.steps.ts). */
export const TOKEN_RE = /cgp-c8-[0-9a-f]{24}/g;
export const C8_TAGS = '@C4 or @C7 or @C8 or @S4.2-bearer-credential';

export interface ScanResult {
  files: number;
  bytes: number;
  hits: { where: string; token: string }[];
}

/** Scan named byte sources and every file under `dirs` (recursively). */
export function scanForTokens(sources: Record<string, string | Buffer>, dirs: readonly string[]): ScanResult {
  const result: ScanResult = { files: 0, bytes: 0, hits: [] };
  const scan = (where: string, data: string | Buffer) => {
    result.files++;
    const text = typeof data === 'string' ? data : data.toString('latin1');
    result.bytes += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    for (const m of text.matchAll(TOKEN_RE)) result.hits.push({ where, token: m[0] });
  };
  for (const [where, data] of Object.entries(sources)) scan(where, data);
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else scan(p, readFileSync(p));
    }
  };
  for (const d of dirs) walk(d);
  return result;
}

export interface C8RunResult extends ScanResult {
  exitCode: number | null;
  scenarios: number;
  passed: number;
}

/** Run the HTTP scenarios of the host suite with credentials, `rounds` times, and scan what the tool wrote. */
export async function c8Scan(rounds = 1): Promise<C8RunResult> {
  const out = mkdtempSync(join(tmpdir(), 'cgp-c8-scan-'));
  const total: C8RunResult = { files: 0, bytes: 0, hits: [], exitCode: 0, scenarios: 0, passed: 0 };
  for (let i = 0; i < rounds; i++) {
    const dir = join(out, `round-${i}`);
    const r = await new Promise<{ code: number | null; stdout: Buffer; stderr: Buffer }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'bin.ts'), 'host', '--json', '--tags', C8_TAGS, '--reports-dir', dir, '--report-name', 'c8'], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const so: Buffer[] = [];
      const se: Buffer[] = [];
      child.stdout.on('data', (c: Buffer) => so.push(c));
      child.stderr.on('data', (c: Buffer) => se.push(c));
      child.on('exit', (code) => resolve({ code, stdout: Buffer.concat(so), stderr: Buffer.concat(se) }));
    });
    const scan = scanForTokens({ [`round ${i} stdout`]: r.stdout, [`round ${i} stderr`]: r.stderr }, [dir]);
    total.files += scan.files;
    total.bytes += scan.bytes;
    total.hits.push(...scan.hits);
    if (r.code !== 0) total.exitCode = r.code;
    try {
      const json = JSON.parse(r.stdout.toString('utf8')) as { scenarios: { status: string }[] };
      total.scenarios += json.scenarios.length;
      total.passed += json.scenarios.filter((s) => s.status === 'passed').length;
    } catch {
      total.exitCode = total.exitCode || -1;
    }
  }
  return total;
}
