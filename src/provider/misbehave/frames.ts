/** Frame-validity misbehaviours: F1–F5, D1, §6.3 content digest, G1, G2, U3 (rel). */
import { sha256Digest } from '../../protocol/digest.js';
import { contentDigest } from '../engine.js';
import { everyFrame, firstFrame, flipLastHex, type ModeHooks } from './shared.js';

export const FRAME_MODES = {
  'bad-score': { frames: firstFrame((f) => void (f.score = 1.5)) },
  'anchored-over-budget': {
    // ignores max_frames when anchors are given: every frame of the answer twice (second copy renamed)
    frames: (frames, ctx) => (ctx.query.anchors.length > 0 ? [...frames, ...frames.map((f) => ({ ...f, id: `${f.id}-again` }))] : frames),
  },
  'empty-kinds-nothing': {
    // reads kinds: [] as "no kind": answers it with zero frames (a filter naming kinds is honoured)
    frames: (frames, ctx) => (ctx.query.kinds.length === 0 ? [] : frames),
  },
  'bad-score-on-anchored': {
    frames: (frames, ctx) => (ctx.query.anchors.length > 0 ? frames.map((f) => ({ ...f, score: 1.5 })) : frames),
  },
  'negative-score': { frames: firstFrame((f) => void (f.score = -0.25)) },
  'empty-title': { frames: firstFrame((f) => void (f.title = '')) },
  'empty-citation': { frames: firstFrame((f) => void (f.citation_label = '')) },
  'bad-timestamp': { frames: everyFrame((f) => void (f.valid_from = 'last tuesday')) },
  'bad-valid-to': {
    frames: everyFrame((f) => {
      if (typeof f.valid_to === 'string') f.valid_to = f.valid_to.replace('T', ' ').replace(/Z$/, '');
    }),
  },
  'bad-recorded-at': {
    frames: everyFrame((f) => {
      if (typeof f.recorded_at === 'string') f.recorded_at = f.recorded_at.replace(/Z$/, '+00:00');
    }),
  },
  'malformed-digest': {
    stages: { contentDigest: () => 'sha256:abc' },
    frames: everyFrame((f) => {
      for (const p of f.provenance ?? []) if (typeof p.digest === 'string') p.digest = 'sha256:abc';
    }),
  },
  'uppercase-content-digest': {
    stages: {
      contentDigest: (frame, rep) => {
        const honest = contentDigest(frame, rep);
        return `sha256:${honest.slice('sha256:'.length).toUpperCase()}`;
      },
    },
  },
  'stale-digest': {
    frames: everyFrame((f) => {
      for (const p of f.provenance ?? []) if (p.type === 'file' && typeof p.digest === 'string') p.digest = flipLastHex(p.digest);
    }),
  },
  'file-provenance-without-digest': {
    frames: everyFrame((f) => {
      for (const p of f.provenance ?? []) if (p.type === 'file') delete p.digest;
    }),
  },
  'content-digest-mismatch': {
    stages: {
      contentDigest: (frame, rep) => sha256Digest((rep === 'compact' ? frame.compact : frame.content).trim()),
    },
  },
  'empty-relation-display-name': {
    frames: everyFrame((f) => {
      for (const r of f.relations ?? []) r.display_name = '';
    }),
  },
  'empty-relation-target-uri': {
    frames: everyFrame((f) => {
      for (const r of f.relations ?? []) r.target_uri = '';
    }),
  },
  'malformed-namespaced-rel': {
    frames: everyFrame((f) => {
      for (const r of f.relations ?? []) r.rel = 'example-docs:';
    }),
  },
} satisfies ModeHooks;
