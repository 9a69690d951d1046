/**
 * Hand-built valid fixtures for every object definition of both schemas (authoring-strict valid, hence also
 * interop valid), plus helpers shared by the schema tests. Nothing here is copied from ../shared.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SHARED = path.resolve(REPO_ROOT, '../shared');
export const SHARED_PRESENT = existsSync(path.join(SHARED, 'reference-examples'));
export const EXTERNAL_SKIP = `external vectors not run: ${SHARED} is absent`;

export const hex = (c: string, n: number) => c.repeat(n);
export const digest = (c = 'a') => `sha256:${hex(c, 64)}`;
export const TS = '2026-08-29T12:00:00Z';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export const clone = <T>(v: T): T => structuredClone(v);

const frameId = (): Json => ({ provider_id: 'example-docs', frame_id: 'example-docs:retry', content_digest: digest('b') });

const provenanceAttestation = (): Json => ({
  signed_commitment: digest('c'),
  key_id: 'example-docs-ed25519-1',
  algorithm: 'ed25519',
  attester_id: 'example-docs',
  signature: hex('e', 128),
  issued_at: TS,
});

const inclusionProof = (): Json => ({
  leaf_index: 0,
  leaf_count: 2,
  path: [{ sibling: digest('d'), sibling_is_left: false }],
});

const contentRef = (): Json => ({ provider_id: 'example-docs', uri: 'context://example-docs/records/retry', expires_at: '2026-09-01T00:00:00.5Z' });
const transform = (): Json => ({ method: 'extractive_summary', implementation: 'example', version: '1' });

/** A full frame that exercises every optional member a full frame may carry. */
export const fullFrame = (): Json => ({
  id: 'example-docs:retry',
  kind: 'doc',
  title: 'Retry policy',
  content: 'Retries back off exponentially.',
  content_digest: digest('b'),
  uri: 'file:///repo/docs/retry.md',
  representation: 'full',
  content_fidelity: 'exact',
  minimum_content_fidelity: 'normalized',
  inline_content_requirement: 'required',
  score: 0.75,
  token_cost: 8,
  canonical_token_cost: 8,
  tokenizer_ref: 'budget-token/4',
  valid_from: '2026-01-01T00:00:00Z',
  valid_to: null,
  recorded_at: '2026-07-20T18:00:00.123Z',
  provenance: [
    { type: 'file', uri: 'file:///repo/docs/retry.md', range: 'L1-20', digest: digest('0'), method: 'file-read', by: 'example-docs' },
    { type: 'derivation', uri: null, range: null, method: 'summary', by: 'example-docs' },
  ],
  citation_label: 'retry.md L1-20',
  embedding: { fingerprint: 'bge-small-en-v1.5/384/l2', vector: [0.1, -0.2] },
  relations: [{ rel: 'doc.documents', target_uri: 'file:///repo/src/net.rs', display_name: 'net::retry' }],
});

export const compactFrame = (): Json => ({
  id: 'example-docs:retry-compact',
  kind: 'doc',
  title: 'Retry policy (summary)',
  content: 'Back off exponentially.',
  content_digest: digest('b'),
  representation: 'compact',
  content_fidelity: 'summarized',
  canonical_content_hash: digest('f'),
  content_ref: contentRef(),
  transform: transform(),
  score: 0.5,
  token_cost: 6,
  canonical_token_cost: 120,
  citation_label: 'retry.md (summary)',
});

export const referenceFrame = (): Json => ({
  id: 'example-docs:retry-ref',
  kind: 'doc',
  title: 'Retry policy',
  representation: 'reference',
  canonical_content_hash: digest('f'),
  content_ref: contentRef(),
  score: 1,
  token_cost: 0,
  citation_label: 'retry.md',
});

const providerInfo = (): Json => ({
  name: 'example-docs',
  version: '1.0.0',
  data_flow: { reads: true, writes: false, egress: true, egress_scopes: ['third-party-model', 'acme:vector-store'] },
});

const capabilities = (): Json => ({
  query: { kinds: ['doc', 'snippet'] },
  correlation: true,
  graph: true,
  embeddings_fingerprint: 'bge-small-en-v1.5/384/l2',
  verify: true,
  representations: ['full', 'compact', 'reference'],
  resolve: true,
});

const contextQuery = (): Json => ({
  goal: 'why does the retry loop give up',
  query_text: 'retry loop',
  embedding: [0.01, -0.2],
  kinds: ['snippet'],
  anchors: ['file:///repo/src/net.rs'],
  max_frames: 8,
  max_tokens: 2000,
  as_of: '2026-07-01T00:00:00Z',
  representation_preferences: ['compact', 'full'],
});

