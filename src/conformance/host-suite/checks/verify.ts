/**
 * Host-facing checks of verify & reuse (§6.3 D3/D4, §9 V1/V4, S9-verify-correlation) and of
 * attestation verdicts (§6.5.4 F8/F9, S6.5.4-distinct-verdicts, S6.5.4-strict-ed25519). Pure functions from what the
 * scenario observed — the lines a provider RECEIVED or SENT on the wire, what the host returned —
 * to findings; each message starts with the id it witnesses and says seen vs required.
 *
 * The last section holds the one scenario helper these checks need that HostScenario lacks: connect
 * the BUNDLED reference provider (it signs its results) through a recording tee, so "the provider
 * served these frames" is an observation of the wire, not of the host's own bookkeeping.
 */
import { createHash } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Writable } from 'node:stream';
import type { FrameId } from '../../../../generated/types/index.js';
import type { ComposedPrompt } from '../../../host/compose/types.js';
import type { FanOutResult } from '../../../host/fan-out.js';
import type { ReceivedFrame } from '../../../host/types.js';
import type { VerifyOutcome } from '../../../host/verify-reuse.js';
import { renderDigest, resultSetRoot } from '../../../attest/index.js';
import { violation, warning, type Finding } from '../../../protocol/findings.js';
import { frameIdKey } from '../../../protocol/identity.js';
import { findPackageRoot } from '../../../util/package-root.js';
import { bundledProviderCommand } from '../../provider-suite/config.js';
import { createProvider } from '../../../provider/core.js';
import { runStdioProvider } from '../../../provider/serve.js';
import { relayedCommand, type PeerStart } from '../scripted/scripted-relay.js';
import type { HostScenario } from '../scenario.js';
import { readNdjsonFile } from '../scripted/ndjson-file.js';
import { isJsonObject as isObject } from '../../../util/json.js';
import { harnessPrecondition, showValue } from './text.js';
import { ProviderIdentities } from '../identity.js';

type Line = Record<string, unknown>;

const show = (value: unknown): string => showValue(value);

/** The verify envelopes among the lines a provider received. */
export function verifiesIn(lines: readonly Line[]): Line[] {
  return lines.filter((l) => l.type === 'verify');
}

/** The identities of one verify envelope's request (entries that are not objects kept as-is). */
function identitiesOf(verify: Line): unknown[] {
  const request = verify.request;
  return isObject(request) && Array.isArray(request.frames) ? request.frames : [];
}

// §6.3: an identity is exactly these members.
const IDENTITY_MEMBERS: ReadonlySet<string> = new Set(['provider_id', 'frame_id', 'content_digest']);
const VERIFY_ENVELOPE_MEMBERS: ReadonlySet<string> = new Set(['type', 'id', 'request']);

/** Every string anywhere inside `value` (to find a body under any member name). */
function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, out);
  else if (isObject(value)) for (const v of Object.values(value)) stringsIn(v, out);
  return out;
}

/**
 * V1 (MUST): every verify the provider received carries frame identities only — no member outside
 * (provider_id, frame_id, content_digest) in an identity, nothing but `frames` in the request, and no
 * held frame's body (content) anywhere in the envelope. V1 (SHOULD): only identities carrying a
 * content_digest are sent (a digest-less one is re-queried instead) — a warning.
 * `expectVerify`: the scenario held digest-bearing frames of a provider declaring verify, so a
 * verify must have reached it (otherwise there is nothing to witness, which is reported, not passed).
 */
