// Mutation tests: every required member, every pattern-bearing field and every conditional rule of both
// schemas, enumerated from the schema documents themselves, broken one at a time on a valid fixture.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { DEF_NAMES, validateDef, validateEnvelope, type SchemaIssue, type SchemaProfile } from '../../src/schema/validate.js';
import { isSchemaObject, resolvePointer, type SchemaNode } from '../../src/schema/profile.js';
import { REPO_ROOT, clone, compactFrame, defFixtures, digest, envelopes, fullFrame, hex, referenceFrame, setAt, type Json } from './fixtures.js';

const PROFILES: SchemaProfile[] = ['strict', 'interop'];
const load = (f: string) => JSON.parse(readFileSync(path.join(REPO_ROOT, 'schema', f), 'utf8')) as SchemaNode;
const DOCS = [load('contextgraph-envelope.schema.json'), load('contextgraph-lifecycle-record.schema.json')];
const DEFS: Array<{ name: string; doc: SchemaNode; node: SchemaNode }> = DOCS.flatMap((doc) =>
  Object.entries(doc.$defs as SchemaNode).map(([name, node]) => ({ name, doc, node: node as SchemaNode })),
);
const OBJECT_DEFS = DEFS.filter((d) => d.node.type === 'object');
const FIXTURES = defFixtures();

const fmt = (issues: SchemaIssue[]) => issues.map((x) => x.message).join('\n  ');
function expectIssue(issues: SchemaIssue[], want: Partial<SchemaIssue>, context: string): void {
  const hit = issues.find((x) => Object.entries(want).every(([k, v]) => x[k as keyof SchemaIssue] === v));
  assert.ok(hit, `${context}: expected an issue ${JSON.stringify(want)}, got:\n  ${fmt(issues) || '(none)'}`);
  assert.ok(hit.message.startsWith(`${hit.id} violated at `), hit.message);
}

describe('fixtures', () => {
  test('every object definition (and each root) has a fixture', () => {
    const missing = [...OBJECT_DEFS.map((d) => d.name), 'Envelope', 'LifecycleRecord'].filter((n) => !(n in FIXTURES));
    assert.deepEqual(missing, []);
    for (const name of Object.keys(FIXTURES)) assert.ok(DEF_NAMES.includes(name), `fixture for unknown def ${name}`);
  });

  test('every fixture is valid under both profiles', () => {
    for (const [name, value] of Object.entries(FIXTURES)) {
      for (const profile of PROFILES) assert.deepEqual(validateDef(name, value, profile), [], `${name} (${profile})`);
    }
    for (const frame of [fullFrame(), compactFrame(), referenceFrame()]) {
      for (const profile of PROFILES) assert.deepEqual(validateDef('ContextFrame', frame, profile), []);
    }
  });
});

/**
 * Unconditional required members of a definition: its own `required`, plus those of allOf members that are
 * not conditional (no `if`), following allOf `$ref`s (the lifecycle kinds include RecordEnvelope). Each comes
 * with the id a missing member must be reported under: the annotation of the node that requires it.
 */
function requiredMembers(doc: SchemaNode, node: SchemaNode, seen = new Set<SchemaNode>()): Array<{ member: string; id: string }> {
  if (seen.has(node)) return [];
  seen.add(node);
  const anchor = typeof node['x-cgp-anchor'] === 'string' ? node['x-cgp-anchor'] : 'S2-wire-shape';
  const out = (Array.isArray(node.required) ? (node.required as string[]) : []).map((member) => ({ member, id: anchor }));
  for (const m of Array.isArray(node.allOf) ? node.allOf : []) {
    if (!isSchemaObject(m) || 'if' in m) continue;
    const target = typeof m.$ref === 'string' ? (resolvePointer(doc, m.$ref) as SchemaNode) : m;
    out.push(...requiredMembers(doc, target, seen));
  }
  return out;
}

