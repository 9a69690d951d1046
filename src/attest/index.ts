/**
 * §6.5 provenance attestation: construction (encoding, chain, commitment, Merkle root), strict
 * Ed25519, verification with distinct verdicts, and provider-side signing helpers.
 */
export { ascii, bytesEqual, concatBytes, fromLowerHex, sha256, toHex } from './bytes.js';
export { encodeLink, encOpt, encStr, uint32be, utf8, type ProvenanceLinkInput } from './encoding.js';
export { chainHead, chainHeads, chainStep, genesisHead, DOMAIN_GENESIS, DOMAIN_LINK } from './chain.js';
export { contentDigestOf, DIGEST_PREFIX, DOMAIN_FRAME, frameCommitment, frameIdentityOf, parseDigest, renderDigest } from './commitment.js';
export {
  allInclusionProofs,
  auditPathShape,
  canonicalLeaves,
  canonicalOrder,
  compareFrameIdentities,
  compareUtf8,
  DOMAIN_MERKLE_EMPTY,
  emptyRoot,
  inclusionProof,
  leafHash,
  MAX_LEAF_COUNT,
  merkleRoot,
  nodeHash,
  resultSetRoot,
  rootFromProof,
  verifyInclusionProof,
  type CommittedLeaf,
} from './merkle.js';
export { checkEd25519Strict, ED25519_L, ED25519_P, publicKeyOf, signEd25519, verifyEd25519Strict, type StrictRejection, type StrictResult } from './ed25519-strict.js';
export {
  frameKey,
  isAttested,
  RECOGNISED_ALGORITHM,
  verifyAttestation,
  verifyFrameAttestations,
  verifyResultAttestation,
  type AttestationCheck,
  type AttestationFinding,
  type AttestationVerdict,
  type AttestedResultInput,
  type FrameOutcome,
  type FrameVerdict,
  type ProofStatus,
  type ResultVerification,
  type VerifyAttestationInput,
} from './verify.js';
export { attestFrame, attestResult, retainProofs, signCommitment, withResultAttestations, type AttestResultOptions, type ResultAttestations, type SigningKey } from './sign.js';
export { TEST_ONLY_RFC8032_TEST1 } from './test-key.js';
export type { Attestation, AttesterKeyInput, CommittedFrame, FrameAttestationEntry, FrameIdentity, InclusionProofInput, ProofStep } from './types.js';
