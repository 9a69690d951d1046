// Loaded by `node --import` (after tsx) in package.json's test scripts, in each test file's process (the test
// runner passes its --import flags to them): everything the file's tests make under os.tmpdir(), and the
// processes they start, goes into one directory of the file's own, removed when its process exits — a test
// run leaves nothing behind in the machine's temp directory, whatever a test forgot to clean up.
// - tsx's cache of compiled files stays the machine's, warm from run to run: this process's tsx has found it
//   already, and the processes a test starts with tsx reach it through a link in the directory.
// - A process a test starts with these same flags keeps its parent's directory.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

if (process.env.CGP_TEST_TEMP_ROOT === undefined) {
  const machine = tmpdir();
  const root = mkdtempSync(join(machine, 'cgp-test-'));
  const tsxCache = `tsx-${process.geteuid?.() ?? userInfo().username}`;
  mkdirSync(join(machine, tsxCache), { recursive: true });
  symlinkSync(join(machine, tsxCache), join(root, tsxCache));
  // what the browser tests unpack Chromium into, once per machine (test/fixtures/browser.ts)
  process.env.CGP_TEST_MACHINE_TMPDIR = machine;
  process.env.CGP_TEST_TEMP_ROOT = root;
  process.env.TMPDIR = root;
  process.on('exit', () => rmSync(root, { recursive: true, force: true }));
}
