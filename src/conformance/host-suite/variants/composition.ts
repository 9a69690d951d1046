// Host misbehaviour variants of the "composition" group (see src/conformance/host-suite/variants/manifest.ts for the contract):
// the budget audit (B2), budget units (S7.2-budget-token) and prompt composition (D2, F10, R3,
// S6.4.1-unrehydratable-empty, S6.6-single-provider-threshold, S11-compose-reference).
//
// Each is a wrapper around the honest host-under-test surface that reproduces ONE bug faithfully: it
// changes what the honest composer is asked (a budget, thresholds, frame identities) or re-renders the
// honest ComposedPrompt with one safeguard removed, so everything else it returns stays honest.
import type { ContextFrame, ContextQuery } from '../../../../generated/types/index.js';
import type { HostUnderTest } from '../../../host/under-test.js';
import { frameIdKey } from '../../../protocol/identity.js';
import type { ComposedPrompt, ComposeOptions } from '../../../host/compose/types.js';
import { fenceHeader, FENCE_CLOSE, neutralise, PREAMBLE, type RenderedBlock } from '../../../host/compose/render.js';
import type { FanOutResult } from '../../../host/fan-out.js';
import type { HostMisbehaviour } from './manifest.js';
import { renderOwnFormat } from './honest.js';
import type { ProviderAnswer } from '../../../host/types.js';

/** Which safeguard a re-render leaves out. */
export interface RerenderFaults {
  /** Write content verbatim: a `</frame>` in it closes the fence (breaks R3). */
  skipNeutralise?: boolean;
  /** "Rehydrate" a reference frame from what it carries — its content, else its title (breaks S6.4.1). */
  fabricateReference?: boolean;
  /** Prefix every block's content with the provider's raw score as "relevance" (breaks F10). */
  showRawScores?: boolean;
}

/**
 * Re-render the honest composition's admitted frames, in its order and with its attributes, in the
 * block format of render.ts — with the given safeguards left out. With no fault it reproduces the
 * honest text byte for byte (test/conformance/host-suite/checks/composition.test.ts proves it).
 */
export function rerender(composed: ComposedPrompt, answers: readonly ProviderAnswer[], faults: RerenderFaults = {}): ComposedPrompt {
  if (composed.frames.length === 0) return composed;
  const byKey = new Map<string, ContextFrame>();
  for (const a of answers) for (const rf of a.frames) if (!byKey.has(frameIdKey(rf.frameId))) byKey.set(frameIdKey(rf.frameId), rf.frame);
  let text = PREAMBLE;
  let bytes = Buffer.byteLength(PREAMBLE, 'utf8');
  const blocks: RenderedBlock[] = [];
  for (const f of composed.frames) {
    const frame = byKey.get(frameIdKey(f.frameId));
    let content = '';
    if (f.representation === 'reference') {
      if (faults.fabricateReference) content = typeof frame?.content === 'string' ? frame.content : typeof frame?.title === 'string' ? frame.title : '';
    } else if (typeof frame?.content === 'string') {
      content = frame.content;
    }
    if (!faults.skipNeutralise) content = neutralise(content);
    if (faults.showRawScores && typeof frame?.score === 'number') content = `relevance ${frame.score}: ${content}`;
    const header = fenceHeader({
      id: f.frameId.frame_id,
      provider: f.frameId.provider_id,
      kind: f.kind,
      cite: f.citation,
      ...(f.representation === 'full' ? {} : { representation: f.representation }),
    });
    // the spans are where this renderer put the content (so an un-neutralised closer lies inside it)
    const start = bytes;
    const cStart = start + Buffer.byteLength(`${header}\n`, 'utf8');
    const cEnd = cStart + Buffer.byteLength(content, 'utf8');
    bytes = cEnd + Buffer.byteLength(FENCE_CLOSE, 'utf8');
    blocks.push({ frameId: f.frameId, span: [start, bytes], contentSpan: [cStart, cEnd], tokens: f.tokens, citation: f.citation });
    text += `${header}\n${content}${FENCE_CLOSE}`;
  }
  return { ...composed, text, blocks };
}

/** Wrap compose only. */
function composing(honest: HostUnderTest, compose: HostUnderTest['compose']): HostUnderTest {
  return { ...honest, compose };
}

/**
 * B2 bug: the host asks every provider for an unbounded budget, then keeps the first frames of each
 * answer that fit the caller's max_tokens and silently drops the rest — an overspending provider is
 * truncated, not dropped, and nothing is reported.
 */
