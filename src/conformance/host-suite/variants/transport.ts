// Host misbehaviour variants of the "transport" group (see src/conformance/host-suite/variants/manifest.ts for the contract):
// the HTTP transport rules of SPEC §4 — C4 (non-loopback is egress), C7 (TLS off-loopback), C8 (no
// credential in a log or a surfaced error). Caught by features/host/http-security.feature.
import type { ConnectHttpOptions, HostUnderTest } from '../../../host/under-test.js';
import type { FanOutResult } from '../../../host/fan-out.js';
import type { HostMisbehaviour } from './manifest.js';

/**
 * C8 broken through the log: a "debug" line naming the request headers of every HTTP connect, the
 * Authorization header verbatim — the classic way a token ends up in a log file.
 */
function leakCredentialToLog(honest: HostUnderTest): HostUnderTest {
  const extra: string[] = [];
  return {
    ...honest,
    name: `${honest.name} [leaks credentials to its log]`,
    connectHttp: async (url: string, opts: ConnectHttpOptions = {}) => {
      if (opts.credential !== undefined) extra.push(`debug - connecting ${url} with headers {"authorization":"Bearer ${opts.credential}"}`);
      return honest.connectHttp(url, opts);
    },
    logText: async () => [await honest.logText(), ...extra].filter((t) => t.length > 0).join('\n'),
  };
}

/**
 * C8 broken through a surfaced error: every failure of an HTTP provider (a refused connect, a failed leg of
 * a fan-out) is re-thrown with the request's Authorization header appended "for diagnosis".
 */
function leakCredentialInErrors(honest: HostUnderTest): HostUnderTest {
  const tokens = new Map<string, string>();
  const tell = (err: unknown, token: string): unknown => {
    if (err instanceof Error) err.message = `${err.message} [request authorization: Bearer ${token}]`;
    return err;
  };
  return {
    ...honest,
    name: `${honest.name} [leaks credentials in its errors]`,
    connectHttp: async (url: string, opts: ConnectHttpOptions = {}) => {
      try {
        const d = await honest.connectHttp(url, opts);
        if (opts.credential !== undefined) tokens.set(d.routingId, opts.credential);
        return d;
      } catch (err) {
        throw opts.credential !== undefined ? tell(err, opts.credential) : err;
      }
    },
    queryAll: async (query): Promise<FanOutResult> => {
      const r = await honest.queryAll(query);
      for (const f of r.failures) {
        const token = tokens.get(f.routingId);
        if (token !== undefined) tell(f.error, token);
      }
      return r;
    },
  };
}

export const TRANSPORT_VARIANTS: readonly HostMisbehaviour[] = [
  {
    mode: 'trust-egress-claim',
    breaks: ['C4'],
    description: "believes a non-loopback HTTP provider's handshake claim egress:false, so it is queried without consent",
    policies: { trustEgressClaim: true },
  },
  {
    mode: 'allow-plaintext-remote',
    breaks: ['C7'],
    description: 'dials plaintext http:// to a non-loopback provider (handshake and queries in cleartext) instead of refusing it',
    policies: { allowPlaintextRemote: true },
  },
  {
    mode: 'leak-credential',
    breaks: ['C8'],
    description: 'logs the Authorization header (the bearer token) of every HTTP connect',
    wrap: leakCredentialToLog,
  },
  {
    mode: 'leak-credential-in-error',
    breaks: ['C8'],
    description: "appends the request's Authorization header (the bearer token) to every error of an HTTP provider it surfaces",
    wrap: leakCredentialInErrors,
  },
];
