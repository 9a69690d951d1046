// A hostile stdio provider for the host/harness robustness run. Plain JS: it starts in ~50 ms.
// Usage: node hostile-provider.mjs <shape> [pid-dir]
// It acks the handshake honestly (unless the shape is about the ack), then answers every query in the hostile
// way its shape names. shutdown → exit 0 (unless ignore-shutdown). Its pid (and a grandchild's, for
// `grandchild`) is written to <pid-dir>/<pid> so the caller can check that nothing outlives the run.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The shapes are listed in scripts/fuzz/hostile.ts (HOSTILE_SHAPES).

const shape = process.argv[2] ?? 'hang';
const pidDir = process.argv[3];
if (pidDir) writeFileSync(join(pidDir, String(process.pid)), shape);
const w = (s) => process.stdout.write(s);
const out = (o) => w(`${JSON.stringify(o)}\n`);
const ACK = {
  type: 'handshake_ack',
  protocol_version: 'contextgraph/1.0',
  provider: { name: 'hostile', version: '0.0.1', data_flow: { reads: true, writes: false, egress: false, egress_scopes: ['local-only'] } },
  capabilities: { query: { kinds: ['doc'] }, correlation: true },
};
const frame = (i, content = 'x') => ({ id: `frm_${i}`, kind: 'doc', title: `t${i}`, content, score: 0.5, token_cost: Math.ceil(Buffer.byteLength(content) / 4) });
const frames = (id, list) => out({ type: 'frames', id, result: { frames: list, truncated: false } });

if (shape === 'grandchild') {
  const g = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  if (pidDir) writeFileSync(join(pidDir, String(g.pid)), 'grandchild');
}
if (shape === 'ignore-shutdown') process.on('SIGTERM', () => {});
if (shape === 'no-read') {
  out(ACK); // acks without being asked, then never reads its stdin again
  process.stdin.pause();
  setInterval(() => {}, 1000);
} else {
  let buf = Buffer.alloc(0);
  process.stdin.on('data', (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    let i;
    while ((i = buf.indexOf(0x0a)) >= 0) {
      const line = buf.subarray(0, i).toString('utf8');
      buf = buf.subarray(i + 1);
      let msg;
      try {
        msg = JSON.parse(line);
      } catch {
        continue;
      }
      onMessage(msg);
    }
  });
  process.stdin.on('end', () => {
    if (shape !== 'ignore-shutdown') process.exit(0);
  });
}

function onMessage(msg) {
  if (msg.type === 'shutdown') {
    if (shape !== 'ignore-shutdown') process.exit(0);
    return;
  }
  if (msg.type === 'handshake') return handshake();
  if (msg.type === 'query' || msg.type === 'verify') return answer(msg.id);
}

function handshake() {
  switch (shape) {
    case 'ack-stall':
      return;
    case 'noise-before-ack':
      out({ type: 'frames', id: 'early', result: { frames: [frame(0)], truncated: false } });
      w('garbage before the ack\n');
      return out(ACK);
    case 'foreign-ack-id':
      return out({ ...ACK, id: 'not-yours', protocol_version: 'contextgraph/2.0' });
    case 'crash-after-ack':
      return w(`${JSON.stringify(ACK)}\n`, () => process.exit(9));
    default:
      return out(ACK);
  }
}

function answer(id) {
  const idJson = JSON.stringify(id ?? null);
  switch (shape) {
    case 'crash-mid-line':
      return w(`{"type":"frames","id":${idJson},"result":{"fra`, () => process.exit(3));
    case 'hang':
    case 'ignore-shutdown':
      return;
    case 'drip': {
      const text = `${JSON.stringify({ type: 'frames', id, result: { frames: [frame(1)], truncated: false } })}\n`;
      let k = 0;
      const t = setInterval(() => {
        if (k >= text.length) return clearInterval(t);
        w(text[k++]);
      }, 40);
      return;
    }
    case 'giant-line-64mib': {
      const block = 'a'.repeat(1 << 20);
      let left = 64;
      const pump = () => {
        while (left > 0) {
          left--;
          if (!process.stdout.write(block)) return process.stdout.once('drain', pump);
        }
        w('\n');
        frames(id, [frame(1)]);
      };
      return pump();
    }
    case 'invalid-utf8':
      return w(Buffer.concat([Buffer.from(`{"type":"frames","id":${idJson},"result":{"frames":[],"truncated":false},"x":"`), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}\n')]));
    case 'not-json':
      return w('this is not json\n');
    case 'truncated-json':
      return w(`{"type":"frames","id":${idJson},"result":{"fra\n`);
    case 'blank-lines':
      w('\n'.repeat(1000));
      return frames(id, [frame(1)]);
    case 'deep-nesting':
      return w(`{"type":"frames","id":${idJson},"result":{"frames":${'['.repeat(200_000)}${']'.repeat(200_000)},"truncated":false}}\n`);
    case 'proto-keys':
      return w(
        `{"type":"frames","id":${idJson},"__proto__":{"polluted":true},"result":{"__proto__":{"truncated":true},"frames":[{"id":"frm_p","kind":"doc","content":"x","score":0.5,"token_cost":1,"__proto__":{"token_cost":99},"constructor":{"prototype":{"polluted":1}}}],"truncated":false}}\n`,
      );
    case 'huge-numbers':
      return w(
        `{"type":"frames","id":${idJson},"result":{"frames":[{"id":"frm_h","kind":"doc","content":"x","score":1e400,"token_cost":1e400}],"truncated":false,"dropped_estimate":18446744073709551616}}\n`,
      );
    case 'lone-surrogates':
      return w(
        `{"type":"frames","id":${idJson},"result":{"frames":[{"id":"frm_\\ud800","kind":"doc","title":"\\udfff","content":"a\\ud800b","score":0.5,"token_cost":1,"citation_label":"\\udc00"}],"truncated":false}}\n`,
      );
    case 'wrong-types':
      return out({ type: 'frames', id, result: { frames: [{ id: 7, kind: null, content: ['x'], score: '0.5', token_cost: '1' }, 'frame', null], truncated: 'no' } });
    case 'unknown-type-then-answer':
      out({ type: 'vendor:progress', id, pct: 50 });
      return frames(id, [frame(1)]);
    case 'duplicate-id':
      frames(id, [frame(1)]);
      return frames(id, [frame(2)]);
    case 'foreign-id':
      return frames(`not-${id}`, [frame(1)]);
    case 'flood-10k-frames':
      return frames(
        id,
        Array.from({ length: 10_000 }, (_, i) => frame(i, `content of frame ${i}`)),
      );
    case 'line-flood': {
      let n = 0;
      const pump = () => {
        while (process.stdout.write(`{"type":"vendor:noise","n":${n++}}\n`));
        process.stdout.once('drain', pump);
      };
      return pump();
    }
    default:
      return frames(id, [frame(1)]);
  }
}
