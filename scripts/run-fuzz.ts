// `npm run fuzz`: the full robustness run (docs/interpretations.md §50–§56), with the figures it reports.
//
//   npm run fuzz [-- --only provider,http,fence,ledger,hostile,suite,c8] [--runs 100000] [--seed 20261201]
//                   [--fence 100000] [--kills 200] [--concurrent 20] [--c8-rounds 3] [--out .tmp/fuzz]
//
// provider  `cgp-conformance fuzz` against the bundled provider over stdio (--runs cases; compiled dist/ when fresh)
// http      the same over HTTP (runs/10 cases)
// fence     R3 fence fuzz (--fence cases)
// ledger    consent ledger: --kills SIGKILL runs, --concurrent rounds of two writers × 100 appends
// hostile   the bundled host vs every hostile shape (named failures, peak RSS, orphans)
// suite     the provider suite vs every hostile shape
// c8        the host suite's HTTP scenarios with bearer credentials, --c8-rounds times; token scan
// Exit code 0 when every figure is as required (0 findings, 0 breakouts, 0 hits, 0 orphans, …), else 1.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runFuzz, type FuzzRunResult } from '../src/conformance/fuzz/index.js';
import { bundledProviderCommand } from '../src/conformance/provider-suite/config.js';
import { startBundledHttpProvider } from '../src/provider/serve.js';
import { c8Scan } from './fuzz/c8.js';
import { fenceFuzz } from './fuzz/fence.js';
import { HOSTILE_SHAPES, hostVsHostile, suiteVsHostile } from './fuzz/hostile.js';
import { ledgerConcurrent, ledgerKillRuns } from './fuzz/ledger.js';

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'provider,http,fence,ledger,hostile,suite,c8' },
    runs: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '20261201' },
    fence: { type: 'string', default: '100000' },
    kills: { type: 'string', default: '200' },
    concurrent: { type: 'string', default: '20' },
    'c8-rounds': { type: 'string', default: '3' },
    out: { type: 'string', default: '.tmp/fuzz' },
  },
  strict: true,
});
const only = new Set(values.only!.split(','));
const seed = Number(values.seed);
const out = resolve(values.out!);
mkdirSync(out, { recursive: true });
const figures: Record<string, unknown> = {};
const failures: string[] = [];
const MiB = (b: number) => `${(b / 1048576).toFixed(1)} MiB`;
const log = (s: string) => process.stderr.write(`${s}\n`);

function providerFigures(r: FuzzRunResult): Record<string, unknown> {
  const kind = (k: string) => (r.finding?.finding.kind === k ? 1 : 0);
  return {
    cases: r.cases,
    inputs: r.inputs,
    inputs_per_area: r.perArea,
    lines: r.linesSent,
    bytes: r.bytesSent,
    findings: r.finding ? 1 : 0,
    crashes: kind('crash'),
    hangs: kind('hang'),
    finding: r.finding?.finding.message,
    elapsed_s: Math.round(r.elapsedMs / 1000),
    harness_peak_rss: MiB(r.peakRssBytes),
  };
}