describe('required members (enumerated from the schemas)', () => {
  const cases = OBJECT_DEFS.flatMap((d) => requiredMembers(d.doc, d.node).map((r) => ({ def: d.name, ...r })));

  test('the enumeration covers the anchored presence rules', () => {
    const has = (def: string, member: string, id: string) =>
      assert.ok(
        cases.some((c) => c.def === def && c.member === member && c.id === id),
        `${def}.${member} → ${id}`,
      );
    has('Relation', 'display_name', 'G1');
    has('Relation', 'target_uri', 'G2');
    has('ContextFrame', 'title', 'F2');
    has('ProviderInfo', 'name', 'H2');
    has('ProviderInfo', 'version', 'H2');
    has('FrameAttestation', 'frame', 'F11');
    has('ContextFrame', 'score', 'S2-wire-shape');
    assert.ok(!cases.some((c) => c.member === 'attester_keys' || c.member === 'frame_attestations' || c.member === 'result_attestation'), 'attestation members are optional');
  });

  for (const c of cases) {
    test(`${c.def}: removing "${c.member}" fails with ${c.id}`, () => {
      const value = clone(FIXTURES[c.def]!);
      assert.ok(isSchemaObject(value) && c.member in value, `fixture ${c.def} lacks ${c.member}`);
      setAt(value, `/${c.member}`, undefined);
      for (const profile of PROFILES) {
        expectIssue(validateDef(c.def, value, profile), { keyword: 'required', pointer: `/${c.member}`, id: c.id }, `${c.def} (${profile})`);
      }
    });
  }
});

/** Every pattern-bearing field and the anchor its violation must carry. */
const PATTERN_FIELDS: Record<string, string> = {
  'HandshakeEnvelope.protocol_version': 'H1',
  'HandshakeAckEnvelope.protocol_version': 'H1',
  'Capabilities.embeddings_fingerprint': 'E1',
  'ContextQuery.as_of': 'F4',
  'ContextFrame.title': 'F2',
  'ContextFrame.content_digest': 'D1',
  'ContextFrame.canonical_content_hash': 'S2-wire-shape',
  'ContextFrame.valid_from': 'F4',
  'ContextFrame.valid_to': 'F4',
  'ContextFrame.recorded_at': 'F4',
  'ContextFrame.citation_label': 'F3',
  'ContentRef.expires_at': 'F4',
  'Provenance.digest': 'F5',
  'Relation.target_uri': 'G2',
  'Relation.display_name': 'G1',
  'FrameEmbedding.fingerprint': 'E1',
  'FrameId.content_digest': 'D1',
  'FrameVerdict.replacement_digest': 'V4',
  'ProvenanceAttestation.signed_commitment': 'F7',
  'ProvenanceAttestation.issued_at': 'F4',
  'ProofStep.sibling': 'S2-wire-shape',
  // ed25519 encodings (docs/interpretations.md §6), conditional on algorithm = ed25519
  'AttesterKey.public_key': 'S2-wire-shape',
  'ProvenanceAttestation.signature': 'S2-wire-shape',
  // lifecycle
  'RecordEnvelope.observed_at': 'S2-wire-shape',
  'RecordEnvelope.valid_from': 'S2-wire-shape',
  'RecordEnvelope.record_hash': 'S2-wire-shape',
  'RecordLink.rel': 'U3',
  'RecordAttestation.signed_record_hash': 'S2-wire-shape',
  'RecordAttestation.issued_at': 'S2-wire-shape',
};

/** Fields of object definitions whose own schema (or its $ref target, or a then-branch override) has a pattern. */
function patternFields(): string[] {
  const out = new Set<string>();
  for (const { name, doc, node } of OBJECT_DEFS) {
    const scan = (props: unknown) => {
      if (!isSchemaObject(props)) return;
      for (const [member, s] of Object.entries(props)) {
        if (!isSchemaObject(s)) continue;
        const target = typeof s.$ref === 'string' ? resolvePointer(doc, s.$ref) : undefined;
        if (typeof s.pattern === 'string' || (isSchemaObject(target) && typeof target.pattern === 'string')) out.add(`${name}.${member}`);
      }
    };
    scan(node.properties);
    for (const m of Array.isArray(node.allOf) ? node.allOf : []) if (isSchemaObject(m) && isSchemaObject(m.then)) scan(m.then.properties);
  }
  return [...out].sort();
}

const badValue = (pattern: string) => (pattern === '\\S' ? '   ' : 'a::b not/valid');

