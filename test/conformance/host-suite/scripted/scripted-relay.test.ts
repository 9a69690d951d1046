// The host suite's two ways of starting a scripted provider (scripted-relay.ts, docs/interpretations.md §86):
// a relay child whose script runs in this process, and a node process running the same script. What a host
// can observe of the child — every byte on its stdout, the end of it, the exit code, what it does with its
// stdin — must be the same both ways; these tests drive both with the same inputs and compare.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { closeScriptedRelay, scriptedCommand, scriptedProviderMode, SCRIPTED_PROVIDER, type ScriptedCommand } from '../../../../src/conformance/host-suite/scripted/scripted-relay.js';
import { minimalEnv } from '../../../../src/transport/stdio-client.js';

const DIR = mkdtempSync(join(tmpdir(), 'cgp-relay-test-'));
after(async () => {
  await closeScriptedRelay();
  rmSync(DIR, { recursive: true, force: true });
});

async function withMode<T>(mode: 'node' | 'relay' | undefined, fn: () => Promise<T>): Promise<T> {
  const before = process.env.CGP_SCRIPTED_PROVIDERS;
  await closeScriptedRelay();
  if (mode === undefined) delete process.env.CGP_SCRIPTED_PROVIDERS;
  else process.env.CGP_SCRIPTED_PROVIDERS = mode;
  try {
    return await fn();
  } finally {
    if (before === undefined) delete process.env.CGP_SCRIPTED_PROVIDERS;
    else process.env.CGP_SCRIPTED_PROVIDERS = before;
  }
}

interface Outcome {
  stdout: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * Spawn the command as a host would, write `input` in the given pieces (each after the previous answer
 * count is reached), then end stdin unless `keepOpen`; resolve with everything the child wrote and how it ended.
 */
async function drive(
  cmd: ScriptedCommand,
  steps: Array<{ write: string; expectLines?: number }>,
  opts: { keepOpen?: boolean; killAfterMs?: number; env?: Record<string, string> } = {},
): Promise<Outcome> {
  const child = spawn(cmd.command, cmd.args, { stdio: ['pipe', 'pipe', 'pipe'], env: opts.env ?? minimalEnv(), detached: true });
  let stdout = '';
  const waiters: Array<() => void> = [];
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString('utf8');
    for (const w of waiters.splice(0)) w();
  });
  child.stdin.on('error', () => {});
  const ended = new Promise<Outcome>((resolve) => child.on('close', (code, signal) => resolve({ stdout, code, signal })));
  try {
    for (const step of steps) {
      child.stdin.write(step.write);
      const want = step.expectLines;
      if (want !== undefined) {
        while (stdout.split('\n').length - 1 < want && child.exitCode === null) await Promise.race([new Promise<void>((r) => waiters.push(r)), ended]);
      }
    }
    if (opts.killAfterMs !== undefined) process.kill(-child.pid!, 'SIGKILL');
    else if (!opts.keepOpen) child.stdin.end();
    return await ended;
  } finally {
    cmd.release();
  }
}

const HANDSHAKE = '{"type":"handshake","protocol_version":"contextgraph/1.0"}\n';
const query = (id: string, goal = 'g') => JSON.stringify({ type: 'query', id, query: { goal, kinds: [], anchors: [], max_frames: 4, max_tokens: 1000 } }) + '\n';

/** The cases both ways are compared on: config, input, how the run ends. */
const CASES: Array<{ name: string; config: Record<string, unknown>; steps: Array<{ write: string; expectLines?: number }>; keepOpen?: boolean }> = [
  {
    name: 'handshake, one query, end of input',
    config: {},
    steps: [
      { write: HANDSHAKE, expectLines: 1 },
      { write: query('q1'), expectLines: 2 },
    ],
  },
  { name: 'a shutdown envelope', config: {}, steps: [{ write: HANDSHAKE, expectLines: 1 }, { write: '{"type":"shutdown"}\n' }], keepOpen: true },
  { name: 'a crash on the query (exit 3) with stdin still open', config: { onQuery: 'crash' }, steps: [{ write: HANDSHAKE, expectLines: 1 }, { write: query('q1') }], keepOpen: true },
  {
    name: 'not JSON, split lines and multibyte text across writes',
    config: { echoGoal: true },
    steps: [
      { write: 'not json\n', expectLines: 1 },
      { write: HANDSHAKE.slice(0, 10) },
      { write: HANDSHAKE.slice(10), expectLines: 2 },
      { write: query('q1', 'héllo — ✓').slice(0, 70) },
      { write: query('q1', 'héllo — ✓').slice(70), expectLines: 3 },
    ],
  },
  {
    name: 'an answer larger than a pipe buffer (100 kB frame; the node child takes its script on argv, capped near 128 KiB)',
    config: { serve: [{ id: 'big', content: 'x'.repeat(100_000) }] },
    steps: [
      { write: HANDSHAKE, expectLines: 1 },
      { write: query('q1'), expectLines: 2 },
    ],
  },
  {
    name: 'correlation, out-of-order held answers',
    config: { correlation: true, concurrent: true, echoGoal: true },
    steps: [
      { write: HANDSHAKE, expectLines: 1 },
      { write: query('a', 'slow held=600000') + query('b', 'fast'), expectLines: 3 },
    ],
  },
];

