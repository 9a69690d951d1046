// Connection (H3, C5): what the host does with a handshake_ack it must refuse. The scripted provider's own
// record of what it RECEIVED shows it was never queried; the refusal and its timing are what the host raised.
// Steps are thin: they drive the HostScenario and hand observations to src/conformance/host-suite/checks/connection.ts.
import { Then, When } from '@cucumber/cucumber';
import { performance } from 'node:perf_hooks';
import { checkScopeContradictionRefused, checkVersionMismatchRefused } from '../../src/conformance/host-suite/checks/connection.js';
import type { HostScenario } from '../../src/conformance/host-suite/scenario.js';
import type { SuiteWorld } from '../world.js';

const STATE = 'connection.steps';

interface ConnectAttempt {
  error: unknown;
  elapsedMs: number;
}

function attempts(h: HostScenario): Map<string, ConnectAttempt> {
  let m = h.state.get(STATE) as Map<string, ConnectAttempt> | undefined;
  if (m === undefined) {
    m = new Map();
    h.state.set(STATE, m);
  }
  return m;
}

function attempt(h: HostScenario, label: string): ConnectAttempt {
  const a = attempts(h).get(label);
  if (a === undefined) throw new Error(`the scenario never tried to connect ${JSON.stringify(label)}`);
  return a;
}

// A refusal is an outcome here, not a step failure: it is kept with the time the attempt took.
When('the host under test tries to connect {string}', async function (this: SuiteWorld, label: string) {
  return this.run(async () => {
    await this.h.host();
    const started = performance.now();
    const p = await this.h.connect(label);
    attempts(this.h).set(label, { error: p.connectError, elapsedMs: performance.now() - started });
  });
});

// H3: "promptly" = within half the suite's handshake bound (a refusal raised when the ack is read takes a
// process spawn and one line; a host that waits for its handshake timeout instead is left hanging).
Then('the host refused {string} promptly with a named version mismatch and never queried it \\(H3)', async function (this: SuiteWorld, label: string) {
  return this.run(() => {
    const a = attempt(this.h, label);
    const acked = this.h.provider(label).config.protocol_version;
    this.judge(
      checkVersionMismatchRefused(
        { label, received: this.h.received(label) },
        { error: a.error, elapsedMs: a.elapsedMs, boundMs: this.h.config.handshakeTimeoutMs / 2, ackedVersion: typeof acked === 'string' ? acked : JSON.stringify(acked) },
      ),
    );
  });
});

Then('the host refused {string} at the handshake for its contradictory data flow and never queried it \\(C5)', async function (this: SuiteWorld, label: string) {
  return this.run(() => {
    const scopes = this.h.provider(label).config.egress_scopes;
    this.judge(checkScopeContradictionRefused({ label, received: this.h.received(label) }, { error: attempt(this.h, label).error, scopes: Array.isArray(scopes) ? scopes.map(String) : [] }));
  });
});
