/**
 * Host-facing checks: pure functions from what the scenario observed (the lines a scripted provider
 * received, what the host returned or threw) to findings. A finding's message starts with the id it
 * witnesses and says what was seen versus what was required (docs/architecture.md "Failure messages").
 */
import { violation, type Finding } from '../../../protocol/findings.js';
import type { FanOutResult } from '../../../host/fan-out.js';
import { describeHostError } from './text.js';

type Line = Record<string, unknown>;

const describe = describeHostError;

/** The query envelopes among the lines a provider received. */
export function queriesIn(lines: readonly Line[]): Line[] {
  return lines.filter((l) => l.type === 'query');
}

/**
 * C1/C2: a provider whose egress is not consented received no query payload, and the host reported
 * the refusal for it (so its caller is told, not silently shortchanged).
 */
export function checkConsentRefused(ids: readonly string[], provider: { label: string; routingId: string }, received: readonly Line[], fanOut: FanOutResult | undefined, thrown: unknown): Finding[] {
  const out: Finding[] = [];
  const queries = queriesIn(received);
  for (const id of ids) {
    if (queries.length > 0) {
      out.push(
        violation(
          id,
          '/query',
          `provider ${JSON.stringify(provider.label)} received ${queries.length} query payload(s) although no recorded consent covers its egress (every off-machine scope needs a live receipt); required: the gate refuses before any payload leaves`,
        ),
      );
    }
  }
  const refused = fanOut?.failures.some((f) => f.routingId === provider.routingId) ?? false;
  if (!refused && thrown === undefined) {
    out.push(
      violation(ids[0] ?? 'C1', '/failures', `the host reported no refusal for not-consented provider ${JSON.stringify(provider.label)}; required: a typed error naming the provider and its scopes`),
    );
  }
  return out;
}

/** C6: the refusal names every off-machine scope that lacks a receipt. */
export function checkRefusalNamesScopes(provider: { label: string; routingId: string }, scopes: readonly string[], fanOut: FanOutResult | undefined, thrown: unknown): Finding[] {
  const failure = fanOut?.failures.find((f) => f.routingId === provider.routingId);
  const text = failure ? describe(failure.error) : thrown !== undefined ? describe(thrown) : '';
  if (text === '') return [violation('C6', '/failures', `no refusal reported for ${JSON.stringify(provider.label)} whose scopes ${scopes.join(', ')} have no receipt`)];
  const missing = scopes.filter((s) => !text.includes(s));
  return missing.length === 0 ? [] : [violation('C6', '/failures', `the refusal for ${JSON.stringify(provider.label)} does not name scope(s) ${missing.join(', ')}: ${JSON.stringify(text)}`)];
}

/** After consent, the query reached the provider and its answer came back. */
export function checkQueryDelivered(id: string, provider: { label: string; routingId: string }, received: readonly Line[], fanOut: FanOutResult | undefined, thrown: unknown): Finding[] {
  if (thrown !== undefined) return [violation(id, '/', `the query with a recorded consent failed: ${describe(thrown)}`)];
  const out: Finding[] = [];
  if (queriesIn(received).length === 0) out.push(violation(id, '/query', `provider ${JSON.stringify(provider.label)} received no query although its egress is consented`));
  const failure = fanOut?.failures.find((f) => f.routingId === provider.routingId);
  if (failure) out.push(violation(id, '/failures', `the host refused consented provider ${JSON.stringify(provider.label)}: ${describe(failure.error)}`));
  return out;
}
