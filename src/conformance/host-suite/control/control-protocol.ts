/**
 * The host control protocol: how the suite drives a host that runs in another process (any language),
 * CGP_HOST_CMD="<command line>". Documented for host authors in docs/host-control-protocol.md.
 *
 * One NDJSON line per message over the host process's stdin/stdout (stderr is free for its logs):
 *   suite → host   {"type": "control", "seq": 1, "op": "<operation>", "args": [...]}
 *   host → suite   {"type": "control_result", "seq": 1, "ok": true, "result": <JSON>}
 *                  {"type": "control_result", "seq": 1, "ok": false, "error": {"code": "consent_required", "message": "C2: …", "anchor"?: "C2", …}}
 * (Every line is a JSON object with a string `type`, like a CGP envelope, so the same NDJSON framing
 * and tooling read it; `seq` pairs a result with its request.)
 * The operations are the methods of HostUnderTest (adapter.ts) with JSON arguments, plus `init`
 * (first, once: the HostUnderTestOptions) and `close` (last; the host then exits). Errors inside
 * results (a fan-out failure) are serialised the same way as a failed operation's error.
 *
 * Injected name resolution cannot cross a process boundary as a function: connectHttp's `lookup` is
 * sent as `loopbackNames` (host names the host must resolve to 127.0.0.1 and nothing else). The suite
 * only ever uses loopback peers, so a controlled host never needs another address.
 */

export const CONTROL_OPERATIONS = ['init', 'connectStdio', 'connectHttp', 'grantConsent', 'revokeConsent', 'queryAll', 'verify', 'compose', 'usage', 'attribute', 'logText', 'close'] as const;

export type ControlOperation = (typeof CONTROL_OPERATIONS)[number];

export interface ControlRequest {
  type: 'control';
  seq: number;
  op: ControlOperation;
  args: unknown[];
}

/**
 * An error as it crosses the process boundary: `{code, message, anchor?, scopes?, provider?, name?, …}`
 * (schema/host-control/defs.schema.json#/$defs/Error). Extra members are allowed and kept.
 */
export interface SerializedError {
  code: string;
  message: string;
  name?: string;
  anchor?: string;
  scopes?: string[];
  provider?: unknown;
  [member: string]: unknown;
}

export type ControlResponse = { type: 'control_result'; seq: number; ok: true; result?: unknown } | { type: 'control_result'; seq: number; ok: false; error: SerializedError };

/** The members of an error the contract names, beside code and message (read when present). */
const ERROR_MEMBERS = ['anchor', 'scopes', 'rawCode', 'effectiveCode', 'retryable'] as const;

/**
 * An error as the bundled host serialises it: its code (HostError's stable code, else "error"), message and
 * name, the provider it concerns (its routing id), and the members of ERROR_MEMBERS it has.
 */
export function serializeError(err: unknown): SerializedError {
  if (err instanceof Error) {
    const e = err as Error & Record<string, unknown>;
    const code = typeof e.code === 'string' && e.code !== '' ? e.code : 'error';
    const out: SerializedError = { code, message: err.message, name: err.name };
    for (const k of ERROR_MEMBERS) if (e[k] !== undefined) (out as Record<string, unknown>)[k] = e[k];
    if (typeof e.routingId === 'string') out.provider = e.routingId;
    return out;
  }
  return { code: 'error', message: String(err), name: 'Error' };
}

/** The error the suite sees for a serialised one: an Error with its name and message, and every member it carried. */
export class ControlledHostError extends Error {
  readonly code?: string;
  [member: string]: unknown;
  constructor(e: Record<string, unknown>) {
    super(typeof e.message === 'string' ? e.message : '');
    for (const [k, v] of Object.entries(e)) if (k !== 'message' && k !== 'name' && k !== 'stack') (this as Record<string, unknown>)[k] = v;
    this.name = typeof e.name === 'string' && e.name !== '' ? e.name : typeof e.code === 'string' ? e.code : 'HostError';
  }
}

/** JSON for a result: errors anywhere inside become SerializedError objects. */
export function toWire(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (v instanceof Error ? serializeError(v) : v))) as unknown;
}
