/**
 * Host-facing checks of the extensibility & correlation group: unknown members (U1, and the interop-path
 * rule S13-interop-validator), namespaced vendor values (U3, host half) and the demultiplexing of pipelined
 * replies by id (H4, host half: docs/interpretations.md §4 and §19).
 *
 * Pure functions from observations — what connecting raised, the lines a scripted provider RECEIVED (its
 * own record of the wire), what each fan-out returned — to findings. Each message starts with the id it
 * witnesses and says what was seen versus what was required.
 */
import { violation, type Finding } from '../../../protocol/findings.js';
import type { FanOutResult } from '../../../host/fan-out.js';
import { queriesIn } from './consent.js';
import { describeHostError, memberOf } from './text.js';

type Line = Record<string, unknown>;

export interface ProviderSeen {
  label: string;
  /** Undefined when the host refused the provider at the handshake. */
  routingId: string | undefined;
  /** What connecting raised, if the host refused it. */
  connectError: unknown;
  received: readonly Line[];
}

const describe = describeHostError;

const member = memberOf;

function frameIdsOf(fanOut: FanOutResult | undefined, routingId: string): string[] {
  const answer = fanOut?.answers.find((a) => a.provider.routingId === routingId);
  return answer ? answer.frames.map((f) => String(f.frame.id)) : [];
}

function contentsOf(fanOut: FanOutResult | undefined, routingId: string): string[] {
  const answer = fanOut?.answers.find((a) => a.provider.routingId === routingId);
  return answer ? answer.frames.map((f) => String(f.frame.content)) : [];
}

/**
 * U1 (and S13-interop-validator, the same rule stated for the interop path): a provider whose messages
 * carry members the host does not recognise — in its handshake_ack, or its frames reply — is accepted at
 * the handshake, queried, and its answer taken with every frame it served. `unknown` lists where the
 * scenario put them (for the message only).
 */
export function checkUnknownMembersIgnored(
  ids: readonly string[],
  p: ProviderSeen,
  expected: { frameIds: readonly string[]; unknown: readonly string[] },
  fanOut: FanOutResult | undefined,
  thrown: unknown,
): Finding[] {
  const where = expected.unknown.length > 0 ? ` (unknown members at ${expected.unknown.join(', ')})` : '';
  const one = (pointer: string, detail: string): Finding[] => ids.map((id) => violation(id, pointer, detail));
  if (p.connectError !== undefined || p.routingId === undefined) {
    return one(
      '/',
      `the host refused provider ${JSON.stringify(p.label)} at the handshake${where}: ${describe(p.connectError)}; required: members it does not recognise are ignored, never a reason to reject the message`,
    );
  }
  if (thrown !== undefined) {
    return one('/', `the fan-out failed on provider ${JSON.stringify(p.label)}${where}: ${describe(thrown)}; required: its answer taken, unknown members ignored`);
  }
  const out: Finding[] = [];
  if (queriesIn(p.received).length === 0) {
    out.push(...one('/query', `provider ${JSON.stringify(p.label)}${where} received no query; required: connected and queried like any other provider`));
  }
  const failure = fanOut?.failures.find((f) => f.routingId === p.routingId);
  if (failure !== undefined) {
    out.push(
      ...one(
        '/failures',
        `the host rejected provider ${JSON.stringify(p.label)}'s reply${where}: ${describe(failure.error)}; required: members it does not recognise are ignored, never a reason to reject the message`,
      ),
    );
    return out;
  }
  const got = frameIdsOf(fanOut, p.routingId);
  const missing = expected.frameIds.filter((id) => !got.includes(id));
  if (missing.length > 0) {
    out.push(
      ...one(
        '/frames',
        `the host's answer from provider ${JSON.stringify(p.label)}${where} lacks frame(s) ${JSON.stringify(missing)} (it holds ${JSON.stringify(got)}); required: every frame it served, unknown members ignored`,
      ),
    );
  }
  return out;
}

/**
 * U1 (and S13-interop-validator) for an `error` reply: one carrying members the host does not recognise is
 * still read as the provider's error, by its code — reported for that provider (verbatim when the host
 * exposes the code it received), never turned into a malformed-reply refusal.
 */
