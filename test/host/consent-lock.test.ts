// The consent ledger's cross-process lock is never left EMPTY by a writer killed while taking it (the token is
// linked into place, not written after creating the file), and an empty lock left by an older writer does not
// block later writers forever: `npm run fuzz`'s SIGKILL runs hit exactly that ("lock … is held by pid ? for more
// than 10000 ms").
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ConsentLedger } from '../../src/host/consent/ledger.js';

const grant = (ledger: ConsentLedger, i: number) =>
  ledger.grant({
    provider: { name: 'lock-target', version: '1.0.0' },
    routingId: 'lock-target',
    grantor: { kind: 'human', id: `tester-${i}` },
    scopes: [`acme:lock-${i}`],
    egress: true,
  });

test('an empty lock older than a write could take is broken; the grant lands', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cgp-ledger-lock-'));
  const file = join(dir, 'consent.jsonl');
  writeFileSync(`${file}.lock`, '');
  const old = new Date(Date.now() - 5_000);
  utimesSync(`${file}.lock`, old, old);
  const t0 = Date.now();
  const ledger = ConsentLedger.open(file);
  grant(ledger, 1);
  ledger.close();
  assert.ok(Date.now() - t0 < 5_000, `took ${Date.now() - t0} ms`);
  assert.equal(ConsentLedger.open(file).records().length, 1);
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.endsWith('.tmp') || f.endsWith('.lock')),
    [],
    'no lock or private token file left behind',
  );
});
