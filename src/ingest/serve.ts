/**
 * `ingest --serve`: the ingest provider over NDJSON stdio (the transport's generic serve loop), one
 * session per process: S3-handshake-first enforced, exit 0 on shutdown or at the end of input (R2),
 * a host that went away (EPIPE) ends the session quietly.
 */
import type { Readable, Writable } from 'node:stream';
import { isPeerGone, serveStdio, writeText } from '../transport/stdio-server.js';
import { createIngestProvider } from './provider.js';
import type { IngestStore } from './store.js';

export async function serveIngestStdio(store: IngestStore, io: { input?: Readable; output?: Writable } = {}): Promise<number> {
  const output = io.output ?? process.stdout;
  output.on('error', () => undefined);
  const provider = createIngestProvider(store, { transport: true, requireHandshake: true });
  let exitCode = 0;
  await serveStdio(
    async (line) => {
      const reply = provider.handle(line);
      try {
        for (const text of reply.lines) await writeText(output, `${text}\n`);
      } catch (err) {
        if (!isPeerGone(err)) throw err;
        return 'exit';
      }
      if (reply.exit !== undefined) {
        exitCode = reply.exit;
        return 'exit';
      }
      return null;
    },
    { ...(io.input ? { input: io.input } : {}), output },
  );
  return exitCode;
}

/** Time given to the reply of a `shutdown` to leave before the listener closes (ms). */
const SHUTDOWN_FLUSH_MS = 25;

export interface IngestHttpOptions {
  /** 0 = an ephemeral port (read it from the result's url). */
  port?: number;
  /** Loopback only (C7: the serve helper refuses anything else). */
  host?: string;
}

export interface RunningIngestHttp {
  url: string;
  /** Resolves with the exit code once a `shutdown` arrived (or close() was called). */
  done: Promise<number>;
  close(): Promise<void>;
}

/**
 * `ingest --serve --http PORT`: the same provider core over the HTTP binding — one POST per envelope,
 * the reply envelope as the body (a notification gets 204). HTTP is stateless, so the handshake is not
 * required before a query (S3 binds a stdio session); `shutdown` stops the listener after its reply.
 */
export async function serveIngestHttp(store: IngestStore, opts: IngestHttpOptions = {}): Promise<RunningIngestHttp> {
  const { serveHttp } = await import('../transport/http-server.js');
  const provider = createIngestProvider(store, { transport: true, requireHandshake: false });
  let finish!: (code: number) => void;
  const done = new Promise<number>((resolve) => {
    finish = resolve;
  });
  let stopping = false;
  let handle: Awaited<ReturnType<typeof serveHttp>> | undefined;
  const stop = (delayMs: number) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      void (handle ? handle.close().catch(() => undefined) : Promise.resolve()).then(() => finish(0));
    }, delayMs);
  };
  handle = await serveHttp(
    (input) => {
      const reply = provider.handle(input);
      if (reply.exit !== undefined) stop(SHUTDOWN_FLUSH_MS);
      return reply.envelopes[0] ?? null;
    },
    { port: opts.port ?? 0, host: opts.host ?? '127.0.0.1' },
  );
  return {
    url: handle.url,
    done,
    close: async () => {
      stop(0);
      await done;
    },
  };
}
