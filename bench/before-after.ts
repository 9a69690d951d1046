// This checkout against another build of the toolkit (an earlier commit, built), side by side in one run,
// interleaved (before, after, before, after, …) so the machine's load hits both alike: the CLI's start-up
// against `node -e 0`, the full provider suite and a one-scenario run of it (--tags @B3), each side against its
// own bundled provider, the host suite in-process (wall, and the busy share of its CPU profile) and certify.
// Each side runs its own compiled CLI: the package's bin where it has one (dist/bundle/cli.cjs), else
// dist/src/cli/bin.js; and its own bundled provider (dist/bundle/provider.cjs, else dist/src/provider/main.js).
// Each suite figure is the wall time and, beside it, the CPU of the whole process tree (bash's `times`).
//
// Run: npm run build && npx tsx bench/before-after.ts --before <dir: another checkout, `npm run build` done> [--runs 3]
//   e.g. mkdir /tmp/before && git archive <commit> | tar -x -C /tmp/before && ln -s "$PWD/node_modules" /tmp/before/ && (cd /tmp/before && npm run build)
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { findPackageRoot } from '../src/util/package-root.js';
import { onlyProfile, summariseProfile } from './lib/cpu-profile.js';
import { median, seconds, timeProcess, wallOf } from './lib/timing.js';

const USAGE = `usage: npx tsx bench/before-after.ts --before <dir> [--runs N]
  --before <dir>  another checkout of the toolkit, built (npm run build); this checkout is "after" (built too)
  --runs N        interleaved runs (default 3), each: --version and --help 5 times, the full provider suite,
                  one scenario (@B3), the host suite, certify — before and after side by side
`;
const { values } = parseArgs({ options: { before: { type: 'string' }, runs: { type: 'string', default: '3' }, help: { type: 'boolean', short: 'h' } } });
if (values.help === true) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (values.before === undefined) {
  process.stderr.write(`bench/before-after: give --before <dir>: another checkout of the toolkit, built\n${USAGE}`);
  process.exit(2);
}
const RUNS = Number(values.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) {
  process.stderr.write(`bench/before-after: --runs must be a positive integer, got ${JSON.stringify(values.runs)}\n`);
  process.exit(2);
}
const NODE = process.execPath;
const WORK = mkdtempSync(join(tmpdir(), 'cgp-bench-before-after-'));
const binOf = (root: string) => [join(root, 'dist', 'bundle', 'cli.cjs'), join(root, 'dist', 'src', 'cli', 'bin.js')].find((f) => existsSync(f))!;
const providerOf = (root: string) => [join(root, 'dist', 'bundle', 'provider.cjs'), join(root, 'dist', 'src', 'provider', 'main.js')].find((f) => existsSync(f))!;
const ROOTS = { before: resolve(values.before), after: findPackageRoot() };
const SIDES = { before: binOf(ROOTS.before), after: binOf(ROOTS.after) };
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

