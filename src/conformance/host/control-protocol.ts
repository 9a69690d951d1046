/**
 * The host control protocol: how the suite drives a host that runs in another process (any language),
 * CGP_HOST_CMD="<command line>". Documented for host authors in docs/host-control-protocol.md.
 *
 * One NDJSON line per message over the host process's stdin/stdout (stderr is free for its logs):
 *   suite → host   {"type": "control", "seq": 1, "op": "<operation>", "args": [...]}
 *   host → suite   {"type": "control_result", "seq": 1, "ok": true, "result": <JSON>}
 *                  {"type": "control_result", "seq": 1, "ok": false, "error": {"name": "ConsentRequired", "message": "C2: …", "code"?: "…"}}
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

export const CONTROL_OPERATIONS = [
  'init',
  'connectStdio',
  'connectHttp',
  'grantConsent',
  'revokeConsent',
  'queryAll',
  'verify',
  'compose',
  'usage',
  'attribute',
  'logText',
  'close',
] as const;

export type ControlOperation = (typeof CONTROL_OPERATIONS)[number];

export interface ControlRequest {
  type: 'control';
  seq: number;
  op: ControlOperation;
  args: unknown[];
}

export interface SerializedError {
  name: string;
  message: string;
  code?: string;
}

export type ControlResponse =
  | { type: 'control_result'; seq: number; ok: true; result?: unknown }
  | { type: 'control_result'; seq: number; ok: false; error: SerializedError };

/** An error as it crosses the process boundary (name, message and a stable code when it has one). */
export function serializeError(err: unknown): SerializedError {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return { name: err.name, message: err.message, ...(typeof code === 'string' ? { code } : {}) };
  }
  return { name: 'Error', message: String(err) };
}

/** The error the suite sees for a serialised one: an Error with the same name, message and code. */
export class ControlledHostError extends Error {
  readonly code?: string;
  constructor(e: SerializedError) {
    super(e.message);
    this.name = e.name;
    if (e.code !== undefined) this.code = e.code;
  }
}

/** JSON for a result: errors anywhere inside become SerializedError objects. */
export function toWire(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (v instanceof Error ? serializeError(v) : v))) as unknown;
}
