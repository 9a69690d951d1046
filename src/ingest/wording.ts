/**
 * Small wording helpers shared by the distillers: counts, line-number ranges, and a line clipped to what one
 * quoted line may hold (the elided bytes named, never dropped silently).
 */

/** `1 row` / `3 rows`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** `5–34, 36, 40–41`: ascending numbers as runs. */
export function numberRanges(nos: readonly number[]): string {
  const parts: string[] = [];
  let i = 0;
  while (i < nos.length) {
    let j = i;
    while (j + 1 < nos.length && nos[j + 1] === nos[j]! + 1) j++;
    parts.push(i === j ? `${nos[i]}` : `${nos[i]}–${nos[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}

/** The longest line a distiller quotes whole. */
export const MAX_LINE = 400;

/** A line cut at MAX_LINE characters, naming how many bytes were left out. */
export function clipLine(line: string): string {
  if (line.length <= MAX_LINE) return line;
  return `${line.slice(0, MAX_LINE)} … (${Buffer.byteLength(line.slice(MAX_LINE), 'utf8')} more bytes of this line)`;
}
