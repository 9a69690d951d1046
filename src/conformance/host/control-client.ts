/**
 * A host in another process, driven through the host control protocol (control-protocol.ts):
 * CGP_HOST_CMD="<command line>". Every operation is one request line and one response line, each
 * bounded by a timeout (a stalled host is a named failure, never a hang).
 */
import type { ContextQuery } from '../../../generated/types/index.js';
import type { AttributionRecord } from '../../host/attribution.js';
import type { ComposedPrompt, ComposeOptions } from '../../host/compose/types.js';
import type { FanOutResult } from '../../host/fan-out.js';
import type { ProviderAnswer, ProviderDescriptor, ReceivedFrame } from '../../host/types.js';
import type { UsageReport } from '../../host/usage.js';
import type { VerifyOutcome } from '../../host/verify-reuse.js';
import { StdioConnection } from '../../transport/stdio-client.js';
import { splitCommandLine } from '../suite/config.js';
import type { ConnectHttpOptions, ConnectStdioOptions, HostFactory, HostUnderTest, HostUnderTestOptions } from './adapter.js';
import { ControlledHostError, type ControlOperation, type SerializedError } from './control-protocol.js';

function isSerializedError(v: unknown): v is SerializedError {
  return typeof v === 'object' && v !== null && typeof (v as SerializedError).name === 'string' && typeof (v as SerializedError).message === 'string' && Object.keys(v).every((k) => k === 'name' || k === 'message' || k === 'code');
}

/** Fan-out failures come back as serialised errors: make them Errors again (name, message, code). */
function reviveFanOut(result: FanOutResult): FanOutResult {
  for (const f of result.failures ?? []) if (isSerializedError(f.error)) (f as { error: unknown }).error = new ControlledHostError(f.error);
  return result;
}

/** How long a host process has to exit once its stdin has ended (after `close`). */
export const CONTROL_EXIT_GRACE_MS = 2_000;

/** How many host processes are started ahead of the scenarios that will use them. */
export const WARM_HOSTS = 2;

