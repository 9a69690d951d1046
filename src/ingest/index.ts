/** Prompt ingestion (docs/interpretations.md §40–§49): a paste → goal + anchors + compact, content-addressed frames. */
export { ingest, IngestInputError, type Attachment, type Became, type IngestInput, type IngestResult, type ReportEntry } from './ingest.js';
export { IngestStore, type ServeOptions, type Verdict } from './store.js';
export { createIngestProvider, type IngestProvider, type IngestProviderOptions, type IngestReply } from './provider.js';
export { serveIngestHttp, serveIngestStdio, type IngestHttpOptions, type RunningIngestHttp } from './serve.js';
export { INGEST_PROVIDER_NAME, renderArtifact, type Artifact, type ServedRepresentation } from './artifact.js';
export { leadingTimestamp, normaliseTimestampText } from './timestamps.js';
export { anchorFor, type Anchor } from './paths.js';
