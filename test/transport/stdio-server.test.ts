import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { InvalidUtf8Error, LineTooLongError, StdioConnection, serveStdio, type LineInfo, type StdioHandlerResult, type TransportError } from '../../src/transport/index.js';
import { NODE, REPO_ROOT } from './helpers.js';

function collect(stream: PassThrough): () => string[] {
  let text = '';
  stream.on('data', (c: Buffer) => (text += c.toString('utf8')));
  return () => text.split('\n').filter((l) => l !== '');
}

describe('serveStdio (in-process streams)', () => {
  it('hands lines and framing errors to the handler in order and writes replies in order', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const lines = collect(output);
    const calls: Array<[string, number, boolean]> = [];
    const handler = async (line: string | TransportError, info: LineInfo): Promise<StdioHandlerResult> => {
      calls.push([typeof line === 'string' ? line : line.code, info.line, info.terminated]);
      if (typeof line !== 'string') return { type: 'error', code: 'bad_request', detail: line.code };
      if (line === 'none') return null;
      if (line === 'two') return [{ type: 'a' }, { type: 'b' }];
      // Replies resolve out of wall-clock order; they must still be written in line order.
      await new Promise((r) => setTimeout(r, line === 'slow' ? 30 : 0));
      return { type: 'echo', line };
    };
    const done = serveStdio(handler, { input, output, maxLineBytes: 20 });
    input.write('slow\nfast\nno');
    input.write('ne\ntwo\n');
    input.write('x'.repeat(40) + '\n');
    input.write(Buffer.from([0xff, 0x0a]));
    input.end('last-unterminated');
    const result = await done;
    assert.deepEqual(result, { reason: 'eof', handled: 7 });
    assert.deepEqual(calls, [
      ['slow', 1, true],
      ['fast', 2, true],
      ['none', 3, true],
      ['two', 4, true],
      ['line_too_long', 5, true],
      ['invalid_utf8', 6, true],
      ['last-unterminated', 7, false],
    ]);
    assert.deepEqual(
      lines().map((l) => JSON.parse(l)),
      [
        { type: 'echo', line: 'slow' },
        { type: 'echo', line: 'fast' },
        { type: 'a' },
        { type: 'b' },
        { type: 'error', code: 'bad_request', detail: 'line_too_long' },
        { type: 'error', code: 'bad_request', detail: 'invalid_utf8' },
        { type: 'echo', line: 'last-unterminated' },
      ],
    );
  });

  it("stops when the handler returns 'exit', without reading further lines", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const seen: string[] = [];
    const done = serveStdio(
      (line) => {
        seen.push(String(line));
        return line === 'bye' ? 'exit' : { type: 'ok' };
      },
      { input, output },
    );
    input.write('one\nbye\nnever\n');
    assert.deepEqual(await done, { reason: 'exit', handled: 2 });
    assert.deepEqual(seen, ['one', 'bye']);
  });

  it('passes the error object itself, so the provider can answer bad_request', async () => {
    const input = new PassThrough();
    const errors: unknown[] = [];
    const done = serveStdio(
      (line) => {
        if (typeof line !== 'string') errors.push(line);
        return null;
      },
      { input, output: new PassThrough(), maxLineBytes: 4, eofMidLine: 'error' },
    );
    input.end(Buffer.concat([Buffer.from('toolong\n'), Buffer.from([0xc3, 0x0a]), Buffer.from('tail')]));
    await done;
    assert.ok(errors[0] instanceof LineTooLongError);
    assert.ok(errors[1] instanceof InvalidUtf8Error);
    assert.equal((errors[2] as TransportError).code, 'eof_mid_line');
  });

  it('rejects when the handler throws (the provider decides, nothing is swallowed)', async () => {
    const input = new PassThrough();
    const done = serveStdio(
      () => {
        throw new Error('handler bug');
      },
      { input, output: new PassThrough() },
    );
    input.end('x\n');
    await assert.rejects(done, /handler bug/);
  });
});

describe('serveStdio end to end (real child, real pipes)', () => {
  it('serves a StdioConnection: handshake, R1 after garbage and an over-long line, notification, multi-reply, clean shutdown', async () => {
    const fixture = fileURLToPath(new URL('../fixtures/transport/serve-fixture.ts', import.meta.url));
    const c = await StdioConnection.spawn(NODE, ['--import', 'tsx', fixture], { cwd: REPO_ROOT });
    try {
      assert.equal((await c.handshake('contextgraph/1.0', 10_000)).type, 'handshake_ack');
      await c.sendRaw('this is not valid json {{{\n');
      assert.deepEqual(await c.next(5000), { type: 'error', code: 'bad_request', message: 'not_an_envelope' });
      await c.sendRaw('y'.repeat(5000) + '\n');
      assert.deepEqual(await c.next(5000), { type: 'error', code: 'bad_request', message: 'line_too_long' });
      assert.deepEqual(await c.request({ type: 'query', id: 'q1' }, 5000), { type: 'frames', id: 'q1', frames: [], echo: 'query' });
      await c.send({ type: 'note' });
      assert.equal(await c.poll(100), undefined, 'a notification gets no reply');
      await c.send({ type: 'multi' });
      assert.deepEqual([await c.next(5000), await c.next(5000)], [{ type: 'one' }, { type: 'two' }]);
      const r = await c.shutdown(2000);
      assert.equal(r.clean, true, `exit ${r.exitCode} ${r.signal}; stderr: ${c.stderrTail()}`);
      assert.match(c.stderrTail(), /serve-fixture: exit after 7 lines/);
    } finally {
      await c.close();
    }
  });
});
