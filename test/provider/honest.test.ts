// The honest reference provider, in-process: every provider-side anchor it is meant to exercise.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { PROTOCOL_VERSION, budgetTokens, checkEnvelope, checkFrame, checkHandshakeAck, isProtocolTimestamp, isWellFormedDigest, sha256Digest, type JsonObject } from '../../src/protocol/index.js';
import { EMBEDDINGS_FINGERPRINT, PROVIDER_NAME, RETIRED_FRAME_IDS } from '../../src/provider/catalogue.js';
import { createProvider, type Provider } from '../../src/provider/core.js';
import { distill, lineRangeBytes } from '../../src/provider/corpus.js';
import { AS_OF, BACKOFF_URI, SAMPLE_QUERY, VERIFY_IDENTITIES, corpus, queryEnvelope, rereadDigest } from './script.js';

function provider(): Provider {
  return createProvider({ corpus });
}

async function send(p: Provider, input: string | object): Promise<JsonObject[]> {
  return (await p.handle(typeof input === 'string' ? input : JSON.stringify(input))).envelopes;
}

async function one(p: Provider, input: string | object): Promise<JsonObject> {
  const envelopes = await send(p, input);
  assert.equal(envelopes.length, 1, `expected one reply to ${JSON.stringify(input).slice(0, 80)}`);
  return envelopes[0]!;
}

async function frames(p: Provider, extra: Record<string, unknown> = {}, id = 'q'): Promise<{ env: JsonObject; frames: JsonObject[] }> {
  const env = await one(p, queryEnvelope(id, extra));
  assert.equal(env.type, 'frames', `expected frames, got ${JSON.stringify(env)}`);
  assert.equal(env.id, id);
  const result = env.result as JsonObject;
  return { env, frames: result.frames as JsonObject[] };
}

function expectError(env: JsonObject, code: string, id?: string): void {
  assert.equal(env.type, 'error', JSON.stringify(env));
  assert.equal(env.code, code);
  assert.ok(typeof env.message === 'string' && env.message.length > 0);
  assert.equal(env.id, id);
}

const anchored = (f: JsonObject, anchor: string) => f.uri === anchor || ((f.relations as JsonObject[] | undefined) ?? []).some((r) => r.target_uri === anchor);

describe('handshake (H1–H3)', () => {
  it('acks contextgraph/1.0 as example-docs with the declared capabilities', async () => {
    const ack = await one(provider(), { type: 'handshake', protocol_version: PROTOCOL_VERSION });
    assert.equal(ack.type, 'handshake_ack');
    assert.equal(ack.protocol_version, 'contextgraph/1.0');
    assert.deepEqual(checkHandshakeAck(ack), []);
    const info = ack.provider as JsonObject;
    assert.equal(info.name, PROVIDER_NAME);
    assert.ok(typeof info.version === 'string' && info.version.length > 0);
    assert.deepEqual(info.data_flow, { reads: true, writes: false, egress: false, egress_scopes: ['local-only'] });
    assert.deepEqual(ack.capabilities, {
      query: { kinds: ['doc', 'snippet', 'symbol'] },
      correlation: true,
      graph: true,
      embeddings_fingerprint: EMBEDDINGS_FINGERPRINT,
      verify: true,
      representations: ['full', 'compact'],
      resolve: true,
    });
  });

  it('acks any contextgraph/1.x, refuses a foreign family with incompatible_version, and keeps serving', async () => {
    const p = provider();
    assert.equal((await one(p, { type: 'handshake', protocol_version: 'contextgraph/1.7-draft' })).type, 'handshake_ack');
    expectError(await one(p, { type: 'handshake', protocol_version: 'contextgraph/2.0' }), 'incompatible_version');
    expectError(await one(p, { type: 'handshake', protocol_version: 'othergraph/1.0' }), 'incompatible_version');
    expectError(await one(p, { type: 'handshake' }), 'bad_request');
    expectError(await one(p, { type: 'handshake', protocol_version: 'contextgraph/1' }), 'bad_request');
    assert.equal((await frames(p)).frames.length, corpus.frames.length);
  });
});

