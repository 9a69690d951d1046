// `cgp-conformance fuzz` / `replay`: the bundled provider survives ≥ 1000 hostile inputs (fixed seed,
// bounded time) over stdio and a few hundred over HTTP; crash-on-garbage and deaf-after-garbage are found,
// shrunk to ≤ 3 lines, and the written transcript replays them (exit 1) but not against the honest provider (0).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from '../../helpers/run-process.js';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { AREAS, fuzzCase, isShutdownLine, lineBytes, readTranscript, requestMemberPaths, runFuzz, type FuzzTarget } from '../../../src/conformance/fuzz/index.js';
import { bundledProviderCommand } from '../../../src/conformance/provider-suite/config.js';
import { startBundledHttpProvider } from '../../../src/provider/serve.js';
import { findPackageRoot } from '../../../src/util/package-root.js';

const ROOT = findPackageRoot();
const bundled = bundledProviderCommand(ROOT);
const stdio = (...extra: string[]): FuzzTarget => ({ kind: 'stdio', command: bundled.command, args: [...bundled.args, ...extra] });
const out = () => mkdtempSync(join(tmpdir(), 'cgp-fuzz-test-'));

const cli = (args: string[], timeoutMs = 60_000) => runProcess([process.execPath, '--import', 'tsx', join(ROOT, 'src', 'cli', 'bin.ts'), ...args], { cwd: ROOT, timeoutMs });

const base = { seed: 20261201, timeoutMs: 10_000, handshakeTimeoutMs: 20_000, replayCommand: (f: string) => `replay ${f}` };

describe('fuzz inputs', () => {
  it('are deterministic by seed, cover every area and never contain a shutdown', () => {
    const a = fc.sample(fuzzCase(), { numRuns: 400, seed: 42 });
    const b = fc.sample(fuzzCase(), { numRuns: 400, seed: 42 });
    assert.deepEqual(a, b);
    const seen = new Set(a.flat().map((i) => i.area));
    for (const area of AREAS) assert.ok(seen.has(area), `area ${area} generated`);
    for (const input of a.flat()) for (const l of input.lines) assert.equal(isShutdownLine(l), false);
    // The oversize lines really exceed the assumed cap.
    const big = fc
      .sample(fuzzCase({ maxLineBytes: 1000 }), { numRuns: 400, seed: 3 })
      .flat()
      .filter((i) => i.area === 'oversize-line');
    assert.ok(big.some((i) => lineBytes(i.lines[0]!).length > 1000));
  });

  it('attack every request member the schema declares', () => {
    const paths = requestMemberPaths(ROOT).map((p) => `${p.envelope}.${p.path.join('.')}`);
    for (const p of ['query.id', 'query.query.max_frames', 'query.query.as_of', 'query.query.embedding.*', 'verify.request.frames.*.content_digest', 'handshake.protocol_version']) {
      assert.ok(paths.includes(p), `${p} among ${paths.length} paths`);
    }
  });
});

describe('fuzz: the bundled provider', () => {
  it('survives ≥ 1000 hostile inputs over stdio (fixed seed, bounded time): 0 findings', async () => {
    const r = await runFuzz({ ...base, target: stdio(), runs: 700, timeBudgetMs: 45_000, outDir: out() });
    assert.equal(r.finding, undefined, r.finding?.finding.message);
    assert.equal(r.handshakeFailure, undefined);
    assert.equal(r.budgetExhausted, false, `only ${r.cases} cases within the time budget`);
    assert.ok(r.inputs >= 1000, `${r.inputs} inputs`);
    for (const area of AREAS) assert.ok(r.perArea[area] > 0, `area ${area} sent`);
    assert.equal(r.sessions, 1);
  });

  it('survives hostile bodies over HTTP: 0 findings', async () => {
    const running = await startBundledHttpProvider({ port: 0 });
    try {
      const r = await runFuzz({ ...base, target: { kind: 'http', url: running.handle.url }, runs: 150, timeBudgetMs: 20_000, outDir: out() });
      assert.equal(r.finding, undefined, r.finding?.finding.message);
      assert.ok(r.inputs >= 150);
    } finally {
      await running.close();
    }
  });
});

