// Time to verdict (docs/architecture.md "Performance"): the compiled CLI as a user runs it, each figure a whole process, all measured
// in this one run with the runs interleaved (A, B, C, A, B, C, …) so load drifts hit every side alike.
//
//   (a) the full provider suite            vs  a one-scenario run of the same CLI (--tags @B3)     target ≤ 1.5×
//   (b) the one-scenario run               vs  a bare node script that imports cucumber's API and spawns,
//                                              handshakes and shuts down the same provider        target ≤ 2×
//   (c) (a) against a provider that takes 1 s to start (fixtures/slow-start-provider.mjs):
//       the full suite's extra time over (a)                                                      target ≤ 2 s
//   and (a)'s floor: the bare script opening all the connections the full suite opens, with no check at all
//
// Then, with --profile, one CPU profile (node --cpu-prof) of the CLI process for the full provider suite, the
// host suite and certify: wall, busy and idle ("(idle)" samples: the event loop waiting on a child, a socket
// or a timer), and where the busy time went.
//
// Run: npm run build && npx tsx bench/suite.ts [--runs 5] [--profile] [--provider "<command line>"]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { findPackageRoot } from '../src/util/package-root.js';
import { onlyProfile, renderSummary, summariseProfile } from './lib/cpu-profile.js';
import { median, seconds, timeProcess, type Timed } from './lib/timing.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    profile: { type: 'boolean', default: false },
    'profile-only': { type: 'boolean', default: false },
  },
});
const RUNS = Number(values.runs);
const ROOT = findPackageRoot();
const NODE = process.execPath;
const BIN = join(ROOT, 'dist', 'src', 'cli', 'bin.js');
// the bundled provider the way the suite spawns it (the one-file build)
const PROVIDER = [NODE, join(ROOT, 'dist', 'bundle', 'provider.cjs')];
const SLOW = [NODE, join(ROOT, 'fixtures', 'slow-start-provider.mjs'), '1000'];
const WORK = mkdtempSync(join(tmpdir(), 'cgp-bench-suite-'));

// The bare script: what any cucumber-driven suite pays before its first check — node, cucumber's API, and N
// provider connections opened at once, each spawned, handshaken and shut down. Written here so the bench has
// no file of its own to drift. With one connection it is (b)'s floor; with as many as the full suite opens
// (counted below from a full run) it is (a)'s floor: full / one scenario cannot be below floor / one scenario.
const BARE = join(WORK, 'bare-cucumber.mjs');
writeFileSync(
  BARE,
  `import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
const require = createRequire(${JSON.stringify(join(ROOT, 'package.json'))});
await import(require.resolve('@cucumber/cucumber/api'));
const [cmd, ...args] = JSON.parse(process.argv[2]);
const one = () => new Promise((resolve, reject) => {
  const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  let buf = '';
  let acked = false;
  child.stdout.on('data', (c) => {
    buf += c;
    if (acked || !buf.includes('\\n')) return;
    acked = true;
    if (!buf.startsWith('{"type":"handshake_ack"')) reject(new Error('no handshake_ack'));
    child.stdin.write(JSON.stringify({ type: 'shutdown' }) + '\\n');
  });
  child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error('exit ' + code))));
  child.stdin.write(JSON.stringify({ type: 'handshake', protocol_version: 'contextgraph/1.0' }) + '\\n');
});
await Promise.all(Array.from({ length: Number(process.argv[3]) }, one));
`,
);

// How many provider processes the full suite starts: one full run with a provider that counts its starts.
const COUNT = join(WORK, 'starts.txt');
writeFileSync(COUNT, '');
await timeProcess([
  NODE, BIN, 'stdio', '--out', join(WORK, 'out'), '--',
  NODE, '-e', `require('node:fs').appendFileSync(${JSON.stringify(COUNT)}, 'x'); require(${JSON.stringify(PROVIDER[1])})`,
]);
const CONNECTIONS = readFileSync(COUNT, 'utf8').length;

