/**
 * The bundled host behind the host control protocol (control-protocol.ts): what a host in another
 * language implements, here for the reference host — it proves the protocol end to end (the host suite
 * run through CGP_HOST_CMD must give the same verdicts as the in-process adapter).
 *
 *   node dist/bundle/control-server.cjs [--misbehave <mode>]            (one file: npm run build bundles it)
 *   node dist/src/conformance/host-suite/control/control-server.js [--misbehave <mode>]  (the same, unbundled)
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { parseArgs } from 'node:util';
import { isLoopbackHost } from '../../../transport/loopback.js';
import { serveStdio } from '../../../transport/stdio-server.js';
import { createBundledHost, type HostUnderTest, type HostUnderTestOptions } from '../adapter.js';
import { CONTROL_OPERATIONS, serializeError, toWire, type ControlRequest, type ControlResponse } from './control-protocol.js';

/** A lookup that maps exactly the names it was given to 127.0.0.1 and refuses every other name. */
export function loopbackLookup(names: readonly string[]): LookupFunction {
  const allowed = new Set(names.map((n) => n.toLowerCase()));
  return ((hostname: string, options: unknown, callback: unknown) => {
    const cb = (typeof options === 'function' ? options : callback) as (err: Error | null, address: string | LookupAddress[], family?: number) => void;
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all === true;
    if (isLoopbackHost(hostname)) return dnsLookup(hostname, { all, family: 0 } as never, cb as never);
    if (!allowed.has(hostname.toLowerCase())) {
      const err = Object.assign(new Error(`control server: ${hostname} is not a name the suite mapped to loopback (refusing to resolve it)`), { code: 'ENOTFOUND' });
      return cb(err, all ? [] : '', 4);
    }
    return all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4);
  }) as LookupFunction;
}

export async function serveControl(misbehave: string | undefined): Promise<void> {
  let host: HostUnderTest | undefined;
  const need = (): HostUnderTest => {
    if (host === undefined) throw new Error('control protocol: the first operation must be init');
    return host;
  };
  const perform = async (req: ControlRequest): Promise<unknown> => {
    const a = req.args;
    switch (req.op) {
      case 'init':
        // a new session starts from nothing: a host still open from a session that never closed goes first
        await host?.close();
        host = createBundledHost({ ...(a[0] as HostUnderTestOptions), ...(misbehave !== undefined ? { misbehave } : {}) });
        // sessions: "many" — after `close` this process takes the next session's init (docs/host-control-protocol.md)
        return { name: host.name, sessions: 'many', capabilities: host.capabilities ?? [] };
      case 'connectStdio':
        return need().connectStdio(a[0] as string, a[1] as string[], (a[2] ?? {}) as object);
      case 'connectHttp': {
        const { loopbackNames, ...opts } = (a[1] ?? {}) as { loopbackNames?: string[]; alias?: string; credential?: string; ca?: string };
        return need().connectHttp(a[0] as string, { ...opts, ...(loopbackNames ? { lookup: loopbackLookup(loopbackNames) } : {}) });
      }
      case 'grantConsent':
        return need().grantConsent(a[0] as string, a[1] as { grantor: string; scopes?: string[] });
      case 'revokeConsent':
        return need().revokeConsent(a[0] as string, a[1] as { grantor: string; scopes?: string[] });
      case 'queryAll':
        return need().queryAll(a[0] as never);
      case 'verify':
        return need().verify(a[0] as string, a[1] as never);
      case 'compose':
        return need().compose(a[0] as never, a[1] as never);
      case 'usage':
        return need().usage(a[0] as never, a[1] as never);
      case 'attribute':
        return need().attribute(a[0] as never, a[1] as never, a[2] as string);
      case 'logText':
        return need().logText();
      case 'close':
        await host?.close();
        host = undefined;
        return null;
    }
  };
  await serveStdio(async (line) => {
    if (typeof line !== 'string') return { type: 'control_result', seq: -1, ok: false, error: serializeError(line) } satisfies ControlResponse;
    let req: ControlRequest;
    try {
      req = JSON.parse(line) as ControlRequest;
      if (req.type !== 'control' || typeof req.seq !== 'number') throw new Error('not a control request (type "control" with a numeric seq)');
      if (!CONTROL_OPERATIONS.includes(req.op)) throw new Error(`unknown operation ${JSON.stringify(req.op)}`);
    } catch (err) {
      return { type: 'control_result', seq: -1, ok: false, error: serializeError(err) } satisfies ControlResponse;
    }
    try {
      const result = await perform(req);
      // after `close` the suite ends our stdin, and serveStdio returns (then the process exits)
      return { type: 'control_result', seq: req.seq, ok: true, result: toWire(result ?? null) } satisfies ControlResponse;
    } catch (err) {
      return { type: 'control_result', seq: req.seq, ok: false, error: serializeError(err) } satisfies ControlResponse;
    }
  });
}

const isMain = process.argv[1] !== undefined && /control-server\.(ts|js|cjs)$/.test(process.argv[1]);
if (isMain) {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { misbehave: { type: 'string' } }, strict: true });
  serveControl(values.misbehave).then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`control-server: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
