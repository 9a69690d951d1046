// Process groups of spawned children. A stdio peer is spawned detached (its own process group, setsid), so
// teardown can SIGKILL the whole group — grandchildren included — and nothing it started outlives it.
// stdio-client.ts spawns and frames; this module only tracks and kills the groups.

// Safety net: children are detached (own process group), so they would outlive a harness that dies without
// closing them. On process exit every still-registered group is SIGKILLed.
const liveGroups = new Set<number>();
let exitHookInstalled = false;
/** Track a detached child's process group until unregisterGroup; it is SIGKILLed if the harness exits first. */
export function registerGroup(pid: number): void {
  liveGroups.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const p of liveGroups) killGroup(p);
    });
    // A terminating signal skips 'exit' handlers: kill the groups first, then let the signal do what it would
    // have done (re-raised once nobody else listens), so Ctrl-C or a CI timeout leaves no provider behind.
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      const onSignal = (): void => {
        for (const p of liveGroups) killGroup(p);
        if (process.listenerCount(sig) === 1) {
          process.removeListener(sig, onSignal);
          process.kill(process.pid, sig);
        }
      };
      process.on(sig, onSignal);
    }
  }
}

/** SIGKILL the whole process group led by `pid` (a group already gone, or not ours, is no error). */
export function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ESRCH' && code !== 'EPERM') throw err;
  }
}

/** The group ended normally (its child was reaped): the exit hook no longer needs to kill it. */
export function unregisterGroup(pid: number | undefined): void {
  if (pid !== undefined) liveGroups.delete(pid);
}
