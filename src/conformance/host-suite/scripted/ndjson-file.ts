import { existsSync, readFileSync } from 'node:fs';

/**
 * Every line of an NDJSON record file (what a scripted provider received, or a relay sent), parsed;
 * a line that is not JSON is kept as {raw} rather than dropped; a missing file is no lines.
 */
export function readNdjsonFile(file: string): Array<Record<string, unknown>> {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        return { raw: l };
      }
    });
}
