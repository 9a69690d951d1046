import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  ConnectionClosedError,
  CorrelationError,
  EofMidLineError,
  InvalidUtf8Error,
  LineTooLongError,
  NotAnEnvelopeError,
  PeerClosedError,
  SpawnError,
  StdioConnection,
  TimeoutError,
  type TranscriptEntry,
} from '../../src/transport/index.js';
import { NODE, PEER, isAlive, timed, waitUntil } from './helpers.js';

const open: StdioConnection[] = [];
async function peer(mode: string, extra: string[] = [], opts: Parameters<typeof StdioConnection.spawn>[2] = {}): Promise<StdioConnection> {
  const c = await StdioConnection.spawn(NODE, [PEER, mode, ...extra], opts);
  open.push(c);
  return c;
}
after(async () => {
  await Promise.all(open.map((c) => c.close()));
});

describe('StdioConnection: round trips', () => {
  it('handshakes and answers a lock-step request; the transcript and onLine hook see every raw line', async () => {
    const seen: TranscriptEntry[] = [];
    const c = await peer('echo', [], { onLine: (e) => seen.push(e) });
    const ack = await c.handshake('contextgraph/1.0', 5000);
    assert.equal(ack.type, 'handshake_ack');
    const reply = await c.request({ type: 'query', goal: 'g' }, 5000);
    assert.deepEqual(reply, { type: 'echo', got: { type: 'query', goal: 'g' } });
    assert.deepEqual(
      c.transcript.entries.map((e) => [e.direction, JSON.parse(e.line).type]),
      [
        ['out', 'handshake'],
        ['in', 'handshake_ack'],
        ['out', 'query'],
        ['in', 'echo'],
      ],
    );
    assert.equal(seen.length, 4);
    assert.equal(c.transcript.entries[0]!.line, '{"type":"handshake","protocol_version":"contextgraph/1.0"}');
  });

  it('serialises concurrent lock-step requests', async () => {
    const c = await peer('echo');
    const replies = await Promise.all([1, 2, 3, 4].map((n) => c.request({ type: 'query', n }, 5000)));
    assert.deepEqual(
      replies.map((r) => (r.got as { n: number }).n),
      [1, 2, 3, 4],
    );
  });

  it('sendRaw writes a malformed probe verbatim and marks it in the transcript', async () => {
    const c = await peer('echo');
    await c.sendRaw('this is not valid json {{{\n');
    assert.deepEqual(await c.next(5000), { type: 'error', code: 'bad_request' });
    const out = c.transcript.entries.find((e) => e.direction === 'out')!;
    assert.equal(out.raw, true);
    assert.equal(out.line, 'this is not valid json {{{');
  });

  it('clears the environment except PATH and HOME by default; env and extraEnv override', async () => {
    process.env.CGP_TRANSPORT_TEST_SECRET = 'must-not-leak';
    try {
      const c = await peer('env');
      const { env } = (await c.next(5000)) as unknown as { env: Record<string, string> };
      const keys = Object.keys(env).filter((k) => k !== 'PATH' && k !== 'HOME');
      assert.deepEqual(keys, [], `only PATH and HOME may reach the child, got ${keys.join(',')}`);
      assert.equal(env.PATH, process.env.PATH);

      const d = await peer('env', [], { extraEnv: { CGP_EXTRA: '1' } });
      const env2 = ((await d.next(5000)) as unknown as { env: Record<string, string> }).env;
      assert.equal(env2.CGP_EXTRA, '1');
      assert.equal(env2.CGP_TRANSPORT_TEST_SECRET, undefined);

      const e = await peer('env', [], { env: { ONLY: 'this' } });
      const env3 = ((await e.next(5000)) as unknown as { env: Record<string, string> }).env;
      assert.equal(env3.ONLY, 'this');
      assert.equal(env3.PATH, undefined);
    } finally {
      delete process.env.CGP_TRANSPORT_TEST_SECRET;
    }
  });

  it('a spawn failure is a named SpawnError', async () => {
    await assert.rejects(StdioConnection.spawn('/nonexistent/cgp-provider', []), (err: unknown) => {
      return err instanceof SpawnError && err.code === 'spawn_failed' && /\/nonexistent\/cgp-provider/.test(err.message);
    });
  });
});

