/**
 * Probes that need a connection of their own (docs/architecture.md "Performance": fresh processes only where a scenario needs one):
 * handshakes with other versions (H1/S3.1, H3), a query before the handshake (S3-handshake-first), malformed
 * input (R1, decision 8), shutdown (R2, decision 7), unknown members (U1, S13-interop-validator), unknown
 * envelope types (S2.1-unknown-type, S3.2-notification) and raw framing (S2.1-no-newline).
 */
import { violation, warning, type Finding } from '../../../protocol/findings.js';
import { isJsonObject, type JsonObject } from '../../../protocol/json-value.js';
import { PROTOCOL_VERSION, versionsCompatible } from '../../../protocol/version.js';
import { HttpStatusError, InvalidUtf8Error, NotAnEnvelopeError, PeerClosedError, TimeoutError } from '../../../transport/errors.js';
import type { RawEnvelope } from '../../../transport/ndjson.js';
import { describeError, HarnessError, isTargetError } from '../errors.js';
import { judgeForeign, judgeInFamily, performHandshake } from '../handshake.js';
import { probeQuery, TYPICAL, type ScenarioProbe } from '../scenario.js';
import type { StdioSession } from '../session.js';

/*
 * No probe listens for a fixed window for a reply that should not come. Silence is proven by what
 * the target does next (docs/interpretations.md §24):
 * - a follow-up valid query (followUp): the replies that arrive before its frames are the late answers to
 *   what was sent earlier. Lock-step (no correlation): replies come in request order, so nothing later can
 *   answer the earlier input; with correlation, the target has answered a later request, by its id.
 * - the end of the session (StdioSession.drainToEnd: shutdown, end of input, read to EOF), where the
 *   connection has nothing left to do: every line the target wrote is then in hand.
 */

/** At most this many envelopes are read while waiting for a follow-up's answer. */
const FOLLOW_UP_MAX = 8;

/**
 * Send a valid query and read until its answer (its id with correlation, else the first frames); returns the
 * envelopes that came before it. The answer is checked like every reply. A target error ends the follow-up
 * with what was read so far (the probe that owns the silence judges it; the failure is a note here).
 */
async function followUp(p: ScenarioProbe, session: StdioSession, correlation: boolean, purpose: string): Promise<RawEnvelope[]> {
  const query: JsonObject = { type: 'query', query: probeQuery(TYPICAL) };
  if (correlation) query.id = p.nextId('follow-up');
  const before: RawEnvelope[] = [];
  try {
    await session.send(query);
    for (let i = 0; i < FOLLOW_UP_MAX; i++) {
      const reply = await session.next(p.config.timeouts.requestMs);
      if (correlation ? reply.id === query.id : reply.type === 'frames') {
        p.observe(reply, query, {}, `a follow-up query (${purpose})`);
        return before;
      }
      before.push(reply);
    }
    p.notes.push(`a follow-up query (${purpose}) was not answered among the next ${FOLLOW_UP_MAX} envelopes`);
  } catch (err) {
    if (!isTargetError(err)) throw err;
    p.notes.push(`a follow-up query (${purpose}): ${describeError(err)}`);
  }
  return before;
}

/** Every envelope the target still writes on this connection, until it ends (shutdown, end of input, EOF). */
async function rest(p: ScenarioProbe, session: StdioSession): Promise<RawEnvelope[]> {
  const { items, dropped, result } = await session.drainToEnd();
  if (result.killed) p.notes.push(`the target was still running ${p.config.timeouts.shutdownGraceMs} ms after shutdown and end of input; it was killed (judged by R2, not here)`);
  if (dropped > 0) p.notes.push(`${dropped} further line(s) after the first ${items.length} were not kept`);
  return items.filter((i): i is RawEnvelope => !(i instanceof Error));
}

function stdio(p: ScenarioProbe): StdioSession {
  const s = p.session();
  if (s.kind !== 'stdio') throw new HarnessError('this probe needs the stdio binding (tag the scenario @needs-stdio)');
  return s;
}

