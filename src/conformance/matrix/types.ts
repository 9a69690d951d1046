// Shapes of the conformance matrix (docs/matrix.md): the matrix file an author writes
// (schema/matrix/matrix-file.schema.json) and matrix.json, what a run writes
// (schema/matrix/matrix.schema.json). matrix.json holds no durations: apart from its timestamps
// (`generated_at`, each column's `started_at` / `finished_at`) two runs of the same file against the same
// implementations give the same document, and so do its shards merged (docs/matrix.md "Shards").

import type { CatalogueLevel, CatalogueSide } from '../../catalogue/index.js';

export type ImplementationSide = 'provider' | 'host';

/** How the suite reaches one implementation (exactly one per entry). */
export type Reach =
  | { kind: 'stdio'; command: string[] }
  | { kind: 'url'; url: string; start?: string[] }
  | { kind: 'host-cmd'; cmd: string }
  | { kind: 'adapter'; adapter: string }
  | { kind: 'bundled'; misbehave?: string };

/** One entry of the matrix file, checked and resolved (paths absolute, placeholders but ${PORT} filled in). */
export interface Implementation {
  /** Its place in the file (0-based): the column order, and what a shard takes. */
  position: number;
  name: string;
  /** The column's directory under runs/: from the name, unique in the file. */
  slug: string;
  side: ImplementationSide;
  reach: Reach;
  language?: string;
  homepage?: string;
  version?: string;
  cwd: string;
  baseline?: string;
  tags?: string;
  fileRoots?: string[];
  retiredIds?: string[];
  spawnAhead?: number;
  timeoutMs?: number;
  runTimeoutMs: number;
  startTimeoutMs: number;
}

export interface MatrixFile {
  path: string;
  /** sha256 of the file's bytes: shards of different files are not merged. */
  digest: string;
  implementations: Implementation[];
}

/** A cell: what one implementation's run showed about one anchor or rule. */
export type CellStatus = 'witnessed' | 'failed' | 'warning' | 'not-applicable' | 'unverified';

export interface CellFinding {
  severity: 'error' | 'warning';
  message: string;
  scenario: { name: string; uri: string; line: number };
}

export interface Cell {
  status: CellStatus;
  /** Why it is not applicable or unverified. */
  reason?: string;
  /** Failed and listed in the implementation's baseline: the baseline's reason. */
  known?: string;
  /** The findings behind a failed or warning cell (at most MAX_CELL_FINDINGS). */
  findings?: CellFinding[];
}

/**
 * How a column's run ended:
 * - completed: the suite ran and reported (whatever its verdict);
 * - never-answered: the target never answered the handshake (exit 3);
 * - not-started: the run could not start (a usage or configuration error, exit 2; or the start command failed);
 * - hung: no result within run_timeout_ms (the run was stopped);
 * - crashed: the run ended without a report (any other exit).
 */
export type ColumnOutcome = 'completed' | 'never-answered' | 'not-started' | 'hung' | 'crashed';

export interface Column {
  position: number;
  name: string;
  slug: string;
  side: ImplementationSide;
  language?: string;
  homepage?: string;
  /** The target as the run names it (its command line, URL or host). */
  target: string;
  /** From the provider's handshake_ack, else the entry's `version`; null when neither says. */
  version: string | null;
  outcome: ColumnOutcome;
  /** The single-target command's exit code (docs/architecture.md "Exit codes"); null when it was stopped. */
  exit_code: number | null;
  /** Why the column has no verdict (outcome other than completed), with the end of its stderr. */
  reason?: string;
  stderr_tail?: string;
  /** MUSTs met (witnessed) of the applicable MUSTs (anchors and rules); null when the run did not complete. */
  score: { must_met: number; must_applicable: number } | null;
  totals: Record<CellStatus, number>;
  /** id → cell, for every row of the grid. */
  cells: Record<string, Cell>;
  /** The run's files, relative to the site's directory (absent when the run wrote none). */
  files: { messages?: string; junit?: string; page?: string; badge?: string; coverage?: string };
  started_at: string;
  finished_at: string;
}

export interface Row {
  id: string;
  kind: 'anchor' | 'rule';
  section: string;
  level: CatalogueLevel;
  side: CatalogueSide;
  text: string;
}

export interface CellChange {
  implementation: string;
  id: string;
  from: CellStatus;
  to: CellStatus;
}

export interface MatrixChanges {
  /** The previous matrix.json's generated_at. */
  previous_generated_at: string;
  new_failures: CellChange[];
  fixes: CellChange[];
  /** Every other cell whose status moved (e.g. witnessed → unverified). */
  other: CellChange[];
  added: string[];
  gone: string[];
  version_changes: Array<{ implementation: string; from: string | null; to: string | null }>;
  outcome_changes: Array<{ implementation: string; from: ColumnOutcome; to: ColumnOutcome }>;
}

export interface MatrixDoc {
  matrix_version: 1;
  tool_version: string;
  protocol_version: string;
  generated_at: string;
  source: { file: string; digest: string; implementations: number };
  /** Set on a shard's own matrix.json only (a merged or whole run has none). */
  shard?: { index: number; count: number };
  rows: Row[];
  implementations: Column[];
  changes?: MatrixChanges;
}

export const MAX_CELL_FINDINGS = 5;
export const CELL_STATUSES: readonly CellStatus[] = ['failed', 'warning', 'unverified', 'witnessed', 'not-applicable'];
