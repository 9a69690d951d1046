// A deliberately small reader for the subset of Markdown SPEC.md uses: numbered headings, pipe tables,
// fenced code, lists, block quotes and paragraphs. It exists so the catalogue can be parsed from SPEC.md
// with no dependency; it is not a general Markdown parser.

export interface TableRow {
  cells: string[];
  /** 1-based line number in the source. */
  line: number;
}

export interface TableBlock {
  kind: 'table';
  section: string;
  header: string[];
  rows: TableRow[];
  line: number;
}

export interface ProseBlock {
  kind: 'prose';
  section: string;
  /** Raw Markdown of the paragraph, list item or block quote, lines joined with single spaces. */
  text: string;
  line: number;
}

export type Block = TableBlock | ProseBlock;

/** Section number of the preamble (text before the first numbered heading). */
export const PREAMBLE_SECTION = '0';

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const NUMBERED = /^(\d+(?:\.\d+)*)\.?\s/;
const FENCE = /^\s*(```|~~~)/;
const LIST_ITEM = /^\s*[-*+]\s+/;
const RULE_LINE = /^\s*(?:-{3,}|\*{3,}|_{3,})\s*$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/** Split Markdown into prose and table blocks, each tagged with the section number of its heading. */
export function parseBlocks(markdown: string): Block[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let section = PREAMBLE_SECTION;
  let inFence = false;
  let inComment = false;
  let prose: { lines: string[]; line: number } | null = null;
  let table: { lines: { text: string; line: number }[] } | null = null;

  const flush = (): void => {
    if (prose) {
      const text = prose.lines
        .map((l) => l.trim())
        .join(' ')
        .trim();
      if (text) blocks.push({ kind: 'prose', section, text, line: prose.line });
      prose = null;
    }
    if (table) {
      const parsed = parseTable(table.lines, section);
      if (parsed) blocks.push(parsed);
      table = null;
    }
  };

  lines.forEach((raw, index) => {
    const lineNo = index + 1;
    if (inComment) {
      if (raw.includes('-->')) inComment = false;
      return;
    }
    if (FENCE.test(raw)) {
      flush();
      inFence = !inFence;
      return;
    }
    if (inFence) return;
    if (raw.trimStart().startsWith('<!--')) {
      flush();
      if (!raw.includes('-->')) inComment = true;
      return;
    }
    const heading = HEADING.exec(raw);
    if (heading) {
      flush();
      const numbered = NUMBERED.exec(heading[2] ?? '');
      if (numbered) section = numbered[1] ?? section;
      else if ((heading[1] ?? '').length === 1) section = PREAMBLE_SECTION;
      return;
    }
    if (/^\s*\|/.test(raw)) {
      if (!table) {
        flush();
        table = { lines: [] };
      }
      table.lines.push({ text: raw, line: lineNo });
      return;
    }
    if (table) flush();
    if (raw.trim() === '' || RULE_LINE.test(raw)) {
      flush();
      return;
    }
    let text = raw;
    const quoted = /^\s*>\s?/.exec(text);
    if (quoted) text = text.slice(quoted[0].length);
    const item = LIST_ITEM.exec(text);
    if (item) {
      flush();
      prose = { lines: [text.slice(item[0].length)], line: lineNo };
      return;
    }
    if (!prose) prose = { lines: [], line: lineNo };
    prose.lines.push(text);
  });
  flush();
  return blocks;
}

function parseTable(lines: { text: string; line: number }[], section: string): TableBlock | null {
  const first = lines[0];
  if (!first) return null;
  const header = splitRow(first.text);
  const rows: TableRow[] = [];
  for (const entry of lines.slice(1)) {
    if (TABLE_SEPARATOR.test(entry.text)) continue;
    rows.push({ cells: splitRow(entry.text), line: entry.line });
  }
  return { kind: 'table', section, header, rows, line: first.line };
}

/** Split a pipe-table row into trimmed cells; a `|` inside a code span or escaped as `\|` is content. */
export function splitRow(row: string): string[] {
  const cells: string[] = [];
  let current = '';
  let inCode = false;
  for (let i = 0; i < row.length; i++) {
    const ch = row[i];
    if (ch === '\\' && row[i + 1] === '|') {
      current += '|';
      i++;
      continue;
    }
    if (ch === '`') inCode = !inCode;
    if (ch === '|' && !inCode) {
      cells.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  cells.push(current.trim());
  if (cells.length > 0 && cells[0] === '' && /^\s*\|/.test(row)) cells.shift();
  if (cells.length > 0 && cells[cells.length - 1] === '' && /\|\s*$/.test(row)) cells.pop();
  return cells;
}

const ABBREVIATIONS = new Set(['e.g', 'i.e', 'etc', 'vs', 'cf']);
const CLOSERS = new Set(['*', '_', ')', '"', "'", '”', '’']);
const SENTENCE_START = /[A-Z`"“*(§\[0-9]/;

/**
 * Split a prose block's Markdown into sentences. A sentence ends at `.`, `!` or `?` outside a code span,
 * optionally followed by closing emphasis, brackets or quotes, then whitespace and a character that can
 * start a sentence. Common abbreviations (e.g., i.e.) never end one.
 */
export function splitSentences(markdown: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  let inCode = false;
  for (let i = 0; i < markdown.length; i++) {
    const ch = markdown[i] ?? '';
    if (ch === '`') {
      inCode = !inCode;
      continue;
    }
    if (inCode || (ch !== '.' && ch !== '!' && ch !== '?')) continue;
    let end = i + 1;
    while (end < markdown.length && CLOSERS.has(markdown[end] ?? '')) end++;
    if (end >= markdown.length || !/\s/.test(markdown[end] ?? '')) continue;
    let next = end;
    while (next < markdown.length && /\s/.test(markdown[next] ?? '')) next++;
    if (next >= markdown.length || !SENTENCE_START.test(markdown[next] ?? '')) continue;
    if (ch === '.') {
      const word = /([A-Za-z.]+)$/.exec(markdown.slice(start, i))?.[1] ?? '';
      if (ABBREVIATIONS.has(word.toLowerCase())) continue;
    }
    const sentence = markdown.slice(start, end).trim();
    if (sentence) sentences.push(sentence);
    start = next;
    i = next - 1;
  }
  const rest = markdown.slice(start).trim();
  if (rest) sentences.push(rest);
  return sentences;
}

/** Markdown → plain text: drop bold/italic markers and code-span backticks, unwrap links, collapse spaces. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*\*/g, '')
    .replace(/`/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export type KeyWord = 'MUST' | 'MUST NOT' | 'SHOULD' | 'SHOULD NOT' | 'MAY';

/** The BCP 14 key words that appear in bold (the only normative use, per SPEC.md's conformance language). */
export function boldKeyWords(markdown: string): KeyWord[] {
  const found: KeyWord[] = [];
  const re = /\*\*(MUST NOT|MUST|SHOULD NOT|SHOULD|MAY)\*\*/g;
  for (let m = re.exec(markdown); m; m = re.exec(markdown)) found.push(m[1] as KeyWord);
  return found;
}
