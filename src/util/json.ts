/**
 * The one home of the "is this parsed JSON value an object?" test: checks, decoders and the host read
 * untrusted, already-parsed JSON, so every layer narrows `unknown` with this (src/util is the bottom layer:
 * docs/architecture.md "Layers").
 */

export type JsonObject = Record<string, unknown>;

/** A JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
