/**
 * Provider-side check orchestration: every reply the target sends is run through the interop schema
 * (src/schema), the protocol checks (src/protocol) and the few checks that need what only a live exchange
 * knows (the query it answers, the capabilities the target advertised, the id the harness sent). Pure: no
 * I/O. Each function returns Evidence — findings plus, per rule id, how many things were examined.
 */
import { checkEnvelope, type EnvelopeContext } from '../../protocol/envelope-checks.js';
import { decodeEnvelope } from '../../protocol/decoder.js';
import { violation, warning, WIRE_SHAPE, type Finding } from '../../protocol/findings.js';
import { frameLabel } from '../../protocol/frame-checks.js';
import { pointerJoin } from '../../util/json-pointer.js';
import { describeValue, hasValue, isJsonObject, type JsonObject } from '../../protocol/json-value.js';
import { classifyName } from '../../protocol/namespaced-name.js';
import { compareProtocolTimestamps, isProtocolTimestamp } from '../../protocol/timestamp.js';
import { budgetTokens, utf8ByteLength } from '../../protocol/token-cost.js';
import { isWellFormedDigest } from '../../protocol/digest.js';
import { BASE_EGRESS_SCOPES, BASE_ERROR_CODES, BASE_RELS } from '../../protocol/vocabulary.js';
import { isLoopbackHost } from '../../transport/loopback.js';
import { parseEnvelopeLine } from '../../transport/ndjson.js';
import type { TargetSpec } from './config.js';
import type { InboundLine } from './session.js';

/** Findings plus what was examined, per rule id. */
export interface Evidence {
  findings: Finding[];
  witnesses: Record<string, number>;
  /** Why a rule had nothing to examine, per id. */
  reasons: Record<string, string>;
}

export function emptyEvidence(): Evidence {
  return { findings: [], witnesses: {}, reasons: {} };
}

function count(ev: Evidence, id: string, n = 1): void {
  if (n > 0) ev.witnesses[id] = (ev.witnesses[id] ?? 0) + n;
}

function because(ev: Evidence, id: string, reason: string): void {
  ev.reasons[id] ??= reason;
}

export interface ReplyContext {
  /** The query a frames reply answers (B1, B4, Q1, S6.1-as-of). */
  query?: JsonObject;
  /** The id the harness put on the request (H4), when it sent one. */
  requestId?: string;
  /** The target's handshake provider.name (F11 identities). */
  providerName?: string;
  /** capabilities.representations as advertised (P5); undefined = not advertised (full only). */
  advertised?: readonly string[];
  /** The representations the harness asked for (P5: asking for an unadvertised one is a probe). */
  requested?: readonly string[];
  /** Host version sent in the handshake this ack answers (H1). */
  hostVersion?: string;
  /** The target is loaded in-process (§6.4.1): nothing crosses a transport binding. */
  inProcess?: boolean;
}

/** Why a rule usually has nothing to examine, when no probe said more precisely. */
export const DEFAULT_UNWITNESSED: Readonly<Record<string, string>> = {
  F4: 'no frame carried valid_from, valid_to or recorded_at',
  F5: 'no frame carried file provenance',
  D1: 'no frame carried a content_digest',
  'S6.3-content-digest': 'no frame carried inline content with a well-formed content_digest',
  P1: 'no full frame was served',
  P2: 'no compact frame was served',
  P3: 'no reference frame was served',
  P4: "no compact or reference frame was served (a full frame's cost is B3)",
  G1: 'no frame carried a relation',
  G2: 'no frame carried a relation',
  F1: 'no frame was served',
  F2: 'no frame was served',
  F3: 'no frame was served',
  F6: 'no frame was served',
  B3: 'no frame with inline content was served',
  P5: 'no frame was served',
};

/** Schema issues (interop profile) of one received envelope, as findings under their anchor ids. */
export function wireShapeFindings(envelope: unknown): Finding[] {
  const decoded = decodeEnvelope(envelope);
  if (decoded.ok) return [];
  const issues = decoded.error.issues;
  if (issues.length === 0) return [violation(WIRE_SHAPE, '', decoded.error.message.replace(/^S2-wire-shape violated: /, ''))];
  return issues.map((i) => ({ id: i.id, severity: 'error' as const, pointer: i.pointer, message: i.message }));
}

