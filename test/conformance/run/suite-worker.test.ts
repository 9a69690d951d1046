// The suite worker (src/conformance/run/suite-worker.ts): runs cross the pipe as one JSON line each way, one
// worker runs many suites, a usage error stays a usage error, and a run that hangs or a worker that dies is
// reported once, with the next run on a new worker.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SuiteWorker, SuiteWorkerPool, WorkerRunError, workerExecArgv } from '../../../src/conformance/run/suite-worker.js';

let dir: string;
let runner: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'cgp-suite-worker-'));
  runner = join(dir, 'runner.mjs');
  // a runner with run-suite.ts's contract whose behaviour each run's reportName picks
  writeFileSync(
    runner,
    [
      "import { ConfigError } from '" + new URL('../../../src/conformance/provider-suite/config.ts', import.meta.url).href + "';",
      'let runs = 0;',
      'export async function runSuite(o) {',
      '  runs++;',
      "  if (o.reportName === 'hang') await new Promise(() => {});",
      "  if (o.reportName === 'die') { o.progress.write('about to die\\n'); process.exit(7); }",
      "  if (o.reportName === 'usage') throw new ConfigError('the tag expression \"@X\" selects no provider scenario');",
      "  if (o.reportName === 'broken') throw new Error('a bug in the runner');",
      "  if (o.progress) o.progress.write('progress of ' + o.reportName + '\\n');",
      "  return { success: true, ran: true, messagesPath: o.reportName + '.ndjson', steps: o.steps, pid: process.pid, runs, summary: { ids: [{ id: 'B3', status: 'witnessed' }] } };",
      '}',
    ].join('\n'),
  );
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('SuiteWorker', () => {
  test('one worker runs suite after suite in one process, with only its side steps; the result crosses whole', async () => {
    const worker = new SuiteWorker({ runner });
    try {
      const a = (await worker.run({ side: 'provider', reportName: 'a' })) as unknown as Record<string, unknown>;
      const b = (await worker.run({ side: 'provider', reportName: 'b' })) as unknown as Record<string, unknown>;
      assert.equal(a.pid, b.pid);
      assert.equal(b.runs, 2);
      assert.equal(a.steps, 'side');
      assert.deepEqual(a.summary, { ids: [{ id: 'B3', status: 'witnessed' }] });
      assert.equal(b.messagesPath, 'b.ndjson');
    } finally {
      worker.close();
    }
  });

  test('a usage error stays one (usage: true); a runner bug is an error with its stack (usage: false); the worker goes on', async () => {
    const worker = new SuiteWorker({ runner });
    try {
      await assert.rejects(worker.run({ side: 'provider', reportName: 'usage' }), (e: unknown) => e instanceof WorkerRunError && e.usage && /selects no provider scenario/.test(e.message));
      await assert.rejects(worker.run({ side: 'provider', reportName: 'broken' }), (e: unknown) => e instanceof WorkerRunError && !e.usage && /a bug in the runner/.test(e.message));
      assert.equal(((await worker.run({ side: 'provider', reportName: 'after' })) as unknown as Record<string, unknown>).messagesPath, 'after.ndjson');
    } finally {
      worker.close();
    }
  });

  test('a worker that dies rejects its run, naming how it ended and quoting its stderr', async () => {
    const worker = new SuiteWorker({ runner });
    await assert.rejects(worker.run({ side: 'provider', reportName: 'die', progress: 'stderr' }), /ended \(exit code 7\) before its run finished: about to die/);
    assert.equal(worker.alive, false);
    await assert.rejects(worker.run({ side: 'provider', reportName: 'a' }), /ended/);
  });
});

describe('SuiteWorkerPool', () => {
  test('a run past its timeout has its worker killed and names the run; the next run gets a new worker', async () => {
    const pool = new SuiteWorkerPool({ runner, runTimeoutMs: 2000 });
    try {
      const first = (await pool.run({ side: 'provider', reportName: 'a' })) as unknown as Record<string, unknown>;
      await assert.rejects(pool.run({ side: 'provider', reportName: 'hang' }), /run hang did not finish within 2 s \(its worker was killed\)/);
      const next = (await pool.run({ side: 'provider', reportName: 'b' })) as unknown as Record<string, unknown>;
      assert.notEqual(next.pid, first.pid);
      assert.equal(next.runs, 1);
    } finally {
      pool.close();
    }
  });

  test('runs at once go to workers of their own, and an idle worker is used again', async () => {
    const pool = new SuiteWorkerPool({ runner });
    try {
      const [a, b] = (await Promise.all([pool.run({ side: 'provider', reportName: 'a' }), pool.run({ side: 'provider', reportName: 'b' })])) as unknown as Array<Record<string, unknown>>;
      assert.notEqual(a!.pid, b!.pid);
      const c = (await pool.run({ side: 'provider', reportName: 'c' })) as unknown as Record<string, unknown>;
      assert.ok([a!.pid, b!.pid].includes(c.pid));
      assert.equal(c.runs, 2);
    } finally {
      pool.close();
    }
  });
});

test("a worker keeps the loader flags and drops a CPU profile's, with their values", () => {
  assert.deepEqual(workerExecArgv(['--import', 'tsx', '--cpu-prof', '--cpu-prof-dir', '/tmp/p', '--cpu-prof-name=x.cpuprofile', '--cpu-prof-interval', '100']), ['--import', 'tsx']);
});