function truncateOverBudget(honest: HostUnderTest): HostUnderTest {
  return {
    ...honest,
    queryAll: async (query: ContextQuery): Promise<FanOutResult> => {
      const result = await honest.queryAll({ ...query, max_tokens: Number.MAX_SAFE_INTEGER });
      const answers = result.answers.map((a) => {
        let used = 0;
        const frames = a.frames.filter((rf) => {
          const cost = typeof rf.frame.token_cost === 'number' ? rf.frame.token_cost : 0;
          if (used + cost > query.max_tokens) return false;
          used += cost;
          return true;
        });
        return { ...a, query: { ...a.query, max_tokens: query.max_tokens }, frames, result: { ...a.result, frames: frames.map((rf) => rf.frame) } };
      });
      const audits = result.audits.map((au) => ({ ...au, report: `budget audit: provider ${JSON.stringify(au.name)} admitted` }));
      return { ...result, answers, audits };
    },
  };
}

/** B2 bug: the over-budget provider is dropped, but nothing says so (audit report and log scrubbed). */
function quietBudgetDrop(honest: HostUnderTest): HostUnderTest {
  const quiet = (line: string) => !/\bB[12]\b/.test(line);
  return {
    ...honest,
    queryAll: async (query) => {
      const result = await honest.queryAll(query);
      return {
        ...result,
        audits: result.audits.map((au) => (au.admitted ? au : { ...au, report: '', findings: [], reasons: [] })),
        findings: result.findings.filter((f) => f.id !== 'B1' && f.id !== 'B2'),
      };
    },
    logText: async () => (await honest.logText()).split('\n').filter(quiet).join('\n'),
  };
}

/**
 * S7.2 bug: the model budget is used as the budget-token budget (one budget token = one model token,
 * no safety factor).
 */
function noSafetyFactor(honest: HostUnderTest): HostUnderTest {
  return composing(honest, async (answers, opts) => {
    if (opts.modelBudgetTokens === undefined) return honest.compose(answers, opts);
    const { modelBudgetTokens, safetyFactor: _f, ...rest } = opts;
    return honest.compose(answers, { ...rest, budgetTokens: modelBudgetTokens });
  });
}

/**
 * D2 bug: frame identity ignores the triple — every copy of a FrameId is composed as a frame of its
 * own (each copy gets a distinct identity before the honest composer sees it).
 */
/**
 * D2 bug: dedups by (provider id, frame id) alone, ignoring the content_digest — of two versions of one
 * frame id (two connections to one provider, one updated), only the first reaches the prompt.
 */
function dedupByFrameId(honest: HostUnderTest): HostUnderTest {
  return composing(honest, async (answers, opts) => {
    const seen = new Set<string>();
    const kept = answers.map((a) => ({
      ...a,
      frames: a.frames.filter((rf) => {
        const key = JSON.stringify([rf.frameId.provider_id, rf.frameId.frame_id]);
        const first = !seen.has(key) || seen.has(`${key}${frameIdKey(rf.frameId)}`);
        seen.add(key);
        seen.add(`${key}${frameIdKey(rf.frameId)}`);
        return first;
      }),
    }));
    return honest.compose(kept, opts);
  });
}

function noDedup(honest: HostUnderTest): HostUnderTest {
  return composing(honest, async (answers, opts) => {
    const seen = new Map<string, number>();
    const distinct = answers.map((a) => ({
      ...a,
      frames: a.frames.map((rf) => {
        const key = frameIdKey(rf.frameId);
        const n = seen.get(key) ?? 0;
        seen.set(key, n + 1);
        return n === 0 ? rf : { ...rf, frameId: { ...rf.frameId, content_digest: `${rf.frameId.content_digest ?? 'none'}#copy${n}` } };
      }),
    }));
    return honest.compose(distinct, opts);
  });
}

const CROSS_PROVIDER_THRESHOLD = 0.5;

/** F10 bug: one score threshold applied to every provider's raw scores. */
function crossProviderThreshold(honest: HostUnderTest): HostUnderTest {
  return composing(honest, async (answers, opts) => {
    const providerThresholds: Record<string, number> = {};
    for (const a of answers) providerThresholds[a.provider.name] = CROSS_PROVIDER_THRESHOLD;
    return honest.compose(answers, { ...opts, providerThresholds });
  });
}

/** F10 + S6.6 bug: a threshold given for one provider is applied to every provider. */
function thresholdSpills(honest: HostUnderTest): HostUnderTest {
  return composing(honest, async (answers, opts: ComposeOptions) => {
    const given = Object.values(opts.providerThresholds ?? {});
    if (given.length === 0) return honest.compose(answers, opts);
    const threshold = Math.min(...given);
    const providerThresholds: Record<string, number> = {};
    for (const a of answers) providerThresholds[a.provider.name] = threshold;
    return honest.compose(answers, { ...opts, providerThresholds });
  });
}

/** F10 bug: the prompt presents each frame's raw provider score as its relevance. */
function presentRawScores(honest: HostUnderTest): HostUnderTest {
  return composing(honest, async (answers, opts) => rerender(await honest.compose(answers, opts), answers, { showRawScores: true }));
}

