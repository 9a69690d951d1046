/**
 * Host-facing checks of the connection & fan-out group: handshake acceptance (H3, C5), what one provider's
 * copy of the query may carry (E1, P5, S3.2-no-id-without-correlation), how an `error` reply is read (X1,
 * X2, S10-not-retryable) and the open vocabularies of received frames (U2, S8.1-rel-open).
 *
 * Pure functions from observations — the lines a scripted provider RECEIVED (its own record of the wire),
 * what connecting raised and how long it took, what the fan-out returned — to findings. Each message starts
 * with the id it witnesses and says what was seen versus what was required.
 */
import { violation, warning, type Finding } from '../../../protocol/findings.js';
import type { FanOutResult } from '../../../host/fan-out.js';
import { queriesIn } from './consent.js';
import { describeHostError, harnessPrecondition, memberOf } from './text.js';

type Line = Record<string, unknown>;

export interface Observed {
  label: string;
  received: readonly Line[];
}

const describe = describeHostError;

const member = memberOf;

function queryOf(line: Line): Record<string, unknown> {
  const q = line.query;
  return typeof q === 'object' && q !== null ? (q as Record<string, unknown>) : {};
}

/** A refusal counts as NAMED when it is a typed host error, or at least says what it is about. */
function named(err: unknown, code: string, words: RegExp): boolean {
  if (member(err, 'code') === code) return true;
  return err instanceof Error && words.test(err.message);
}

/**
 * H3: a provider acking another major family is refused with a named version-mismatch error, promptly
 * (well inside the handshake bound: "never left to hang"), and it is never sent a query.
 */
export function checkVersionMismatchRefused(p: Observed, connect: { error: unknown; elapsedMs: number; boundMs: number; ackedVersion: string }): Finding[] {
  const out: Finding[] = [];
  if (connect.error === undefined) {
    out.push(
      violation(
        'H3',
        '/protocol_version',
        `the host accepted provider ${JSON.stringify(p.label)} acking protocol_version ${JSON.stringify(connect.ackedVersion)}; required: a named version-mismatch error at the handshake`,
      ),
    );
  } else if (!named(connect.error, 'version_mismatch', /version/i)) {
    out.push(
      violation(
        'H3',
        '/protocol_version',
        `connecting ${JSON.stringify(p.label)} (acked ${JSON.stringify(connect.ackedVersion)}) failed with ${JSON.stringify(describe(connect.error))}, which does not name a version mismatch; required: a named version-mismatch error`,
      ),
    );
  }
  if (connect.elapsedMs > connect.boundMs) {
    out.push(
      violation(
        'H3',
        '/protocol_version',
        `the host took ${Math.round(connect.elapsedMs)} ms to settle the handshake with ${JSON.stringify(p.label)} (acked ${JSON.stringify(connect.ackedVersion)}); required: the mismatch reported as soon as the ack is read (within ${connect.boundMs} ms), never left to hang`,
      ),
    );
  }
  const queries = queriesIn(p.received);
  if (queries.length > 0) {
    out.push(
      violation(
        'H3',
        '/query',
        `provider ${JSON.stringify(p.label)} acked ${JSON.stringify(connect.ackedVersion)} yet received ${queries.length} query payload(s); required: a provider of another family is never queried`,
      ),
    );
  }
  return out;
}

/** C5: egress:false with an off-machine scope is refused at the handshake; the provider is never queried. */
export function checkScopeContradictionRefused(p: Observed, connect: { error: unknown; scopes: readonly string[] }): Finding[] {
  const out: Finding[] = [];
  const what = `data_flow {egress: false, egress_scopes: ${JSON.stringify(connect.scopes)}}`;
  if (connect.error === undefined) {
    out.push(violation('C5', '/provider/data_flow', `the host accepted provider ${JSON.stringify(p.label)} declaring ${what}; required: the contradiction rejected at the handshake`));
  } else if (!named(connect.error, 'scope_contradiction', /egress|scope/i)) {
    out.push(
      violation(
        'C5',
        '/provider/data_flow',
        `connecting ${JSON.stringify(p.label)} (${what}) failed with ${JSON.stringify(describe(connect.error))}, which does not name the egress/scope contradiction`,
      ),
    );
  }
  const queries = queriesIn(p.received);
  if (queries.length > 0) {
    out.push(
      violation(
        'C5',
        '/query',
        `provider ${JSON.stringify(p.label)} declaring ${what} received ${queries.length} query payload(s); required: rejected at the handshake, before it could ever be queried`,
      ),
    );
  }
  return out;
}

/**
 * E1: a provider whose declared fingerprint is not exactly the host's received no `query.embedding`.
 * `control` (a provider declaring the host's own fingerprint) only shows the scenario could tell: a host
 * that never sends embeddings is conformant, so its absence there is a warning, not a failure.
 */
