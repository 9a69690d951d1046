// Shared fixtures and assertions for the protocol tests (not a test file itself).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { budgetTokens } from '../../src/protocol/token-cost.js';
import { sha256Digest } from '../../src/protocol/digest.js';
import type { Finding } from '../../src/protocol/findings.js';

export const HEX64 = (c: string) => `sha256:${c.repeat(64)}`;

export const SHARED_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'shared');
export const SHARED_PRESENT = existsSync(SHARED_DIR);
export const EXTERNAL_SKIP = `external vectors not run: ${SHARED_DIR} is absent`;

export function readShared(...parts: string[]): string {
  return readFileSync(join(SHARED_DIR, ...parts), 'utf8');
}

export type Json = Record<string, unknown>;

export function without<T extends Json>(obj: T, ...keys: string[]): Json {
  const copy: Json = { ...obj };
  for (const k of keys) delete copy[k];
  return copy;
}

const FULL_CONTENT = 'Retry behavior is set in Config::retry — max_attempts bounds the tries.';

/** A full frame that passes every check. */
export function fullFrame(over: Json = {}): Json {
  return {
    id: 'frm_full',
    kind: 'doc',
    title: 'Retry policy',
    content: FULL_CONTENT,
    content_digest: sha256Digest(FULL_CONTENT),
    uri: 'file:///repo/docs/retry.md',
    score: 0.92,
    token_cost: budgetTokens(FULL_CONTENT),
    valid_from: '2026-01-01T00:00:00Z',
    recorded_at: '2026-07-20T18:00:00.125Z',
    provenance: [
      { type: 'file', uri: 'file:///repo/docs/retry.md', range: 'L1-20', digest: `sha256:${'01'.repeat(32)}` },
      { type: 'derivation', method: 'summarize' },
    ],
    citation_label: 'retry.md L1-20',
    relations: [{ rel: 'code.calls', target_uri: 'file:///repo/src/net.rs', display_name: 'net::retry' }],
    ...over,
  };
}

const COMPACT_CONTENT = 'Roll back with `deploy revert <sha>`; page oncall if the error rate exceeds 2%.';

/** A compact frame that passes every check (P2, B3 on the inline bytes). */
export function compactFrame(over: Json = {}): Json {
  return {
    id: 'frm_compact',
    kind: 'doc',
    title: 'Deployment runbook (summary)',
    content: COMPACT_CONTENT,
    content_digest: sha256Digest(COMPACT_CONTENT),
    representation: 'compact',
    canonical_content_hash: HEX64('9'),
    content_ref: { provider_id: 'docs', uri: 'context://docs/runbook' },
    transform: { method: 'extractive_summary', implementation: 'provider_default', version: '1' },
    score: 0.9,
    token_cost: budgetTokens(COMPACT_CONTENT),
    canonical_token_cost: 512,
    citation_label: 'runbook.md (summary)',
    ...over,
  };
}

/** A reference frame that passes every check (P3, P4). */
export function referenceFrame(over: Json = {}): Json {
  return {
    id: 'frm_ref',
    kind: 'doc',
    title: 'Deployment runbook',
    representation: 'reference',
    canonical_content_hash: HEX64('9'),
    content_ref: { provider_id: 'docs', uri: 'context://docs/runbook' },
    score: 0.9,
    token_cost: 0,
    citation_label: 'runbook.md',
    ...over,
  };
}

export interface Expected {
  id: string;
  severity: 'error' | 'warning';
  pointer: string;
}

/** Exactly these findings (any order); each message starts with its id. */
export function assertFindings(findings: readonly Finding[], expected: readonly Expected[]): void {
  for (const f of findings) {
    assert.ok(f.message.startsWith(`${f.id} `), `message must start with its id: ${f.message}`);
  }
  const key = (f: Expected) => `${f.id} ${f.severity} ${f.pointer}`;
  const seen = findings.map(key).sort();
  const want = expected.map(key).sort();
  assert.deepEqual(seen, want, `findings were:\n${findings.map((f) => `  ${f.message} @ ${f.pointer}`).join('\n')}`);
}
