// Code, tests, docs and schemas cite only what the repository holds — SPEC.md §, docs/interpretations.md §,
// docs/architecture.md — never the founding notes, this project's tracker numbers or notes on the reference
// (scripts/check-citations.ts lists them; `--fix` rewrites the mechanical forms).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findCitations, fixCitations } from '../../scripts/check-citations.js';

const NOTES = ['DES', 'IGN'].join('');

test('no file cites a document the repository does not hold', () => {
  const found = findCitations();
  assert.deepEqual(
    found.map((c) => `${c.file}:${c.line}: [${c.pattern}] ${c.text}`),
    [],
  );
});

test('--fix maps a numbered reading to its section of docs/interpretations.md and a named section to docs/architecture.md', () => {
  assert.equal(fixCitations(`(${NOTES} decision 12)`), '(docs/interpretations.md §12)');
  assert.equal(fixCitations(`(${NOTES} #2, A1)`), '(docs/interpretations.md §2, A1)');
  assert.equal(fixCitations(`${NOTES} "CLI": exit 4`), 'docs/architecture.md "Exit codes": exit 4');
  assert.equal(fixCitations(`${NOTES} "Unknown section"`), `${NOTES} "Unknown section"`, 'an unmapped section is left for a person');
});