const suite = (provider: string[], ...extra: string[]) => [NODE, BIN, 'stdio', ...extra, '--out', join(WORK, 'out'), '--', ...provider];
const sides: Record<string, string[]> = {
  full: suite(PROVIDER),
  one: suite(PROVIDER, '--tags', '@B3'),
  bare: [NODE, BARE, JSON.stringify(PROVIDER), '1'],
  [`floor (${CONNECTIONS} connections)`]: [NODE, BARE, JSON.stringify(PROVIDER), String(CONNECTIONS)],
  'full, slow start': suite(SLOW),
  'one, slow start': suite(SLOW, '--tags', '@B3'),
};

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const out: string[] = [`bench/suite — ${process.version}, ${cpus().length} CPUs, load average ${load()} at start; ${RUNS} interleaved runs of each`];

if (!values['profile-only']) {
  const times: Record<string, Timed[]> = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
  for (const argv of Object.values(sides)) await timeProcess(argv); // warm the page cache
  for (let i = 0; i < RUNS; i++) {
    for (const [name, argv] of Object.entries(sides)) times[name]!.push(await timeProcess(argv));
    process.stderr.write(`run ${i + 1}/${RUNS}: ${Object.keys(sides).map((k) => `${k} ${seconds(times[k]![i]!.wallMs)}`).join(', ')}\n`);
  }
  const m = (k: string) => median(times[k]!.map((t) => t.wallMs));
  const c = (k: string) => median(times[k]!.map((t) => t.cpuMs));
  for (const k of Object.keys(sides)) out.push(`  ${k.padEnd(18)} wall ${seconds(m(k))}  cpu ${seconds(c(k))}   (min ${seconds(Math.min(...times[k]!.map((t) => t.wallMs)))}, max ${seconds(Math.max(...times[k]!.map((t) => t.wallMs)))})`);
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const a = m('full') / m('one');
  const b = m('one') / m('bare');
  const extra = m('full, slow start') - m('full');
  out.push(`  (a) full / one scenario:             ${a.toFixed(2)}×  (target ≤ 1.5×: ${verdict(a <= 1.5)})`);
  out.push(`  (b) one scenario / bare cucumber:    ${b.toFixed(2)}×  (target ≤ 2×: ${verdict(b <= 2)})`);
  out.push(`  (c) slow-start extra, full suite:    ${seconds(extra)}  (target ≤ 2 s: ${verdict(extra <= 2000)}); one scenario: ${seconds(m('one, slow start') - m('one'))}`);
  const floor = m(`floor (${CONNECTIONS} connections)`);
  out.push(`  (a)'s floor: the full suite's ${CONNECTIONS} connections with no check at all / one scenario: ${(floor / m('one')).toFixed(2)}×; the checks of every scenario add ${seconds(m('full') - floor)} to it`);
}

if (values.profile || values['profile-only']) {
  out.push('CPU profile of the CLI process (node --cpu-prof), one run each:');
  const profiled: Array<[string, string[]]> = [
    ['provider suite (stdio)', ['stdio', '--out', join(WORK, 'out'), '--', ...PROVIDER]],
    ['one scenario (@B3)', ['stdio', '--tags', '@B3', '--out', join(WORK, 'out'), '--', ...PROVIDER]],
    ['host suite', ['host', '--out', join(WORK, 'out')]],
    ['certify', ['certify', '--out', join(WORK, 'out')]],
  ];
  for (const [label, args] of profiled) {
    const dir = mkdtempSync(join(WORK, 'prof-'));
    await timeProcess([NODE, '--cpu-prof', '--cpu-prof-dir', dir, BIN, ...args]);
    out.push(renderSummary(label, summariseProfile(onlyProfile(dir), ROOT)));
  }
}
out.push(`load average at end ${load()}`);
process.stdout.write(out.join('\n') + '\n');
rmSync(WORK, { recursive: true, force: true });
