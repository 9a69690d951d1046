// `cgp-conformance fuzz` / `replay`: hostile-input generation, sessions, transcripts, the driver.
export { AREAS, fuzzCase, fuzzInput, lineBytes, describeLine, isShutdownLine, DEFAULT_FUZZ_MAX_LINE_BYTES, type Area, type FuzzInput, type LineSpec } from './inputs.js';
export { requestMemberPaths, type MemberPath } from './schema-members.js';
export { openFuzzSession, probeLine, HandshakeFailed, type Finding, type FindingKind, type FuzzSession, type FuzzTarget, type SessionOptions } from './session.js';
export { readTranscript, decodeTranscriptFile, encodeTranscriptFile, TranscriptFileError, type TranscriptLines } from './transcript-file.js';
export { runFuzz, replayLines, CHUNK, type FuzzRunOptions, type FuzzRunResult, type ReplayOutcome } from './run-fuzz.js';
