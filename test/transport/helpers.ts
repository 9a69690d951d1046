// Shared helpers for the transport tests. Everything here talks to loopback or to local child processes only.
import { readFileSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const PEER = fileURLToPath(new URL('../fixtures/transport/peer.mjs', import.meta.url));
export const NODE = process.execPath;

/**
 * Whether a pid still names a live process. A zombie counts as dead: it has terminated and only awaits
 * reaping, which is its (new) parent's job — in some sandboxes PID 1 never reaps orphans, so a killed
 * grandchild stays a zombie there forever even though nothing of it runs.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw err;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return true; // no /proc: trust kill(0)
  }
}

export async function waitUntil(cond: () => boolean, ms: number, stepMs = 20): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  return cond();
}

/** Measure how long a promise takes to settle, capturing its rejection. */
export async function timed<T>(p: Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const t0 = Date.now();
  try {
    const value = await p;
    return { ms: Date.now() - t0, value };
  } catch (error) {
    return { ms: Date.now() - t0, error };
  }
}

/**
 * An injectable DNS lookup that records every name asked and resolves all of them to 127.0.0.1 — the only
 * way a test reaches a "non-loopback" name (docs/interpretations.md §11). Handles both callback shapes Node uses.
 */
export function recordingLookup(): { lookup: LookupFunction; calls: string[] } {
  const calls: string[] = [];
  const lookup = ((hostname: string, options: { all?: boolean } | undefined, callback: (...args: unknown[]) => void) => {
    calls.push(hostname);
    if (options?.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
  }) as unknown as LookupFunction;
  return { lookup, calls };
}
