// The web inspector's server without a browser: loopback only with the per-run token required on every
// request (refusals proven), the page going away (or Ctrl-C) stopping it with no provider or suite process
// left behind, and a provider that dies, stalls or prints garbage shown as such, every read bounded.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { bundledProviderCommand } from '../../../../src/conformance/provider-suite/config.js';
import { buildQuery, parseTargetLine, replayFile, splitCommandLine, startInspector, targetLine, type Inspector } from '../../../../src/conformance/inspect/web/server.js';
import { findPackageRoot } from '../../../../src/util/package-root.js';

const ROOT = findPackageRoot();
const bundled = bundledProviderCommand(ROOT);
const tmp = mkdtempSync(join(tmpdir(), 'cgp-inspector-test-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

interface Reply {
  status: number;
  body: string;
  headers: IncomingMessage['headers'];
}

function call(port: number, method: string, path: string, opts: { headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: opts.headers ?? {}, timeout: 20_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within 20 s`)));
    req.on('error', reject);
    req.end(opts.body);
  });
}

const post = (ins: Inspector, path: string, body: unknown) => call(ins.port, 'POST', path, { headers: { 'x-cgp-token': ins.token, 'content-type': 'application/json' }, body: JSON.stringify(body) });

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(what: string, cond: () => boolean, ms = 15_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) assert.fail(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Processes whose command line contains `marker` (but `except`: the inspector itself names it in its own). */
function processesWith(marker: string, except?: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(d) || Number(d) === except) continue;
    try {
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(marker)) out.push(Number(d));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

describe('inspect --web: loopback and the per-run token', () => {
  it('refuses every request without the token, with another Host, or a cross-origin POST', { timeout: 60_000 }, async () => {
    const ins = await startInspector({ target: { kind: 'stdio', command: bundled.command, args: bundled.args }, timeoutMs: 5_000 });
    try {
      assert.match(ins.url, /^http:\/\/127\.0\.0\.1:[0-9]+\/\?token=[A-Za-z0-9_-]{32}$/, 'bound to 127.0.0.1, token in the URL');
      for (const path of ['/', '/assets/inspector.js', '/events', '/api/state', '/api/replay.ndjson', '/api/explain?id=B4']) {
        const r = await call(ins.port, 'GET', path);
        assert.equal(r.status, 403, `GET ${path} without the token is refused`);
        assert.match(r.body, /requires its per-run token/);
        assert.equal((await call(ins.port, 'GET', `${path}${path.includes('?') ? '&' : '?'}token=wrong-${ins.token.slice(6)}`)).status, 403, `GET ${path} with a wrong token is refused`);
      }
      const noToken = await call(ins.port, 'POST', '/api/query', { headers: { 'content-type': 'application/json' }, body: '{"goal":"x","max_frames":1,"max_tokens":9}' });
      assert.equal(noToken.status, 403, 'POST without the token is refused');
      const queryToken = await call(ins.port, 'POST', `/api/query?token=${ins.token}`, { headers: { 'content-type': 'application/json' }, body: '{"goal":"x","max_frames":1,"max_tokens":9}' });
      assert.equal(queryToken.status, 403, 'a POST must carry the token in its header, not the URL');
      assert.equal((await call(ins.port, 'GET', `/?token=${ins.token}`, { headers: { host: `evil.example:${ins.port}` } })).status, 403, 'another Host name is refused (DNS rebinding)');
      const cross = await call(ins.port, 'POST', '/api/stop', { headers: { 'x-cgp-token': ins.token, origin: 'http://evil.example' } });
      assert.equal(cross.status, 403, 'a cross-origin POST is refused');
      const state = JSON.parse((await call(ins.port, 'GET', '/api/state', { headers: { 'x-cgp-token': ins.token } })).body) as { peer: { state: string }; wire: number };
      assert.equal(state.peer.state, 'ready', 'no refused request reached the provider');
      assert.equal(state.wire, 2, 'only the handshake and its ack crossed the wire');

      const page = await call(ins.port, 'GET', `/?token=${ins.token}`);
      assert.equal(page.status, 200);
      assert.match(String(page.headers['content-security-policy'] ?? ''), /default-src 'self'/);
      assert.doesNotMatch(page.body, /https?:\/\/(?!127\.0\.0\.1)/, 'nothing on the page comes from elsewhere');
      assert.equal((await call(ins.port, 'GET', `/assets/inspector.css?token=${ins.token}`)).status, 200, 'assets load with the token');
    } finally {
      await ins.close('test over');
    }
  });
});

describe('inspect --web: the server stops with the page, leaving no process behind', () => {
  const started: Array<ReturnType<typeof spawn>> = [];
  after(() => {
    for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });
  function startCli(target: string[]): Promise<{ child: ReturnType<typeof spawn>; url: URL; out: () => string }> {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'bin.ts'), 'inspect', '--web', '--timeout', '10000', '--', ...target], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CGP_PROVIDER: '', CGP_PROVIDER_URL: '', CGP_MISBEHAVE: '' },
    });
    started.push(child);
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL within 30 s:\n${out}`)), 30_000);
      const check = setInterval(() => {
        const m = /http:\/\/127\.0\.0\.1:[0-9]+\/\?token=\S+/.exec(out);
        if (m) {
          clearInterval(check);
          clearTimeout(timer);
          resolve({ child, url: new URL(m[0]), out: () => out });
        }
      }, 50);
      child.once('exit', () => {
        clearInterval(check);
        clearTimeout(timer);
        reject(new Error(`the inspector exited early:\n${out}`));
      });
    });
  }

  // a marker in the provider's command line (a symlink to the bundled provider) finds every process the
  // inspector or its suite run started, wherever it was reparented
  // (the one-file build when `npm run build` made it: a cold tsx start of the provider is slow on a busy machine)
  function markedProvider(marker: string): string[] {
    const bundle = join(ROOT, 'dist', 'bundle', 'provider.cjs');
    const link = join(tmp, `${marker}.${existsSync(bundle) ? 'cjs' : 'ts'}`);
    symlinkSync(existsSync(bundle) ? bundle : join(ROOT, 'src', 'provider', 'main.ts'), link);
    return existsSync(bundle) ? [process.execPath, link] : [process.execPath, '--import', 'tsx', link];
  }

  it('closing the page (its event stream) stops the server and the provider', { timeout: 90_000 }, async () => {
    const marker = `cgp-inspector-orphan-a-${process.pid}`;
    const { child, url, out } = await startCli(markedProvider(marker));
    const token = url.searchParams.get('token')!;
    const state = JSON.parse((await call(Number(url.port), 'GET', `/api/state?token=${token}`)).body) as { pid: number; peer: unknown };
    assert.ok(alive(state.pid), `the provider runs while the page is open: ${JSON.stringify(state.peer)}`);
    assert.deepEqual(processesWith(marker, child.pid), [state.pid], 'the provider is the one process the inspector started');
    // a page: its event stream, then it goes away
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: Number(url.port), path: `/events?token=${token}` }, (res) => {
        assert.equal(res.statusCode, 200);
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (e) => (String(e).includes('socket hang up') ? resolve() : reject(e)));
      req.end();
    });
    const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('still running'), 20_000))]);
    assert.equal(code, 0, `the inspector stops on its own once the page is gone\n${out()}`);
    assert.match(out(), /stopped \(the page was closed\)/);
    await until('the provider is gone', () => !alive(state.pid));
    assert.deepEqual(processesWith(marker), [], 'no process of the inspector is left');
  });

  it('Ctrl-C during a suite run stops the server, the suite and every provider it spawned', { timeout: 120_000 }, async () => {
    const marker = `cgp-inspector-orphan-b-${process.pid}`;
    const { child, url, out } = await startCli([...markedProvider(marker), '--misbehave', 'hang-on-query']);
    const port = Number(url.port);
    const token = url.searchParams.get('token')!;
    const started = JSON.parse((await call(port, 'POST', '/api/suite', { headers: { 'x-cgp-token': token, 'content-type': 'application/json' }, body: '{}' })).body) as { pid: number };
    assert.ok(alive(started.pid), 'the suite runs in a process of its own');
    // the suite connects to the (hanging) target: more than the inspector's own provider carries the marker
    await until('the suite spawned its providers', () => processesWith(marker, child.pid).length >= 2, 30_000);
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGINT');
    const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('still running'), 20_000))]);
    assert.equal(code, 0, `Ctrl-C stops the inspector\n${out()}`);
    assert.match(out(), /stopped \(SIGINT received\)/);
    await until('the suite process is gone', () => !alive(started.pid));
    await until(`no process with ${marker} is left (${processesWith(marker).join(', ')})`, () => processesWith(marker).length === 0);
  });
});