if (only.has('provider')) {
  const b = bundledProviderCommand();
  log(`== provider fuzz: ${values.runs} cases, seed ${seed}`);
  const r = await runFuzz({
    target: { kind: 'stdio', command: b.command, args: b.args },
    runs: Number(values.runs),
    seed,
    timeoutMs: 10_000,
    handshakeTimeoutMs: 20_000,
    outDir: out,
    replayCommand: (f) => `cgp-conformance replay ${f} -- ${[b.command, ...b.args].join(' ')}`,
    progress: log,
    progressEveryMs: 10_000,
  });
  figures.provider_stdio = providerFigures(r);
  if (r.finding || r.handshakeFailure || r.cases < Number(values.runs)) failures.push(`provider fuzz: ${r.finding?.finding.message ?? r.handshakeFailure?.message ?? `only ${r.cases} cases`}`);
}
if (only.has('http')) {
  const running = await startBundledHttpProvider({ port: 0 });
  try {
    const runs = Math.max(1, Math.floor(Number(values.runs) / 10));
    log(`== provider fuzz over HTTP: ${runs} cases`);
    const r = await runFuzz({
      target: { kind: 'http', url: running.handle.url },
      runs,
      seed,
      timeoutMs: 10_000,
      handshakeTimeoutMs: 20_000,
      outDir: out,
      replayCommand: (f) => `cgp-conformance replay ${f} ${running.handle.url}`,
      progress: log,
      progressEveryMs: 10_000,
    });
    figures.provider_http = providerFigures(r);
    if (r.finding || r.handshakeFailure) failures.push(`http fuzz: ${r.finding?.finding.message ?? r.handshakeFailure?.message}`);
  } finally {
    await running.close();
  }
}
if (only.has('fence')) {
  log(`== R3 fence fuzz: ${values.fence} cases`);
  const r = fenceFuzz(Number(values.fence), seed);
  figures.fence = r;
  if (r.breakouts > 0) failures.push(`fence: ${r.breakouts} breakouts, e.g. ${r.example}`);
}
if (only.has('ledger')) {
  log(`== consent ledger: ${values.kills} SIGKILL runs, ${values.concurrent} two-writer rounds`);
  const k = await ledgerKillRuns(Number(values.kills), seed);
  const c = await ledgerConcurrent(Number(values.concurrent), 100);
  figures.ledger = {
    kill_runs: k.runs,
    survived: k.survived,
    reported_grants: k.reportedGrants,
    torn_tails_seen: k.tornTails,
    concurrent_rounds: c.rounds,
    concurrent_appends: c.appends,
    corrupt: c.corrupt,
    failures: [...k.failures, ...c.failures],
  };
  if (k.failures.length + c.failures.length > 0) failures.push(`ledger: ${[...k.failures, ...c.failures][0]}`);
}
if (only.has('hostile')) {
  log(`== host vs ${HOSTILE_SHAPES.length} hostile shapes`);
  const r = await hostVsHostile(HOSTILE_SHAPES, 2000);
  figures.host_vs_hostile = {
    shapes: r.shapes,
    host_operations: r.hostOps,
    named_failures: r.namedFailures,
    unnamed_or_late: r.problems.length,
    orphans: r.orphans.length,
    peak_rss_64mib_line: MiB(r.rss['giant-line-64mib'] ?? 0),
    peak_rss_10k_frame_flood: MiB(r.rss['flood-10k-frames'] ?? 0),
    peak_rss_max: MiB(Math.max(...Object.values(r.rss))),
    problems: r.problems,
  };
  if (r.problems.length + r.orphans.length > 0) failures.push(`hostile host: ${[...r.problems, ...r.orphans][0]}`);
}
if (only.has('suite')) {
  log(`== provider suite vs ${HOSTILE_SHAPES.length} hostile shapes`);
  const r = await suiteVsHostile(HOSTILE_SHAPES, { timeoutMs: 2000 });
  figures.suite_vs_hostile = {
    shapes: r.shapes,
    scenarios: r.scenarios,
    failed_scenarios: r.failedScenarios,
    problems: r.problems,
    orphans: r.orphans.length,
    slowest_s: Math.round(Math.max(...r.perShape.map((s) => s.ms)) / 1000),
  };
  if (r.problems.length + r.orphans.length > 0) failures.push(`hostile suite: ${[...r.problems, ...r.orphans][0]}`);
}
if (only.has('c8')) {
  log(`== C8 token scan: ${values['c8-rounds']} round(s)`);
  const r = await c8Scan(Number(values['c8-rounds']));
  figures.c8 = { rounds: Number(values['c8-rounds']), scenarios: r.scenarios, passed: r.passed, files_scanned: r.files, bytes_scanned: r.bytes, token_hits: r.hits.length };
  if (r.hits.length > 0 || r.exitCode !== 0) failures.push(`c8: ${r.hits.length} hits, exit ${r.exitCode}`);
}
writeFileSync(join(out, 'fuzz-figures.json'), `${JSON.stringify(figures, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
process.stdout.write(failures.length === 0 ? 'fuzz: every figure as required\n' : `fuzz: FAILED\n${failures.map((f) => `  ${f}`).join('\n')}\n`);
process.exit(failures.length === 0 ? 0 : 1);