export function checkEmbeddingWithheld(p: Observed, fingerprints: { host: string; provider: string | undefined }, control?: Observed): Finding[] {
  const out: Finding[] = [];
  const queries = queriesIn(p.received);
  if (queries.length === 0) harnessPrecondition('E1', `provider ${JSON.stringify(p.label)} received no query at all, so what the host sends it could not be read`);
  queries.forEach((q, i) => {
    const embedding = queryOf(q).embedding;
    if (embedding !== undefined && embedding !== null) {
      out.push(
        violation(
          'E1',
          `/query/embedding`,
          `query #${i + 1} to provider ${JSON.stringify(p.label)} carries an embedding (${Array.isArray(embedding) ? `${embedding.length} numbers` : JSON.stringify(embedding)}) although its declared embeddings_fingerprint ${JSON.stringify(fingerprints.provider ?? null)} is not exactly the host's ${JSON.stringify(fingerprints.host)}; required: no embedding`,
        ),
      );
    }
  });
  if (control !== undefined) {
    const sent = queriesIn(control.received).some((q) => Array.isArray(queryOf(q).embedding));
    if (!sent)
      out.push(
        warning(
          'E1',
          '/query/embedding',
          `provider ${JSON.stringify(control.label)} declaring the host's own fingerprint ${JSON.stringify(fingerprints.host)} received no embedding either, so this run cannot tell stripping from never sending (conformant, but uninformative)`,
        ),
      );
  }
  return out;
}

/** P5: every representation preference a provider received is one it advertised. */
export function checkRepresentationsAdvertised(p: Observed, advertised: readonly string[]): Finding[] {
  const out: Finding[] = [];
  const queries = queriesIn(p.received);
  if (queries.length === 0) {
    out.push(violation('P5', '/query', `provider ${JSON.stringify(p.label)} received no query at all; required: queried, with only advertised representation preferences (or none)`));
  }
  queries.forEach((q, i) => {
    const prefs = queryOf(q).representation_preferences;
    if (prefs === undefined) return;
    const list = Array.isArray(prefs) ? prefs : [prefs];
    const bad = list.filter((r) => typeof r !== 'string' || !advertised.includes(r));
    if (bad.length > 0) {
      out.push(
        violation(
          'P5',
          '/query/representation_preferences',
          `query #${i + 1} to provider ${JSON.stringify(p.label)} prefers ${JSON.stringify(list)}; ${JSON.stringify(bad)} not advertised (capabilities.representations ${JSON.stringify(advertised)}); required: only advertised representations`,
        ),
      );
    }
  });
  return out;
}

/** S3.2-no-id-without-correlation: a provider that did not declare correlation never receives an `id`. */
export function checkNoIdWithoutCorrelation(p: Observed): Finding[] {
  const id = 'S3.2-no-id-without-correlation';
  const out: Finding[] = [];
  const queries = queriesIn(p.received);
  if (queries.length === 0) {
    out.push(violation(id, '/query', `provider ${JSON.stringify(p.label)} (no capabilities.correlation) received no query at all; required: queried in lock-step, without an id`));
  }
  p.received.forEach((line, i) => {
    if (line.type === 'handshake' || line.type === 'shutdown') return;
    if (Object.hasOwn(line, 'id')) {
      out.push(
        violation(
          id,
          '/id',
          `the ${JSON.stringify(line.type)} envelope #${i + 1} sent to provider ${JSON.stringify(p.label)} carries id ${JSON.stringify(line.id)} although it did not declare capabilities.correlation; required: no id`,
        ),
      );
    }
  });
  return out;
}

/**
 * X1 / X2 / S10-not-retryable: the provider's `error` reply to the query is reported for that provider,
 * read as not retryable, and the query is sent exactly once. For X1/X2 the code the host acts on (when its
 * error exposes one, `effectiveCode`) is `internal`; for S10 it stays incompatible_version.
 */
