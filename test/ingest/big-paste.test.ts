// Hostile and big pastes: invalid UTF-8, NUL bytes, a 10 MB line, CRLF and mixed endings — each noted in
// the report, none a crash, no byte silently dropped: [full] is the exact input (or, for bytes that are
// not UTF-8, normalised text declared as such, with the exact bytes in the store under the canonical hash).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { checkFrame } from '../../src/protocol/index.js';
import { ingest, type IngestResult } from '../../src/ingest/index.js';
import { requery } from './helpers.js';

const sha = (b: Uint8Array | string) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

function notes(r: IngestResult): string[] {
  return r.report.filter((e) => e.kind === 'attachment').map((e) => e.summary);
}

function logLines(n: number, eol = '\n'): string {
  return Array.from(
    { length: n },
    (_, i) => `2026-07-20T18:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z ${i % 17 === 0 ? 'ERROR' : 'INFO'} step ${i} done`,
  ).join(eol);
}

describe('ingest: big and hostile pastes', () => {
  it('CRLF: lines split, [full] byte-exact, noted', () => {
    const text = logLines(40, '\r\n');
    const r = ingest({ intent: 'x', attachments: [{ name: 'crlf.log', content: Buffer.from(text) }] });
    assert.equal(r.frames.length, 1);
    assert.equal(r.store.artifacts[0]!.kind, 'log');
    assert.equal(r.store.artifacts[0]!.lines, 40);
    assert.ok(
      notes(r).some((n) => n.startsWith('line endings: 39 CRLF;')),
      notes(r).join('\n'),
    );
    const full = requery(r, ['full'])[0]!;
    assert.equal(full.content, text);
    assert.equal(sha(full.content!), r.frames[0]!.canonical_content_hash);
  });
  it('mixed endings (LF, CRLF, lone CR) are all line ends and are noted as mixed', () => {
    const text = 'one line\r\nsecond line\nthird line\rfourth line';
    const r = ingest({ intent: 'x', attachments: [text] });
    assert.ok(
      notes(r).some((n) => /1 CRLF, 1 LF, 1 lone CR \(mixed\)/.test(n)),
      notes(r).join('\n'),
    );
    assert.equal(requery(r, ['full'])[0]!.content, text);
  });
  it('NUL bytes are kept (JSON \\u0000) and noted', () => {
    const text = `${logLines(30)}\nnul here: \u0000\u0000 end`;
    const r = ingest({ intent: 'x', attachments: [text] });
    assert.ok(notes(r).some((n) => n.startsWith('2 NUL byte(s)')));
    const full = requery(r, ['full'])[0]!;
    assert.equal(full.content, text);
    assert.equal(JSON.parse(JSON.stringify(full)).content, text);
  });
  it('invalid UTF-8: noted with its offset; [full] is declared normalised; the store keeps the exact bytes under canonical_content_hash', () => {
    const bytes = Buffer.concat([Buffer.from(logLines(30)), Buffer.from([0x0a, 0x41, 0xff, 0xfe, 0x42, 0xc3, 0x28])]);
    const r = ingest({ intent: 'x', attachments: [bytes] });
    assert.ok(
      notes(r).some((n) => /^3 invalid UTF-8 sequence\(s\), the first at byte \d+/.test(n)),
      notes(r).join('\n'),
    );
    const f = r.frames[0]!;
    assert.equal(f.canonical_content_hash, sha(bytes));
    assert.deepEqual(Buffer.from(r.store.resolveBytes(f.id)!), bytes);
    const full = requery(r, ['full'])[0]!;
    assert.equal(full.content_fidelity, 'normalized');
    assert.equal(full.content_digest, sha(full.content!), 'S6.3: the digest is of the inline (normalised) bytes');
    assert.deepEqual(checkFrame(full, '/f'), []);
    assert.ok(r.report.some((e) => e.notes?.some((n) => n.startsWith('invalid UTF-8 in this block'))));
  });
  it('a single 10 MB line: no crash, a small compact rendering that says what it cut, [full] exact', () => {
    const line = `2026-07-20T18:00:00Z ERROR payload ${'x'.repeat(10 * 1024 * 1024)}`;
    const text = `2026-07-20T17:59:59Z INFO before\n${line}\n2026-07-20T18:00:01Z INFO after`;
    const r = ingest({ intent: 'x', attachments: [text] });
    assert.ok(notes(r).some((n) => n.startsWith(`a ${line.length}-byte line`)));
    const f = r.frames[0]!;
    assert.ok(f.token_cost < 400, `${f.token_cost} tokens`);
    assert.match(f.content!, /… \(\d+ more bytes of this line\)/);
    assert.equal(f.canonical_content_hash, sha(text));
    const full = requery(r, ['full'])[0]!;
    assert.equal(full.content!.length, text.length);
    assert.equal(sha(full.content!), f.canonical_content_hash);
  });
  it('an empty attachment and a whitespace-only one are reported, not served', () => {
    const r = ingest({ intent: 'x', attachments: ['', '   \n\n'] });
    assert.equal(r.frames.length, 0);
    assert.deepEqual(notes(r), ['empty attachment: nothing to ingest']);
    assert.equal(r.query.max_frames, 0);
  });
  it('the same bytes dedup to one frame wherever they appear (report: duplicate)', () => {
    const log = logLines(30);
    const r = ingest({ intent: 'x', attachments: [log, `note first\n\n${log}`, log] });
    assert.equal(r.frames.filter((f) => f.kind === 'episode').length, 1);
    const dups = r.report.filter((e) => e.became.outcome === 'duplicate');
    assert.equal(dups.length, 2);
    for (const d of dups) assert.equal(d.summary, `duplicate · deduplicated to ${r.frames.find((f) => f.kind === 'episode')!.id}`);
  });
});
