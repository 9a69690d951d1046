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
  'anchored-cost-uncounted': {
    // an anchored frame (own uri or a relation target among the anchors) is "free": its cost is not counted
    stages: {
      budget: (frames, q) => {
        const anchored = (f: WireFrame) =>
          (typeof f.uri === 'string' && q.anchors.includes(f.uri)) || (Array.isArray(f.relations) && f.relations.some((r) => q.anchors.includes(String(r.target_uri))));
        const selected: WireFrame[] = [];
        let spent = 0;
        for (const frame of frames) {
          if (selected.length >= q.max_frames) break;
          const free = anchored(frame);
          if (!free && spent + frame.token_cost > q.max_tokens) continue;
          selected.push(frame);
          if (!free) spent += frame.token_cost;
        }
        return { selected, dropped: frames.length - selected.length };
      },
    },
  },
  'silent-truncation': { result: (result) => ({ frames: result.frames, truncated: false }) },
} satisfies ModeHooks;
