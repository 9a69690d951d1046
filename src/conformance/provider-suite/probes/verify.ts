/**
 * Verify probes (§9: V2, V3, V4, S9-verify-correlation, S6.5.2-provider-id). Identities come from what the
 * target served moments ago in this scenario, named by its handshake provider.name (docs/interpretations.md §2).
 *
 * - served identities, digests as served: a `verified` reply (V2), each `valid` (V3: a provider that will not
 *   vouch for what it just served answers nothing useful; all-unknown is a hollow answer, V2);
 * - the same identities with a WELL-FORMED different digest (last hex digit changed): never `valid` (V3,
 *   rubber stamp), expected `stale`; a stale verdict's replacement_digest is a digest (V4) — the one served;
 * - unknown ids, and ids the target is known to have retired: never `valid` (V3).
 */
import { createHash, randomBytes } from 'node:crypto';
import { violation, warning } from '../../../protocol/findings.js';
import { describeValue, isJsonObject, type JsonObject } from '../../../protocol/json-value.js';
import { isWellFormedDigest } from '../../../protocol/digest.js';
import type { RawEnvelope } from '../../../transport/ndjson.js';
import type { ScenarioProbe } from '../scenario.js';

interface Identity {
  provider_id: string;
  frame_id: string;
  content_digest: string;
}

const MAX_IDENTITIES = 8;

function key(id: { provider_id?: unknown; frame_id?: unknown; content_digest?: unknown }): string {
  return JSON.stringify([id.provider_id, id.frame_id, id.content_digest ?? null]);
}

/** Identities of frames the target just served that carry a content_digest. */
async function servedIdentities(p: ScenarioProbe): Promise<Identity[]> {
  const base = await p.baseline();
  const name = p.providerName();
  const out: Identity[] = [];
  for (const f of base.frames) {
    if (typeof f.id === 'string' && typeof f.content_digest === 'string' && isWellFormedDigest(f.content_digest)) {
      out.push({ provider_id: name, frame_id: f.id, content_digest: f.content_digest });
    }
    if (out.length >= MAX_IDENTITIES) break;
  }
  if (out.length === 0) {
    for (const id of ['V2', 'V3', 'V4']) p.ledger.unwitnessedBecause(id, 'no frame the target served carries a well-formed content_digest to verify');
  }
  return out;
}

/** A well-formed digest different from `digest` (last hex digit changed). */
export function alteredDigest(digest: string): string {
  const last = digest[digest.length - 1]!;
  const replacement = last === '0' ? '1' : '0';
  return digest.slice(0, -1) + replacement;
}

interface VerifyOutcome {
  reply: RawEnvelope;
  /** Verdict per requested identity key (absent = no verdict). */
  verdicts: Map<string, JsonObject>;
}

/** Send one verify; a reply other than `verified` is a V2 violation and ends the probe. */
async function verify(p: ScenarioProbe, identities: readonly Identity[], purpose: string, opts: { id?: boolean } = {}): Promise<VerifyOutcome | undefined> {
  const envelope: JsonObject = { type: 'verify', request: { frames: identities } };
  const withId = opts.id ?? p.correlation();
  if (withId) envelope.id = p.nextId('v');
  const reply = await p.exchange(envelope, purpose);
  p.ledger.witness('V2');
  if (reply.type !== 'verified') {
    const seen = reply.type === 'error' ? `error ${JSON.stringify(reply.code)} (${JSON.stringify(reply.message)})` : `a "${reply.type}" envelope`;
    p.ledger.add([violation('V2', '', `${purpose} was answered with ${seen}; a provider declaring capabilities.verify MUST answer a verify with a verified reply`)]);
    // the V2 finding is V2's own; for another id, nothing could be observed (§87)
    if (!p.ids.includes('V2')) p.precondition(`${purpose}: answered with ${seen}, not verified (reported under V2)`);
    return undefined;
  }
  const requested = new Set(identities.map(key));
  const verdicts = new Map<string, JsonObject>();
  const response = isJsonObject(reply.response) ? reply.response : {};
  const list = Array.isArray(response.verdicts) ? response.verdicts : [];
  list.forEach((v, i) => {
    if (!isJsonObject(v) || !isJsonObject(v.frame)) return;
    const k = key(v.frame);
    if (!requested.has(k)) {
      p.ledger.add([
        violation('V2', `/response/verdicts/${i}/frame`, `verdicts[${i}] names ${describeValue(v.frame)}, which the verify did not ask about; each verdict echoes the identity it answers in full`),
      ]);
      return;
    }
    if (!verdicts.has(k)) verdicts.set(k, v);
  });
  return { reply, verdicts };
}

