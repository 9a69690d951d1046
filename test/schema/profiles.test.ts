// Strict vs interop: the interop profile is derived mechanically and accepts what U1/U2/U3/X1 say a receiver
// must accept; the strict lint rejects it with the authoring-strict id or the vocabulary anchor.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { DEF_NAMES, ENVELOPE_DEFS, RECORD_DEFS, anchorAt, validateDef, validateEnvelope, validateRecord, type SchemaIssue } from '../../src/schema/validate.js';
import { deriveInterop, isSchemaObject, resolvePointer, walkSchema, type SchemaNode } from '../../src/schema/profile.js';
import * as vocab from '../../generated/types/index.js';
import { REPO_ROOT, clone, envelopes, records, setAt, type Json } from './fixtures.js';

const load = (f: string) => JSON.parse(readFileSync(path.join(REPO_ROOT, 'schema', f), 'utf8')) as SchemaNode;
const ENVELOPE = load('contextgraph-envelope.schema.json');
const LIFECYCLE = load('contextgraph-lifecycle-record.schema.json');

const only = (issues: SchemaIssue[]) => issues.map((x) => [x.id, x.pointer, x.keyword]);

describe('U1: unknown members are a strict lint, ignored by interop', () => {
  const cases: Array<[type: string, pointer: string]> = [
    ['handshake', '/future_field'],
    ['handshake_ack', '/capabilities/lifecycle'],
    ['handshake_ack', '/provider/data_flow/future'],
    ['query', '/query/future'],
    ['frames', '/result/frames/0/future_field'],
    ['frames', '/result/frames/0/provenance/0/future_field'],
    ['frames', '/result/frames/0/embedding/future_field'],
    ['frames', '/result/frames/0/relations/0/future_field'],
    ['frames', '/result/frame_attestations/0/inclusion_proof/future'],
    ['verified', '/response/verdicts/0/future'],
    ['shutdown', '/reason'],
    ['error', '/details'],
  ];
  for (const [type, pointer] of cases) {
    test(`${type} ${pointer}`, () => {
      const env = envelopes()[type]!;
      setAt(env, pointer, { any: ['thing'] });
      assert.deepEqual(only(validateEnvelope(env, 'strict')), [['S13-authoring-strict', pointer, 'additionalProperties']]);
      assert.match(validateEnvelope(env, 'strict')[0]!.message, /^S13-authoring-strict violated at .*: saw unknown member/);
      assert.deepEqual(validateEnvelope(env, 'interop'), []);
    });
  }

  test("a lifecycle record carrying another kind's member: strict unevaluatedProperties, interop accepts", () => {
    const rec = records().observation!;
    setAt(rec, '/salience', 0.5);
    assert.deepEqual(only(validateRecord(rec, 'strict')), [['S13-authoring-strict', '/salience', 'unevaluatedProperties']]);
    assert.deepEqual(validateRecord(rec, 'interop'), []);
    const scoped = records().memory!;
    setAt(scoped, '/scope/tenant_id', 't');
    assert.deepEqual(only(validateRecord(scoped, 'strict')), [['S13-authoring-strict', '/scope/tenant_id', 'additionalProperties']]);
    assert.deepEqual(validateRecord(scoped, 'interop'), []);
  });

  test('a failing common member does not make every common member "unevaluated"', () => {
    const rec = records().observation!;
    setAt(rec, '/record_hash', 'sha256:short');
    setAt(rec, '/salience', 1);
    assert.deepEqual(only(validateRecord(rec, 'strict')), [
      ['S2-wire-shape', '/record_hash', 'pattern'],
      ['S13-authoring-strict', '/salience', 'unevaluatedProperties'],
    ]);
  });
});

