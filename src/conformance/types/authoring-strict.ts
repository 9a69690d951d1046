/**
 * S13-authoring-strict (advisory, backed by U1): the PUBLISHED schema (schema/, or CGP_SCHEMA_DIR) is
 * the authoring-strict lint — a member name it does not define (a typo) is rejected — while the interop
 * profile the wire uses (generated/validators/interop) accepts the same document, as U1 requires.
 *
 * The check is behavioural: the schema directory is compiled at run time (Ajv 2020-12, like
 * scripts/generate.ts) and fed valid sample envelopes, each with one unknown member injected at a
 * different depth (the envelope, its payload, a nested object, an array element). A directory whose schema
 * documents are exactly the ones the package's generated strict validators were compiled from (the same
 * documents, member for member: the package's own schema/, unedited) is not compiled again: those
 * validators are that compilation, made by scripts/generate.ts with the same Ajv and formats (compiling the
 * envelope schema takes about 0.2 s).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { violation, type Finding } from '../../protocol/findings.js';
import { validateEnvelope } from '../../schema/validate.js';
import { envelopeSchema, lifecycleSchema } from '../../../generated/validators/documents.js';
import { Envelope as generatedStrictEnvelope } from '../../../generated/validators/strict.js';

const addFormats = addFormatsModule as unknown as (ajv: InstanceType<typeof Ajv2020>) => void;
const ENVELOPE_ID = 'https://contextgraphprotocol.org/schema/v1/contextgraph-envelope.schema.json';

/** The unknown member injected (a plausible typo of a real one). */
export const TYPO = 'contnet_digset';

export interface Probe {
  /** Where the typo went, as a JSON pointer. */
  at: string;
  document: Record<string, unknown>;
}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** Every object inside `doc` (pointer → object), the document itself first. */
function objectsIn(doc: unknown, at = ''): Array<{ at: string; obj: Record<string, unknown> }> {
  if (Array.isArray(doc)) return doc.flatMap((v, i) => objectsIn(v, `${at}/${i}`));
  if (doc === null || typeof doc !== 'object') return [];
  const obj = doc as Record<string, unknown>;
  return [{ at, obj }, ...Object.entries(obj).flatMap(([k, v]) => objectsIn(v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`))];
}

/** One probe per object of each sample: the sample with TYPO added to that object. */
export function typoProbes(samples: readonly Record<string, unknown>[]): Probe[] {
  const probes: Probe[] = [];
  for (const sample of samples) {
    const count = objectsIn(sample).length;
    for (let n = 0; n < count; n++) {
      const document = clone(sample);
      const target = objectsIn(document)[n]!;
      target.obj[TYPO] = true;
      probes.push({ at: target.at, document });
    }
  }
  return probes;
}

/** The schema documents of a directory (its *.schema.json files, by name). */
function schemaDocuments(schemaDir: string): object[] {
  return readdirSync(schemaDir)
    .filter((f) => f.endsWith('.schema.json'))
    .sort()
    .map((file) => JSON.parse(readFileSync(join(schemaDir, file), 'utf8')) as object);
}

/** The documents are the ones the generated strict validators were compiled from (the same members in the same order). */
export function isGeneratedSchema(docs: readonly object[]): boolean {
  const generated = [envelopeSchema, lifecycleSchema].map((d) => JSON.stringify(d)).sort();
  const given = docs.map((d) => JSON.stringify(d)).sort();
  return given.length === generated.length && given.every((d, i) => d === generated[i]);
}

/** The published schema's envelope validator, compiled at run time (Ajv 2020-12 with ajv-formats). */
export function compileEnvelopeAtRunTime(docs: readonly object[], schemaDir: string): (doc: unknown) => boolean {
  const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true });
  addFormats(ajv);
  for (const doc of docs) ajv.addSchema(doc);
  const validate = ajv.getSchema(ENVELOPE_ID);
  if (validate === undefined) throw new Error(`${schemaDir} defines no schema with $id ${ENVELOPE_ID}`);
  return (doc) => validate(doc) === true;
}

function compileEnvelope(schemaDir: string): (doc: unknown) => boolean {
  const docs = schemaDocuments(schemaDir);
  if (isGeneratedSchema(docs)) return (doc) => generatedStrictEnvelope(doc) === true;
  return compileEnvelopeAtRunTime(docs, schemaDir);
}

/**
 * The samples must be valid under the published schema (else the probe proves nothing); then every
 * typo'd copy must be rejected by it and accepted by the interop profile.
 */
export function checkAuthoringStrict(schemaDir: string, samples: readonly Record<string, unknown>[]): { findings: Finding[]; probes: number } {
  const accepts = compileEnvelope(schemaDir);
  const findings: Finding[] = [];
  samples.forEach((s, i) => {
    if (!accepts(s))
      findings.push(violation('S13-authoring-strict', `/samples/${i}`, `sample ${i} (type ${JSON.stringify(s.type)}) is not valid under the published schema, so it cannot probe the lint`));
  });
  if (findings.length > 0) return { findings, probes: 0 };
  const probes = typoProbes(samples);
  for (const p of probes) {
    if (accepts(p.document)) {
      findings.push(
        violation(
          'S13-authoring-strict',
          p.at,
          `the published schema accepts the unknown member ${JSON.stringify(TYPO)} at ${p.at || '/'} of a ${JSON.stringify(p.document.type)} envelope; the authoring-strict lint must reject a member it does not define`,
        ),
      );
    }
    const interop = validateEnvelope(p.document, 'interop');
    if (interop.length > 0) {
      findings.push(violation('U1', p.at, `the interop profile rejects the unknown member ${JSON.stringify(TYPO)} at ${p.at || '/'}: ${interop[0]!.message}; a receiver MUST ignore unknown members`));
    }
  }
  return { findings, probes: probes.length };
}