function statusOf(outcome: VerifyOutcome, id: Identity): string {
  const v = outcome.verdicts.get(key(id));
  return v === undefined ? 'no verdict (read as unknown)' : typeof v.status === 'string' ? v.status : describeValue(v.status);
}

/** V2 + V3: the identities just served are answered, and answered valid. */
export async function verifyServed(p: ScenarioProbe): Promise<void> {
  const ids = await servedIdentities(p);
  if (ids.length === 0) return;
  const outcome = await verify(p, ids, `a verify of ${ids.length} identit${ids.length === 1 ? 'y' : 'ies'} served moments ago`);
  if (!outcome) return;
  const definite = ids.filter((id) => ['valid', 'stale', 'gone'].includes(String(outcome.verdicts.get(key(id))?.status)));
  if (definite.length === 0) {
    p.ledger.add([
      violation(
        'V2',
        '/response/verdicts',
        `every one of the ${ids.length} identities the target served moments ago came back ${[...new Set(ids.map((id) => statusOf(outcome, id)))].join(' / ')}: a hollow answer, not a verification`,
      ),
    ]);
  }
  for (const id of ids) {
    p.ledger.witness('V3');
    // a hollow answer is one finding (V2's above), not one more per verdict
    if (definite.length === 0) continue;
    const status = statusOf(outcome, id);
    if (status !== 'valid') {
      // V3's MUSTs bind the host, and a verdict short of valid is the safe direction: no sentence binds a
      // provider to answer valid for what it served moments ago (it may have changed since), so a SHOULD-level
      // finding (docs/interpretations.md §90)
      p.ledger.add([
        warning(
          'V3',
          '/response/verdicts',
          `frame ${JSON.stringify(id.frame_id)} was served moments ago with content_digest ${id.content_digest}; verify answers ${status}, expected valid (the host will re-query it: safe, but verification earns nothing — docs/interpretations.md §90)`,
        ),
      ]);
    }
  }
}

/**
 * V3 with one request mixing verdicts: identities served moments ago (valid), one of them with an altered
 * digest (never valid, expected stale) and an id never served (never valid). Each verdict is matched to its
 * identity, so a provider that answers a whole request with one status shows it here.
 */
export async function verifyMixed(p: ScenarioProbe): Promise<void> {
  const served = await servedIdentities(p);
  if (served.length === 0) return;
  const valid = served.slice(0, 2);
  const altered = { ...served[0]!, content_digest: alteredDigest(served[0]!.content_digest) };
  const unknown: Identity = { provider_id: p.providerName(), frame_id: `cgp-conformance-unknown-${randomBytes(6).toString('hex')}`, content_digest: randomDigest() };
  // the served ones first: a provider echoing the first status answers the never-valid ones "valid" (the
  // unsafe direction, a V3 violation); the safe direction alone is a warning (docs/interpretations.md §90)
  const outcome = await verify(p, [...valid, altered, unknown], `a verify mixing ${valid.length} served, 1 altered and 1 unknown identit${valid.length === 1 ? 'y' : 'ies'}`);
  if (!outcome) return;
  for (const id of valid) {
    p.ledger.witness('V3');
    const status = statusOf(outcome, id);
    if (status !== 'valid') {
      p.ledger.add([
        warning(
          'V3',
          '/response/verdicts',
          `in a verify mixing verdicts, frame ${JSON.stringify(id.frame_id)} served moments ago with ${id.content_digest} is answered ${status}; expected valid (each verdict answers its own identity; short of valid is the safe direction — docs/interpretations.md §90)`,
        ),
      ]);
    }
  }
  for (const [id, what] of [
    [altered, 'with an altered digest'],
    [unknown, 'never served'],
  ] as const) {
    p.ledger.witness('V3');
    if (statusOf(outcome, id) === 'valid') {
      p.ledger.add([violation('V3', '/response/verdicts', `in a verify mixing verdicts, frame ${JSON.stringify(id.frame_id)} (${what}) is answered valid`)]);
    }
  }
}

/** The provider_id a foreign identity carries: the public reference host's own local label for a provider. */
export const FOREIGN_PROVIDER_ID = 'provider-under-test';

/**
 * S6.5.2-provider-id (docs/interpretations.md §32): identities the target served moments ago, but naming
 * another provider (a host's local label instead of the declared provider.name). The triple is another
 * frame's identity: `unknown` (or gone/stale) is right; vouching `valid` is a warning — it is harmless to
 * the host that mislabelled, but it certifies a frame identity this provider never served.
 */