function seen(reply: RawEnvelope): string {
  return reply.type === 'error' ? `error ${JSON.stringify(reply.code)} (${JSON.stringify(reply.message)})` : `a "${reply.type}" envelope`;
}

// ── handshakes ──────────────────────────────────────────────────────────────────────────────────

/** Handshake the fresh connection with `version`: in-family ⇒ H1/S3.1 rules, foreign ⇒ H3. */
export async function handshakeWith(p: ScenarioProbe, version: string): Promise<void> {
  const session = p.fresh ?? (await p.useFresh());
  const outcome = await performHandshake(session, version);
  if (versionsCompatible(version, PROTOCOL_VERSION)) p.merge(judgeInFamily(outcome, p.config.target));
  else p.merge(judgeForeign(outcome, p.config.timeouts.handshakeMs));
}

/**
 * H1 on an established connection: a second handshake is still a handshake, and gets a reply — a
 * handshake_ack (judged like the first), or an error (accepted: it is not silence; docs/interpretations.md
 * §83). No reply at all is the violation. Over stdio silence is proven by a valid query sent after it (its
 * answer coming first in lock-step), or, with correlation, by reading the connection to its end.
 */
export async function secondHandshake(p: ScenarioProbe): Promise<void> {
  const session = p.session();
  const handshake = { type: 'handshake', protocol_version: PROTOCOL_VERSION };
  const what = `a second handshake (${PROTOCOL_VERSION}) on an established connection`;
  p.ledger.witness('H1');
  const silent = (how: string) => p.ledger.add([violation('H1', '', `${what} got ${how}; a provider MUST reply to handshake with a handshake_ack in the host's family (docs/interpretations.md §83)`)]);
  const judge = (reply: RawEnvelope) => {
    if (reply.type === 'handshake_ack') p.merge(judgeInFamily({ version: PROTOCOL_VERSION, reply, elapsedMs: 0 }, p.config.target));
    else if (reply.type === 'error') {
      p.observe(reply, undefined);
      p.notes.push(`${what} was answered with ${seen(reply)} (an error is a reply, not silence: accepted)`);
    } else {
      p.observe(reply, undefined);
      silent(seen(reply));
    }
  };
  if (session.kind !== 'stdio') {
    let reply: RawEnvelope | null;
    try {
      reply = await session.request(handshake, p.config.timeouts.handshakeMs);
    } catch (err) {
      if (err instanceof HttpStatusError) return silent(`HTTP ${err.status} with no envelope`);
      if (!isTargetError(err)) throw err;
      return silent(describeError(err));
    }
    if (reply === null) return silent('no reply at all (an empty response)');
    return judge(reply);
  }
  const query: JsonObject = { type: 'query', query: probeQuery(TYPICAL) };
  if (p.correlation()) query.id = p.nextId();
  let answer: RawEnvelope | undefined;
  let answered = false;
  try {
    await session.send(handshake);
    await session.send(query);
    for (let i = 0; i < 3 && !answered; i++) {
      const reply = await session.next(p.config.timeouts.handshakeMs);
      const forQuery = query.id !== undefined ? reply.id === query.id : reply.type === 'frames';
      if (forQuery) {
        p.observe(reply, query, {}, 'a valid query after a second handshake');
        answered = true;
      } else if (answer === undefined) answer = reply;
      else p.observe(reply, undefined);
    }
    // lock-step: the query's answer came first, so the handshake got none; with correlation, read to the end
    if (answered && answer === undefined && query.id !== undefined) {
      for (const late of await rest(p, session)) {
        if (answer === undefined) answer = late;
        else p.observe(late, undefined);
      }
    }
  } catch (err) {
    if (!isTargetError(err)) throw err;
    if (answer === undefined) return silent(describeError(err));
  }
  if (answer === undefined) return silent('no reply at all (the valid query sent after it was answered, and nothing else came)');
  judge(answer);
}

