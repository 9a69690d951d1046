/** Verify misbehaviours: V2, V3, V4. */
import { correlationIdOf, errorEnvelope } from '../wire.js';
import type { ModeHooks } from './shared.js';

export const VERIFY_MODES = {
  'verify-uniform-verdict': {
    // answers every identity of a verify with the first identity's status (right when all agree)
    verdicts: (vs) =>
      vs.map((v) => {
        const first = vs[0]!;
        const out = { frame: v.frame, status: first.status };
        return first.status === 'stale' && v.status === 'stale' && v.replacement_digest !== undefined ? { ...out, replacement_digest: v.replacement_digest } : out;
      }),
  },
  'vouch-foreign-provider-id': {
    // ignores the identity's provider_id: answers it as if it named this provider
    verdicts: (vs, ctx) =>
      vs.map((v) => {
        if (v.status !== 'unknown' || v.frame.provider_id === ctx.ack.provider.name) return v;
        const frame = ctx.corpus.frames.find((f) => f.spec.id === v.frame.frame_id);
        const current = frame ? [frame.contentDigest, frame.compactDigest] : [];
        return current.includes(String(v.frame.content_digest)) ? { frame: v.frame, status: 'valid' as const } : v;
      }),
  },
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
