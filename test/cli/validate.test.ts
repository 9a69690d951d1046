// `cgp-conformance validate`, driven as a real process (the bin under tsx).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SHARED = '../shared';
const haveShared = existsSync(join(SHARED, 'reference-examples'));
const EXTERNAL = 'external vectors not run: ../shared is absent';

function cli(args: string[], input?: string) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', ...args], { input, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface JsonReport {
  files: { findings: { id: string; severity: string; pointer: string }[] }[];
  summary: { errors: number; warnings: number; messages: number };
}
const json = (stdout: string) => JSON.parse(stdout) as JsonReport;
const pairs = (r: JsonReport) => r.files.flatMap((f) => f.findings.map((x) => `${x.severity} ${x.id} ${x.pointer}`)).sort();

test('full-stdio-session.ndjson: exit 0, its placeholder digests are S6.3-content-digest warnings', (t) => {
  if (!haveShared) return t.skip(EXTERNAL);
  const r = cli(['validate', '--json', join(SHARED, 'reference-examples/full-stdio-session.ndjson')]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(pairs(json(r.stdout)), ['warning S6.3-content-digest /result/frames/0/content_digest', 'warning S6.3-content-digest /result/frames/1/content_digest']);
});

test('reference-messages.json: exactly its real defects (D1/V4 digest grammar, B3 on the compact frame)', (t) => {
  if (!haveShared) return t.skip(EXTERNAL);
  const r = cli(['validate', '--json', join(SHARED, 'reference-examples/reference-messages.json')]);
  assert.equal(r.code, 1);
  assert.deepEqual(pairs(json(r.stdout)), [
    'error B3 /11/result/frames/0/token_cost',
    'error D1 /11/result/frames/0/content_digest',
    'error D1 /4/result/frames/0/content_digest',
    'error D1 /4/result/frames/1/content_digest',
    'error D1 /5/request/frames/0/content_digest',
    'error D1 /5/request/frames/1/content_digest',
    'error D1 /6/response/verdicts/0/frame/content_digest',
    'error D1 /6/response/verdicts/1/frame/content_digest',
    'error V4 /6/response/verdicts/1/replacement_digest',
  ]);
});

test('every lifecycle example validates and its record_hash recomputes', (t) => {
  if (!haveShared) return t.skip(EXTERNAL);
  const names = ['context_use', 'directive', 'evidence', 'knowledge', 'memory', 'observation'];
  const r = cli(['validate', '--json', ...names.map((n) => join(SHARED, 'lifecycle-examples', `${n}.json`))]);
  assert.equal(r.code, 0, r.stdout);
  assert.deepEqual(pairs(json(r.stdout)), []);
  assert.equal(json(r.stdout).summary.messages, 6);
});

test('a tampered lifecycle record fails LH1 (record_hash)', (t) => {
  if (!haveShared) return t.skip(EXTERNAL);
  const dir = mkdtempSync(join(tmpdir(), 'cgp-validate-'));
  const rec = JSON.parse(spawnSync('cat', [join(SHARED, 'lifecycle-examples/observation.json')], { encoding: 'utf8' }).stdout);
  rec.statement += '!';
  writeFileSync(join(dir, 'rec.json'), JSON.stringify(rec));
  const r = cli(['validate', '--json', join(dir, 'rec.json')]);
  assert.equal(r.code, 1);
  assert.deepEqual(pairs(json(r.stdout)), ['error LH1 /record_hash']);
});

test('the bundled example session is clean', () => {
  const r = cli(['validate', 'examples/session.ndjson']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /7 message\(s\): 0 error\(s\), 0 warning\(s\)/);
});

const ack = {
  type: 'handshake_ack',
  protocol_version: 'contextgraph/1.0',
  provider: { name: 'p', version: '1', data_flow: { reads: true, writes: false, egress: false } },
  capabilities: { query: { kinds: ['doc'] } },
};
const frame = {
  id: 'f1',
  kind: 'doc',
  title: 't',
  content: 'abcd',
  score: 0.5,
  token_cost: 1,
  citation_label: 'c',
  content_digest: 'sha256:88d4266fd4e6338d13b845fcf289579d209c897823b9217da3e161936f031589',
};

test('U1: an unknown member fails the strict lint but passes the interop profile', () => {
  const line = JSON.stringify({ ...ack, future_member: { x: 1 } });
  const strict = cli(['validate', '--json', '-'], line);
  assert.equal(strict.code, 1);
  assert.deepEqual(pairs(json(strict.stdout)), ['error S13-authoring-strict /future_member']);
  const interop = cli(['validate', '--json', '--profile', 'interop', '-'], line);
  assert.equal(interop.code, 0, interop.stdout);
});

test('U2: an unknown frame kind fails the strict lint but passes the interop profile', () => {
  const line = JSON.stringify({ type: 'frames', result: { frames: [{ ...frame, kind: 'diagram' }], truncated: false } });
  const strict = cli(['validate', '--json', '-'], line);
  assert.equal(strict.code, 1);
  assert.ok(
    pairs(json(strict.stdout)).some((p) => p.endsWith('/result/frames/0/kind')),
    strict.stdout,
  );
  const interop = cli(['validate', '--json', '--profile', 'interop', '-'], line);
  assert.equal(interop.code, 0, interop.stdout);
});

test('NDJSON with a line that is not JSON reports S2-wire-shape on that line', () => {
  const r = cli(['validate', '-'], `${JSON.stringify(ack)}\nnot json {{\n`);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /-:2 +ERROR S2-wire-shape/);
});

