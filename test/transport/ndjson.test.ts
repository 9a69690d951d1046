import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  EofMidLineError,
  InvalidUtf8Error,
  LineSplitter,
  LineTooLongError,
  NotAnEnvelopeError,
  TransportError,
  encodeLine,
  firstInvalidUtf8,
  linesBeforeError,
  parseEnvelopeLine,
} from '../../src/transport/index.js';

// Three envelopes with 2-, 3- and 4-byte UTF-8 characters, so some split points fall inside a character.
const LINES = ['{"type":"query","goal":"café"}', '{"type":"frames","frames":[],"note":"€ 5"}', '{"type":"error","message":"clef 𝄞 ok"}'];
const STREAM = Buffer.from(LINES.map((l) => `${l}\n`).join(''), 'utf8');

function splitAll(chunks: Buffer[]): string[] {
  const s = new LineSplitter();
  const out: string[] = [];
  for (const c of chunks) out.push(...s.push(c));
  out.push(...s.end());
  return out;
}

describe('LineSplitter framing', () => {
  it('yields the same lines for a split at every byte offset (and every pair of offsets)', () => {
    assert.ok(STREAM.length > LINES.join('').length, 'fixture must contain multi-byte characters');
    for (let i = 0; i <= STREAM.length; i++) {
      assert.deepEqual(splitAll([STREAM.subarray(0, i), STREAM.subarray(i)]), LINES, `split at ${i}`);
      for (let j = i; j <= STREAM.length; j++) {
        assert.deepEqual(splitAll([STREAM.subarray(0, i), STREAM.subarray(i, j), STREAM.subarray(j)]), LINES, `split at ${i},${j}`);
      }
    }
  });

  it('handles one byte per chunk', () => {
    const chunks = [...STREAM].map((b) => Buffer.from([b]));
    assert.deepEqual(splitAll(chunks), LINES);
  });

  it('returns several envelopes from one chunk, with line numbers and stream offsets', () => {
    const s = new LineSplitter();
    const items = s.pushItems(STREAM);
    assert.deepEqual(
      items.map((i) => (i.kind === 'line' ? [i.text, i.line, i.offset, i.terminated] : i.kind)),
      [
        [LINES[0], 1, 0, true],
        [LINES[1], 2, Buffer.byteLength(LINES[0]!) + 1, true],
        [LINES[2], 3, Buffer.byteLength(LINES[0]!) + Buffer.byteLength(LINES[1]!) + 2, true],
      ],
    );
    assert.deepEqual(s.endItems(), []);
  });

  it('accepts strings as chunks', () => {
    const s = new LineSplitter();
    assert.deepEqual(s.push('{"type":"a"}\n{"type'), ['{"type":"a"}']);
    assert.deepEqual(s.push('":"b"}\n'), ['{"type":"b"}']);
  });

  it('trims exactly one trailing CR (CRLF input)', () => {
    assert.deepEqual(splitAll([Buffer.from('a\r\nb\r\n\r\nc\r\r\n')]), ['a', 'b', '', 'c\r']);
  });

  it('rejects an over-long line as soon as the cap is crossed, never holding more than the cap', () => {
    const cap = 1024;
    const chunk = 100;
    const s = new LineSplitter({ maxLineBytes: cap });
    let thrownAt = -1;
    let error: unknown;
    for (let sent = 0; sent < 20 * cap; sent += chunk) {
      try {
        s.push(Buffer.alloc(chunk, 0x61));
      } catch (err) {
        thrownAt = sent + chunk;
        error = err;
        break;
      }
      assert.ok(s.pendingBytes <= cap, `pending ${s.pendingBytes} > cap`);
    }
    assert.ok(error instanceof LineTooLongError, 'expected LineTooLongError');
    assert.equal(error.code, 'line_too_long');
    assert.equal(error.limit, cap);
    assert.ok(error.seenBytes > cap && error.seenBytes <= cap + chunk, `seen ${error.seenBytes}`);
    assert.equal(thrownAt, error.seenBytes, 'raised on the very chunk that crossed the cap');
    assert.match(error.message, /^S2\.1: line exceeds 1024 bytes/);
    // The rest of that line is discarded without being held, then splitting resumes at the next line.
    for (let k = 0; k < 50; k++) {
      assert.deepEqual(s.push(Buffer.alloc(chunk, 0x62)), []);
      assert.equal(s.pendingBytes, 0);
    }
    assert.deepEqual(s.push('tail\n{"type":"next"}\n'), ['{"type":"next"}']);
  });

  it('rejects an over-long line that arrives in one chunk, keeping the lines around it', () => {
    const s = new LineSplitter({ maxLineBytes: 8 });
    const items = s.pushItems('{"a":1}\n123456789\n12345678\n');
    assert.equal(items.length, 3);
    assert.deepEqual(items[0], { kind: 'line', text: '{"a":1}', line: 1, offset: 0, terminated: true });
    assert.equal(items[1]!.kind, 'error');
    assert.equal(items[1]!.line, 2);
    assert.ok(items[1]!.kind === 'error' && items[1]!.error instanceof LineTooLongError);
    assert.deepEqual(items[2], { kind: 'line', text: '12345678', line: 3, offset: 18, terminated: true }, 'a line of exactly the cap is fine');
  });

  it('push() throws the first error; earlier lines ride on the error, later ones come with the next call', () => {
    const s = new LineSplitter({ maxLineBytes: 4 });
    let err: unknown;
    try {
      s.push('ok\ntoo-long\nfine\n');
    } catch (e) {
      err = e;
    }
    assert.ok(err instanceof LineTooLongError);
    assert.deepEqual(linesBeforeError(err), ['ok']);
    assert.deepEqual(s.push(''), ['fine']);
    assert.deepEqual(linesBeforeError(new Error('x')), []);
  });

  it('reports invalid UTF-8 naming the line, and carries on with the next line', () => {
    const bad = Buffer.concat([Buffer.from('{"type":"a"}\n{"x":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n{"type":"b"}\n')]);
    const s = new LineSplitter();
    const items = s.pushItems(bad);
    assert.equal(items.length, 3);
    const e = items[1]!.kind === 'error' ? items[1]!.error : undefined;
    assert.ok(e instanceof InvalidUtf8Error, 'expected InvalidUtf8Error');
    assert.equal(e.line, 2);
    assert.equal(e.streamOffset, 13);
    assert.equal(e.byteInLine, 6);
    assert.match(e.message, /^S2\.1: line 2 is not valid UTF-8 \(first invalid byte at offset 6 of the line, stream offset 19\)/);
    assert.ok(e.lossyText.includes('\uFFFD'));
    assert.deepEqual(items[2], { kind: 'line', text: '{"type":"b"}', line: 3, offset: 24, terminated: true });
  });

  it('rejects overlong encodings, surrogates, out-of-range and truncated sequences', () => {
    const cases: Array<[number[], number]> = [
      [[0x61, 0xc0, 0x80], 1], // overlong NUL
      [[0xe0, 0x80, 0x80], 0], // overlong 3-byte
      [[0xed, 0xa0, 0x80], 0], // UTF-16 surrogate
      [[0xf4, 0x90, 0x80, 0x80], 0], // > U+10FFFF
      [[0x61, 0x62, 0xe2, 0x82], 2], // truncated at end of line
      [[0xff], 0],
    ];
    for (const [bytes, at] of cases) {
      const s = new LineSplitter();
      const [item] = s.pushItems(Buffer.from([...bytes, 0x0a]));
      assert.ok(item?.kind === 'error' && item.error instanceof InvalidUtf8Error, `bytes ${bytes}`);
      assert.equal(item.error.byteInLine, at, `bytes ${bytes}`);
    }
  });

  it('firstInvalidUtf8 agrees with the strict TextDecoder on random byte strings', () => {
    const strict = new TextDecoder('utf-8', { fatal: true });
    let seed = 0x9e3779b9;
    const rnd = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) >>> 24;
    for (let n = 0; n < 20000; n++) {
      const len = 1 + (rnd() % 8);
      // Bias toward the interesting high range.
      const bytes = Uint8Array.from({ length: len }, () => (rnd() < 96 ? rnd() & 0x7f : 0x80 | rnd()));
      let ok = true;
      try {
        strict.decode(bytes);
      } catch {
        ok = false;
      }
      assert.equal(firstInvalidUtf8(bytes) === -1, ok, `bytes ${[...bytes].map((b) => b.toString(16))}`);
    }
  });

  it('EOF mid-line: delivered and marked by default, an EofMidLineError under the error policy', () => {
    const d = new LineSplitter();
    assert.deepEqual(d.push('{"type":"a"}\n{"type":"b"}'), ['{"type":"a"}']);
    const [last] = d.endItems();
    assert.deepEqual(last, { kind: 'line', text: '{"type":"b"}', line: 2, offset: 13, terminated: false });
    assert.equal(d.deliveredUnterminatedLine, true);

    const e = new LineSplitter({ eofMidLine: 'error' });
    assert.deepEqual(e.push('{"type":"a"}\n{"type":"han'), ['{"type":"a"}']);
    assert.throws(
      () => e.end(),
      (err: unknown) => err instanceof EofMidLineError && err.pendingBytes === 12 && /^S2\.1: stream ended mid-line \(12 bytes/.test(err.message),
    );

    const clean = new LineSplitter({ eofMidLine: 'error' });
    clean.push('{"type":"a"}\n');
    assert.deepEqual(clean.end(), [], 'EOF right after a newline is a clean end');
  });

  it('EOF inside an over-long line reports the over-long line only', () => {
    const s = new LineSplitter({ maxLineBytes: 4, eofMidLine: 'error' });
    assert.equal(s.pushItems('123456').length, 1);
    assert.deepEqual(s.endItems(), []);
  });
});