describe('fuzz: misbehaving providers are found, shrunk and replayed', () => {
  it('crash-on-garbage: a crash (R1), ≤ 3 lines, the replay reproduces it and the honest provider answers it', async () => {
    const dir = out();
    const r = await runFuzz({ ...base, seed: 7, timeoutMs: 2000, target: stdio('--misbehave', 'crash-on-garbage'), runs: 100, outDir: dir });
    assert.ok(r.finding, 'a finding');
    assert.equal(r.finding.finding.kind, 'crash');
    assert.equal(r.finding.finding.anchor, 'R1');
    assert.match(r.finding.finding.message, /^R1 violated: the provider crashed/);
    assert.ok(r.finding.lines <= 3, `${r.finding.lines} lines`);
    assert.equal(r.finding.reproduced, true);
    const t = readTranscript(r.finding.transcriptPath);
    assert.equal(t.hostile.length + 2, r.finding.lines);
    const meta = JSON.parse(readFileSync(r.finding.metadataPath, 'utf8')) as { reproduced_by_replay: boolean; seed: number };
    assert.equal(meta.reproduced_by_replay, true);
    assert.equal(meta.seed, 7);
    const again = await cli(['replay', r.finding.transcriptPath, '--timeout', '3000', '--', bundled.command, ...bundled.args, '--misbehave', 'crash-on-garbage']);
    assert.equal(again.code, 1, again.stdout + again.stderr);
    assert.match(again.stdout, /REPRODUCED \(crash, R1\)/);
    const honest = await cli(['replay', r.finding.transcriptPath, '--', bundled.command, ...bundled.args]);
    assert.equal(honest.code, 0, honest.stdout + honest.stderr);
    assert.match(honest.stdout, /not reproduced/);
  });

  it('deaf-after-garbage: a hang (R1) within the timeout, ≤ 3 lines, reproduced', async () => {
    const r = await runFuzz({ ...base, seed: 7, timeoutMs: 800, shrinkBudgetMs: 20_000, target: stdio('--misbehave', 'deaf-after-garbage'), runs: 100, outDir: out() });
    assert.ok(r.finding, 'a finding');
    assert.equal(r.finding.finding.kind, 'hang');
    assert.match(r.finding.finding.message, /^R1 violated: the valid query "fuzz-probe-\d+" sent after the malformed input was not answered within 800 ms/);
    assert.ok(r.finding.lines <= 3, `${r.finding.lines} lines`);
    assert.equal(r.finding.reproduced, true);
  });

  it('the CLI: usage errors exit 2, a target that never answers exits 3, a finding exits 1 and prints the replay command', async () => {
    assert.equal((await cli(['fuzz', '--runs', 'lots', '--', 'true'])).code, 2);
    assert.equal((await cli(['fuzz', '--runs', '5'])).code, 2);
    const never = await cli(['fuzz', '--runs', '5', '--timeout', '500', '--', '/nonexistent/provider']);
    assert.equal(never.code, 3, never.stdout + never.stderr);
    const dir = out();
    const found = await cli(['fuzz', '--runs', '50', '--seed', '7', '--timeout', '2000', '--out', dir, '--json', '--', bundled.command, ...bundled.args, '--misbehave', 'crash-on-garbage']);
    assert.equal(found.code, 1, found.stderr);
    const json = JSON.parse(found.stdout) as { findings: number; finding: { kind: string; lines: number; replay: string; transcript: string } };
    assert.equal(json.findings, 1);
    assert.ok(json.finding.transcript.startsWith(dir));
    assert.match(json.finding.replay, /^cgp-conformance replay .+ -- /);
    assert.match(found.stderr, /fuzz: replay with: cgp-conformance replay/);
  });
});
