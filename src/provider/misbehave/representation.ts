/** Representation misbehaviours: P1–P5 and the §6.4.1 transport rules. */
import { chooseRepresentation } from '../engine.js';
import type { AckEnvelope } from '../hooks.js';
import type { Representation } from '../wire.js';
import { PROVIDER_NAME } from '../catalogue.js';
import { everyFrame, firstFrame, type ModeHooks } from './shared.js';

function advertising(representations: Representation[]): (ack: AckEnvelope) => AckEnvelope {
  return (ack) => {
    const copy = structuredClone(ack);
    copy.capabilities.representations = representations;
    return copy;
  };
}

export const REPRESENTATION_MODES = {
  'lying-representation': { frames: firstFrame((f) => void (f.representation = 'reference')) },
  'full-with-content-ref': {
    frames: everyFrame((f, ctx) => {
      if (f.representation !== undefined && f.representation !== 'full') return;
      const source = ctx.corpus.frames.find((c) => c.spec.id === f.id);
      f.content_ref = { provider_id: PROVIDER_NAME, uri: source?.contentRefUri ?? `urn:${PROVIDER_NAME}:content:${f.id}` };
    }),
  },
  'compact-missing-canonical-hash': {
    frames: everyFrame((f) => {
      if (f.representation === 'compact') delete f.canonical_content_hash;
    }),
  },
  'compact-full-cost': {
    frames: everyFrame((f) => {
      if (f.representation === 'compact' && f.canonical_token_cost !== undefined) f.token_cost = f.canonical_token_cost;
    }),
  },
  'serve-unadvertised-representation': {
    ack: advertising(['full']),
    stages: { chooseRepresentation: () => ({ ok: true, value: 'compact' }) },
  },
  'answer-unadvertised-preference': {
    stages: {
      chooseRepresentation: (prefs, advertised) => (prefs.some((p) => !advertised.includes(p)) ? { ok: true, value: 'compact' } : chooseRepresentation(prefs, advertised)),
    },
  },
  'reference-over-transport': {
    ack: advertising(['full', 'compact', 'reference']),
    stages: { chooseRepresentation: () => ({ ok: true, value: 'reference' }) },
  },
} satisfies ModeHooks;
