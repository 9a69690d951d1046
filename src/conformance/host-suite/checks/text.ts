/** Small helpers the host-suite checks share to render what they saw in a finding's message. */
import { ControlledHostError } from '../control/control-protocol.js';
import { Inconclusive } from '../inconclusive.js';

/** The structured members of a host error the contract names, printed after its message when present. */
const ERROR_FIELDS = ['code', 'anchor', 'scopes', 'provider', 'rawCode', 'effectiveCode', 'retryable'] as const;

function fieldText(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
}

/**
 * An error, field by field: `Name: message` then its contract members (`code=…, anchor=…, scopes=[…]`).
 * A plain error object (a host in another process) prints the same way — never `[object Object]`.
 */
export function describeHostError(err: unknown): string {
  if (typeof err !== 'object' || err === null) return String(err);
  const e = err as Record<string, unknown>;
  const message = typeof e.message === 'string' ? e.message : '';
  const name = err instanceof Error ? err.name : typeof e.name === 'string' ? e.name : typeof e.code === 'string' ? e.code : 'error';
  const fields = ERROR_FIELDS.filter((k) => e[k] !== undefined && e[k] !== null && !(k === 'code' && e[k] === name)).map((k) => `${k}=${fieldText(e[k])}`);
  // a host's own Error subclasses keep their internals to themselves; a wire error prints every member
  const extra = err instanceof Error && !(err instanceof ControlledHostError) ? [] : Object.keys(e).filter((k) => !(ERROR_FIELDS as readonly string[]).includes(k) && k !== 'message' && k !== 'name');
  for (const k of extra) fields.push(`${k}=${fieldText(e[k])}`);
  if (!(err instanceof Error) && message === '' && fields.length === 0) return JSON.stringify(err) ?? String(err);
  return `${name}: ${message}${fields.length > 0 ? ` [${fields.join(', ')}]` : ''}`;
}

/** A member of an error-like object (code, retryable, …), or undefined. */
export function memberOf(err: unknown, key: string): unknown {
  return typeof err === 'object' && err !== null ? (err as Record<string, unknown>)[key] : undefined;
}

/** A value as compact JSON ("absent" for undefined), cut at `max` characters. */
export function showValue(value: unknown, max = 100): string {
  const text = value === undefined ? 'absent' : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/**
 * A precondition of the check failed (its provider served nothing to judge, a script names no subject, the
 * host never did what the check observes): the scenario is inconclusive — `could not observe <ID>: <cause>`
 * (an Inconclusive, a harness-side error), never a finding against the host (docs/interpretations.md §97).
 */
export function harnessPrecondition(id: string, message: string): never {
  throw new Inconclusive(id, message);
}
