/**
 * cgp-conformance as a library (`import { runSuite } from 'cgp-conformance'`): run the provider- or
 * host-facing suite programmatically. Typed entry points for what users build on:
 *   cgp-conformance/host-adapter   the HostUnderTest contract a host adapter implements
 *   cgp-conformance/protocol       the protocol rules (frame, envelope, result checks; pure functions)
 *   cgp-conformance/schema         the schema validators (authoring-strict lint and interop profile)
 *   cgp-conformance/attest         §6.5 attestation: strict Ed25519, commitments, Merkle proofs, verdicts
 *   cgp-conformance/cucumber       the cucumber-js configuration (`export { default } from 'cgp-conformance/cucumber'`)
 */
export { runSuite, type RunSuiteOptions, type RunSuiteResult } from './conformance/run/run-suite.js';
export { exitCodeOf, jsonReport, textReport } from './conformance/provider-suite/cli-report.js';
export { EXIT_OK, EXIT_MUST_FAILED, EXIT_USAGE, EXIT_NEVER_ANSWERED, EXIT_HARNESS_ERROR } from './conformance/run/exit-codes.js';
export { resolveReportsDir, DEFAULT_REPORTS_DIR } from './conformance/run/reports-dir.js';
export { writeCoverage, verdictText, type WrittenCoverage } from './conformance/report/write.js';
export type { CoverageReport, CoverageEntry, CoverageSummary } from './conformance/report/types.js';
export { PROTOCOL_VERSION } from './protocol/version.js';
