/**
 * Where the harness keeps the short-lived files of one scenario (a host scenario's consent ledger and the
 * records of what reached each scripted provider): a memory-backed directory where the system has one —
 * Linux's /dev/shm, when it is a tmpfs this process may write to — else the OS temp directory. Nothing there
 * outlives its scenario. A host's fsync of its ledger then costs the call, not the disk: a host suite runs
 * about 70 scenarios in turn, each creating, syncing and removing its files, and on a slow disk that wait was
 * a large share of the run. No verdict depends on where the files are.
 */
import { accessSync, constants, mkdtempSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TMPFS_MAGIC = 0x01021994;
const SHM = '/dev/shm';

let parent: string | undefined;

/** The directory scratch directories are made in (decided once per process). */
export function scratchParent(): string {
  if (parent !== undefined) return parent;
  parent = tmpdir();
  if (process.platform === 'linux') {
    try {
      if (statfsSync(SHM).type === TMPFS_MAGIC) {
        accessSync(SHM, constants.W_OK | constants.X_OK);
        parent = SHM;
      }
    } catch {
      // no /dev/shm, not a tmpfs, or not ours to write: the temp directory
    }
  }
  return parent;
}

/** A new scratch directory named `<prefix>XXXXXX` (the caller removes it). */
export function makeScratchDir(prefix: string): string {
  return mkdtempSync(join(scratchParent(), prefix));
}
