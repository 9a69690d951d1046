// The harness's per-scenario scratch directories (src/util/scratch-dir.ts): in a memory-backed directory
// where the system has a writable tmpfs at /dev/shm, else in the OS temp directory; each one new and writable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { makeScratchDir, scratchParent } from '../../src/util/scratch-dir.js';

test('scratch directories: in /dev/shm where it is a tmpfs, else the temp directory; new and writable', () => {
  let shm = false;
  try {
    shm = process.platform === 'linux' && statfsSync('/dev/shm').type === 0x01021994;
  } catch {
    shm = false;
  }
  assert.equal(scratchParent(), shm ? '/dev/shm' : tmpdir());
  const a = makeScratchDir('cgp-scratch-test-');
  const b = makeScratchDir('cgp-scratch-test-');
  try {
    assert.notEqual(a, b);
    assert.equal(dirname(a), scratchParent());
    writeFileSync(join(a, 'probe'), 'x');
    assert.ok(existsSync(join(a, 'probe')));
  } finally {
    rmSync(a, { recursive: true, force: true });
    rmSync(b, { recursive: true, force: true });
  }
});