describe('StdioConnection: stalls are bounded and named', () => {
  it('a child that never answers times out within its bound; the next read fails fast', async () => {
    const c = await peer('silent');
    const bound = 400;
    const first = await timed(c.request({ type: 'query' }, bound));
    assert.ok(first.error instanceof TimeoutError, 'expected TimeoutError');
    assert.equal(first.error.what, 'request');
    assert.equal(first.error.failFast, false);
    assert.ok(first.ms >= bound - 20 && first.ms < bound + 1000, `took ${first.ms} ms`);
    assert.equal(c.stalled, true);

    const second = await timed(c.next(10_000));
    assert.ok(second.error instanceof TimeoutError);
    assert.equal(second.error.failFast, true);
    assert.match(second.error.message, /target unresponsive since \d+ ms/);
    assert.ok(second.ms < 100, `fail-fast took ${second.ms} ms`);
    const third = await timed(c.request({ type: 'query' }, 10_000));
    assert.ok(third.error instanceof TimeoutError && third.error.failFast && third.ms < 100);
  });

  it('a handshake that is never acked is a handshake TimeoutError', async () => {
    const c = await peer('silent');
    const r = await timed(c.handshake('contextgraph/1.0', 300));
    assert.ok(r.error instanceof TimeoutError);
    assert.equal(r.error.what, 'handshake');
    assert.match(r.error.message, /^handshake timed out after 300 ms/);
    assert.ok(r.ms < 1300);
  });

  it('poll() treats silence as an answer and does not mark the connection stalled', async () => {
    const c = await peer('echo');
    assert.equal(await c.poll(150), undefined);
    assert.equal(c.stalled, false);
    assert.equal((await c.request({ type: 'query' }, 5000)).type, 'echo');
  });

  it('a child that stops reading its stdin makes send() a named write timeout, not a hang', async () => {
    const c = await peer('no-read', [], { writeTimeoutMs: 300 });
    const r = await timed(c.send({ type: 'query', pad: 'x'.repeat(4 << 20) }));
    assert.ok(r.error instanceof TimeoutError, `expected TimeoutError, got ${String(r.error)}`);
    assert.equal(r.error.what, 'write');
    assert.ok(r.ms < 1300);
  });
});

