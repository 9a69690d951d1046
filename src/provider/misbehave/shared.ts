/** Small building blocks the misbehaviour modes are written with. */
import type { MisbehaviourMode } from '../misbehaviours.js';
import type { Answer, Hooks, QueryContext } from '../hooks.js';
import type { WireFrame } from '../wire.js';

/** A group of modes; `satisfies ModeHooks` rejects a key that is not in the manifest. */
export type ModeHooks = Partial<Record<MisbehaviourMode, Hooks>>;

/** Flip the last hex digit of a well-formed `sha256:<hex>` value (still well-formed, no longer the bytes'). */
export function flipLastHex(digest: string): string {
  return digest.slice(0, -1) + (digest.endsWith('0') ? '1' : '0');
}

export function noReply(): Answer {
  return { envelopes: [], action: { kind: 'ignore' } };
}

export function exitWith(code: number): Answer {
  return { envelopes: [], action: { kind: 'exit', code } };
}

export function hang(): Answer {
  return { envelopes: [], action: { kind: 'hang' } };
}

/** A `frames` hook that rewrites the first frame of every answer. */
export function firstFrame(edit: (frame: WireFrame) => void): NonNullable<Hooks['frames']> {
  return (frames) => {
    const out = frames.map((f) => structuredClone(f));
    if (out[0]) edit(out[0]);
    return out;
  };
}

/** A `frames` hook that rewrites every frame of every answer. */
export function everyFrame(edit: (frame: WireFrame, ctx: QueryContext) => void): NonNullable<Hooks['frames']> {
  return (frames, ctx) =>
    frames.map((f) => {
      const copy = structuredClone(f);
      edit(copy, ctx);
      return copy;
    });
}

/** Nesting depth of a JSON value (a scalar is 0), iterative: a deep value never exhausts this stack. */
export function jsonDepth(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    max = Math.max(max, d + 1);
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}
