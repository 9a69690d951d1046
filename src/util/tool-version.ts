import { readFileSync } from 'node:fs';
import { findPackageRoot } from './package-root.js';

/** The tool's own version, read from package.json (reports carry it). */
export function toolVersion(): string {
  const pkg = JSON.parse(readFileSync(`${findPackageRoot()}/package.json`, 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}