describe('sample query: frame validity and budget honesty', () => {
  it('returns every frame, each passing checkFrame with zero findings', async () => {
    const { env, frames: fs } = await frames(provider(), {}, 'q-sample');
    assert.deepEqual(checkEnvelope(env, '', { query: SAMPLE_QUERY, providerName: PROVIDER_NAME, overTransport: true }), []);
    fs.forEach((f, i) => assert.deepEqual(checkFrame(f, `/result/frames/${i}`), []));
    assert.equal(fs.length, corpus.frames.length);
    assert.deepEqual((env.result as JsonObject).truncated, false);
    assert.equal((env.result as JsonObject).dropped_estimate, undefined);
  });

  it('B1/B3/B4 hold; content_digest is sha256 of the inline bytes; titles, labels and scores are sound', async () => {
    const { frames: fs } = await frames(provider());
    let sum = 0;
    for (const f of fs) {
      assert.equal(f.token_cost, budgetTokens(f.content as string), `B3 ${String(f.id)}`);
      assert.equal(f.content_digest, sha256Digest(f.content as string), `S6.3 ${String(f.id)}`);
      assert.ok(typeof f.title === 'string' && f.title.trim() !== '');
      assert.ok(typeof f.citation_label === 'string' && f.citation_label.trim() !== '');
      assert.ok(typeof f.score === 'number' && f.score >= 0 && f.score <= 1);
      for (const key of ['valid_from', 'recorded_at']) assert.ok(isProtocolTimestamp(f[key]), `${String(f.id)} ${key}`);
      assert.equal(f.representation, undefined, 'full frames omit representation');
      sum += f.token_cost as number;
    }
    assert.ok(sum <= SAMPLE_QUERY.max_tokens);
    assert.ok(fs.length <= SAMPLE_QUERY.max_frames);
    assert.ok(new Set(fs.map((f) => f.kind)).size >= 2, 'at least two base kinds');
    assert.ok(
      fs.some((f) => typeof f.valid_to === 'string'),
      'a frame carries valid_to',
    );
  });

  it('file provenance (L<a>-<b>) digests recompute from the fixture bytes', async () => {
    const { frames: fs } = await frames(provider());
    let checked = 0;
    for (const f of fs) {
      const links = f.provenance as JsonObject[];
      assert.ok(links.length > 0);
      for (const p of links) {
        assert.equal(p.type, 'file');
        assert.ok(isWellFormedDigest(p.digest));
        assert.match(p.range as string, /^L\d+-\d+$/);
        assert.ok((p.uri as string).startsWith('file:///'));
        // An independent re-read: split the file into lines that keep their '\n'.
        const [a, b] = (p.range as string).slice(1).split('-').map(Number) as [number, number];
        const lines = readFileSync(fileURLToPath(p.uri as string), 'utf8').split(/(?<=\n)/);
        assert.equal(p.digest, sha256Digest(lines.slice(a - 1, b).join('')));
        assert.equal(p.digest, rereadDigest(p.uri as string, p.range as string));
        checked++;
      }
    }
    assert.equal(checked, corpus.frames.length);
  });

  it('relations carry display names and target URIs (G1/G2)', async () => {
    const { frames: fs } = await frames(provider());
    const rels = fs.flatMap((f) => (f.relations as JsonObject[] | undefined) ?? []);
    assert.ok(rels.length >= 3);
    for (const r of rels) {
      assert.ok(typeof r.display_name === 'string' && r.display_name.trim() !== '');
      assert.ok(typeof r.target_uri === 'string' && /^[a-z]+:/.test(r.target_uri));
    }
  });
});

