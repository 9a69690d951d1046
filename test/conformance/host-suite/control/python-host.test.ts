// The independent Python host (examples/python-host/host.py, written from SPEC.md and the host control
// protocol alone) certified by the host suite over --cmd: its honest run has no failure (what it lacks is
// not applicable or inconclusive, each with a reason naming the capability), every one of its seeded
// defects is caught under the anchor it breaks, and every result it hands back conforms to the published
// schemas (schema/host-control/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { runSuite } from '../../../../src/conformance/run/run-suite.js';
import { findPackageRoot } from '../../../../src/util/package-root.js';

const ROOT = findPackageRoot();
const HOST = 'python3 examples/python-host/host.py';
/** The capabilities of the closed set the Python host does not declare (its init says which it has). */
const LACKS = ['revoke', 'attribution', 'compose-strategies', 'http', 'https-test-ca', 'name-resolution-hook'];

// CI has python3; without it this test must fail loudly, never pass by running nothing.
function requirePython(): void {
  const r = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  assert.equal(r.status, 0, `python3 is required to certify examples/python-host (spawn: ${r.error?.message ?? r.stderr})`);
}

type Run = Awaited<ReturnType<typeof runSuite>>;
const notPassed = (r: Run) =>
  r.summary.scenarios.filter((s) => s.status !== 'passed').map((s) => `${s.status} ${s.uri}:${s.line} ${s.name}: ${s.not_applicable ?? s.harness_error ?? s.message ?? ''}`);

test('python host: the honest run has 0 failures; every not-applicable or inconclusive scenario names a capability it lacks', { timeout: 240_000 }, async (t) => {
  requirePython();
  const reportsDir = mkdtempSync(join(tmpdir(), 'cgp-python-host-'));
  const run = await runSuite({ side: 'host', hostCommand: HOST, reportName: 'python-host', reportsDir, progress: null });
  for (const line of notPassed(run)) t.diagnostic(line.replace(/^failed (?=.*harness error)/, 'inconclusive '));
  const totals = run.summary.totals;
  const failed = run.summary.scenarios.filter((s) => s.status === 'failed' && s.harness_error === undefined);
  t.diagnostic(
    `${run.summary.scenarios.length} scenarios: ${totals.passed} passed, ${failed.length} failed, ${totals['not-applicable']} not applicable, ${run.summary.harness_errors} inconclusive (unverified)`,
  );
  assert.ok(run.summary.scenarios.length >= 60, `${run.summary.scenarios.length} scenarios ran`);
  assert.deepEqual(
    failed.map((s) => `${s.uri}:${s.line} ${s.message}`),
    [],
    'the honest Python host has no failure',
  );
  assert.ok(totals.passed >= 40, `${totals.passed} passed`);
  for (const s of run.summary.scenarios) {
    const reason = s.not_applicable ?? s.harness_error;
    if (s.status === 'passed' || reason === undefined) continue;
    assert.ok(
      LACKS.some((c) => reason.includes(c)),
      `${s.uri}:${s.line} ${s.name} is ${s.status} with a reason naming no capability the host lacks: ${reason}`,
    );
  }
  // it declares sessions "many": every session in a fresh process must give the same verdicts
  const verdicts = (r: Run) => r.summary.scenarios.map((s) => `${s.uri}:${s.line} ${s.status}`).sort();
  process.env.CGP_HOST_REUSE = '0';
  let fresh: Run;
  try {
    fresh = await runSuite({ side: 'host', hostCommand: HOST, reportName: 'python-host-fresh', reportsDir, progress: null });
  } finally {
    delete process.env.CGP_HOST_REUSE;
  }
  assert.deepEqual(verdicts(fresh), verdicts(run), 'the same verdicts with a fresh host process per session');
});

/**
 * Each seeded defect, the tags that exercise it and the anchor it must be caught under: a failure for a
 * MUST, a warning for a SHOULD (S6.5.4-strict-ed25519; such a run fails under --strict).
 */
