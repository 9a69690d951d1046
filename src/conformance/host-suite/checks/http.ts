/**
 * Host-facing checks of the HTTP transport rules (SPEC §4: C4, C7, C8): pure functions from what the
 * scripted HTTP provider (./http-provider.ts) RECORDED on the wire, and what the host returned, threw or
 * logged, to findings. Messages start with the id and say what was seen versus what was required.
 */
import { inspect } from 'node:util';
import { violation, type Finding } from '../../../protocol/findings.js';
import type { FanOutResult } from '../../../host/fan-out.js';
import type { RecordedRequest } from '../scripted/http-provider.js';
import { describeHostError, memberOf } from './text.js';
import { CapabilityUnverified } from '../capabilities.js';

export interface HttpTargetInfo {
  label: string;
  /** The URL the host was given (a non-loopback name). */
  url: string;
  routingId?: string;
}

function typesOf(requests: readonly RecordedRequest[]): string {
  return requests.map((r) => (typeof r.envelope?.type === 'string' ? r.envelope.type : '(not an envelope)')).join(', ');
}

/**
 * C4: a provider reached at a non-loopback name whose handshake claims `egress: false` is egress all the
 * same, so without a recorded consent it receives no query payload, and the host reports the refusal.
 */
export function checkNonLoopbackGated(ids: readonly string[], target: HttpTargetInfo, requests: readonly RecordedRequest[], fanOut: FanOutResult | undefined, thrown: unknown): Finding[] {
  const out: Finding[] = [];
  const queries = requests.filter((r) => r.envelope?.type === 'query');
  for (const id of ids) {
    if (queries.length > 0) {
      out.push(
        violation(
          id,
          '/query',
          `provider ${JSON.stringify(target.label)} at ${target.url} (not loopback) claimed egress:false in its handshake and received ${queries.length} query payload(s) with no consent recorded; required: a non-loopback provider is egress whatever it claims, so the consent gate refuses before any payload leaves`,
        ),
      );
    }
  }
  const refused = target.routingId !== undefined && (fanOut?.failures.some((f) => f.routingId === target.routingId) ?? false);
  if (!refused && thrown === undefined) {
    out.push(
      violation(
        ids[0] ?? 'C4',
        '/failures',
        `the host reported no refusal for ${JSON.stringify(target.label)} at ${target.url} (not loopback, no consent recorded)${fanOut ? `; it returned ${fanOut.answers.length} answer(s) and ${fanOut.failures.length} failure(s)` : ''}; required: the query is refused for it (consent required) and the caller is told`,
      ),
    );
  }
  return out;
}

/**
 * C7: plaintext `http://` to a non-loopback name is refused before any byte leaves: the plaintext listener
 * behind that name received no HTTP request (no handshake, no query, no Authorization header in clear),
 * and the host did not report the provider as connected.
 */
/** What a failed name resolution looks like in an error (the host resolved before it refused). */
const RESOLUTION_FAILURE = /ENOTFOUND|EAI_AGAIN|EAI_NONAME|getaddrinfo|name resolution|could not resolve|failed to resolve|no such host|dns/i;

/**
 * C7 without the name-resolution hook (docs/interpretations.md §105): the host was given a plaintext URL at a
 * name that never resolves. Refusing it is a pass — a host refusing plaintext to a non-loopback name refuses
 * before it resolves anything; reporting it connected is a violation; an error that is a failed resolution
 * shows the host went as far as resolving, which only the hook can judge: unverified, never a finding.
 */
export function checkPlaintextRefusedUnresolved(ids: readonly string[], target: HttpTargetInfo, outcome: { connected: boolean; error: unknown }): Finding[] {
  if (outcome.connected)
    return ids.map((id) => violation(id, '/', `the host reported ${JSON.stringify(target.label)} at a plaintext http:// URL on a non-loopback name as connected; required: the connection is refused`));
  if (outcome.error === undefined)
    return [violation(ids[0] ?? 'C7', '/', `connecting ${JSON.stringify(target.label)} over plaintext HTTP neither succeeded nor failed; required: a refusal the caller sees`)];
  const text = `${describeHostError(outcome.error)} ${String(memberOf(outcome.error, 'code') ?? '')}`;
  if (RESOLUTION_FAILURE.test(text)) {
    throw new CapabilityUnverified(
      'name-resolution-hook',
      `the host answered the plaintext connection with a failed name resolution (${text.slice(0, 200)}), so it went on to resolve the name; whether it would then have refused needs the hook — ${ids.join(', ')} not witnessed, counted apart`,
    );
  }
  return [];
}