describe('line ranges and distillation', () => {
  it('lineRangeBytes keeps each line with its \\n and clamps the end to EOF', () => {
    const bytes = Buffer.from('a\nbb\nccc\n');
    assert.equal(Buffer.from(lineRangeBytes(bytes, 1, 1)).toString(), 'a\n');
    assert.equal(Buffer.from(lineRangeBytes(bytes, 2, 3)).toString(), 'bb\nccc\n');
    assert.equal(Buffer.from(lineRangeBytes(bytes, 2, 40)).toString(), 'bb\nccc\n');
    assert.equal(Buffer.from(lineRangeBytes(Buffer.from('x\ny'), 2, 2)).toString(), 'y');
    assert.throws(() => lineRangeBytes(bytes, 9, 9), RangeError);
    assert.throws(() => lineRangeBytes(bytes, 3, 2), RangeError);
  });

  it('distill takes the first sentence of the first prose line', () => {
    assert.equal(distill('# Title\n\nFirst one. Second one.\nMore.\n'), 'First one.');
    assert.equal(distill('/// Does a thing. Really.\nfn x() {}\n'), 'Does a thing.');
    assert.equal(distill('no terminator here\n'), 'no terminator here');
  });
});

describe('kinds (Q1)', () => {
  it('returns only the requested kinds', async () => {
    const p = provider();
    for (const kinds of [['snippet'], ['symbol'], ['doc'], ['symbol', 'snippet'], ['fact', 'doc']]) {
      const { frames: fs } = await frames(p, { kinds });
      assert.ok(fs.length > 0, `${kinds.join(',')} served`);
      for (const f of fs) assert.ok(kinds.includes(f.kind as string), `${String(f.kind)} ∉ ${kinds.join(',')}`);
    }
  });

  it('replies unsupported_kind (with the id) when none of the requested kinds is served', async () => {
    expectError(await one(provider(), queryEnvelope('q-k', { kinds: ['fact', 'memory'] })), 'unsupported_kind', 'q-k');
  });
});

describe('anchors (G4)', () => {
  it('ranks zero-hop and one-hop anchored frames above unanchored ones', async () => {
    const p = provider();
    const base = (await frames(p)).frames;
    assert.ok(!anchored(base[0]!, BACKOFF_URI), 'the unanchored top frame makes the boost observable');
    const { frames: fs } = await frames(p, { anchors: [BACKOFF_URI] });
    const flags = fs.map((f) => anchored(f, BACKOFF_URI));
    const count = flags.filter(Boolean).length;
    assert.equal(count, 3, 'two frames of backoff.rs (zero hop) and the configuration doc (one hop)');
    assert.deepEqual(flags, [...Array(count).fill(true), ...Array(fs.length - count).fill(false)]);
    assert.ok(
      fs.slice(0, count).some((f) => f.uri !== BACKOFF_URI),
      'a one-hop frame is among them',
    );
  });

  it('a symbol anchor reaches frames through relations only, and a tight budget keeps an anchored frame', async () => {
    const p = provider();
    const symbol = 'symbol:///example-docs/backoff.rs#next_delay';
    const { frames: fs } = await frames(p, { anchors: [symbol] });
    assert.ok(anchored(fs[0]!, symbol));
    const tight = await frames(p, { anchors: [BACKOFF_URI], max_frames: 1 });
    assert.equal(tight.frames.length, 1);
    assert.ok(anchored(tight.frames[0]!, BACKOFF_URI));
  });
});