export function checkUnknownMembersInErrorIgnored(
  ids: readonly string[],
  p: ProviderSeen,
  expected: { code: string; unknown: readonly string[] },
  fanOut: FanOutResult | undefined,
  thrown: unknown,
): Finding[] {
  const where = expected.unknown.length > 0 ? ` (unknown members at ${expected.unknown.join(', ')})` : '';
  const one = (pointer: string, detail: string): Finding[] => ids.map((id) => violation(id, pointer, detail));
  if (thrown !== undefined) return one('/', `the fan-out failed on provider ${JSON.stringify(p.label)}'s error reply${where}: ${describe(thrown)}; required: one failed leg, its error read by code`);
  const failure = p.routingId === undefined ? undefined : fanOut?.failures.find((f) => f.routingId === p.routingId);
  if (failure === undefined)
    return one(
      '/failures',
      `the host reported no error for provider ${JSON.stringify(p.label)}, which answered error ${JSON.stringify(expected.code)}${where}; required: the error reported for that provider`,
    );
  const raw = member(failure.error, 'rawCode');
  const readByCode = raw !== undefined ? raw === expected.code : describe(failure.error).includes(expected.code);
  if (!readByCode) {
    return one(
      '/failures',
      `the host reported provider ${JSON.stringify(p.label)}'s error reply${where} as ${JSON.stringify(describe(failure.error))}${raw !== undefined ? ` (code ${JSON.stringify(raw)})` : ''}; required: read as the error ${JSON.stringify(expected.code)} it is — members it does not recognise are ignored, never a reason to reject the message`,
    );
  }
  return [];
}

/**
 * U3 (host half) for error codes: a namespaced code (`acme:unavailable`) is a vendor value, never the base
 * code after its colon. It is reported verbatim for its provider and read as unrecognised — internal (X1),
 * not retryable — and the query is sent exactly once.
 */
export function checkNamespacedCodeNotBase(p: ProviderSeen, rawCode: string, fanOut: FanOutResult | undefined, thrown: unknown): Finding[] {
  const base = rawCode.slice(rawCode.indexOf(':') + 1);
  const out: Finding[] = [];
  const queries = queriesIn(p.received).length;
  if (queries !== 1) {
    out.push(
      violation(
        'U3',
        '/query',
        `provider ${JSON.stringify(p.label)} answered with error code ${JSON.stringify(rawCode)} and received the query ${queries} time(s); required: exactly once — a vendor code is not the base ${JSON.stringify(base)}`,
      ),
    );
  }
  if (thrown !== undefined) {
    out.push(violation('U3', '/', `the fan-out failed on provider ${JSON.stringify(p.label)}'s error code ${JSON.stringify(rawCode)}: ${describe(thrown)}; required: one failed leg, reported`));
    return out;
  }
  const failure = p.routingId === undefined ? undefined : fanOut?.failures.find((f) => f.routingId === p.routingId);
  if (failure === undefined) {
    out.push(
      violation(
        'U3',
        '/failures',
        `the host reported no error for provider ${JSON.stringify(p.label)}, which answered with error code ${JSON.stringify(rawCode)}; required: a well-formed namespaced code reported, never dropped or rejected`,
      ),
    );
    return out;
  }
  const raw = member(failure.error, 'rawCode');
  if (raw !== undefined && raw !== rawCode) {
    out.push(
      violation(
        'U3',
        '/failures',
        `the host reports provider ${JSON.stringify(p.label)}'s error code as ${JSON.stringify(raw)}; required: the namespaced code ${JSON.stringify(rawCode)} verbatim, never confused with a base code`,
      ),
    );
  }
  const effective = member(failure.error, 'effectiveCode');
  if (effective !== undefined && effective !== 'internal') {
    out.push(
      violation(
        'U3',
        '/failures',
        `the host acts on provider ${JSON.stringify(p.label)}'s error code ${JSON.stringify(rawCode)} as ${JSON.stringify(effective)}; required: a vendor code the host does not recognise, read as internal — never as the base code after its colon`,
      ),
    );
  }
  if (member(failure.error, 'retryable') === true) {
    out.push(
      violation(
        'U3',
        '/failures',
        `the host reports provider ${JSON.stringify(p.label)}'s error code ${JSON.stringify(rawCode)} as retryable (as if it were ${JSON.stringify(base)}); required: unrecognised, so internal: never retried`,
      ),
    );
  }
  return out;
}

/**
 * U3 (host half) for egress scopes: a namespaced scope (`acme:local-only`) is a custom scope, never the
 * base scope after its colon; unrecognised, it is off-machine (§4.1), so without a receipt for it the
 * provider is not queried and the refusal names it.
 */