/** Everything checkable about one reply from the target. */
export function checkReply(reply: JsonObject, ctx: ReplyContext = {}): Evidence {
  const ev = emptyEvidence();
  count(ev, WIRE_SHAPE);
  ev.findings.push(...wireShapeFindings(reply));
  const envCtx: EnvelopeContext = { overTransport: ctx.inProcess !== true };
  if (ctx.query !== undefined) envCtx.query = ctx.query;
  if (ctx.providerName !== undefined) envCtx.providerName = ctx.providerName;
  if (ctx.hostVersion !== undefined) envCtx.hostVersion = ctx.hostVersion;
  ev.findings.push(...checkEnvelope(reply, '', envCtx));

  // H4: an id the harness sent comes back verbatim on the reply.
  if (ctx.requestId !== undefined && (reply.type === 'frames' || reply.type === 'error')) {
    count(ev, 'H4');
    if (reply.id !== ctx.requestId) {
      ev.findings.push(
        violation(
          'H4',
          '/id',
          `${reply.id === undefined ? `the ${reply.type} reply carries no id` : `${reply.type} reply carries id ${describeValue(reply.id)}`}; the request carried id ${JSON.stringify(ctx.requestId)}, which a provider declaring correlation MUST echo verbatim`,
        ),
      );
    }
  }
  if (reply.type === 'error') {
    if (hasValue(reply, 'code')) countName(ev, reply.code, BASE_ERROR_CODES);
  }
  if (reply.type === 'frames' && isJsonObject(reply.result)) mergeInto(ev, checkFramesResult(reply.result, ev.findings, ctx));
  return ev;
}

function countName(ev: Evidence, value: unknown, base: readonly string[]): void {
  if (classifyName(value, base) !== 'not-a-string') count(ev, 'U3');
}

export function mergeInto(into: Evidence, from: Evidence): void {
  into.findings.push(...from.findings);
  for (const [id, n] of Object.entries(from.witnesses)) count(into, id, n);
  for (const [id, r] of Object.entries(from.reasons)) because(into, id, r);
}