describe('U2/U3/X1: open vocabularies', () => {
  const cases: Array<[type: string, pointer: string, value: Json, strictId: string]> = [
    ['frames', '/result/frames/0/kind', 'image', 'S13-authoring-strict'],
    ['handshake_ack', '/capabilities/query/kinds/0', 'diagram', 'S13-authoring-strict'],
    ['query', '/query/kinds/0', 'diagram', 'S13-authoring-strict'],
    ['frames', '/result/frames/0/relations/0/rel', 'code.overrides', 'U3'],
    ['frames', '/result/frames/0/relations/0/rel', 'a:b:c', 'U3'],
    ['error', '/code', 'quota_exhausted', 'U3'],
    ['error', '/code', 'acme:', 'U3'],
    ['handshake_ack', '/provider/data_flow/egress_scopes/0', 'cloud', 'U3'],
    ['handshake_ack', '/provider/data_flow/egress_scopes/0', 'a::b', 'U3'],
    ['handshake_ack', '/attester_keys/0/algorithm', 'acme:pq', 'S13-authoring-strict'],
  ];
  for (const [type, pointer, value, strictId] of cases) {
    test(`${type} ${pointer} = ${JSON.stringify(value)}: strict ${strictId}, interop accepts`, () => {
      const env = envelopes()[type]!;
      setAt(env, pointer, value);
      const strict = validateEnvelope(env, 'strict');
      assert.equal(strict.length, 1, strict.map((x) => x.message).join('\n'));
      assert.equal(strict[0]!.id, strictId);
      assert.equal(strict[0]!.pointer, pointer);
      assert.deepEqual(validateEnvelope(env, 'interop'), []);
    });
  }

  test('namespaced custom values pass both profiles', () => {
    const env = envelopes().frames!;
    setAt(env, '/result/frames/0/relations/0/rel', 'myindex:owns');
    const err = envelopes().error!;
    setAt(err, '/code', 'acme:quota_exhausted');
    for (const profile of ['strict', 'interop'] as const) {
      assert.deepEqual(validateEnvelope(env, profile), []);
      assert.deepEqual(validateEnvelope(err, profile), []);
    }
  });

  test('a vocabulary member of the wrong JSON type is a shape error, not a lint, in both profiles', () => {
    const env = envelopes().frames!;
    setAt(env, '/result/frames/0/kind', 5);
    for (const profile of ['strict', 'interop'] as const) {
      assert.deepEqual(only(validateEnvelope(env, profile)), [['S2-wire-shape', '/result/frames/0/kind', 'type']]);
    }
  });
});

describe('H1/H3: protocol_version', () => {
  const hs = (v: Json) => ({ type: 'handshake', protocol_version: v });
  test('strict enforces the version-string grammar; interop accepts any contextgraph/ string (H3 decides)', () => {
    for (const v of ['contextgraph/1.0', 'contextgraph/1.0-draft', 'contextgraph/1.12', 'contextgraph/2.0']) {
      assert.deepEqual(validateEnvelope(hs(v), 'strict'), [], v);
      assert.deepEqual(validateEnvelope(hs(v), 'interop'), [], v);
    }
    for (const v of ['contextgraph/1', 'contextgraph/1.0-rc1', 'contextgraph/one.two', 'contextgraph/2']) {
      assert.deepEqual(only(validateEnvelope(hs(v), 'strict')), [['H1', '/protocol_version', 'pattern']], v);
      assert.deepEqual(validateEnvelope(hs(v), 'interop'), [], v);
    }
    for (const v of ['cgp/1.0', '', 'Contextgraph/1.0']) {
      assert.deepEqual(only(validateEnvelope(hs(v), 'interop')), [['H1', '/protocol_version', 'pattern']], v);
    }
  });
});

