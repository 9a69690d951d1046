// The connection & fan-out group of the host suite: its pure checks (each passes on a conformant
// observation and fails, naming its id, on a violating one) and the Host switches its misbehaving variants
// flip (retryNonRetryable for X1/X2/S10-not-retryable; skipScopeConsistency must actually let C5 through).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import {
  checkEmbeddingWithheld,
  checkErrorNotRetried,
  checkNoIdWithoutCorrelation,
  checkRepresentationsAdvertised,
  checkScopeContradictionRefused,
  checkUnknownKindKept,
  checkUnknownRelKept,
  checkVersionMismatchRefused,
} from '../../../../src/conformance/host-suite/checks/connection.js';
import type { FanOutResult } from '../../../../src/host/fan-out.js';
import { Host, ProviderError, ScopeContradiction, VersionMismatch } from '../../../../src/host/index.js';
import { hostMisbehaviour } from '../../../../src/conformance/host-suite/variants/manifest.js';
import { answering, emptyFanOut, recorded, SAMPLE_QUERY, scripted, tempDir } from '../../../fixtures/host/helpers.js';

import { errors, failsWith } from '../../../fixtures/host/findings.js';

const handshake = { type: 'handshake', protocol_version: 'contextgraph/1.0' };
const query = (extra: Record<string, unknown> = {}, env: Record<string, unknown> = {}) => ({ type: 'query', query: { ...SAMPLE_QUERY, ...extra }, ...env });

describe('host-connection checks: H3, C5', () => {
  const p = { label: 'future', received: [handshake] };
  it('H3 passes on a prompt named refusal with no query', () => {
    const err = new VersionMismatch('contextgraph/1.0', 'future', 'contextgraph/2.0', { routingId: 'future' });
    assert.deepEqual(errors(checkVersionMismatchRefused(p, { error: err, elapsedMs: 80, boundMs: 5000, ackedVersion: 'contextgraph/2.0' })), []);
  });
  it('H3 fails on acceptance, on a late refusal, on an unnamed one and on a query sent', () => {
    failsWith(checkVersionMismatchRefused({ ...p, received: [handshake, query()] }, { error: undefined, elapsedMs: 80, boundMs: 5000, ackedVersion: 'contextgraph/2.0' }), 'H3');
    failsWith(checkVersionMismatchRefused(p, { error: new VersionMismatch('a', 'b', 'c'), elapsedMs: 9000, boundMs: 5000, ackedVersion: 'contextgraph/2.0' }), 'H3');
    failsWith(checkVersionMismatchRefused(p, { error: new Error('boom'), elapsedMs: 10, boundMs: 5000, ackedVersion: 'contextgraph/2.0' }), 'H3');
  });
  it('C5 passes on a ScopeContradiction, fails on acceptance or a query sent', () => {
    const c = { label: 'two-faced', received: [handshake] };
    assert.deepEqual(errors(checkScopeContradictionRefused(c, { error: new ScopeContradiction('two-faced', ['web']), scopes: ['web'] })), []);
    failsWith(checkScopeContradictionRefused(c, { error: undefined, scopes: ['web'] }), 'C5');
    failsWith(checkScopeContradictionRefused({ ...c, received: [handshake, query()] }, { error: new ScopeContradiction('two-faced', ['web']), scopes: ['web'] }), 'C5');
  });
});

describe('host-connection checks: E1, P5, S3.2', () => {
  const fp = { host: 'm/3/l2', provider: 'm/3' };
  it('E1: no embedding passes; an embedding fails; a silent control is only a warning', () => {
    const control = { label: 'same', received: [handshake, query({ embedding: [1, 2, 3] })] };
    assert.deepEqual(checkEmbeddingWithheld({ label: 'other', received: [handshake, query()] }, fp, control), []);
    failsWith(checkEmbeddingWithheld({ label: 'other', received: [handshake, query({ embedding: [1, 2, 3] })] }, fp, control), 'E1');
    const silent = checkEmbeddingWithheld({ label: 'other', received: [handshake, query()] }, fp, { label: 'same', received: [handshake, query()] });
    assert.deepEqual(errors(silent), []);
    assert.equal(silent.length, 1);
    // never queried: inconclusive (docs/interpretations.md §97), never an E1 finding
    assert.throws(() => checkEmbeddingWithheld({ label: 'other', received: [handshake] }, fp), /^Inconclusive: could not observe E1: provider "other" received no query/);
  });
  it('P5: only advertised (or no) preferences pass', () => {
    assert.deepEqual(checkRepresentationsAdvertised({ label: 'x', received: [handshake, query({ representation_preferences: ['full'] })] }, ['full']), []);
    assert.deepEqual(checkRepresentationsAdvertised({ label: 'x', received: [handshake, query()] }, []), []);
    failsWith(checkRepresentationsAdvertised({ label: 'x', received: [handshake, query({ representation_preferences: ['reference', 'full'] })] }, ['full']), 'P5');
  });
  it('S3.2: an id on a query to a provider without correlation fails', () => {
    assert.deepEqual(checkNoIdWithoutCorrelation({ label: 'x', received: [handshake, query()] }), []);
    failsWith(checkNoIdWithoutCorrelation({ label: 'x', received: [handshake, query({}, { id: 'q1' })] }), 'S3.2-no-id-without-correlation');
    failsWith(checkNoIdWithoutCorrelation({ label: 'x', received: [handshake] }), 'S3.2-no-id-without-correlation');
  });
});

