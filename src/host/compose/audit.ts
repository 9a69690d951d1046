/**
 * The composition audit's dropped half: every stage that refuses a frame records it here, with
 * its reason, and buildAudit (stage 8) lists the admitted frames in render order, then the
 * dropped ones in canonical FrameId order — admitted + dropped = offered, always (R3, §11.1).
 */
import type { AuditEntry, ComposedFrame, DroppedAuditEntry, DropReason } from './types.js';
import type { Table } from './table.js';

export interface Drop {
  /** The frame's position in canonical FrameId order (the audit's order of drops). */
  canon: number;
  entry: DroppedAuditEntry;
}

/** Record item i as dropped (`selectionRank` when it was ranked, then refused by the packer). */
export type DropFn = (i: number, reason: DropReason, detail: string, selectionRank?: number) => void;

/** A DropFn that appends to `drops`. */
export function dropRecorder(t: Table, canon: Int32Array, drops: Drop[]): DropFn {
  return (i, reason, detail, selectionRank) => {
    const rf = t.rf[i]!;
    const entry: DroppedAuditEntry = {
      frame: rf.frameId,
      provider: t.provider[i]!,
      rank: rf.rank,
      declaredTokens: rf.frame.token_cost as unknown,
      detail,
      disposition: 'dropped',
      reason,
    };
    if (selectionRank !== undefined) entry.selectionRank = selectionRank;
    drops.push({ canon: canon[i]!, entry });
  };
}

/** 8. The audit: admitted in render order, then dropped in canonical order (sorts `drops` in place). */
export function buildAudit(frames: readonly ComposedFrame[], drops: Drop[], total: number): AuditEntry[] {
  const audit: AuditEntry[] = frames.slice();
  drops.sort((x, y) => x.canon - y.canon);
  for (let d = 0; d < drops.length; d++) audit.push(drops[d]!.entry);
  if (audit.length !== total) {
    throw new Error(`composition audit is not a total partition: ${audit.length} entries for ${total} offered frames`);
  }
  return audit;
}