type Side = keyof typeof SIDES;
const r: Record<string, number[]> = {};
const put = (k: string, v: number) => (r[k] ??= []).push(v);
process.stderr.write(`before: ${SIDES.before}\nafter:  ${SIDES.after}\n`);
for (let i = 0; i < RUNS; i++) {
  for (let j = 0; j < 5; j++) {
    put('node -e 0', await wallOf([NODE, '-e', '0']));
    for (const s of Object.keys(SIDES) as Side[]) {
      put(`${s} --version`, await wallOf([NODE, SIDES[s], '--version']));
      put(`${s} --help`, await wallOf([NODE, SIDES[s], '--help']));
    }
  }
  for (const s of Object.keys(SIDES) as Side[]) {
    const provider = ['--', NODE, providerOf(ROOTS[s])];
    const full = await timeProcess([NODE, SIDES[s], 'stdio', '--out', join(WORK, s), ...provider]);
    put(`${s} provider`, full.wallMs);
    put(`${s} provider cpu`, full.cpuMs);
    const one = await timeProcess([NODE, SIDES[s], 'stdio', '--tags', '@B3', '--out', join(WORK, s), ...provider]);
    put(`${s} one`, one.wallMs);
    put(`${s} one cpu`, one.cpuMs);
  }
  for (const s of Object.keys(SIDES) as Side[]) {
    const dir = mkdtempSync(join(WORK, 'prof-'));
    const t = await timeProcess([NODE, '--cpu-prof', '--cpu-prof-dir', dir, SIDES[s], 'host', '--out', join(WORK, s)]);
    const p = summariseProfile(onlyProfile(dir), findPackageRoot());
    put(`${s} host`, t.wallMs);
    put(`${s} host cpu`, t.cpuMs);
    put(`${s} host busy`, p.busyMs / p.wallMs);
    put(`${s} host idle`, p.idleMs);
  }
  for (const s of Object.keys(SIDES) as Side[]) {
    const t = await timeProcess([NODE, SIDES[s], 'certify', '--out', join(WORK, s)]);
    put(`${s} certify`, t.wallMs);
    put(`${s} certify cpu`, t.cpuMs);
  }
  process.stderr.write(
    `run ${i + 1}/${RUNS} (load ${load()}): provider suite ${seconds(r['before provider']!.at(-1)!)} → ${seconds(r['after provider']!.at(-1)!)}, host ${seconds(r['before host']!.at(-1)!)} → ${seconds(r['after host']!.at(-1)!)}, certify ${seconds(r['before certify']!.at(-1)!)} → ${seconds(r['after certify']!.at(-1)!)}\n`,
  );
}
const m = (k: string) => median(r[k]!);
const node0 = m('node -e 0');
const out = [`bench/before-after — ${process.version}, ${cpus().length} CPUs, ${RUNS} interleaved runs (start-up: ${RUNS * 5} starts each), load average ${load()} at end`];
out.push(`                       before                after`);
out.push(`  node -e 0            ${(node0 / 1000).toFixed(3)} s`);
for (const k of ['--version', '--help'])
  out.push(
    `  ${k.padEnd(20)} ${(m(`before ${k}`) / 1000).toFixed(3)} s  ${(m(`before ${k}`) / node0).toFixed(2)}×     ${(m(`after ${k}`) / 1000).toFixed(3)} s  ${(m(`after ${k}`) / node0).toFixed(2)}× node -e 0`,
  );
// wall, then the CPU (user + sys) of the process and every child it started: on a loaded machine the CPU
// moves less with the load than the wall does
const line = (label: string, k: string) =>
  out.push(
    `  ${label.padEnd(20)} ${seconds(m(`before ${k}`))}              ${seconds(m(`after ${k}`))}              after/before ${(m(`after ${k}`) / m(`before ${k}`)).toFixed(2)}×` +
      `   (cpu ${seconds(m(`before ${k} cpu`))} → ${seconds(m(`after ${k} cpu`))}, ${(m(`after ${k} cpu`) / m(`before ${k} cpu`)).toFixed(2)}×)`,
  );
line('provider suite', 'provider');
line('one scenario (@B3)', 'one');
out.push(
  `  host suite           ${seconds(m('before host'))} busy ${(100 * m('before host busy')).toFixed(0)} %   ${seconds(m('after host'))} busy ${(100 * m('after host busy')).toFixed(0)} %   after/before ${(m('after host') / m('before host')).toFixed(2)}×` +
    `   (cpu ${seconds(m('before host cpu'))} → ${seconds(m('after host cpu'))})`,
);
out.push(`    its idle (the profile's "(idle)": waiting on a child, a socket or a timer)   ${seconds(m('before host idle'))} → ${seconds(m('after host idle'))}`);
line('certify', 'certify');
process.stdout.write(out.join('\n') + '\n');
rmSync(WORK, { recursive: true, force: true });
