// The provider as real processes: stdio (the lean entry) and HTTP on an ephemeral loopback port (through the
// CLI command), answering the same way as in-process; clean shutdown; a few misbehaviours that only show
// as process behaviour (exit codes, hangs, multi-line output); the CLI's listing and usage errors.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { PROTOCOL_VERSION } from '../../src/protocol/index.js';
import { HttpConnection } from '../../src/transport/http-client.js';
import { StdioConnection } from '../../src/transport/stdio-client.js';
import { findPackageRoot } from '../../src/util/package-root.js';
import { createProvider } from '../../src/provider/core.js';
import { MISBEHAVIOURS } from '../../src/provider/misbehaviours.js';
import { runStdioProvider, startBundledHttpProvider } from '../../src/provider/serve.js';
import { corpus, queryEnvelope } from './script.js';

const ROOT = findPackageRoot();
const NODE = process.execPath;
const STDIO_ENTRY = ['--import', 'tsx', 'src/provider/main.ts'];
const CLI_ENTRY = ['--import', 'tsx', 'test/provider/cli-entry.ts', 'provider'];

/** The honest in-process answers every transport must reproduce. */
async function expected(envelope: object): Promise<unknown> {
  return (await createProvider({ corpus }).handle(envelope)).envelopes[0];
}

function spawnStdio(args: string[] = []): Promise<StdioConnection> {
  return StdioConnection.spawn(NODE, [...STDIO_ENTRY, ...args], { cwd: ROOT });
}

interface Exited {
  code: number | null;
  signal: NodeJS.Signals | null;
}

function exitOf(child: ChildProcess): Promise<Exited> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