const MODES: ReadonlyArray<{ mode: string; tags: string; anchor: string; severity?: 'error' | 'warning' }> = [
  { mode: 'skip-consent', tags: '@C1 or @C2 or @C6', anchor: '(C1|C2|C6)' },
  { mode: 'truncate-over-budget', tags: '@B2', anchor: 'B2' },
  { mode: 'unescaped-content', tags: '@R3', anchor: 'R3' },
  { mode: 'no-dedup', tags: '@D2', anchor: 'D2' },
  { mode: 'wrong-usage-total', tags: '@UR1', anchor: 'UR1' },
  { mode: 'accept-any-family', tags: '@H3', anchor: 'H3' },
  { mode: 'embedding-to-all', tags: '@E1', anchor: 'E1' },
  { mode: 'retry-errors', tags: '@X1 or @X2', anchor: '(X1|X2)' },
  { mode: 'show-scores', tags: '@F10', anchor: 'F10' },
  { mode: 'drop-unverifiable', tags: '@F9', anchor: 'F9' },
  { mode: 'fabricate-reference', tags: '@S6.4.1-unrehydratable-empty', anchor: 'S6.4.1-unrehydratable-empty' },
  { mode: 'accept-small-order-key', tags: '@S6.5.4-strict-ed25519', anchor: 'S6.5.4-strict-ed25519', severity: 'warning' },
];

