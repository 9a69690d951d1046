/**
 * S2-wire-shape: make the target answer every kind of request the suite can send on one connection —
 * generous, tight and per-representation queries, a malformed query (error), a verify when declared — so
 * every reply shape is validated against the interop schema (ScenarioProbe.observe does that per reply).
 */
import type { JsonObject } from '../../../protocol/json-value.js';
import { probeQuery, type ScenarioProbe } from '../scenario.js';
import { queryEveryRepresentation, queryTightTokens } from './query.js';
import { verifyAltered } from './verify.js';

export async function exerciseEveryRequest(p: ScenarioProbe): Promise<void> {
  await queryEveryRepresentation(p);
  await queryTightTokens(p);
  await p.query(probeQuery({ max_frames: 1 }), 'a query with max_frames 1');
  const bad: JsonObject = { type: 'query', query: { goal: 'cgp-conformance probe: malformed on purpose', max_frames: 'many', max_tokens: 1 } };
  if (p.correlation()) bad.id = p.nextId('bad');
  await p.exchange(bad, 'a malformed query (its error reply is validated)');
  if (p.capabilities().verify === true) await verifyAltered(p);
}