const contextQueryResult = (): Json => ({
  frames: [fullFrame(), compactFrame(), referenceFrame()],
  truncated: true,
  dropped_estimate: 3,
  frame_attestations: [{ frame: frameId(), attestation: provenanceAttestation(), inclusion_proof: inclusionProof() }, { frame: { provider_id: 'example-docs', frame_id: 'example-docs:retry-ref' } }],
  result_attestation: provenanceAttestation(),
});

const verdicts = (): Json => ({
  verdicts: [
    { frame: frameId(), status: 'valid' },
    { frame: frameId(), status: 'stale', replacement_digest: digest('9') },
    { frame: { provider_id: 'example-docs', frame_id: 'gone' }, status: 'gone' },
    { frame: { provider_id: 'example-docs', frame_id: 'unknown', content_digest: null }, status: 'unknown' },
  ],
});

/** Valid envelopes, one per type. */
export const envelopes = (): Record<string, Json> => ({
  handshake: { type: 'handshake', protocol_version: 'contextgraph/1.0' },
  handshake_ack: {
    type: 'handshake_ack',
    protocol_version: 'contextgraph/1.0',
    provider: providerInfo(),
    capabilities: capabilities(),
    attester_keys: [{ key_id: 'example-docs-ed25519-1', algorithm: 'ed25519', public_key: hex('d7', 32) }],
  },
  query: { type: 'query', id: 'q1', query: contextQuery() },
  frames: { type: 'frames', id: 'q1', result: contextQueryResult() },
  verify: { type: 'verify', id: 'v1', request: { frames: [frameId(), { provider_id: 'example-docs', frame_id: 'no-digest' }] } },
  verified: { type: 'verified', id: 'v1', response: verdicts() },
  shutdown: { type: 'shutdown' },
  error: { type: 'error', id: 'q1', code: 'unsupported_kind', message: "this provider serves only 'doc' frames" },
});

const recordBase = (kind: string): { [k: string]: Json } => ({
  schema_version: 'contextgraph/lifecycle/1.0',
  record_id: `rec_${kind}`,
  lineage_id: `lin_${kind}`,
  record_kind: kind,
  record_status: 'active',
  scope: { repository_id: 'repo_x', session_id: 'sess_1' },
  sharing_scope: 'repository',
  sensitivity: 'internal',
  observed_at: '2026-07-29T14:00:00Z',
  valid_from: '2026-07-29T00:00:00Z',
  confidence: 0.9,
  origin: 'observed',
  evidence_links: ['rec_evidence'],
  record_links: [
    { rel: 'validates', target_record_id: 'rec_knowledge' },
    { rel: 'acme:follows', target_record_id: 'rec_memory' },
  ],
  record_hash: digest('1'),
  provenance: { origin_provider_id: 'provider_x', origin_authority_id: 'authority_x', producer_kind: 'agent', producer_ref: 'agent://x' },
  extensions: { 'acme:review_channel': 'weekly' },
});

/** Valid records, one per record_kind. */
export const records = (): Record<string, Json> => ({
  observation: { ...recordBase('observation'), statement: 'the handler retries three times', subject_ref: 'trace_1' },
  knowledge: { ...recordBase('knowledge'), origin: 'declared', knowledge_kind: 'fact', statement: 'the retry ceiling is five' },
  memory: { ...recordBase('memory'), statement: 'the user prefers terse diffs', salience: 0.7 },
  directive: {
    ...recordBase('directive'),
    origin: 'declared',
    directive_kind: 'constraint',
    statement: 'never log credentials',
    constraint_effect: 'forbid',
    enforcement: 'blocking',
    procedure_steps: ['redact', 'log'],
  },
  record_proposal: {
    ...recordBase('record_proposal'),
    origin: 'derived',
    provenance: { origin_provider_id: 'provider_x', producer_kind: 'agent', derivation_kind: 'inference', source_refs: ['rec_observation'] },
    proposed_kind: 'knowledge',
    rationale: 'seen three times',
  },
  evidence: { ...recordBase('evidence'), statement: 'log shows a timeout', evidence_kind: 'log' },
  artifact_contract: {
    ...recordBase('artifact_contract'),
    contract_name: 'deploy-check',
    requirements: [{ requirement_kind: 'command', description: 'run the smoke test', execution_approval_ref: 'approval_1' }, { requirement_kind: 'review' }],
  },
  contract_validation: {
    ...recordBase('contract_validation'),
    contract_ref: 'rec_artifact_contract',
    outcome: 'pass',
    requirement_results: [{ requirement_kind: 'command', outcome: 'pass', detail: 'ok' }],
  },
  outcome_assessment: { ...recordBase('outcome_assessment'), sharing_scope: 'workspace', subject_ref: 'task_1', assessment: 'shipped', rating: 4 },
  promotion_event: { ...recordBase('promotion_event'), sharing_scope: 'organization', subject_ref: 'rec_memory', to_status: 'knowledge', from_status: 'memory' },
  context_use: { ...recordBase('context_use'), used_record_ref: 'rec_knowledge', selected: true, rendered: true, cited: false, task_ref: 'task_1' },
  context_use_feedback: { ...recordBase('context_use_feedback'), context_use_ref: 'rec_context_use', feedback: 'useful', rating: 1 },
});

