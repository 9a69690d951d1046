// A ConformanceFailure whose message quotes JSON (':' and '"' on one line, no '@') must not send
// cucumber's stack parser into catastrophic backtracking (it reads such a stack as a Firefox one): the
// failure is formatted at once, message first. The formatting is synchronous, so it runs in a child
// process with a time bound: a regression is a named failure, never a hung test run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const PROGRAM = `
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ConformanceFailure } from './src/conformance/provider-suite/errors.ts';
const require = createRequire(import.meta.url);
const { formatError } = require(join(process.cwd(), 'node_modules/@cucumber/cucumber/lib/runtime/format_error.js'));
const config = JSON.stringify({ name: 'future', ack: { x_session: { resume: true }, provider: { name: 'future', version: '1.5.0', homepage: 'https://future.example.test/', data_flow: { reads: true, writes: false, egress: false, retention_days: 0 } }, capabilities: { query: { kinds: ['doc'], max_anchors: 16 }, correlation: false, streaming: { chunk_bytes: 4096 } } }, record: '/tmp/cgp-host-scenario-h7JKzR/future.received.ndjson' });
const message = 'U1 violated: the host refused provider "future" at the handshake (unknown members at /x_session, /provider/homepage): HandshakeFailed: S2-wire-shape: handshake_ack from /usr/bin/node /work/main/src/conformance/host-suite/scripted/scripted-provider.cjs ' + config + ' carries members the schema does not define: /x_session, /provider/homepage; required: members it does not recognise are ignored, never a reason to reject the message';
process.stdout.write(JSON.stringify(formatError(new ConformanceFailure(message + '\\n' + message), true).message));
`;

test('a failure quoting a JSON command line is formatted at once and starts with its id', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', PROGRAM], { encoding: 'utf8', timeout: 20_000 });
  assert.equal(r.error, undefined, `formatting did not finish within 20 s: ${String(r.error)}`);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as string;
  assert.ok(out.startsWith('U1 violated'));
  assert.ok(out.includes('chunk_bytes'));
});