export function checkVerifyIdentitiesOnly(provider: { label: string }, received: readonly Line[], held: readonly ReceivedFrame[], expectVerify: boolean): Finding[] {
  const out: Finding[] = [];
  const verifies = verifiesIn(received);
  if (verifies.length === 0) {
    // a host may re-query instead of verifying (D4 is a SHOULD): no verify is nothing to judge, never a V1 finding
    if (expectVerify)
      harnessPrecondition(
        'V1',
        `provider ${JSON.stringify(provider.label)} (declaring capabilities.verify) received no verify for the held frames carrying a content_digest, so no verify request could be judged`,
      );
    return out;
  }
  const bodies = held.map((f) => f.frame.content).filter((c): c is string => typeof c === 'string' && c.length > 0);
  verifies.forEach((verify, n) => {
    const at = `/verify/${n}`;
    const extraEnvelope = Object.keys(verify).filter((k) => !VERIFY_ENVELOPE_MEMBERS.has(k));
    if (extraEnvelope.length > 0) out.push(violation('V1', at, `the verify envelope carries member(s) ${extraEnvelope.join(', ')} beside type/id/request; required: frame identities only`));
    const request = verify.request;
    if (isObject(request)) {
      const extraRequest = Object.keys(request).filter((k) => k !== 'frames');
      if (extraRequest.length > 0) out.push(violation('V1', `${at}/request`, `the verify request carries member(s) ${extraRequest.join(', ')} beside frames; required: frame identities only`));
    }
    identitiesOf(verify).forEach((identity, i) => {
      const iat = `${at}/request/frames/${i}`;
      if (!isObject(identity)) {
        out.push(violation('V1', iat, `entry ${show(identity)} is not a frame identity`));
        return;
      }
      const extra = Object.keys(identity).filter((k) => !IDENTITY_MEMBERS.has(k));
      if (extra.length > 0) {
        out.push(violation('V1', iat, `identity of ${show(identity.frame_id)} carries member(s) ${extra.join(', ')}; required: provider_id, frame_id, content_digest only — never a body`));
      }
      if (identity.content_digest === undefined || identity.content_digest === null) {
        out.push(warning('V1', iat, `identity of ${show(identity.frame_id)} carries no content_digest; a digest-less frame cannot be revalidated and should be re-queried instead`));
      }
    });
    const strings = stringsIn(verify);
    const leaked = bodies.filter((b) => strings.includes(b));
    if (leaked.length > 0)
      out.push(violation('V1', at, `the verify carries ${leaked.length} held frame bod${leaked.length === 1 ? 'y' : 'ies'} verbatim (e.g. ${show(leaked[0])}); required: identities only`));
  });
  return out;
}

/**
 * S6.5.2-provider-id (SHOULD, a warning; docs/interpretations.md §98): the identities a verify carries name
 * their provider by its handshake `provider.name` — the host's local id "is not a string the provider ever
 * sees". `name` is the provider's handshake name.
 */
export function checkVerifyNamesProvider(provider: { label: string; name: string }, received: readonly Line[]): Finding[] {
  const other = new Set<string>();
  for (const verify of verifiesIn(received)) {
    for (const identity of identitiesOf(verify)) if (isObject(identity) && typeof identity.provider_id === 'string' && identity.provider_id !== provider.name) other.add(identity.provider_id);
  }
  return [...other].map((id) =>
    warning(
      'S6.5.2-provider-id',
      '/verify',
      `a verify reached ${JSON.stringify(provider.label)} naming its frames' provider ${show(id)}, not its handshake provider.name ${show(provider.name)}; provider_id is the name, the only identifier both ends of the wire observe`,
    ),
  );
}

function keysOf(frames: readonly ReceivedFrame[]): Set<string> {
  return new Set(frames.map((f) => frameIdKey(f.frameId)));
}

function hasDigest(id: FrameId): boolean {
  return typeof id.content_digest === 'string';
}

/**
 * D3 (MUST): a held frame without a content_digest is never kept for reuse (retained); V1 (SHOULD):
 * it is re-queried instead (listed in `requery`).
 */
