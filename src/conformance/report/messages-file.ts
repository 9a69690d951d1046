/**
 * The messages file: every envelope of a cucumber run, in order, one JSON.stringify(envelope) line each — the
 * bytes cucumber's `message` formatter writes — gathered into chunks of up to 256 KiB instead of one write per
 * envelope (about 1 200 writes in a full provider run). run-suite.ts hands `add` to runCucumber as its message
 * callback, so no formatter module is loaded for it. The file is created when it is opened, and complete
 * when it is closed: the last chunk goes at testRunFinished, anything after it (or everything, in a run cut
 * short) at close.
 */
import { closeSync, openSync, writeSync } from 'node:fs';

const CHUNK_CHARS = 256 * 1024;

export interface MessagesFile {
  add(envelope: object): void;
  close(): void;
}

/** Write the chunks to `write`; `done` runs after the last one (close). */
export function messageLines(write: (text: string) => void, done: () => void = () => {}): MessagesFile {
  let pending: string[] = [];
  let size = 0;
  let closed = false;
  const flush = (): void => {
    if (pending.length === 0) return;
    write(pending.join(''));
    pending = [];
    size = 0;
  };
  return {
    add(envelope) {
      const line = `${JSON.stringify(envelope)}\n`;
      pending.push(line);
      size += line.length;
      if (size >= CHUNK_CHARS || (envelope as { testRunFinished?: unknown }).testRunFinished !== undefined) flush();
    },
    close() {
      if (closed) return;
      closed = true;
      try {
        flush();
      } finally {
        done();
      }
    },
  };
}

/** Create (or truncate) `path` and write the run's envelopes to it. */
export function openMessagesFile(path: string): MessagesFile {
  const fd = openSync(path, 'w');
  return messageLines(
    (text) => {
      writeSync(fd, text);
    },
    () => closeSync(fd),
  );
}