/** Run the CLI entry to completion; collect stdout/stderr. */
async function runCli(args: string[], timeoutMs = 20_000): Promise<Exited & { stdout: string; stderr: string }> {
  const child = spawn(NODE, [...CLI_ENTRY, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const exit = await exitOf(child);
  clearTimeout(timer);
  return { ...exit, stdout, stderr };
}

/** Start `provider --http 0 …` and read the URL it announces on stderr. */
async function startHttpProcess(args: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(NODE, [...CLI_ENTRY, '--http', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL announced: ${stderr}`)), 20_000);
    child.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', () => reject(new Error(`exited before listening: ${stderr}`)));
  });
  return { child, url };
}

const HANDSHAKE = { type: 'handshake', protocol_version: PROTOCOL_VERSION };
const SAMPLE = queryEnvelope('q-1');
const KINDS = queryEnvelope('q-2', { kinds: ['snippet', 'symbol'], anchors: ['symbol:///example-docs/backoff.rs#next_delay'] });

describe('honest provider over real transports', { concurrency: true }, () => {
  it('stdio: answers like the in-process core, survives garbage, exits 0 promptly on shutdown', async () => {
    const conn = await spawnStdio();
    try {
      assert.deepEqual(await conn.handshake(), await expected(HANDSHAKE));
      assert.deepEqual(await conn.requestWithId(SAMPLE), await expected(SAMPLE));
      assert.deepEqual(await conn.requestWithId(KINDS), await expected(KINDS));
      await conn.sendRaw('this is not valid json {{{\n');
      const bad = await conn.next(5_000);
      assert.deepEqual([bad.type, bad.code], ['error', 'bad_request']);
      const verify = { type: 'verify', id: 'v-1', request: { frames: [{ provider_id: 'example-docs', frame_id: 'frm_install_legacy' }] } };
      const verified = await conn.requestWithId(verify);
      assert.deepEqual(verified, await expected(verify));
      const down = await conn.shutdown();
      assert.equal(down.clean, true, JSON.stringify(down));
      assert.equal(down.exitCode, 0);
      assert.ok(down.elapsedMs < 2_000, `${down.elapsedMs} ms`);
    } finally {
      await conn.close();
    }
  });

  it('HTTP (CLI on an ephemeral loopback port): same answers as stdio; shutdown ⇒ 204 and exit 0', async () => {
    const { child, url } = await startHttpProcess();
    const http = new HttpConnection(url);
    try {
      assert.deepEqual(await http.request(HANDSHAKE), await expected(HANDSHAKE));
      assert.deepEqual(await http.request(SAMPLE), await expected(SAMPLE));
      assert.deepEqual(await http.request(KINDS), await expected(KINDS));
      assert.equal(await http.request({ type: 'cgp-ping' }), null, 'an unknown notification gets 204');
      assert.equal(await http.request({ type: 'shutdown' }), null);
      const exit = await Promise.race([exitOf(child), new Promise<Exited>((r) => setTimeout(() => r({ code: -1, signal: null }), 2_000))]);
      assert.deepEqual(exit, { code: 0, signal: null });
    } finally {
      http.close();
      child.kill('SIGKILL');
    }
  });
});

describe('serve.ts in-process', () => {
  it('stdio loop: writes one line per envelope and resolves with the exit code', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let text = '';
    output.on('data', (c: Buffer) => (text += c.toString()));
    const done = runStdioProvider({ input, output }, createProvider({ corpus }));
    input.write(`${JSON.stringify(HANDSHAKE)}\nnot json\n${JSON.stringify(SAMPLE)}\n{"type":"shutdown"}\n`);
    assert.equal(await done, 0);
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    assert.deepEqual(
      lines.map((l) => l.type),
      ['handshake_ack', 'error', 'frames'],
    );
    assert.deepEqual(lines[2], await expected(SAMPLE));
  });

  it('stdio loop: end of input ends an honest provider with 0; a crash mode with 1', async () => {
    const input = new PassThrough();
    const done = runStdioProvider({ input, output: new PassThrough() }, createProvider({ corpus }));
    input.end(`${JSON.stringify(HANDSHAKE)}\n`);
    assert.equal(await done, 0);
    const crashIn = new PassThrough();
    const crashed = runStdioProvider({ input: crashIn, output: new PassThrough() }, createProvider({ corpus, misbehave: 'crash-on-query' }));
    crashIn.write(`${JSON.stringify(SAMPLE)}\n`);
    assert.equal(await crashed, 1);
  });

  it('HTTP server: stdio and HTTP give the same frames; hang leaves the request open', async () => {
    const running = await startBundledHttpProvider({ corpus });
    const http = new HttpConnection(running.handle.url);
    try {
      assert.ok(running.handle.url.startsWith('http://127.0.0.1:'));
      assert.deepEqual(await http.request(SAMPLE), await expected(SAMPLE));
      const garbage = await http.request('"just a string"');
      assert.deepEqual([garbage?.type, garbage?.code], ['error', 'bad_request']);
    } finally {
      http.close();
      await running.close();
    }
    const hanging = await startBundledHttpProvider({ corpus, misbehave: 'hang-on-query' });
    const slow = new HttpConnection(hanging.handle.url);
    try {
      await assert.rejects(slow.request(SAMPLE, 300), /timeout|timed out/i);
    } finally {
      slow.close();
      await hanging.close();
    }
  });
});

describe('misbehaviours that show as process behaviour (stdio)', { concurrency: true }, () => {
  it('crash-on-query exits 1 on a query', async () => {
    const conn = await spawnStdio(['--misbehave', 'crash-on-query']);
    try {
      await conn.handshake();
      await conn.send(SAMPLE);
      await assert.rejects(conn.next(5_000));
      const deadline = Date.now() + 2_000;
      while (conn.exitStatus === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal(conn.exitStatus?.exitCode, 1);
    } finally {
      await conn.close();
    }
  });

  it('ignore-shutdown has to be killed; exit-nonzero-on-shutdown exits 3', async () => {
    const [ignoring, nonzero] = await Promise.all([spawnStdio(['--misbehave', 'ignore-shutdown']), spawnStdio(['--misbehave', 'exit-nonzero-on-shutdown'])]);
    try {
      await Promise.all([ignoring.handshake(), nonzero.handshake()]);
      const [a, b] = await Promise.all([ignoring.shutdown(600), nonzero.shutdown()]);
      assert.deepEqual([a.killed, a.clean], [true, false]);
      assert.deepEqual([b.exitCode, b.clean, b.killed], [3, false, false]);
    } finally {
      await Promise.all([ignoring.close(), nonzero.close()]);
    }
  });

  it('hang-on-query never answers the query but still shuts down cleanly', async () => {
    const conn = await spawnStdio(['--misbehave', 'hang-on-query']);
    try {
      await conn.handshake();
      await assert.rejects(conn.requestWithId(SAMPLE, 400));
      const down = await conn.shutdown();
      assert.equal(down.clean, true);
    } finally {
      await conn.close();
    }
  });

  it('newline-in-envelope writes one envelope over several lines', async () => {
    const child = spawn(NODE, [...STDIO_ENTRY, '--misbehave', 'newline-in-envelope'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stdin!.end(`${JSON.stringify(HANDSHAKE)}\n${JSON.stringify({ type: 'shutdown' })}\n`);
    assert.deepEqual(await exitOf(child), { code: 0, signal: null });
    assert.ok(out.split('\n').length > 3, out);
    assert.equal((JSON.parse(out) as { type: string }).type, 'handshake_ack');
  });
});

describe('CLI: provider command', { concurrency: true }, () => {
  it('--list-misbehaviours --json prints exactly the manifest', async () => {
    const r = await runCli(['--list-misbehaviours', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), MISBEHAVIOURS);
  });

  it('--list-misbehaviours prints every mode with the ids it breaks and its description', async () => {
    const r = await runCli(['--list-misbehaviours']);
    assert.equal(r.code, 0, r.stderr);
    for (const m of MISBEHAVIOURS) {
      assert.ok(r.stdout.includes(`${m.mode} `) && r.stdout.includes(`breaks ${m.breaks.join(', ')}`), m.mode);
      assert.ok(r.stdout.includes(m.description), m.mode);
    }
  });

  it('an unknown --misbehave mode exits 2 and lists the valid modes; so does a bad port', async () => {
    const [bad, port] = await Promise.all([runCli(['--misbehave', 'no-such-mode']), runCli(['--http', 'eighty'])]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown misbehaviour mode "no-such-mode"/);
    for (const m of MISBEHAVIOURS) assert.ok(bad.stderr.includes(m.mode), m.mode);
    assert.equal(bad.stdout, '');
    assert.equal(port.code, 2);
    assert.match(port.stderr, /--http expects a port number/);
  });

  it('the lean entry rejects an unknown mode with exit 2 too', async () => {
    const child = spawn(NODE, [...STDIO_ENTRY, '--misbehave', 'nope'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    assert.equal((await exitOf(child)).code, 2);
    assert.match(stderr, /valid modes: .*crash-on-query/);
  });
});
