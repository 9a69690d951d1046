// Citations point only at what the repository holds: SPEC.md §, docs/interpretations.md § and
// docs/architecture.md. This finds references to documents a user or contributor does not have — the founding
// design notes, tracker numbers of this project, notes on the public reference, seed pull requests — in every
// tracked text file of the folders below (test/repo/citations.test.ts runs it, so they stay out).
//
//   npx tsx scripts/check-citations.ts          list offending lines (file:line: text); exit 1 when there is one
//   npx tsx scripts/check-citations.ts --fix    first rewrite the mechanical forms (the table below), then list
//                                               what is left for a person to reword
//
// A line holding a URL is not flagged for a tracker number (a link to a public tracker is fine). The patterns
// are assembled from pieces so that this file does not match itself.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findPackageRoot } from '../src/util/package-root.js';

/** Where citations are checked (git pathspecs). generated/ follows schema/ through `npm run generate`. */
export const CHECKED = ['src', 'steps', 'features', 'scripts', 'test', 'bench', 'docs', 'schema', 'examples', 'README.md', 'cucumber.mjs'];

const FOUNDING_NOTES_WORD = ['DES', 'IGN'].join('');
const TRACKER = ['[Ii]s', 'sue #?[0-9]+'].join('');
const NOTES = ['(?<![\\w-])(?:shared/)?no', 'tes/[a-z-]+(?:\\.md)?'].join('');
const FACTS = ['host-', 'facts'].join('');
const SEED_PR = ['\\bPR ', '#[0-9]+'].join('');

interface Pattern {
  name: string;
  re: RegExp;
  /** Not flagged on a line that holds a URL. */
  urlExempt?: boolean;
}

export const PATTERNS: readonly Pattern[] = [
  { name: 'founding design notes', re: new RegExp(FOUNDING_NOTES_WORD) },
  { name: 'tracker number', re: new RegExp(`\\b${TRACKER}`), urlExempt: true },
  { name: 'notes on the reference', re: new RegExp(`${NOTES}|${FACTS}`) },
  { name: 'seed pull request', re: new RegExp(SEED_PR) },
];

export interface Citation {
  file: string;
  line: number;
  text: string;
  pattern: string;
}

/** Sections of the founding notes → where the repository records the same design. */
const SECTION_HOME: Readonly<Record<string, string>> = {
  'Misbehaviour manifest': 'docs/architecture.md "Misbehaviour manifest"',
  'Red team economics': 'docs/architecture.md "Red team economics"',
  'Failure messages': 'docs/architecture.md "Failure messages"',
  'Coverage report': 'docs/architecture.md "Coverage report"',
  'Rule catalogue': 'docs/architecture.md "Rule catalogue"',
  'Two schema profiles from one source': 'docs/architecture.md "Schema profiles"',
  Tags: 'docs/architecture.md "Tags and capabilities"',
  Targets: 'docs/architecture.md "Targets"',
  CLI: 'docs/architecture.md "Exit codes"',
};

/**
 * The mechanical rewrites: a numbered reading of the founding notes is the same-numbered section of
 * docs/interpretations.md (§1–§12 were copied there one for one); a named section maps through SECTION_HOME.
 * Everything else (a tracker number in prose, a free-standing mention) needs a person: it is only listed.
 */
export function fixCitations(text: string): string {
  const D = FOUNDING_NOTES_WORD;
  return text
    .replace(new RegExp(`${D} decisions? ([0-9]+)\\b`, 'g'), 'docs/interpretations.md §$1')
    .replace(new RegExp(`${D} #?([0-9]+)\\b`, 'g'), 'docs/interpretations.md §$1')
    .replace(new RegExp(`${D} "([^"]+)"`, 'g'), (all, name: string) => SECTION_HOME[name] ?? all);
}

function trackedFiles(root: string): string[] {
  return execFileSync('git', ['ls-files', '-z', '--', ...CHECKED], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '' && !/\.(png|svg|ico|gz|lock)$/.test(f));
}

export function findCitations(root: string = findPackageRoot(), opts: { fix?: boolean } = {}): Citation[] {
  const found: Citation[] = [];
  for (const file of trackedFiles(root)) {
    const path = join(root, file);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue; // deleted in the working tree
    }
    if (opts.fix) {
      const fixed = fixCitations(text);
      if (fixed !== text) writeFileSync(path, fixed);
      text = fixed;
    }
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      for (const p of PATTERNS) {
        if (p.urlExempt && line.includes('://')) continue;
        if (p.re.test(line)) found.push({ file, line: i + 1, text: line.trim(), pattern: p.name });
      }
    });
  }
  return found;
}

function main(argv: string[]): number {
  const unknown = argv.filter((a) => a !== '--fix');
  if (unknown.length > 0) {
    process.stderr.write(`check-citations: unknown argument(s): ${unknown.join(' ')}\nusage: check-citations [--fix]\n`);
    return 2;
  }
  const found = findCitations(findPackageRoot(), { fix: argv.includes('--fix') });
  for (const c of found) process.stdout.write(`${c.file}:${c.line}: [${c.pattern}] ${c.text}\n`);
  process.stderr.write(`check-citations: ${found.length} reference(s) to documents the repository does not hold\n`);
  return found.length === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main(process.argv.slice(2));
