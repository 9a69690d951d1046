// The consent ledger's lock file: several writers (processes) may share one ledger, so every append — and the
// open-time repair — happens under an exclusive `<ledger>.lock`. The lock appears with its holder's token
// (`<pid> <uuid>`) already in it (hard link of a private file: EEXIST while held); a lock whose pid is dead
// is broken; a writer waits at most LOCK_WAIT_MS, then fails with a named error. Synchronous, like the appends.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';

/** How long a writer waits for another writer's lock before giving up with a named error. */
const LOCK_WAIT_MS = 10_000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Take `<file>.lock` (O_EXCL). A lock whose pid is dead (a writer killed mid-append) is broken: it is renamed
 * away first, and only removed when the renamed file still names the dead pid, so two breakers cannot both win.
 * Returns the release function. Synchronous, like the appends it guards.
 */
export function acquireLock(file: string): () => void {
  const lock = `${file}.lock`;
  const token = `${process.pid} ${randomUUID()}\n`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    // The lock appears with its holder's token already in it: the token is written to a private file that is
    // then hard-linked to the lock name (link fails with EEXIST when the lock is held). Creating the lock
    // and then writing into it left an EMPTY lock when the writer was killed in between, which no one could
    // tell from a live holder's, and every later writer gave up after LOCK_WAIT_MS.
    const mine = `${lock}.${process.pid}-${randomUUID()}.tmp`;
    let linked = false;
    try {
      fs.writeFileSync(mine, token, { mode: 0o600 });
      fs.linkSync(mine, lock);
      linked = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        try {
          fs.unlinkSync(mine);
        } catch {
          /* never written */
        }
        throw err;
      }
    } finally {
      try {
        fs.unlinkSync(mine);
      } catch {
        /* already gone */
      }
    }
    if (linked) {
      return () => {
        try {
          if (fs.readFileSync(lock, 'utf8') === token) fs.unlinkSync(lock);
        } catch {
          /* already broken by someone who saw us dead */
        }
      };
    }
    let holder = '';
    try {
      holder = fs.readFileSync(lock, 'utf8');
    } catch {
      continue; // released meanwhile
    }
    const pid = Number(holder.split(' ')[0]);
    // A lock always carries its holder's token (see above); an empty one can only be left by an older writer
    // killed between create and write: stale once it is older than a write could take.
    let stale = holder !== '' && !pidAlive(pid);
    if (holder === '') {
      try {
        stale = Date.now() - fs.statSync(lock).mtimeMs > EMPTY_LOCK_STALE_MS;
      } catch {
        continue; // released meanwhile
      }
    }
    if (stale) {
      const aside = `${lock}.stale-${process.pid}-${randomUUID()}`;
      try {
        fs.renameSync(lock, aside);
        if (fs.readFileSync(aside, 'utf8') !== holder) {
          // We moved a fresh lock taken after our read: put it back (link fails if yet another writer holds one).
          try {
            fs.linkSync(aside, lock);
          } catch {
            /* the newer holder's lock is lost; it releases nothing but its own token */
          }
        }
        fs.unlinkSync(aside);
      } catch {
        /* someone else broke it first */
      }
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`consent ledger ${file}: lock ${lock} is held by pid ${holder.trim() || '?'} for more than ${LOCK_WAIT_MS} ms`);
    }
    Atomics.wait(sleeper, 0, 0, Math.min(20, 1 + attempt));
  }
}

/** An empty lock older than this was left by a writer killed between creating and writing it. */
const EMPTY_LOCK_STALE_MS = 1_000;