/**
 * S3-handshake-first (SHOULD): a query sent before the handshake moves no payload. Frames that come BEFORE
 * the handshake_ack moved payload early (a warning); a query held until after the handshake and answered
 * then moved none before it completed, and is accepted, as are an error and no answer at all
 * (docs/interpretations.md §91).
 */
export async function queryBeforeHandshake(p: ScenarioProbe): Promise<void> {
  const session = stdio(p);
  const query = { type: 'query', query: probeQuery(TYPICAL) };
  await session.send(query);
  await session.send({ type: 'handshake', protocol_version: PROTOCOL_VERSION });
  p.ledger.witness('S3-handshake-first');
  const replies: RawEnvelope[] = [];
  let failure: unknown;
  try {
    // Up to two replies: one to the early query (if any), one to the handshake.
    for (let i = 0; i < 2; i++) {
      const reply = await session.next(p.config.timeouts.handshakeMs);
      replies.push(reply);
      if (reply.type === 'handshake_ack') {
        // whatever else the target writes on this connection (a late answer to the early query) is read to its end
        replies.push(...(await rest(p, session)));
        break;
      }
    }
  } catch (err) {
    if (!isTargetError(err)) throw err;
    failure = err;
  }
  // every reply is judged against this connection's own ack (what it advertised), once it is known
  const ackAt = replies.findIndex((r) => r.type === 'handshake_ack');
  if (ackAt >= 0) p.adoptFreshAck(replies[ackAt]!);
  for (const r of replies) p.observe(r, r.type === 'frames' ? query : undefined);
  if (failure !== undefined) p.fail(`a query sent before the handshake, then a handshake: ${describeError(failure)} (${replies.length} envelope(s) received first)`);
  const early = replies.findIndex((r) => r.type === 'frames');
  if (early >= 0 && (ackAt < 0 || early < ackAt)) {
    const frames = replies[early]!;
    const n = isJsonObject(frames.result) && Array.isArray(frames.result.frames) ? frames.result.frames.length : 0;
    p.ledger.add([
      warning(
        'S3-handshake-first',
        '',
        `a query sent before any handshake was answered with ${n} frame(s) before the handshake_ack; no query payload moves before the handshake exchange completes (expected an error, no answer, or the answer held until after the ack)`,
      ),
    ]);
  } else if (early >= 0) {
    p.notes.push('the query sent before the handshake was held and answered after the handshake_ack: no payload moved before the exchange completed (accepted, docs/interpretations.md §91)');
  }
  if (ackAt < 0) p.fail('the handshake that followed an early query was not acknowledged');
}

// ── robustness (R1, R2) ─────────────────────────────────────────────────────────────────────────

interface MalformedInput {
  label: string;
  bytes: string | Uint8Array;
  /** A line that is not an envelope at all (vs. a well-formed envelope carrying a bad request). */
  notAnEnvelope: boolean;
}

function malformedInputs(correlation: boolean, id: () => string): MalformedInput[] {
  const badQuery: JsonObject = { type: 'query', query: { goal: '', max_frames: -1 } };
  if (correlation) badQuery.id = id();
  return [
    { label: 'text that is not JSON', bytes: 'this is not valid json {{{\n', notAnEnvelope: true },
    { label: 'a JSON array', bytes: '[1,2,3]\n', notAnEnvelope: true },
    { label: 'an object without a type', bytes: '{"cgp_conformance":"no type member"}\n', notAnEnvelope: true },
    { label: 'bytes that are not UTF-8', bytes: Uint8Array.from([0xff, 0xfe, 0x7b, 0x7d, 0x0a]), notAnEnvelope: true },
    { label: 'a query with invalid members (a bad request)', bytes: `${JSON.stringify(badQuery)}\n`, notAnEnvelope: false },
  ];
}

/**
 * R1 + decision 8: after each malformed input the target is still alive and answers the next valid query
 * (MUST); the malformed input itself SHOULD get error bad_request.
 */
