// `cgp-conformance explain <id>`: the requirement, its SPEC.md passage, the interpretations, the witnessing
// scenarios, the red-team modes and the command running just them; an unknown id exits 2 with the nearest ids.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadCatalogue } from '../../src/catalogue/index.js';
import { explain, nearestIds } from '../../src/conformance/explain/explain.js';
import { findPackageRoot } from '../../src/util/package-root.js';

const ROOT = findPackageRoot();
const run = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'bin.ts'), 'explain', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });

describe('cgp-conformance explain', () => {
  it('B4: requirement, SPEC.md §7 row, scenarios, red-team modes, the command', () => {
    const r = run(['B4']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^B4 — MUST, provider side, SPEC\.md §7 Budget honesty \(anchor\)/);
    assert.match(
      r.stdout,
      /SPEC\.md line \d+:\n {4}\| # \| Requirement \| Verified by \|\n {4}\|---\|---\|---\|\n {4}\| \*\*B4\*\* \| The number of returned frames \*\*MUST NOT\*\* exceed `max_frames`\./,
    );
    assert.match(r.stdout, /features\/provider\/budget\.feature:45 {2}max_frames 1 returns at most one frame/);
    assert.match(r.stdout, /provider mode ignore-max-frames — /);
    assert.match(r.stdout, /npx cgp-conformance stdio --tags @B4 -- <your provider command>/);
  });

  it('S6.3-content-digest: the paragraph, docs/interpretations.md §3, --json', () => {
    const r = run(['S6.3-content-digest', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const e = JSON.parse(r.stdout) as NonNullable<ReturnType<typeof explain>>;
    assert.equal(e.level, 'SHOULD');
    assert.equal(e.section, '6.3');
    assert.match(e.spec!.passage, /`content_digest` is the provider-declared SHA-256 over the\nframe's exact inline content bytes/);
    assert.ok(e.interpretations.some((i) => i.cite === 'docs/interpretations.md §3'));
    assert.deepEqual(
      e.scenarios.map((s) => s.uri),
      ['features/provider/frames.feature'],
    );
    assert.ok(e.misbehaviours.some((m) => m.mode === 'content-digest-mismatch'));
  });

  it('a host anchor names host variants and the host command', () => {
    const e = explain('C1')!;
    assert.ok(e.misbehaviours.some((m) => m.side === 'host'));
    assert.ok(e.commands.some((c) => c.startsWith('npx cgp-conformance host --tags @C1')));
  });

  it('every catalogue id explains, with a SPEC.md passage', () => {
    const { anchors, rules } = loadCatalogue();
    for (const entry of [...anchors, ...rules]) {
      const e = explain(entry.id);
      assert.ok(e, entry.id);
      assert.ok(e.spec, `${entry.id}: no SPEC.md passage found in §${entry.section}`);
    }
  });

  it('an unknown id exits 2 and suggests the nearest ids', () => {
    const r = run(['B44']);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /unknown anchor or rule id "B44"; nearest: B4,/);
    assert.deepEqual(nearestIds('s6.3-digest').includes('S6.3-content-digest'), true);
  });

  it('--list: every anchor and rule id, each with its requirement on one line; --json; an id and --list is a usage error', () => {
    const { anchors, rules } = loadCatalogue();
    const r = run(['--list']);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.split('\n');
    for (const entry of [...anchors, ...rules]) {
      const row = lines.filter((l) => l.startsWith(`${entry.id} `));
      assert.equal(row.length, 1, `${entry.id} is listed once`);
      assert.ok(row[0]!.endsWith(entry.text.replace(/\s+/g, ' ').trim()), `${entry.id}: its requirement on one line`);
      assert.match(row[0]!, new RegExp(`^${entry.id.replace(/\./g, '\\.')} +${entry.level} +${entry.side} +§${entry.section.replace(/\./g, '\\.')} `));
    }
    assert.match(r.stdout, /^61 anchors \(SPEC\.md requirement tables\):\nH1 /);
    const json = run(['--list', '--json']);
    assert.equal(json.status, 0, json.stderr);
    const list = JSON.parse(json.stdout) as Array<{ id: string; requirement: string }>;
    assert.deepEqual(
      list.map((e) => e.id),
      [...anchors, ...rules].map((e) => e.id),
    );
    assert.ok(list.every((e) => !e.requirement.includes('\n') && e.requirement !== ''));
    const both = run(['B4', '--list']);
    assert.equal(both.status, 2);
    assert.match(both.stderr, /give an id or --list, not both/);
    const neither = run([]);
    assert.equal(neither.status, 2);
    assert.match(neither.stderr, /missing the id to explain .* or --list for every id/);
  });
});
