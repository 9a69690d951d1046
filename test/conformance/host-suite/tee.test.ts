// The tee the host suite puts between the host and the bundled provider records each line the provider
// wrote BEFORE forwarding it: whenever the host has a line, the record already holds it. (Forwarding first
// was the race behind the intermittent "served no frame" harness failures of F8 / S6.5.4-distinct-verdicts:
// the check read the record after the host answered, before the tee had appended the line — a window of
// microseconds that only a loaded machine opened.)
//
// Made deterministic with a FIFO as the record: writing to it blocks until the test reads it, so a tee
// that records first cannot forward anything before the record is read; one that forwards first does.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { TEE } from '../../../src/conformance/host-suite/checks/verify.js';

const LINE = JSON.stringify({ type: 'frames', result: { frames: [{ id: 'frm_x' }], truncated: false } });
// writes the line, then a marker file saying it has (so the test waits for the fact, not for a fixed time)
const writer = (marker: string): string =>
  `process.stdout.write(${JSON.stringify(`${LINE}\n`)}, () => require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'written')); process.stdin.resume(); process.stdin.on('end', () => process.exit(0));`;

test('the tee forwards a line only after it has recorded it', { timeout: 30_000, skip: process.platform === 'win32' ? 'mkfifo' : false }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cgp-tee-'));
  const record = join(dir, 'sent.ndjson');
  execFileSync('mkfifo', [record]);
  const marker = join(dir, 'written');
  const child = spawn(process.execPath, ['-e', TEE, '--', record, process.execPath, '-e', writer(marker)], { stdio: ['pipe', 'pipe', 'inherit'] });
  let forwarded = '';
  child.stdout.on('data', (c: Buffer) => (forwarded += c.toString()));
  try {
    for (let i = 0; i < 400 && !existsSync(marker); i++) await sleep(50); // the provider has written its line
    assert.ok(existsSync(marker), 'the writer wrote its line');
    await sleep(300); // time for the tee to forward it, had it not waited to record it first
    assert.equal(forwarded, '', 'a line reached the host before the tee recorded it');
    let recorded = '';
    await new Promise<void>((resolve, reject) => {
      const r = createReadStream(record, { encoding: 'utf8' });
      r.on('data', (c) => (recorded += c));
      r.on('end', resolve);
      r.on('error', reject);
    });
    assert.equal(recorded, `${LINE}\n`);
    for (let i = 0; i < 100 && forwarded === ''; i++) await sleep(50);
    assert.equal(forwarded, `${LINE}\n`, 'once recorded, the line is forwarded');
  } finally {
    child.stdin.end();
    child.kill();
  }
});
