/**
 * Line-level edges of R1 (docs/interpretations.md §111, §116), over stdio and HTTP alike: one line (one
 * body), then a valid query. What the line itself may get depends on it — a valid line may be answered with
 * frames or refused with an error (a size or depth limit is the provider's choice); a bad request SHOULD get
 * bad_request — and the MUSTs are R1's: the target does not crash, answers the next valid query with its frames,
 * and answers one line with at most one envelope (a line read as several puts every later reply out of step).
 * R1's malformed bodies over HTTP (robustness.feature's R1 scenario) are here too: over stdio wire.ts sends lines.
 */
import { violation, warning } from '../../../protocol/findings.js';
import type { JsonObject } from '../../../protocol/json-value.js';
import { HttpStatusError, NetworkError, PeerClosedError, TimeoutError, TransportError } from '../../../transport/errors.js';
import { isLineFramingError } from '../../../transport/stdio-client.js';
import type { RawEnvelope } from '../../../transport/ndjson.js';
import { describeError, HarnessError, isTargetError } from '../errors.js';
import { probeQuery, TYPICAL, GENEROUS, type ScenarioProbe } from '../scenario.js';
import type { HttpSession, StdioSession } from '../session.js';
import { U32_MAX } from './edges.js';

/** One input of a line-level probe. */
export interface EdgeLine {
  label: string;
  /** The line's bytes, without the newline (stdio adds it; HTTP posts them as the body). */
  bytes: string | Uint8Array;
  /** 'bad-request': the line is a bad request or not an envelope (R1 SHOULD bad_request); 'valid': frames or an error. */
  expect: 'bad-request' | 'valid';
  /** The request as an object, when it is one (the context its frames are checked in; in-process targets get it). */
  envelope?: JsonObject;
  /** The id the line carries, when it carries one. */
  id?: string;
}

/** A line the target wrote that is not an envelope (judged by the framing checks, S2-wire-shape, not here). */
type Item = RawEnvelope | TransportError;

function isNotAnEnvelope(err: unknown): err is TransportError {
  return err instanceof TransportError && isLineFramingError(err);
}

function seen(reply: Item): string {
  if (reply instanceof Error) return `a line that is not an envelope (${reply.message})`;
  return reply.type === 'error' ? `error ${JSON.stringify(reply.code)} (${JSON.stringify(reply.message)})` : `a "${reply.type}" envelope`;
}

/** The next item on a stdio connection: an envelope, or a line that is not one (the stream goes on). */
async function nextItem(session: StdioSession, timeoutMs: number): Promise<Item> {
  try {
    return await session.next(timeoutMs);
  } catch (err) {
    if (isNotAnEnvelope(err)) return err;
    throw err;
  }
}

function idOf(item: Item): unknown {
  return item instanceof Error ? undefined : item.id;
}

function gone(err: unknown, timeoutMs: number): string {
  if (err instanceof PeerClosedError) return `the target went away (${err.message})`;
  if (err instanceof NetworkError) return `the target could not be reached (${err.message})`;
  if (err instanceof TimeoutError) return `no answer within ${timeoutMs} ms`;
  return describeError(err);
}

/** Judge what the line itself got (undefined = nothing). */
function judgeOwn(p: ScenarioProbe, line: EdgeLine, own: Item | undefined, how?: string): void {
  if (line.expect === 'valid') {
    p.notes.push(`${line.label} was answered with ${own ? seen(own) : (how ?? 'nothing')} (frames or an error: either is accepted)`);
    return;
  }
  if (own === undefined) {
    p.ledger.add([warning('R1', '', `${line.label} got ${how ?? 'no reply'}; a provider SHOULD reply error with code bad_request`)]);
  } else if (own instanceof Error || own.type !== 'error' || own.code !== 'bad_request') {
    const what = own instanceof Error || own.type !== 'frames' ? seen(own) : 'frames';
    p.ledger.add([warning('R1', '/code', `${line.label} was answered with ${what}; a bad request SHOULD get error with code bad_request (docs/interpretations.md §116)`)]);
  }
}

/**
 * Send one line, then a valid query; judge both (see the module comment). Returns false when the target can no
 * longer be probed (it went away, or stopped answering).
 */