test('python host: every --misbehave mode is caught under the anchor it breaks', { timeout: 300_000 }, async (t) => {
  requirePython();
  const listed = spawnSync('python3', ['examples/python-host/host.py', '--list-misbehaviours'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(listed.status, 0, listed.stderr);
  assert.deepEqual(
    listed.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t')[0])
      .sort(),
    MODES.map((m) => m.mode).sort(),
    'every mode the host lists is tested here',
  );
  const reportsDir = mkdtempSync(join(tmpdir(), 'cgp-python-host-bad-'));
  const misses: string[] = [];
  for (const { mode, tags, anchor, severity = 'error' } of MODES) {
    const run = await runSuite({ side: 'host', hostCommand: `${HOST} --misbehave ${mode}`, tags, reportName: `python-host-${mode}`, reportsDir, progress: null });
    const hits = run.summary.scenarios.flatMap((s) => s.findings.filter((f) => f.severity === severity && new RegExp(`^${anchor}$`).test(f.id)).map((f) => ({ s, f })));
    t.diagnostic(`${mode}: ${hits.length} ${severity === 'error' ? 'violation' : 'warning'}(s) under ${anchor}${hits[0] ? ` — ${String(hits[0].f.message).split('\n')[0]}` : ''}`);
    if (hits.length === 0) misses.push(`--misbehave ${mode} is not caught under ${anchor}: ${JSON.stringify(notPassed(run))}`);
    else if (severity === 'error' && (run.success || !hits.some(({ s }) => s.status === 'failed'))) misses.push(`--misbehave ${mode}: the ${anchor} violation failed no scenario`);
  }
  assert.deepEqual(misses, []);
});

// A tee between the suite and the host process that records every control line both ways (one file per
// process), so each result the Python host returned can be validated on its own.
const TEE = `import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
const [record, cmd, ...args] = process.argv.slice(2);
const file = record + '/' + process.pid + '.ndjson';
const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit'] });
createInterface({ input: process.stdin }).on('line', (l) => { appendFileSync(file, JSON.stringify({ dir: 'in', line: l }) + '\\n'); child.stdin.write(l + '\\n'); }).on('close', () => child.stdin.end());
createInterface({ input: child.stdout }).on('line', (l) => { appendFileSync(file, JSON.stringify({ dir: 'out', line: l }) + '\\n'); process.stdout.write(l + '\\n'); });
child.on('exit', (code) => process.exit(code ?? 1));
`;

test('python host: every op result and error it returned in a full run conforms to schema/host-control/', { timeout: 240_000 }, async () => {
  requirePython();
  const dir = mkdtempSync(join(tmpdir(), 'cgp-python-host-tee-'));
  const record = join(dir, 'record');
  mkdirSync(record);
  const tee = join(dir, 'tee.mjs');
  writeFileSync(tee, TEE);
  await runSuite({ side: 'host', hostCommand: `${process.execPath} ${tee} ${record} ${HOST}`, reportName: 'python-host-tee', reportsDir: dir, progress: null });

  const schemaDir = join(ROOT, 'schema', 'host-control');
  const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true });
  for (const f of readdirSync(schemaDir).filter((n) => n.endsWith('.schema.json'))) ajv.addSchema(JSON.parse(readFileSync(join(schemaDir, f), 'utf8')) as object);
  const base = 'https://cgp-conformance.dev/schema/host-control/';
  const errorSchema = ajv.getSchema(`${base}defs.schema.json#/$defs/Error`);
  assert.ok(errorSchema, 'defs.schema.json defines $defs/Error');

  const seen = new Map<string, number>();
  const problems: string[] = [];
  for (const f of readdirSync(record)) {
    const ops = new Map<unknown, string>();
    for (const raw of readFileSync(join(record, f), 'utf8').split('\n').filter(Boolean)) {
      const { dir: way, line } = JSON.parse(raw) as { dir: string; line: string };
      const msg = JSON.parse(line) as { seq?: unknown; op?: string; ok?: boolean; result?: unknown; error?: unknown };
      if (way === 'in') {
        ops.set(msg.seq, String(msg.op));
        continue;
      }
      const op = ops.get(msg.seq);
      if (op === undefined) {
        problems.push(`${f}: a control_result for seq ${String(msg.seq)} that no request had`);
        continue;
      }
      if (msg.ok === true) {
        const v = ajv.getSchema(`${base}${op}.schema.json#/$defs/result`);
        if (v === undefined) problems.push(`no published result schema for ${op}`);
        else if (!v(msg.result)) problems.push(`${op} result: ${ajv.errorsText(v.errors)} — ${JSON.stringify(msg.result).slice(0, 200)}`);
        seen.set(op, (seen.get(op) ?? 0) + 1);
      } else if (!errorSchema(msg.error)) {
        problems.push(`${op} error: ${ajv.errorsText(errorSchema.errors)} — ${JSON.stringify(msg.error).slice(0, 200)}`);
      }
    }
  }
  assert.deepEqual(problems, []);
  for (const op of ['init', 'connectStdio', 'grantConsent', 'queryAll', 'verify', 'compose', 'usage', 'logText', 'close']) {
    assert.ok((seen.get(op) ?? 0) > 0, `the run exercised no successful ${op} (seen: ${JSON.stringify([...seen])})`);
  }
});

test('python host: under --strict, a SHOULD it breaks fails the run (1) even beside unverified scenarios (4)', { timeout: 120_000 }, () => {
  requirePython();
  const out = mkdtempSync(join(tmpdir(), 'cgp-python-host-strict-'));
  const args = ['--import', 'tsx', join(ROOT, 'src', 'cli', 'bin.ts'), 'host', '--out', out, '--tags', '@S6.5.4-strict-ed25519 or @needs-http'];
  const run = (extra: string[]) => spawnSync(process.execPath, [...args, ...extra, '--cmd', `${HOST} --misbehave accept-small-order-key`], { cwd: ROOT, encoding: 'utf8' });
  const plain = run([]);
  assert.equal(plain.status, 4, `without --strict the unverified http scenarios make the run inconclusive:\n${plain.stdout}\n${plain.stderr}`);
  const strict = run(['--strict']);
  assert.equal(strict.status, 1, `with --strict the S6.5.4-strict-ed25519 warning is a definite failure:\n${strict.stdout}\n${strict.stderr}`);
  assert.match(strict.stdout + strict.stderr, /--strict: S6\.5\.4-strict-ed25519/);
});