describe('StdioConnection: hostile output', () => {
  it('a child that crashes mid-line: EofMidLineError, then PeerClosedError with exit code and stderr tail', async () => {
    const c = await peer('crash-mid-line');
    await c.send({ type: 'handshake', protocol_version: 'contextgraph/1.0' });
    await assert.rejects(c.next(5000), (err: unknown) => err instanceof EofMidLineError && /stream ended mid-line/.test(err.message));
    await assert.rejects(c.next(5000), (err: unknown) => {
      assert.ok(err instanceof PeerClosedError, String(err));
      assert.equal(err.exitCode, 3);
      assert.match(err.stderrTail, /about to crash/);
      assert.match(err.message, /peer closed its stdout \(EOF\) \(exit code 3\); stderr tail: peer: about to crash/);
      return true;
    });
    assert.equal(c.sawUnterminatedFinalLine, true);
  });

  it("with eofMidLine:'error' the truncated line is an EofMidLineError too", async () => {
    const c = await peer('crash-mid-line', [], { eofMidLine: 'error' });
    await c.send({ type: 'handshake' });
    await assert.rejects(c.next(5000), EofMidLineError);
  });

  it('a complete final envelope without newline is delivered (as the reference does) and marked', async () => {
    const c = await peer('unterminated-ok');
    assert.deepEqual(await c.next(5000), { type: 'last' });
    assert.equal(c.sawUnterminatedFinalLine, true);
    assert.equal(c.transcript.entries.at(-1)!.unterminated, true);
    await assert.rejects(c.next(5000), (err: unknown) => err instanceof PeerClosedError && err.exitCode === 0);
  });

  it('an over-long line is rejected and the next line still arrives', async () => {
    const c = await peer('giant-line', [String(1 << 20)], { maxLineBytes: 64 * 1024 });
    await assert.rejects(c.next(5000), (err: unknown) => err instanceof LineTooLongError && err.limit === 65536);
    assert.deepEqual(await c.next(5000), { type: 'after-giant' });
    const bad = c.transcript.entries.find((e) => e.error);
    assert.equal(bad?.error, 'line_too_long');
  });

  it('invalid UTF-8 is an InvalidUtf8Error naming line 1; the next line still arrives', async () => {
    const c = await peer('bad-utf8');
    await assert.rejects(c.next(5000), (err: unknown) => err instanceof InvalidUtf8Error && err.line === 1 && err.byteInLine === 2);
    assert.deepEqual(await c.next(5000), { type: 'after-bad-utf8' });
  });

  it('a non-JSON line is a NotAnEnvelopeError; the next line still arrives', async () => {
    const c = await peer('garbage-then-ok');
    await assert.rejects(c.next(5000), (err: unknown) => err instanceof NotAnEnvelopeError && /this is not json/.test(err.message));
    assert.deepEqual(await c.next(5000), { type: 'ok' });
  });

  it('a flooding child is throttled by back-pressure: the unread queue stays bounded and nothing is lost', async () => {
    const c = await peer('flood');
    await new Promise((r) => setTimeout(r, 400));
    const q = c.queued;
    // Pause at 1024 queued; at most one more 64 KiB pipe chunk of ~17-byte lines lands before it takes effect.
    assert.ok(q >= 1024 && q <= 1024 + 65536 / 17, `queued ${q}`);
    for (let i = 0; i < 10_000; i++) {
      const e = await c.next(5000);
      assert.equal(e.n, i);
    }
  });

  it('stderr is captured into a bounded tail (64 KiB)', async () => {
    const c = await peer('stderr-spam');
    await assert.rejects(c.next(5000), (err: unknown) => err instanceof PeerClosedError && err.exitCode === 7);
    const tail = c.stderrTail();
    assert.ok(tail.length <= 64 * 1024, `tail is ${tail.length} bytes`);
    assert.match(tail, /THE-END\n$/);
  });

  it('writing to a child that has exited is a PeerClosedError (EPIPE), not a crash', async () => {
    const c = await peer('exit-on-first');
    await c.send({ type: 'query' });
    assert.ok(await waitUntil(() => c.exitStatus !== null, 5000));
    const r = await timed(
      (async () => {
        for (let i = 0; i < 50; i++) await c.send({ type: 'query', i }); // the first write may still land in the pipe buffer
      })(),
    );
    assert.ok(r.error instanceof PeerClosedError, `expected PeerClosedError, got ${String(r.error)}`);
  });
});

