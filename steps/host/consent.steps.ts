// Consent (C1, C2, C6): the gate runs before any payload leaves; what the scripted provider RECEIVED is
// the evidence. Steps are thin: they drive the HostScenario and hand observations to the checks.
import { Given, Then, When } from '@cucumber/cucumber';
import { checkConsentRefused, checkQueryDelivered, checkRefusalNamesScopes } from '../../src/conformance/host-suite/checks/consent.js';
import type { SuiteWorld } from '../world.js';
import { notObserved } from '../../src/conformance/host-suite/inconclusive.js';

const QUERY = { goal: 'how does the retry policy back off', max_frames: 4, max_tokens: 2000 };

Given('a scripted provider {string} that declares egress to scope(s) {string}', async function (this: SuiteWorld, label: string, scopes: string) {
  return this.run(() => {
    this.h.scripted(label, { egress: true, egress_scopes: scopes.split(',').map((s) => s.trim()) });
  });
});

Given('a scripted provider {string} with the script:', async function (this: SuiteWorld, label: string, doc: string) {
  return this.run(() => {
    this.h.scripted(label, JSON.parse(doc) as Record<string, unknown>);
  });
});

Given('a scripted provider {string}', async function (this: SuiteWorld, label: string) {
  return this.run(() => {
    this.h.scripted(label, {});
  });
});

Given('the host under test has connected {string}', async function (this: SuiteWorld, label: string) {
  return this.run(async () => {
    const p = await this.h.connect(label);
    if (p.connectError !== undefined) notObserved(this.h.ids.join(', '), `connecting ${label} was refused: ${String(p.connectError)}`);
  });
});

Given('{string} consents to the egress of {string}', async function (this: SuiteWorld, grantor: string, label: string) {
  return this.run(async () => {
    const host = await this.h.host();
    await host.grantConsent(this.h.routingId(label), { grantor });
  });
});

Given('{string} consents to the egress of {string} for scope(s) {string} only', async function (this: SuiteWorld, grantor: string, label: string, scopes: string) {
  return this.run(async () => {
    const host = await this.h.host();
    await host.grantConsent(this.h.routingId(label), { grantor, scopes: scopes.split(',').map((s) => s.trim()) });
  });
});

Given('{string} revokes the consent for {string}', async function (this: SuiteWorld, grantor: string, label: string) {
  return this.run(async () => {
    const host = await this.h.host();
    await host.revokeConsent(this.h.routingId(label), { grantor });
  });
});

When('the host under test fans a query out', async function (this: SuiteWorld) {
  return this.run(() => this.h.queryAll(QUERY));
});

Then('{string} received no query and the host reported the refusal \\({ids})', async function (this: SuiteWorld, label: string, ids: string[]) {
  return this.run(() => {
    this.judge(checkConsentRefused(ids, { label, routingId: this.h.routingId(label) }, this.h.received(label), this.h.lastFanOut, this.h.lastError));
  });
});

Then('the refusal for {string} names the scope(s) {string}', async function (this: SuiteWorld, label: string, scopes: string) {
  return this.run(() => {
    this.judge(
      checkRefusalNamesScopes(
        { label, routingId: this.h.routingId(label) },
        scopes.split(',').map((s) => s.trim()),
        this.h.lastFanOut,
        this.h.lastError,
      ),
    );
  });
});

Then('{string} received the query and answered \\({word})', async function (this: SuiteWorld, label: string, id: string) {
  return this.run(() => {
    this.judge(checkQueryDelivered(id, { label, routingId: this.h.routingId(label) }, this.h.received(label), this.h.lastFanOut, this.h.lastError));
  });
});