describe('as_of (S6.1-as-of)', () => {
  it('omits frames valid only after the pin and frames expired before it', async () => {
    const p = provider();
    const all = (await frames(p)).frames;
    const { frames: fs } = await frames(p, { as_of: AS_OF });
    assert.ok(fs.length > 0 && fs.length < all.length);
    for (const f of fs) {
      assert.ok((f.valid_from as string) <= AS_OF);
      assert.ok(f.valid_to === undefined || (f.valid_to as string) >= AS_OF);
    }
    const ids = fs.map((f) => f.id);
    assert.ok(!ids.includes('frm_retry_policy'), 'valid_from after the pin');
    assert.ok(!ids.includes('frm_retry_policy_2026_h1'), 'valid_to before the pin');
    const later = (await frames(p, { as_of: '2026-10-01T00:00:00.5Z' })).frames.map((f) => f.id);
    assert.ok(later.includes('frm_retry_policy') && !later.includes('frm_retry_policy_2026_h1'));
  });

  it('answers a pin before every frame with zero frames (not truncated), and a malformed pin with bad_request', async () => {
    const p = provider();
    const { env, frames: fs } = await frames(p, { as_of: '2025-01-01T00:00:00Z' });
    assert.deepEqual([fs, (env.result as JsonObject).truncated], [[], false]);
    expectError(await one(p, queryEnvelope('q-bad-pin', { as_of: '2026-07-01 00:00:00' })), 'bad_request', 'q-bad-pin');
  });
});

describe('embeddings (E1)', () => {
  it('scores a vector of the declared dimension and refuses another length with bad_request', async () => {
    const p = provider();
    const { frames: fs } = await frames(p, { embedding: [1, 0, 0, 0, 0, 0, 0, 0] });
    assert.equal(fs.length, corpus.frames.length);
    for (const f of fs) assert.ok((f.score as number) >= 0 && (f.score as number) <= 1);
    const scores = fs.map((f) => f.score as number);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a),
      'ranked by similarity',
    );
    for (const bad of [[0], [], Array(384).fill(0)]) {
      expectError(await one(p, queryEnvelope('q-e1', { embedding: bad })), 'bad_request', 'q-e1');
    }
  });
});

describe('representations (P1–P5, S6.4.1)', () => {
  it('serves compact frames with every P2 member, honest costs (P4) and a distinct content_ref', async () => {
    const { env, frames: fs } = await frames(provider(), { representation_preferences: ['compact', 'full'] });
    assert.deepEqual(checkEnvelope(env, '', { query: { ...SAMPLE_QUERY, representation_preferences: ['compact', 'full'] }, overTransport: true }), []);
    for (const f of fs) {
      const source = corpus.frames.find((c) => c.spec.id === f.id)!;
      assert.equal(f.representation, 'compact');
      assert.equal(f.content, source.compact);
      assert.ok((f.content as string).length < source.content.length);
      assert.equal(f.content_digest, sha256Digest(f.content as string));
      assert.equal(f.canonical_content_hash, sha256Digest(source.content));
      assert.deepEqual(f.transform, { method: 'first-sentence', implementation: 'example-docs/distill', version: '1' });
      const ref = f.content_ref as JsonObject;
      assert.equal(ref.provider_id, PROVIDER_NAME);
      assert.ok(typeof ref.uri === 'string' && ref.uri !== f.uri);
      assert.equal(f.token_cost, budgetTokens(f.content as string));
      assert.equal(f.canonical_token_cost, budgetTokens(source.content));
    }
  });

  it('honours the first preference; full frames carry no P1-forbidden member', async () => {
    const p = provider();
    for (const prefs of [['full', 'compact'], ['full'], []]) {
      for (const f of (await frames(p, { representation_preferences: prefs })).frames) {
        assert.equal(f.representation, undefined);
        for (const key of ['content_ref', 'transform', 'canonical_content_hash', 'canonical_token_cost']) assert.ok(!(key in f), key);
      }
    }
  });

  it('replies unsupported_representation for a representation it did not advertise (never serves reference)', async () => {
    const p = provider();
    for (const prefs of [['reference'], ['compact', 'reference'], ['reference', 'full'], ['holographic']]) {
      expectError(await one(p, queryEnvelope('q-p5', { representation_preferences: prefs })), 'unsupported_representation', 'q-p5');
    }
  });
});

