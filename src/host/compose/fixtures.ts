/**
 * In-memory composition fixtures (ProviderDescriptor / ProviderAnswer builders) shared by the unit
 * tests, bench/compose.ts and composition scenarios. No I/O; honest by default (token_cost = the
 * B3 cost, content_digest = sha256 of the inline bytes, rank = position in the answer).
 */
import type { ContextFrame, ContextQuery } from '../../../generated/types/index.js';
import { sha256Digest } from '../../protocol/digest.js';
import { frameIdOf } from '../../protocol/identity.js';
import { budgetTokens, PROTOCOL_VERSION } from '../../protocol/index.js';
import type { FrameEvidence, ProviderAnswer, ProviderDescriptor, ReceivedFrame } from '../types.js';

export function fixtureProvider(name: string, routingId = `r-${name}`): ProviderDescriptor {
  return {
    routingId,
    name,
    version: '1.0.0',
    transport: 'stdio',
    egress: false,
    offMachineScopes: [],
    ack: {
      type: 'handshake_ack',
      protocol_version: PROTOCOL_VERSION,
      provider: { name, version: '1.0.0', data_flow: { reads: true, writes: false, egress: false } },
      capabilities: { query: { kinds: ['snippet', 'doc', 'fact'] } },
    },
  };
}

export function fixtureQuery(over: Partial<ContextQuery> = {}): ContextQuery {
  return { goal: 'fixture goal', max_frames: 1000, max_tokens: 1_000_000, ...over };
}

/** An honest full frame; `over` may replace anything (set `content_digest: undefined` to drop it). */
export function fixtureFrame(id: string, content: string, over: Partial<ContextFrame> = {}): ContextFrame {
  const frame: ContextFrame = {
    id,
    kind: 'snippet',
    title: `title ${id}`,
    content,
    content_digest: sha256Digest(content),
    score: 0.5,
    token_cost: budgetTokens(content),
    citation_label: `cite ${id}`,
    ...over,
  };
  for (const key of Object.keys(frame) as (keyof ContextFrame)[]) if (frame[key] === undefined) delete frame[key];
  return frame;
}

/** A ProviderAnswer of `frames` in the given order (rank = index) from provider `name`. */
export function fixtureAnswer(
  provider: ProviderDescriptor | string,
  frames: readonly ContextFrame[],
  opts: { query?: ContextQuery; evidence?: (frame: ContextFrame, index: number) => FrameEvidence | undefined; result?: Partial<ProviderAnswer['result']> } = {},
): ProviderAnswer {
  const p = typeof provider === 'string' ? fixtureProvider(provider) : provider;
  const received: ReceivedFrame[] = frames.map((frame, rank) => {
    const rf: ReceivedFrame = { frameId: frameIdOf(p.name, frame), frame, providerRoutingId: p.routingId, rank };
    const ev = opts.evidence?.(frame, rank);
    if (ev !== undefined) rf.evidence = ev;
    return rf;
  });
  return {
    provider: p,
    query: opts.query ?? fixtureQuery(),
    frames: received,
    truncated: false,
    result: { frames: [...frames], truncated: false, ...opts.result },
  };
}