/** Witness counts and the live-exchange checks for a frames result (protocol findings are already in `existing`). */
function checkFramesResult(result: JsonObject, existing: readonly Finding[], ctx: ReplyContext): Evidence {
  const ev = emptyEvidence();
  const frames = Array.isArray(result.frames) ? result.frames : [];
  const at = (i: number, ...rest: Array<string | number>) => pointerJoin('/result/frames', i, ...rest);
  if (ctx.inProcess === true) {
    // §6.4.1: an in-process provider MAY serve reference frames; the transport SHOULD NOT does not apply
    because(ev, 'S6.4.1-no-reference-over-transport', 'the target is loaded in-process: no frame crosses a transport binding');
    const references = frames.filter((f) => isJsonObject(f) && f.representation === 'reference').length;
    if (references > 0) count(ev, 'S6.4.1-in-process-reference', references);
    else because(ev, 'S6.4.1-in-process-reference', 'the in-process target served no reference frame');
  } else count(ev, 'S6.4.1-no-reference-over-transport');
  if (ctx.query !== undefined) {
    if (typeof ctx.query.max_tokens === 'number') count(ev, 'B1');
    if (typeof ctx.query.max_frames === 'number') count(ev, 'B4');
    if (Array.isArray(ctx.query.kinds) && ctx.query.kinds.length > 0) count(ev, 'Q1');
  }
  if (hasValue(result, 'result_attestation') || hasValue(result, 'frame_attestations')) count(ev, 'F7');
  frames.forEach((frame, i) => {
    if (!isJsonObject(frame)) return;
    const rep = frame.representation === undefined ? 'full' : frame.representation;
    for (const id of ['F1', 'F2', 'F3', 'F6', 'F11', 'P5']) count(ev, id);
    if (rep !== 'reference') count(ev, 'B3');
    for (const key of ['valid_from', 'valid_to', 'recorded_at']) if (hasValue(frame, key)) count(ev, 'F4');
    if (Array.isArray(frame.provenance)) count(ev, 'F5', frame.provenance.filter((p) => isJsonObject(p) && p.type === 'file').length);
    if (hasValue(frame, 'content_digest')) count(ev, 'D1');
    if (typeof frame.content === 'string' && isWellFormedDigest(frame.content_digest)) count(ev, 'S6.3-content-digest');
    if (rep === 'full') count(ev, 'P1');
    if (rep === 'compact') count(ev, 'P2');
    if (rep === 'reference') count(ev, 'P3');
    if (rep === 'compact' || rep === 'reference') count(ev, 'P4');
    if (Array.isArray(frame.relations)) {
      const rels = frame.relations.filter(isJsonObject);
      count(ev, 'G1', rels.length);
      count(ev, 'G2', rels.length);
      for (const r of rels) countName(ev, r.rel, BASE_RELS);
    }
    // P4 (§6.4): a compact frame's token_cost is the cost of its distilled inline bytes (B3 on those bytes).
    if (rep === 'compact') {
      const b3 = existing.find((f) => f.id === 'B3' && f.pointer === at(i, 'token_cost'));
      if (b3) {
        const content = typeof frame.content === 'string' ? frame.content : '';
        ev.findings.push(
          violation(
            'P4',
            at(i, 'token_cost'),
            `compact ${frameLabel(frame, at(i))} declares token_cost ${describeValue(frame.token_cost)}; a compact frame declares the cost of its inline rendering, ${utf8ByteLength(content)} bytes → ${budgetTokens(content)}${typeof frame.canonical_token_cost === 'number' ? ` (the full-source cost ${frame.canonical_token_cost} belongs in canonical_token_cost)` : ''}`,
          ),
        );
      }
    }
    // F11: an attestation travels beside the frame, never as a member of it ("F6 on the wire").
    for (const f6 of existing.filter((f) => f.id === 'F6' && f.pointer.startsWith(`${at(i)}/`))) {
      ev.findings.push(violation('F11', f6.pointer, f6.message.replace(/^F6 violated: /, '') + ' (F11: attestations travel in result.frame_attestations / result.result_attestation)'));
    }
    // P5: a representation the target did not advertise, and the harness did not ask for.
    if (rep !== 'full' && typeof rep === 'string') {
      const advertised = ctx.advertised ?? ['full'];
      if (!advertised.includes(rep) && !(ctx.requested ?? []).includes(rep)) {
        ev.findings.push(
          warning(
            'P5',
            at(i, 'representation'),
            `${frameLabel(frame, at(i))} is served as ${JSON.stringify(rep)}, which capabilities.representations (${JSON.stringify(ctx.advertised ?? null)}) does not advertise; a host can only negotiate what is advertised`,
          ),
        );
      }
    }
    // S6.1-as-of: a frame whose validity ended before the pin was not true at that instant.
    const asOf = ctx.query?.as_of;
    if (isProtocolTimestamp(asOf)) {
      const order = compareProtocolTimestamps(frame.valid_to, asOf);
      if (order !== undefined && order < 0) {
        ev.findings.push(
          warning('S6.1-as-of', at(i, 'valid_to'), `${frameLabel(frame, at(i))} has valid_to ${String(frame.valid_to)}, before the query's as_of ${asOf}: it was no longer true at the pinned instant`),
        );
      }
    }
  });
  return ev;
}

