// HTTP transport security (C4, C7, C8): the scripted provider is served over HTTP in process
// (src/conformance/host-suite/scripted/http-provider.ts), on 127.0.0.1 only, and the host is given a NON-loopback name
// for it that only the injected lookup resolves (to 127.0.0.1). What that server RECORDED — bodies,
// headers, TLS or not — is the evidence. Steps are thin: they drive the HostScenario and hand the
// observations to src/conformance/host-suite/checks/http.ts.
import { randomBytes } from 'node:crypto';
import { Given, Then, When } from '@cucumber/cucumber';
import {
  checkPlaintextRefusedUnresolved,
  checkCredentialNotSurfaced,
  checkNonLoopbackGated,
  checkPlaintextRefused,
  credentialWasSent,
  describeAuthorization,
  type Surface,
} from '../../src/conformance/host-suite/checks/http.js';
import { loopbackLookup, startHttpProvider, testCertificate, type HttpProvider, type RecordingLookup } from '../../src/conformance/host-suite/scripted/http-provider.js';
import type { HostScenario } from '../../src/conformance/host-suite/scenario.js';
import { HarnessError } from '../../src/conformance/provider-suite/index.js';
import type { SuiteWorld } from '../world.js';
import { isScenarioVerdict } from '../../src/conformance/host-suite/scenario.js';

interface HttpPeer {
  server: HttpProvider;
  lookup: RecordingLookup;
  token?: string;
  /** The connect attempt: resolved (connected) or refused (error kept). */
  connected: boolean;
  connectError?: unknown;
  /** C7 judged without the name-resolution hook, at a name that never resolves. */
  hookless?: boolean;
}

const KEY = 'http-security';

function peers(h: HostScenario): Map<string, HttpPeer> {
  let m = h.state.get(KEY) as Map<string, HttpPeer> | undefined;
  if (m === undefined) {
    m = new Map();
    h.state.set(KEY, m);
  }
  return m;
}

function peer(h: HostScenario, label: string): HttpPeer {
  const p = peers(h).get(label);
  if (p === undefined) throw new HarnessError(`no HTTP provider ${JSON.stringify(label)} was started in this scenario`);
  return p;
}

/**
 * Serve the scripted provider `label` over HTTP (TLS with a test certificate for the non-loopback name, or
 * plaintext) and have the host connect to it through the loopback-only lookup. A refusal is kept.
 */
async function connectOverHttp(h: HostScenario, label: string, opts: { tls: boolean; credential: boolean }): Promise<HttpPeer> {
  const provider = h.provider(label);
  const cert = opts.tls ? testCertificate() : undefined;
  const server = await startHttpProvider(provider.config, cert ? { tls: cert } : {});
  h.cleanups.push(() => server.close());
  const lookup = loopbackLookup();
  const entry: HttpPeer = { server, lookup, connected: false, ...(opts.credential ? { token: `cgp-c8-${randomBytes(12).toString('hex')}` } : {}) };
  peers(h).set(label, entry);
  const host = await h.host();
  // C7 without the name-resolution hook (docs/interpretations.md §105): a host that refuses plaintext before it
  // resolves anything is judged at a name that never resolves (RFC 6761 .invalid), so nothing can be dialled
  const declared = h.declaredCapabilities();
  const hookless = !opts.tls && declared !== undefined && !declared.includes('name-resolution-hook');
  if (hookless) {
    entry.hookless = true;
    const url = new URL(server.url);
    url.hostname = UNRESOLVABLE_NAME;
    try {
      provider.descriptor = await host.connectHttp(url.href, entry.token !== undefined ? { credential: entry.token } : {});
      entry.connected = true;
    } catch (err) {
      if (isScenarioVerdict(err)) throw err;
      entry.connectError = err;
      provider.connectError = err;
      h.lastError = err;
    }
    return entry;
  }
  try {
    provider.descriptor = await host.connectHttp(server.url, {
      lookup: lookup.lookup,
      ...(cert ? { ca: cert.cert } : {}),
      ...(entry.token !== undefined ? { credential: entry.token } : {}),
    });
    entry.connected = true;
    delete provider.connectError;
  } catch (err) {
    if (isScenarioVerdict(err)) throw err;
    entry.connectError = err;
    provider.connectError = err;
    h.lastError = err;
  }
  return entry;
}