describe('pattern-bearing fields (enumerated from the schemas)', () => {
  test('the expectation table lists exactly the pattern-bearing fields', () => {
    assert.deepEqual(patternFields(), Object.keys(PATTERN_FIELDS).sort());
  });

  for (const [field, id] of Object.entries(PATTERN_FIELDS)) {
    test(`${field}: a value off the pattern fails with ${id}`, () => {
      const [def, member] = field.split('.') as [string, string];
      const { doc, node } = DEFS.find((d) => d.name === def)!;
      const props = node.properties as SchemaNode;
      let s = props[member] as SchemaNode;
      if (typeof s.$ref === 'string') s = resolvePointer(doc, s.$ref) as SchemaNode;
      const pattern = typeof s.pattern === 'string' ? s.pattern : '';
      const value = clone(FIXTURES[def]!);
      setAt(value, `/${member}`, badValue(pattern));
      for (const profile of PROFILES) {
        if (profile === 'interop' && field.endsWith('.protocol_version')) continue; // relaxed to contextgraph/… below
        expectIssue(validateDef(def, value, profile), { keyword: 'pattern', pointer: `/${member}`, id }, `${field} (${profile})`);
      }
    });
  }

  test('near misses: uppercase / short / foreign digests fail D1; offsets and lowercase t fail F4', () => {
    for (const bad of [`sha256:${hex('A', 64)}`, `sha256:${hex('a', 63)}`, `sha1:${hex('a', 64)}`, `SHA256:${hex('a', 64)}`, `sha256:${hex('a', 64)} `]) {
      const frame = fullFrame();
      setAt(frame, '/content_digest', bad);
      for (const profile of PROFILES) expectIssue(validateDef('ContextFrame', frame, profile), { id: 'D1', pointer: '/content_digest' }, bad);
    }
    for (const bad of ['2026-01-01t00:00:00Z', '2026-01-01T00:00:00+00:00', '2026-01-01T00:00Z', '2026-01-01 00:00:00Z', '2026-01-01T00:00:00.Z']) {
      const frame = fullFrame();
      setAt(frame, '/recorded_at', bad);
      for (const profile of PROFILES) expectIssue(validateDef('ContextFrame', frame, profile), { id: 'F4', pointer: '/recorded_at' }, bad);
    }
    for (const ok of ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00.123456Z']) {
      const frame = fullFrame();
      setAt(frame, '/valid_to', ok);
      assert.deepEqual(validateDef('ContextFrame', frame, 'strict'), []);
    }
  });

  test('fingerprints: <model-id>/<dimensions>[/<normalization>] (E1)', () => {
    for (const [fp, ok] of [
      ['bge-small-en-v1.5/384/l2', true],
      ['m/3', true],
      ['m', false],
      ['m/x', false],
      ['/3', false],
      ['m/3/', false],
      ['m/3/a/b', false],
    ] as const) {
      const issues = validateDef('FrameEmbedding', { fingerprint: fp }, 'strict');
      if (ok) assert.deepEqual(issues, [], fp);
      else expectIssue(issues, { id: 'E1', pointer: '/fingerprint' }, fp);
    }
  });

  test('extensions member names must be namespaced (U3)', () => {
    const rec = clone(FIXTURES.ObservationRecord!);
    setAt(rec, '/extensions', { review_channel: 'x', 'acme:': 'y', 'acme:ok': 'z' });
    for (const profile of PROFILES) {
      const issues = validateDef('ObservationRecord', rec, profile);
      expectIssue(issues, { id: 'U3', pointer: '/extensions/review_channel', keyword: 'pattern' }, profile);
      expectIssue(issues, { id: 'U3', pointer: '/extensions/acme:', keyword: 'pattern' }, profile);
      assert.ok(!issues.some((x) => x.pointer === '/extensions/acme:ok'));
    }
  });
});

