/**
 * Writes vectors/attestation.json, the §6.5 known-answer vectors (see src/attest/vectors.ts).
 *   npm run vectors             regenerate the file
 *   npm run vectors -- --check  regenerate in memory; exit 1 naming the file when it is stale
 *   --out <path>                another target file (used by the tests)
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderAttestationVectors } from '../src/attest/vectors.js';

const outAt = process.argv.indexOf('--out');
const target = outAt >= 0 && process.argv[outAt + 1] ? resolve(process.argv[outAt + 1]!) : fileURLToPath(new URL('../vectors/attestation.json', import.meta.url));
const shown = relative(process.cwd(), target) || target;
const expected = renderAttestationVectors();

if (process.argv.includes('--check')) {
  let current: string | undefined;
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    current = undefined;
  }
  if (current !== expected) {
    process.stderr.write(`${shown} is ${current === undefined ? 'missing' : 'stale'}; regenerate with \`npm run vectors\`\n`);
    process.exit(1);
  }
  process.stdout.write(`${shown} is up to date\n`);
} else {
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, expected);
  process.stdout.write(`wrote ${shown}\n`);
}
