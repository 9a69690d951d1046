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
