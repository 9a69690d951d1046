// Loaded by `node --import` in package.json's test scripts, before the test runner starts: every test file's
// temporary files and directories (everything made under os.tmpdir(), by the tests and by the processes they
// start) go into one directory per `node --test` run, removed when the run ends — a run leaves nothing
// behind in the machine's temp directory, whatever a test forgot to clean up. The runner's own process makes
// the directory; the test files' processes, which load this module too, inherit it through TMPDIR.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (process.env.CGP_TEST_TEMP_ROOT === undefined) {
  const root = mkdtempSync(join(tmpdir(), 'cgp-test-run-'));
  // what the browser tests unpack Chromium into, once per machine (test/fixtures/browser.ts)
  process.env.CGP_TEST_MACHINE_TMPDIR = tmpdir();
  process.env.CGP_TEST_TEMP_ROOT = root;
  process.env.TMPDIR = root;
  process.on('exit', () => rmSync(root, { recursive: true, force: true }));
}