export function checkDigestlessNotReused(outcome: VerifyOutcome | undefined, held: readonly ReceivedFrame[]): Finding[] {
  if (outcome === undefined) return [violation('D3', '/', 'the host returned no verify outcome for its held frames')];
  const out: Finding[] = [];
  const digestless = held.filter((f) => !hasDigest(f.frameId));
  if (digestless.length === 0) harnessPrecondition('D3', "the host holds no digest-less frame of the scenario's provider to judge");
  const retained = keysOf(outcome.retained);
  const requery = keysOf(outcome.requery);
  for (const f of digestless) {
    const key = frameIdKey(f.frameId);
    if (retained.has(key)) {
      out.push(
        violation(
          'D3',
          '/retained',
          `frame ${show(f.frameId.frame_id)} carries no content_digest and the host kept its stored body for reuse; required: re-query or re-verify it, never trust the stored copy`,
        ),
      );
    } else if (!requery.has(key)) {
      out.push(warning('V1', '/requery', `frame ${show(f.frameId.frame_id)} carries no content_digest and is neither reused nor listed for re-query; a digest-less frame is re-queried instead`));
    }
  }
  return out;
}

/**
 * D4 (SHOULD) and V4 (MUST): a stored body is reused only after a verify the provider received
 * confirmed its identity `valid`. `verdicts` is what the scripted provider answers per frame id
 * (absent = valid). A retained frame that was never asked about is a D4 warning; a retained frame
 * the provider called stale or gone is a V4 violation (and a D4 warning: the identity no longer holds).
 */
export function checkReuseOnlyOnValid(
  outcome: VerifyOutcome | undefined,
  received: readonly Line[],
  verdicts: Readonly<Record<string, string>>,
  ids: readonly string[],
  identities: ProviderIdentities = new ProviderIdentities(),
): Finding[] {
  if (outcome === undefined) return [violation(ids[0] ?? 'D4', '/', 'the host returned no verify outcome for its held frames')];
  const out: Finding[] = [];
  // the wire's identities through the scenario's one identity mapping (a host may send its local id, §6.5.2)
  const asked = new Set<string>();
  for (const verify of verifiesIn(received)) {
    for (const identity of identitiesOf(verify)) {
      const key = identities.key(identity);
      if (key !== undefined) asked.add(key);
    }
  }
  for (const f of outcome.retained) {
    const name = show(f.frameId.frame_id);
    const status = verdicts[f.frameId.frame_id] ?? 'valid';
    if (!asked.has(frameIdKey(f.frameId))) {
      out.push(
        warning(
          'D4',
          '/retained',
          `the host kept the stored body of ${name} although the provider never received a verify for its identity; required: confirm the identity via verify before trusting it`,
        ),
      );
    } else if (status !== 'valid') {
      out.push(violation('V4', '/retained', `the host keeps serving its stored copy of ${name} after a ${status} verdict; required: discard it`));
      out.push(warning('D4', '/retained', `the host reused the body of ${name} although verify answered ${status}; required: reuse only an identity verify confirmed valid`));
    }
  }
  return out;
}

/**
 * S9-verify-correlation (SHOULD): every verify sent to a provider declaring correlation is correlated by
 * id exactly as a query is — it carries an id that names it: a non-empty string, not the id of any other
 * request on the connection (an absent, empty or reused id correlates nothing).
 */
export function checkVerifyCorrelated(provider: { label: string }, received: readonly Line[]): Finding[] {
  const verifies = verifiesIn(received);
  if (verifies.length === 0)
    harnessPrecondition('S9-verify-correlation', `provider ${JSON.stringify(provider.label)} received no verify (a host may re-query instead), so no verify id could be judged`);
  const ids = new Map<string, number>();
  for (const l of received) if ((l.type === 'query' || l.type === 'verify') && typeof l.id === 'string') ids.set(l.id, (ids.get(l.id) ?? 0) + 1);
  return verifies.flatMap((v, n) => {
    const at = `/verify/${n}/id`;
    if (v.id === undefined || v.id === null)
      return [
        warning(
          'S9-verify-correlation',
          at,
          `a verify reached ${JSON.stringify(provider.label)}, which declares capabilities.correlation, without an id; required: correlated by id exactly as query/frames`,
        ),
      ];
    if (typeof v.id !== 'string' || v.id === '')
      return [
        warning(
          'S9-verify-correlation',
          at,
          `a verify reached ${JSON.stringify(provider.label)}, which declares capabilities.correlation, with the id ${show(v.id)}, which names no request; required: a non-empty string id, as on a query`,
        ),
      ];
    if ((ids.get(v.id) ?? 0) > 1)
      return [
        warning(
          'S9-verify-correlation',
          at,
          `a verify reached ${JSON.stringify(provider.label)} with the id ${show(v.id)}, already used by another request on the connection; required: an id that correlates this verify alone`,
        ),
      ];
    return [];
  });
}

