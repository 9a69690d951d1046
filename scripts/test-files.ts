// The test files of a tier, one per line, for `node --test` (package.json's test scripts):
//   all    every test/**/*.test.ts (`npm test`)
//   quick  the pure and in-process ones (`npm run test:quick`): a file is left out when its text shows it
//          starts processes or needs more than the sources — node:child_process, a spawn, a CLI process
//          (runProcess), a controlled host, a suite run (runSuite, runCertify, the scripted runners: each
//          starts providers), the built dist/, npm, or a browser.
// Decided from each file's own text, so a file added or moved anywhere under test/ is in the right tier.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { findPackageRoot } from '../src/util/package-root.js';

const SLOW = [
  /node:child_process/,
  /\.spawn\(/,
  /\brunProcess\b/,
  /\bcontrolledHostFactory\b/,
  /\brunSuite\b/,
  /\brunCertify\b/,
  /\bscripted[A-Z]\w*\(/,
  /['"/]dist['"/]/,
  /\bnpm\b/,
  /playwright/,
  /fixtures\/browser/,
];

const tier = process.argv[2] ?? 'all';
if (tier !== 'all' && tier !== 'quick') {
  process.stderr.write(`scripts/test-files.ts: unknown tier ${JSON.stringify(tier)} (all or quick)\n`);
  process.exit(2);
}
const root = findPackageRoot();
const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : []))
    .sort();
const files = walk(join(root, 'test')).filter((f) => tier === 'all' || !SLOW.some((re) => re.test(readFileSync(f, 'utf8'))));
process.stdout.write(files.map((f) => relative(process.cwd(), f)).join('\n') + '\n');