export async function malformedThenQuery(p: ScenarioProbe): Promise<void> {
  const session = stdio(p);
  const correlation = p.correlation();
  const timeout = p.config.timeouts.requestMs;
  for (const input of malformedInputs(correlation, () => p.nextId('bad'))) {
    p.ledger.witness('R1');
    const query: JsonObject = { type: 'query', query: probeQuery(TYPICAL) };
    if (correlation) query.id = p.nextId();
    let garbageReply: RawEnvelope | undefined;
    // a reply line that is not an envelope (S2-wire-shape reports the line, once): the target answered, and
    // did not crash — at most R1's SHOULD (an error bad_request) is unmet (docs/interpretations.md §89)
    let nonEnvelope: Error | undefined;
    let answered = false;
    try {
      await session.sendRaw(input.bytes);
      await session.send(query);
      for (let i = 0; i < 3 && !answered; i++) {
        let reply: RawEnvelope;
        try {
          reply = await session.next(timeout);
        } catch (err) {
          if (!(err instanceof NotAnEnvelopeError || err instanceof InvalidUtf8Error)) throw err;
          nonEnvelope ??= err;
          continue;
        }
        const forQuery = correlation ? reply.id === query.id : garbageReply !== undefined || nonEnvelope !== undefined || reply.type === 'frames';
        if (forQuery) {
          p.observe(reply, query, {}, `the valid query after ${input.label}`);
          answered = true;
          if (reply.type !== 'frames') {
            p.ledger.add([violation('R1', '', `after ${input.label}, the next valid query was answered with ${seen(reply)}; required its frames (docs/interpretations.md §8)`)]);
          }
        } else {
          garbageReply = reply;
          p.observe(reply, undefined);
        }
      }
      if (!answered) p.ledger.add([violation('R1', '', `after ${input.label}, the next valid query got no frames reply (three other envelopes came instead)`)]);
      // A correlating provider may answer the valid query first (ids are unique among exchanges in flight):
      // the malformed input's reply may still be on its way; a follow-up query shows whether one comes.
      // Lock-step, replies come in order: the query's answer came first, so the input got none.
      if (answered && garbageReply === undefined && correlation) {
        for (const late of await followUp(p, session, correlation, `after ${input.label}`)) {
          if (garbageReply === undefined) garbageReply = late;
          p.observe(late, undefined);
        }
      }
    } catch (err) {
      if (!isTargetError(err)) throw err;
      const what =
        err instanceof PeerClosedError ? `the target went away (${err.message})` : err instanceof TimeoutError ? `the next valid query got no answer within ${timeout} ms` : describeError(err);
      p.ledger.add([
        violation('R1', '', `after ${input.label}: ${what}; a provider MUST NOT crash on a malformed line or bad request, and must still answer the next valid query (docs/interpretations.md §8)`),
      ]);
      return;
    }
    if (garbageReply === undefined && nonEnvelope !== undefined) {
      p.ledger.add([
        warning(
          'R1',
          '',
          `${input.label} was answered with a line that is not an envelope (reported under S2-wire-shape); the next valid query was answered, so the target did not crash, but a provider SHOULD reply error with code bad_request`,
        ),
      ]);
    } else if (garbageReply === undefined) {
      p.ledger.add([warning('R1', '', `${input.label} got no reply; a provider SHOULD reply error with code bad_request`)]);
    } else if (garbageReply.type !== 'error' || garbageReply.code !== 'bad_request') {
      p.ledger.add([warning('R1', '/code', `${input.label} was answered with ${seen(garbageReply)}; a provider SHOULD reply error with code bad_request`)]);
    }
  }
  if (!(await deeplyNestedThenQuery(p, session, correlation))) return;
  const exit = session.exitStatus;
  if (exit !== null) p.ledger.add([violation('R1', '', `the target exited (code ${exit.exitCode}, signal ${exit.signal}) during the malformed-input probe`)]);
}