/** A valid instance of every object definition (and the roots), keyed by $defs name. */
export function defFixtures(): Record<string, Json> {
  const env = envelopes();
  const rec = records();
  const result = contextQueryResult() as { [k: string]: Json };
  return {
    Envelope: env.frames!,
    HandshakeEnvelope: env.handshake!,
    HandshakeAckEnvelope: env.handshake_ack!,
    QueryEnvelope: env.query!,
    FramesEnvelope: env.frames!,
    VerifyEnvelope: env.verify!,
    VerifiedEnvelope: env.verified!,
    ShutdownEnvelope: env.shutdown!,
    ErrorEnvelope: env.error!,
    ProviderInfo: providerInfo(),
    DataFlow: (providerInfo() as { [k: string]: Json }).data_flow!,
    QueryCapability: { kinds: ['doc'] },
    Capabilities: capabilities(),
    AttesterKey: { key_id: 'k1', algorithm: 'ed25519', public_key: hex('0f', 32) },
    ContextQuery: contextQuery(),
    ContextQueryResult: result,
    ContextFrame: fullFrame(),
    ContentRef: contentRef(),
    Transform: transform(),
    Provenance: { type: 'file', uri: 'file:///a', range: 'L1-2', digest: digest('2'), method: 'file-read', by: 'x' },
    Relation: { rel: 'code.calls', target_uri: 'file:///repo/src/net.rs#retry', display_name: 'net::retry' },
    FrameEmbedding: { fingerprint: 'm/3', vector: [1, 2, 3] },
    FrameId: frameId(),
    VerifyRequest: { frames: [frameId()] },
    VerifyResponse: verdicts(),
    FrameVerdict: { frame: frameId(), status: 'stale', replacement_digest: digest('3') },
    ProvenanceAttestation: provenanceAttestation(),
    FrameAttestation: { frame: frameId(), attestation: provenanceAttestation(), inclusion_proof: inclusionProof() },
    InclusionProof: inclusionProof(),
    ProofStep: { sibling: digest('4'), sibling_is_left: true },
    LifecycleRecord: rec.observation!,
    RecordEnvelope: rec.observation!,
    RecordScope: { user_id: 'u', organization_id: 'o', repository_id: 'r', workspace_id: 'w', environment_id: 'e', session_id: 's', task_id: 't' },
    RecordProvenance: { origin_provider_id: 'p', origin_authority_id: 'a', producer_kind: 'tool', producer_ref: 'tool://x', derivation_kind: 'import', source_refs: ['x'] },
    RecordLink: { rel: 'refines', target_record_id: 'rec_1' },
    ContractRequirement: { requirement_kind: 'command', description: 'd', execution_approval_ref: 'a' },
    RequirementResult: { requirement_kind: 'review', outcome: 'inconclusive', detail: 'd' },
    RecordAttestation: {
      signed_record_hash: digest('5'),
      key_id: 'k1',
      algorithm: 'ed25519',
      attester_id: 'provider_x',
      signature: hex('ab', 36),
      issued_at: TS,
    },
    ObservationRecord: rec.observation!,
    KnowledgeRecord: rec.knowledge!,
    MemoryRecord: rec.memory!,
    DirectiveRecord: rec.directive!,
    RecordProposalRecord: rec.record_proposal!,
    EvidenceRecord: rec.evidence!,
    ArtifactContractRecord: rec.artifact_contract!,
    ContractValidationRecord: rec.contract_validation!,
    OutcomeAssessmentRecord: rec.outcome_assessment!,
    PromotionEventRecord: rec.promotion_event!,
    ContextUseRecord: rec.context_use!,
    ContextUseFeedbackRecord: rec.context_use_feedback!,
  };
}

/** Set (or delete, with `undefined`) the value at a JSON pointer inside `doc`, in place. */
export function setAt(doc: Json, pointer: string, value: Json | undefined): void {
  const tokens = pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = tokens.pop();
  if (last === undefined) throw new Error('cannot replace the root');
  let node: Json = doc;
  for (const t of tokens) node = Array.isArray(node) ? node[Number(t)]! : (node as { [k: string]: Json })[t]!;
  if (Array.isArray(node)) {
    if (value === undefined) node.splice(Number(last), 1);
    else node[Number(last)] = value;
  } else if (value === undefined) delete (node as { [k: string]: Json })[last];
  else (node as { [k: string]: Json })[last] = value;
}