// ---------------------------------------------------------------------------------------------
// Attestation verdicts (F8, F9, S6.5.4-distinct-verdicts)

/** One frame as the provider served it on the wire, with the algorithms of the attestations covering it. */
export interface ServedFrame {
  frameId: FrameId;
  content: unknown;
  algorithms: string[];
}

/** The frames of every `frames` reply a provider SENT (recorded by the tee), with their attestations' algorithms. */
export function servedFrames(providerName: string, sent: readonly Line[]): ServedFrame[] {
  const out: ServedFrame[] = [];
  for (const line of sent) {
    if (line.type !== 'frames' || !isObject(line.result) || !Array.isArray(line.result.frames)) continue;
    const result = line.result;
    const rootAlgorithm = isObject(result.result_attestation) && typeof result.result_attestation.algorithm === 'string' ? [result.result_attestation.algorithm] : [];
    const entries = Array.isArray(result.frame_attestations) ? result.frame_attestations.filter(isObject) : [];
    for (const frame of result.frames as unknown[]) {
      if (!isObject(frame) || typeof frame.id !== 'string') continue;
      const frameId: FrameId = { provider_id: providerName, frame_id: frame.id };
      if (typeof frame.content_digest === 'string') frameId.content_digest = frame.content_digest;
      const own = entries
        .filter((e) => isObject(e.frame) && e.frame.frame_id === frame.id && isObject(e.attestation) && typeof e.attestation.algorithm === 'string')
        .map((e) => (e.attestation as Record<string, unknown>).algorithm as string);
      out.push({ frameId, content: frame.content, algorithms: [...new Set([...own, ...rootAlgorithm])] });
    }
  }
  return out;
}

/** The host's copy of a served frame among its answers (by full identity). */
function received(fanOut: FanOutResult | undefined, id: FrameId): ReceivedFrame | undefined {
  const key = frameIdKey(id);
  for (const answer of fanOut?.answers ?? []) for (const f of answer.frames) if (frameIdKey(f.frameId) === key) return f;
  return undefined;
}

/** contextgraph/1.0 defines one attestation algorithm (§6.5.2; docs/interpretations.md §6). */
export const RECOGNISED_ALGORITHMS: readonly string[] = ['ed25519'];

/**
 * F8 (MUST): every served frame covered only by attestations of an algorithm contextgraph/1.0 does
 * not define is reported `uncheckable` — never `attested`.
 */
export function checkUnknownAlgorithmUncheckable(served: readonly ServedFrame[], fanOut: FanOutResult | undefined): Finding[] {
  const subject = served.filter((s) => s.algorithms.length > 0 && s.algorithms.every((a) => !RECOGNISED_ALGORITHMS.includes(a)));
  if (subject.length === 0) harnessPrecondition('F8', "the harness's provider served no frame attested with an unrecognised algorithm");
  const out: Finding[] = [];
  for (const s of subject) {
    const f = received(fanOut, s.frameId);
    if (f === undefined) continue; // F9's business
    const verdict = f.evidence?.verdict;
    if (verdict === 'attested') {
      out.push(
        violation(
          'F8',
          `/answers/${s.frameId.frame_id}`,
          `frame ${show(s.frameId.frame_id)} is attested only with algorithm(s) ${s.algorithms.join(', ')} and the host reported it attested; "I cannot check this" is never "this is good" — required: uncheckable`,
        ),
      );
    } else if (verdict !== 'uncheckable') {
      out.push(
        violation(
          'F8',
          `/answers/${s.frameId.frame_id}`,
          `frame ${show(s.frameId.frame_id)} is attested with unrecognised algorithm(s) ${s.algorithms.join(', ')}; the host reported ${show(verdict)}, required: uncheckable`,
        ),
      );
    }
  }
  return out;
}