/** How deep the one deeply nested (but otherwise valid) line among R1's inputs is. */
const NESTING_DEPTH = 512;

/**
 * R1 at the edge of "malformed": a VALID query whose unknown member holds arrays nested NESTING_DEPTH deep. Its
 * own answer may be frames (U1: the member is ignored) or an error (a depth limit) — either is accepted
 * (docs/interpretations.md §84); the target must not crash, and must answer the next valid query. Returns false
 * when the probe ended with a violation.
 */
async function deeplyNestedThenQuery(p: ScenarioProbe, session: StdioSession, correlation: boolean): Promise<boolean> {
  p.ledger.witness('R1');
  const label = `a valid query with an unknown member nested ${NESTING_DEPTH} levels deep`;
  const nested: JsonObject = { type: 'query', query: probeQuery(TYPICAL) };
  if (correlation) nested.id = p.nextId('deep');
  const json = JSON.stringify(nested);
  const line = `${json.slice(0, -1)},"cgp_conformance_nested":${'['.repeat(NESTING_DEPTH)}${']'.repeat(NESTING_DEPTH)}}\n`;
  const query: JsonObject = { type: 'query', query: probeQuery(TYPICAL) };
  if (correlation) query.id = p.nextId();
  let own: RawEnvelope | undefined;
  try {
    await session.sendRaw(line);
    await session.send(query);
    for (let i = 0; i < 3; i++) {
      const reply = await session.next(p.config.timeouts.requestMs);
      const forQuery = correlation ? reply.id === query.id : own !== undefined;
      if (forQuery) {
        p.observe(reply, query, {}, `the valid query after ${label}`);
        if (reply.type !== 'frames') p.ledger.add([violation('R1', '', `after ${label}, the next valid query was answered with ${seen(reply)}; required its frames (docs/interpretations.md §8)`)]);
        if (own === undefined) p.notes.push(`${label} got no answer before the next query's (lock-step would answer it first)`);
        return true;
      }
      if (own === undefined) {
        own = reply;
        p.notes.push(`${label} was answered with ${seen(reply)} (frames or an error: either is accepted)`);
      } else p.observe(reply, undefined);
    }
    p.ledger.add([violation('R1', '', `after ${label}, the next valid query got no frames reply (three other envelopes came instead)`)]);
  } catch (err) {
    if (!isTargetError(err)) throw err;
    const what = err instanceof PeerClosedError ? `the target went away (${err.message})` : err instanceof TimeoutError ? `no answer within ${p.config.timeouts.requestMs} ms` : describeError(err);
    p.ledger.add([
      violation('R1', '', `after ${label}: ${what}; a provider MUST NOT crash on a line it finds hard to parse, and must still answer the next valid query (docs/interpretations.md §84)`),
    ]);
  }
  return false;
}

/** R2 (decision 7): after shutdown the process exits by itself with code 0 within the grace period. */
export async function shutdownProbe(p: ScenarioProbe): Promise<void> {
  const session = stdio(p);
  const grace = p.config.timeouts.shutdownGraceMs;
  const result = await session.shutdown(grace);
  p.ledger.witness('R2');
  const policy = `policy (docs/interpretations.md §7): exit code 0 within ${grace} ms of shutdown`;
  if (result.killed) {
    p.ledger.add([violation('R2', '', `the target was still running ${grace} ms after shutdown and had to be killed; ${policy}`)]);
  } else if (result.signal !== null) {
    p.ledger.add([violation('R2', '', `the target ended on signal ${result.signal} after shutdown; ${policy}`)]);
  } else if (result.exitCode !== 0) {
    p.ledger.add([violation('R2', '', `the target exited with code ${result.exitCode} after shutdown; ${policy}`)]);
  } else {
    p.notes.push(`exited 0 after ${result.elapsedMs} ms`);
  }
}

// ── unknown members and types (U1, S13-interop-validator, S2.1-unknown-type, S3.2-notification) ─

