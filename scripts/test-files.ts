// The test files of a tier, one per line, for `node --test` (package.json's test scripts):
//   all    every test/**/*.test.ts
//   shared the ones that may run beside others (`npm test` runs them concurrently)
//   alone  the ones that load the machine on purpose (busy loops: a verdict under load), run by `npm test`
//          after the others, one at a time: beside other test files they would make those wait on the CPU
//   quick  the pure and in-process ones (`npm run test:quick`): a file is left out when its text shows it
//          starts processes or needs more than the sources — node:child_process, a spawn, a CLI process
//          (runProcess), a controlled host, a suite run (runSuite, runCertify, the scripted and hostile runners: each
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
  /\b(?:suite|host)VsHostile\b/,
  /['"/]dist['"/]/,
  /\bnpm\b/,
  /playwright/,
  /fixtures\/browser/,
];

/** A file that keeps the machine busy on purpose. */
const ALONE = [/for \(;;\) \{\}/];

const TIERS = ['all', 'shared', 'alone', 'quick'];
const tier = process.argv[2] ?? 'all';
if (!TIERS.includes(tier)) {
  process.stderr.write(`scripts/test-files.ts: unknown tier ${JSON.stringify(tier)} (${TIERS.join(', ')})\n`);
  process.exit(2);
}
const matches = (file: string, patterns: RegExp[]): boolean => {
  const text = readFileSync(file, 'utf8');
  return patterns.some((re) => re.test(text));
};
const inTier = (file: string): boolean => {
  if (tier === 'all') return true;
  if (tier === 'alone') return matches(file, ALONE);
  if (tier === 'shared') return !matches(file, ALONE);
  return !matches(file, [...ALONE, ...SLOW]);
};
const root = findPackageRoot();
const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : []))
    .sort();
const files = walk(join(root, 'test')).filter(inTier);
process.stdout.write(files.map((f) => relative(process.cwd(), f)).join('\n') + '\n');