describe('inspect --web: a provider that dies, stalls or prints garbage', () => {
  const fake = join(tmp, 'fake-provider.mjs');
  writeFileSync(
    fake,
    `import { createInterface } from 'node:readline';
const mode = process.argv[2];
const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.type === 'handshake') {
    process.stdout.write(JSON.stringify({ type: 'handshake_ack', protocol_version: 'contextgraph/1.0', provider: { name: 'fake', version: '1', data_flow: { reads: true, writes: false, egress: false, egress_scopes: ['internet'] } }, capabilities: {} }) + '\\n');
    return;
  }
  if (mode === 'die') { process.stderr.write('fake provider: giving up on purpose\\n'); process.exit(3); }
  if (mode === 'garbage') process.stdout.write('this is not json \\x01\\n');
  // stall: never answer
});
`,
  );
  const open = (mode: string) => startInspector({ target: { kind: 'stdio', command: process.execPath, args: [fake, mode] }, timeoutMs: 1_500 });
  const query = { goal: 'x', max_frames: '1', max_tokens: '100', kinds: [] };

  it('dies: the exit status and the stderr tail are shown; the contradiction C5 is flagged at the handshake', { timeout: 30_000 }, async () => {
    const ins = await open('die');
    try {
      const page = (await call(ins.port, 'GET', `/?token=${ins.token}`)).body;
      assert.match(page, /class="banner bad contradiction" data-anchor="C5"/, 'egress false with an off-machine scope is flagged (C5)');
      const r = await post(ins, '/api/query', query);
      assert.equal(r.status, 200);
      const { html, state } = JSON.parse(r.body) as { html: string; state: { state: string; exit: { exitCode: number } } };
      assert.equal(state.state, 'exited');
      assert.equal(state.exit.exitCode, 3);
      assert.match(html, /exit status: <code>3<\/code>/);
      assert.match(html, /fake provider: giving up on purpose/);
      assert.match(html, /no answer to the query/);
    } finally {
      await ins.close('test over');
    }
  });

  it('cannot start: the page says why, and a reconnect with a good command line recovers', { timeout: 30_000 }, async () => {
    const ins = await startInspector({ target: { kind: 'stdio', command: join(tmp, 'no-such-provider'), args: [] }, timeoutMs: 5_000 });
    try {
      const page = (await call(ins.port, 'GET', `/?token=${ins.token}`)).body;
      assert.match(page, /<strong>unreachable<\/strong>: could not start or reach the target: SpawnError/);
      const r = JSON.parse((await post(ins, '/api/connect', { target: `${process.execPath} ${fake} garbage` })).body) as { state: { state: string } };
      assert.equal(r.state.state, 'ready', 'the new command line connects');
    } finally {
      await ins.close('test over');
    }
  });

  it('stalls: the read times out and names what was outstanding', { timeout: 30_000 }, async () => {
    const ins = await open('stall');
    try {
      const t0 = Date.now();
      const { html, state } = JSON.parse((await post(ins, '/api/query', query)).body) as { html: string; state: { state: string } };
      assert.ok(Date.now() - t0 < 10_000, 'bounded by the timeout');
      assert.equal(state.state, 'stalled');
      assert.match(html, /no answer to the query \(timeout 1500 ms\)/);
    } finally {
      await ins.close('test over');
    }
  });

  it('garbage: the offending bytes are shown, with the framing finding', { timeout: 30_000 }, async () => {
    const ins = await open('garbage');
    try {
      const { html } = JSON.parse((await post(ins, '/api/query', query)).body) as { html: string };
      assert.match(html, /1 line\(s\) that are not envelopes/);
      assert.match(html, /this is not json \\u0001/);
      assert.match(html, /data-anchor="S2-wire-shape"/);
    } finally {
      await ins.close('test over');
    }
  });
});

