/** Prompt composition (R3, F10, F13, D2, S6.4.1, S7.2): public API. */
export { composeForPrompt } from './compose.js';
export { modelToBudgetTokens, equalSplit, checkSafetyFactor } from './budget.js';
export { dedup, parseRange, type DedupColumns, type DedupResult, type DuplicateProof, type DigestClash } from './dedup.js';
export { hashString, StringIndex } from './string-index.js';
export { PREAMBLE, FENCE_CLOSE, escapeAttribute, unescapeAttribute, neutraliseContent, fenceHeader, parseFences, type FenceAttributes, type ParsedFence } from './render.js';
export { ScoreDescending, RoundRobinByRank, PerProviderQuota, rankWith, rankColumns, columnsOf, type RankCandidate, type RankColumns, type RankingStrategy } from './strategy.js';
export type { AdmittedAuditEntry, AuditEntry, BudgetSplit, ComposeOptions, ComposedBudget, ComposedFrame, ComposedPrompt, DroppedAuditEntry, DropReason, F13Record } from './types.js';