describe('numeric bounds', () => {
  test('score in [0,1] (F1); u32 bounds; integer token costs', () => {
    for (const [pointer, value, id] of [
      ['/score', 1.0001, 'F1'],
      ['/score', -0.1, 'F1'],
      ['/token_cost', -1, 'S2-wire-shape'],
      ['/token_cost', 4294967296, 'S2-wire-shape'],
      ['/token_cost', 1.5, 'S2-wire-shape'],
      ['/canonical_token_cost', -1, 'S2-wire-shape'],
    ] as const) {
      const frame = fullFrame();
      setAt(frame, pointer, value);
      for (const profile of PROFILES) expectIssue(validateDef('ContextFrame', frame, profile), { id, pointer }, `${pointer}=${value}`);
    }
    const q = envelopes().query!;
    setAt(q, '/query/max_tokens', 4294967296);
    expectIssue(validateEnvelope(q, 'interop'), { pointer: '/query/max_tokens', keyword: 'maximum' }, 'max_tokens');
    const p = FIXTURES.InclusionProof!;
    const zero = clone(p);
    setAt(zero, '/leaf_count', 0);
    expectIssue(validateDef('InclusionProof', zero, 'interop'), { pointer: '/leaf_count', keyword: 'minimum' }, 'leaf_count');
  });

  test('non-empty strings: goal, error message, ids, title (F2), citation_label (F3)', () => {
    const cases: Array<[string, string, string]> = [
      ['query', '/query/goal', 'S2-wire-shape'],
      ['error', '/message', 'S2-wire-shape'],
      ['query', '/id', 'S2-wire-shape'],
      ['verify', '/id', 'S2-wire-shape'],
      ['frames', '/result/frames/0/title', 'F2'],
      ['frames', '/result/frames/0/citation_label', 'F3'],
      ['handshake_ack', '/provider/name', 'H2'],
      ['handshake_ack', '/provider/version', 'H2'],
    ];
    for (const [type, pointer, id] of cases) {
      const env = envelopes()[type]!;
      setAt(env, pointer, '');
      for (const profile of PROFILES) expectIssue(validateEnvelope(env, profile), { pointer, id, keyword: 'minLength' }, `${type} ${pointer}`);
    }
    const nullLabel = envelopes().frames!;
    setAt(nullLabel, '/result/frames/0/citation_label', null);
    expectIssue(validateEnvelope(nullLabel, 'interop'), { pointer: '/result/frames/0/citation_label', id: 'F3', keyword: 'type' }, 'null citation_label');
  });
});

describe('representation rules P1–P4', () => {
  const check = (frame: Json, want: Partial<SchemaIssue>, what: string) => {
    for (const profile of PROFILES) expectIssue(validateDef('ContextFrame', frame, profile), want, `${what} (${profile})`);
  };

  test('P1: a full (or representation-less) frame needs content and carries no content_ref/transform/canonical_content_hash', () => {
    for (const member of ['content_ref', 'transform', 'canonical_content_hash'] as const) {
      for (const representation of ['full', undefined]) {
        const frame = fullFrame();
        setAt(frame, '/representation', representation);
        setAt(frame, `/${member}`, (compactFrame() as { [k: string]: Json })[member]!);
        check(frame, { id: 'P1', pointer: `/${member}`, keyword: 'false schema' }, `${representation ?? 'absent'} + ${member}`);
      }
    }
    for (const representation of ['full', undefined]) {
      const frame = fullFrame();
      setAt(frame, '/representation', representation);
      setAt(frame, '/content', undefined);
      check(frame, { id: 'P1', pointer: '/content', keyword: 'required' }, `${representation ?? 'absent'} without content`);
    }
  });

  test('P2: a compact frame carries all of content, content_digest, canonical_content_hash, transform, content_ref', () => {
    for (const member of ['content', 'content_digest', 'canonical_content_hash', 'transform', 'content_ref']) {
      const frame = compactFrame();
      setAt(frame, `/${member}`, undefined);
      check(frame, { id: 'P2', pointer: `/${member}`, keyword: 'required' }, `compact without ${member}`);
    }
    const nullDigest = compactFrame();
    setAt(nullDigest, '/content_digest', null);
    check(nullDigest, { id: 'P2', pointer: '/content_digest', keyword: 'type' }, 'compact with content_digest null');
  });

  test('P3: a reference frame carries content_ref + canonical_content_hash and no content (not even ""), content_digest or transform', () => {
    for (const member of ['content_ref', 'canonical_content_hash']) {
      const frame = referenceFrame();
      setAt(frame, `/${member}`, undefined);
      check(frame, { id: 'P3', pointer: `/${member}`, keyword: 'required' }, `reference without ${member}`);
    }
    for (const [member, value] of [
      ['content', ''],
      ['content', 'x'],
      ['content_digest', digest('b')],
      ['content_digest', null],
      ['transform', (compactFrame() as { [k: string]: Json }).transform!],
    ] as const) {
      const frame = referenceFrame();
      setAt(frame, `/${member}`, value);
      check(frame, { id: 'P3', pointer: `/${member}`, keyword: 'false schema' }, `reference with ${member}=${JSON.stringify(value)}`);
    }
  });

  test('P4: a reference frame declares token_cost 0', () => {
    const frame = referenceFrame();
    setAt(frame, '/token_cost', 12);
    check(frame, { id: 'P4', pointer: '/token_cost', keyword: 'const' }, 'reference with token_cost 12');
  });

  test('an unknown representation is a shape error in both profiles (the vocabulary is closed)', () => {
    const frame = fullFrame();
    setAt(frame, '/representation', 'summary');
    check(frame, { id: 'S2-wire-shape', pointer: '/representation', keyword: 'enum' }, 'representation summary');
  });
});

