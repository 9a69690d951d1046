// The misbehaviour manifest: shape, vocabulary, and — for EVERY mode — that it changes the provider's
// behaviour and violates each id it claims to break (judged by the oracle in script.ts, which the honest
// provider passes with nothing to report).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { findPackageRoot } from '../../src/util/package-root.js';
import { MISBEHAVIOUR_HOOKS } from '../../src/provider/misbehave/index.js';
import { MISBEHAVIOURS, MISBEHAVIOUR_MODES, findMisbehaviour, isMisbehaviourMode } from '../../src/provider/misbehaviours.js';
import { createProvider, UnknownMisbehaviourError } from '../../src/provider/core.js';
import { corpus, renderTranscript, runScript, violations } from './script.js';

/** The 21 modes of the reference provider; each must have an equivalent here under the same name. */
const REFERENCE_MODES = [
  'lying-costs',
  'under-report-cost',
  'flood-frames',
  'bad-score',
  'empty-citation',
  'bad-timestamp',
  'malformed-digest',
  'stale-digest',
  'lying-representation',
  'bad-version',
  'crash-on-query',
  'crash-on-garbage',
  'mislabel-malformed',
  'drop-correlation-id',
  'ignore-as-of',
  'accept-bad-embedding',
  'rubber-stamp-verify',
  'hollow-verify',
  'scope-lie',
  'ignore-kinds',
  'ignore-anchors',
];

function catalogueIds(): Set<string> {
  const root = findPackageRoot();
  const read = (file: string, key: string) => (JSON.parse(readFileSync(join(root, 'generated', file), 'utf8')) as Record<string, Array<{ id: string }>>)[key]!.map((e) => e.id);
  return new Set([...read('anchors.json', 'anchors'), ...read('rules.json', 'rules')]);
}

describe('misbehaviour manifest', () => {
  it('has at least 40 unique modes, each with non-empty breaks (or a stated fixture/unbacked reason) and description', () => {
    assert.ok(MISBEHAVIOURS.length >= 40, `${MISBEHAVIOURS.length} modes`);
    assert.equal(new Set(MISBEHAVIOUR_MODES).size, MISBEHAVIOURS.length, 'mode names are unique');
    for (const m of MISBEHAVIOURS) {
      assert.match(m.mode, /^[a-z0-9]+(-[a-z0-9]+)*$/, `${m.mode}: kebab-case`);
      const entry = m as { exercises?: readonly string[]; unbacked?: string };
      assert.ok(
        m.breaks.length > 0 || (entry.exercises?.length ?? 0) > 0 || (entry.unbacked?.trim().length ?? 0) > 0,
        `${m.mode}: breaks is empty and the entry names neither host ids it exercises nor why it is unbacked`,
      );
      assert.equal(new Set(m.breaks).size, m.breaks.length, `${m.mode}: duplicate ids`);
      assert.ok(m.description.trim().length > 0, `${m.mode}: description is empty`);
    }
  });

  it('includes every reference misbehave mode', () => {
    for (const mode of REFERENCE_MODES) assert.ok(isMisbehaviourMode(mode), `missing reference mode ${mode}`);
  });

  it('names only anchors and catalogued rule ids', () => {
    const known = catalogueIds();
    for (const m of MISBEHAVIOURS) {
      const exercises = (m as { exercises?: readonly string[] }).exercises ?? [];
      for (const id of [...m.breaks, ...exercises]) assert.ok(known.has(id), `${m.mode}: unknown id ${id}`);
    }
  });

  it('has exactly one implementation per mode, and the lookups agree', () => {
    assert.deepEqual(Object.keys(MISBEHAVIOUR_HOOKS).sort(), [...MISBEHAVIOUR_MODES].sort());
    for (const mode of MISBEHAVIOUR_MODES) {
      assert.equal(findMisbehaviour(mode)?.mode, mode);
      assert.ok(Object.keys(MISBEHAVIOUR_HOOKS[mode]).length > 0, `${mode}: no hooks`);
    }
    assert.equal(findMisbehaviour('no-such-mode'), undefined);
    assert.throws(() => createProvider({ misbehave: 'no-such-mode', corpus }), UnknownMisbehaviourError);
  });
});

describe('every mode against the honest provider', async () => {
  const honest = await runScript();
  const honestText = renderTranscript(honest);

  it('the honest provider violates nothing the oracle checks', () => {
    assert.deepEqual([...violations(honest)], []);
  });

  for (const m of MISBEHAVIOURS) {
    it(`${m.mode}: changes the transcript and breaks ${m.breaks.join(', ')}`, async () => {
      const transcript = await runScript(m.mode);
      assert.notEqual(renderTranscript(transcript), honestText, `${m.mode} behaves exactly like the honest provider`);
      const seen = violations(transcript);
      // A fixture mode is still observed by the oracle: by the host ids it exercises, or (unbacked) by the
      // oracle's own label for the behaviour.
      const entry = m as { exercises?: readonly string[]; unbacked?: string };
      const expected = m.breaks.length > 0 ? m.breaks : entry.exercises?.length ? entry.exercises.filter((id) => id === 'F8') : ['oracle:truncated-honest'];
      for (const id of expected) {
        assert.ok(seen.has(id), `${m.mode} claims to break ${id}, but the oracle saw only: ${[...seen.keys()].join(', ') || 'nothing'}`);
      }
    });
  }
});