describe('discriminators', () => {
  test('validateEnvelope: one issue for a non-object, an absent, non-string or unknown type', () => {
    const cases: Array<[unknown, string, string]> = [
      [[], 'S2-wire-shape', ''],
      ['handshake', 'S2-wire-shape', ''],
      [null, 'S2-wire-shape', ''],
      [{ protocol_version: 'contextgraph/1.0' }, 'S2-wire-shape', '/type'],
      [{ type: 7 }, 'S2-wire-shape', '/type'],
      [{ type: 'subscribe', anything: true }, 'S2.1-unknown-type', '/type'],
    ];
    for (const [value, id, pointer] of cases) {
      for (const profile of ['strict', 'interop'] as const) {
        const issues = validateEnvelope(value, profile);
        assert.equal(issues.length, 1, JSON.stringify(value));
        assert.equal(issues[0]!.id, id);
        assert.equal(issues[0]!.pointer, pointer);
        assert.ok(issues[0]!.message.startsWith(`${id} violated at `));
      }
    }
  });

  test('validateEnvelope picks the branch by type: errors are not multiplied across the oneOf', () => {
    const env = envelopes().query!;
    setAt(env, '/query/max_frames', -1);
    assert.deepEqual(only(validateEnvelope(env, 'strict')), [['S2-wire-shape', '/query/max_frames', 'minimum']]);
    assert.deepEqual(only(validateDef('Envelope', env, 'strict')), only(validateEnvelope(env, 'strict')));
  });

  test('validateRecord: one issue for an unknown record_kind; branch errors otherwise', () => {
    assert.equal(validateRecord({ record_kind: 'rumour' }, 'strict').length, 1);
    assert.equal(validateRecord({ record_kind: 'rumour' }, 'strict')[0]!.pointer, '/record_kind');
    assert.equal(validateRecord({}, 'interop')[0]!.pointer, '/record_kind');
    const rec = records().knowledge!;
    setAt(rec, '/knowledge_kind', 'opinion');
    assert.deepEqual(only(validateRecord(rec, 'interop')), [['S2-wire-shape', '/knowledge_kind', 'enum']]);
    const v = records().evidence!;
    setAt(v, '/schema_version', 'contextgraph/lifecycle/2.0');
    assert.deepEqual(only(validateRecord(v, 'interop')), [['S2-wire-shape', '/schema_version', 'enum']]);
  });

  test('discriminator tables name every branch', () => {
    assert.deepEqual([...ENVELOPE_DEFS.keys()], [...vocab.ENVELOPE_TYPES]);
    assert.deepEqual([...RECORD_DEFS.keys()], [...vocab.RECORD_KINDS]);
    assert.equal(ENVELOPE_DEFS.get('handshake_ack'), 'HandshakeAckEnvelope');
    assert.equal(RECORD_DEFS.get('context_use_feedback'), 'ContextUseFeedbackRecord');
  });

  test('validateDef throws on an unknown definition or profile (a programming error)', () => {
    assert.throws(() => validateDef('NoSuchDef', {}, 'strict'), /unknown schema definition/);
    assert.throws(() => validateDef('ContextFrame', {}, 'lax' as never), /unknown schema profile/);
    assert.ok(DEF_NAMES.includes('RecordAttestation') && DEF_NAMES.includes('Envelope') && DEF_NAMES.includes('LifecycleRecord'));
  });
});

describe('interop derivation (src/schema/profile.ts)', () => {
  for (const [name, strict] of [
    ['envelope', ENVELOPE],
    ['lifecycle', LIFECYCLE],
  ] as const) {
    test(`${name}: closures and closed vocabularies removed, nothing else moved`, () => {
      const interop = deriveInterop(strict);
      assert.notEqual(interop, strict);
      walkSchema(interop, (node, pointer) => {
        if (!isSchemaObject(node)) return;
        assert.notEqual(node.additionalProperties, false, `${pointer}/additionalProperties`);
        assert.notEqual(node.unevaluatedProperties, false, `${pointer}/unevaluatedProperties`);
        if (node['x-cgp-open'] === true) {
          for (const k of ['enum', 'const', 'anyOf', 'oneOf', 'pattern']) assert.ok(!(k in node), `${pointer}/${k}`);
        }
        // Every interop subschema sits at the same pointer in the strict document, with the same anchor.
        const twin = resolvePointer(strict, pointer);
        assert.ok(isSchemaObject(twin), `strict twin of ${pointer}`);
        assert.equal(node['x-cgp-anchor'], twin['x-cgp-anchor'], pointer);
      });
      // The strict source is not mutated.
      assert.deepEqual(strict, load(name === 'envelope' ? 'contextgraph-envelope.schema.json' : 'contextgraph-lifecycle-record.schema.json'));
    });
  }

  test('x-cgp-interop overrides apply (VersionString accepts any contextgraph/ string)', () => {
    const v = (deriveInterop(ENVELOPE).$defs as SchemaNode).VersionString as SchemaNode;
    assert.equal(v.pattern, '^contextgraph/');
    assert.equal(((ENVELOPE.$defs as SchemaNode).VersionString as SchemaNode).pattern, '^contextgraph/[0-9]+\\.[0-9]+(-draft)?$');
  });

  test('anchorAt walks up to the nearest annotation', () => {
    assert.equal(anchorAt(ENVELOPE, '#/$defs/ContextFrame/allOf/3/then/properties/token_cost/const')?.id, 'P4');
    assert.equal(anchorAt(ENVELOPE, '#/$defs/ContextFrame/allOf/3/then/properties/content')?.id, 'P3');
    assert.equal(anchorAt(ENVELOPE, '#/$defs/ContextFrame/properties/score/maximum')?.id, 'F1');
    assert.equal(anchorAt(ENVELOPE, '#/$defs/ContextFrame/additionalProperties'), undefined);
  });
});

