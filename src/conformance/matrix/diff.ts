/**
 * What changed between two matrix.json documents (docs/matrix.md "What changed"). Implementations are matched
 * by name. A cell that is failed now and was not before is a new failure; one that failed before and is
 * witnessed now is a fix; any other move of a cell's status is listed apart. Implementations added or gone,
 * version changes (from the provider's handshake_ack, else the entry's `version`; an unknown version is no change) and outcome changes (a run
 * that completed and now hangs, …) are listed too. Columns of a run that did not complete on either side
 * contribute no cell changes (their cells say nothing about the rules): the outcome change says it.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from '../provider-suite/config.js';
import type { CellChange, MatrixChanges, MatrixDoc } from './types.js';

export function diffMatrices(old: MatrixDoc, now: MatrixDoc): MatrixChanges {
  const before = new Map(old.implementations.map((c) => [c.name, c]));
  const after = new Map(now.implementations.map((c) => [c.name, c]));
  const changes: MatrixChanges = {
    previous_generated_at: old.generated_at,
    new_failures: [],
    fixes: [],
    other: [],
    added: now.implementations.filter((c) => !before.has(c.name)).map((c) => c.name),
    gone: old.implementations.filter((c) => !after.has(c.name)).map((c) => c.name),
    version_changes: [],
    outcome_changes: [],
  };
  const rowOrder = now.rows.map((r) => r.id);
  for (const c of now.implementations) {
    const p = before.get(c.name);
    if (p === undefined) continue;
    // a run that could not tell its version (never answered, hung) did not change it: its outcome change says what happened
    if (p.version !== c.version && p.version !== null && c.version !== null) changes.version_changes.push({ implementation: c.name, from: p.version, to: c.version });
    if (p.outcome !== c.outcome) changes.outcome_changes.push({ implementation: c.name, from: p.outcome, to: c.outcome });
    if (p.outcome !== 'completed' || c.outcome !== 'completed') continue;
    for (const id of rowOrder) {
      const from = p.cells[id]?.status;
      const to = c.cells[id]?.status;
      if (from === undefined || to === undefined || from === to) continue;
      const change: CellChange = { implementation: c.name, id, from, to };
      if (to === 'failed') changes.new_failures.push(change);
      else if (from === 'failed' && to === 'witnessed') changes.fixes.push(change);
      else changes.other.push(change);
    }
  }
  return changes;
}

export function changeCount(c: MatrixChanges): number {
  return c.new_failures.length + c.fixes.length + c.other.length + c.added.length + c.gone.length + c.version_changes.length + c.outcome_changes.length;
}

/** The changes as text lines (the CLI's `matrix diff`, and the Markdown summary). */
export function changeLines(c: MatrixChanges): string[] {
  const lines: string[] = [];
  for (const x of c.new_failures) lines.push(`new failure: ${x.implementation} ${x.id} (${x.from} → failed)`);
  for (const x of c.fixes) lines.push(`fixed: ${x.implementation} ${x.id} (failed → witnessed)`);
  for (const x of c.other) lines.push(`changed: ${x.implementation} ${x.id} (${x.from} → ${x.to})`);
  for (const n of c.added) lines.push(`added: ${n}`);
  for (const n of c.gone) lines.push(`gone: ${n}`);
  for (const v of c.version_changes) lines.push(`version: ${v.implementation} ${v.from ?? '(none)'} → ${v.to ?? '(none)'}`);
  for (const o of c.outcome_changes) lines.push(`run: ${o.implementation} ${o.from} → ${o.to}`);
  return lines;
}

/** Read a matrix.json (a usage error, naming the file, when it is not one). */
export function readMatrixDoc(path: string): MatrixDoc {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigError(`${path}: ${code !== undefined ? `cannot read (${code})` : `not JSON (${(err as Error).message})`}`);
  }
  const d = doc as Partial<MatrixDoc> | null;
  if (d === null || typeof d !== 'object' || d.matrix_version !== 1 || !Array.isArray(d.implementations) || !Array.isArray(d.rows)) {
    throw new ConfigError(`${path}: not a matrix.json (matrix_version 1, with rows and implementations)`);
  }
  return d as MatrixDoc;
}