describe('inspect --web: the frames view judges as the suite does', () => {
  const open = (mode: string) => startInspector({ target: { kind: 'stdio', command: bundled.command, args: [...bundled.args, '--misbehave', mode] }, timeoutMs: 10_000 });
  const query = { goal: 'retry policy', max_frames: '3', max_tokens: '4096', kinds: [] };

  it('an attestation under an unknown algorithm is uncheckable (F8), its frame kept and shown (F9)', { timeout: 60_000 }, async () => {
    const ins = await open('unknown-attestation-algorithm');
    try {
      const { html } = JSON.parse((await post(ins, '/api/query', query)).body) as { html: string };
      const rows = html.match(/<tr class="frame(?: has-finding)?" data-index/g) ?? [];
      assert.ok(rows.length >= 1, 'the frames are shown');
      assert.equal((html.match(/class="verdict v-uncheckable"/g) ?? []).length, rows.length, 'every frame is uncheckable, none attested');
      assert.match(html, /F9: treated as unattested, never dropped/);
    } finally {
      await ins.close('test over');
    }
  });

  it('a lying token_cost shows beside ceil(bytes/4), with B3 and B1 inline', { timeout: 60_000 }, async () => {
    const ins = await open('lying-costs');
    try {
      const { html } = JSON.parse((await post(ins, '/api/query', query)).body) as { html: string };
      assert.match(html, /99999 <span class="vs">ceil\([0-9]+\/4\) = [0-9]+<\/span> <span class="bad">B3 ✗<\/span>/);
      assert.match(html, /data-anchor="B3"/);
      assert.match(html, /<div class="budget over" data-anchor="B1">/);
    } finally {
      await ins.close('test over');
    }
  });
});