export async function verifyForeignIdentity(p: ScenarioProbe): Promise<void> {
  const served = await servedIdentities(p);
  if (served.length === 0) {
    p.ledger.unwitnessedBecause('S6.5.2-provider-id', 'no frame the target served carries a well-formed content_digest to verify');
    return;
  }
  const name = p.providerName();
  const foreign = name === FOREIGN_PROVIDER_ID ? `${FOREIGN_PROVIDER_ID}-2` : FOREIGN_PROVIDER_ID;
  const ids = served.slice(0, 2).map((id) => ({ ...id, provider_id: foreign }));
  const outcome = await verify(p, ids, `a verify of ${ids.length} served frame(s) named under provider_id ${JSON.stringify(foreign)}`);
  if (!outcome) return;
  for (const id of ids) {
    p.ledger.witness('S6.5.2-provider-id');
    if (statusOf(outcome, id) === 'valid') {
      p.ledger.add([
        warning(
          'S6.5.2-provider-id',
          '/response/verdicts',
          `frame ${JSON.stringify(id.frame_id)} named under provider_id ${JSON.stringify(foreign)} — not this provider's declared name ${JSON.stringify(name)} — is answered valid; the identity (provider id, frame id, content_digest) names another provider's frame (expected unknown)`,
        ),
      ]);
    }
  }
}

/** V3 (no rubber stamp) + V4: a well-formed different digest is never valid; stale carries the served digest. */
export async function verifyAltered(p: ScenarioProbe): Promise<void> {
  const served = await servedIdentities(p);
  if (served.length === 0) return;
  const altered = served.map((id) => ({ ...id, content_digest: alteredDigest(id.content_digest) }));
  const outcome = await verify(p, altered, `a verify of ${altered.length} served frame(s) with altered (well-formed) digests`);
  if (!outcome) return;
  let replacements = 0;
  const current = await currentDigests(p, outcome, altered);
  altered.forEach((id, i) => {
    p.ledger.witness('V3');
    const status = statusOf(outcome, id);
    if (status === 'valid') {
      p.ledger.add([
        violation(
          'V3',
          '/response/verdicts',
          `frame ${JSON.stringify(id.frame_id)} with content_digest ${id.content_digest} — not the ${served[i]!.content_digest} it serves — is answered valid: a rubber stamp`,
        ),
      ]);
    } else if (status !== 'stale') {
      p.ledger.add([
        warning('V3', '/response/verdicts', `frame ${JSON.stringify(id.frame_id)}, still served under another digest, is answered ${status}; stale is the verdict for a frame whose content changed`),
      ]);
    }
    const verdict = outcome.verdicts.get(key(id));
    if (verdict && verdict.status === 'stale' && verdict.replacement_digest !== undefined && verdict.replacement_digest !== null) {
      replacements++;
      p.ledger.witness('V4');
      const replacement = verdict.replacement_digest;
      const known = current.get(id.frame_id) ?? new Set([served[i]!.content_digest]);
      if (isWellFormedDigest(replacement) && !known.has(replacement)) {
        p.ledger.add([
          warning(
            'V4',
            '/response/verdicts',
            `stale frame ${JSON.stringify(id.frame_id)} carries replacement_digest ${replacement}, but the target serves it with ${[...known].join(' / ')} (every rendering it serves, docs/interpretations.md §31); the replacement is the provider's current digest`,
          ),
        ]);
      }
    }
  });
  if (replacements === 0) p.ledger.unwitnessedBecause('V4', 'no stale verdict carried a replacement_digest (it MAY), so there was none to check');
}

/**
 * The digests the target currently serves for each frame id: one per rendering (§6.4: a compact frame's
 * content_digest is over its distilled inline bytes, so one frame id has several current digests). Learned
 * from every answer of this scenario, and — only when a stale verdict names a digest not seen yet — from one
 * query in each other representation the target advertises.
 */
async function currentDigests(p: ScenarioProbe, outcome: VerifyOutcome, asked: readonly Identity[]): Promise<Map<string, Set<string>>> {
  const map = new Map<string, Set<string>>();
  const learn = () => {
    for (const a of p.answers) {
      for (const f of a.frames) {
        if (typeof f.id !== 'string' || typeof f.content_digest !== 'string') continue;
        const set = map.get(f.id) ?? new Set<string>();
        set.add(f.content_digest);
        map.set(f.id, set);
      }
    }
  };
  learn();
  const unexplained = asked.some((id) => {
    const v = outcome.verdicts.get(key(id));
    return v?.status === 'stale' && typeof v.replacement_digest === 'string' && !map.get(id.frame_id)?.has(v.replacement_digest);
  });
  // every advertised inline rendering, full included: a compact-first target serves full only when asked
  const others = (p.advertised() ?? []).filter((r) => r !== 'reference');
  if (unexplained && others.length > 0) {
    for (const rep of others) {
      const reply = await p.tryExchange(
        {
          type: 'query',
          ...(p.correlation() ? { id: p.nextId() } : {}),
          query: {
            goal: 'cgp-conformance probe: return your most relevant frames',
            query_text: 'conformance probe',
            kinds: [],
            anchors: [],
            max_frames: 64,
            max_tokens: 65_536,
            representation_preferences: [rep],
          },
        },
        `a query in the advertised representation ${JSON.stringify(rep)} (to learn the frames' current digests)`,
      );
      if (reply instanceof Error || reply === null) p.notes.push(`could not learn the ${rep} rendering's digests: ${reply === null ? 'no envelope' : reply.message}`);
    }
    learn();
  }
  return map;
}

