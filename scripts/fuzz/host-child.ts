// One host run against one hostile shape, in its own process (so its peak RSS is its own). Prints ONE JSON line:
// {shape, ops:[{op, outcome:"ok"|"named"|"unnamed", name, code, ms, message}], maxRssBytes}.
// Usage: node --import tsx host-child.ts <shape> <pid-dir> <timeout-ms>
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { Host } from '../../src/host/index.js';
import { HostError } from '../../src/host/errors.js';

const [shape = 'hang', pidDir = '', timeoutArg = '2000'] = process.argv.slice(2);
const timeoutMs = Number(timeoutArg);
const provider = join(dirname(fileURLToPath(import.meta.url)), 'hostile-provider.mjs');

interface Op {
  op: string;
  outcome: 'ok' | 'named' | 'unnamed';
  name?: string;
  code?: string;
  ms: number;
  message?: string;
}
const ops: Op[] = [];

async function op(name: string, fn: () => Promise<unknown>): Promise<unknown> {
  const t0 = Date.now();
  try {
    const v = await fn();
    ops.push({ op: name, outcome: 'ok', ms: Date.now() - t0 });
    return v;
  } catch (err) {
    const e = err as Error & { code?: string };
    ops.push({ op: name, outcome: err instanceof HostError ? 'named' : 'unnamed', name: e?.name, code: e?.code, ms: Date.now() - t0, message: String(e?.message ?? err).slice(0, 300) });
    return undefined;
  }
}

const host = new Host({ handshakeTimeoutMs: timeoutMs, requestTimeoutMs: timeoutMs, shutdownGraceMs: 500 });
const query = { goal: 'hostile', max_frames: 20_000, max_tokens: 10_000_000 };
const d = (await op('connect', () => host.connectStdio(process.execPath, [provider, shape, pidDir]))) as { routingId: string } | undefined;
if (d) {
  await op('query', () => host.queryProvider(d.routingId, query));
  await op('queryAll', async () => {
    // The fan-out never rejects; a provider's failure is reported in `failures`, and must be a named one too.
    const r = await host.queryAll(query);
    for (const f of r.failures) if (!(f.error instanceof HostError)) throw f.error;
    const named = r.failures[0]?.error;
    if (named) throw named;
    return r;
  });
  await op('verify', () => host.sendVerify(d.routingId, { frames: [{ provider_id: 'hostile', frame_id: 'frm_1' }] }, 'v-1'));
}
await op('close', () => host.close());
process.stdout.write(`${JSON.stringify({ shape, ops, maxRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`);
process.exit(0);
