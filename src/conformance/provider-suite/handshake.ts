/**
 * Handshake probes (§3, H1–H3, S3.1-compare-families): send one handshake, keep what came back (or the
 * transport error), and judge it — in-family versions must get a handshake_ack in that family, a foreign
 * family must get the named error `incompatible_version`, promptly (never a hang).
 */
import { violation, warning, type Finding } from '../../protocol/findings.js';
import { describeValue, isJsonObject, type JsonObject } from '../../protocol/json-value.js';
import { majorFamily, PROTOCOL_VERSION, versionsCompatible } from '../../protocol/version.js';
import { PeerClosedError, TimeoutError, TransportError } from '../../transport/errors.js';
import type { RawEnvelope } from '../../transport/ndjson.js';
import { checkAckExtras, checkReply, emptyEvidence, mergeInto, type Evidence } from './checks.js';
import type { TargetSpec } from './config.js';
import { describeError, isTargetError } from './errors.js';
import type { ProviderSession } from './session.js';

export interface HandshakeOutcome {
  version: string;
  reply?: RawEnvelope;
  /** The transport error instead of a reply (timeout, EOF, garbage). */
  error?: unknown;
  elapsedMs: number;
}

export async function performHandshake(session: ProviderSession, version: string): Promise<HandshakeOutcome> {
  const t0 = Date.now();
  try {
    const reply = await session.handshake(version);
    return { version, reply, elapsedMs: Date.now() - t0 };
  } catch (error) {
    if (!isTargetError(error)) throw error;
    return { version, error, elapsedMs: Date.now() - t0 };
  }
}

/** The handshake_ack in an outcome, if that is what came back. */
export function ackOf(outcome: HandshakeOutcome | undefined): JsonObject | undefined {
  return outcome?.reply?.type === 'handshake_ack' ? outcome.reply : undefined;
}

/** True when the target sent nothing at all (spawn failure aside): timeout, EOF, refused — exit code 3 (docs/architecture.md "Exit codes"). */
export function neverAnswered(outcome: HandshakeOutcome): boolean {
  if (outcome.reply !== undefined) return false;
  const err = outcome.error;
  return err instanceof TimeoutError || err instanceof PeerClosedError || (err instanceof TransportError && (err.code === 'network' || err.code === 'spawn_failed'));
}

function seenReply(reply: RawEnvelope): string {
  if (reply.type === 'error') return `error ${describeValue(reply.code)} (${describeValue(reply.message)})`;
  return `a "${reply.type}" envelope`;
}

/** Judge the answer to an in-family handshake (H1, H2, C3, C5, U3, E1, S4.1, S6.4.1, S3.1, wire shape). */
export function judgeInFamily(outcome: HandshakeOutcome, target: TargetSpec): Evidence {
  const ev = emptyEvidence();
  ev.witnesses.H1 = 1;
  const sent = outcome.version;
  const laterMinor = sent !== PROTOCOL_VERSION;
  if (laterMinor) ev.witnesses['S3.1-compare-families'] = 1;
  const refuse = (seen: string) => {
    ev.findings.push(violation('H1', '', `handshake ${JSON.stringify(sent)} answered with ${seen}; required a handshake_ack in family ${majorFamily(sent)}`));
    if (laterMinor) {
      ev.findings.push(
        warning(
          'S3.1-compare-families',
          '',
          `a ${sent} handshake (family ${majorFamily(sent)}, the target's own) was not acknowledged (${seen}): the target appears to compare whole version strings instead of major families`,
        ),
      );
    }
  };
  if (outcome.reply === undefined) {
    const err = outcome.error;
    refuse(err instanceof TimeoutError ? `nothing within the handshake timeout (${describeError(err)})` : `no envelope (${describeError(err)})`);
    return ev;
  }
  if (outcome.reply.type !== 'handshake_ack') {
    refuse(seenReply(outcome.reply));
    return ev;
  }
  ev.witnesses.H2 = 1;
  mergeInto(ev, checkReply(outcome.reply, { hostVersion: sent }));
  mergeInto(ev, checkAckExtras(outcome.reply, target));
  return ev;
}

/** Judge the answer to a foreign-family handshake (H3 provider side; docs/interpretations.md §1). */
export function judgeForeign(outcome: HandshakeOutcome, handshakeTimeoutMs: number): Evidence {
  const ev = emptyEvidence();
  ev.witnesses.H3 = 1;
  const sent = outcome.version;
  const required = `required a prompt error with code "incompatible_version" (the named error of H3, §10)`;
  const add = (f: Finding) => ev.findings.push(f);
  if (outcome.reply === undefined) {
    const err = outcome.error;
    const seen =
      err instanceof TimeoutError
        ? `no reply within ${handshakeTimeoutMs} ms — left to hang${/retried once on a connection started alone/.test(err.message) ? ' (retried once on a connection started alone: no reply either)' : ''}`
        : err instanceof PeerClosedError
          ? `the connection closed with no named error (${err.message})`
          : `no envelope (${describeError(err)})`;
    add(violation('H3', '', `a ${sent} handshake (family ${majorFamily(sent)}, not ${majorFamily(PROTOCOL_VERSION)}) got ${seen}; ${required}`));
    return ev;
  }
  const reply = outcome.reply;
  // Every reply goes through every applicable check: an ack answering a foreign-family handshake is judged
  // against the host's version too — outside the host's family it violates H1 as well as H3.
  mergeInto(ev, checkReply(reply, { hostVersion: sent }));
  if (reply.type === 'error' && reply.code === 'incompatible_version') return ev;
  if (reply.type === 'handshake_ack') {
    const version = isJsonObject(reply) ? reply.protocol_version : undefined;
    add(
      violation(
        'H3',
        '',
        `a ${sent} handshake was acknowledged (handshake_ack protocol_version ${describeValue(version)}${versionsCompatible(version, sent) ? '' : ", not even in the host's family"}) instead of refused; ${required}`,
      ),
    );
    return ev;
  }
  add(violation('H3', '/code', `a ${sent} handshake got ${seenReply(reply)}; ${required}`));
  return ev;
}
