/**
 * Cucumber's `message` formatter with its writes gathered: the same NDJSON — one
 * JSON.stringify(envelope) line per envelope, in order — written in chunks of up to 256 KiB instead of one
 * write per envelope (about 1 200 writes in a full provider run, a visible share of its CPU). The file is
 * complete when the run ends: the last chunk goes at testRunFinished, and anything after it at cleanup.
 * run-suite.ts names this module as the formatter of <out>/<name>.messages.ndjson.
 */
const CHUNK_CHARS = 256 * 1024;

interface FormatterContext {
  on(event: 'message', handler: (message: Record<string, unknown>) => void): void;
  write(text: string): void;
}

export default {
  type: 'formatter' as const,
  formatter({ on, write }: FormatterContext): () => void {
    let pending: string[] = [];
    let size = 0;
    const flush = (): void => {
      if (pending.length === 0) return;
      write(pending.join(''));
      pending = [];
      size = 0;
    };
    on('message', (message) => {
      const line = `${JSON.stringify(message)}\n`;
      pending.push(line);
      size += line.length;
      if (size >= CHUNK_CHARS || message.testRunFinished !== undefined) flush();
    });
    return flush;
  },
};
