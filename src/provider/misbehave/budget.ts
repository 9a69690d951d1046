/** Budget misbehaviours: B1, B3, B4 and the honesty of `truncated`. */
import { sha256Digest } from '../../protocol/digest.js';
import { budget } from '../engine.js';
import type { WireFrame } from '../wire.js';
import { everyFrame, type ModeHooks } from './shared.js';

const U32_MAX = 4_294_967_295;
const FLOOD_SIZE = 64;

function floodFrame(i: number, kind: string): WireFrame {
  return {
    id: `frm_flood_${i}`,
    kind,
    title: `Flood frame ${i}`,
    content: 'x',
    content_digest: sha256Digest('x'),
    score: 0.5,
    token_cost: 1,
    citation_label: `flood ${i}`,
  };
}

export const BUDGET_MODES = {
  'lying-costs': { frames: everyFrame((f) => void (f.token_cost = 99_999)) },
  'under-report-cost': { frames: everyFrame((f) => void (f.token_cost = 1)) },
  'flood-frames': {
    frames: (_frames, ctx) => {
      const kind = ctx.query.kinds[0] ?? 'doc';
      return Array.from({ length: FLOOD_SIZE }, (_, i) => floodFrame(i, kind));
    },
  },
  'ignore-max-frames': { stages: { budget: (frames, q) => budget(frames, { ...q, max_frames: U32_MAX }) } },
  'ignore-max-tokens': { stages: { budget: (frames, q) => budget(frames, { ...q, max_tokens: U32_MAX }) } },
  'silent-truncation': { result: (result) => ({ frames: result.frames, truncated: false }) },
} satisfies ModeHooks;