export function checkPlaintextRefused(
  ids: readonly string[],
  target: HttpTargetInfo,
  requests: readonly RecordedRequest[],
  outcome: { connected: boolean; error: unknown; lookups: readonly string[] },
): Finding[] {
  const out: Finding[] = [];
  const clear = requests.filter((r) => !r.tls);
  const withAuth = clear.filter((r) => r.headers.authorization !== undefined).length;
  const lookups = outcome.lookups.length === 0 ? 'the name was never resolved' : `the name was resolved ${outcome.lookups.length} time(s)`;
  for (const id of ids) {
    if (clear.length > 0) {
      const queries = clear.filter((r) => r.envelope?.type === 'query').length;
      out.push(
        violation(
          id,
          '/',
          `the host sent ${clear.length} request(s) in cleartext (${typesOf(clear)}) to ${target.url}, a non-loopback provider${queries > 0 ? `, ${queries} of them a query payload` : ''}${withAuth > 0 ? `, ${withAuth} carrying an Authorization header` : ''} (${lookups}); required: TLS for every non-loopback provider, plaintext refused before any byte leaves`,
        ),
      );
    }
    if (outcome.connected) {
      out.push(violation(id, '/', `the host reported ${JSON.stringify(target.label)} at ${target.url} (plaintext, not loopback) as connected; required: the connection is refused`));
    }
  }
  if (!outcome.connected && outcome.error === undefined) {
    out.push(violation(ids[0] ?? 'C7', '/', `connecting ${JSON.stringify(target.label)} at ${target.url} neither succeeded nor failed; required: a refusal the caller sees`));
  }
  return out;
}

/** One place the host put text a user can read or ship off-machine (a log, an error, a result). */
export interface Surface {
  where: string;
  value: unknown;
}

/** Every rendering of a value a user or a report could see: text, message and stack, inspect, JSON. */
export function renderings(value: unknown): string[] {
  if (value === undefined) return [];
  if (typeof value === 'string') return [value];
  const out: string[] = [];
  if (value instanceof Error) out.push(String(value.message), String(value.stack ?? ''));
  out.push(String(value));
  out.push(inspect(value, { depth: Infinity, showHidden: true, getters: false }));
  try {
    out.push(JSON.stringify(value) ?? '');
  } catch {
    /* cyclic: inspect covered it */
  }
  return out;
}

/**
 * C8: the bearer credential the host was given (and really sent: the provider saw it) appears in no log
 * line and no error or result the host surfaced. The excerpt in a finding masks the token.
 */
export function checkCredentialNotSurfaced(ids: readonly string[], token: string, surfaces: readonly Surface[]): Finding[] {
  const out: Finding[] = [];
  for (const s of surfaces) {
    const hit = renderings(s.value).find((t) => t.includes(token));
    if (hit === undefined) continue;
    const at = hit.indexOf(token);
    const excerpt = (hit.slice(Math.max(0, at - 80), at) + '<THE-TOKEN>' + hit.slice(at + token.length, at + token.length + 40)).replace(/\s+/g, ' ');
    for (const id of ids) {
      out.push(
        violation(
          id,
          '/',
          `the bearer credential used to reach the provider appears in ${s.where}: …${excerpt}…; required: no log line or surfaced error carries a credential or authorization header`,
        ),
      );
    }
  }
  return out;
}

/** Whether the provider saw the credential (otherwise a C8 scenario witnesses nothing). */
export function credentialWasSent(token: string, requests: readonly RecordedRequest[]): boolean {
  return requests.some((r) => r.headers.authorization === `Bearer ${token}`);
}

/** For a harness message: how the requests were authorised (the token itself masked). */
export function describeAuthorization(token: string, requests: readonly RecordedRequest[]): string {
  if (requests.length === 0) return 'the provider received no request';
  return requests
    .map((r) => {
      const a = r.headers.authorization;
      return `${typeof r.envelope?.type === 'string' ? r.envelope.type : '?'}: ${a === undefined ? 'no Authorization header' : String(a).split(token).join('<THE-TOKEN>')}`;
    })
    .join('; ');
}
