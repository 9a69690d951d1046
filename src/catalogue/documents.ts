/**
 * The package's readable documents, as `explain`, the bug reports and coverage.html quote them:
 * SPEC.md (a section's heading and the passage around a requirement) and docs/interpretations.md (the
 * numbered readings, each naming what it interprets). Both files ship with the package and are read at
 * run time from the package root.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findPackageRoot } from '../util/package-root.js';
import type { CatalogueEntry } from './types.js';

export interface SpecSection {
  /** "7", "6.4.1". */
  number: string;
  title: string;
  /** 1-based line of the heading in SPEC.md. */
  line: number;
  /** The section's own text (heading to the next heading of any level), Markdown as written. */
  text: string;
}

export interface SpecPassage {
  section: SpecSection;
  /** 1-based first line of the passage. */
  line: number;
  /** The passage: a requirement table's header with the entry's row, or the paragraph holding the sentence. */
  text: string;
}

export interface Interpretation {
  number: number;
  title: string;
  /** The "Interprets:" line (ids and sections), '' when the section has none. */
  interprets: string;
  text: string;
}

function readPackageFile(relative: string, root = findPackageRoot()): string {
  const path = join(root, relative);
  if (!existsSync(path)) throw new Error(`${relative} is not in the installed package (${path}); it is needed at run time`);
  return readFileSync(path, 'utf8');
}

const cache = new Map<string, unknown>();
function cached<T>(key: string, make: () => T): T {
  if (!cache.has(key)) cache.set(key, make());
  return cache.get(key) as T;
}

/** Every numbered heading of SPEC.md with its own text. */
export function specSections(root?: string): SpecSection[] {
  return cached(`spec:${root ?? ''}`, () => {
    const lines = readPackageFile('SPEC.md', root).split('\n');
    const heads: Array<{ number: string; title: string; index: number }> = [];
    let fenced = false;
    lines.forEach((l, i) => {
      if (/^```/.test(l)) fenced = !fenced;
      const m = !fenced && /^#{2,6}\s+(\d+(?:\.\d+)*)\.?\s+(.*)$/.exec(l);
      if (m) heads.push({ number: m[1]!, title: m[2]!.trim(), index: i });
    });
    return heads.map((h, k) => {
      const end = k + 1 < heads.length ? heads[k + 1]!.index : lines.length;
      return { number: h.number, title: h.title, line: h.index + 1, text: lines.slice(h.index, end).join('\n').trimEnd() };
    });
  });
}

export function specSection(number: string, root?: string): SpecSection | undefined {
  return specSections(root).find((s) => s.number === number);
}

/** Markdown formatting off, whitespace collapsed, for matching a catalogue text against SPEC.md. */
function plain(text: string): string {
  return text
    .replace(/\*\*|`|_(?=\w)|(?<=\w)_/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** The passage of SPEC.md that states the entry: its table row (with the table header) or its paragraph. */
export function specPassage(entry: Pick<CatalogueEntry, 'id' | 'kind' | 'section' | 'text'>, root?: string): SpecPassage | undefined {
  const section = specSection(entry.section, root);
  if (!section) return undefined;
  const lines = section.text.split('\n');
  if (entry.kind === 'anchor') {
    const row = lines.findIndex((l) => l.startsWith('|') && l.includes(`**${entry.id}**`));
    if (row >= 0) {
      let start = row;
      while (start > 0 && lines[start - 1]!.startsWith('|')) start--;
      const header = lines.slice(start, Math.min(start + 2, row));
      return { section, line: section.line + start, text: [...header, lines[row]!].join('\n') };
    }
  }
  // Paragraphs (blank-line separated) of the section; the one whose plain text holds the sentence's start.
  // A sentence the catalogue files under a section but SPEC.md states elsewhere (S2-wire-shape, in the
  // preamble) is looked for in the whole document.
  const needle = plain(entry.text).slice(0, 60);
  const found = findParagraph(lines, needle);
  if (found) return { section, line: section.line + found.start, text: found.text };
  const all = readPackageFile('SPEC.md', root).split('\n');
  const anywhere = findParagraph(all, needle);
  return anywhere ? { section, line: anywhere.start + 1, text: anywhere.text } : undefined;
}

function findParagraph(lines: readonly string[], needle: string): { start: number; text: string } | undefined {
  let start = 0;
  for (let i = 0; i <= lines.length; i++) {
    if (i === lines.length || lines[i]!.trim() === '') {
      const para = lines.slice(start, i);
      if (para.length > 0 && plain(para.join(' ')).includes(needle)) return { start, text: para.join('\n') };
      start = i + 1;
    }
  }
  return undefined;
}

/** The numbered sections of docs/interpretations.md. */
export function interpretations(root?: string): Interpretation[] {
  return cached(`interp:${root ?? ''}`, () => {
    const lines = readPackageFile(join('docs', 'interpretations.md'), root).split('\n');
    const out: Interpretation[] = [];
    let cur: { number: number; title: string; body: string[] } | undefined;
    const flush = () => {
      if (!cur) return;
      const text = cur.body.join('\n').trim();
      const m = /\*\*Interprets:\*\*\s*(.*)/.exec(text);
      out.push({ number: cur.number, title: cur.title, interprets: m ? m[1]!.trim() : '', text });
    };
    for (const l of lines) {
      const h = /^##\s+(\d+)\.\s+(.*)$/.exec(l);
      if (h) {
        flush();
        cur = { number: Number(h[1]), title: h[2]!.trim(), body: [] };
      } else if (/^##\s/.test(l)) {
        flush();
        cur = undefined;
      } else cur?.body.push(l);
    }
    flush();
    return out;
  });
}

/** Ids an "Interprets:" line names, with letter ranges expanded (`D1–D3` → D1, D2, D3). */
export function idsInterpreted(line: string): Set<string> {
  const ids = new Set<string>();
  for (const m of line.matchAll(/`?([A-Z]{1,2})(\d+)\s*[–-]\s*(?:\1)?(\d+)`?/g)) {
    for (let n = Number(m[2]); n <= Number(m[3]) && n - Number(m[2]) < 50; n++) ids.add(`${m[1]}${n}`);
  }
  for (const m of line.matchAll(/[A-Za-z0-9][A-Za-z0-9.§-]*[A-Za-z0-9]/g)) ids.add(m[0]);
  return ids;
}

/** The interpretations that apply to an entry: those naming its id (in "Interprets:" or in their text). */
export function interpretationsFor(entry: Pick<CatalogueEntry, 'id' | 'section'>, root?: string): Interpretation[] {
  const word = new RegExp(`(^|[^A-Za-z0-9.-])${entry.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9-]|\\.\\d)`);
  return interpretations(root).filter((i) => idsInterpreted(i.interprets).has(entry.id) || word.test(i.text));
}
