/**
 * Tables: parsing (pipe/Markdown, tab, CSV with RFC 4180 quoting, whitespace-aligned) and column type
 * inference. Works on any string (the byte view during classification, decoded text when distilling).
 *
 * Column types (over every data row; a short row reads as an empty cell): null-like cells (empty,
 * null, nil, none, n/a, na, nan, -, —) are ignored for the type and make it nullable (`?`); all null ⇒
 * `empty`; else the first of percent, currency, int, float, bool, timestamp that every value fits,
 * else text.
 */
import { isProtocolTimestamp } from '../protocol/timestamp.js';
import type { TableDelimiter } from './classify.js';
import { asciiTrim } from './lines.js';
import { normaliseTimestampText } from './timestamps.js';

export interface CsvCell {
  text: string;
  quoted: boolean;
}

/** RFC 4180 records: `"` quotes a field, `""` is a literal quote, quoted fields may span lines. */
export function splitCsvRecords(text: string): CsvCell[][] {
  const records: CsvCell[][] = [];
  let row: CsvCell[] = [];
  let cell = '';
  let quoted = false;
  let inQuotes = false;
  let atCellStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inQuotes) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else inQuotes = false;
      } else cell += c;
      continue;
    }
    if (c === '"' && atCellStart) {
      inQuotes = true;
      quoted = true;
      atCellStart = false;
      continue;
    }
    if (c === ',') {
      row.push({ text: quoted ? cell : asciiTrim(cell), quoted });
      cell = '';
      quoted = false;
      atCellStart = true;
      continue;
    }
    if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push({ text: quoted ? cell : asciiTrim(cell), quoted });
      records.push(row);
      row = [];
      cell = '';
      quoted = false;
      atCellStart = true;
      continue;
    }
    if (atCellStart && (c === ' ' || c === '\t')) continue;
    atCellStart = false;
    cell += c;
  }
  row.push({ text: quoted ? cell : asciiTrim(cell), quoted });
  records.push(row);
  return records;
}

export interface ParsedTable {
  header: string[];
  rows: string[][];
  columns: number;
  /** Fixed-width columns were inferred from the data (aligned tables). */
  spans?: boolean;
}

/** Cells of a whitespace-aligned row: split on runs of two or more spaces (or tabs). */
export function alignedCells(line: string): string[] {
  return line
    .split(/ {2,}|\t+/)
    .map((c) => asciiTrim(c))
    .filter((c) => c !== '');
}

/**
 * Fixed-width columns inferred from the data, not the header alone (docs/interpretations.md §121): a column
 * boundary is a run of character positions that is a space on every line (a line shorter than the
 * position counts as space there); a span whose header is blank belongs to the column on its left (a
 * value with spaces, `Up 3 hours`, never splits a column), and a header with a single space (`Used
 * Avail`) splits where the data does. Undefined when fewer than 2 columns come out, or when the lines
 * carry non-ASCII bytes before their last boundary (columns are counted in characters).
 */
export function fixedWidthSpans(lines: readonly string[]): Array<[number, number]> | undefined {
  const rows = lines.filter((l) => asciiTrim(l) !== '');
  if (rows.length < 2) return undefined;
  const width = Math.max(...rows.map((l) => l.length));
  const space = new Uint8Array(width).fill(1);
  for (const l of rows) {
    for (let p = 0; p < l.length; p++) {
      const c = l.charCodeAt(p);
      if (c !== 32) space[p] = 0;
    }
  }
  const spans: Array<[number, number]> = [];
  let p = 0;
  while (p < width) {
    while (p < width && space[p]) p++;
    if (p >= width) break;
    const a = p;
    while (p < width && !space[p]) p++;
    spans.push([a, p]);
  }
  // the last column runs to the end of every line
  if (spans.length > 0) spans[spans.length - 1]![1] = Number.MAX_SAFE_INTEGER;
  const header = rows[0]!;
  const merged: Array<[number, number]> = [];
  for (const sp of spans) {
    const head = asciiTrim(header.slice(sp[0], Math.min(sp[1], header.length)));
    const prev = merged[merged.length - 1];
    // a blank header: part of the value on its left; a blank column one space after its left
    // neighbour's header word: the second word of a two-word header (`NOMINATED NODE`)
    const dataBlank = rows.slice(1).every((l) => asciiTrim(l.slice(sp[0], Math.min(sp[1], l.length))) === '');
    if (prev && (head === '' || (dataBlank && sp[0] - prev[1] === 1 && header.charCodeAt(prev[1]) === 32))) prev[1] = sp[1];
    else merged.push([sp[0], sp[1]]);
  }
  if (merged.length < 2) return undefined;
  return merged;
}

function spanCells(line: string, spans: ReadonlyArray<[number, number]>): string[] {
  return spans.map(([a, b]) => asciiTrim(line.slice(a, b)));
}

function pipeCells(line: string): string[] {
  const cells = line.split('|').map((c) => asciiTrim(c));
  if (cells.length > 1 && cells[0] === '') cells.shift();
  if (cells.length > 1 && cells[cells.length - 1] === '') cells.pop();
  return cells;
}

const SEPARATOR_CELL = /^:?-{1,}:?$/;