/** A name that never resolves (RFC 6761 §6.4): the hookless C7 scenario dials nothing. */
const UNRESOLVABLE_NAME = 'cgp-plaintext-peer.invalid';

function mustConnect(label: string, entry: HttpPeer): void {
  if (!entry.connected) throw new HarnessError(`connecting ${label} at ${entry.server.url} was refused: ${String(entry.connectError)}`);
}

Given('the host under test has connected {string} over HTTPS at a non-loopback name', async function (this: SuiteWorld, label: string) {
  return this.run(async () => mustConnect(label, await connectOverHttp(this.h, label, { tls: true, credential: false })));
});

Given('the host under test has connected {string} over HTTPS at a non-loopback name with a bearer credential', async function (this: SuiteWorld, label: string) {
  return this.run(async () => mustConnect(label, await connectOverHttp(this.h, label, { tls: true, credential: true })));
});

When('the host under test tries to connect {string} over HTTPS at a non-loopback name with a bearer credential', async function (this: SuiteWorld, label: string) {
  return this.run(() => connectOverHttp(this.h, label, { tls: true, credential: true }));
});

When('the host under test tries to connect {string} over plaintext HTTP at a non-loopback name with a bearer credential', async function (this: SuiteWorld, label: string) {
  return this.run(() => connectOverHttp(this.h, label, { tls: false, credential: true }));
});

When('{string} stops listening', async function (this: SuiteWorld, label: string) {
  return this.run(() => peer(this.h, label).server.close());
});

Then('{string}, reached at a non-loopback name, received no query and the host reported the refusal \\({ids})', async function (this: SuiteWorld, label: string, ids: string[]) {
  return this.run(() => {
    const p = peer(this.h, label);
    this.judge(checkNonLoopbackGated(ids, { label, url: p.server.url, routingId: this.h.routingId(label) }, p.server.requests, this.h.lastFanOut, this.h.lastError));
  });
});

Then('the connection to {string} was refused before any byte left in plaintext \\({ids})', async function (this: SuiteWorld, label: string, ids: string[]) {
  return this.run(() => {
    const p = peer(this.h, label);
    if (p.hookless === true) {
      this.judge(checkPlaintextRefusedUnresolved(ids, { label, url: p.server.url }, { connected: p.connected, error: p.connectError }));
      return;
    }
    this.judge(checkPlaintextRefused(ids, { label, url: p.server.url }, p.server.requests, { connected: p.connected, error: p.connectError, lookups: p.lookup.calls }));
  });
});

Then('the host sent the bearer credential to {string}, and it appears in no log line or surfaced error \\({ids})', async function (this: SuiteWorld, label: string, ids: string[]) {
  return this.run(async () => {
    const p = peer(this.h, label);
    const token = p.token;
    if (token === undefined) throw new HarnessError(`${label} was connected without a credential`);
    if (!credentialWasSent(token, p.server.requests)) {
      throw new HarnessError(`cannot witness ${ids.join(', ')}: the host never sent the credential it was given (${describeAuthorization(token, p.server.requests)})`);
    }
    const host = await this.h.host();
    const surfaces: Surface[] = [
      { where: "the host's log", value: await host.logText() },
      { where: `the error connecting ${label} surfaced`, value: p.connectError },
      { where: 'the error the last operation surfaced', value: this.h.lastError },
      { where: 'the fan-out result', value: this.h.lastFanOut },
      ...(this.h.lastFanOut?.failures ?? []).map((f) => ({ where: `the fan-out failure for ${JSON.stringify(f.routingId)}`, value: f.error })),
      ...(this.h.lastFanOut?.findings ?? []).map((f) => ({ where: 'a fan-out finding', value: f })),
    ];
    this.judge(checkCredentialNotSurfaced(ids, token, surfaces));
  });
});
