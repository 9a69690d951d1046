// Completes `tsc -p tsconfig.build.json` (npm run build / prepare): copies the plain-JS files tsc does not
// emit into dist/, and makes the bin executable. Plain Node (no tsx): it runs wherever the package builds.
import { chmodSync, copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const copies = ['src/conformance/host/scripted-provider.mjs'];
for (const file of copies) {
  const to = join(root, 'dist', file);
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(join(root, file), to);
}
chmodSync(join(root, 'dist', 'src', 'cli', 'bin.js'), 0o755);