describe('budget: truncation (B1, B4, truncated, budget_unsatisfiable)', () => {
  it('truncates to max_tokens and reports how many frames it dropped', async () => {
    const p = provider();
    for (const maxTokens of [40, 100, 150, 250]) {
      const { env, frames: fs } = await frames(p, { max_tokens: maxTokens });
      const result = env.result as JsonObject;
      const sum = fs.reduce((s, f) => s + (f.token_cost as number), 0);
      assert.ok(sum <= maxTokens, `B1 at ${maxTokens}`);
      assert.ok(fs.length > 0);
      assert.equal(result.truncated, true);
      assert.equal(result.dropped_estimate, corpus.frames.length - fs.length);
    }
  });

  it('truncates to max_frames', async () => {
    const { env, frames: fs } = await frames(provider(), { max_frames: 2 });
    assert.equal(fs.length, 2);
    assert.deepEqual([(env.result as JsonObject).truncated, (env.result as JsonObject).dropped_estimate], [true, corpus.frames.length - 2]);
  });

  it('compact renderings fit where full ones do not', async () => {
    const { frames: fs } = await frames(provider(), { max_tokens: 30, representation_preferences: ['compact'] });
    assert.ok(fs.length >= 1);
    assert.ok(fs.reduce((s, f) => s + (f.token_cost as number), 0) <= 30);
    const full = await one(provider(), queryEnvelope('q-full', { max_tokens: 30 }));
    expectError(full, 'budget_unsatisfiable', 'q-full');
  });

  it('replies budget_unsatisfiable when no frame fits at all', async () => {
    const p = provider();
    expectError(await one(p, queryEnvelope('q-b', { max_tokens: 1 })), 'budget_unsatisfiable', 'q-b');
    expectError(await one(p, queryEnvelope('q-b0', { max_frames: 0 })), 'budget_unsatisfiable', 'q-b0');
  });
});

describe('verify (V2–V4)', () => {
  it('answers valid, stale (+ replacement), gone and unknown, echoing each identity in full', async () => {
    const { served, compact, stale, gone, neverKnown, otherProvider } = VERIFY_IDENTITIES;
    const noDigest = { provider_id: PROVIDER_NAME, frame_id: served[0]!.frame_id };
    const nullDigest = { ...noDigest, content_digest: null };
    const request = [...served, compact, stale, gone, neverKnown, otherProvider, noDigest, nullDigest];
    const env = await one(provider(), { type: 'verify', id: 'v-9', request: { frames: request } });
    assert.equal(env.type, 'verified');
    assert.equal(env.id, 'v-9');
    assert.deepEqual(checkEnvelope(env), []);
    const verdicts = (env.response as JsonObject).verdicts as JsonObject[];
    assert.deepEqual(
      verdicts.map((v) => v.frame),
      request,
      'identities echoed in full, in order',
    );
    const statuses = verdicts.map((v) => v.status);
    assert.deepEqual(statuses, [...served.map(() => 'valid'), 'valid', 'stale', 'gone', 'unknown', 'unknown', 'unknown', 'unknown']);
    const staleVerdict = verdicts[served.length + 1]!;
    assert.equal(staleVerdict.replacement_digest, corpus.frames[1]!.contentDigest);
    assert.ok(verdicts.filter((v) => v.status !== 'stale').every((v) => !('replacement_digest' in v)));
    assert.ok(RETIRED_FRAME_IDS.length > 0);
  });

  it('answers an id-less verify without an id, and a malformed verify with bad_request', async () => {
    const p = provider();
    const env = await one(p, { type: 'verify', request: { frames: [] } });
    assert.deepEqual(env, { type: 'verified', response: { verdicts: [] } });
    expectError(await one(p, { type: 'verify', id: 'v-x', request: {} }), 'bad_request', 'v-x');
    expectError(await one(p, { type: 'verify', id: 'v-y', request: { frames: [{ frame_id: 'f' }] } }), 'bad_request', 'v-y');
  });
});

