// `validate` streams NDJSON: the streamed path gives the report the whole-file path gave, finding for
// finding and byte for byte (text and JSON), whatever the chunking; and it holds bounded state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { QUERY_WINDOW } from '../../../src/conformance/validate/lint-messages.js';
import { UnreadableInputError } from '../../../src/conformance/validate/read-messages.js';
import { renderValidateText, runValidate, validateJsonPieces, writePieces, type ValidateOptions, type ValidateReport } from '../../../src/conformance/validate/validate-run.js';
import { prng } from '../../../src/util/prng.js';
import { referenceValidate } from './validate-reference.js';

const SHARED = '../shared';

/** The streamed path reading `bytes` from "stdin" in pseudo-random chunks. */
async function streamed(bytes: Buffer, seed: number, extra: Partial<ValidateOptions> = {}): Promise<ValidateReport | string> {
  const rand = prng(seed);
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length;) {
    const n = 1 + Math.floor(rand() * (rand() < 0.5 ? 16 : 70_000));
    chunks.push(bytes.subarray(at, at + n));
    at += n;
  }
  try {
    return await runValidate(['-'], 'strict', { stdin: Readable.from(chunks), ...extra });
  } catch (err) {
    if (err instanceof UnreadableInputError) return `unreadable: ${err.message}`;
    throw err;
  }
}

function reference(bytes: Buffer): ValidateReport | string {
  try {
    return referenceValidate([{ source: '-', bytes }], 'strict');
  } catch (err) {
    if (err instanceof UnreadableInputError) return `unreadable: ${err.message}`;
    throw err;
  }
}

async function assertSame(bytes: Buffer, label: string, seed = 1): Promise<void> {
  const want = reference(bytes);
  const got = await streamed(bytes, seed);
  assert.deepEqual(got, want, label);
  if (typeof want !== 'string' && typeof got !== 'string') {
    assert.equal([...validateJsonPieces(got)].join(''), `${JSON.stringify(want, null, 2)}\n`, label);
  }
}

const ack = (name: string) => ({
  type: 'handshake_ack',
  protocol_version: 'contextgraph/1.0',
  provider: { name, version: '1', data_flow: { reads: true, writes: false, egress: false } },
  capabilities: { query: { kinds: ['doc'] } },
});
const DIGEST = 'sha256:88d4266fd4e6338d13b845fcf289579d209c897823b9217da3e161936f031589';
const frame = (id: string, kind = 'doc', extra: object = {}) => ({ id, kind, title: 't', content: 'abcd', score: 0.5, token_cost: 1, citation_label: 'c', content_digest: DIGEST, ...extra });

/** Lines of every kind the linter tells apart, some of them only wrong in session mode. */
function messagePool(): string[] {
  const msgs: unknown[] = [
    { type: 'handshake', protocol_version: 'contextgraph/1.0' },
    ack('alpha'),
    ack('beta'),
    { type: 'query', id: 'q1', query: { goal: 'g', kinds: ['doc'], max_frames: 1, max_tokens: 1 } },
    { type: 'query', id: 'q2', query: { goal: 'g', max_frames: 8, max_tokens: 100, as_of: '2026-01-01T00:00:00Z' } },
    { type: 'query', query: { goal: 'g', kinds: ['snippet'], max_frames: 8, max_tokens: 100 } },
    // Q1 / B1 / B4 against q1 (session only)
    { type: 'frames', id: 'q1', result: { truncated: false, frames: [frame('a', 'snippet'), frame('b')] } },
    { type: 'frames', result: { truncated: false, frames: [frame('c')] } },
    // S6.1-as-of against q2 (session only)
    { type: 'frames', id: 'q2', result: { truncated: false, frames: [frame('d', 'doc', { valid_from: '2027-01-01T00:00:00Z' })] } },
    // F11: provider_id mismatch in session mode, a frame_id the result does not carry in independent mode
    {
      type: 'frames',
      id: 'q9',
      result: { truncated: false, frames: [frame('e')], frame_attestations: [{ frame: { provider_id: 'other', frame_id: 'zz', content_digest: DIGEST }, attestation: { signed_commitment: DIGEST } }] },
    },
    { type: 'frames', result: { truncated: false, frames: [frame('f', 'doc', { token_cost: 9, content_digest: `sha256:${'0'.repeat(64)}` })] } },
    { type: 'verify', id: 'v1', request: { frames: [{ provider_id: 'alpha', frame_id: 'a' }] } },
    { type: 'error', id: 'q1', code: 'nope', message: 'x' },
    { type: 'shutdown' },
    { type: 'mystery', id: 'm' },
    { no_type: true },
    [1, 2],
    42,
  ];
  const lines = msgs.map((m) => JSON.stringify(m));
  const lifecycle = join(SHARED, 'lifecycle-examples', 'observation.json');
  if (existsSync(lifecycle)) lines.push(JSON.stringify(JSON.parse(readFileSync(lifecycle, 'utf8'))));
  lines.push('not json {{', '{"type": "query", "id":', '   ', '', '\t');
  return lines;
}

