// Step definitions for features/provider/*.feature. Thin by design: each step calls one function of
// src/conformance/provider-suite (the probes and the verdict); none of them checks anything itself.
import { Given, Then, When } from '@cucumber/cucumber';
import {
  APPLICABILITY_MEDIA_TYPE,
  attestationProbes as attest,
  ConformanceFailure,
  FRESH_STEPS,
  correlationProbes as corr,
  provenanceProbes as provenance,
  queryProbes as q,
  shapeProbes as shape,
  verifyProbes as verify,
  wireProbes as wire,
} from '../src/conformance/provider-suite/index.js';
import { malformedBodiesThenQuery } from '../src/conformance/provider-suite/probes/edges-wire.js';
import type { SuiteWorld } from './world.js';

// ── connections ──────────────────────────────────────────────────────────────────────────────────

Given('the provider under test has answered the handshake', async function (this: SuiteWorld) {
  await this.run(() => this.p.useShared());
});

Given(FRESH_STEPS.plain, async function (this: SuiteWorld) {
  await this.run(() => this.p.useFresh());
});

Given(FRESH_STEPS.handshaken, async function (this: SuiteWorld) {
  await this.run(() => this.p.useFreshHandshaken());
});

// ── handshake and lifecycle ──────────────────────────────────────────────────────────────────────

When('the harness sends a handshake for {string}', async function (this: SuiteWorld, version: string) {
  await this.run(() => wire.handshakeWith(this.p, version));
});

When('the harness sends a second handshake on the same connection', async function (this: SuiteWorld) {
  await this.run(() => wire.secondHandshake(this.p));
});

When('the harness sends a query before the handshake', async function (this: SuiteWorld) {
  await this.run(() => wire.queryBeforeHandshake(this.p));
});

When('the harness sends malformed input, each followed by a valid query', async function (this: SuiteWorld) {
  // lines over stdio; bodies over HTTP, and request objects in process (docs/interpretations.md §116)
  await this.run(() => (this.p.session().kind === 'stdio' ? wire.malformedThenQuery(this.p) : malformedBodiesThenQuery(this.p)));
});

When('the harness sends shutdown', async function (this: SuiteWorld) {
  await this.run(() => wire.shutdownProbe(this.p));
});

When('the harness sends envelopes carrying unknown members', async function (this: SuiteWorld) {
  await this.run(() => wire.unknownMembers(this.p));
});

When('the harness sends an unknown notification, then a valid query', async function (this: SuiteWorld) {
  await this.run(() => wire.unknownNotification(this.p));
});

When('the harness sends a request of an unknown type', async function (this: SuiteWorld) {
  await this.run(() => wire.unknownRequest(this.p));
});

When('the harness makes the target write every kind of envelope', async function (this: SuiteWorld) {
  await this.run(() => wire.exerciseFraming(this.p));
});

When('the harness sends every kind of request', async function (this: SuiteWorld) {
  await this.run(() => shape.exerciseEveryRequest(this.p));
});

// ── queries ──────────────────────────────────────────────────────────────────────────────────────

When('the harness queries with a generous budget', async function (this: SuiteWorld) {
  await this.run(() => q.queryGenerous(this.p));
});

When('the harness queries in every advertised representation', async function (this: SuiteWorld) {
  await this.run(() => q.queryEveryRepresentation(this.p));
});

When('the harness queries with max_frames {int} and max_tokens {int}', async function (this: SuiteWorld, frames: number, tokens: number) {
  await this.run(() => q.queryWithBudget(this.p, frames, tokens));
});

When('the harness queries with max_frames {int}', async function (this: SuiteWorld, frames: number) {
  await this.run(() => q.queryMaxFrames(this.p, frames));
});

When("the harness queries with max_tokens between the two cheapest frames' costs", async function (this: SuiteWorld) {
  await this.run(() => q.queryTightTokens(this.p));
});

When("the harness queries with max_tokens below the cheapest frame's cost", async function (this: SuiteWorld) {
  await this.run(() => q.queryBelowCheapest(this.p));
});

When('the harness queries for each kind the target declares or serves', async function (this: SuiteWorld) {
  await this.run(() => q.queryEachKind(this.p));
});

When('the harness queries for several kinds at once', async function (this: SuiteWorld) {
  await this.run(() => q.querySeveralKinds(this.p));
});

When('the harness queries for a served kind spelled in capitals', async function (this: SuiteWorld) {
  await this.run(() => q.queryCapitalisedKind(this.p));
});

When("the harness queries anchored on every frame it serves with max_tokens of the cheapest frame's cost", async function (this: SuiteWorld) {
  await this.run(() => q.queryAnchoredTightTokens(this.p));
});

When('the harness queries for a kind the target does not serve', async function (this: SuiteWorld) {
  await this.run(() => q.queryUnservedKind(this.p));
});

When('the harness queries with as_of pins around the validity bounds it serves', async function (this: SuiteWorld) {
  await this.run(() => q.queryAsOfPins(this.p));
});

