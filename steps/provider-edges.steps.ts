// Step definitions for features/provider/edges.feature. Thin by design:
// each step calls one probe of src/conformance/provider-suite/probes/edges.ts or edges-wire.ts; none checks anything.
import { When } from '@cucumber/cucumber';
import * as edges from '../src/conformance/provider-suite/probes/edges.js';
import * as edgeLines from '../src/conformance/provider-suite/probes/edges-wire.js';
import type { SuiteWorld } from './world.js';

// ── numeric bounds ───────────────────────────────────────────────────────────────────────────────

When('the harness queries with max_tokens 0', async function (this: SuiteWorld) {
  await this.run(() => edges.queryZeroMaxTokens(this.p));
});

When('the harness queries with max_tokens exactly at and one below its limits', async function (this: SuiteWorld) {
  await this.run(() => edges.queryTokensAtLimits(this.p));
});

When('the harness queries with max_frames exactly at and one below its limits', async function (this: SuiteWorld) {
  await this.run(() => edges.queryFramesAtLimits(this.p));
});

When("the harness sends budgets beyond their type's range, each followed by a valid query", async function (this: SuiteWorld) {
  await this.run(() => edgeLines.budgetsBeyondRange(this.p));
});

// ── shapes of values ─────────────────────────────────────────────────────────────────────────────

When('the harness queries with embeddings shorter than the declared dimension', async function (this: SuiteWorld) {
  await this.run(() => edges.queryShortEmbeddings(this.p));
});

When('the harness sends queries carrying ids of every shape', async function (this: SuiteWorld) {
  await this.run(() => edges.idsOfEveryShape(this.p));
});

When('the harness sends a verify naming no frame identity', async function (this: SuiteWorld) {
  await this.run(() => edges.emptyVerify(this.p));
});

When('the harness sends members spelled in other case beside the real ones', async function (this: SuiteWorld) {
  await this.run(() => edges.caseVariantMembers(this.p));
});

// ── lines ────────────────────────────────────────────────────────────────────────────────────────

When('the harness sends valid lines longer than common read buffers, each followed by a valid query', async function (this: SuiteWorld) {
  await this.run(() => edgeLines.longLines(this.p));
});

When('the harness sends a valid line nested far deeper than 512 levels, then a valid query', async function (this: SuiteWorld) {
  await this.run(() => edgeLines.veryDeepLine(this.p));
});

// ── grammars at their edges ──────────────────────────────────────────────────────────────────────

When('the harness queries with as_of at the edges of the timestamp profile', async function (this: SuiteWorld) {
  await this.run(() => edges.asOfProfileEdges(this.p));
});

When('the harness sends as_of spellings off the timestamp profile, each followed by a valid query', async function (this: SuiteWorld) {
  await this.run(() => edgeLines.asOfOffProfile(this.p));
});

When("the harness queries for kind names at the edges of the served kinds' names", async function (this: SuiteWorld) {
  await this.run(() => edges.kindNameEdges(this.p));
});

When("the harness queries anchored on an unknown URI and then a frame's own uri with max_frames 1", async function (this: SuiteWorld) {
  await this.run(() => edges.secondAnchor(this.p));
});
