// checkEnvelope over the reference repo's example messages (read from ../shared, never copied).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkEnvelope } from '../../src/protocol/envelope-checks.js';
import type { Finding } from '../../src/protocol/findings.js';
import { isJsonObject } from '../../src/protocol/json-value.js';
import { assertFindings, type Expected, EXTERNAL_SKIP, readShared, SHARED_PRESENT } from './helpers.js';

/** Check a message stream the way `validate` does: frames against their query, F11 against the ack's name. */
function checkStream(messages: unknown[], pointerOf: (i: number) => string): Finding[] {
  const out: Finding[] = [];
  const queries = new Map<string, unknown>();
  let lastQuery: unknown;
  let providerName: string | undefined;
  messages.forEach((m, i) => {
    const env = isJsonObject(m) ? m : {};
    const query = typeof env.id === 'string' && queries.has(env.id) ? queries.get(env.id) : lastQuery;
    out.push(...checkEnvelope(m, pointerOf(i), env.type === 'frames' ? { query, ...(providerName ? { providerName } : {}) } : {}));
    if (env.type === 'query') {
      lastQuery = env.query;
      if (typeof env.id === 'string') queries.set(env.id, env.query);
    }
    if (env.type === 'handshake_ack' && isJsonObject(env.provider) && typeof env.provider.name === 'string') providerName = env.provider.name;
  });
  return out;
}

const err = (id: string, pointer: string): Expected => ({ id, severity: 'error', pointer });
const warn = (id: string, pointer: string): Expected => ({ id, severity: 'warning', pointer });

test('full-stdio-session.ndjson: only S6.3-content-digest warnings (placeholder digests)', (t) => {
  if (!SHARED_PRESENT) {
    t.skip(EXTERNAL_SKIP);
    return;
  }
  const lines = readShared('reference-examples', 'full-stdio-session.ndjson')
    .split('\n')
    .filter((l) => l.trim() !== '');
  assert.equal(lines.length, 7);
  const findings = checkStream(
    lines.map((l) => JSON.parse(l) as unknown),
    (i) => `/${i}`,
  );
  assertFindings(findings, [warn('S6.3-content-digest', '/3/result/frames/0/content_digest'), warn('S6.3-content-digest', '/3/result/frames/1/content_digest')]);
});

test('reference-messages.json: exactly the known D1, V4 and B3 defects', (t) => {
  if (!SHARED_PRESENT) {
    t.skip(EXTERNAL_SKIP);
    return;
  }
  const messages = JSON.parse(readShared('reference-examples', 'reference-messages.json')) as unknown[];
  assert.equal(messages.length, 12);
  const findings = checkStream(messages, (i) => `/${i}`);
  assertFindings(findings, [
    // [4] frames: the short content_digests
    err('D1', '/4/result/frames/0/content_digest'),
    err('D1', '/4/result/frames/1/content_digest'),
    // [5] verify: the same short digests
    err('D1', '/5/request/frames/0/content_digest'),
    err('D1', '/5/request/frames/1/content_digest'),
    // [6] verified: the echoed identities, and the short replacement_digest
    err('D1', '/6/response/verdicts/0/frame/content_digest'),
    err('D1', '/6/response/verdicts/1/frame/content_digest'),
    err('V4', '/6/response/verdicts/1/replacement_digest'),
    // [11] frames: the compact frame's short digest and its dishonest token_cost
    err('D1', '/11/result/frames/0/content_digest'),
    err('B3', '/11/result/frames/0/token_cost'),
  ]);
  // The content is 79 UTF-8 bytes (not 80); ceil(79/4) = 20 either way.
  // No S6.3 warnings: every content_digest in the file is malformed, so D1 (not S6.3) reports it.
  const b3 = findings.find((f) => f.id === 'B3');
  assert.equal(b3?.message, 'B3 violated: frame "cloud-docs:runbook-compact" declares token_cost 24, content is 79 bytes → ceil(79/4) = 20');
});