/**
 * F9 (MUST): no served frame is rejected or dropped because its attestation cannot be verified — it
 * is among the host's answers and, with a budget that holds everything, in the composed prompt,
 * as an unattested frame would be (not attested).
 */
export function checkUnverifiableKept(served: readonly ServedFrame[], fanOut: FanOutResult | undefined, composed: ComposedPrompt | undefined): Finding[] {
  if (served.length === 0) harnessPrecondition('F9', "the harness's provider served no frame");
  const out: Finding[] = [];
  // rendered = a block of the composition carries its (provider id, frame id)
  const inPrompt = new Set((composed?.blocks ?? []).map((b) => `${b.frameId.provider_id}\u0000${b.frameId.frame_id}`));
  for (const s of served) {
    const name = show(s.frameId.frame_id);
    const f = received(fanOut, s.frameId);
    if (f === undefined) {
      out.push(
        violation(
          'F9',
          '/answers',
          `frame ${name} (attested with ${s.algorithms.join(', ') || 'nothing'}) was served but the host dropped it from its answers; required: an unverifiable attestation degrades the frame to unattested, never drops it`,
        ),
      );
      continue;
    }
    if (composed !== undefined && !inPrompt.has(`${s.frameId.provider_id}\u0000${s.frameId.frame_id}`)) {
      out.push(violation('F9', '/composed', `frame ${name} was served and fits the budget but the host left it out of the composed prompt; required: treated exactly as an unattested frame`));
    }
  }
  return out;
}

/** The distinct verdicts §6.5.4 names (docs/interpretations.md §6), plus F13's proof-mismatch. */
export const DISTINCT_VERDICTS: readonly string[] = ['attested', 'commitment-mismatch', 'bad-signature', 'unknown-key', 'uncheckable', 'unattested', 'proof-mismatch'];

/**
 * S6.5.4-distinct-verdicts (MUST): the host reports, for each frame id of `expected` the provider
 * served, exactly the verdict given — distinct outcomes, not a boolean collapsed into attested / not
 * attested. Any verdict outside the distinct vocabulary is a violation too.
 */
export function checkVerdicts(expected: Readonly<Record<string, string>>, served: readonly ServedFrame[], fanOut: FanOutResult | undefined): Finding[] {
  const out: Finding[] = [];
  for (const [frameId, want] of Object.entries(expected)) {
    const s = served.find((x) => x.frameId.frame_id === frameId);
    if (s === undefined) {
      harnessPrecondition('S6.5.4-distinct-verdicts', `the harness's provider served no frame ${show(frameId)}`);
    }
    const f = received(fanOut, s.frameId);
    if (f === undefined) {
      out.push(violation('S6.5.4-distinct-verdicts', '/answers', `frame ${show(frameId)} was served but is not among the host's answers, so it carries no verdict; required ${want}`));
      continue;
    }
    const verdict: unknown = f.evidence?.verdict;
    if (typeof verdict !== 'string' || !DISTINCT_VERDICTS.includes(verdict)) {
      out.push(
        violation(
          'S6.5.4-distinct-verdicts',
          `/answers/${frameId}`,
          `frame ${show(frameId)} carries attestation verdict ${show(verdict)}; required one of ${DISTINCT_VERDICTS.join(', ')}, never a boolean`,
        ),
      );
    } else if (verdict !== want) {
      out.push(
        violation(
          'S6.5.4-distinct-verdicts',
          `/answers/${frameId}`,
          `frame ${show(frameId)} is reported ${verdict}; required ${want} — the outcomes are distinct findings with opposite responses, not collapsed`,
        ),
      );
    }
  }
  return out;
}

/** The identity point's encoding: a small-order (order 1) Ed25519 public key. */
export const SMALL_ORDER_PUBLIC_KEY = `01${'00'.repeat(31)}`;
/** R = identity, S = 0: satisfies [S]B = R + [k]A for A = identity and ANY message. */
export const SMALL_ORDER_SIGNATURE = `01${'00'.repeat(63)}`;
/** The all-zero encoding: the point y = 0, of order 4 (another of the 8 torsion points). */
export const ZERO_PUBLIC_KEY = '00'.repeat(32);
/** R = the all-zero point, S = 0: a cofactored (ZIP-215) verifier accepts it under ZERO_PUBLIC_KEY for any message. */
export const ZERO_SIGNATURE = '00'.repeat(64);

