/**
 * Correlation probes (§3.2: H4, S3.2-id-optional). A provider declaring capabilities.correlation echoes a
 * request's id verbatim on the frames or error answering it — on a normal answer, on an error answer, and
 * with several requests in flight at once. (The echo check itself is in checks.checkReply.)
 */
import { violation, warning } from '../../../protocol/findings.js';
import type { JsonObject } from '../../../protocol/json-value.js';
import { CorrelationError } from '../../../transport/errors.js';
import type { RawEnvelope } from '../../../transport/ndjson.js';
import { describeError, isTargetError } from '../errors.js';
import { GENEROUS, probeQuery, TYPICAL, type ScenarioProbe } from '../scenario.js';

export async function correlatedQuery(p: ScenarioProbe): Promise<void> {
  const envelope = { type: 'query', id: p.nextId(), query: probeQuery(TYPICAL) };
  await p.exchange(envelope, 'a query carrying an id');
}

/**
 * H4 at the edge of "verbatim": an opaque id carrying non-ASCII letters, a quote, a backslash and U+2028 (legal
 * JSON, legal in an NDJSON line once escaped) comes back byte for byte — no normalisation, no re-encoding.
 */
export async function unusualIdQuery(p: ScenarioProbe): Promise<void> {
  const envelope = { type: 'query', id: `${p.nextId()}-\u00fc\u00df-"q"-\\-\u2028-\u2603`, query: probeQuery(TYPICAL) };
  await p.exchange(envelope, 'a query carrying an id with unusual characters');
}

/**
 * H4 at the other edge of "verbatim": an id with surrounding spaces and capital letters comes back as sent —
 * not trimmed, not case-folded (an id is opaque; docs/interpretations.md §82).
 */
export async function spacedCapitalIdQuery(p: ScenarioProbe): Promise<void> {
  const envelope = { type: 'query', id: `  ${p.nextId().toUpperCase()}-MiXeD  `, query: probeQuery(TYPICAL) };
  await p.exchange(envelope, 'a query carrying an id with surrounding spaces and capital letters');
}

/**
 * A query the target must refuse (max_frames is not a u32). With `withId` it carries an id, and the error
 * must echo it (H4); without, it carries one only when the target declares correlation (§3.2).
 */
export async function malformedQuery(p: ScenarioProbe, withId: boolean): Promise<void> {
  const envelope: JsonObject = { type: 'query', query: { goal: 'cgp-conformance probe: malformed on purpose', max_frames: 'many', max_tokens: 100 } };
  if (withId || p.correlation()) envelope.id = p.nextId('bad');
  const reply = await p.exchange(envelope, `a malformed query${envelope.id ? ' carrying an id' : ''} (max_frames "many")`);
  if (reply.type !== 'error') p.notes.push(`the malformed query was answered with "${reply.type}", not error${envelope.id ? '; its id echo was still checked' : ''}`);
}

/** Several queries in flight at once, each with its own id; every reply must carry the id of the query it answers. */
export async function pipelinedQueries(p: ScenarioProbe, n: number): Promise<void> {
  const session = p.session();
  const envelopes = Array.from({ length: n }, (_, i) => ({
    type: 'query',
    id: p.nextId('pipe'),
    query: probeQuery({ max_frames: i + 1, max_tokens: GENEROUS.max_tokens }),
  }));
  p.ledger.witness('H4', n);
  const settle = async (env: (typeof envelopes)[number]): Promise<RawEnvelope | Error | null> => {
    try {
      return session.kind === 'stdio' ? await session.requestWithId(env) : await session.request(env);
    } catch (err) {
      if (isTargetError(err)) return err as Error;
      throw err;
    }
  };
  const replies = await Promise.all(envelopes.map(settle));
  let mismatch: CorrelationError | undefined;
  replies.forEach((reply, i) => {
    const env = envelopes[i]!;
    if (reply instanceof CorrelationError) {
      mismatch ??= reply;
      return;
    }
    if (reply instanceof Error) p.fail(`query ${JSON.stringify(env.id)} of ${n} in flight got no reply (${describeError(reply)})`);
    if (reply === null) p.fail(`query ${JSON.stringify(env.id)} of ${n} in flight was answered 204 No Content; required frames`);
    p.observe(reply, env as unknown as JsonObject, {}, `pipelined query ${i + 1} of ${n}`);
  });
  if (mismatch) {
    p.ledger.add([violation('H4', '/id', `with ${n} queries in flight (ids ${envelopes.map((e) => JSON.stringify(e.id)).join(', ')}): ${mismatch.message.replace(/^H4 violated: /, '')}`)]);
  }
}

/** S3.2-id-optional: `id` is optional — a query without one is answered (lock-step). */
export async function queryWithoutId(p: ScenarioProbe): Promise<void> {
  const envelope = { type: 'query', query: probeQuery(TYPICAL) };
  const reply = await p.exchange(envelope, 'a query without an id');
  p.ledger.witness('S3.2-id-optional');
  if (reply.type !== 'frames') {
    const seen = reply.type === 'error' ? `error ${JSON.stringify(reply.code)} (${JSON.stringify(reply.message)})` : `a "${reply.type}" envelope`;
    p.ledger.add([warning('S3.2-id-optional', '', `a query without an id got ${seen}; id is optional (MAY) and a provider is queried in lock-step without one`)]);
  }
}
