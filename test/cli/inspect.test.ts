// `cgp-conformance inspect`: the ack and one sample query's frames, judging nothing — token_cost and
// content_digest are recomputed and shown, a wrong one says NO; over stdio and HTTP; exit 3 when the target
// never answers, 2 on a bad option.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bundledProviderCommand } from '../../src/conformance/provider-suite/config.js';
import { findPackageRoot } from '../../src/util/package-root.js';

const ROOT = findPackageRoot();
const BIN = join(ROOT, 'src', 'cli', 'bin.ts');
const bundled = bundledProviderCommand(ROOT);
const run = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', BIN, 'inspect', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });

describe('cgp-conformance inspect', () => {
  it('prints the ack and a frames table; --json carries the same', { timeout: 60_000 }, () => {
    const r = run(['--query', 'how does the fetcher retry?', '--kinds', 'doc', '--', bundled.command, ...bundled.args]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /provider {10}example-docs 0\.1\.0/);
    assert.match(r.stdout, /attester_keys\n {4}example-docs-test-ed25519-1 \(ed25519\)/);
    assert.match(r.stdout, /"kinds":\["doc"\]/);
    assert.match(r.stdout, /^id +kind +representation +token_cost +recomputes\? +digest recomputes\? +provenance +relations$/m);
    assert.match(r.stdout, /^frm_getting_started +doc +full +59 +yes +yes +1: file …\/getting-started\.md L1-5/m);
    assert.doesNotMatch(r.stdout, /^frm_next_delay/m, 'only doc frames were asked for');
    const j = run(['--json', '--', bundled.command, ...bundled.args]);
    const doc = JSON.parse(j.stdout) as { exit_code: number; ack: { provider: { name: string } }; frames: Array<{ token_cost_recomputes: boolean; content_digest_recomputes: boolean }> };
    assert.equal(doc.exit_code, 0);
    assert.equal(doc.ack.provider.name, 'example-docs');
    assert.ok(doc.frames.length > 0 && doc.frames.every((f) => f.token_cost_recomputes && f.content_digest_recomputes));
  });

  it('a wrong token_cost or content_digest shows as NO (and is not judged: exit 0)', { timeout: 60_000 }, () => {
    const cost = run(['--', bundled.command, ...bundled.args, '--misbehave', 'under-report-cost']);
    assert.equal(cost.status, 0, cost.stderr);
    assert.match(cost.stdout, /NO \(ceil\(bytes\/4\) = \d+\)/);
    const digest = run(['--', bundled.command, ...bundled.args, '--misbehave', 'content-digest-mismatch']);
    assert.match(digest.stdout, /^frm_\S+ +\S+ +full +\d+ +yes +NO /m);
  });

  it('over HTTP (loopback), and the exit codes 3 and 2', { timeout: 60_000 }, async () => {
    const server = spawn(bundled.command, [...bundled.args, '--http', '0'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = '';
        server.stderr.on('data', (c: Buffer) => {
          err += c.toString();
          const m = /http:\/\/127\.0\.0\.1:\d+\/\S*/.exec(err);
          if (m) resolve(m[0]);
        });
        server.on('exit', () => reject(new Error(`provider exited: ${err}`)));
      });
      const r = await new Promise<{ status: number | null; stdout: string }>((resolve) => {
        const c = spawn(process.execPath, ['--import', 'tsx', BIN, 'inspect', url], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
        let stdout = '';
        c.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        c.on('exit', (status) => resolve({ status, stdout }));
      });
      assert.equal(r.status, 0);
      assert.match(r.stdout, /frames reply \(\d+ ms\): \d+ frame\(s\)/);
    } finally {
      server.kill();
    }
    const silent = run(['--timeout', '500', '--', process.execPath, '-e', 'setInterval(() => {}, 1000)']);
    assert.equal(silent.status, 3);
    assert.match(silent.stdout, /problem: no handshake answer: TimeoutError: handshake timed out after 500 ms/);
    const bad = run(['--max-frames', '-1', '--', process.execPath]);
    assert.equal(bad.status, 2);
  });
});
