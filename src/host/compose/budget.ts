/**
 * Budget units for composition (§7.2, S7.2-budget-token): a budget token is an accounting unit
 * (ceil(utf8 bytes / 4)), NOT a model token. A host holding a real model budget maps it into
 * budget tokens by dividing by a safety factor > 1 (informative default 1.35, SAFETY_FACTOR):
 * ⌊model / factor⌋. A factor of 1 would treat one budget token as one model token, which S7.2
 * forbids, so it is refused; a factor below 1 would inflate the budget.
 */
import { SAFETY_FACTOR } from '../../protocol/token-cost.js';

/** ⌊modelTokens / safetyFactor⌋ budget tokens (10,000 model tokens at 1.35 ⇒ 7407). */
export function modelToBudgetTokens(modelTokens: number, safetyFactor: number = SAFETY_FACTOR): number {
  if (!Number.isFinite(modelTokens) || modelTokens < 0) {
    throw new RangeError(`modelBudgetTokens must be a finite number ≥ 0, got ${modelTokens}`);
  }
  checkSafetyFactor(safetyFactor);
  // The epsilon absorbs binary rounding of the factor (135 / 1.35 must be 100, not 99).
  return Math.floor(modelTokens / safetyFactor + 1e-9);
}

export function checkSafetyFactor(safetyFactor: number): void {
  if (!Number.isFinite(safetyFactor) || safetyFactor <= 1) {
    throw new RangeError(`S7.2-budget-token: safetyFactor must be a finite number > 1, got ${safetyFactor} — a budget token is not a model token`);
  }
}

/** Equal split: ⌊B/n⌋ each, the first B mod n one more; Σ = B exactly. */
export function equalSplit(total: number, n: number): number[] {
  if (n <= 0) return [];
  const base = Math.floor(total / n);
  const extra = total - base * n;
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(base + (i < extra ? 1 : 0));
  return out;
}
