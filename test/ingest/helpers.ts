import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findPackageRoot } from '../../src/util/package-root.js';
import { createIngestProvider, ingest, type IngestResult } from '../../src/ingest/index.js';
import type { ContextFrame } from '../../generated/types/index.js';

export const ROOT = findPackageRoot();
export const EXAMPLE_DIR = join(ROOT, 'fixtures', 'ingest', 'worked-example');
/** The five attachments of the worked example, in paste order. */
export const EXAMPLE_FILES = ['retry.log', 'endpoints.csv', 'trace.txt', 'paths.txt', 'note.txt'];
export const EXAMPLE_INTENT = readFileSync(join(EXAMPLE_DIR, 'intent.txt'), 'utf8').replace(/\n$/, '');

export function exampleAttachments(order: readonly string[] = EXAMPLE_FILES): Array<{ name: string; content: Buffer }> {
  return order.map((f) => ({ name: f, content: readFileSync(join(EXAMPLE_DIR, f)) }));
}

export function ingestExample(order: readonly string[] = EXAMPLE_FILES): IngestResult {
  return ingest({ intent: EXAMPLE_INTENT, attachments: exampleAttachments(order) });
}

/** A query through the provider core (in-process), returning the frames of the reply. */
export function requery(result: IngestResult, preferences: string[], extra: Record<string, unknown> = {}, transport = false): ContextFrame[] {
  const provider = createIngestProvider(result.store, { transport });
  const reply = provider.handle({ type: 'query', id: 'q', query: { goal: result.query.goal, max_frames: 1000, max_tokens: 100_000_000, representation_preferences: preferences, ...extra } });
  const env = reply.envelopes[0] as { type: string; result?: { frames: ContextFrame[] }; message?: string };
  if (env.type !== 'frames') throw new Error(`expected frames, got ${JSON.stringify(env)}`);
  return env.result!.frames;
}
