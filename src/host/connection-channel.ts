// What the host needs from a transport once a provider is connected: one handshake, then exchanges
// (a request envelope in, its reply envelope out), then shutdown. stdio and HTTP implement it
// (connection-stdio.ts, connection-http.ts); everything above is transport-agnostic.
import type { Transcript } from '../transport/transcript.js';
import type { RawEnvelope } from '../transport/ndjson.js';
import type { TransportKind } from './types.js';
import type { HostFinding } from './connection-handshake.js';

export type ExchangeKind = 'query' | 'verify';

export interface ExchangeOptions {
  kind: ExchangeKind;
  timeoutMs: number;
  /** The envelope's correlation id, when one is sent (only to correlation-declaring providers, S3.2). */
  id?: string;
}

export interface ChannelShutdown {
  /** Exited by itself within the grace period with code 0 (stdio), or the shutdown POST was made (HTTP). */
  clean: boolean;
  /** Had to be SIGKILLed (whole process group) after the grace period. */
  killed: boolean;
  exitCode: number | null;
  signal: string | null;
  elapsedMs: number;
}

export interface Channel {
  readonly transport: TransportKind;
  /** A short description of the target for messages: the program, or the redacted URL. */
  readonly target: string;
  /** Whether the far end is on this machine (stdio, or a loopback URL). */
  readonly loopback: boolean;
  readonly transcript: Transcript;
  /** Findings observed on the wire outside any single exchange (uncorrelated verified, unsolicited replies, …). */
  readonly findings: HostFinding[];
  /** Set once the provider's routing id is known (messages name it). */
  routingId: string | undefined;
  /** Send `handshake`, return the first envelope that is not an ignorable notification. */
  handshake(version: string, timeoutMs: number): Promise<RawEnvelope>;
  /** Switch to steady state after a successful handshake. */
  start(correlation: boolean): void;
  exchange(envelope: Record<string, unknown>, opts: ExchangeOptions): Promise<RawEnvelope>;
  shutdown(graceMs: number): Promise<ChannelShutdown>;
  close(): Promise<void>;
}

/** S2.1: an envelope of unknown type is a request when it carries an id or a structured payload. */
const PAYLOAD_MEMBERS = ['request', 'query', 'params', 'payload', 'result', 'response'];

export function isPayloadBearing(envelope: RawEnvelope): boolean {
  if (envelope.id !== undefined && envelope.id !== null) return true;
  return PAYLOAD_MEMBERS.some((m) => typeof envelope[m] === 'object' && envelope[m] !== null);
}
