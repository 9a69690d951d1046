import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * The directory holding this package's package.json, found by walking up from this module.
 * Works from src/ (tsx) and from dist/src/ (compiled) alike, so fixtures and generated JSON are
 * always read from the package, never from dist/.
 */
export function findPackageRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  if (cached !== undefined && from === dirname(fileURLToPath(import.meta.url))) return cached;
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'schema'))) {
      cached = dir;
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cgp-conformance: package root not found above ${from}`);
    dir = parent;
  }
}