export function checkNamespacedScopeNotBase(p: ProviderSeen, scope: string, fanOut: FanOutResult | undefined, thrown: unknown): Finding[] {
  const base = scope.slice(scope.indexOf(':') + 1);
  const out: Finding[] = [];
  if (p.connectError !== undefined || p.routingId === undefined) {
    return [
      violation(
        'U3',
        '/provider/data_flow/egress_scopes',
        `the host refused provider ${JSON.stringify(p.label)} declaring the well-formed namespaced scope ${JSON.stringify(scope)}: ${describe(p.connectError)}; required: accepted, the scope treated as an unrecognised custom scope`,
      ),
    ];
  }
  const queries = queriesIn(p.received).length;
  if (queries > 0) {
    out.push(
      violation(
        'U3',
        '/query',
        `provider ${JSON.stringify(p.label)} received ${queries} query payload(s) with no receipt for its scope ${JSON.stringify(scope)}; the host read it as the base scope ${JSON.stringify(base)}; required: a namespaced scope is never a base one — unrecognised, it is off-machine and needs its own receipt`,
      ),
    );
  }
  const failure = fanOut?.failures.find((f) => f.routingId === p.routingId);
  const text = failure ? describe(failure.error) : thrown !== undefined ? describe(thrown) : '';
  if (text === '') {
    out.push(
      violation(
        'U3',
        '/failures',
        `the host reported no refusal for provider ${JSON.stringify(p.label)} whose scope ${JSON.stringify(scope)} has no receipt; required: refused, naming ${JSON.stringify(scope)}`,
      ),
    );
  } else if (!text.includes(scope)) {
    out.push(violation('U3', '/failures', `the refusal for provider ${JSON.stringify(p.label)} does not name its scope ${JSON.stringify(scope)} verbatim: ${JSON.stringify(text)}`));
  }
  return out;
}

/** One query of a pipelined run and what the host handed back for it. */
export interface PipelinedQuery {
  goal: string;
  fanOut: FanOutResult | undefined;
  thrown: unknown;
}

/**
 * H4 (host half): queries in flight together on one correlating connection, answered out of order, each
 * get the frames of their OWN goal (the scripted provider echoes the goal into every frame it serves) —
 * replies are demultiplexed by id, never handed to whichever request is waiting longest.
 */
export function checkRepliesDemultiplexed(p: { label: string; routingId: string; received: readonly Line[] }, runs: readonly PipelinedQuery[]): Finding[] {
  const out: Finding[] = [];
  const goals = runs.map((r) => r.goal);
  const sent = queriesIn(p.received);
  if (sent.length !== runs.length) {
    out.push(violation('H4', '/query', `provider ${JSON.stringify(p.label)} received ${sent.length} query(ies) for the ${runs.length} fanned out; required: each sent once`));
  }
  for (const r of runs) {
    if (r.thrown !== undefined) {
      out.push(violation('H4', '/', `the fan-out of ${JSON.stringify(r.goal)} failed: ${describe(r.thrown)}; required: answered with its own frames`));
      continue;
    }
    const failure = r.fanOut?.failures.find((f) => f.routingId === p.routingId);
    if (failure !== undefined) {
      out.push(
        violation(
          'H4',
          '/failures',
          `the query ${JSON.stringify(r.goal)} to provider ${JSON.stringify(p.label)} failed: ${describe(failure.error)}; required: every correctly echoed reply delivered to its own request`,
        ),
      );
      continue;
    }
    const contents = contentsOf(r.fanOut, p.routingId);
    if (contents.length === 0) {
      out.push(violation('H4', '/frames', `the query ${JSON.stringify(r.goal)} got no frames from provider ${JSON.stringify(p.label)}; required: the frames of the reply carrying its id`));
      continue;
    }
    const foreign = contents.filter((c) => c !== `goal: ${r.goal}`);
    if (foreign.length > 0) {
      const whose = goals.filter((g) => g !== r.goal && foreign.includes(`goal: ${g}`));
      out.push(
        violation(
          'H4',
          '/id',
          `the query ${JSON.stringify(r.goal)} was handed frames ${JSON.stringify(foreign)}${whose.length > 0 ? ` — the answer to ${JSON.stringify(whose)}` : ''}; required: replies demultiplexed by id, so each request gets only the reply carrying its own id`,
        ),
      );
    }
  }
  return out;
}

/**
 * H4 (host half). H4 binds the provider (echo the id); what binds the host is that a reply carrying a
 * wrong id, no id, or another request's id is never delivered as the answer to the query in flight.
 * Whatever the host does instead is correct: a correlation failure, a time-out, a failure under any other
 * name, or dropping the leg — so only a delivered answer is a violation (docs/interpretations.md).
 */
export function checkCorrelationFailureReported(p: { label: string; routingId: string }, how: string, fanOut: FanOutResult | undefined, thrown: unknown): Finding[] {
  if (thrown !== undefined) return [];
  const frames = frameIdsOf(fanOut, p.routingId);
  const answered = fanOut?.answers.some((a) => a.provider.routingId === p.routingId) ?? false;
  if (!answered) return [];
  const failure = fanOut?.failures.find((f) => f.routingId === p.routingId);
  return [
    violation(
      'H4',
      '/id',
      `the host took provider ${JSON.stringify(p.label)}'s reply with ${how} as the answer to its query (frames ${JSON.stringify(frames)}${failure ? `; it also reported ${JSON.stringify(describe(failure.error))}` : ''}); required: a reply that does not carry the request's id is never delivered as its answer (timing the leg out or failing it under any name is correct)`,
    ),
  ];
}