describe('other conditional rules', () => {
  test('F5: file provenance carries a digest', () => {
    for (const digestValue of [undefined, null]) {
      const p = clone(FIXTURES.Provenance!);
      setAt(p, '/digest', digestValue);
      for (const profile of PROFILES) expectIssue(validateDef('Provenance', p, profile), { id: 'F5', pointer: '/digest' }, String(digestValue));
    }
    assert.deepEqual(validateDef('Provenance', { type: 'derivation', method: 'summary' }, 'strict'), []);
  });

  test('C5: egress:false admits only local-only scopes', () => {
    const df = { reads: true, writes: false, egress: false, egress_scopes: ['local-only', 'org-tenant', 'acme:vector-store'] };
    for (const profile of PROFILES) {
      const issues = validateDef('DataFlow', df, profile);
      expectIssue(issues, { id: 'C5', pointer: '/egress_scopes/1' }, profile);
      expectIssue(issues, { id: 'C5', pointer: '/egress_scopes/2' }, profile);
      assert.ok(!issues.some((x) => x.pointer === '/egress_scopes/0'));
    }
    assert.deepEqual(validateDef('DataFlow', { reads: true, writes: false, egress: false, egress_scopes: ['local-only'] }, 'strict'), []);
  });

  test('S6.4.1-resolve-declared: advertising compact/reference requires resolve:true', () => {
    for (const resolve of [undefined, false]) {
      const caps = { query: { kinds: [] }, representations: ['full', 'reference'], ...(resolve === undefined ? {} : { resolve }) };
      for (const profile of PROFILES) expectIssue(validateDef('Capabilities', caps, profile), { id: 'S6.4.1-resolve-declared', pointer: '/resolve' }, String(resolve));
    }
    assert.deepEqual(validateDef('Capabilities', { query: { kinds: [] }, representations: ['full'] }, 'strict'), []);
  });

  test('LD2: a constraint directive carries constraint_effect; LX1: a command requirement carries execution_approval_ref', () => {
    const d = clone(FIXTURES.DirectiveRecord!);
    setAt(d, '/constraint_effect', undefined);
    for (const profile of PROFILES) expectIssue(validateDef('DirectiveRecord', d, profile), { id: 'LD2', pointer: '/constraint_effect' }, profile);
    setAt(d, '/directive_kind', 'preference');
    assert.deepEqual(validateDef('DirectiveRecord', d, 'strict'), []);
    const r = { requirement_kind: 'command' };
    for (const profile of PROFILES) expectIssue(validateDef('ContractRequirement', r, profile), { id: 'LX1', pointer: '/execution_approval_ref' }, profile);
  });

  test('LC2: derivation_kind exactly when origin is derived (imported may carry it)', () => {
    const derived = clone(FIXTURES.RecordProposalRecord!);
    setAt(derived, '/provenance/derivation_kind', undefined);
    expectIssue(validateDef('RecordProposalRecord', derived, 'interop'), { id: 'LC2', pointer: '/provenance/derivation_kind', keyword: 'required' }, 'derived');
    const observed = clone(FIXTURES.ObservationRecord!);
    setAt(observed, '/provenance/derivation_kind', 'inference');
    expectIssue(validateDef('ObservationRecord', observed, 'interop'), { id: 'LC2', pointer: '/provenance/derivation_kind', keyword: 'false schema' }, 'observed');
    setAt(observed, '/origin', 'imported');
    assert.deepEqual(validateDef('ObservationRecord', observed, 'strict'), []);
  });
});

