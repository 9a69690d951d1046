// The scripted provider's `held=<ms>` (docs/interpretations.md §85): a held answer is written once the answer
// to a query that arrived after it has been written — an event, not a time — and its bound only ends it for
// a host that sends one query at a time. The held query here has a bound of 10 minutes, so a release that
// waited for the bound would outlive the test's own timeout.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { SCRIPTED_PROVIDER } from '../../../../src/conformance/host-suite/scripted/scripted-relay.js';

function start(config: Record<string, unknown>) {
  const child = spawn(process.execPath, [SCRIPTED_PROVIDER, JSON.stringify(config)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  let buf = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (c: string) => {
    buf += c;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      lines.push(JSON.parse(buf.slice(0, i)) as Record<string, unknown>);
      buf = buf.slice(i + 1);
      for (const w of waiters.splice(0)) w();
    }
  });
  const send = (env: Record<string, unknown>) => child.stdin.write(JSON.stringify(env) + '\n');
  const until = async (n: number) => {
    while (lines.length < n) await new Promise<void>((r) => waiters.push(r));
  };
  const query = (id: string, goal: string) => send({ type: 'query', id, query: { goal, kinds: [], anchors: [], max_frames: 4, max_tokens: 1000 } });
  return { child, lines, send, until, query };
}

test('held=<ms>: the held answer follows the answer to the query after it, long before its bound', { timeout: 30_000 }, async () => {
  const p = start({ correlation: true, concurrent: true, echoGoal: true });
  try {
    p.send({ type: 'handshake', protocol_version: 'contextgraph/1.0' });
    p.query('q-slow', 'the slow one held=600000');
    p.query('q-fast', 'the fast one delay=0');
    await p.until(3);
    assert.deepEqual(
      p.lines.slice(1).map((l) => l.id),
      ['q-fast', 'q-slow'],
      'the fast answer first, then the held one',
    );
  } finally {
    p.child.kill();
  }
});

test('held=<ms>: a query answered before it arrived does not release it; its bound does (one query at a time)', { timeout: 30_000 }, async () => {
  const p = start({ correlation: true, concurrent: true, echoGoal: true });
  try {
    p.send({ type: 'handshake', protocol_version: 'contextgraph/1.0' });
    p.query('q-first', 'answered at once');
    await p.until(2);
    p.query('q-held', 'held alone held=50');
    await p.until(3);
    assert.deepEqual(
      p.lines.slice(1).map((l) => l.id),
      ['q-first', 'q-held'],
    );
  } finally {
    p.child.kill();
  }
});