describe('encodeLine / parseEnvelopeLine', () => {
  it('encodes one envelope as one line with escaped newlines', () => {
    const line = encodeLine({ type: 'frames', content: 'a\nb\r\nc\u2028' });
    assert.ok(line.endsWith('\n'));
    assert.equal(line.indexOf('\n'), line.length - 1, 'S2.1-no-newline: exactly one newline, at the end');
    assert.deepEqual(JSON.parse(line), { type: 'frames', content: 'a\nb\r\nc\u2028' });
    assert.throws(() => encodeLine(undefined), TypeError);
  });

  it('parses an envelope and returns (not throws) NotAnEnvelopeError otherwise', () => {
    assert.deepEqual(parseEnvelopeLine('{"type":"query","x":1}'), { type: 'query', x: 1 });
    for (const [text, reason] of [
      ['this is not valid json {{{', /invalid JSON/],
      ['[1,2]', /JSON array/],
      ['null', /JSON null/],
      ['"str"', /JSON string/],
      ['{"kind":"query"}', /no string "type"/],
      ['{"type":7}', /no string "type"/],
      ['', /invalid JSON/],
    ] as const) {
      const r = parseEnvelopeLine(text);
      assert.ok(r instanceof NotAnEnvelopeError, text);
      assert.ok(r instanceof TransportError);
      assert.equal(r.code, 'not_an_envelope');
      assert.match(r.reason, reason);
      assert.match(r.message, /^S2: not an envelope/);
    }
  });
});
