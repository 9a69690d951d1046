// Fan-out (E1, P5, S3.2-no-id-without-correlation, X1, X2, S10-not-retryable, U2, S8.1-rel-open): what each
// provider's copy of the query carried — read from the scripted provider's own record of what it RECEIVED —
// and what the host made of its reply. Steps are thin: they drive the HostScenario and hand observations
// to src/conformance/host-suite/checks/connection.ts.
import { Given, Then, When } from '@cucumber/cucumber';
import {
  checkEmbeddingWithheld,
  checkErrorNotRetried,
  checkNoIdWithoutCorrelation,
  checkRepresentationsAdvertised,
  checkUnknownKindKept,
  checkUnknownRelKept,
} from '../../src/conformance/host-suite/checks/connection.js';
import type { ContextQuery } from '../../generated/types/index.js';
import type { SuiteWorld } from '../world.js';

const BASE_QUERY = { goal: 'where is the retry backoff configured', max_frames: 4, max_tokens: 2000 };

/** The frame a scripted provider serves under `id` (from its `serve` script). */
function served(world: SuiteWorld, label: string, id: string): Record<string, unknown> {
  const serve = world.h.provider(label).config.serve;
  const spec = Array.isArray(serve) ? (serve as Array<Record<string, unknown>>).find((s) => s.id === id) : undefined;
  if (spec === undefined) throw new Error(`scripted provider ${JSON.stringify(label)} serves no frame ${JSON.stringify(id)}`);
  return spec;
}

// E1: the fingerprint is an option of the host itself, so it is set before anything is connected.
Given('the host under test has the embedding fingerprint {string}', async function (this: SuiteWorld, fingerprint: string) {
  return this.run(async () => {
    if (this.h.providers.size > 0) throw new Error('the embedding fingerprint must be given before any provider is declared');
    await this.h.host({ embeddingFingerprint: fingerprint });
  });
});

When('the host under test fans out a query carrying a {int}-number embedding', async function (this: SuiteWorld, n: number) {
  return this.run(() => this.h.queryAll({ ...BASE_QUERY, embedding: Array.from({ length: n }, (_, i) => (i + 1) / (n + 1)) }));
});

When('the host under test fans out a query preferring the representations {string}', async function (this: SuiteWorld, list: string) {
  const prefs = list.split(',').map((s) => s.trim());
  return this.run(() => this.h.queryAll({ ...BASE_QUERY, representation_preferences: prefs } as ContextQuery));
});

Then("{string} received no embedding, while {string} with the host's fingerprint could \\(E1)", async function (this: SuiteWorld, label: string, control: string) {
  return this.run(() => {
    const host = this.h.provider(control).config.fingerprint;
    const fp = this.h.provider(label).config.fingerprint;
    // E1 binds what reaches the providers, whatever the host declares (docs/interpretations.md §104): the
    // fingerprint the scenario gave the host is its own unless it refused it (not_supported); a host that
    // refused has none, so no provider may receive an embedding. The control (a provider declaring that
    // fingerprint) is read only for a host declaring embedding, or declaring nothing.
    const declared = this.h.declaredCapabilities();
    const own = this.h.embeddingDeclined ? '(none: the host refused an embedding fingerprint)' : String(host);
    const findings = checkEmbeddingWithheld(
      { label, received: this.h.received(label) },
      { host: own, provider: typeof fp === 'string' ? fp : undefined },
      !this.h.embeddingDeclined && (declared === undefined || declared.includes('embedding')) ? { label: control, received: this.h.received(control) } : undefined,
    );
    if (this.h.embeddingDeclined)
      findings.push(...checkEmbeddingWithheld({ label: control, received: this.h.received(control) }, { host: own, provider: typeof host === 'string' ? host : undefined }));
    this.judge(findings);
  });
});

Then('{string} was asked only for representations it advertised \\(P5)', async function (this: SuiteWorld, label: string) {
  return this.run(() => {
    const reps = this.h.provider(label).config.representations;
    this.judge(checkRepresentationsAdvertised({ label, received: this.h.received(label) }, Array.isArray(reps) ? reps.map(String) : []));
  });
});

Then('{string} received no correlation id \\(S3.2-no-id-without-correlation)', async function (this: SuiteWorld, label: string) {
  return this.run(() => {
    this.judge(checkNoIdWithoutCorrelation({ label, received: this.h.received(label) }));
  });
});

Then('{string} received the query exactly once and the host reported its error as not retryable \\({ids})', async function (this: SuiteWorld, label: string, ids: string[]) {
  return this.run(() => {
    const code = this.h.provider(label).config.errorCode;
    const rawCode = typeof code === 'string' ? code : null;
    const p = { label, routingId: this.h.routingId(label), received: this.h.received(label) };
    this.judge(
      ids.flatMap((id) => {
        if (id !== 'X1' && id !== 'X2' && id !== 'S10-not-retryable') throw new Error(`no error-reading check for ${id}`);
        return checkErrorNotRetried(id, p, rawCode, this.h.lastFanOut, this.h.lastError);
      }),
    );
  });
});

Then('the host kept the frame {string} of {string} with its kind verbatim \\(U2)', async function (this: SuiteWorld, frameId: string, label: string) {
  return this.run(() => {
    const kind = served(this, label, frameId).kind;
    this.judge(checkUnknownKindKept({ label, routingId: this.h.routingId(label) }, { id: frameId, kind: String(kind) }, this.h.lastFanOut, this.h.lastError));
  });
});

Then('the host kept the frame {string} of {string} with its relation verbatim \\(S8.1-rel-open)', async function (this: SuiteWorld, frameId: string, label: string) {
  return this.run(() => {
    const extra = served(this, label, frameId).extra as { relations?: Array<{ rel?: unknown }> } | undefined;
    const rel = extra?.relations?.[0]?.rel;
    if (typeof rel !== 'string') throw new Error(`frame ${JSON.stringify(frameId)} of ${JSON.stringify(label)} is scripted without a relation`);
    this.judge(checkUnknownRelKept({ label, routingId: this.h.routingId(label) }, { id: frameId, rel }, this.h.lastFanOut, this.h.lastError));
  });
});