export function parseTable(text: string, delimiter: TableDelimiter): ParsedTable {
  let records: string[][];
  if (delimiter === 'csv') {
    records = splitCsvRecords(text).map((r) => r.map((c) => c.text));
  } else {
    const lines = text.split(/\r\n|\n|\r/).filter((l) => asciiTrim(l) !== '');
    if (delimiter === 'pipe') records = lines.map(pipeCells).filter((r) => !r.every((c) => SEPARATOR_CELL.test(c)));
    else if (delimiter === 'tab') records = lines.map((l) => l.split('\t').map((c) => asciiTrim(c)));
    else {
      // fixed-width columns from the data when every line is plain ASCII (character = byte = column)
      const ascii = lines.every((l) => !/[^\x20-\x7e\t]/.test(l));
      const sp = ascii && !lines.some((l) => l.includes('\t')) ? fixedWidthSpans(lines) : undefined;
      if (sp) {
        const recs = lines.map((l) => spanCells(l, sp)).filter((r) => !r.every((c) => c === ''));
        const header = recs[0] ?? [];
        return { header, rows: recs.slice(1), columns: sp.length, spans: true };
      }
      records = lines.map(alignedCells);
    }
  }
  records = records.filter((r) => !(r.length === 1 && r[0] === ''));
  const header = records[0] ?? [];
  const rows = records.slice(1);
  const columns = Math.max(header.length, ...rows.map((r) => r.length));
  return { header, rows, columns };
}

// ── column types ─────────────────────────────────────────────────────────────────────────────

export type ColumnType = 'int' | 'float' | 'percent' | 'currency' | 'bool' | 'timestamp' | 'text' | 'empty';

const NULLS = new Set(['', 'null', 'nil', 'none', 'n/a', 'na', 'nan', '-', '—']);
const NUMBER = /^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/;
const INT = /^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)$/;
const FLOAT = /^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?\.\d+(?:[eE][+-]?\d+)?$|^[+-]?\d+(?:\.\d+)?[eE][+-]?\d+$/;
const CURRENCY_SYMBOL = /^\(?[+-]?[$€£¥₹₽][+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\)?$|^\(?[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?[$€£¥₹₽]\)?$/;
const CURRENCY_CODE = /^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)? [A-Z]{3}$|^[A-Z]{3} [+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/;

export function isNullCell(cell: string): boolean {
  return NULLS.has(asciiTrim(cell).toLowerCase());
}

function fits(type: Exclude<ColumnType, 'text' | 'empty'>, v: string): boolean {
  switch (type) {
    case 'percent':
      return v.endsWith('%') && NUMBER.test(v.slice(0, -1).trim());
    case 'currency':
      return CURRENCY_SYMBOL.test(v) || CURRENCY_CODE.test(v);
    case 'int':
      return INT.test(v);
    case 'float':
      // ints mixed with fractions are a float column (int was tried first and failed)
      return FLOAT.test(v) || INT.test(v);
    case 'bool':
      return /^(?:true|false)$/i.test(v);
    case 'timestamp':
      return isProtocolTimestamp(v) || normaliseTimestampText(v) !== undefined;
  }
}

const ORDER = ['percent', 'currency', 'int', 'float', 'bool', 'timestamp'] as const;

export interface ColumnInfo {
  name: string;
  type: ColumnType;
  nullable: boolean;
  /** min and max as written, for numeric-like columns */
  range?: [string, string];
}

function numericValue(type: ColumnType, v: string): number {
  const neg = /^\(.*\)$/.test(v) || v.includes('-');
  const digits = v.replace(/[^0-9.]/g, '');
  const n = Number(digits);
  return neg ? -n : n;
}

export function inferColumn(name: string, values: readonly string[]): ColumnInfo {
  const present = values.map((v) => asciiTrim(v)).filter((v) => !isNullCell(v));
  const nullable = present.length < values.length;
  if (present.length === 0) return { name, type: 'empty', nullable };
  let type: ColumnType = 'text';
  for (const t of ORDER) {
    if (present.every((v) => fits(t, v))) {
      type = t;
      break;
    }
  }
  const info: ColumnInfo = { name, type, nullable };
  if (type === 'int' || type === 'float' || type === 'percent' || type === 'currency') {
    let lo = present[0]!;
    let hi = present[0]!;
    for (const v of present) {
      if (numericValue(type, v) < numericValue(type, lo)) lo = v;
      if (numericValue(type, v) > numericValue(type, hi)) hi = v;
    }
    info.range = [lo, hi];
  }
  if (type === 'timestamp') {
    const sorted = [...present].sort();
    info.range = [sorted[0]!, sorted[sorted.length - 1]!];
  }
  return info;
}

export function inferColumns(table: ParsedTable): ColumnInfo[] {
  const out: ColumnInfo[] = [];
  for (let c = 0; c < table.columns; c++) {
    const name = table.header[c] ?? `column ${c + 1}`;
    out.push(
      inferColumn(
        name === '' ? `column ${c + 1}` : name,
        table.rows.map((r) => r[c] ?? ''),
      ),
    );
  }
  return out;
}

export function describeColumn(c: ColumnInfo): string {
  const type = `${c.type}${c.nullable && c.type !== 'empty' ? '?' : ''}`;
  return c.range && c.range[0] !== c.range[1] ? `${c.name} ${type} ${c.range[0]}..${c.range[1]}` : `${c.name} ${type}`;
}
