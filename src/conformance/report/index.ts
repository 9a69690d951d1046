// The report builders: coverage (coverage.json / .md / .html / badge.svg) and the red team's verdicts.
// The ts-morph step index lives in ./step-index.js and is NOT re-exported here (ts-morph is a dev dependency).

export {
  buildCoverage,
  buildCoverageFromScenarios,
  collectWitnesses,
  conformanceVerdict,
  deriveStatus,
  inferSide,
  scenarioWitnessStatuses,
  serializeCoverage,
  sideNotApplicable,
  summarise,
  type BuildCoverageOptions,
  type ConformanceVerdict,
  type WitnessDetail,
} from './build.js';
export { badgeText, renderBadge, type BadgeText } from './badge.js';
export { CatalogueIndex, idFromFailureMessage, idsFromFailureMessage, looksLikeCatalogueId } from './ids.js';
export { parseMessages, readMessagesFile, type ParsedMessages, type ScenarioResult, type ScenarioStatus, type StepDefinitionRef } from './messages.js';
export {
  applyBaseline,
  BaselineError,
  evaluateMode,
  evaluateSmoke,
  honestFlags,
  pool,
  readBaseline,
  renderRedTeamTable,
  runRedTeam,
  serializeRedTeam,
  SMOKE_REPORT_NAME,
  summariseRedTeam,
  tagExpression,
  modeTags,
  type BaselineEntry,
  type IdVerdict,
  type IdVerdictStatus,
  type ManifestEntry,
  type ModeResult,
  type ModeVerdict,
  type RedTeamReport,
  type RunRedTeamOptions,
  type SmokeResult,
  type SuiteRunner,
  type SuiteRunOptions,
  type SuiteRunResult,
} from './red-team.js';
export { renderHtml, type PageDetails } from './render-html.js';
export { detailsFromMessages } from './page-details.js';
export { renderJunit, type JunitOptions } from './junit.js';
export { MAX_FINDINGS_WITH_EVIDENCE, minimalEvidence, reportFindings, runOutcome, summaryLine, type ReportFinding, type RunOutcome } from './outcome.js';
export { renderBugReport, writeBugReports, bugReportFile, type BugReportContext } from './bug-report.js';
export { readKnownFailures, applyKnownFailures, KnownFailuresError, type KnownFailure, type KnownFailuresOutcome } from './known-failures.js';
export { verdictText, writeCoverage, type WrittenCoverage } from './write.js';
export { renderMarkdown } from './render-markdown.js';
export { APPLICABILITY_MEDIA_TYPE, FINDING_MEDIA_TYPE } from '../evidence/attachments.js';
export { PROTOCOL_VERSION } from '../../protocol/version.js';
export {
  MalformedMessagesError,
  UnknownCatalogueIdError,
  type CoverageEntry,
  type CoverageReport,
  type CoverageSummary,
  type EntryStatus,
  type Finding,
  type RunSide,
  type Witness,
  type WitnessStatus,
} from './types.js';