export async function lineThenQuery(p: ScenarioProbe, line: EdgeLine): Promise<boolean> {
  const session = p.session();
  if (session.kind === 'in-process' && !line.envelope) {
    p.ledger.unwitnessedBecause('R1', 'the target is loaded in-process: no line or body crosses a binding');
    return true;
  }
  p.ledger.witness('R1');
  if (session.kind === 'in-process' && line.envelope) {
    const own = await p.tryExchange(line.envelope, line.label);
    if (own instanceof Error) {
      p.ledger.add([violation('R1', '', `${line.label}: ${gone(own, p.config.timeouts.requestMs)}; a provider MUST NOT crash on a line or request, and must still answer the next valid query`)]);
      return false;
    }
    judgeOwn(p, line, own ?? undefined, own === null ? 'no reply' : undefined);
    return followUpAnswered(p, line, await p.tryExchange({ type: 'query', ...(p.correlation() ? { id: p.nextId() } : {}), query: probeQuery(TYPICAL) }, `the valid query after ${line.label}`));
  }
  if (session.kind === 'stdio') return overStdio(p, session, line);
  if (session.kind === 'http') return overHttp(p, session, line);
  throw new HarnessError('lineThenQuery: an in-process line with no object form');
}

function followUpAnswered(p: ScenarioProbe, line: EdgeLine, reply: RawEnvelope | null | Error): boolean {
  if (isNotAnEnvelope(reply)) {
    // an answer that is not JSON is the framing checks' finding (S2-wire-shape); the target is still answering
    p.notes.push(`after ${line.label}, the next valid query was answered with ${seen(reply)}`);
    return true;
  }
  if (reply instanceof Error) {
    p.ledger.add([
      violation(
        'R1',
        '',
        `after ${line.label}: the next valid query: ${gone(reply, p.config.timeouts.requestMs)}; a provider MUST NOT crash on a malformed line or bad request, and must still answer the next valid query (docs/interpretations.md §8)`,
      ),
    ]);
    return false;
  }
  if (reply === null || reply.type !== 'frames') {
    p.ledger.add([
      violation('R1', '', `after ${line.label}, the next valid query was answered with ${reply === null ? 'no envelope' : seen(reply)}; required its frames (docs/interpretations.md §8)`),
    ]);
    return false;
  }
  return true;
}

async function overStdio(p: ScenarioProbe, session: StdioSession, line: EdgeLine): Promise<boolean> {
  const correlation = p.correlation();
  const query: JsonObject = { type: 'query', query: probeQuery(TYPICAL) };
  if (correlation) query.id = p.nextId();
  const timeout = p.config.timeouts.requestMs;
  const before: RawEnvelope[] = [];
  /** Lines that are not envelopes (the framing checks' S2-wire-shape findings; never counted as replies here). */
  const junk: TransportError[] = [];
  try {
    const bytes = typeof line.bytes === 'string' ? `${line.bytes}\n` : Uint8Array.from([...line.bytes, 0x0a]);
    await session.sendRaw(bytes);
    await session.send(query);
    // lock-step: the first reply is the line's, the next the query's; with correlation the query's is found by id
    for (let i = 0; i < 8; i++) {
      const reply = await nextItem(session, timeout);
      const forQuery = correlation ? idOf(reply) === query.id : before.length > 0;
      if (reply instanceof Error) {
        junk.push(reply);
        continue;
      }
      if (!forQuery) {
        if (correlation && typeof reply.id === 'string' && reply.id !== line.id) {
          // a late answer to an earlier request of this scenario: not this line's
          p.notes.push(`a late ${reply.type} with id ${JSON.stringify(reply.id)} came while ${line.label} was outstanding`);
          p.observe(reply, undefined);
          continue;
        }
        before.push(reply);
        p.observe(reply, before.length === 1 && line.envelope && (!correlation || reply.id === line.id) ? line.envelope : undefined, {}, line.label);
        continue;
      }
      p.observe(reply, query, {}, `the valid query after ${line.label}`);
      // with correlation the line may be answered after the query (ids are unique among exchanges in flight):
      // a second valid query shows whether its answer is still on its way
      if (correlation && before.length === 0 && reply.type === 'frames') before.push(...(await lateReplies(p, session, line)));
      if (junk.length > 0) p.notes.push(`${junk.length} line(s) that are not envelopes came while ${line.label} was outstanding (framing: S2-wire-shape)`);
      judgeOwn(p, line, before[0] ?? junk[0]);
      if (before.length > 1) {
        p.ledger.add([
          violation(
            'R1',
            '',
            `${line.label} got ${before.length} replies (${before.slice(0, 3).map(seen).join('; ')}${before.length > 3 ? '; …' : ''}) before the next query's answer: one line was read as several, so a host reading in lock-step takes each later reply for the wrong request (docs/interpretations.md §116)`,
          ),
        ]);
      }
      if (!followUpAnswered(p, line, reply)) return false;
      if (session.exitStatus !== null) {
        p.ledger.add([violation('R1', '', `the target exited (code ${session.exitStatus.exitCode}, signal ${session.exitStatus.signal}) after ${line.label}`)]);
        return false;
      }
      return true;
    }
    p.ledger.add([
      violation(
        'R1',
        '',
        `after ${line.label}, the next valid query was not answered among the next 8 envelopes (${before.slice(0, 3).map(seen).join('; ')}, …): one line was read as many (docs/interpretations.md §116)`,
      ),
    ]);
    return false;
  } catch (err) {
    if (!isTargetError(err)) throw err;
    p.ledger.add([
      violation(
        'R1',
        '',
        `after ${line.label}: ${gone(err, timeout)}${before.length > 0 ? ` (${before.length} envelope(s) came first: ${before.slice(0, 2).map(seen).join('; ')})` : ''}; a provider MUST NOT crash on a line, and must still answer the next valid query (docs/interpretations.md §8)`,
      ),
    ]);
    return false;
  }
}

