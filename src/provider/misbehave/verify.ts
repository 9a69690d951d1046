/** Verify misbehaviours: V2, V3, V4. */
import { correlationIdOf, errorEnvelope } from '../wire.js';
import type { ModeHooks } from './shared.js';

export const VERIFY_MODES = {
  'rubber-stamp-verify': { verdicts: (vs) => vs.map((v) => ({ frame: v.frame, status: 'valid' as const })) },
  'hollow-verify': { verdicts: (vs) => vs.map((v) => ({ frame: v.frame, status: 'unknown' as const })) },
  'refuse-verify': {
    verify: (_honest, ctx) => ({
      envelopes: [errorEnvelope('internal', 'verification is unavailable', correlationIdOf(ctx.request))],
    }),
  },
  'gone-verified-valid': {
    verdicts: (vs) => vs.map((v) => (v.status === 'gone' ? { frame: v.frame, status: 'valid' as const } : v)),
  },
  'malformed-replacement-digest': {
    verdicts: (vs, ctx) =>
      vs.map((v) => {
        if (v.status !== 'stale') return v;
        const body = ctx.corpus.frames.find((f) => f.spec.id === v.frame.frame_id)?.content ?? '';
        return { ...v, replacement_digest: body };
      }),
  },
} satisfies ModeHooks;
