// The whole provider suite against a hostile provider that drips its replies a byte at a time (docs/architecture.md
// §53): a file of its own, since it is the longest robustness run and the test runner runs files side by side.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { suiteVsHostile } from '../../../scripts/fuzz/hostile.js';

describe('the whole provider suite against a provider that drips its replies', () => {
  // A stalled shared connection with input queued made the unsolicited-input drain retry a fail-fast read
  // forever (878 973 notes, 169 MB of strings in the heap snapshot, then "JavaScript heap out of memory").
  it('ends with named failures, no harness error, within its bound', async () => {
    const r = await suiteVsHostile(['drip'], { timeoutMs: 2000, boundMs: 180_000 });
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.orphans, []);
    assert.ok(r.failedScenarios > 0);
  });
});
