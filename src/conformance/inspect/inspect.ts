/**
 * `cgp-conformance inspect`: a look at one's own provider, judging nothing (docs/interpretations.md §66).
 * Handshake, show the ack (identity, capabilities, data_flow, attester keys), run one sample query, and show
 * each frame: id, kind, representation, token_cost and whether it recomputes (B3: ceil(bytes/4)), whether its
 * content_digest recomputes (SHA-256 of the inline content), a provenance summary and its relations.
 */
import { isJsonObject, type JsonObject } from '../../protocol/json-value.js';
import { budgetTokens } from '../../protocol/token-cost.js';
import { sha256Digest } from '../../protocol/digest.js';
import { PROTOCOL_VERSION } from '../../protocol/version.js';
import { resolveSuiteConfig } from '../provider-suite/config.js';
import { describeError } from '../provider-suite/errors.js';
import { ackOf, neverAnswered, performHandshake } from '../provider-suite/handshake.js';
import { openSession } from '../provider-suite/session.js';

export interface InspectOptions {
  target: { kind: 'stdio'; command: string; args: string[] } | { kind: 'http'; url: string };
  goal: string;
  kinds: string[];
  maxTokens: number;
  maxFrames: number;
  timeoutMs?: number;
}

export interface InspectedFrame {
  id: unknown;
  kind: unknown;
  representation: string;
  token_cost: unknown;
  /** ceil(UTF-8 bytes of content / 4), when there is inline content. */
  token_cost_expected: number | null;
  token_cost_recomputes: boolean | null;
  content_digest: unknown;
  content_digest_recomputes: boolean | null;
  provenance: string;
  relations: string[];
}

export interface Inspection {
  target: string;
  /** 0 shown; 1 the target answered but not with an ack / frames; 3 it never answered the handshake. */
  exit_code: number;
  handshake_ms?: number;
  ack?: JsonObject;
  handshake_reply?: JsonObject;
  problem?: string;
  query?: JsonObject;
  reply_type?: string;
  reply?: JsonObject;
  frames?: InspectedFrame[];
  query_ms?: number;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '—' : JSON.stringify(v));
/** A file:// URI by its last path segment (the table is for reading; --json keeps the full URI). */
const short = (v: unknown): string => (typeof v === 'string' && v.startsWith('file://') ? `…/${v.split('/').pop()}` : str(v));

