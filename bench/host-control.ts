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
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { findPackageRoot } from '../src/util/package-root.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, server: { type: 'string' } } });
const RUNS = Number(values.runs);
const ROOT = findPackageRoot();
const BIN = join(ROOT, 'dist', 'src', 'cli', 'bin.js');
// the documented command (docs/host-control-protocol.md): the control server as npm run build bundles it
// (--server <file> measures another build of it, e.g. dist/src/conformance/host/control-server.js, unbundled)
const SERVER = values.server !== undefined ? join(ROOT, values.server) : join(ROOT, 'dist', 'bundle', 'control-server.cjs');
const OUT = mkdtempSync(join(tmpdir(), 'cgp-bench-host-'));

interface Timed {
  wallMs: number;
  cpuMs: number;
}

function once(args: string[]): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    // the CLI runs under bash so that `times` reports the CPU the CLI and all its children used
    const child = spawn('bash', ['-c', `"$0" "$@" >/dev/null 2>&1; s=$?; times; exit $s`, process.execPath, BIN, ...args, '--out', OUT], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const wallMs = performance.now() - t0;
      if (code !== 0) return reject(new Error(`cgp-conformance ${args.join(' ')} exited ${code}`));
      // `times` prints the shell's own line, then its children's: "0m1.234s 0m0.123s"
      const child = out.trim().split('\n').pop() ?? '';
      const secs = [...child.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
      resolve({ wallMs, cpuMs: (secs[0] ?? 0) * 1000 + (secs[1] ?? 0) * 1000 });
    });
  });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

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
