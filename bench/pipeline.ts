// Pipelined vs lock-step stdio queries against a provider that answers each query after a fixed delay
// (src/conformance/host-suite/scripted/scripted-provider.cjs: 20 ms per query, queries handled concurrently, correlation
// declared). Both sides of each ratio run in this one process, against fresh children, back to back.
//
//   transport  StdioConnection.requestWithId with 8 in flight   vs  StdioConnection.request (one at a time)
//   host       ProviderConnection.query, 8 in flight, provider declares correlation (pipelined by id)
//              vs the same provider declaring no correlation (the host must go lock-step, S3.2)
//
// Run: npx tsx bench/pipeline.ts [--n 160] [--delay 20] [--inflight 8]
// Target: pipelined ≥ 3× the lock-step throughput.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { StdioConnection } from '../src/transport/stdio-client.js';
import { connectStdio, type ProviderConnection } from '../src/host/connection.js';

const { values } = parseArgs({
  options: { n: { type: 'string', default: '160' }, delay: { type: 'string', default: '20' }, inflight: { type: 'string', default: '8' } },
});
const N = Number(values.n);
const DELAY = Number(values.delay);
const INFLIGHT = Number(values.inflight);
const PROVIDER = fileURLToPath(new URL('../src/conformance/host-suite/scripted/scripted-provider.cjs', import.meta.url));
const QUERY = { goal: 'bench', max_frames: 2, max_tokens: 1000 };

function config(correlation: boolean): string {
  return JSON.stringify({ name: 'bench', correlation, concurrent: true, delayMs: DELAY });
}

/** Run `n` tasks with at most `width` in flight; resolves with the elapsed milliseconds. */
async function drive(n: number, width: number, task: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(width, n) }, async () => {
      while (next < n) await task(next++);
    }),
  );
  return performance.now() - t0;
}

async function transportPair(): Promise<{ pipelined: number; lockstep: number }> {
  const conn = await StdioConnection.spawn(process.execPath, [PROVIDER, config(true)]);
  try {
    await conn.handshake();
    await drive(8, 8, (i) => conn.requestWithId({ type: 'query', id: `w${i}`, query: QUERY })); // warm-up
    const pipelined = await drive(N, INFLIGHT, (i) => conn.requestWithId({ type: 'query', id: `p${i}`, query: QUERY }));
    // Lock-step on the same provider: one request, its reply, then the next (no id).
    const lockstep = await drive(N, 1, () => conn.request({ type: 'query', query: QUERY }));
    return { pipelined, lockstep };
  } finally {
    await conn.shutdown();
  }
}

async function hostPair(): Promise<{ pipelined: number; lockstep: number }> {
  const piped: ProviderConnection = await connectStdio(process.execPath, [PROVIDER, config(true)]);
  const locked: ProviderConnection = await connectStdio(process.execPath, [PROVIDER, config(false)]);
  try {
    if (!piped.correlation || locked.correlation) throw new Error('bench fixture: unexpected correlation capability');
    const ok = async (p: Promise<{ status: string }>) => {
      if ((await p).status !== 'answered') throw new Error('bench: query not answered');
    };
    await drive(8, 8, () => ok(piped.query(QUERY)));
    await drive(2, 2, () => ok(locked.query(QUERY)));
    const pipelined = await drive(N, INFLIGHT, () => ok(piped.query(QUERY)));
    // The host keeps a non-correlating provider lock-step whatever the caller's concurrency (S3.2).
    const lockstep = await drive(N, INFLIGHT, () => ok(locked.query(QUERY)));
    return { pipelined, lockstep };
  } finally {
    await Promise.all([piped.shutdown(), locked.shutdown()]);
  }
}

function line(label: string, r: { pipelined: number; lockstep: number }): string {
  const qps = (ms: number) => ((N / ms) * 1000).toFixed(1);
  const ratio = r.lockstep / r.pipelined;
  return (
    `${label.padEnd(10)} pipelined ${r.pipelined.toFixed(0).padStart(6)} ms (${qps(r.pipelined)} q/s)   ` +
    `lock-step ${r.lockstep.toFixed(0).padStart(6)} ms (${qps(r.lockstep)} q/s)   ratio ${ratio.toFixed(2)}× ${ratio >= 3 ? '(≥ 3× target met)' : '(BELOW the 3× target)'}`
  );
}

const transport = await transportPair();
const host = await hostPair();
console.log(`pipeline bench: ${N} queries per side, provider delay ${DELAY} ms per query, ${INFLIGHT} in flight when pipelined`);
console.log(line('transport', transport));
console.log(line('host', host));
const worst = Math.min(transport.lockstep / transport.pipelined, host.lockstep / host.pipelined);
process.exitCode = worst >= 3 ? 0 : 1;
