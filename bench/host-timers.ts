// Every timer of a host-suite run (docs/interpretations.md §85): the compiled CLI runs the host suite with a
// preload that wraps setTimeout and setInterval in its process, and prints, per place in the code that set
// one, how many were set and how many fired (ran their callback instead of being cleared by the event they
// bound). In an honest run against the bundled host, none should fire.
//
// Run: npm run build && npx tsx bench/host-timers.ts [-- <extra host options, e.g. --cmd "…">]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { findPackageRoot } from '../src/util/package-root.js';
import { timeProcess } from './lib/timing.js';

const ROOT = findPackageRoot();
const WORK = mkdtempSync(join(tmpdir(), 'cgp-bench-timers-'));
const OUT = join(WORK, 'timers.json');
const PRELOAD = join(WORK, 'count-timers.cjs');
writeFileSync(
  PRELOAD,
  `const sites = new Map();
const where = () => {
  const line = new Error().stack.split('\\n').slice(3).find((l) => !l.includes('node:') && !l.includes(${JSON.stringify(PRELOAD)})) ?? '(node internals)';
  return line.trim().replace(/^at /, '').replace(${JSON.stringify(`file://${ROOT}/`)}, '').replace(${JSON.stringify(`${ROOT}/`)}, '');
};
for (const name of ['setTimeout', 'setInterval']) {
  const real = globalThis[name];
  globalThis[name] = function (fn, ms, ...args) {
    const key = name + ' ' + (ms ?? 0) + ' ms  ' + where();
    const site = sites.get(key) ?? { set: 0, fired: 0 };
    site.set += 1;
    sites.set(key, site);
    return real.call(this, function (...a) { site.fired += 1; return fn.apply(this, a); }, ms, ...args);
  };
}
process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(OUT)}, JSON.stringify([...sites])));
`,
);
const extra = process.argv.slice(2).filter((a) => a !== '--');
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const startLoad = load();
const t = await timeProcess([process.execPath, '--require', PRELOAD, join(ROOT, 'dist', 'bundle', 'cli.cjs'), 'host', '--out', join(WORK, 'out'), ...extra]);
const sites = JSON.parse(readFileSync(OUT, 'utf8')) as Array<[string, { set: number; fired: number }]>;
sites.sort((a, b) => b[1].fired - a[1].fired || b[1].set - a[1].set);
const lines = [`bench/host-timers — the host suite${extra.length ? ` (${extra.join(' ')})` : ''}: wall ${(t.wallMs / 1000).toFixed(2)} s, load average ${startLoad} at start, ${load()} at end`];
lines.push('     set  fired  timer and where it was set');
for (const [key, s] of sites) lines.push(`  ${String(s.set).padStart(6)} ${String(s.fired).padStart(6)}  ${key}`);
const total = sites.reduce((n, [, s]) => n + s.set, 0);
const fired = sites.reduce((n, [, s]) => n + s.fired, 0);
lines.push(`  ${total} timers set in the suite's process, ${fired} fired`);
process.stdout.write(lines.join('\n') + '\n');
rmSync(WORK, { recursive: true, force: true });
