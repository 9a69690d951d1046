/**
 * Budget tokens (§7, B3): the byte-exact unit both sides can recompute.
 *
 * B3: token_cost = ceil(utf8_byte_length(content) / 4), exact, no tolerance band.
 * A budget token is not a model token (S7.2-budget-token); hosts map a model budget into
 * budget tokens with a safety factor (informative: the reference host suggests 1.35).
 */

export const BYTES_PER_BUDGET_TOKEN = 4;

/** Informative (§7.2): suggested host safety factor for budget tokens vs model tokens. */
export const SAFETY_FACTOR = 1.35;

/**
 * UTF-8 byte length of a JS string. A lone surrogate (possible after JSON.parse of `\ud800`)
 * counts as U+FFFD, 3 bytes, as the WHATWG encoder writes it.
 */
export function utf8ByteLength(content: string): number {
  return Buffer.byteLength(content, 'utf8');
}

// B3: token_cost = ceil(bytes/4)
export function budgetTokens(content: string): number {
  return Math.ceil(utf8ByteLength(content) / BYTES_PER_BUDGET_TOKEN);
}
