// How a column reaches its implementation (docs/matrix.md "How a column runs"): the single-target command's
// arguments for each kind of entry, and a URL entry whose start command is started first — on a free port
// filled in for ${PORT} — and stopped after; a start command that ends before its port opens is a column
// that says so.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readMatrixFile } from '../../../src/conformance/matrix/matrix-file.js';
import { columnArgs } from '../../../src/conformance/matrix/run-one.js';
import type { MatrixDoc } from '../../../src/conformance/matrix/types.js';
import { bundledProviderCommand } from '../../../src/conformance/provider-suite/config.js';
import { cli, ROOT, scratch, writeMatrix } from './helpers.js';

describe('matrix: reaching an implementation', () => {
  it('each kind of entry becomes the single-target command a user runs', () => {
    const dir = scratch('args');
    const file = writeMatrix(
      dir,
      'm.yml',
      `defaults: { timeout_ms: 5000 }
implementations:
  - { name: S, side: provider, stdio: "python3 p.py --stdio", tags: "@B4", baseline: known.yml, file_roots: [docs], retired_ids: [a, b], spawn_ahead: 1 }
  - { name: U, side: provider, url: "http://127.0.0.1:8711/" }
  - { name: C, side: host, cmd: "./my-host --cgp-control" }
  - { name: A, side: host, adapter: ./adapter.mjs }
  - { name: H, side: host, bundled: true, misbehave: skip-consent }
`,
    );
    const m = readMatrixFile(file);
    const [s, u, c, a, h] = m.implementations;
    const common = (slug: string) => ['--json', '--out', '/o', '--report-name', slug, '--timeout', '5000'];
    assert.deepEqual(columnArgs(s!, '/o'), ['stdio', ...common('s'), '--baseline', join(dir, 'known.yml'), '--tags', '@B4', '--', 'python3', 'p.py', '--stdio']);
    assert.deepEqual(s!.fileRoots, [join(dir, 'docs')]);
    assert.deepEqual(columnArgs(u!, '/o'), ['http', ...common('u'), 'http://127.0.0.1:8711/']);
    assert.deepEqual(columnArgs(c!, '/o'), ['host', ...common('c'), '--cmd', './my-host --cgp-control']);
    assert.deepEqual(columnArgs(a!, '/o'), ['host', ...common('a'), '--adapter', join(dir, 'adapter.mjs')]);
    assert.deepEqual(columnArgs(h!, '/o'), ['host', ...common('h'), '--misbehave', 'skip-consent']);
    assert.match(m.digest, /^sha256:[0-9a-f]{64}$/);
  });

  it('a URL with a start command: started on a free port, judged, stopped after; one that ends first says so', { timeout: 200_000 }, async () => {
    const dir = scratch('http');
    const b = bundledProviderCommand(ROOT);
    const provider = [b.command, ...b.args.map((x) => (x === 'tsx' ? import.meta.resolve('tsx') : x))].map((w) => JSON.stringify(w)).join(', ');
    const file = writeMatrix(
      dir,
      'm.yml',
      `implementations:
  - { name: over http, side: provider, url: "http://127.0.0.1:\${PORT}/", start: [${provider}, --http, "\${PORT}"], tags: "@B4 or @H1" }
  - { name: start fails, side: provider, url: "http://127.0.0.1:\${PORT}/", start: [node, -e, "process.stderr.write('no config file\\\\n'); process.exit(7)", "\${PORT}"] }
`,
    );
    const r = await cli(['matrix', file, '--out', join(dir, 'site')]);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(readFileSync(join(dir, 'site', 'matrix.json'), 'utf8')) as MatrixDoc;
    const [http, fails] = doc.implementations;
    assert.equal(http!.outcome, 'completed', http!.reason);
    assert.equal(http!.cells.B4!.status, 'witnessed');
    assert.equal(http!.target, 'http://127.0.0.1:${PORT}/', "matrix.json names the placeholder, not the run's port");
    const label = (JSON.parse(readFileSync(join(dir, 'site', 'runs', 'over-http', 'report.json'), 'utf8')) as { target: { label: string } }).target.label;
    const port = Number(/:(\d+)\//.exec(label)?.[1]);
    assert.ok(port > 0, `the run's own report names the port chosen: ${label}`);
    const open = await new Promise<boolean>((res) => {
      const s = connect({ port, host: '127.0.0.1' });
      s.once('connect', () => (s.destroy(), res(true)));
      s.once('error', () => res(false));
    });
    assert.equal(open, false, 'the provider started for the run was stopped after it');
    assert.equal(fails!.outcome, 'not-started');
    assert.match(fails!.reason ?? '', /the start command ended \(exit status 7\)/);
    assert.match(fails!.stderr_tail ?? '', /no config file/);
  });
});