describe('robustness and extensibility (R1, R2, U1, S2.1, H4)', () => {
  it('answers malformed input with bad_request (echoing a recoverable id) and keeps serving', async () => {
    const p = provider();
    for (const garbage of ['this is not valid json {{{', '', '[1,2]', '"text"', 'null', '{"no":"type"}']) {
      expectError(await one(p, garbage), 'bad_request');
    }
    expectError(await one(p, '{"id":"g-1","query":{}}'), 'bad_request', 'g-1');
    expectError(await one(p, new Error('line exceeds 16 MiB')), 'bad_request');
    expectError(await one(p, queryEnvelope('q-bad', { max_tokens: -1 })), 'bad_request', 'q-bad');
    expectError(await one(p, { type: 'query', id: 'q-none' }), 'bad_request', 'q-none');
    expectError(await one(p, queryEnvelope('q-goal', { goal: '' })), 'bad_request', 'q-goal');
    expectError(await one(p, queryEnvelope('q-kinds', { kinds: 'doc' })), 'bad_request', 'q-kinds');
    assert.equal((await frames(p, {}, 'q-after')).frames.length, corpus.frames.length);
  });

  it('answers an unknown request with bad_request and ignores an unknown notification (S2.1-unknown-type)', async () => {
    const p = provider();
    expectError(await one(p, { type: 'subscribe', id: 's-1', request: { topic: 'x' } }), 'bad_request', 's-1');
    expectError(await one(p, { type: 'resolve', request: { refs: [] } }), 'bad_request');
    const ignored = await p.handle(JSON.stringify({ type: 'cgp-ping', note: 'hello' }));
    assert.deepEqual([ignored.envelopes, ignored.action], [[], { kind: 'ignore' }]);
    for (const type of ['handshake_ack', 'frames', 'verified', 'error']) assert.deepEqual(await send(p, { type, id: 'x' }), []);
  });

  it('ignores unknown members everywhere (U1)', async () => {
    const p = provider();
    const plain = (await frames(p, {}, 'u')).frames;
    const env = await one(p, { ...queryEnvelope('u', { x_hint: { deep: [1] } }), x_trace: 'abc' });
    assert.deepEqual((env.result as JsonObject).frames, plain);
    const ack = await one(p, { type: 'handshake', protocol_version: PROTOCOL_VERSION, x_client: { name: 'h' } });
    assert.equal(ack.type, 'handshake_ack');
    const id = { ...VERIFY_IDENTITIES.served[0]!, x_note: 1 };
    const verified = await one(p, { type: 'verify', request: { frames: [id], x_more: true } });
    assert.equal(((verified.response as JsonObject).verdicts as JsonObject[])[0]!.status, 'valid');
  });

  it('echoes ids verbatim on frames, errors and verified (H4)', async () => {
    const p = provider();
    assert.equal((await one(p, queryEnvelope('ünïcode id 🙂'))).id, 'ünïcode id 🙂');
    const noId = await one(p, { type: 'query', query: SAMPLE_QUERY });
    assert.ok(!('id' in noId));
    expectError(await one(p, queryEnvelope('e-1', { embedding: [1] })), 'bad_request', 'e-1');
  });

  it('exits 0 on shutdown, writing nothing (R2)', async () => {
    const reply = await provider().handle('{"type":"shutdown"}');
    assert.deepEqual([reply.envelopes, reply.action], [[], { kind: 'exit', code: 0 }]);
    assert.deepEqual(provider().endOfInput(), { kind: 'exit', code: 0 });
  });

  it('encodes each envelope as one line without a literal newline (S2.1-no-newline)', async () => {
    const reply = await provider().handle(JSON.stringify(queryEnvelope('n')));
    assert.equal(reply.lines.length, 1);
    assert.ok(!reply.lines[0]!.includes('\n'));
    assert.deepEqual(JSON.parse(reply.lines[0]!), reply.envelopes[0]);
  });

  it('accepts parsed objects (HTTP) exactly like lines (stdio)', async () => {
    const p = provider();
    for (const input of [queryEnvelope('same', { kinds: ['doc'] }), { type: 'handshake', protocol_version: PROTOCOL_VERSION }]) {
      assert.deepEqual((await p.handle(input)).envelopes, (await p.handle(JSON.stringify(input))).envelopes);
    }
  });
});
