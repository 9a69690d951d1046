// Host control protocol, `sessions: "many"` (docs/host-control-protocol.md): a host that declares it gets
// the next session's init in the same process after a clean close; a session that broke is never reused;
// a host that does not declare it, or CGP_HOST_REUSE=0, gets a fresh process per session.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { controlledHostFactory, disposeWarmHosts } from '../../../../src/conformance/host-suite/control/control-client.js';
import type { HostUnderTestOptions } from '../../../../src/conformance/host-suite/adapter.js';

const DIR = mkdtempSync(join(tmpdir(), 'cgp-host-reuse-'));
// A scripted control host: its name is its pid and session count; `logText` stalls when asked (a broken
// session); every init after the first counts as a reuse. Declares sessions "many" unless ONE is set.
const FAKE = join(DIR, 'fake-control-host.mjs');
writeFileSync(
  FAKE,
  `import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
appendFileSync(${JSON.stringify(join(DIR, 'started.txt'))}, process.pid + '\\n');
let sessions = 0;
const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const req = JSON.parse(line);
  const reply = (result) => process.stdout.write(JSON.stringify({ type: 'control_result', seq: req.seq, ok: true, result }) + '\\n');
  if (req.op === 'init') { sessions++; return reply({ name: process.pid + '/' + sessions, ...(process.env.ONE ? {} : { sessions: 'many' }) }); }
  if (req.op === 'logText') return; // never answers: the session times out
  reply(null);
});
rl.on('close', () => { process.stderr.write('end of input after ' + sessions + ' session(s)\\n'); process.exit(0); });
`,
);
const OPTIONS: HostUnderTestOptions = { ledgerPath: join(DIR, 'ledger.ndjson'), handshakeTimeoutMs: 50, requestTimeoutMs: 50 };
const pidOf = (name: string): string => /"(\d+)\//.exec(name)?.[1] ?? `no pid in ${name}`;

/** Run f (and wait for it) with these variables set (undefined: unset), then put them back. */
async function withEnv<T>(env: Record<string, string | undefined>, f: () => T | Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
  try {
    return await f();
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}

after(() => disposeWarmHosts());

test('a host that declares sessions "many" serves sequential sessions in one process, and starts none ahead once it has said so', async () => {
  const started = () => readFileSync(join(DIR, 'started.txt'), 'utf8').trim().split('\n').length;
  writeFileSync(join(DIR, 'started.txt'), '');
  const factory = await withEnv({ CGP_HOST_WARM: '2', CGP_HOST_REUSE: undefined, ONE: undefined }, () => controlledHostFactory(`${process.execPath} ${FAKE}`));
  const first = await factory(OPTIONS);
  await first.close();
  const names = [first.name];
  for (let i = 0; i < 4; i++) {
    const next = await factory(OPTIONS);
    await next.close();
    names.push(next.name);
  }
  assert.deepEqual(new Set(names.map(pidOf)).size, 1, names.join(', '));
  assert.match(names[4]!, /\/5"/, 'the fifth init went to the same process');
  // the first session started its process and two ahead (before it had said sessions "many"), then none
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(started(), 3);
  // two at once: the second one needs a process of its own (one of those started ahead)
  const a = await factory(OPTIONS);
  const b = await factory(OPTIONS);
  assert.notEqual(pidOf(a.name), pidOf(b.name));
  await a.close();
  await b.close();
  assert.equal(started(), 3);
  await disposeWarmHosts();
});

test('a session that broke (an operation timed out) is not reused: the next session gets a new process', { timeout: 30_000 }, async () => {
  const factory = await withEnv({ CGP_HOST_WARM: '0', CGP_HOST_REUSE: undefined, ONE: undefined }, () => controlledHostFactory(`${process.execPath} ${FAKE}`));
  const broken = await factory(OPTIONS);
  // the fake never answers logText: the operation times out (its bound: 4 × (handshake + request) + 5 s)
  await assert.rejects(async () => broken.logText(), /timed out|timeout/i);
  await broken.close().catch(() => undefined);
  const next = await factory(OPTIONS);
  assert.notEqual(pidOf(next.name), pidOf(broken.name), 'a broken session was reused');
  assert.match(next.name, /\/1"/);
  await next.close();
  await disposeWarmHosts();
});

test('CGP_HOST_REUSE=0, or a host that does not declare sessions "many": every session is a fresh process', async () => {
  for (const env of [
    { CGP_HOST_REUSE: '0', ONE: undefined },
    { CGP_HOST_REUSE: undefined, ONE: '1' },
  ]) {
    // set for the whole sessions: the reuse setting is read at each init, ONE when a process starts
    await withEnv({ CGP_HOST_WARM: '0', ...env }, async () => {
      const factory = controlledHostFactory(`${process.execPath} ${FAKE}`);
      const one = await factory(OPTIONS);
      await one.close();
      const two = await factory(OPTIONS);
      await two.close();
      assert.notEqual(pidOf(two.name), pidOf(one.name), `${JSON.stringify(env)}: ${one.name} then ${two.name}`);
      assert.match(two.name, /\/1"/);
    });
  }
});

test('CGP_HOST_REUSE accepts 0 or 1 only', async () => {
  await assert.rejects(
    withEnv({ CGP_HOST_REUSE: 'yes' }, () => controlledHostFactory(`${process.execPath} ${FAKE}`)),
    /CGP_HOST_REUSE must be 0 or 1, got "yes"/,
  );
});
