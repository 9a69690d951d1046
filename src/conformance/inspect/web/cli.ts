/**
 * `inspect --web`: start the inspector, print its URL (with the per-run token) on stdout, and wait until it
 * stops — the page closed, "Stop" on the page, or Ctrl-C / SIGTERM. Exit code 0 once everything it started
 * (the provider connection, a running suite) is gone.
 */
import { MISBEHAVIOURS } from '../../../provider/misbehaviours.js';
import { startInspector } from './server.js';
import type { InspectTarget } from './link.js';

export async function serveInspector(opts: { target: InspectTarget; timeoutMs?: number }): Promise<number> {
  const inspector = await startInspector({ ...opts, misbehaviours: MISBEHAVIOURS.map((m) => m.mode) });
  process.stdout.write(`cgp-conformance inspector: ${inspector.url}\n(loopback only; the token in the URL is required on every request; it stops when the page closes or on Ctrl-C)\n`);
  const onSignal = (sig: NodeJS.Signals) => void inspector.close(`${sig} received`);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, onSignal);
  const reason = await inspector.closed;
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(sig, onSignal);
  process.stdout.write(`cgp-conformance inspector: stopped (${reason})\n`);
  setTimeout(() => process.exit(0), 500).unref();
  return 0;
}