const EXTENSION = { cgp_conformance_extension: { note: 'a member from a later 1.x minor', nested: [1, { deeper: true }] } };

/** U1 / S13-interop-validator: envelopes and nested objects carrying unknown members are not rejected. */
export async function unknownMembers(p: ScenarioProbe): Promise<void> {
  const session = p.fresh ?? (await p.useFresh());
  const rejected = (what: string, reply: RawEnvelope | string): Finding[] => {
    const s = typeof reply === 'string' ? reply : seen(reply);
    return ['U1', 'S13-interop-validator'].map((id) => violation(id, '', `${what} carrying unknown members was answered with ${s}; a receiver MUST ignore members it does not recognise`));
  };
  const witness = () => {
    p.ledger.witness('U1');
    p.ledger.witness('S13-interop-validator');
  };
  // Handshake with an unknown member.
  let ack: JsonObject | undefined;
  try {
    const reply = await session.request({ type: 'handshake', protocol_version: PROTOCOL_VERSION, ...EXTENSION }, p.config.timeouts.handshakeMs);
    witness();
    if (reply === null) p.ledger.add(rejected('a handshake', 'no envelope (204)'));
    else if (reply.type !== 'handshake_ack') p.ledger.add(rejected('a handshake', reply));
    else {
      ack = reply;
      p.adoptFreshAck(reply);
      p.merge(judgeInFamily({ version: PROTOCOL_VERSION, reply, elapsedMs: 0 }, p.config.target));
    }
  } catch (err) {
    if (!isTargetError(err)) throw err;
    witness();
    p.ledger.add(rejected('a handshake', describeError(err)));
  }
  if (!ack) return;
  const correlation = isJsonObject(ack.capabilities) && ack.capabilities.correlation === true;
  const verifyDeclared = isJsonObject(ack.capabilities) && ack.capabilities.verify === true;
  // A query with unknown members at the top, inside query, and inside a nested value.
  const query: JsonObject = { type: 'query', ...EXTENSION, query: { ...probeQuery(TYPICAL), ...EXTENSION } };
  if (correlation) query.id = p.nextId();
  const qReply = await p.tryExchange(query, 'a query carrying unknown members');
  witness();
  if (qReply instanceof Error || qReply === null) p.ledger.add(rejected('a query', qReply === null ? 'no envelope (204)' : describeError(qReply)));
  else if (qReply.type !== 'frames') p.ledger.add(rejected('a query', qReply));
  if (!verifyDeclared || !(qReply && !(qReply instanceof Error) && qReply.type === 'frames')) return;
  const frames = isJsonObject(qReply.result) && Array.isArray(qReply.result.frames) ? qReply.result.frames.filter(isJsonObject) : [];
  const name = isJsonObject(ack.provider) && typeof ack.provider.name === 'string' ? ack.provider.name : '';
  const identity: JsonObject = frames[0] ? { provider_id: name, frame_id: frames[0].id, content_digest: frames[0].content_digest } : { provider_id: name, frame_id: 'cgp-conformance-unknown' };
  const verify: JsonObject = { type: 'verify', ...EXTENSION, request: { frames: [{ ...identity, ...EXTENSION }], ...EXTENSION } };
  if (correlation) verify.id = p.nextId('v');
  const vReply = await p.tryExchange(verify, 'a verify carrying unknown members');
  witness();
  if (vReply instanceof Error || vReply === null) p.ledger.add(rejected('a verify', vReply === null ? 'no envelope (204)' : describeError(vReply)));
  else if (vReply.type !== 'verified') p.ledger.add(rejected('a verify', vReply));
}

const UNKNOWN_NOTIFICATION = { type: 'cgp_conformance_notice', note: 'an envelope type this revision does not define; no id: a notification' };

