// Public API of the transport layer: NDJSON over stdio (client + serve loop), HTTP (client + server),
// the loopback/TLS gate (C7), credential redaction (C8) and the named transport errors.
export * from './errors.js';
export {
  LineSplitter,
  decodeUtf8Strict,
  encodeLine,
  firstInvalidUtf8,
  linesBeforeError,
  parseEnvelopeLine,
  type EofMidLinePolicy,
  type LineItem,
  type LineSplitterOptions,
  type RawEnvelope,
} from './ndjson.js';
export { Transcript, type TranscriptEntry, type TranscriptOptions } from './transcript.js';
export { ByteRing } from './byte-ring.js';
export {
  StdioConnection,
  minimalEnv,
  DEFAULT_HANDSHAKE_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_SHUTDOWN_GRACE_MS,
  DEFAULT_STDERR_TAIL_BYTES,
  type ShutdownResult,
  type StdioSpawnOptions,
} from './stdio-client.js';
export { serveStdio, type LineInfo, type ServeStdioOptions, type ServeStdioResult, type StdioHandler, type StdioHandlerResult } from './stdio-server.js';
export { Credential, REDACTED_CREDENTIAL } from './credential.js';
export { isLoopbackHost, checkProviderUrl } from './loopback.js';
export { HttpConnection, DEFAULT_HTTP_TIMEOUT_MS, type HttpConnectionOptions } from './http-client.js';
export { serveHttp, type HttpHandler, type HttpRequestInfo, type HttpServerHandle, type ServeHttpOptions } from './http-server.js';