describe('inspect --web: pure parts', () => {
  it('command lines, the query form and the replay file', () => {
    assert.deepEqual(splitCommandLine(`node 'a b.js' --x "c \\"d\\"" e\\ f`), ['node', 'a b.js', '--x', 'c "d"', 'e f']);
    const t = parseTargetLine(`node 'my provider.js' --misbehave ignore-max-frames`);
    assert.deepEqual(t, { kind: 'stdio', command: 'node', args: ['my provider.js', '--misbehave', 'ignore-max-frames'] });
    assert.equal(targetLine(t), `node 'my provider.js' --misbehave ignore-max-frames`);
    assert.deepEqual(parseTargetLine(' http://127.0.0.1:8080/cgp '), { kind: 'http', url: 'http://127.0.0.1:8080/cgp' });
    const caps = { embeddings_fingerprint: 'm/2/l2' };
    assert.deepEqual(buildQuery({ goal: 'g', max_frames: '1', max_tokens: '10', kinds: ['doc'], representation_preferences: ['compact'] }, caps), {
      type: 'query',
      query: { goal: 'g', query_text: 'g', kinds: ['doc'], anchors: [], max_frames: 1, max_tokens: 10, representation_preferences: ['compact'] },
    });
    assert.throws(() => buildQuery({ goal: 'g', max_frames: '1', max_tokens: '10', embedding: '[1,2]', embedding_fingerprint: 'm/2' }, caps), /E1: your fingerprint "m\/2" is not exactly/);
    assert.deepEqual((buildQuery({ goal: 'g', max_frames: '1', max_tokens: '10', embedding: '[1,2]', embedding_fingerprint: 'm/2/l2' }, caps).query as { embedding: number[] }).embedding, [1, 2]);
    assert.throws(() => buildQuery({ goal: 'g', max_frames: '-1', max_tokens: '10' }, caps), /max_frames must be a non-negative integer/);
    const at = '2026-01-01T00:00:00.000Z';
    const wire = [
      { seq: 1, direction: 'out' as const, line: '{"type":"handshake","protocol_version":"contextgraph/1.0"}', at, connection: 2 },
      { seq: 2, direction: 'in' as const, line: '{"type":"handshake_ack"}', at, connection: 2 },
      { seq: 3, direction: 'out' as const, line: '{"type":"verify","id":"inspect-2","request":{"frames":[]}}', at, connection: 2 },
      { seq: 4, direction: 'out' as const, line: '{"type":"query","id":"old"}', at, connection: 1 },
    ];
    const r = replayFile(wire, 2);
    assert.equal(r.appendedProbe, true, 'a liveness probe is appended after a verify');
    const lines = r.text.trimEnd().split('\n');
    assert.equal(lines.length, 3);
    assert.match(lines[0]!, /"handshake"/);
    assert.match(lines[2]!, /"type":"query","id":"inspector-replay-probe"/);
  });
});
