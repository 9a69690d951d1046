/**
 * Loads the fixture documents at start-up and derives everything byte-dependent from the real
 * bytes: each frame's content (the exact bytes of its line range), the F5 provenance digest of
 * that range, the §6.3 content_digest of the inline content, the B3 token cost, the compact
 * distillation and its digest (P2/P4), and the toy embedding. Because the digests are computed
 * wherever the package is installed, a harness re-reading `uri` + `range` verifies the bytes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sha256Digest } from '../protocol/digest.js';
import { budgetTokens } from '../protocol/token-cost.js';
import { findPackageRoot } from '../util/package-root.js';
import { FIXTURE_DIR, FRAME_SPECS, PROVIDER_NAME, type FrameSpec } from './catalogue.js';
import { toyEmbedding } from './embedding.js';

export interface CorpusRelation {
  rel: string;
  target_uri: string;
  display_name: string;
}

/** One catalogue frame with its bytes-derived facts. */
export interface CorpusFrame {
  spec: FrameSpec;
  /** file:// URI of the fixture file (the frame's `uri` and its provenance `uri`). */
  uri: string;
  /** `L<a>-<b>`, 1-based inclusive, each line including its `\n`. */
  range: string;
  /** The exact bytes of the range, decoded as UTF-8: the full rendering's inline content. */
  content: string;
  /** F5: sha256 of the range bytes. */
  rangeDigest: string;
  /** §6.3: sha256 of the full rendering's inline content (also the canonical_content_hash). */
  contentDigest: string;
  /** B3 cost of `content`. */
  tokenCost: number;
  /** The compact rendering: a first-sentence distillation of `content`. */
  compact: string;
  compactDigest: string;
  compactTokenCost: number;
  /** Opaque resolver handle for compact/reference renderings (distinct from `uri`). */
  contentRefUri: string;
  citationLabel: string;
  relations: CorpusRelation[];
  /** Toy embedding of `content` (cgp-fixture-hash/8/l2). */
  embedding: number[];
}

export interface Corpus {
  root: string;
  /** The provider's handshake version (the package version). */
  version: string;
  frames: CorpusFrame[];
}

/**
 * Bytes of lines a..b (1-based, inclusive), each line including its `\n`; the end is clamped to
 * EOF. No line-ending translation (§6.2).
 */
export function lineRangeBytes(bytes: Uint8Array, first: number, last: number): Uint8Array {
  let line = 1;
  let start = first === 1 ? 0 : -1;
  let end = bytes.length;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== 0x0a) continue;
    if (line === last) {
      end = i + 1;
      break;
    }
    line++;
    if (line === first) start = i + 1;
  }
  if (start < 0 || first < 1 || last < first) throw new RangeError(`line range L${first}-${last} is outside the file`);
  return bytes.subarray(start, end);
}

/**
 * The compact distillation: the first sentence of the first line that is neither blank nor a
 * Markdown heading, with leading comment markers (`///`, `//`) removed.
 */
export function distill(content: string): string {
  for (const raw of content.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const text = line.replace(/^\/{2,3}\s*/, '');
    const sentence = /^(.*?[.!?])(?=\s|$)/.exec(text);
    return sentence ? sentence[1]! : text;
  }
  return content.trim();
}

function fixtureUri(root: string, file: string): string {
  return pathToFileURL(join(root, FIXTURE_DIR, ...file.split('/'))).href;
}

function basename(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1);
}

function readVersion(root: string): string {
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: unknown };
    if (typeof pkg.version === 'string' && pkg.version.trim() !== '') return pkg.version;
  } catch {
    // fall through
  }
  return '0.0.0';
}

export function loadCorpus(root: string = findPackageRoot()): Corpus {
  const files = new Map<string, Uint8Array>();
  const read = (file: string): Uint8Array => {
    let bytes = files.get(file);
    if (!bytes) {
      bytes = readFileSync(join(root, FIXTURE_DIR, ...file.split('/')));
      files.set(file, bytes);
    }
    return bytes;
  };
  const frames = FRAME_SPECS.map((spec): CorpusFrame => {
    const [first, last] = spec.lines;
    const bytes = lineRangeBytes(read(spec.file), first, last);
    const content = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    const compact = distill(content);
    return {
      spec,
      uri: fixtureUri(root, spec.file),
      range: `L${first}-${last}`,
      content,
      rangeDigest: sha256Digest(bytes),
      contentDigest: sha256Digest(content),
      tokenCost: budgetTokens(content),
      compact,
      compactDigest: sha256Digest(compact),
      compactTokenCost: budgetTokens(compact),
      contentRefUri: `urn:${PROVIDER_NAME}:content:${spec.id}`,
      citationLabel: `${basename(spec.file)} L${first}-${last}`,
      relations: spec.relations.map((r) => ({
        rel: r.rel,
        target_uri: 'uri' in r.target ? r.target.uri : fixtureUri(root, r.target.file),
        display_name: r.display_name,
      })),
      embedding: toyEmbedding(content),
    };
  });
  return { root, version: readVersion(root), frames };
}
