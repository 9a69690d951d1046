/**
 * The toy embedding space `cgp-fixture-hash/8/l2` (E1): deterministic, dependency-free, and good
 * enough to rank the fixture frames. Each lowercase word is hashed to one of 8 buckets with a
 * sign; the bucket sums are L2-normalised. Not a model: it exists so the provider can declare a
 * fingerprint, score a correctly sized vector and refuse a wrongly sized one.
 */
import { createHash } from 'node:crypto';
import { EMBEDDING_DIMENSIONS } from './catalogue.js';

export function toyEmbedding(text: string, dims: number = EMBEDDING_DIMENSIONS): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9_]+/g) ?? []) {
    const h = createHash('sha256').update(word, 'utf8').digest();
    v[h[0]! % dims]! += (h[1]! & 1) === 1 ? -1 : 1;
  }
  return l2Normalize(v);
}

export function l2Normalize(v: readonly number[]): number[] {
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return norm === 0 ? v.map(() => 0) : v.map((x) => x / norm);
}

/**
 * Similarity of a query vector to a frame vector, mapped from cosine [-1, 1] into the score
 * range [0, 1] (F1) and rounded to 4 decimals so answers are byte-stable.
 */
export function similarityScore(query: readonly number[], frame: readonly number[]): number {
  const q = l2Normalize(query);
  let dot = 0;
  for (let i = 0; i < Math.min(q.length, frame.length); i++) dot += q[i]! * frame[i]!;
  const score = (1 + Math.max(-1, Math.min(1, dot))) / 2;
  return Math.round(score * 10_000) / 10_000;
}