/**
 * A scripted provider config for S6.5.4-strict-ed25519: two frames whose result root is signed
 * "ed25519" under the small-order identity key with the signature (R = identity, S = 0). A permissive
 * (ZIP-215 or cofactored) verifier accepts it for any message; a strict one rejects the key.
 */
export function smallOrderKeyScript(name: string, key: { publicKey: string; signature: string } = { publicKey: SMALL_ORDER_PUBLIC_KEY, signature: SMALL_ORDER_SIGNATURE }): Record<string, unknown> {
  const frames = [
    { id: 'frm_alpha', content: 'Retries back off exponentially, starting at 100 ms.' },
    { id: 'frm_beta', content: 'The retry budget allows five attempts.' },
  ].map((f) => ({
    id: f.id,
    kind: 'doc',
    title: `title ${f.id}`,
    content: f.content,
    content_digest: `sha256:${createHash('sha256').update(f.content, 'utf8').digest('hex')}`,
    score: 0.5,
    token_cost: Math.ceil(Buffer.byteLength(f.content, 'utf8') / 4),
    citation_label: `cite ${f.id}`,
  }));
  const root = renderDigest(resultSetRoot(name, frames));
  return {
    ack: { attester_keys: [{ key_id: 'small-order-1', algorithm: 'ed25519', public_key: key.publicKey }] },
    rawResult: {
      frames,
      truncated: false,
      result_attestation: {
        signed_commitment: root,
        key_id: 'small-order-1',
        algorithm: 'ed25519',
        attester_id: name,
        signature: key.signature,
        issued_at: '2026-01-01T00:00:00Z',
      },
    },
  };
}

/**
 * S6.5.4-strict-ed25519 (SHOULD): a frame whose only attestation verifies under a small-order public
 * key (accepted by a permissive verifier for any message) is not reported attested.
 */
