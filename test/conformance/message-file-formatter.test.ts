// The messages file's formatter (src/conformance/report/message-file-formatter.ts): exactly cucumber's
// `message` output — JSON.stringify of each envelope, one per line, in order — gathered into chunks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import formatter from '../../src/conformance/report/message-file-formatter.js';

function drive(messages: Array<Record<string, unknown>>): { writes: string[]; cleanup: () => void } {
  const writes: string[] = [];
  let handler: ((m: Record<string, unknown>) => void) | undefined;
  const cleanup = formatter.formatter({ on: (_event, h) => (handler = h), write: (t) => writes.push(t) });
  for (const m of messages) handler!(m);
  return { writes, cleanup };
}

test('message-file formatter: the same bytes as one JSON line per envelope; a chunk per 256 KiB and at testRunFinished', () => {
  const big = 'x'.repeat(100_000);
  const messages = [{ meta: { v: 1 } }, ...Array.from({ length: 7 }, (_, i) => ({ attachment: { body: big, i } })), { testRunFinished: { success: true } }];
  const { writes, cleanup } = drive(messages);
  cleanup(); // nothing left: no further write
  assert.equal(writes.join(''), messages.map((m) => `${JSON.stringify(m)}\n`).join(''));
  assert.equal(writes.length, 3, 'two chunks of ≥ 256 KiB, then the rest at testRunFinished');
  assert.ok(writes.slice(0, -1).every((w) => w.length >= 256 * 1024));
});

test('message-file formatter: envelopes after testRunFinished (or a run cut short) are written at cleanup', () => {
  const { writes, cleanup } = drive([{ meta: {} }, { testRunStarted: {} }]);
  assert.equal(writes.length, 0);
  cleanup();
  assert.deepEqual(writes, ['{"meta":{}}\n{"testRunStarted":{}}\n']);
});