test('the streamed path matches the whole-file path on the bundled and public example files', async () => {
  const files = ['examples/session.ndjson'];
  for (const dir of ['reference-examples', 'lifecycle-examples']) {
    if (existsSync(join(SHARED, dir))) for (const f of readdirSync(join(SHARED, dir))) files.push(join(SHARED, dir, f));
  }
  for (const [i, f] of files.entries()) {
    const bytes = readFileSync(f);
    await assertSame(bytes, f, i);
    // and as one file on disk, read by path
    const want = referenceValidate([{ source: f, bytes }], 'strict');
    assert.deepEqual(await runValidate([f], 'strict'), want, f);
    assert.equal(renderValidateText(await runValidate([f], 'strict')), renderReferenceText(want), f);
  }
});

/** The old text renderer, for comparison. */
function renderReferenceText(report: ValidateReport): string {
  const lines: string[] = [];
  for (const file of report.files) {
    lines.push(`${file.source}: ${file.mode.mode === 'session' ? 'session mode (cross-message checks ran)' : 'independent messages (cross-message checks skipped)'} — ${file.mode.reason}`);
    for (const f of file.findings) lines.push(`${f.location}  ${f.severity === 'error' ? 'ERROR' : 'WARN '} ${f.id}  ${f.pointer || '/'}  ${f.message}`);
  }
  const { messages, errors, warnings } = report.summary;
  lines.push(`${report.files.length} file(s), ${messages} message(s): ${errors} error(s), ${warnings} warning(s) [${report.profile} profile]`);
  return lines.join('\n') + '\n';
}

test('the streamed path matches the whole-file path on generated streams: sessions, corpora, parse errors, CRLF, blank lines, no final newline', async () => {
  const pool = messagePool();
  const rand = prng(2026);
  for (let round = 0; round < 400; round++) {
    const n = 1 + Math.floor(rand() * 14);
    const lines: string[] = [];
    // most streams open as a session; later handshakes/acks turn some into several sessions
    if (rand() < 0.7) lines.push(pool[0]!, pool[1]!);
    for (let i = 0; i < n; i++) lines.push(pool[Math.floor(rand() * pool.length)]!);
    const eol = rand() < 0.3 ? '\r\n' : '\n';
    let text = lines.join(eol);
    if (rand() < 0.6) text += eol;
    if (rand() < 0.1) text = `\n\n${text}`;
    await assertSame(Buffer.from(text, 'utf8'), `round ${round}: ${JSON.stringify(text).slice(0, 300)}`, round);
  }
});

test('JSON documents: one object, an array, pretty-printed over many lines, and near-documents', async () => {
  const env = { type: 'frames', result: { frames: [frame('f1', 'doc', { token_cost: 9 })], truncated: false } };
  const cases = [
    JSON.stringify(env),
    `\n  ${JSON.stringify(env)}  \n\n`,
    JSON.stringify([{ type: 'handshake', protocol_version: 'contextgraph/1.0' }, ack('a'), env]),
    JSON.stringify([{ type: 'handshake', protocol_version: 'contextgraph/1.0' }, ack('a'), ack('b'), env], null, 2),
    JSON.stringify(env, null, 2).replaceAll('\n', '\r\n'),
    // the last element on a line of its own parses alone, the document as a whole too
    `[\n${JSON.stringify(env)}\n]\n`,
    // looks like a document, is not one: every line is then an NDJSON line
    `{\n"type": "handshake"\n`,
    `{bad}\n${JSON.stringify(env)}\n`,
    `[\n${JSON.stringify(env)},\n${JSON.stringify(env)}\n`,
    `{"type":"handshake","protocol_version":"contextgraph/1.0"}\n{"type":"query",\n`,
    '"a string"',
    '42\n',
    'this is not json at all',
    '',
    '  \n\t\n',
    '{"a": "line\nbreak"}',
  ];
  for (const [i, c] of cases.entries()) await assertSame(Buffer.from(c, 'utf8'), `case ${i}: ${JSON.stringify(c).slice(0, 200)}`, i);
});

test('a line that is not valid UTF-8 is an S2-wire-shape finding at its line, not a crash', async () => {
  const bytes = Buffer.concat([
    Buffer.from(`${JSON.stringify({ type: 'handshake', protocol_version: 'contextgraph/1.0' })}\n`),
    Buffer.from([0x7b, 0xc3, 0x28, 0x7d, 0x0a]),
    Buffer.from(`${JSON.stringify(ack('a'))}\n`),
  ]);
  const report = await streamed(bytes, 3);
  assert.ok(typeof report !== 'string');
  assert.deepEqual(
    report.files[0]!.findings.map((f) => `${f.location} ${f.id} ${f.message}`),
    ['-:2 S2-wire-shape S2-wire-shape violated: not a JSON value (not valid UTF-8)'],
  );
  assert.equal(report.files[0]!.messages, 3);
});

