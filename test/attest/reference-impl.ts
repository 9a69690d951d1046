/**
 * An INDEPENDENT second implementation of the §6.5 byte constructions for cross-checking
 * src/attest: node:crypto + Buffer only, written from the spec text, and with a different shape
 * (the recursive RFC 6962 definitions rather than the bottom-up tree). Nothing here imports
 * src/attest.
 */
import { createHash, createPublicKey, verify as nodeVerify } from 'node:crypto';

export interface Link {
  type: string;
  uri?: string | null;
  range?: string | null;
  digest?: string | null;
  method?: string | null;
  by?: string | null;
}

export const h = (...parts: Buffer[]): Buffer => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

export const refEncStr = (s: string): Buffer => {
  const body = Buffer.from(s, 'utf8');
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32BE(body.length);
  return Buffer.concat([prefix, body]);
};

export const refEncOpt = (s: string | null | undefined): Buffer => (s === null || s === undefined ? Buffer.from([0]) : Buffer.concat([Buffer.from([1]), refEncStr(s)]));

export const refEncode = (link: Link): Buffer => Buffer.concat([refEncStr(link.type), refEncOpt(link.uri), refEncOpt(link.range), refEncOpt(link.digest), refEncOpt(link.method), refEncOpt(link.by)]);

export const refHeads = (links: readonly Link[]): Buffer[] => {
  const heads = [h(Buffer.from('contextgraph/attest/1/genesis', 'ascii'))];
  for (const link of links) heads.push(h(Buffer.from('contextgraph/attest/1/link', 'ascii'), heads.at(-1)!, refEncode(link)));
  return heads;
};

export const refCommitment = (providerId: string, frame: { id: string; content_digest?: string | null; provenance?: Link[] }): Buffer =>
  h(Buffer.from('contextgraph/attest/1/frame', 'ascii'), refEncStr(providerId), refEncStr(frame.id), refEncOpt(frame.content_digest), refHeads(frame.provenance ?? []).at(-1)!);

const largestPow2Below = (n: number): number => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};

const refLeaf = (c: Buffer): Buffer => h(Buffer.from([0]), c);
const refNode = (l: Buffer, r: Buffer): Buffer => h(Buffer.from([1]), l, r);

/** MTH, recursively, exactly as §6.5.3 writes it. */
export const refMth = (cs: readonly Buffer[]): Buffer => {
  if (cs.length === 0) return h(Buffer.from('contextgraph/attest/1/merkle-empty', 'ascii'));
  if (cs.length === 1) return refLeaf(cs[0]!);
  const k = largestPow2Below(cs.length);
  return refNode(refMth(cs.slice(0, k)), refMth(cs.slice(k)));
};

/** RFC 6962 §2.1.1 PATH(m, D[n]) as [sibling, sibling_is_left] leaf → root. */
export const refPath = (m: number, cs: readonly Buffer[]): [Buffer, boolean][] => {
  if (cs.length <= 1) return [];
  const k = largestPow2Below(cs.length);
  return m < k ? [...refPath(m, cs.slice(0, k)), [refMth(cs.slice(k)), false]] : [...refPath(m - k, cs.slice(k)), [refMth(cs.slice(0, k)), true]];
};

/** Fold a proof path from a commitment (no shape checks: the caller compares shapes). */
export const refFold = (c: Buffer, path: readonly { sibling: string; sibling_is_left: boolean }[]): Buffer => {
  let current = refLeaf(c);
  for (const step of path) {
    const sibling = Buffer.from(step.sibling.slice('sha256:'.length), 'hex');
    current = step.sibling_is_left ? refNode(sibling, current) : refNode(current, sibling);
  }
  return current;
};

export const render = (b: Buffer): string => `sha256:${b.toString('hex')}`;

/** node:crypto Ed25519 verification (OpenSSL; not strict — only used on honest signatures). */
export const nodeEd25519Verify = (publicKeyHex: string, message: Buffer, signatureHex: string): boolean => {
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKeyHex, 'hex').toString('base64url') }, format: 'jwk' });
  return nodeVerify(null, message, key, Buffer.from(signatureHex, 'hex'));
};

/** Canonical FrameId order by UTF-8 bytes, via Buffer.compare. */
export const refCompareIds = (a: { provider_id: string; frame_id: string; content_digest?: string | null }, b: { provider_id: string; frame_id: string; content_digest?: string | null }): number => {
  const bytes = (s: string) => Buffer.from(s, 'utf8');
  const p = Buffer.compare(bytes(a.provider_id), bytes(b.provider_id));
  if (p !== 0) return p;
  const f = Buffer.compare(bytes(a.frame_id), bytes(b.frame_id));
  if (f !== 0) return f;
  const da = a.content_digest ?? null;
  const db = b.content_digest ?? null;
  if (da === null || db === null) return da === db ? 0 : da === null ? -1 : 1;
  return Buffer.compare(bytes(da), bytes(db));
};