describe('StdioConnection: correlation (H4)', () => {
  it('demultiplexes 8 pipelined requests answered in reverse order', async () => {
    const c = await peer('reverse', ['8']);
    const ids = Array.from({ length: 8 }, (_, n) => `q${n + 1}`);
    const replies = await Promise.all(ids.map((id, n) => c.requestWithId({ type: 'query', id, n }, 5000)));
    assert.deepEqual(
      replies.map((r) => [r.id, r.n]),
      ids.map((id, n) => [id, n]),
    );
    // The wire really was out of order.
    const inbound = c.transcript.entries.filter((e) => e.direction === 'in').map((e) => JSON.parse(e.line).id);
    assert.deepEqual(inbound, [...ids].reverse());
  });

  it('a stray non-envelope line while requests are in flight fails none of them; it stays queued as a framing error', async () => {
    const c = await peer('reverse-stray', ['3']);
    const ids = ['p1', 'p2', 'p3'];
    const replies = await Promise.all(ids.map((id, n) => c.requestWithId({ type: 'query', id, n }, 5000)));
    assert.deepEqual(
      replies.map((r) => r.id),
      ids,
    );
    assert.equal(c.queued, 1);
    await assert.rejects(c.next(1000), NotAnEnvelopeError);
  });

  it('a reply with an unknown id is a CorrelationError naming H4', async () => {
    const c = await peer('wrong-id');
    await assert.rejects(c.requestWithId({ type: 'query', id: 'q1' }, 5000), (err: unknown) => {
      return err instanceof CorrelationError && err.gotId === 'q1-not' && /^H4 violated/.test(err.message) && err.pendingIds[0] === 'q1';
    });
  });

  it('a reply without an id while only correlated requests are pending is a CorrelationError', async () => {
    const c = await peer('no-id');
    await assert.rejects(c.requestWithId({ type: 'query', id: 'q9' }, 5000), (err: unknown) => {
      return err instanceof CorrelationError && err.gotId === undefined && /carries id <absent>/.test(err.message);
    });
  });

  it('refuses a missing or duplicate id', async () => {
    const c = await peer('silent');
    await assert.rejects(c.requestWithId({ type: 'query' } as unknown as { id: string }, 100), TypeError);
    await assert.rejects(c.requestWithId({ type: 'query', id: 'big', n: 1n }, 100), TypeError, 'not serialisable');
    await assert.rejects(c.requestWithId({ type: 'query', id: 'big' }, 100), TimeoutError, 'the failed call left no waiter behind');
    const fresh = await peer('silent');
    const pending = fresh.requestWithId({ type: 'query', id: 'dup' }, 300);
    await assert.rejects(fresh.requestWithId({ type: 'query', id: 'dup' }, 300), TypeError);
    await assert.rejects(pending, TimeoutError);
  });
});

describe('StdioConnection: shutdown and cleanup', () => {
  it('a well-behaved child shuts down cleanly with exit code 0', async () => {
    const c = await peer('echo');
    await c.handshake('contextgraph/1.0', 5000);
    const r = await c.shutdown(2000);
    assert.deepEqual([r.clean, r.killed, r.exitCode, r.signal], [true, false, 0, null]);
    assert.equal(isAlive(c.pid), false);
  });

  it('a child that ignores shutdown is SIGKILLed after the grace period', async () => {
    const c = await peer('ignore-shutdown');
    await c.handshake('contextgraph/1.0', 5000);
    const grace = 500;
    const t = await timed(c.shutdown(grace));
    assert.ok(t.value, String(t.error));
    assert.deepEqual([t.value.clean, t.value.killed, t.value.signal], [false, true, 'SIGKILL']);
    assert.ok(t.ms >= grace - 20 && t.ms < grace + 1000, `took ${t.ms} ms`);
  });

  it('close() kills the whole process group: child and grandchild are gone', async () => {
    const c = await peer('grandchild');
    const pids = (await c.next(5000)) as unknown as { child: number; grandchild: number };
    assert.equal(pids.child, c.pid);
    assert.ok(isAlive(pids.child) && isAlive(pids.grandchild), 'both running before close');
    await c.close();
    await c.close(); // idempotent
    assert.ok(await waitUntil(() => !isAlive(pids.child) && !isAlive(pids.grandchild), 2000), 'both gone after close');
    await assert.rejects(c.next(100), ConnectionClosedError);
  });

  it('shutdown() of a child that ignores it also takes the grandchild down', async () => {
    const c = await peer('grandchild');
    const pids = (await c.next(5000)) as unknown as { child: number; grandchild: number };
    const r = await c.shutdown(300);
    assert.equal(r.killed, true);
    assert.ok(await waitUntil(() => !isAlive(pids.child) && !isAlive(pids.grandchild), 2000));
  });

  it('close() fails a pending read with ConnectionClosedError', async () => {
    const c = await peer('silent');
    const pending = assert.rejects(c.next(5000), ConnectionClosedError);
    await c.close();
    await pending;
  });
});
