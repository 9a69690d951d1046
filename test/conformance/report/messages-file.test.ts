// The messages file (src/conformance/report/messages-file.ts): exactly cucumber's `message` output —
// JSON.stringify of each envelope, one per line, in order — gathered into chunks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messageLines, openMessagesFile } from '../../../src/conformance/report/messages-file.js';

test('messages file: the same bytes as one JSON line per envelope; a chunk per 256 KiB and at testRunFinished', () => {
  const big = 'x'.repeat(100_000);
  const messages = [{ meta: { v: 1 } }, ...Array.from({ length: 7 }, (_, i) => ({ attachment: { body: big, i } })), { testRunFinished: { success: true } }];
  const writes: string[] = [];
  let done = 0;
  const file = messageLines(
    (t) => writes.push(t),
    () => done++,
  );
  for (const m of messages) file.add(m);
  assert.equal(writes.length, 3, 'two chunks of ≥ 256 KiB, then the rest at testRunFinished');
  file.close(); // nothing left: no further write
  file.close(); // closing twice is closing once
  assert.equal(done, 1);
  assert.equal(writes.join(''), messages.map((m) => `${JSON.stringify(m)}\n`).join(''));
  assert.ok(writes.slice(0, -1).every((w) => w.length >= 256 * 1024));
});

test('messages file: envelopes after testRunFinished (or a run cut short) are written at close', () => {
  const writes: string[] = [];
  const file = messageLines((t) => writes.push(t));
  file.add({ meta: {} });
  file.add({ testRunStarted: {} });
  assert.equal(writes.length, 0);
  file.close();
  assert.deepEqual(writes, ['{"meta":{}}\n{"testRunStarted":{}}\n']);
});

test('messages file: opening creates (or empties) the file; close leaves every envelope in it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cgp-messages-file-'));
  try {
    const path = join(dir, 'run.messages.ndjson');
    const first = openMessagesFile(path);
    first.add({ meta: { run: 1 } });
    first.add({ testRunFinished: { success: true } });
    first.close();
    const second = openMessagesFile(path);
    assert.equal(readFileSync(path, 'utf8'), '', 'an opened file starts empty');
    second.add({ meta: { run: 2 } });
    second.close();
    assert.equal(readFileSync(path, 'utf8'), '{"meta":{"run":2}}\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