/** The result members other than frames, one phrase each. */
function resultSummary(result: JsonObject): string {
  return Object.entries(result)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? `${v.length} entr${v.length === 1 ? 'y' : 'ies'}` : isJsonObject(v) ? 'present' : JSON.stringify(v)}`)
    .join('; ');
}

export function inspectFrame(f: JsonObject): InspectedFrame {
  const content = typeof f.content === 'string' ? f.content : undefined;
  const expected = content !== undefined ? budgetTokens(content) : null;
  const digest = content !== undefined ? sha256Digest(content) : null;
  const prov = Array.isArray(f.provenance) ? f.provenance.filter(isJsonObject) : [];
  const provenance =
    prov.length === 0
      ? 'none'
      : `${prov.length}: ${prov
          .slice(0, 3)
          .map((p) => `${str(p.type)} ${short(p.uri ?? p.source)}${p.range !== undefined ? ` ${str(p.range)}` : ''}${p.method !== undefined ? ` (${str(p.method)})` : ''}`)
          .join('; ')}${prov.length > 3 ? '; …' : ''}`;
  const rels = Array.isArray(f.relations) ? f.relations.filter(isJsonObject) : [];
  return {
    id: f.id,
    kind: f.kind,
    representation: typeof f.representation === 'string' ? f.representation : 'full',
    token_cost: f.token_cost,
    token_cost_expected: expected,
    token_cost_recomputes: expected === null ? null : f.token_cost === expected,
    content_digest: f.content_digest,
    content_digest_recomputes: digest === null || f.content_digest === undefined ? null : f.content_digest === digest,
    provenance,
    relations: rels.map((r) => `${str(r.rel)} → ${short(r.target_uri ?? r.target_id ?? r.target)}`),
  };
}

export async function inspect(opts: InspectOptions): Promise<Inspection> {
  const config = resolveSuiteConfig({
    target: opts.target,
    ...(opts.timeoutMs !== undefined ? { timeouts: { handshakeMs: opts.timeoutMs, requestMs: opts.timeoutMs } } : {}),
    env: { ...process.env, CGP_PROVIDER: '', CGP_PROVIDER_URL: '', CGP_MISBEHAVE: '' },
  });
  const out: Inspection = { target: config.target.label, exit_code: 0 };
  let session;
  try {
    session = await openSession(config);
  } catch (err) {
    return { ...out, exit_code: 3, problem: `could not reach the target: ${describeError(err)}` };
  }
  try {
    const hs = await performHandshake(session, PROTOCOL_VERSION);
    out.handshake_ms = hs.elapsedMs;
    const ack = ackOf(hs);
    if (!ack) {
      if (hs.reply) out.handshake_reply = hs.reply;
      out.exit_code = neverAnswered(hs) ? 3 : 1;
      out.problem = hs.reply ? `the handshake was answered with a "${hs.reply.type}" envelope, not a handshake_ack` : `no handshake answer: ${describeError(hs.error)}`;
      return out;
    }
    out.ack = ack;
    const caps = isJsonObject(ack.capabilities) ? ack.capabilities : {};
    const query: JsonObject = { goal: opts.goal, query_text: opts.goal, kinds: opts.kinds, anchors: [], max_frames: opts.maxFrames, max_tokens: opts.maxTokens };
    const envelope: JsonObject = { type: 'query', query };
    if (caps.correlation === true) envelope.id = 'inspect-1';
    out.query = envelope;
    const t0 = Date.now();
    let reply;
    try {
      reply = await session.request(envelope);
    } catch (err) {
      out.exit_code = 1;
      out.problem = `the sample query got no reply: ${describeError(err)}`;
      return out;
    }
    out.query_ms = Date.now() - t0;
    if (!reply) {
      out.exit_code = 1;
      out.problem = 'the sample query was answered 204 No Content';
      return out;
    }
    out.reply_type = reply.type;
    if (reply.type !== 'frames' || !isJsonObject(reply.result)) {
      out.reply = reply;
      out.exit_code = 1;
      out.problem = `the sample query was answered with a "${reply.type}" envelope${reply.type === 'error' ? ` (${str(reply.code)}: ${str(reply.message)})` : ''}`;
      return out;
    }
    const frames = Array.isArray(reply.result.frames) ? reply.result.frames.filter(isJsonObject) : [];
    out.frames = frames.map(inspectFrame);
    const { frames: _f, ...rest } = reply.result;
    out.reply = { type: reply.type, ...(reply.id !== undefined ? { id: reply.id } : {}), result: rest };
    return out;
  } finally {
    if (session.kind === 'stdio') await session.shutdown().catch(() => undefined);
    await session.close();
  }
}

function yesNo(v: boolean | null): string {
  return v === null ? 'n/a' : v ? 'yes' : 'NO';
}

function table(head: string[], rows: string[][]): string[] {
  const width = head.map((h, i) => Math.min(60, Math.max(h.length, ...rows.map((r) => r[i]!.length))));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (c.length > width[i]! ? `${c.slice(0, width[i]! - 1)}…` : c.padEnd(width[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), line(width.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

export function renderInspection(i: Inspection): string {
  const out: string[] = [`target: ${i.target}`];
  if (i.ack) {
    const a = i.ack;
    const p = isJsonObject(a.provider) ? a.provider : {};
    const caps = isJsonObject(a.capabilities) ? a.capabilities : {};
    out.push(
      '',
      `handshake_ack (${i.handshake_ms} ms)`,
      `  provider          ${str(p.name)} ${str(p.version)}`,
      `  protocol_version  ${str(a.protocol_version)}`,
      `  data_flow         ${str(p.data_flow ?? a.data_flow)}`,
      '  capabilities',
      ...Object.entries(caps).map(([k, v]) => `    ${k.padEnd(22)} ${str(v)}`),
      '  attester_keys',
      ...(Array.isArray(a.attester_keys) && a.attester_keys.length > 0
        ? a.attester_keys.filter(isJsonObject).map((k) => `    ${str(k.key_id)} (${str(k.algorithm)}) ${str(k.public_key)}`)
        : ['    none']),
    );
  }
  if (i.query) out.push('', `query: ${JSON.stringify(i.query)}`);
  if (i.frames) {
    out.push(
      '',
      `frames reply (${i.query_ms} ms): ${i.frames.length} frame(s)${i.reply?.result && Object.keys(i.reply.result).length > 0 ? `; ${resultSummary(i.reply.result as JsonObject)}` : ''}`,
      '',
    );
    const total = i.frames.reduce((n, f) => n + (typeof f.token_cost === 'number' ? f.token_cost : 0), 0);
    out.push(
      ...table(
        ['id', 'kind', 'representation', 'token_cost', 'recomputes?', 'digest recomputes?', 'provenance', 'relations'],
        i.frames.map((f) => [
          str(f.id),
          str(f.kind),
          f.representation,
          str(f.token_cost),
          f.token_cost_recomputes === false ? `NO (ceil(bytes/4) = ${f.token_cost_expected})` : yesNo(f.token_cost_recomputes),
          yesNo(f.content_digest_recomputes),
          f.provenance,
          f.relations.length === 0 ? '—' : f.relations.join(', '),
        ]),
      ),
      '',
      `token_cost total: ${total}; nothing was judged — run \`cgp-conformance stdio|http\` for the conformance suite`,
    );
  }
  if (i.problem) out.push('', `problem: ${i.problem}`);
  if (i.reply && !i.frames) out.push(`reply: ${JSON.stringify(i.reply)}`);
  if (i.handshake_reply) out.push(`handshake reply: ${JSON.stringify(i.handshake_reply)}`);
  return `${out.join('\n')}\n`;
}
