/**
 * Wires the provider core to the two transport bindings. Both feed the same `Provider.handle()`,
 * so stdio and HTTP answer identically; only the behavioural actions are rendered per binding:
 *
 * | action      | stdio                                   | HTTP                                          |
 * |-------------|-----------------------------------------|-----------------------------------------------|
 * | exit 0      | flush, stop reading, exit 0             | answer 204, close the server, exit 0          |
 * | exit n ≠ 0  | stop reading, exit n (a crash)          | drop the request unanswered, exit n           |
 * | hang        | no reply, keep serving other lines      | never answer this request, keep serving       |
 * | ignore      | no reply                                | 204 No Content                                |
 *
 * Lines are written by this module (not by the transport's encoder) because one misbehaviour mode
 * deliberately writes an envelope containing literal newlines (S2.1-no-newline).
 */
import type { Readable, Writable } from 'node:stream';
import { serveHttp, type HttpServerHandle } from '../transport/http-server.js';
import { isPeerGone, serveStdio, writeText } from '../transport/stdio-server.js';
import { createProvider, type Provider, type ProviderOptions } from './core.js';

export interface StdioProviderOptions extends ProviderOptions {
  input?: Readable;
  output?: Writable;
  /**
   * What a mode that refuses to end waits on once its input has ended (default: forever, holding the
   * process up with a timer that never fires; a caller in a longer-lived process passes its own end).
   */
  untilKilled?: () => Promise<number>;
}

/** A promise that never settles: the process stays up until it is killed. */
function forever(): Promise<never> {
  const timer = setInterval(() => undefined, 1 << 30);
  return new Promise<never>(() => void timer);
}

/**
 * Serve the provider over NDJSON stdio until shutdown (or the end of input). Resolves with the
 * exit code the process should end with; never resolves for a mode that refuses to end.
 */
export async function runStdioProvider(opts: StdioProviderOptions = {}, provider: Provider = createProvider({ ...opts, requireHandshake: true })): Promise<number> {
  const output = opts.output ?? process.stdout;
  // A host that went away (EPIPE) surfaces through the write callbacks below; without a listener the
  // stream's 'error' event would crash the process instead.
  output.on('error', () => undefined);
  let exitCode = 0;
  const result = await serveStdio(
    async (line) => {
      const reply = await provider.handle(line);
      try {
        for (const text of reply.lines) await writeText(output, `${text}\n`);
      } catch (err) {
        if (!isPeerGone(err)) throw err;
        exitCode = 0; // nobody left to answer: tear down as on shutdown
        return 'exit';
      }
      if (reply.action?.kind === 'exit') {
        exitCode = reply.action.code;
        return 'exit';
      }
      return null;
    },
    { input: opts.input, output },
  );
  if (result.reason === 'exit') return exitCode;
  const atEof = provider.endOfInput();
  if (atEof.kind === 'exit') return atEof.code;
  return opts.untilKilled ? opts.untilKilled() : forever();
}

export interface HttpProviderOptions extends ProviderOptions {
  /** 0 = an ephemeral port. */
  port?: number;
  /** Loopback only; default 127.0.0.1. */
  host?: string;
}

export interface RunningHttpProvider {
  handle: HttpServerHandle;
  provider: Provider;
  /** Resolves with the exit code once the provider has stopped serving (shutdown or a crash mode). */
  done: Promise<number>;
  close(): Promise<void>;
}

/** How long the server lets a 204 reach the client before it closes every connection. */
const SHUTDOWN_FLUSH_MS = 25;

/** The bundled reference provider served over HTTP on loopback (the host suite's scripted HTTP peer is conformance/host-suite/scripted/http-provider.ts). */
export async function startBundledHttpProvider(opts: HttpProviderOptions = {}, provider: Provider = createProvider(opts)): Promise<RunningHttpProvider> {
  let finish!: (code: number) => void;
  const done = new Promise<number>((resolve) => {
    finish = resolve;
  });
  let handle: HttpServerHandle | undefined;
  let stopping = false;
  const stop = (code: number, delayMs: number) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      void (handle ? handle.close().catch(() => undefined) : Promise.resolve()).then(() => finish(code));
    }, delayMs);
  };
  handle = await serveHttp(
    async (input) => {
      const reply = await provider.handle(input);
      const action = reply.action;
      if (action?.kind === 'hang') return new Promise<never>(() => undefined);
      if (action?.kind === 'exit') {
        if (action.code !== 0) {
          stop(action.code, 0);
          return new Promise<never>(() => undefined);
        }
        stop(0, SHUTDOWN_FLUSH_MS);
      }
      return reply.envelopes[0] ?? null;
    },
    { port: opts.port ?? 0, host: opts.host ?? '127.0.0.1' },
  );
  return {
    handle,
    provider,
    done,
    close: async () => {
      stop(0, 0);
      await done;
    },
  };
}