test('this machine starts scripted providers through the relay (bash with /dev/tcp is present)', async () => {
  const mode = await withMode(undefined, () => scriptedProviderMode());
  assert.equal(mode, 'relay', 'the relay probe failed on a machine with bash: see CGP_SCRIPTED_PROVIDERS=relay for why');
});

for (const c of CASES) {
  test(`relay and node children are indistinguishable: ${c.name}`, { timeout: 30_000 }, async () => {
    const run = (mode: 'node' | 'relay') =>
      withMode(mode, async () => {
        const record = join(DIR, `${mode}-${c.name.replace(/\W+/g, '_')}.ndjson`);
        const cmd = await scriptedCommand({ ...c.config, record });
        assert.equal(cmd.command.endsWith('bash'), mode === 'relay');
        const outcome = await drive(cmd, c.steps, c.keepOpen ? { keepOpen: true } : {});
        return { outcome, record: readFileSync(record, 'utf8') };
      });
    const viaNode = await run('node');
    const viaRelay = await run('relay');
    assert.equal(viaRelay.outcome.code, viaNode.outcome.code, 'the same exit code');
    assert.equal(viaRelay.outcome.signal, viaNode.outcome.signal);
    assert.equal(viaRelay.outcome.stdout, viaNode.outcome.stdout, 'the same bytes on stdout');
    assert.equal(viaRelay.record, viaNode.record, 'the same lines recorded as received');
  });
}

test('a relay the host kills ends its provider in this process (no answer is written after)', { timeout: 30_000 }, async () => {
  await withMode('relay', async () => {
    const cmd = await scriptedCommand({ onQuery: 'stall' });
    const outcome = await drive(cmd, [{ write: HANDSHAKE, expectLines: 1 }, { write: query('q1') }], { killAfterMs: 0 });
    assert.equal(outcome.signal, 'SIGKILL');
    assert.equal(outcome.stdout.split('\n').length - 1, 1, 'the ack only');
  });
});

test('a relay started by a host that passes its whole environment reads no startup file ($BASH_ENV included)', { timeout: 30_000 }, async () => {
  await withMode('relay', async () => {
    const rc = join(DIR, 'bash-env.sh');
    writeFileSync(rc, 'echo "a line from BASH_ENV"\n');
    const cmd = await scriptedCommand({});
    const outcome = await drive(cmd, [{ write: HANDSHAKE, expectLines: 1 }], { env: { ...minimalEnv(), BASH_ENV: rc, ENV: rc } });
    assert.equal(outcome.code, 0);
    assert.match(outcome.stdout, /^\{"type":"handshake_ack"[^\n]*\n$/, 'the ack alone on stdout');
  });
});

test('CGP_SCRIPTED_PROVIDERS: node gives the node command; anything else but relay is refused by name', async () => {
  await withMode('node', async () => {
    const cmd = await scriptedCommand({ name: 'x' });
    assert.deepEqual([cmd.command, cmd.args[0]], [process.execPath, SCRIPTED_PROVIDER]);
  });
  await withMode('fast' as 'node', async () => {
    await assert.rejects(scriptedCommand({}), /CGP_SCRIPTED_PROVIDERS="fast": expected "node" or "relay"/);
  });
});

test('the host suite gives every verdict the same with node children and with relay children; a misbehaving host is caught either way', { timeout: 240_000 }, async () => {
  const { runSuite } = await import('../../../../src/conformance/run/run-suite.js');
  const reportsDir = mkdtempSync(join(DIR, 'suite-'));
  const verdicts = (r: Awaited<ReturnType<typeof runSuite>>) => r.summary.scenarios.map((s) => `${s.uri}:${s.line} ${s.status}`).sort();
  const run = (mode: 'node' | 'relay', misbehave?: string) =>
    withMode(mode, () => runSuite({ side: 'host', reportName: `host-${mode}${misbehave ?? ''}`, reportsDir, progress: null, ...(misbehave ? { misbehave, tags: '@C6' } : {}) }));
  const viaNode = await run('node');
  const viaRelay = await run('relay');
  assert.equal(viaRelay.success, true, JSON.stringify(viaRelay.summary.scenarios.filter((s) => s.status !== 'passed').map((s) => [s.name, s.status, s.message])));
  assert.ok(viaRelay.summary.scenarios.length >= 60, `${viaRelay.summary.scenarios.length} scenarios`);
  assert.deepEqual(verdicts(viaRelay), verdicts(viaNode));
  assert.deepEqual(
    viaRelay.summary.ids.map((i) => `${i.id} ${i.status}`),
    viaNode.summary.ids.map((i) => `${i.id} ${i.status}`),
  );
  for (const mode of ['node', 'relay'] as const) {
    const bad = await run(mode, 'skip-consent-gate');
    assert.equal(bad.success, false, `skip-consent-gate caught with ${mode} children`);
    assert.match(bad.summary.scenarios.find((s) => s.status === 'failed')?.message ?? '', /^C6 violated/m);
  }
});