/** S2.1-unknown-type + S3.2-notification: an unrecognised notification is ignored — no reply, service goes on. */
export async function unknownNotification(p: ScenarioProbe): Promise<void> {
  const session = p.session();
  p.ledger.witness('S2.1-unknown-type');
  p.ledger.witness('S3.2-notification');
  const replied = (what: string): Finding[] => [
    violation(
      'S2.1-unknown-type',
      '',
      `an unrecognised notification (type ${JSON.stringify(UNKNOWN_NOTIFICATION.type)}, no id) was answered with ${what}; a receiver MUST ignore an unrecognised notification`,
    ),
    warning('S3.2-notification', '', `an envelope with no id is a notification and expects no reply; it got ${what}`),
  ];
  if (session.kind !== 'stdio') {
    let reply: RawEnvelope | null;
    try {
      reply = await session.request(UNKNOWN_NOTIFICATION);
    } catch (err) {
      if (err instanceof HttpStatusError) {
        p.ledger.add(replied(`HTTP ${err.status}`));
        return;
      }
      if (!isTargetError(err)) throw err;
      p.fail(`an unrecognised notification: ${describeError(err)}`);
    }
    if (reply !== null) {
      p.observe(reply, undefined);
      p.ledger.add(replied(seen(reply)));
    }
    await p.query(probeQuery(TYPICAL), 'a valid query after an unrecognised notification');
    return;
  }
  // stdio: the notification, then a valid query; the first envelope back must answer the query.
  const query: JsonObject = { type: 'query', query: probeQuery(TYPICAL) };
  if (p.correlation()) query.id = p.nextId();
  try {
    await session.send(UNKNOWN_NOTIFICATION);
    await session.send(query);
    for (let i = 0; i < 3; i++) {
      const reply = await session.next(p.config.timeouts.requestMs);
      const forQuery = query.id !== undefined ? reply.id === query.id : reply.type === 'frames';
      if (forQuery) {
        p.observe(reply, query, {}, 'a valid query after an unrecognised notification');
        if (reply.type !== 'frames') p.fail(`the valid query sent after an unrecognised notification got ${seen(reply)}; required frames`);
        return;
      }
      p.observe(reply, undefined);
      p.ledger.add(replied(seen(reply)));
    }
    p.fail('the valid query sent after an unrecognised notification was not answered (three other envelopes came instead)');
  } catch (err) {
    if (!isTargetError(err)) throw err;
    p.fail(`after an unrecognised notification, the next valid query got no answer: ${describeError(err)}`);
  }
}

/** S2.1-unknown-type: a payload-bearing request of an unknown type gets error bad_request (not silence, not a crash). */
export async function unknownRequest(p: ScenarioProbe): Promise<void> {
  const session = p.session();
  const correlation = p.correlation();
  const request: JsonObject = { type: 'cgp_conformance_request', request: { probe: 'an envelope type this revision does not define, carrying a payload' } };
  if (correlation) request.id = p.nextId('u');
  p.ledger.witness('S2.1-unknown-type');
  const judge = (reply: RawEnvelope | undefined, how?: string) => {
    if (reply === undefined) {
      p.ledger.add([violation('S2.1-unknown-type', '', `a payload-bearing request of unknown type ${JSON.stringify(request.type)} got ${how ?? 'no reply'}; required error with code bad_request`)]);
      return;
    }
    p.observe(reply, request);
    if (reply.type !== 'error' || reply.code !== 'bad_request') {
      p.ledger.add([violation('S2.1-unknown-type', '/code', `a payload-bearing request of unknown type ${JSON.stringify(request.type)} got ${seen(reply)}; required error with code bad_request`)]);
    }
  };
  if (session.kind !== 'stdio') {
    try {
      const reply = await session.request(request);
      judge(reply ?? undefined, reply === null ? (session.kind === 'http' ? 'HTTP 204 (no envelope)' : 'no reply envelope') : undefined);
    } catch (err) {
      if (err instanceof HttpStatusError) return judge(undefined, `HTTP ${err.status} with no error envelope`);
      if (!isTargetError(err)) throw err;
      judge(undefined, describeError(err));
    }
    return;
  }
  // stdio: the unknown request, then a valid query. Expect the error (any order) and the query's frames.
  const query: JsonObject = { type: 'query', query: probeQuery(TYPICAL) };
  if (correlation) query.id = p.nextId();
  let errorReply: RawEnvelope | undefined;
  let answered = false;
  try {
    await session.send(request);
    await session.send(query);
    for (let i = 0; i < 3 && !answered; i++) {
      const reply = await session.next(p.config.timeouts.requestMs);
      const forQuery = correlation ? reply.id === query.id : reply.type === 'frames';
      if (forQuery) {
        p.observe(reply, query, {}, 'a valid query after an unknown request');
        answered = true;
      } else if (errorReply === undefined) {
        errorReply = reply;
      } else {
        p.observe(reply, undefined);
      }
    }
    // Lock-step, replies come in order: the query's answer came first, so the unknown request got none. With
    // correlation its error may still be on its way: a follow-up query shows whether one comes.
    if (answered && errorReply === undefined && correlation) {
      for (const late of await followUp(p, session, correlation, 'after an unknown request')) {
        if (errorReply === undefined) errorReply = late;
        else p.observe(late, undefined);
      }
    }
  } catch (err) {
    if (!isTargetError(err)) throw err;
    judge(errorReply, describeError(err));
    return;
  }
  judge(errorReply);
  if (!answered) p.fail('the valid query sent after an unknown request was not answered');
}