test('several files in one run, by path, as the whole-file path reported them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cgp-validate-stream-'));
  const pool = messagePool();
  const a = join(dir, 'a.ndjson');
  const b = join(dir, 'b.json');
  writeFileSync(a, pool.slice(0, 12).join('\n'));
  writeFileSync(
    b,
    JSON.stringify(
      pool.slice(3, 9).map((l) => JSON.parse(l)),
      null,
      2,
    ),
  );
  const want = referenceValidate(
    [a, b].map((source) => ({ source, bytes: readFileSync(source) })),
    'strict',
  );
  const got = await runValidate([a, b], 'strict');
  assert.deepEqual(got, want);
  assert.equal([...validateJsonPieces(got)].join(''), `${JSON.stringify(want, null, 2)}\n`);
});

test('bounded state: 100k valid lines of one session hold one line, a bounded query window and no finding', async () => {
  const N = 100_000;
  const head = [JSON.stringify({ type: 'handshake', protocol_version: 'contextgraph/1.0' }), JSON.stringify(ack('alpha'))];
  function* lines(): Generator<Buffer> {
    yield Buffer.from(`${head.join('\n')}\n`);
    let batch = '';
    for (let i = 0; i < N; i++) {
      batch +=
        i % 2 === 0
          ? `${JSON.stringify({ type: 'query', id: `q${i}`, query: { goal: 'g', kinds: ['doc'], max_frames: 4, max_tokens: 100 } })}\n`
          : `${JSON.stringify({ type: 'frames', id: `q${i - 1}`, result: { truncated: false, frames: [frame(`f${i}`)] } })}\n`;
      if (batch.length > 50_000) {
        yield Buffer.from(batch);
        batch = '';
      }
    }
    yield Buffer.from(batch);
  }
  const stats = { maxHeldLines: 0, maxPendingPieces: 0, maxHeldQueries: 0, maxPatches: 0 };
  const report = await runValidate(['-'], 'strict', { stdin: Readable.from(lines()), stats });
  assert.equal(report.summary.messages, N + 2);
  assert.deepEqual(report.files[0]!.findings, []);
  assert.equal(report.files[0]!.mode.mode, 'session');
  assert.equal(stats.maxHeldLines, 1, 'only the first line is held (to tell a document from NDJSON)');
  assert.ok(stats.maxPendingPieces <= 2, `an open line spans at most 2 chunks here, held ${stats.maxPendingPieces}`);
  assert.equal(stats.maxHeldQueries, QUERY_WINDOW, 'the query window is full, and no larger');
  assert.equal(stats.maxPatches, 0);
});

test('past the query window, a reply to a forgotten query is checked against no query (never the last one)', async () => {
  const lines = [JSON.stringify({ type: 'handshake', protocol_version: 'contextgraph/1.0' }), JSON.stringify(ack('alpha'))];
  lines.push(JSON.stringify({ type: 'query', id: 'old', query: { goal: 'g', kinds: ['doc'], max_frames: 4, max_tokens: 100 } }));
  for (let i = 0; i < QUERY_WINDOW; i++) lines.push(JSON.stringify({ type: 'query', id: `q${i}`, query: { goal: 'g', kinds: ['snippet'], max_frames: 4, max_tokens: 100 } }));
  lines.push(JSON.stringify({ type: 'frames', id: 'old', result: { truncated: false, frames: [frame('a')] } }));
  lines.push(JSON.stringify({ type: 'frames', id: `q${QUERY_WINDOW - 1}`, result: { truncated: false, frames: [frame('b')] } }));
  const report = await streamed(Buffer.from(lines.join('\n')), 5);
  assert.ok(typeof report !== 'string');
  // "old" fell out of the window: no Q1 against the last query (kinds snippet); q{last} is still held: Q1
  assert.deepEqual(
    report.files[0]!.findings.map((f) => `${f.location} ${f.id} ${f.pointer}`),
    [`-:${lines.length} Q1 /result/frames/0/kind`],
  );
});

test('the report is written in pieces and waits for drain when the stream asks', async () => {
  const writes: string[] = [];
  let drains = 0;
  const out = new (class extends Readable {})() as unknown as NodeJS.WritableStream;
  const listeners: Array<() => void> = [];
  Object.assign(out, {
    write(chunk: string) {
      writes.push(chunk);
      setImmediate(() => {
        drains++;
        listeners.splice(0).forEach((l) => l());
      });
      return false;
    },
    once(event: string, fn: () => void) {
      if (event === 'drain') listeners.push(fn);
      return out;
    },
  });
  const pieces = Array.from({ length: 5000 }, (_, i) => `line ${i} ${'x'.repeat(40)}\n`);
  await writePieces(out, pieces);
  assert.equal(writes.join(''), pieces.join(''));
  assert.ok(writes.length > 1 && writes.every((w) => w.length <= (1 << 16) + 60), `${writes.length} writes`);
  assert.equal(drains, writes.length);
});

test('src/cli/commands/validate.ts imports only types and commander at its top level (heavy modules load in the action)', () => {
  const text = readFileSync('src/cli/commands/validate.ts', 'utf8');
  const imports = text.split('\n').filter((l) => /^import\s/.test(l));
  assert.ok(imports.length > 0);
  for (const line of imports) assert.match(line, /^import type |from 'commander';$/, line);
  assert.match(text, /await import\('\.\.\/\.\.\/conformance\/validate\/validate-run\.js'\)/);
});
