// The whole host suite against the bundled host, measured side by side in this one run:
//   in-process   cgp-conformance host                                   (the adapter, in the suite's process)
//   --cmd        cgp-conformance host --cmd "node …/dist/bundle/control-server.cjs"  (the same host in another
//                process, over the host control protocol — what a host in another language gets; it declares
//                sessions "many", so the sessions follow one another in one process)
//   --cmd, fresh the same with CGP_HOST_REUSE=0: every session a process of its own (a host that cannot start over)
// Each is the compiled CLI as a user runs it, as a whole process; runs are interleaved (in, cmd, fresh, in, …)
// so load drifts hit every side alike. Prints every run's wall time, the medians and their ratios, and the
// process CPU time (user+sys of the CLI and its children) beside it.
//
// Run: npm run build && npx tsx bench/host-control.ts [--runs 5] [--server <file under the package root>]
// Target: --cmd / in-process ≤ 1.5× (median wall time).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { findPackageRoot } from '../src/util/package-root.js';
import { median, timeProcess, type Timed } from './lib/timing.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, server: { type: 'string' } } });
const RUNS = Number(values.runs);
const ROOT = findPackageRoot();
const BIN = join(ROOT, 'dist', 'src', 'cli', 'bin.js');
// the documented command (docs/host-control-protocol.md): the control server as npm run build bundles it
// (--server <file> measures another build of it, e.g. dist/src/conformance/host-suite/control/control-server.js, unbundled)
const SERVER = values.server !== undefined ? join(ROOT, values.server) : join(ROOT, 'dist', 'bundle', 'control-server.cjs');
const OUT = mkdtempSync(join(tmpdir(), 'cgp-bench-host-'));

/** One whole run of the compiled CLI (wall, and the CPU it and its children used). */
const once = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<Timed> => timeProcess([process.execPath, BIN, ...args, '--out', OUT], { cwd: ROOT, env: { ...process.env, ...env } });

const cmd = ['host', '--cmd', `${process.execPath} ${SERVER}`];
const sides: Record<string, { run: () => Promise<Timed>; times: Timed[] }> = {
  'in-process': { run: () => once(['host']), times: [] },
  '--cmd': { run: () => once(cmd, { CGP_HOST_REUSE: '1' }), times: [] },
  '--cmd, fresh': { run: () => once(cmd, { CGP_HOST_REUSE: '0' }), times: [] },
};
for (let i = 0; i < RUNS; i++) {
  for (const side of Object.values(sides)) side.times.push(await side.run());
  process.stderr.write(
    `run ${i + 1}/${RUNS}: ${Object.entries(sides)
      .map(([k, v]) => `${k} ${(v.times[i]!.wallMs / 1000).toFixed(2)} s`)
      .join(', ')}\n`,
  );
}
const wall = (k: string) => median(sides[k]!.times.map((t) => t.wallMs));
const cpu = (k: string) => median(sides[k]!.times.map((t) => t.cpuMs));
const base = wall('in-process');
process.stdout.write(
  [
    `host suite, ${RUNS} interleaved runs each (median); --cmd "node ${SERVER.slice(ROOT.length + 1)}":`,
    ...Object.keys(sides).map(
      (k) => `  ${k.padEnd(13)} wall ${(wall(k) / 1000).toFixed(2)} s   cpu ${(cpu(k) / 1000).toFixed(2)} s${k === 'in-process' ? '' : `   ${(wall(k) / base).toFixed(2)}× in-process`}`,
    ),
    `  ratio --cmd / in-process: wall ${(wall('--cmd') / base).toFixed(2)}×  (target ≤ 1.5×: ${wall('--cmd') / base <= 1.5 ? 'met' : 'NOT met'})`,
    `  every session a fresh process (CGP_HOST_REUSE=0): ${(wall('--cmd, fresh') / base).toFixed(2)}× in-process`,
  ].join('\n') + '\n',
);
