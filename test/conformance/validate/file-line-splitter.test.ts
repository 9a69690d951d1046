// The streaming NDJSON line splitter: whatever the chunk boundaries, the lines of the whole-text split.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FileLineSplitter } from '../../../src/conformance/validate/file-line-splitter.js';
import { prng } from '../../../src/util/prng.js';

function split(chunks: Array<Buffer | string>): Array<[number, string | undefined]> {
  const out: Array<[number, string | undefined]> = [];
  const s = new FileLineSplitter((n, text) => out.push([n, text]));
  for (const c of chunks) s.push(c);
  s.end();
  return out;
}

/** Every way of cutting `bytes` in two, and in single bytes. */
function cuts(bytes: Buffer): Buffer[][] {
  const ways: Buffer[][] = [[bytes], [...bytes].map((b) => Buffer.from([b]))];
  for (let i = 1; i < bytes.length; i++) ways.push([bytes.subarray(0, i), bytes.subarray(i)]);
  return ways;
}

test('a chunk boundary inside a multi-byte UTF-8 character splits nothing and corrupts nothing', () => {
  const bytes = Buffer.from('{"t":"é€😀"}\n{"t":"ü"}\n', 'utf8');
  for (const chunks of cuts(bytes)) {
    assert.deepEqual(split(chunks), [
      [1, '{"t":"é€😀"}'],
      [2, '{"t":"ü"}'],
    ]);
  }
});

test('CRLF is tolerated, also when the chunk boundary falls between CR and LF; a final line needs no LF', () => {
  const bytes = Buffer.from('a\r\nb\r\n\r\nc', 'utf8');
  for (const chunks of cuts(bytes)) {
    assert.deepEqual(split(chunks), [
      [1, 'a'],
      [2, 'b'],
      [3, ''],
      [4, 'c'],
    ]);
  }
});

test('a lone CR inside a line is kept; only one trailing CR is dropped; nothing follows a final LF', () => {
  assert.deepEqual(split(['a\rb\r\r\n']), [[1, 'a\rb\r']]);
});

test('a UTF-8 BOM is dropped at the start of the stream only, even when cut across chunks', () => {
  const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('x\n\ufeffy\n', 'utf8')]);
  for (const chunks of cuts(bytes)) {
    assert.deepEqual(split(chunks), [
      [1, 'x'],
      [2, '\ufeffy'],
    ]);
  }
  assert.deepEqual(split([Buffer.from([0xef])]), [[1, undefined]]);
  assert.deepEqual(split([]), []);
});

test('a line that is not valid UTF-8 is reported as such at its line number; its neighbours are intact', () => {
  const bytes = Buffer.concat([Buffer.from('ok\n'), Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), Buffer.from('\n{"a":"é"}\n')]);
  for (const chunks of cuts(bytes)) {
    assert.deepEqual(split(chunks), [
      [1, 'ok'],
      [2, undefined],
      [3, '{"a":"é"}'],
    ]);
  }
  // a truncated multi-byte character at the very end
  assert.deepEqual(split([Buffer.from([0x61, 0x0a, 0xc3])]), [
    [1, 'a'],
    [2, undefined],
  ]);
});

test('a huge line arriving in many chunks is one line, held as pieces and joined once', () => {
  const big = 'x'.repeat(3_000_000);
  const bytes = Buffer.from(`{"a":1}\n${big}\n{"b":2}`);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += 65536) chunks.push(bytes.subarray(i, i + 65536));
  const out: Array<[number, number]> = [];
  const s = new FileLineSplitter((n, text) => out.push([n, text?.length ?? -1]));
  for (const c of chunks) s.push(c);
  s.end();
  assert.deepEqual(out, [
    [1, 7],
    [2, 3_000_000],
    [3, 7],
  ]);
  assert.ok(s.maxPendingPieces >= 45 && s.maxPendingPieces <= 47, String(s.maxPendingPieces));
});

test('random chunking of random text gives the whole-text split', () => {
  const rand = prng(7);
  const alphabet = ['a', 'é', '€', '😀', '\n', '\r\n', '\r', ' ', '{', '"'];
  for (let round = 0; round < 200; round++) {
    let text = '';
    const len = Math.floor(rand() * 60);
    for (let i = 0; i < len; i++) text += alphabet[Math.floor(rand() * alphabet.length)];
    const bytes = Buffer.from(text, 'utf8');
    const chunks: Buffer[] = [];
    for (let at = 0; at < bytes.length;) {
      const n = 1 + Math.floor(rand() * 8);
      chunks.push(bytes.subarray(at, at + n));
      at += n;
    }
    const expected = text.split('\n').map((l, i): [number, string] => [i + 1, l.endsWith('\r') ? l.slice(0, -1) : l]);
    // the whole-text split yields an empty last piece after a final LF; the splitter has no line there
    if (text === '' || text.endsWith('\n')) expected.pop();
    assert.deepEqual(split(chunks), expected, JSON.stringify(text));
  }
});
