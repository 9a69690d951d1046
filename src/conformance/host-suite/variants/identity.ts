// Host misbehaviour variants of the "identity" group (see src/conformance/host-suite/variants/manifest.ts for the
// contract): S6.5.2-provider-id (a host naming providers by its local ids where a FrameId leaves it) and an
// A2/A3 bug that only a frame certain to be unrendered shows (docs/interpretations.md §98, §103).
import type { HostUnderTest } from '../../../host/under-test.js';
import type { HostMisbehaviour } from './manifest.js';
import type { ComposedPrompt } from '../../../host/compose/types.js';
import type { AttributionRecord } from '../../../host/attribution.js';
import { renderOwnFormat } from './honest.js';
import { localIds } from './local-ids.js';

/**
 * A3 bug in a lean host: it packs frames by their content cost alone (its chrome is cheap) and reports a
 * frame cited — and so rendered and selected, a coherent record — whenever the model output names its
 * frame id, whether the composition rendered it or not.
 */
function leanCitesNamed(honest: HostUnderTest): HostUnderTest {
  return {
    ...honest,
    compose: async (answers, opts) => {
      const all = await honest.compose(answers, { ...opts, ...(opts.budgetTokens !== undefined ? { budgetTokens: opts.budgetTokens * 64 } : {}) });
      let used = 0;
      const frames = all.frames.filter((f) => {
        const cost = f.representation === 'reference' ? 0 : (f.tokens ?? 0);
        if (opts.budgetTokens !== undefined && used + cost > opts.budgetTokens) return false;
        used += cost;
        return true;
      });
      return renderOwnFormat({ ...all, frames } as ComposedPrompt, answers);
    },
    attribute: async (composed, usage, output) => {
      const rendered = new Set((composed.blocks ?? []).map((b) => `${b.frameId.provider_id}\u0000${b.frameId.frame_id}`));
      const billed = (usage as { frames?: Array<{ frame: { provider_id: string; frame_id: string; content_digest?: string | null } }> }).frames ?? [];
      const uses = billed.map(({ frame }) => {
        const cited = output.includes(frame.frame_id) || (composed.blocks ?? []).some((b) => b.frameId.frame_id === frame.frame_id && b.citation !== undefined && output.includes(b.citation));
        const shown = cited || rendered.has(`${frame.provider_id}\u0000${frame.frame_id}`);
        return { frame, selected: shown, rendered: shown, cited };
      });
      return { uses } as unknown as AttributionRecord;
    },
  };
}

export const IDENTITY_VARIANTS: readonly HostMisbehaviour[] = [
  {
    mode: 'local-provider-ids',
    breaks: ['S6.5.2-provider-id'],
    description:
      'names every provider by a local id that is not its handshake provider.name: in the FrameIds of its usage report and attribution record, and in the identities of a verify on the wire',
    wrap: localIds,
  },
  {
    mode: 'lean-cites-named',
    breaks: ['A2', 'A3'],
    description: 'packs frames by content cost alone (cheap chrome) and reports a frame cited, rendered and selected whenever the model output names its frame id, rendered or not',
    wrap: leanCitesNamed,
  },
];