/** Checks on a handshake_ack beyond checkHandshakeAck: C3 honesty where the transport knows, S4.1 scopes. */
export function checkAckExtras(ack: JsonObject, target: TargetSpec): Evidence {
  const ev = emptyEvidence();
  const provider = isJsonObject(ack.provider) ? ack.provider : undefined;
  const dataFlow = provider && isJsonObject(provider.data_flow) ? provider.data_flow : undefined;
  const at = '/provider/data_flow';
  if (dataFlow) {
    count(ev, 'C5');
    count(ev, 'C3');
    if (typeof dataFlow.egress !== 'boolean') {
      ev.findings.push(warning('C3', pointerJoin(at, 'egress'), `data_flow.egress is ${describeValue(dataFlow.egress)}; a provider SHOULD declare egress honestly as a boolean`));
    } else if (dataFlow.egress === false && target.kind === 'http') {
      let host: string | undefined;
      try {
        host = new URL(target.url).hostname;
      } catch {
        host = undefined;
      }
      if (host !== undefined && !isLoopbackHost(host)) {
        ev.findings.push(
          warning(
            'C3',
            pointerJoin(at, 'egress'),
            `data_flow.egress is false, but the target is reached at non-loopback host ${host}: every query and frame crosses the network (C4 makes a host treat it as egress regardless)`,
          ),
        );
      }
    }
    if (Array.isArray(dataFlow.egress_scopes)) {
      const scopes: unknown[] = dataFlow.egress_scopes;
      count(ev, 'S4.1-egress-scopes', scopes.length);
      for (const scope of scopes) countName(ev, scope, BASE_EGRESS_SCOPES);
      if (scopes.length === 0) because(ev, 'S4.1-egress-scopes', 'the target declares an empty egress_scopes list (the MAY is not exercised)');
      scopes.forEach((scope, i) => {
        const cls = classifyName(scope, BASE_EGRESS_SCOPES);
        if (cls !== 'base' && cls !== 'namespaced') {
          ev.findings.push(
            warning(
              'S4.1-egress-scopes',
              pointerJoin(at, 'egress_scopes', i),
              `egress scope ${describeValue(scope)} is neither in the vocabulary (${BASE_EGRESS_SCOPES.join(', ')}) nor a namespaced vendor:name scope`,
            ),
          );
        }
      });
    } else {
      because(ev, 'S4.1-egress-scopes', 'the target declares no egress_scopes (the MAY is not exercised)');
    }
  } else {
    because(ev, 'C3', 'the handshake_ack carries no provider.data_flow');
    because(ev, 'C5', 'the handshake_ack carries no provider.data_flow');
  }
  const caps = isJsonObject(ack.capabilities) ? ack.capabilities : undefined;
  const reps = caps && Array.isArray(caps.representations) ? caps.representations : [];
  if (reps.includes('compact') || reps.includes('reference')) count(ev, 'S6.4.1-resolve-declared');
  else because(ev, 'S6.4.1-resolve-declared', 'the target advertises neither compact nor reference');
  if (caps && hasValue(caps, 'embeddings_fingerprint')) count(ev, 'E1');
  return ev;
}

/**
 * Framing of raw inbound lines (stdio binding): each line is exactly one envelope. Consecutive lines that
 * only parse when joined are one envelope split by literal newlines (S2.1-no-newline); any other line that
 * is not an envelope is an S2-wire-shape violation.
 */
export function checkLines(lines: readonly InboundLine[], where: string): Evidence {
  const ev = emptyEvidence();
  // Each line is examined for the wire shape (one envelope per line); only envelopes witness S2.1-no-newline
  // (a line of garbage says nothing about newlines inside envelopes: it is an S2-wire-shape violation).
  count(ev, WIRE_SHAPE, lines.length);
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.error === undefined && !(parseEnvelopeLine(line.text) instanceof Error)) {
      count(ev, 'S2.1-no-newline');
      i++;
      continue;
    }
    // Try to join this line with the following ones into one envelope.
    let joined: { end: number; type: string } | undefined;
    if (line.error === undefined) {
      let text = line.text;
      for (let j = i + 1; j < lines.length && j < i + 10_000; j++) {
        if (lines[j]!.error !== undefined) break;
        text += `\n${lines[j]!.text}`;
        const parsed = parseEnvelopeLine(text);
        if (!(parsed instanceof Error)) {
          joined = { end: j, type: parsed.type };
          break;
        }
      }
    }
    if (joined) {
      count(ev, 'S2.1-no-newline');
      const first = lines[i]!.line;
      const last = lines[joined.end]!.line;
      ev.findings.push(
        violation('S2.1-no-newline', '', `${where}: lines ${first}–${last} are one "${joined.type}" envelope split by ${last - first} literal newline(s); required exactly one envelope per line`),
      );
      i = joined.end + 1;
      continue;
    }
    const shown = line.text.length > 120 ? `${line.text.slice(0, 119)}…` : line.text;
    ev.findings.push(
      violation(
        WIRE_SHAPE,
        '',
        `${where}: line ${line.line} is not an envelope (${line.error ?? (parseEnvelopeLine(line.text) as Error).message.replace(/^S2: /, '')}): ${JSON.stringify(shown)}; required one JSON object with a string "type" per line`,
      ),
    );
    i++;
  }
  if (!ev.witnesses['S2.1-no-newline']) because(ev, 'S2.1-no-newline', 'no line the target wrote was an envelope');
  return ev;
}

/** G4 predicate: anchored by `anchor` at zero hops (own uri) or one hop (a relation target). */
export function isAnchoredBy(frame: unknown, anchors: readonly string[]): boolean {
  if (!isJsonObject(frame)) return false;
  if (typeof frame.uri === 'string' && anchors.includes(frame.uri)) return true;
  return Array.isArray(frame.relations) && frame.relations.some((r) => isJsonObject(r) && typeof r.target_uri === 'string' && anchors.includes(r.target_uri));
}