// ── framing (S2.1-no-newline) ───────────────────────────────────────────────────────────────────

/**
 * Make the target write several kinds of envelope (ack, frames, error, verified) on a fresh stdio
 * connection; the raw lines are then checked one by one (ScenarioProbe.checkRawLines). Transport errors are
 * expected here when the framing is broken — they are the evidence, not a reason to stop early.
 */
export async function exerciseFraming(p: ScenarioProbe): Promise<void> {
  const session = stdio(p);
  const attempt = async (envelope: JsonObject): Promise<RawEnvelope | undefined> => {
    try {
      const reply = await session.request(envelope);
      // every reply goes through every applicable check, whatever this scenario is about
      p.observe(reply, envelope.type === 'handshake' ? undefined : envelope, envelope.type === 'handshake' ? { hostVersion: PROTOCOL_VERSION } : {});
      return reply;
    } catch (err) {
      if (!isTargetError(err)) throw err;
      p.notes.push(`${String(envelope.type)}: ${describeError(err)}`);
      return undefined;
    }
  };
  const ack = await attempt({ type: 'handshake', protocol_version: PROTOCOL_VERSION });
  if (session.stalled) return;
  // the replies after it are judged against what this connection's ack advertised (P5: a default the ack
  // advertises is no unadvertised representation — docs/interpretations.md §89)
  if (ack?.type === 'handshake_ack') p.adoptFreshAck(ack);
  const correlation = isJsonObject(ack?.capabilities) && ack.capabilities.correlation === true;
  const query: JsonObject = { type: 'query', query: probeQuery(TYPICAL) };
  if (correlation) query.id = p.nextId();
  const frames = await attempt(query);
  if (session.stalled) return;
  await attempt({ type: 'query', query: { goal: 'cgp-conformance probe: malformed on purpose', max_frames: 'many', max_tokens: 1 } });
  if (session.stalled) return;
  const f = frames && isJsonObject(frames.result) && Array.isArray(frames.result.frames) ? frames.result.frames.find(isJsonObject) : undefined;
  if (isJsonObject(ack?.capabilities) && ack.capabilities.verify === true && f) {
    const name = isJsonObject(ack.provider) ? ack.provider.name : '';
    await attempt({ type: 'verify', request: { frames: [{ provider_id: name, frame_id: f.id, content_digest: f.content_digest }] } });
  }
  // Read the connection to its end, so a trailing partial envelope (delivered at EOF) is checked too.
  for (const late of await rest(p, session)) p.observe(late, undefined);
}