/** Send one more valid query and return the envelopes carrying the line's id (or none) that come before its answer. */
async function lateReplies(p: ScenarioProbe, session: StdioSession, line: EdgeLine): Promise<RawEnvelope[]> {
  const query: JsonObject = { type: 'query', id: p.nextId(), query: probeQuery(TYPICAL) };
  const late: RawEnvelope[] = [];
  await session.send(query);
  for (let i = 0; i < 8; i++) {
    const reply = await nextItem(session, p.config.timeouts.requestMs);
    if (reply instanceof Error) continue;
    if (reply.id === query.id) {
      p.observe(reply, query, {}, `a second valid query after ${line.label}`);
      return late;
    }
    p.observe(reply, late.length === 0 && line.envelope && reply.id === line.id ? line.envelope : undefined, {}, line.label);
    if (reply.id === undefined || reply.id === line.id) late.push(reply);
  }
  return late;
}

async function overHttp(p: ScenarioProbe, session: HttpSession, line: EdgeLine): Promise<boolean> {
  const timeout = p.config.timeouts.requestMs;
  let own: RawEnvelope | undefined;
  let how: string | undefined;
  try {
    const reply = await session.conn.requestRaw(line.bytes, timeout);
    if (reply === null) how = 'no envelope (an empty response)';
    else {
      own = reply;
      p.observe(reply, line.envelope, {}, line.label);
    }
  } catch (err) {
    if (err instanceof HttpStatusError) how = `HTTP ${err.status} with no envelope`;
    else if (isTargetError(err)) how = gone(err, timeout);
    else throw err;
  }
  judgeOwn(p, line, own, how);
  const query: JsonObject = { type: 'query', query: probeQuery(TYPICAL) };
  if (p.correlation()) query.id = p.nextId();
  let reply: RawEnvelope | null | Error;
  try {
    reply = await session.request(query, timeout);
    if (reply) p.observe(reply, query, {}, `the valid query after ${line.label}`);
  } catch (err) {
    if (!isTargetError(err)) throw err;
    reply = err as Error;
  }
  return followUpAnswered(p, line, reply);
}

// ── the inputs ──────────────────────────────────────────────────────────────────────────────────

function withId(p: ScenarioProbe, envelope: JsonObject, label: string): JsonObject {
  if (p.correlation()) envelope.id = p.nextId(label);
  return envelope;
}

function jsonLine(envelope: JsonObject, label: string, expect: EdgeLine['expect']): EdgeLine {
  const line: EdgeLine = { label, bytes: JSON.stringify(envelope), expect, envelope };
  if (typeof envelope.id === 'string') line.id = envelope.id;
  return line;
}

/** How long the long lines are: past a 64 KiB read buffer, and past 1 MiB. */
export const LONG_LINE_BYTES = [80 * 1024, 1536 * 1024] as const;

/** R1 (§116): valid queries longer than common read buffers (an unknown member carrying the padding, U1). */
export async function longLines(p: ScenarioProbe): Promise<void> {
  for (const size of LONG_LINE_BYTES) {
    const envelope = withId(p, { type: 'query', query: probeQuery(TYPICAL) }, 'long');
    const bare = JSON.stringify({ ...envelope, cgp_conformance_padding: '' });
    envelope.cgp_conformance_padding = 'x'.repeat(Math.max(0, size - bare.length));
    if (!(await lineThenQuery(p, jsonLine(envelope, `a valid query ${Math.round(size / 1024)} KiB long (an unknown member carries the padding)`, 'valid')))) return;
  }
}