When("the harness queries anchored on a frame's own uri with max_frames {int}", async function (this: SuiteWorld, frames: number) {
  await this.run(() => q.queryAnchored(this.p, 'zero-hop', frames));
});

When('the harness queries anchored on a relation target with max_frames {int}', async function (this: SuiteWorld, frames: number) {
  await this.run(() => q.queryAnchored(this.p, 'one-hop', frames));
});

When("the harness queries anchored on a relation target that is no frame's uri with max_frames {int}", async function (this: SuiteWorld, frames: number) {
  await this.run(() => q.queryAnchored(this.p, 'one-hop-dangling', frames));
});

When('the harness queries with an embedding of the wrong length', async function (this: SuiteWorld) {
  await this.run(() => q.queryEmbedding(this.p, 'wrong'));
});

When('the harness queries with an embedding of the declared dimension', async function (this: SuiteWorld) {
  await this.run(() => q.queryEmbedding(this.p, 'declared'));
});

When('the harness requests a representation the target does not advertise', async function (this: SuiteWorld) {
  await this.run(() => q.queryUnadvertisedRepresentation(this.p));
});

When('the harness re-reads the bytes every file provenance link addresses', async function (this: SuiteWorld) {
  await this.run(() => provenance.rereadFileProvenance(this.p));
});

// ── correlation ──────────────────────────────────────────────────────────────────────────────────

When('the harness sends a query carrying an id', async function (this: SuiteWorld) {
  await this.run(() => corr.correlatedQuery(this.p));
});

When('the harness sends a query carrying an id with unusual characters', async function (this: SuiteWorld) {
  await this.run(() => corr.unusualIdQuery(this.p));
});

When('the harness sends a query carrying an id with surrounding spaces and capitals', async function (this: SuiteWorld) {
  await this.run(() => corr.spacedCapitalIdQuery(this.p));
});

When('the harness sends a malformed verify carrying an id', async function (this: SuiteWorld) {
  await this.run(() => verify.malformedVerifyWithId(this.p));
});

When('the harness sends a malformed query carrying an id', async function (this: SuiteWorld) {
  await this.run(() => corr.malformedQuery(this.p, true));
});

When('the harness sends a malformed query', async function (this: SuiteWorld) {
  await this.run(() => corr.malformedQuery(this.p, false));
});

When('the harness sends {int} queries carrying ids at once', async function (this: SuiteWorld, n: number) {
  await this.run(() => corr.pipelinedQueries(this.p, n));
});

When('the harness sends a query without an id', async function (this: SuiteWorld) {
  await this.run(() => corr.queryWithoutId(this.p));
});

// ── verify ───────────────────────────────────────────────────────────────────────────────────────

When('the harness verifies the identities it was just served', async function (this: SuiteWorld) {
  await this.run(() => verify.verifyServed(this.p));
});

When('the harness verifies the identities it serves, with altered digests', async function (this: SuiteWorld) {
  await this.run(() => verify.verifyAltered(this.p));
});

When('the harness verifies served, altered and unknown identities in one request', async function (this: SuiteWorld) {
  await this.run(() => verify.verifyMixed(this.p));
});

When('the harness verifies frames it was served, named under another provider id', async function (this: SuiteWorld) {
  await this.run(() => verify.verifyForeignIdentity(this.p));
});

When('the harness verifies frame ids the target never served', async function (this: SuiteWorld) {
  await this.run(() => verify.verifyUnknown(this.p));
});

When('the harness verifies frame ids the target has retired', async function (this: SuiteWorld) {
  await this.run(() => verify.verifyRetired(this.p));
});

When('the harness sends a verify carrying an id', async function (this: SuiteWorld) {
  await this.run(() => verify.verifyCorrelated(this.p));
});

// ── attestation ──────────────────────────────────────────────────────────────────────────────────

When('the harness queries with a generous and a truncating budget', async function (this: SuiteWorld) {
  await this.run(() => attest.queryForAttestations(this.p));
});

When('the harness verifies the attestations of every answer', async function (this: SuiteWorld) {
  await this.run(() => attest.checkAttestations(this.p));
});

// ── verdict ──────────────────────────────────────────────────────────────────────────────────────

Then('{ids} is/are satisfied', async function (this: SuiteWorld, ids: string[]) {
  let outcome: 'skipped' | undefined;
  await this.run(() => {
    const verdict = this.p.verdict(ids);
    const findings = verdict.status === 'failed' ? [...verdict.errors, ...verdict.warnings] : verdict.warnings;
    for (const f of findings) {
      this.attachFinding(f);
      this.p.markReported(f);
    }
    if (verdict.status === 'failed') throw new ConformanceFailure(verdict.message);
    if (verdict.status === 'not-applicable') {
      this.attach(JSON.stringify({ not_applicable: verdict.reason }), APPLICABILITY_MEDIA_TYPE);
      outcome = 'skipped';
      return;
    }
    const counts = Object.entries(verdict.witnessed).map(([id, n]) => `${id}: ${n} examined`);
    this.log(`${counts.join(', ')}${verdict.warnings.length > 0 ? `; ${verdict.warnings.length} warning(s)` : ''}`);
  });
  return outcome;
});
