// F5 bytes (§6.2 digested bytes): re-reading host-trusted files, the range grammar, and trust.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { filePathOf, parseLineRange, sliceLines, verifyFileProvenance, verifyFrameProvenance } from '../../src/host/f5-bytes.js';

const sha = (data: string | Uint8Array) => `sha256:${createHash('sha256').update(data).digest('hex')}`;
const FOUR = 'line one\nline two\nline three\nline four\n';

let dir: string;
let trusted: string;
let outside: string;
const uriOf = (path: string) => pathToFileURL(path).href;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'cgp-f5-'));
  trusted = join(dir, 'trusted');
  outside = join(dir, 'outside');
  mkdirSync(join(trusted, 'sub dir'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(trusted, 'four.txt'), FOUR);
  writeFileSync(join(trusted, 'abc.txt'), 'abc');
  writeFileSync(join(trusted, 'crlf.txt'), 'a\r\nb\r\nc');
  writeFileSync(join(trusted, 'empty.txt'), '');
  writeFileSync(join(trusted, 'sub dir', 'ünï.txt'), 'x\n');
  writeFileSync(join(outside, 'secret.txt'), 'secret\n');
  symlinkSync(join(outside, 'secret.txt'), join(trusted, 'escape.txt'));
  symlinkSync(join(trusted, 'four.txt'), join(trusted, 'alias.txt'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const check = (uri: string, digest: string | undefined, range?: string | null, roots = [trusted]) =>
  verifyFileProvenance({ type: 'file', uri, ...(digest !== undefined ? { digest } : {}), ...(range !== undefined ? { range } : {}) }, { trustedRoots: roots });

describe('range grammar and line slicing', () => {
  it('parses L<n> and L<a>-<b>; rejects start 0, inverted and other grammars', () => {
    assert.deepEqual(parseLineRange('L1'), { ok: true, value: [1, 1] });
    assert.deepEqual(parseLineRange('L120-160'), { ok: true, value: [120, 160] });
    for (const bad of ['L0', 'L0-3', 'L5-4', 'L1-L9', 'bytes=0-9', '', 'l1', 'L1-', 'L-1', ' L1', 'L1 ', 'L99999999999999999999']) {
      const r = parseLineRange(bad);
      assert.equal(r.ok, false, bad);
    }
  });

  it('each line includes its \\n; CR kept; trailing \\n adds no line; final unterminated line counts; end clamped', () => {
    const b = Buffer.from(FOUR);
    assert.equal(Buffer.from(sliceLines(b, 2, 3)!).toString(), 'line two\nline three\n');
    assert.equal(Buffer.from(sliceLines(b, 1, 1)!).toString(), 'line one\n');
    assert.equal(Buffer.from(sliceLines(b, 4, 99)!).toString(), 'line four\n');
    assert.equal(sliceLines(b, 5, 5), undefined, 'a trailing newline does not create line 5');
    const crlf = Buffer.from('a\r\nb\r\nc');
    assert.equal(Buffer.from(sliceLines(crlf, 2, 2)!).toString(), 'b\r\n');
    assert.equal(Buffer.from(sliceLines(crlf, 3, 3)!).toString(), 'c');
    assert.equal(sliceLines(Buffer.alloc(0), 1, 1), undefined);
    assert.equal(Buffer.from(sliceLines(Buffer.from('\n\n'), 2, 2)!).toString(), '\n');
  });
});

describe('verifyFileProvenance: match / mismatch / unreadable', () => {
  it('KAT: "abc" whole file', async () => {
    const r = await check(uriOf(join(trusted, 'abc.txt')), 'sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(r.status, 'match');
    assert.equal(r.actual, r.declared);
  });

  it('ranges digest exactly the addressed bytes', async () => {
    const uri = uriOf(join(trusted, 'four.txt'));
    assert.equal((await check(uri, sha('line two\nline three\n'), 'L2-3')).status, 'match');
    assert.equal((await check(uri, sha('line one\n'), 'L1')).status, 'match');
    assert.equal((await check(uri, sha('line four\n'), 'L4-400')).status, 'match', 'end clamped to EOF');
    assert.equal((await check(uri, sha(FOUR), null)).status, 'match', 'null range = whole file');
    const crlf = uriOf(join(trusted, 'crlf.txt'));
    assert.equal((await check(crlf, sha('a\r\n'), 'L1')).status, 'match', 'no CR stripping');
    assert.equal((await check(crlf, sha('a\n'), 'L1')).status, 'mismatch');
  });

  it('mismatch carries declared and actual', async () => {
    const r = await check(uriOf(join(trusted, 'four.txt')), sha('line two\n'), 'L1');
    assert.deepEqual([r.status, r.declared, r.actual], ['mismatch', sha('line two\n'), sha('line one\n')]);
    // digests compare byte-for-byte: an uppercase rendering of the right hash is a mismatch
    const upper = 'sha256:' + sha('line one\n').slice(7).toUpperCase();
    assert.equal((await check(uriOf(join(trusted, 'four.txt')), upper, 'L1')).status, 'mismatch');
  });

  it('unreadable: start 0, past EOF, inverted, other grammar, missing file, directory, no digest, not file provenance', async () => {
    const uri = uriOf(join(trusted, 'four.txt'));
    for (const range of ['L0', 'L5', 'L5-9', 'L3-2', 'L1-L2', 'bytes=0-3', '']) {
      const r = await check(uri, sha('x'), range);
      assert.equal(r.status, 'unreadable', range);
      assert.ok(r.reason && r.reason.length > 0);
      assert.equal(r.actual, undefined, 'never a whole-file fallback');
    }
    assert.equal((await check(uriOf(join(trusted, 'empty.txt')), sha(''), 'L1')).status, 'unreadable');
    assert.equal((await check(uriOf(join(trusted, 'empty.txt')), sha(''))).status, 'match', 'empty file, whole');
    assert.equal((await check(uriOf(join(trusted, 'nope.txt')), sha('x'))).status, 'unreadable');
    assert.equal((await check(uriOf(join(trusted, 'sub dir')), sha('x'))).status, 'unreadable');
    assert.equal((await check(uri, undefined)).status, 'unreadable');
    const derivation = await verifyFileProvenance({ type: 'derivation', uri, digest: sha(FOUR) }, { trustedRoots: [trusted] });
    assert.equal(derivation.status, 'unreadable');
    const capitalised = await verifyFileProvenance({ type: 'File', uri, digest: sha(FOUR) }, { trustedRoots: [trusted] });
    assert.equal(capitalised.status, 'unreadable', 'type is case-sensitive');
    const big = await verifyFileProvenance({ type: 'file', uri, digest: sha(FOUR) }, { trustedRoots: [trusted], maxBytes: 4 });
    assert.equal(big.status, 'unreadable');
  });

  it('percent-decodes the path to bytes (spaces, UTF-8), a stray % stays literal, localhost authority accepted', async () => {
    const path = join(trusted, 'sub dir', 'ünï.txt');
    const encoded = uriOf(path);
    assert.match(encoded, /%20/);
    assert.equal((await check(encoded, sha('x\n'))).status, 'match');
    assert.equal((await check(encoded.replace('file://', 'file://localhost'), sha('x\n'))).status, 'match');
    assert.equal((await check(encoded.replace(/%C3%BC/, '%c3%bc'), sha('x\n'))).status, 'match', 'hex either case');
    writeFileSync(join(trusted, '100%.txt'), 'pct');
    assert.equal((await check(`file://${trusted}/100%.txt`, sha('pct'))).status, 'match');
    const decoded = filePathOf('file:///a/%41%zz%4');
    assert.ok(decoded.ok && decoded.value.toString('latin1') === '/a/A%zz%4');
  });
});

describe('verifyFileProvenance: only host-trusted files are ever read', () => {
  it('untrusted: outside every root, .. escapes, symlinks escaping, foreign authority, other schemes, query/fragment, NUL', async () => {
    const secret = sha('secret\n');
    const cases = [
      uriOf(join(outside, 'secret.txt')),
      `file://${trusted}/../outside/secret.txt`,
      `file://${trusted}/%2E%2E/outside/secret.txt`,
      uriOf(join(trusted, 'escape.txt')),
      `file://example.com${join(outside, 'secret.txt')}`,
      `http://localhost${join(trusted, 'abc.txt')}`,
      'file:relative/path',
      `file://${trusted}/abc.txt?x=1`,
      `file://${trusted}/abc.txt#frag`,
      `file://${trusted}/abc%00.txt`,
      `file://${dir}/trusted-sibling/x`,
    ];
    for (const uri of cases) {
      const r = await check(uri, secret);
      assert.equal(r.status, 'untrusted', uri);
      assert.equal(r.actual, undefined, `${uri}: never read`);
    }
    assert.equal((await check(uriOf(join(trusted, 'abc.txt')), sha('abc'), undefined, [])).status, 'untrusted', 'no roots ⇒ nothing trusted');
  });

  it('a symlink that stays inside the roots is followed', async () => {
    assert.equal((await check(uriOf(join(trusted, 'alias.txt')), sha('line one\n'), 'L1')).status, 'match');
  });

  it('verifyFrameProvenance checks file links only, with their indices', async () => {
    const results = await verifyFrameProvenance(
      {
        provenance: [
          { type: 'derivation', by: 'x' },
          { type: 'file', uri: uriOf(join(trusted, 'four.txt')), range: 'L2', digest: sha('line two\n') },
          { type: 'file', uri: uriOf(join(outside, 'secret.txt')), digest: sha('secret\n') },
        ],
      },
      { trustedRoots: [trusted] },
    );
    assert.deepEqual(
      results.map((r) => [r.index, r.result.status]),
      [
        [1, 'match'],
        [2, 'untrusted'],
      ],
    );
    assert.deepEqual(await verifyFrameProvenance({}, { trustedRoots: [trusted] }), []);
  });
});
