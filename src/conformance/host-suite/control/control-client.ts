/**
 * A host in another process, driven through the host control protocol (control-protocol.ts):
 * CGP_HOST_CMD="<command line>". Every operation is one request line and one response line, each
 * bounded by a timeout (a stalled host is a named failure, never a hang).
 */
import type { ContextQuery } from '../../../../generated/types/index.js';
import type { AttributionRecord } from '../../../host/attribution.js';
import type { ComposedPrompt, ComposeOptions } from '../../../host/compose/types.js';
import type { FanOutResult } from '../../../host/fan-out.js';
import type { ProviderAnswer, ProviderDescriptor, ReceivedFrame } from '../../../host/types.js';
import type { UsageReport } from '../../../host/usage.js';
import type { VerifyOutcome } from '../../../host/verify-reuse.js';
import { StdioConnection } from '../../../transport/stdio-client.js';
import { splitCommandLine } from '../../provider-suite/config.js';
import type { ConnectHttpOptions, ConnectStdioOptions, HostFactory, HostUnderTest, HostUnderTestOptions } from '../adapter.js';
import { ControlledHostError, type ControlOperation } from './control-protocol.js';
import { assertContract } from './contract.js';

/** A failed operation's error: any object with a string code or message (extra members are kept). */
function isErrorObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && (typeof (v as { code?: unknown }).code === 'string' || typeof (v as { message?: unknown }).message === 'string');
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

/**
 * CGP_HOST_REUSE=0: every session in a process of its own, even with a host that declares
 * `sessions: "many"` (to check that such a host's verdicts do not depend on the reuse). Default 1.
 */
function reuseAllowed(): boolean {
  const raw = process.env.CGP_HOST_REUSE;
  if (raw === undefined || raw === '' || raw === '1') return true;
  if (raw === '0') return false;
  throw new Error(`CGP_HOST_REUSE must be 0 or 1, got ${JSON.stringify(raw)}`);
}

/** One host process: its pipes, its request counter, and what it said about itself. */
interface ControlProcess {
  conn: StdioConnection;
  seq: number;
  /** Its init result said `sessions: "many"`: after `close` it takes another init (docs/host-control-protocol.md). */
  reusable: boolean;
}

/** Host processes started ahead and not yet sent anything. */
const warmProcesses = new Set<Promise<ControlProcess>>();
/** Host processes between two sessions (their host declared sessions "many"). */
const betweenSessions = new Set<ControlProcess>();

/**
 * End every host process a controlled factory holds and did not hand out: a process between two sessions
 * gets end of input (it exits, as after any last session), one started ahead is killed. Bounded by the
 * exit grace; run at the end of the run (AfterAll) and by preflight.
 */
export async function disposeWarmHosts(): Promise<void> {
  const warm = [...warmProcesses];
  const between = [...betweenSessions];
  warmProcesses.clear();
  betweenSessions.clear();
  await Promise.all([
    ...warm.map((p) =>
      p.then(
        (proc) => proc.conn.close(),
        () => undefined,
      ),
    ),
    ...between.map((proc) =>
      proc.conn.endInput(CONTROL_EXIT_GRACE_MS).then(
        () => undefined,
        () => proc.conn.close(),
      ),
    ),
  ]);
}

/**
 * A factory for HostUnderTest instances over the host control protocol, one session each, started from
 * `commandLine`.
 *
 * - By default each session is a FRESH process. The next scenarios' processes (WARM_HOSTS of them) are
 *   started while the current scenario runs (a process that has started and loaded but has not been sent
 *   anything is as fresh as one started on demand), so a host's start-up time is overlapped instead of paid
 *   once per scenario.
 * - A host whose `init` result says `sessions: "many"` is sent the next session's `init` after a clean
 *   `close` instead of end of input: it has promised that every init starts from nothing (what the
 *   in-process adapter does with one process for the whole run). Once a host has said so, no more processes
 *   are started ahead. A process whose session did not end cleanly (an operation that timed out or broke
 *   the protocol, a failed `close`, an exit) is never reused. CGP_HOST_REUSE=0 turns reuse off.
 *
 * Whatever is left when the run ends is ended (disposeWarmHosts, and the transport's exit hook as a backstop).
 */