export function checkSmallOrderKeyNotAttested(served: readonly ServedFrame[], fanOut: FanOutResult | undefined): Finding[] {
  if (served.length === 0) harnessPrecondition('S6.5.4-strict-ed25519', "the harness's provider served no frame");
  const out: Finding[] = [];
  if (served.every((s) => received(fanOut, s.frameId) === undefined)) {
    harnessPrecondition('S6.5.4-strict-ed25519', "the host kept none of the served frames, so no verdict of it could be read (dropping them is F9's business, judged in its own scenario)");
  }
  for (const s of served) {
    const verdict = received(fanOut, s.frameId)?.evidence?.verdict;
    if (verdict === 'attested') {
      out.push(
        warning(
          'S6.5.4-strict-ed25519',
          `/answers/${s.frameId.frame_id}`,
          `frame ${show(s.frameId.frame_id)} is reported attested under a small-order ed25519 public key, whose "signature" verifies for any message under a permissive verifier; a strict verifier rejects small-order keys`,
        ),
      );
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Scenario helper: the bundled (signing) reference provider behind a recording tee

/**
 * Passes every line both ways; appends each line the provider WROTE to argv[1] (CommonJS, `node -e`).
 * A line is RECORDED BEFORE it is forwarded: the host can act on a line only once it has it, so when a
 * step reads the record after the host answered, every line the host could have seen is in it. (Forwarding
 * first raced the record: the host answered and the check read the file before the tee had appended the
 * frames line — the intermittent "served no frame" of F8 and S6.5.4-distinct-verdicts.)
 */
export const TEE = String.raw`
const { spawn } = require('node:child_process');
const { appendFileSync } = require('node:fs');
const [record, command, ...args] = process.argv.slice(1);
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
let buf = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
  buf += chunk;
  const end = buf.lastIndexOf('\n');
  if (end < 0) return;
  appendFileSync(record, buf.slice(0, end + 1));
  process.stdout.write(buf.slice(0, end + 1));
  buf = buf.slice(end + 1);
});
child.stdout.on('end', () => { if (buf !== '') process.stdout.write(buf); });
process.stdin.pipe(child.stdin);
child.stdin.on('error', () => {});
child.on('exit', (code) => process.exit(code === null ? 1 : code));
`;

/**
 * The same provider and tee in this process, behind a relay child (scripted-relay.ts): the bundled
 * provider's stdio loop reads the child's stdin, and each line it writes is recorded, then forwarded.
 */
function teedBundledProvider(sentPath: string, mode: string | undefined): PeerStart {
  return (peer) => {
    const output = new Writable({
      write(chunk: Buffer, _encoding, done) {
        appendFileSync(sentPath, chunk);
        peer.output.write(chunk, () => done());
      },
    });
    let killed: ((code: number) => void) | undefined;
    peer.onGone(() => killed?.(137));
    const untilKilled = () => new Promise<number>((resolve) => (killed = resolve));
    runStdioProvider({ input: peer.input, output, untilKilled }, createProvider({ requireHandshake: true, ...(mode !== undefined ? { misbehave: mode } : {}) })).then(
      (code) => peer.exit(code),
      (err: unknown) => {
        // what the provider's own process would have printed before exiting 1
        process.stderr.write(`the bundled provider behind a relay failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
        peer.exit(1);
      },
    );
  };
}

interface TeedProvider {
  routingId: string;
  name: string;
  sentPath: string;
}

const STATE_KEY = 'checks-verify:teed';

function teed(h: HostScenario): Map<string, TeedProvider> {
  let map = h.state.get(STATE_KEY) as Map<string, TeedProvider> | undefined;
  if (map === undefined) {
    map = new Map();
    h.state.set(STATE_KEY, map);
  }
  return map;
}

/**
 * Have the host under test connect the bundled reference provider (optionally in one of its
 * misbehaviour modes, e.g. the F8/F9 fixture `unknown-attestation-algorithm`) over stdio, through a
 * tee recording every line the provider sends. Compiled runs use dist/ (config.bundledProviderCommand).
 */
export async function connectBundledProvider(h: HostScenario, label: string, mode?: string): Promise<TeedProvider> {
  const root = findPackageRoot();
  const entry = bundledProviderCommand(root);
  const sentPath = join(h.dir, `${label.replace(/[^A-Za-z0-9_-]/g, '_')}.sent.ndjson`);
  const host = await h.host();
  const relayed = await relayedCommand(teedBundledProvider(sentPath, mode));
  // no `cwd` (docs/interpretations.md §102): every path the command names is absolute, so the host may start
  // it in any directory; a development run's `--import tsx` names tsx's loader by its absolute URL
  let descriptor;
  if (relayed !== undefined) {
    h.cleanups.push(() => relayed.release());
    descriptor = await host.connectStdio(relayed.command, relayed.args);
  } else {
    const entryArgs = entry.args.map((a, i) => (a === 'tsx' && entry.args[i - 1] === '--import' ? pathToFileURL(join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href : a));
    const args = ['-e', TEE, '--', sentPath, entry.command, ...entryArgs, ...(mode !== undefined ? ['--misbehave', mode] : [])];
    descriptor = await host.connectStdio(process.execPath, args);
  }
  const provider: TeedProvider = { routingId: descriptor.routingId, name: descriptor.name, sentPath };
  teed(h).set(label, provider);
  return provider;
}

/** A teed provider of this scenario. */
export function teedProvider(h: HostScenario, label: string): TeedProvider {
  const p = teed(h).get(label);
  if (p === undefined) throw new Error(`no bundled provider ${JSON.stringify(label)} was connected in this scenario`);
  return p;
}

/** Every line a teed provider SENT, parsed (unparseable lines kept as {raw}). */
export function sentBy(h: HostScenario, label: string): Line[] {
  return readNdjsonFile(teedProvider(h, label).sentPath) as Line[];
}