describe('attestation members (§6.5)', () => {
  test('handshake_ack.attester_keys, result.frame_attestations and result.result_attestation validate', () => {
    for (const type of ['handshake_ack', 'frames']) {
      for (const profile of PROFILES) assert.deepEqual(validateEnvelope(envelopes()[type]!, profile), [], `${type} ${profile}`);
    }
  });

  test('malformed attestation members fail with their anchors', () => {
    const cases: Array<[string, Json | undefined, Partial<SchemaIssue>]> = [
      ['/result/result_attestation/signed_commitment', 'sha256:abc', { id: 'F7', keyword: 'pattern' }],
      ['/result/frame_attestations/0/attestation/signed_commitment', digest('a').toUpperCase(), { id: 'F7' }],
      ['/result/frame_attestations/0/frame', undefined, { id: 'F11', keyword: 'required' }],
      ['/result/frame_attestations/0/frame/provider_id', undefined, { id: 'S2-wire-shape', keyword: 'required' }],
      ['/result/frame_attestations/0/frame/content_digest', 'sha256:1', { id: 'D1', keyword: 'pattern' }],
      ['/result/result_attestation/signature', hex('e', 127), { id: 'S2-wire-shape', keyword: 'pattern' }],
      ['/result/result_attestation/issued_at', '2026-08-29', { id: 'F4', keyword: 'pattern' }],
      ['/result/result_attestation/key_id', undefined, { id: 'S2-wire-shape', keyword: 'required' }],
      ['/result/frame_attestations/0/inclusion_proof/leaf_count', 0, { keyword: 'minimum' }],
      ['/result/frame_attestations/0/inclusion_proof/path/0/sibling', 'sha256:zz', { keyword: 'pattern' }],
      ['/result/frame_attestations/0/inclusion_proof/path/0/sibling_is_left', 'no', { keyword: 'type' }],
    ];
    for (const [pointer, value, want] of cases) {
      const env = envelopes().frames!;
      setAt(env, pointer, value);
      for (const profile of PROFILES) expectIssue(validateEnvelope(env, profile), { pointer, ...want }, `${pointer} (${profile})`);
    }
    const ack = envelopes().handshake_ack!;
    setAt(ack, '/attester_keys/0/public_key', hex('D7', 32));
    for (const profile of PROFILES) expectIssue(validateEnvelope(ack, profile), { pointer: '/attester_keys/0/public_key', keyword: 'pattern' }, profile);
  });

  test('an unknown algorithm is a strict lint only: the interop profile accepts it with any key/signature encoding (F8/F9)', () => {
    const env = envelopes().frames!;
    setAt(env, '/result/result_attestation/algorithm', 'acme:pq-sig');
    setAt(env, '/result/result_attestation/signature', 'bm90LWhleA==');
    expectIssue(validateEnvelope(env, 'strict'), { id: 'S13-authoring-strict', pointer: '/result/result_attestation/algorithm', keyword: 'enum' }, 'strict');
    assert.deepEqual(validateEnvelope(env, 'interop'), []);
  });

  test('an attestation inside a ContextFrame is an unknown frame member (strict lint; F11 is checked on the wire elsewhere)', () => {
    const env = envelopes().frames!;
    setAt(env, '/result/frames/0/attestation', (FIXTURES.ProvenanceAttestation as Json)!);
    expectIssue(validateEnvelope(env, 'strict'), { id: 'S13-authoring-strict', pointer: '/result/frames/0/attestation', keyword: 'additionalProperties' }, 'strict');
    assert.deepEqual(validateEnvelope(env, 'interop'), []);
  });

  test('verify and verified may carry an id (docs/interpretations.md §4); an empty id fails', () => {
    for (const type of ['verify', 'verified']) {
      const env = envelopes()[type]!;
      assert.deepEqual(validateEnvelope(env, 'strict'), []);
      setAt(env, '/id', undefined);
      assert.deepEqual(validateEnvelope(env, 'strict'), []);
      setAt(env, '/id', '');
      for (const profile of PROFILES) expectIssue(validateEnvelope(env, profile), { pointer: '/id', keyword: 'minLength' }, `${type} ${profile}`);
    }
  });
});