/** F10 bug: frames of several providers ordered by raw score with no statement that this is the host's policy. */
function undeclaredOrder(honest: HostUnderTest): HostUnderTest {
  return composing(honest, async (answers, opts) => ({ ...(await honest.compose(answers, { ...opts, placement: 'rank-order' })), strategy: '', policyNote: '' }));
}

/** R3 bug: content is written into its fence verbatim (no neutralisation of fence tokens). */
function unfencedContent(honest: HostUnderTest): HostUnderTest {
  return composing(honest, async (answers, opts) => rerender(await honest.compose(answers, opts), answers, { skipNeutralise: true }));
}

/** S6.4.1 bug: a reference frame is "rehydrated" from what it carries (its title) instead of contributing nothing. */
function renderReferenceContent(honest: HostUnderTest): HostUnderTest {
  return composing(honest, async (answers, opts) => rerender(await honest.compose(answers, opts), answers, { fabricateReference: true }));
}

/** S11 bug: the audit lists only what was admitted — drops go unexplained. */
function unauditedDrops(honest: HostUnderTest): HostUnderTest {
  return composing(honest, async (answers, opts) => {
    const composed = await honest.compose(answers, opts);
    return { ...composed, audit: composed.audit.filter((e) => e.disposition === 'admitted'), dropped: [] };
  });
}

/**
 * S6.4.1 bug in a host with its own prompt format (honest.ts renderOwnFormat): a reference frame is
 * "rehydrated" with text made up from where its content lives — neither its title nor any content it
 * carries, so only its block's content span shows it.
 */
function fabricateReferenceOwnFormat(honest: HostUnderTest): HostUnderTest {
  return composing(honest, async (answers, opts) => renderOwnFormat(await honest.compose(answers, opts), answers, { fabricateReference: true }));
}

export const COMPOSITION_VARIANTS: readonly HostMisbehaviour[] = [
  {
    mode: 'truncate-over-budget',
    breaks: ['B2'],
    description:
      'asks providers for an unbounded budget, then keeps the first frames that fit max_tokens and silently drops the rest (an overspending provider is truncated, not dropped, and not reported)',
    wrap: truncateOverBudget,
  },
  {
    mode: 'quiet-budget-drop',
    breaks: ['B2'],
    description: 'drops an over-budget provider without any report (audit report and B1/B2 log lines scrubbed)',
    wrap: quietBudgetDrop,
  },
  {
    mode: 'no-safety-factor',
    breaks: ['S7.2-budget-token'],
    description: 'composes a model budget of N model tokens as N budget tokens (one budget token treated as one model token)',
    wrap: noSafetyFactor,
  },
  {
    mode: 'no-dedup',
    breaks: ['D2'],
    description: 'composes every copy of a (provider id, frame id, content_digest) triple as a frame of its own',
    wrap: noDedup,
  },
  {
    mode: 'dedup-by-frame-id',
    breaks: ['D2'],
    description: 'dedups frames by (provider id, frame id) alone: of two versions of one frame id with different content_digests, only the first reaches the prompt',
    wrap: dedupByFrameId,
  },
  {
    mode: 'cross-provider-threshold',
    breaks: ['F10', 'S6.6-single-provider-threshold'],
    description: `drops every frame whose raw score is below ${CROSS_PROVIDER_THRESHOLD}, whichever provider served it`,
    wrap: crossProviderThreshold,
  },
  {
    mode: 'threshold-spills',
    breaks: ['F10', 'S6.6-single-provider-threshold'],
    description: "applies a threshold configured for one provider's scores to every provider's",
    wrap: thresholdSpills,
  },
  {
    mode: 'present-raw-scores',
    breaks: ['F10'],
    description: "prefixes every block's content with the provider's raw score as its relevance",
    wrap: presentRawScores,
  },
  {
    mode: 'undeclared-score-order',
    breaks: ['F10'],
    description: 'orders frames of several providers by raw score and states no strategy or policy note (the order passes as a given)',
    wrap: undeclaredOrder,
  },
  {
    mode: 'unfenced-content',
    breaks: ['R3'],
    description: 'writes frame content into its fence verbatim, so a "</frame>" in it closes the block and can forge a sibling',
    wrap: unfencedContent,
  },
  {
    mode: 'render-reference-content',
    breaks: ['S6.4.1-unrehydratable-empty'],
    description: 'renders a reference frame it cannot rehydrate from what it carries (content, else its title) instead of an empty contribution',
    wrap: renderReferenceContent,
  },
  {
    mode: 'fabricate-reference-own-format',
    breaks: ['S6.4.1-unrehydratable-empty'],
    description: 'renders its own prompt format and fills a reference frame it cannot rehydrate with made-up text about where its content lives (neither its title nor its content)',
    wrap: fabricateReferenceOwnFormat,
  },
  {
    mode: 'unaudited-drops',
    breaks: ['S11-compose-reference'],
    description: 'keeps only admitted frames in the composition audit: dropped frames are not explained',
    wrap: unauditedDrops,
  },
];