export function controlledHostFactory(commandLine: string): HostFactory {
  const [command, ...args] = splitCommandLine(commandLine);
  if (command === undefined) throw new Error('CGP_HOST_CMD is empty');
  const start = (): Promise<ControlProcess> => {
    const p = StdioConnection.spawn(command, args, { env: { ...process.env }, forwardStderr: false }).then((conn) => ({ conn, seq: 1, reusable: false }));
    p.catch(() => undefined); // a failed start is reported to the scenario that takes it
    return p;
  };
  /** Between two sessions, most recently closed last. */
  const idle: ControlProcess[] = [];
  const warm: Array<Promise<ControlProcess>> = [];
  const ahead = warmHosts();
  reuseAllowed(); // a malformed CGP_HOST_REUSE is a configuration error before any process starts
  /** A host that takes several sessions needs no process started ahead. */
  let sessionsMany = false;
  return async (options: HostUnderTestOptions): Promise<HostUnderTest> => {
    let proc: ControlProcess | undefined;
    while (idle.length > 0 && proc === undefined) {
      const candidate = idle.pop()!;
      // one that disposeWarmHosts ended, or that exited on its own, is not handed out
      if (betweenSessions.delete(candidate) && candidate.conn.exitStatus === null) proc = candidate;
    }
    if (proc === undefined) {
      const taken = warm.shift() ?? start();
      warmProcesses.delete(taken);
      // keep WARM_HOSTS started ahead: a host's start-up is often longer than a scenario
      while (!sessionsMany && warm.length < ahead) {
        const next = start();
        warm.push(next);
        warmProcesses.add(next);
      }
      proc = await taken;
      // a warm process that died while it waited (or never started) is replaced by one started now
      if (proc.conn.exitStatus !== null) proc = await start();
    }
    const current = proc;
    const conn = current.conn;
    // One operation may run a whole fan-out (several handshakes and queries): bound it generously, but bound it.
    const opTimeout = 4 * (options.handshakeTimeoutMs + options.requestTimeoutMs) + 5_000;
    /** The session broke the protocol or the pipes: the process is not reused. */
    let broken = false;
    let queue: Promise<unknown> = Promise.resolve();
    const call = <T>(op: ControlOperation, ...callArgs: unknown[]): Promise<T> => {
      const run = async (): Promise<T> => {
        const seq = current.seq++;
        let reply: { type?: unknown; seq?: unknown; ok?: unknown; result?: unknown; error?: unknown };
        try {
          reply = (await conn.request({ type: 'control', seq, op, args: callArgs }, opTimeout)) as typeof reply;
        } catch (err) {
          broken = true;
          throw err;
        }
        if (reply.type !== 'control_result' || reply.seq !== seq) {
          broken = true;
          throw new Error(`host control protocol: expected control_result seq ${seq} (${op}), got ${JSON.stringify(reply).slice(0, 200)}`);
        }
        if (reply.ok === true) return reply.result as T;
        if (isErrorObject(reply.error)) throw new ControlledHostError(reply.error);
        broken = true;
        throw new Error(`host control protocol: malformed response to ${op}: ${JSON.stringify(reply).slice(0, 200)}`);
      };
      const p = queue.then(run, run);
      queue = p.catch(() => undefined);
      return p;
    };
    const init = await call<{ name?: string; sessions?: unknown; capabilities?: unknown }>('init', { ...options, misbehave: undefined });
    // the init result is held to its schema like every other (a contract error: inconclusive, named)
    try {
      assertContract('init', init);
    } catch (err) {
      await conn.endInput(CONTROL_EXIT_GRACE_MS).catch(() => conn.close());
      throw err;
    }
    // read per session: one factory serves every run of a process (hostSuiteConfig caches it)
    current.reusable = init?.sessions === 'many' && reuseAllowed();
    sessionsMany = current.reusable;
    const name = `controlled host ${typeof init?.name === 'string' ? `"${init.name}" ` : ''}(${commandLine})`;
    return {
      name,
      // as declared (the contract layer validates the init result and reads the closed set)
      ...(Array.isArray(init?.capabilities) ? { capabilities: init.capabilities as string[] } : {}),
      connectStdio: (cmd: string, cargs: readonly string[], opts: ConnectStdioOptions = {}) => call<ProviderDescriptor>('connectStdio', cmd, cargs, opts),
      connectHttp: (url: string, { lookup, ...opts }: ConnectHttpOptions = {}) => {
        // a lookup function cannot cross the boundary: the names the suite maps to loopback go instead
        const hostname = new URL(url).hostname.replace(/^\[|\]$/g, '');
        return call<ProviderDescriptor>('connectHttp', url, { ...opts, ...(lookup ? { loopbackNames: [hostname] } : {}) });
      },
      grantConsent: (routingId, grant) => call<void>('grantConsent', routingId, grant),
      revokeConsent: (routingId, revoke) => call<void>('revokeConsent', routingId, revoke),
      queryAll: (query: ContextQuery) => call<FanOutResult>('queryAll', query),
      verify: (routingId: string, held: readonly ReceivedFrame[]) => call<VerifyOutcome>('verify', routingId, held),
      compose: (answers: readonly ProviderAnswer[], opts: ComposeOptions) => call<ComposedPrompt>('compose', answers, opts),
      usage: (query: ContextQuery, fanOut: FanOutResult) => call<UsageReport>('usage', query, fanOut),
      attribute: (composed: ComposedPrompt, usage: UsageReport, modelOutput: string) => call<AttributionRecord>('attribute', composed, usage, modelOutput),
      logText: () => call<string>('logText'),
      close: async () => {
        let closed = false;
        try {
          await call('close');
          closed = true;
        } finally {
          if (closed && !broken && current.reusable && conn.exitStatus === null) {
            // the next session's init goes to this process (the host declared sessions: "many")
            idle.push(current);
            betweenSessions.add(current);
          } else {
            // End of session = end of the host's stdin (docs/host-control-protocol.md); it has
            // CONTROL_EXIT_GRACE_MS to exit before it is killed. A host that exits at once costs nothing.
            await conn.endInput(CONTROL_EXIT_GRACE_MS).catch(() => conn.close());
          }
        }
      },
    };
  };
}
