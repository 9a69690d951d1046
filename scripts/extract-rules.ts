// Regenerate the rule catalogue (generated/anchors.json, generated/rules.json) from SPEC.md.
//   npm run extract-rules             write the files
//   npm run extract-rules -- --check  regenerate in memory; exit 1 naming each stale file, 0 when clean
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractCatalogueWithDiagnostics } from '../src/catalogue/extract.js';
import { staleCatalogueFiles, writeCatalogueFiles } from '../src/catalogue/files.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

function main(argv: string[]): number {
  const unknown = argv.filter((a) => a !== '--check');
  if (unknown.length > 0) {
    process.stderr.write(`extract-rules: unknown argument(s): ${unknown.join(' ')}\nusage: extract-rules [--check]\n`);
    return 2;
  }
  const spec = readFileSync(join(repoRoot, 'SPEC.md'), 'utf8');
  const { diagnostics } = extractCatalogueWithDiagnostics(spec);
  for (const [name, ids] of Object.entries(diagnostics)) {
    if (ids.length > 0) {
      process.stderr.write(`extract-rules: warning: ${name}: ${ids.join(', ')} (review src/catalogue/mapping.ts)\n`);
    }
  }

  if (argv.includes('--check')) {
    const stale = staleCatalogueFiles(repoRoot);
    for (const rel of stale) process.stderr.write(`extract-rules: stale: ${rel} (regenerate with npm run extract-rules)\n`);
    if (stale.length > 0) return 1;
    process.stderr.write('extract-rules: catalogue is up to date\n');
    return 0;
  }
  const written = writeCatalogueFiles(repoRoot);
  for (const rel of written) process.stderr.write(`extract-rules: wrote ${rel}\n`);
  if (written.length === 0) process.stderr.write('extract-rules: catalogue already up to date\n');
  return 0;
}

process.exitCode = main(process.argv.slice(2));
