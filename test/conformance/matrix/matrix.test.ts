// The conformance matrix through the real CLI (docs/matrix.md): a matrix of the bundled provider, one of its
// misbehaviour modes, the bundled host, a provider that cannot start and one that hangs — each a column with
// its verdict or the reason it has none, the others unaffected; a cell is the very status a single run of the
// same implementation gives; matrix.json valid against its published schema; the summary short; the page
// holding the red cell's finding and transcript.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildCoverage } from '../../../src/conformance/report/build.js';
import type { MatrixDoc } from '../../../src/conformance/matrix/types.js';
import { panelId } from '../../../src/conformance/matrix/render-page.js';
import { bundledProviderCommand } from '../../../src/conformance/provider-suite/config.js';
import { cli, ROOT, scratch, writeMatrix } from './helpers.js';

const addFormats = addFormatsModule as unknown as (ajv: InstanceType<typeof Ajv2020>) => void;
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
addFormats(ajv);
const validateDoc = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schema', 'matrix', 'matrix.schema.json'), 'utf8')) as object);

/** The process is gone, or dead and waiting to be reaped (a zombie: where PID 1 does not reap, it stays one). */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('cgp-conformance matrix: five implementations', () => {
  const dir = scratch('five');
  writeFileSync(
    join(dir, 'hang.mjs'),
    "import { appendFileSync } from 'node:fs';\nappendFileSync('hang.pids', `${process.pid}\\n`);\nprocess.stderr.write('hang.mjs: started, and will never answer\\n');\nsetInterval(() => {}, 1000);\n",
  );
  const file = writeMatrix(
    dir,
    'matrix.yml',
    `# five columns: two verdicts on the provider side, one on the host side, two runs that cannot conclude
implementations:
  - name: honest provider
    side: provider
    bundled: true
    language: TypeScript
    tags: "@B4 or @H1"
  - name: ignore-max-frames
    side: provider
    bundled: true
    misbehave: ignore-max-frames
    tags: "@B4 or @H1"
    baseline: known.yml
  - name: bundled host
    side: host
    bundled: true
    tags: "@C6"
  - name: cannot start
    side: provider
    stdio: ./no-such-provider --stdio
    timeout_ms: 2000
  - name: hangs
    side: provider
    stdio: [node, hang.mjs]
    timeout_ms: 60000
    run_timeout_ms: 4000
`,
  );
  writeFileSync(join(dir, 'known.yml'), '- id: B4\n  reason: "max_frames lands in 2.1"\n');
  const out = join(dir, 'site');
  let doc: MatrixDoc;

  it('runs every column: verdicts where the run concluded, the reason where it did not', { timeout: 300_000 }, async () => {
    const r = await cli(['matrix', file, '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    doc = JSON.parse(readFileSync(join(out, 'matrix.json'), 'utf8')) as MatrixDoc;
    assert.ok(validateDoc(doc), `matrix.json is valid against schema/matrix/matrix.schema.json: ${JSON.stringify(validateDoc.errors, null, 1)}`);
    assert.deepEqual(
      doc.implementations.map((c) => [c.name, c.outcome]),
      [
        ['honest provider', 'completed'],
        ['ignore-max-frames', 'completed'],
        ['bundled host', 'completed'],
        ['cannot start', 'never-answered'],
        ['hangs', 'hung'],
      ],
    );
    const [honest, imf, host, cannot, hangs] = doc.implementations;
    assert.equal(honest!.cells.B4!.status, 'witnessed');
    assert.equal(honest!.exit_code, 0);
    assert.equal(imf!.cells.B4!.status, 'failed');
    assert.equal(imf!.exit_code, 0, 'its baseline lists B4: the run exits 0, as the single run does');
    assert.equal(imf!.cells.B4!.known, 'max_frames lands in 2.1', 'the cell stays failed, marked known');
    assert.match(imf!.cells.B4!.findings![0]!.message, /^B4 violated/);
    assert.equal(imf!.cells.H1!.status, 'witnessed', 'the misbehaviour breaks B4 only');
    assert.ok(imf!.score!.must_met < honest!.score!.must_met, 'the score counts the failed MUST');
    assert.equal(honest!.version, '0.1.0', 'the version from the handshake_ack');
    assert.equal(host!.cells.C6!.status, 'witnessed');
    assert.equal(host!.cells.B4!.status, 'not-applicable');
    assert.match(host!.cells.B4!.reason ?? '', /target is a host/);
    assert.equal(cannot!.exit_code, 3);
    assert.match(cannot!.reason ?? '', /never answered the handshake.*no-such-provider/);
    assert.equal(cannot!.score, null);
    assert.equal(hangs!.exit_code, null, 'a hung run was stopped: no exit code of its own');
    assert.match(hangs!.reason ?? '', /no result within 4000 ms/);
    assert.ok(
      Object.values(hangs!.cells).every((c) => c.status === 'unverified'),
      'a run without a verdict proves nothing either way',
    );
    const pids = readFileSync(join(dir, 'hang.pids'), 'utf8').trim().split('\n').map(Number);
    assert.ok(pids.length > 0);
    for (const pid of pids) assert.ok(gone(pid), `the hung run's provider ${pid} was stopped with it`);
    for (const c of [honest!, imf!, host!]) {
      assert.ok(existsSync(join(out, c.files.page!)), `${c.name}: its coverage page`);
      assert.ok(existsSync(join(out, c.files.junit!)), `${c.name}: its JUnit file`);
    }
    for (const c of doc.implementations) assert.match(readFileSync(join(out, c.files.badge!), 'utf8'), /^<svg /, `${c.name}: a badge`);
    // progress names each column as it finishes
    assert.match(r.stderr, /\[5\/5\]/);
  });

  it('a cell is the status a single run of the same implementation gives', { timeout: 120_000 }, async () => {
    const single = join(dir, 'single');
    const b = bundledProviderCommand(ROOT);
    const r = await cli(['stdio', '--tags', '@B4 or @H1', '--json', '--out', single, '--report-name', 'one', '--', b.command, ...b.args, '--misbehave', 'ignore-max-frames']);
    assert.equal(r.code, 1, r.stderr);
    const coverage = buildCoverage({ messages: [join(single, 'one.messages.ndjson')], target: 'x', side: 'provider' });
    const status = (s: string) => (s === 'unwitnessed' ? 'unverified' : s);
    const imf = doc.implementations[1]!;
    for (const e of [...coverage.anchors, ...coverage.rules]) assert.equal(imf.cells[e.id]!.status, status(e.status), e.id);
  });

  it("the summary fits a pull-request comment; the page holds the red cell's finding and transcript", () => {
    const summary = readFileSync(join(out, 'summary.md'), 'utf8');
    assert.ok(summary.split('\n').length <= 40 && summary.length < 65_536, `summary.md is short (${summary.split('\n').length} lines)`);
    assert.match(summary, /\| ignore-max-frames \| provider \| 0\.1\.0 \| \d+\/\d+ \| 1 \|/);
    assert.match(summary, /- ignore-max-frames: B4 \(known\)/);
    assert.match(summary, /- hangs: no result within 4000 ms/);
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    assert.doesNotMatch(html, /<link|src="https?:|@import|url\(/i, 'no external asset');
    const at = html.indexOf(`id="${panelId('ignore-max-frames', 'B4')}"`);
    assert.ok(at > 0, 'the red cell has its panel');
    const panel = html.slice(at, html.indexOf('</section>', at));
    assert.match(panel, /B4 violated/);
    assert.match(panel, /Known failure.*max_frames lands in 2\.1/);
    assert.match(panel, /Wire transcript/);
    assert.match(panel, /runs\/ignore-max-frames\/coverage\.html#B4/);
    assert.match(html, new RegExp(`href="#${panelId('ignore-max-frames', 'B4')}"`), 'the cell links to it');
    assert.match(html, /never-answered \(exit 3\)/);
  });
});

describe('cgp-conformance matrix: usage errors', () => {
  it('a matrix file that is wrong is one line naming what is wrong, exit 2', { timeout: 60_000 }, async () => {
    const dir = scratch('bad');
    const cases: Array<[string, RegExp]> = [
      ['implementations:\n  - name: a\n    side: provider\n', /exactly one of stdio, url, cmd, adapter, bundled \(got none\)/],
      ['implementations:\n  - name: a\n    side: provider\n    bundled: true\n  - name: a\n    side: host\n    bundled: true\n', /the name is used twice/],
      ['implementations:\n  - name: a\n    side: host\n    stdio: x\n', /stdio reaches a provider/],
      ['implementations:\n  - name: a\n    side: provider\n    bundled: true\n    colour: red\n', /implementation 1: must NOT have additional properties \(colour\)/],
      ['implementations: [\n', /is not valid YAML/],
    ];
    for (const [i, [text, re]] of cases.entries()) {
      const r = await cli(['matrix', writeMatrix(dir, `m${i}.yml`, text), '--out', join(dir, `o${i}`)]);
      assert.equal(r.code, 2, `case ${i}: ${r.stderr}`);
      assert.match(r.stderr, re, `case ${i}`);
      assert.equal(r.stderr.trim().split('\n').length, 1, `case ${i}: one line`);
    }
    const r = await cli(['matrix', join(dir, 'm0.yml'), '--shard', '3/2']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--shard expects i\/n/);
  });
});