export function checkErrorNotRetried(id: 'X1' | 'X2' | 'S10-not-retryable', p: Observed & { routingId: string }, rawCode: string | null, fanOut: FanOutResult | undefined, thrown: unknown): Finding[] {
  const out: Finding[] = [];
  const codeText = rawCode === null ? 'no code' : `code ${JSON.stringify(rawCode)}`;
  const required = id === 'S10-not-retryable' ? 'incompatible_version is permanent: never retried' : 'treated as internal: reported, never retried';
  const queries = queriesIn(p.received);
  if (queries.length !== 1) {
    out.push(
      violation(id, '/query', `provider ${JSON.stringify(p.label)} answered with an error (${codeText}) and received the query ${queries.length} time(s); required: exactly once (${required})`),
    );
  }
  if (thrown !== undefined) {
    out.push(violation(id, '/', `the fan-out itself failed on provider ${JSON.stringify(p.label)}'s error (${codeText}): ${describe(thrown)}; required: one failed leg, reported`));
    return out;
  }
  const failure = fanOut?.failures.find((f) => f.routingId === p.routingId);
  if (failure === undefined) {
    const answered = fanOut?.answers.some((a) => a.provider.routingId === p.routingId) ?? false;
    out.push(
      violation(
        id,
        '/failures',
        `the host reported no failure for provider ${JSON.stringify(p.label)} whose every reply was an error with ${codeText}${answered ? ' (it even reported an answer)' : ''}; required: the error reported for that provider`,
      ),
    );
    return out;
  }
  const retryable = member(failure.error, 'retryable');
  if (retryable === true) {
    out.push(violation(id, '/failures', `the host reports provider ${JSON.stringify(p.label)}'s error (${codeText}) as retryable; required: ${required}`));
  }
  const effective = member(failure.error, 'effectiveCode');
  const wanted = id === 'S10-not-retryable' ? 'incompatible_version' : 'internal';
  if (effective !== undefined && effective !== wanted) {
    out.push(violation(id, '/failures', `the host acts on provider ${JSON.stringify(p.label)}'s error (${codeText}) as ${JSON.stringify(effective)}; required: ${JSON.stringify(wanted)}`));
  }
  return out;
}

function answerFrames(fanOut: FanOutResult | undefined, routingId: string): Array<Record<string, unknown>> {
  const answer = fanOut?.answers.find((a) => a.provider.routingId === routingId);
  return answer ? answer.frames.map((f) => f.frame as unknown as Record<string, unknown>) : [];
}

function keptOrFailed(id: string, p: { label: string; routingId: string }, what: string, fanOut: FanOutResult | undefined, thrown: unknown): Finding[] {
  if (thrown !== undefined)
    return [violation(id, '/', `the fan-out failed on provider ${JSON.stringify(p.label)}'s answer with ${what}: ${describe(thrown)}; required: the frame kept as opaque evidence`)];
  const failure = fanOut?.failures.find((f) => f.routingId === p.routingId);
  if (failure !== undefined)
    return [
      violation(
        id,
        '/failures',
        `the host rejected provider ${JSON.stringify(p.label)}'s answer with ${what}: ${describe(failure.error)}; required: never rejected for an unknown value of an open vocabulary`,
      ),
    ];
  return [];
}

/** U2: a frame of an unrecognised kind is kept, with its kind string verbatim (never rejected, never rewritten). */
export function checkUnknownKindKept(p: { label: string; routingId: string }, frame: { id: string; kind: string }, fanOut: FanOutResult | undefined, thrown: unknown): Finding[] {
  const what = `frame ${JSON.stringify(frame.id)} of kind ${JSON.stringify(frame.kind)}`;
  const out = keptOrFailed('U2', p, what, fanOut, thrown);
  if (out.length > 0) return out;
  const got = answerFrames(fanOut, p.routingId).find((f) => f.id === frame.id);
  if (got === undefined) return [violation('U2', '/frames', `the host's answers from provider ${JSON.stringify(p.label)} do not contain ${what}; required: kept as opaque evidence`)];
  if (got.kind !== frame.kind) return [violation('U2', '/frames/kind', `the host re-emits ${what} with kind ${JSON.stringify(got.kind)}; required: the original kind string verbatim`)];
  return [];
}

/** S8.1-rel-open: a relation with an unknown `rel` does not make the host reject the frame; the rel is kept. */
export function checkUnknownRelKept(p: { label: string; routingId: string }, frame: { id: string; rel: string }, fanOut: FanOutResult | undefined, thrown: unknown): Finding[] {
  const id = 'S8.1-rel-open';
  const what = `frame ${JSON.stringify(frame.id)} with a relation of rel ${JSON.stringify(frame.rel)}`;
  const out = keptOrFailed(id, p, what, fanOut, thrown);
  if (out.length > 0) return out;
  const got = answerFrames(fanOut, p.routingId).find((f) => f.id === frame.id);
  if (got === undefined) return [violation(id, '/frames', `the host's answers from provider ${JSON.stringify(p.label)} do not contain ${what}; required: never rejected for an unknown rel`)];
  const rels = Array.isArray(got.relations) ? (got.relations as Array<Record<string, unknown>>).map((r) => r.rel) : [];
  if (!rels.includes(frame.rel))
    return [violation(id, '/frames/relations', `the host kept ${JSON.stringify(frame.id)} but its relations now carry rel(s) ${JSON.stringify(rels)}; required: the unknown rel kept verbatim`)];
  return [];
}