describe('host-connection checks: X1, X2, S10, U2, S8.1', () => {
  const p = { label: 'x', routingId: 'x', received: [handshake, query()] };
  const failed = (err: unknown): FanOutResult => ({ ...emptyFanOut(), failures: [{ routingId: 'x', name: 'x', error: err as ProviderError }] });
  it('an error reported once, as internal and not retryable, passes', () => {
    assert.deepEqual(checkErrorNotRetried('X1', p, 'acme:quota', failed(new ProviderError('acme:quota', 'no')), undefined), []);
    assert.deepEqual(checkErrorNotRetried('X2', p, null, failed(new ProviderError(undefined, 'no')), undefined), []);
    assert.deepEqual(checkErrorNotRetried('S10-not-retryable', p, 'incompatible_version', failed(new ProviderError('incompatible_version', 'no')), undefined), []);
  });
  it('a retried query, a missing failure, a retryable or misread error fails', () => {
    failsWith(checkErrorNotRetried('X1', { ...p, received: [handshake, query(), query()] }, 'acme:quota', failed(new ProviderError('acme:quota', 'no')), undefined), 'X1');
    failsWith(checkErrorNotRetried('X2', p, null, emptyFanOut(), undefined), 'X2');
    failsWith(checkErrorNotRetried('X1', p, 'acme:quota', failed({ retryable: true, effectiveCode: 'unavailable' }), undefined), 'X1');
    failsWith(checkErrorNotRetried('S10-not-retryable', p, 'incompatible_version', failed({ retryable: false, effectiveCode: 'internal' }), undefined), 'S10-not-retryable');
  });
  it('U2 / S8.1: kept verbatim passes; dropped, rewritten or rejected fails', () => {
    const who = { label: 'x', routingId: 'x' };
    const odd = { id: 'f1', kind: 'acme:diagram', relations: [{ rel: 'acme:supersedes', target_uri: 'file:///a', display_name: 'a' }] };
    assert.deepEqual(checkUnknownKindKept(who, { id: 'f1', kind: 'acme:diagram' }, answering('x', [odd]), undefined), []);
    assert.deepEqual(checkUnknownRelKept(who, { id: 'f1', rel: 'acme:supersedes' }, answering('x', [odd]), undefined), []);
    failsWith(checkUnknownKindKept(who, { id: 'f1', kind: 'acme:diagram' }, answering('x', [{ ...odd, kind: 'doc' }]), undefined), 'U2');
    failsWith(checkUnknownKindKept(who, { id: 'f1', kind: 'acme:diagram' }, answering('x', []), undefined), 'U2');
    failsWith(checkUnknownKindKept(who, { id: 'f1', kind: 'acme:diagram' }, failed(new Error('rejected')), undefined), 'U2');
    failsWith(checkUnknownRelKept(who, { id: 'f1', rel: 'acme:supersedes' }, answering('x', [{ ...odd, relations: [] }]), undefined), 'S8.1-rel-open');
  });
});

describe('host switches of the connection variants', () => {
  const hosts: Host[] = [];
  after(async () => {
    await Promise.all(hosts.map((h) => h.close()));
  });
  const cases: Array<[string, string | null, 'X1' | 'X2' | 'S10-not-retryable']> = [
    ['unknown code', 'acme:quota', 'X1'],
    ['absent code', null, 'X2'],
    ['incompatible_version', 'incompatible_version', 'S10-not-retryable'],
  ];
  for (const [label, code, misread] of cases) {
    it(`retryNonRetryable [${misread}] retries a ${label} error (the honest host sends it once)`, async () => {
      const dir = tempDir();
      for (const [policies, expected] of [
        [undefined, 1],
        [{ retryNonRetryable: [misread] }, 2],
      ] as const) {
        const record = path.join(dir, `${misread}-${expected}.ndjson`);
        const host = new Host(policies ? { policies } : {});
        hosts.push(host);
        await host.connectStdio(...scripted({ errorCode: code, record }));
        const r = await host.queryAll(SAMPLE_QUERY, { retryBackoffMs: 1 });
        assert.equal(r.failures.length, 1);
        assert.equal(recorded(record).filter((l) => l.type === 'query').length, expected);
      }
    });
  }
  it('retryNonRetryable for one id leaves the others alone', async () => {
    const record = path.join(tempDir(), 'x2.ndjson');
    const host = new Host({ policies: { retryNonRetryable: ['X1'] } });
    hosts.push(host);
    await host.connectStdio(...scripted({ errorCode: null, record }));
    await host.queryAll(SAMPLE_QUERY, { retryBackoffMs: 1 });
    assert.equal(recorded(record).filter((l) => l.type === 'query').length, 1);
  });
  it('skipScopeConsistency accepts egress:false with an off-machine scope (the honest host refuses it)', async () => {
    const config = { egress: false, egress_scopes: ['third-party-index'] };
    const honest = new Host();
    hosts.push(honest);
    await assert.rejects(honest.connectStdio(...scripted(config)), ScopeContradiction);
    const variant = new Host({ policies: hostMisbehaviour('skip-scope-consistency').policies! });
    hosts.push(variant);
    const d = await variant.connectStdio(...scripted(config));
    assert.equal(d.egress, false);
  });
  it('every connection variant is in the manifest with the id it breaks', () => {
    const expected: Record<string, string> = {
      'accept-foreign-version': 'H3',
      'skip-scope-consistency': 'C5',
      'send-embedding-always': 'E1',
      'representation-passthrough': 'P5',
      'send-ids-to-all': 'S3.2-no-id-without-correlation',
      'retry-unknown-code': 'X1',
      'retry-absent-code': 'X2',
      'retry-incompatible-version': 'S10-not-retryable',
      'reject-unknown-kind': 'U2',
      'reject-unknown-rel': 'S8.1-rel-open',
    };
    for (const [mode, id] of Object.entries(expected)) assert.deepEqual(hostMisbehaviour(mode).breaks, [id]);
  });
});
