/**
 * Helpers for reading untrusted, already-parsed JSON without throwing.
 * Checks run on raw wire input, so every member read goes through these.
 */

import type { JsonObject } from '../util/json.js';

export { isJsonObject, type JsonObject } from '../util/json.js';

/** The member is present as a key (any value, null included). */
export function hasMember(obj: JsonObject, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key) && obj[key] !== undefined;
}

/** The member is present with a value other than null. */
export function hasValue(obj: JsonObject, key: string): boolean {
  return hasMember(obj, key) && obj[key] !== null;
}

/** A non-empty string after trimming whitespace. */
export function isNonBlankString(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0;
}

const MAX_SHOWN = 80;

/** Render a seen value for a finding message: `absent`, `null`, or truncated JSON. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'absent';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

/** The JSON type name of a value, for "expected X, saw Y" messages. */
export function jsonTypeOf(value: unknown): string {
  if (value === undefined) return 'absent';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