describe('schema conventions', () => {
  test('$id, dialect and same-document refs', () => {
    for (const [doc, file] of [
      [ENVELOPE, 'contextgraph-envelope.schema.json'],
      [LIFECYCLE, 'contextgraph-lifecycle-record.schema.json'],
    ] as const) {
      assert.equal(doc.$id, `https://contextgraphprotocol.org/schema/v1/${file}`);
      assert.equal(doc.$schema, 'https://json-schema.org/draft/2020-12/schema');
      walkSchema(doc, (node) => {
        if (isSchemaObject(node) && '$ref' in node) assert.match(String(node.$ref), /^#\/\$defs\/[A-Za-z0-9]+$/);
      });
    }
    assert.deepEqual(LIFECYCLE.unevaluatedProperties, false);
    assert.equal((LIFECYCLE.oneOf as Json[]).length, 12);
    assert.equal((ENVELOPE.oneOf as Json[]).length, 8);
  });

  test('every x-cgp-anchor is a catalogue id (anchors.json / rules.json) or a lifecycle-profile id', (t) => {
    const anchorsFile = path.join(REPO_ROOT, 'generated/anchors.json');
    const rulesFile = path.join(REPO_ROOT, 'generated/rules.json');
    if (!existsSync(anchorsFile) || !existsSync(rulesFile)) return t.skip('rule catalogue not generated yet (generated/anchors.json, rules.json)');
    const ids = (f: string) => {
      const j = JSON.parse(readFileSync(f, 'utf8')) as unknown;
      const list = (Array.isArray(j) ? j : Object.values(j as object).find(Array.isArray)) as Array<{ id: string }>;
      return list.map((x) => x.id);
    };
    const known = new Set([...ids(anchorsFile), ...ids(rulesFile), 'S2-wire-shape', 'S13-authoring-strict', 'S2.1-unknown-type']);
    const LIFECYCLE_PROFILE_IDS = new Set(['LC2', 'LD2', 'LX1']);
    for (const [doc, profileIds] of [
      [ENVELOPE, new Set<string>()],
      [LIFECYCLE, LIFECYCLE_PROFILE_IDS],
    ] as const) {
      walkSchema(doc, (node, pointer) => {
        if (!isSchemaObject(node) || typeof node['x-cgp-anchor'] !== 'string') return;
        const id = node['x-cgp-anchor'];
        assert.ok(known.has(id) || profileIds.has(id), `${pointer}: ${id} is not in the rule catalogue`);
      });
    }
  });

  test('generated base vocabularies equal the spec lists', () => {
    assert.deepEqual([...vocab.FRAME_KINDS], ['snippet', 'symbol', 'fact', 'doc', 'memory', 'episode', 'graph']);
    assert.deepEqual([...vocab.REPRESENTATIONS], ['full', 'compact', 'reference']);
    assert.deepEqual([...vocab.VERDICT_STATUSES], ['valid', 'stale', 'gone', 'unknown']);
    assert.deepEqual([...vocab.BASE_EGRESS_SCOPES], ['local-only', 'org-tenant', 'third-party-index', 'third-party-model']);
    assert.deepEqual(
      [...vocab.BASE_ERROR_CODES],
      ['bad_request', 'unsupported_kind', 'unsupported_representation', 'incompatible_version', 'budget_unsatisfiable', 'unavailable', 'shutting_down', 'internal'],
    );
    assert.deepEqual([...vocab.BASE_RELS], ['code.calls', 'code.imports', 'code.defines', 'code.references', 'doc.documents', 'episode.follows']);
    assert.equal(vocab.RECORD_KINDS.length, 12);
    assert.deepEqual([...vocab.LIFECYCLE_SCHEMA_VERSIONS], ['contextgraph/lifecycle/1.0', 'contextgraph/lifecycle/1.0-draft']);
  });

  test('lifecycle schema_version: 1.0 and 1.0-draft both accepted', () => {
    for (const v of vocab.LIFECYCLE_SCHEMA_VERSIONS) {
      const rec = clone(records().observation!);
      setAt(rec, '/schema_version', v);
      assert.deepEqual(validateRecord(rec, 'strict'), []);
    }
  });
});