/** CGP_HOST_WARM=N overrides WARM_HOSTS (0: start each host when its scenario asks; more: for a slow-starting host). */
function warmHosts(): number {
  const raw = process.env.CGP_HOST_WARM;
  if (raw === undefined || raw === '') return WARM_HOSTS;
  if (!/^[0-9]+$/.test(raw) || Number(raw) > 64) throw new Error(`CGP_HOST_WARM must be an integer from 0 to 64, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

/** Warm host processes not yet handed to a scenario (killed when the run ends). */
const warmProcesses = new Set<Promise<StdioConnection>>();

/** Kill every warm host process a controlled factory started ahead and did not hand out. */
export async function disposeWarmHosts(): Promise<void> {
  const pending = [...warmProcesses];
  warmProcesses.clear();
  await Promise.all(pending.map((p) => p.then((c) => c.close(), () => undefined)));
}

/**
 * A factory for HostUnderTest instances, each one FRESH process started from `commandLine`. The next
 * scenarios' processes (WARM_HOSTS of them) are started while the current scenario runs (a process that has started and loaded
 * but has not been sent anything is as fresh as one started on demand), so a host's start-up time is
 * overlapped instead of paid once per scenario. It is used once, by the next host asked for; whatever is
 * left when the run ends is killed (disposeWarmHosts, and the transport's exit hook as a backstop).
 */
export function controlledHostFactory(commandLine: string): HostFactory {
  const [command, ...args] = splitCommandLine(commandLine);
  if (command === undefined) throw new Error('CGP_HOST_CMD is empty');
  const start = (): Promise<StdioConnection> => {
    const p = StdioConnection.spawn(command, args, { env: { ...process.env }, forwardStderr: false });
    p.catch(() => undefined); // a failed start is reported to the scenario that takes it
    return p;
  };
  const warm: Array<Promise<StdioConnection>> = [];
  const ahead = warmHosts();
  return async (options: HostUnderTestOptions): Promise<HostUnderTest> => {
    const taken = warm.shift() ?? start();
    warmProcesses.delete(taken);
    // keep WARM_HOSTS started ahead: a host's start-up is often longer than a scenario
    while (warm.length < ahead) {
      const next = start();
      warm.push(next);
      warmProcesses.add(next);
    }
    let conn = await taken;
    // a warm process that died while it waited (or never started) is replaced by one started now
    if (conn.exitStatus !== null) conn = await start();
    // One operation may run a whole fan-out (several handshakes and queries): bound it generously, but bound it.
    const opTimeout = 4 * (options.handshakeTimeoutMs + options.requestTimeoutMs) + 5_000;
    let next = 1;
    let queue: Promise<unknown> = Promise.resolve();
    const call = <T>(op: ControlOperation, ...callArgs: unknown[]): Promise<T> => {
      const run = async (): Promise<T> => {
        const seq = next++;
        const reply = (await conn.request({ type: 'control', seq, op, args: callArgs }, opTimeout)) as { type?: unknown; seq?: unknown; ok?: unknown; result?: unknown; error?: unknown };
        if (reply.type !== 'control_result' || reply.seq !== seq) {
          throw new Error(`host control protocol: expected control_result seq ${seq} (${op}), got ${JSON.stringify(reply).slice(0, 200)}`);
        }
        if (reply.ok === true) return reply.result as T;
        if (isSerializedError(reply.error)) throw new ControlledHostError(reply.error);
        throw new Error(`host control protocol: malformed response to ${op}: ${JSON.stringify(reply).slice(0, 200)}`);
      };
      const p = queue.then(run, run);
      queue = p.catch(() => undefined);
      return p;
    };
    const init = await call<{ name?: string }>('init', { ...options, misbehave: undefined });
    const name = `controlled host ${typeof init?.name === 'string' ? `"${init.name}" ` : ''}(${commandLine})`;
    return {
      name,
      connectStdio: (cmd: string, cargs: readonly string[], opts: ConnectStdioOptions = {}) => call<ProviderDescriptor>('connectStdio', cmd, cargs, opts),
      connectHttp: (url: string, { lookup, ...opts }: ConnectHttpOptions = {}) => {
        // a lookup function cannot cross the boundary: the names the suite maps to loopback go instead
        const hostname = new URL(url).hostname.replace(/^\[|\]$/g, '');
        return call<ProviderDescriptor>('connectHttp', url, { ...opts, ...(lookup ? { loopbackNames: [hostname] } : {}) });
      },
      grantConsent: (routingId, grant) => call<void>('grantConsent', routingId, grant),
      revokeConsent: (routingId, revoke) => call<void>('revokeConsent', routingId, revoke),
      queryAll: async (query: ContextQuery) => reviveFanOut(await call<FanOutResult>('queryAll', query)),
      verify: (routingId: string, held: readonly ReceivedFrame[]) => call<VerifyOutcome>('verify', routingId, held),
      compose: (answers: readonly ProviderAnswer[], opts: ComposeOptions) => call<ComposedPrompt>('compose', answers, opts),
      usage: (answers: readonly ProviderAnswer[], composed: ComposedPrompt, asOf: string) => call<UsageReport>('usage', answers, composed, asOf),
      attribute: (composed: ComposedPrompt, usage: UsageReport, modelOutput: string) => call<AttributionRecord>('attribute', composed, usage, modelOutput),
      logText: () => call<string>('logText'),
      close: async () => {
        try {
          await call('close');
        } finally {
          // End of session = end of the host's stdin (docs/host-control-protocol.md); it has
          // CONTROL_EXIT_GRACE_MS to exit before it is killed. A host that exits at once costs nothing.
          await conn.endInput(CONTROL_EXIT_GRACE_MS).catch(() => conn.close());
        }
      },
    };
  };
}
