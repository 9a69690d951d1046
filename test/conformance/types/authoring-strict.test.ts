// S13-authoring-strict: the published schema rejects an unknown member at every depth of the example
// envelopes while the interop profile accepts it (U1); a copy with the closing keywords removed fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkAuthoringStrict, compileEnvelopeAtRunTime, isGeneratedSchema, typoProbes, TYPO } from '../../../src/conformance/types/authoring-strict.js';
import { Envelope as generatedStrictEnvelope } from '../../../generated/validators/strict.js';

const samples = readFileSync('examples/session.ndjson', 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as Record<string, unknown>);

test('the published schema/ is authoring-strict at every probed depth, and interop accepts every probe', () => {
  const r = checkAuthoringStrict('schema', samples);
  assert.deepEqual(r.findings, []);
  assert.equal(r.probes, typoProbes(samples).length);
  assert.ok(r.probes >= samples.length * 2, `only ${r.probes} probes`);
  // every probe carries exactly one typo
  for (const p of typoProbes(samples)) assert.equal(JSON.stringify(p.document).split(`"${TYPO}"`).length - 1, 1);
});

function mutatedCopy(mutate: (node: Record<string, unknown>) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'cgp-schema-'));
  for (const f of readdirSync('schema').filter((f) => f.endsWith('.schema.json'))) {
    const doc = JSON.parse(readFileSync(join('schema', f), 'utf8')) as unknown;
    const walk = (n: unknown): void => {
      if (n === null || typeof n !== 'object') return;
      if (!Array.isArray(n)) mutate(n as Record<string, unknown>);
      Object.values(n as object).forEach(walk);
    };
    walk(doc);
    writeFileSync(join(dir, f), JSON.stringify(doc));
  }
  return dir;
}

test('a schema copy that no longer closes its objects fails S13-authoring-strict, naming where', () => {
  const open = mutatedCopy((n) => {
    if (n.additionalProperties === false) delete n.additionalProperties;
    if (n.unevaluatedProperties === false) delete n.unevaluatedProperties;
  });
  const r = checkAuthoringStrict(open, samples);
  assert.equal(r.findings.length, r.probes);
  assert.ok(r.findings.every((f) => f.id === 'S13-authoring-strict' && f.message.startsWith('S13-authoring-strict violated')));
});

test('a sample the published schema rejects is reported, not probed', () => {
  const r = checkAuthoringStrict('schema', [{ type: 'handshake' }]);
  assert.equal(r.probes, 0);
  assert.match(r.findings[0]!.message, /not valid under the published schema/);
});

test("the package's own schema/ is the one the generated strict validator was compiled from, and judges every probe as a run-time compilation of it does", () => {
  const docs = readdirSync('schema')
    .filter((f) => f.endsWith('.schema.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join('schema', f), 'utf8')) as object);
  assert.equal(isGeneratedSchema(docs), true);
  const compiled = compileEnvelopeAtRunTime(docs, 'schema');
  const documents = [...samples, ...typoProbes(samples).map((p) => p.document), { type: 'handshake' }, { type: 'frames', result: { frames: [{}] } }];
  for (const d of documents) assert.equal(generatedStrictEnvelope(d) === true, compiled(d), JSON.stringify(d).slice(0, 200));
  // an edited copy is not the generated one: it is compiled at run time (the mutated-copy test above)
  const edited = docs.map((d, i) => (i === 0 ? { ...d, description: 'edited' } : d));
  assert.equal(isGeneratedSchema(edited), false);
  assert.equal(isGeneratedSchema(docs.slice(0, 1)), false);
});