test('a B3 violation names the anchor, seen and required', () => {
  const r = cli(['validate', '-'], JSON.stringify({ type: 'frames', result: { frames: [{ ...frame, token_cost: 9 }], truncated: false } }));
  assert.equal(r.code, 1);
  assert.match(r.stdout, /B3 violated: frame "f1" declares token_cost 9, content is 4 bytes → ceil\(4\/4\) = 1/);
});

test('warnings alone exit 0', () => {
  const r = cli(['validate', '-'], JSON.stringify({ type: 'frames', result: { frames: [{ ...frame, content_digest: `sha256:${'0'.repeat(64)}` }], truncated: false } }));
  assert.equal(r.code, 0, r.stdout);
  assert.match(r.stdout, /WARN +S6\.3-content-digest/);
});

test('unreadable input exits 2; a bad profile exits 2; --json writes only JSON', () => {
  assert.equal(cli(['validate', '/nonexistent/file.json']).code, 2);
  assert.equal(cli(['validate', '-'], 'this is not json at all').code, 2);
  assert.equal(cli(['validate', '-'], '').code, 2);
  assert.equal(cli(['validate', '--profile', 'loose', 'examples/session.ndjson']).code, 2);
  assert.equal(cli(['validate']).code, 2);
  const r = cli(['validate', '--json', 'examples/session.ndjson']);
  assert.doesNotThrow(() => JSON.parse(r.stdout));
});

test('the installed bin runs (dist built by `prepare`, executable)', (t) => {
  if (!existsSync('dist/src/cli/bin.js')) return t.skip('dist/ not built: run `npm run build` (npm ci builds it through `prepare`)');
  const r = spawnSync('dist/src/cli/bin.js', ['validate', 'examples/session.ndjson'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.error, undefined, String(r.error));
  assert.equal(r.status, 0, r.stderr);
  const list = spawnSync('dist/src/cli/bin.js', ['provider', '--list-misbehaviours'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(list.status, 0, list.stderr);
});

// A corpus of independent vectors is not one session — no cross-message check may correlate its lines.
const CORPUS = [
  { type: 'handshake', protocol_version: 'contextgraph/1.0' },
  {
    type: 'handshake_ack',
    protocol_version: 'contextgraph/1.0',
    provider: { name: 'alpha', version: '1', data_flow: { reads: true, writes: false, egress: false } },
    capabilities: { query: { kinds: ['doc'] } },
  },
  { type: 'query', id: 'q1', query: { goal: 'minimal query vector', kinds: ['doc'], max_frames: 8, max_tokens: 100 } },
  {
    type: 'handshake_ack',
    protocol_version: 'contextgraph/1.0',
    provider: { name: 'beta', version: '1', data_flow: { reads: true, writes: false, egress: false } },
    capabilities: { query: { kinds: ['snippet'] } },
  },
  {
    type: 'frames',
    id: 'q1',
    result: {
      truncated: false,
      frames: [{ id: 'snip', kind: 'snippet', title: 'a snippet', content: 'abcd', score: 0.5, token_cost: 1, citation_label: 'snippet vector' }],
    },
  },
];

test('validate: a corpus of independent vectors (several acks) runs no cross-message check — no false Q1', () => {
  const r = cli(['validate', '--json', '-'], CORPUS.map((m) => JSON.stringify(m)).join('\n') + '\n');
  const report = JSON.parse(r.stdout) as JsonReport & { files: Array<{ mode: { mode: string } }> };
  assert.deepEqual(
    pairs(report).filter((p) => p.includes(' Q1 ')),
    [],
  );
  assert.equal(report.files[0]!.mode.mode, 'independent');
  assert.equal(r.code, 0, r.stdout);
  const text = cli(['validate', '-'], CORPUS.map((m) => JSON.stringify(m)).join('\n') + '\n');
  assert.match(text.stdout, /independent messages \(cross-message checks skipped\)/);
});

test('validate: one coherent session keeps its cross-message checks (Q1 against the query answered)', () => {
  const session = [CORPUS[0], CORPUS[1], CORPUS[2], CORPUS[4]];
  const r = cli(['validate', '--json', '-'], session.map((m) => JSON.stringify(m)).join('\n') + '\n');
  const report = JSON.parse(r.stdout) as JsonReport & { files: Array<{ mode: { mode: string } }> };
  assert.equal(report.files[0]!.mode.mode, 'session');
  assert.ok(
    pairs(report).some((p) => p.startsWith('error Q1 ')),
    pairs(report).join('\n'),
  );
  assert.equal(r.code, 1);
});

test('validate: the reference vector file reference-messages.json (three acks) is read as independent messages', (t) => {
  if (!haveShared) return t.skip(EXTERNAL);
  const r = cli(['validate', '--json', join(SHARED, 'reference-examples/reference-messages.json')]);
  const report = JSON.parse(r.stdout) as { files: Array<{ mode: { mode: string; reason: string } }> };
  assert.equal(report.files[0]!.mode.mode, 'independent', report.files[0]!.mode.reason);
  const session = cli(['validate', '--json', join(SHARED, 'reference-examples/full-stdio-session.ndjson')]);
  assert.equal((JSON.parse(session.stdout) as { files: Array<{ mode: { mode: string } }> }).files[0]!.mode.mode, 'session');
});
