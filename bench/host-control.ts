// The whole host suite against the bundled host two ways, measured side by side in this one run:
//   in-process   cgp-conformance host                                   (the adapter, in the suite's process)
//   --cmd        cgp-conformance host --cmd "node …/dist/bundle/control-server.cjs"  (the same host in another process per
//                scenario, over the host control protocol — what a host in another language gets)
// Each is the compiled CLI as a user runs it, as a whole process; runs are interleaved (in, cmd, in, cmd…)
// so load drifts hit both alike. Prints every run's wall time, the medians and their ratio, and the
// process CPU time (user+sys of the CLI and its children) beside it.
//
// Run: npm run build && npx tsx bench/host-control.ts [--runs 5] [--server <file under the package root>]
// Target (issue 9): --cmd / in-process ≤ 1.5× (median wall time).
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
// (--server <file> measures another build of it, e.g. dist/src/conformance/host/control-server.js, unbundled)
const SERVER = values.server !== undefined ? join(ROOT, values.server) : join(ROOT, 'dist', 'bundle', 'control-server.cjs');
const OUT = mkdtempSync(join(tmpdir(), 'cgp-bench-host-'));

/** One whole run of the compiled CLI (wall, and the CPU it and its children used). */
const once = (args: string[]): Promise<Timed> => timeProcess([process.execPath, BIN, ...args, '--out', OUT], { cwd: ROOT });

const inProcess: Timed[] = [];
const controlled: Timed[] = [];
for (let i = 0; i < RUNS; i++) {
  inProcess.push(await once(['host']));
  controlled.push(await once(['host', '--cmd', `${process.execPath} ${SERVER}`]));
  process.stderr.write(`run ${i + 1}/${RUNS}: in-process ${(inProcess[i]!.wallMs / 1000).toFixed(2)} s, --cmd ${(controlled[i]!.wallMs / 1000).toFixed(2)} s\n`);
}
const mi = median(inProcess.map((t) => t.wallMs));
const mc = median(controlled.map((t) => t.wallMs));
const ci = median(inProcess.map((t) => t.cpuMs));
const cc = median(controlled.map((t) => t.cpuMs));
process.stdout.write(
  [
    `host suite, ${RUNS} interleaved runs each (median); --cmd "node ${SERVER.slice(ROOT.length + 1)}":`,
    `  in-process   wall ${(mi / 1000).toFixed(2)} s   cpu ${(ci / 1000).toFixed(2)} s`,
    `  --cmd        wall ${(mc / 1000).toFixed(2)} s   cpu ${(cc / 1000).toFixed(2)} s`,
    `  ratio --cmd / in-process: wall ${(mc / mi).toFixed(2)}×  (target ≤ 1.5×)   cpu ${(cc / ci).toFixed(2)}× (context)`,
  ].join('\n') + '\n',
);