function randomDigest(): string {
  return `sha256:${createHash('sha256').update(randomBytes(16)).digest('hex')}`;
}

/** V3: identities the target never served (random ids) are never valid. */
export async function verifyUnknown(p: ScenarioProbe): Promise<void> {
  const name = p.providerName();
  const ids: Identity[] = [1, 2].map((n) => ({ provider_id: name, frame_id: `cgp-conformance-unknown-${randomBytes(6).toString('hex')}-${n}`, content_digest: randomDigest() }));
  await judgeNeverValid(p, ids, 'frame ids the target never served');
}

/** V3: identities the target is known to have retired are never valid (expected gone). */
export async function verifyRetired(p: ScenarioProbe): Promise<void> {
  const retired = p.config.retiredFrameIds;
  if (retired.length === 0) {
    p.ledger.unwitnessedBecause('V3', 'no retired frame ids are known for this target (pass --retired-id ID, or set CGP_PROVIDER_RETIRED_IDS)');
    return;
  }
  const name = p.providerName();
  const ids = retired.slice(0, MAX_IDENTITIES).map((frameId) => ({ provider_id: name, frame_id: frameId, content_digest: randomDigest() }));
  await judgeNeverValid(p, ids, 'frame ids the target has retired');
}

async function judgeNeverValid(p: ScenarioProbe, ids: Identity[], what: string): Promise<void> {
  const outcome = await verify(p, ids, `a verify of ${ids.length} ${what}`);
  if (!outcome) return;
  for (const id of ids) {
    p.ledger.witness('V3');
    const status = statusOf(outcome, id);
    if (status === 'valid') {
      p.ledger.add([
        violation(
          'V3',
          '/response/verdicts',
          `frame ${JSON.stringify(id.frame_id)} (${what}) is answered valid; a verdict vouches only for a frame the provider serves with that digest — expected gone or unknown`,
        ),
      ]);
    }
  }
}

/**
 * H4 on a refused verify: a malformed verify (request.frames is not an array) carrying an id is answered —
 * with an error, whose id is the verify's (checked in checkReply like every error answering an id).
 */
export async function malformedVerifyWithId(p: ScenarioProbe): Promise<void> {
  const envelope: JsonObject = { type: 'verify', id: p.nextId('bad-v'), request: { frames: 'cgp-conformance: not an array' } };
  const reply = await p.exchange(envelope, 'a malformed verify carrying an id (request.frames is not an array)');
  if (reply.type !== 'error') p.notes.push(`the malformed verify was answered with "${reply.type}", not error; no id echo to check on it`);
}

/** H4 + S9-verify-correlation: a verify carrying an id gets it back verbatim on verified. */
export async function verifyCorrelated(p: ScenarioProbe): Promise<void> {
  const ids = await servedIdentities(p);
  const identities = ids.length > 0 ? ids.slice(0, 2) : [{ provider_id: p.providerName(), frame_id: 'cgp-conformance-unknown', content_digest: randomDigest() }];
  const envelope: JsonObject = { type: 'verify', id: p.nextId('v'), request: { frames: identities } };
  const reply = await p.exchange(envelope, 'a verify carrying an id');
  if (reply.type !== 'verified') p.fail(`a verify carrying an id got a "${reply.type}" envelope; required verified (V2)`);
  p.ledger.witness('H4');
  p.ledger.witness('S9-verify-correlation');
  if (reply.id === undefined || reply.id === null) {
    p.ledger.add([
      warning(
        'S9-verify-correlation',
        '/id',
        `verified carries no id; the verify carried ${JSON.stringify(envelope.id)}, and a correlating provider SHOULD correlate verify/verified by id (docs/interpretations.md §4)`,
      ),
    ]);
  } else if (reply.id !== envelope.id) {
    p.ledger.add([violation('H4', '/id', `verified carries id ${describeValue(reply.id)}; the verify carried ${JSON.stringify(envelope.id)} — a wrong id misattributes the answer`)]);
  }
}