/** How deep the deep line is: far past the 512 levels of robustness.feature, and past common parsers' recursion limits. */
export const DEEP_NESTING = 100_000;

/** R1 (§116): a valid query whose unknown member holds arrays nested DEEP_NESTING levels deep. */
export async function veryDeepLine(p: ScenarioProbe): Promise<void> {
  const envelope = withId(p, { type: 'query', query: probeQuery(TYPICAL) }, 'deep');
  const json = JSON.stringify(envelope);
  const bytes = `${json.slice(0, -1)},"cgp_conformance_nested":${'['.repeat(DEEP_NESTING)}${']'.repeat(DEEP_NESTING)}}`;
  const line: EdgeLine = { label: `a valid query with an unknown member nested ${DEEP_NESTING} levels deep`, bytes, expect: 'valid' };
  if (typeof envelope.id === 'string') line.id = envelope.id;
  // no object form: it would not survive a recursive encoder, and in-process nothing is parsed
  await lineThenQuery(p, line);
}

/** R1 (§111): budgets beyond their type (u32) and not integers — bad requests, each followed by a valid query. */
export async function budgetsBeyondRange(p: ScenarioProbe): Promise<void> {
  const cases: Array<[string, JsonObject]> = [
    [`max_frames ${U32_MAX + 1} (u32 max + 1)`, { max_frames: U32_MAX + 1 }],
    [`max_tokens ${U32_MAX + 1} (u32 max + 1)`, { max_tokens: U32_MAX + 1 }],
    ['max_tokens 1e300', { max_tokens: 1e300 }],
    ['max_frames 2.5', { max_frames: 2.5 }],
    ['max_tokens -1', { max_tokens: -1 }],
  ];
  for (const [what, over] of cases) {
    const envelope = withId(p, { type: 'query', query: { ...probeQuery(GENEROUS), ...over } }, 'range');
    if (!(await lineThenQuery(p, jsonLine(envelope, `a query with ${what}`, 'bad-request')))) return;
  }
}

/** R1 (§116): as_of spellings off the F4 profile (RFC 3339 allows them; F4 does not) — bad requests. */
export async function asOfOffProfile(p: ScenarioProbe): Promise<void> {
  const spellings = ['2026-07-01t00:00:00z', '2026-07-01T00:00:00+00:00', '2026-07-01 00:00:00Z', '2026-07-01T00:00Z', '2026-07-01'];
  for (const asOf of spellings) {
    const envelope = withId(p, { type: 'query', query: probeQuery({ ...GENEROUS, as_of: asOf }) }, 'asof');
    if (!(await lineThenQuery(p, jsonLine(envelope, `a query with as_of ${JSON.stringify(asOf)} (off the F4 profile)`, 'bad-request')))) return;
  }
}

/**
 * R1 over HTTP: the malformed inputs robustness.feature sends as lines over stdio (wire.ts), as request bodies,
 * each followed by a valid query. In process only the bad request crosses (as an object; no bytes are parsed).
 */
export async function malformedBodiesThenQuery(p: ScenarioProbe): Promise<void> {
  if (p.session().kind === 'stdio') throw new HarnessError('malformedBodiesThenQuery: over stdio the lines are sent by wire.malformedThenQuery');
  const badQuery = withId(p, { type: 'query', query: { goal: '', max_frames: -1 } }, 'bad');
  const inputs: EdgeLine[] = [
    { label: 'a body that is not JSON', bytes: 'this is not valid json {{{', expect: 'bad-request' },
    { label: 'a JSON array', bytes: '[1,2,3]', expect: 'bad-request' },
    { label: 'an object without a type', bytes: '{"cgp_conformance":"no type member"}', expect: 'bad-request' },
    { label: 'bytes that are not UTF-8', bytes: Uint8Array.from([0xff, 0xfe, 0x7b, 0x7d]), expect: 'bad-request' },
    { label: 'an empty body', bytes: '', expect: 'bad-request' },
    jsonLine(badQuery, 'a query with invalid members (a bad request)', 'bad-request'),
  ];
  for (const input of inputs) if (!(await lineThenQuery(p, input))) return;
}
