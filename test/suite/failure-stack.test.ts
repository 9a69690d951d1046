// A ConformanceFailure whose message quotes JSON (':' and '"' on one line, no '@') must not send
// cucumber's stack parser into catastrophic backtracking (it reads such a stack as a Firefox one): the
// failure is formatted at once, message first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ConformanceFailure } from '../../src/conformance/suite/errors.js';

const require = createRequire(import.meta.url);
const { formatError } = require(join(process.cwd(), 'node_modules/@cucumber/cucumber/lib/runtime/format_error.js')) as {
  formatError: (e: Error, filter: boolean) => { message: string };
};

test('a failure quoting a JSON command line is formatted at once and starts with its id', () => {
  const config = JSON.stringify({ name: 'future', ack: { provider: { homepage: 'https://future.example.test/' }, capabilities: { streaming: { chunk_bytes: 4096 } } } });
  const message = `U1 violated: the host refused provider "future": HandshakeFailed: handshake_ack from /usr/bin/node /x/scripted-provider.mjs ${config} carries members the schema does not define`;
  const t0 = Date.now();
  const out = formatError(new ConformanceFailure(`${message}\n${message}`), true);
  assert.ok(Date.now() - t0 < 1_000, `formatting took ${Date.now() - t0} ms`);
  assert.ok(out.message.startsWith('U1 violated'));
  assert.ok(out.message.includes('chunk_bytes'));
});
