/**
 * The host-under-test contract: the surface a host is certified through (HostUnderTest) and the options
 * the host suite hands a host adapter's `createHost(options)`. Pure types, so the reference host, the
 * host suite and a third-party adapter can all depend on it (`import type { HostUnderTest } from
 * 'cgp-conformance/host-adapter'`).
 *
 * A host is certified by what it does at its two edges: what it sends to providers (observed by the
 * scripted providers the suite puts in front of it, over real pipes and sockets) and what it hands to
 * its caller (the composed prompt with its blocks, the usage report, the attribution record, its errors
 * and its log). The shapes are written here as this package's types; what the suite requires of them is
 * the published contract, schema/host-control/<op>.schema.json (docs/host-control-protocol.md): only what
 * a check reads is required, and every result is validated against it.
 */
import type { LookupFunction } from 'node:net';
import type { ContextQuery } from '../../generated/types/index.js';
import type { AttributionRecord } from './attribution.js';
import type { ComposedPrompt, ComposeOptions } from './compose/types.js';
import type { FanOutResult } from './fan-out.js';
import type { ProviderAnswer, ProviderDescriptor, ReceivedFrame } from './types.js';
import type { UsageReport } from './usage.js';
import type { VerifyOutcome } from './verify-reuse.js';

export interface HostUnderTestOptions {
  /** The consent ledger file the host must use (a fresh temporary directory per scenario). */
  ledgerPath: string;
  /** The host's embedding fingerprint (E1), when a scenario gives it one. */
  embeddingFingerprint?: string;
  /** Bounds the suite expects the host to honour (ms). */
  handshakeTimeoutMs: number;
  requestTimeoutMs: number;
  /** Bundled host only: the misbehaviour mode (red team). */
  misbehave?: string;
}

export interface ConnectStdioOptions {
  alias?: string;
  cwd?: string;
}

export interface ConnectHttpOptions {
  alias?: string;
  credential?: string;
  /** Injected name resolution (the suite maps test names to loopback; it never dials anything else). */
  lookup?: LookupFunction;
  /** Extra trusted CA (PEM) for a test TLS peer. */
  ca?: string;
}

/** A result a host may produce synchronously (in-process) or asynchronously (another process): always `await` it. */
export type Awaitable<T> = T | Promise<T>;

export interface HostUnderTest {
  readonly name: string;
  /**
   * The capabilities the host declares, from the closed set of docs/host-control-protocol.md (absent: not
   * declared — a `not_supported` answer to an operation is then the signal).
   */
  readonly capabilities?: readonly string[];
  connectStdio(command: string, args: readonly string[], opts?: ConnectStdioOptions): Promise<ProviderDescriptor>;
  connectHttp(url: string, opts?: ConnectHttpOptions): Promise<ProviderDescriptor>;
  /** Record an explicit, named consent (C1/C6) to the off-machine scopes given (default: all declared). */
  grantConsent(routingId: string, grant: { grantor: string; scopes?: string[] }): Promise<void>;
  revokeConsent(routingId: string, revoke: { grantor: string; scopes?: string[] }): Promise<void>;
  /** Fan one query out to every connected provider (consent-gated, audited). */
  queryAll(query: ContextQuery): Promise<FanOutResult>;
  /** Verify held frames with the provider that served them (V1–V4, D3/D4). */
  verify(routingId: string, held: readonly ReceivedFrame[]): Promise<VerifyOutcome>;
  compose(answers: readonly ProviderAnswer[], opts: ComposeOptions): Awaitable<ComposedPrompt>;
  /** The usage report (UR1) of an executed query, from what a host holds: the query and its fan-out result. */
  usage(query: ContextQuery, fanOut: FanOutResult): Awaitable<UsageReport>;
  attribute(composed: ComposedPrompt, usage: UsageReport, modelOutput: string): Awaitable<AttributionRecord>;
  /** Everything the host logged so far, rendered (C8: must never contain a credential). */
  logText(): Awaitable<string>;
  close(): Promise<void>;
}

export type HostFactory = (options: HostUnderTestOptions) => HostUnderTest | Promise<HostUnderTest>;

// The shapes a HostUnderTest method takes and returns, for adapter authors (one import site).
export type { AttributionRecord, ComposedPrompt, ComposeOptions, ContextQuery, FanOutResult, ProviderAnswer, ProviderDescriptor, ReceivedFrame, UsageReport, VerifyOutcome };
