// Dedup (D2) against its definition, on random frame sets; range parsing; the hash index under
// crafted collisions (provider-controlled keys must never make dedup quadratic).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ContextFrame, FrameId } from '../../generated/types/index.js';
import { composeForPrompt, hashString, parseFences, parseRange, StringIndex, type ComposedPrompt } from '../../src/host/compose/index.js';
import { fixtureAnswer, fixtureFrame, fixtureProvider } from '../../src/host/compose/fixtures.js';
import { frameIdKey } from '../../src/protocol/index.js';

test('parseRange: line ranges, single lines, whole resource, unparseable kept exact', () => {
  assert.deepEqual(parseRange('L120-160'), { kind: 'lines', start: 120, end: 160 });
  assert.deepEqual(parseRange('L120-L160'), { kind: 'lines', start: 120, end: 160 });
  assert.deepEqual(parseRange('#L7'), { kind: 'lines', start: 7, end: 7 });
  assert.deepEqual(parseRange('10-12'), { kind: 'lines', start: 10, end: 12 });
  assert.deepEqual(parseRange(undefined), { kind: 'whole' });
  assert.deepEqual(parseRange(null), { kind: 'whole' });
  assert.deepEqual(parseRange('  '), { kind: 'whole' });
  assert.deepEqual(parseRange('L9-3'), { kind: 'exact', text: 'L9-3' });
  assert.deepEqual(parseRange('bytes 0-99'), { kind: 'exact', text: 'bytes 0-99' });
});

interface Spec {
  provider: string;
  id: string;
  content: string;
  digest: 'own' | 'none' | 'shared';
  range: string | null | undefined;
  uri: string;
}

type Lines = { whole: true } | { whole: false; start: number; end: number } | { exact: string };

function lines(range: string | null | undefined): Lines {
  const r = parseRange(range);
  return r.kind === 'whole' ? { whole: true } : r.kind === 'lines' ? { whole: false, start: r.start, end: r.end } : { exact: r.text };
}

type Original = ContextFrame & { _p: string };

function keyOf(o: Original): string {
  return frameIdKey({ provider_id: o._p, frame_id: o.id, content_digest: o.content_digest });
}

/** Overlap of two file links per the dedup.ts definition, written naively. */
function linksOverlap(la: { uri?: string | null; range?: string | null; digest?: string | null; type: string }, lb: typeof la): boolean {
  if (la.type !== 'file' || lb.type !== 'file' || la.uri !== lb.uri) return false;
  const ra = lines(la.range);
  const rb = lines(lb.range);
  const sameRange = JSON.stringify(ra) === JSON.stringify(rb);
  if (sameRange && la.digest && lb.digest && la.digest !== lb.digest) return false;
  if ('whole' in ra && ra.whole) return true;
  if ('whole' in rb && rb.whole) return true;
  if ('exact' in ra || 'exact' in rb) return sameRange;
  return ra.start <= rb.end && rb.start <= ra.end;
}

/**
 * Group-level proof (a FrameId is one frame, D2): A and B are proven duplicates when a member of A
 * with content `contentA` shares digest and bytes with B's, or — across providers — some file link
 * of any member of A overlaps some file link of any member of B.
 */
function groupsProven(a: Original[], contentA: string | undefined, b: Original[], contentB: string | undefined): boolean {
  const digestA = a[0]!.content_digest;
  const digestB = b[0]!.content_digest;
  const bytesA = contentA === undefined ? a.map((x) => x.content) : [contentA];
  const bytesB = contentB === undefined ? b.map((x) => x.content) : [contentB];
  if (digestA != null && digestA === digestB && bytesA.some((x) => bytesB.includes(x))) return true;
  if (a[0]!._p === b[0]!._p) return false;
  const linksA = a.flatMap((x) => x.provenance ?? []);
  const linksB = b.flatMap((x) => x.provenance ?? []);
  return linksA.some((la) => linksB.some((lb) => linksOverlap(la, lb)));
}

test('property: dedup keeps an independent set, every drop is proven against a kept frame, nothing unproven is dropped', () => {
  const spec = fc.record<Spec>({
    provider: fc.constantFrom('p', 'q', 'r'),
    id: fc.constantFrom('a', 'b', 'c', 'd'),
    content: fc.constantFrom('one', 'two', 'three'),
    digest: fc.constantFrom('own', 'none', 'shared'),
    range: fc.constantFrom(undefined, null, 'L1-5', 'L5-9', 'L10-12', 'L3', 'odd'),
    uri: fc.constantFrom('file:///x', 'file:///y'),
  });
  fc.assert(
    fc.property(fc.array(spec, { maxLength: 18 }), (specs) => {
      const byProvider = new Map<string, ContextFrame[]>();
      const all: Original[] = [];
      for (const s of specs) {
        const frame = fixtureFrame(s.id, s.content, {
          ...(s.digest === 'none' ? { content_digest: undefined } : s.digest === 'shared' ? { content_digest: 'sha256:' + 'f'.repeat(64) } : {}),
          ...(s.range === undefined && s.uri === 'file:///y' ? {} : { provenance: [{ type: 'file', uri: s.uri, range: s.range, digest: 'sha256:' + 'a'.repeat(64) }] }),
        });
        byProvider.set(s.provider, [...(byProvider.get(s.provider) ?? []), frame]);
        all.push({ ...frame, _p: s.provider });
      }
      const answers = [...byProvider].map(([p, frames]) => fixtureAnswer(fixtureProvider(p), frames));
      const c: ComposedPrompt = composeForPrompt(answers, { budgetTokens: 1_000_000 });
      assert.equal(c.audit.length, specs.length);
      const groups = new Map<string, Original[]>();
      for (const o of all) groups.set(keyOf(o), [...(groups.get(keyOf(o)) ?? []), o]);
      const fences = parseFences(c.text);
      const rendered = new Map(c.frames.map((f, i) => [frameIdKey(f.frameId), fences[i]!.content]));
      assert.equal(rendered.size, c.frames.length, 'one kept frame per FrameId');
      const keptKeys = [...rendered.keys()];
      // no two kept frames are proven duplicates
      for (let x = 0; x < keptKeys.length; x++) {
        for (let y = x + 1; y < keptKeys.length; y++) {
          const [kx, ky] = [keptKeys[x]!, keptKeys[y]!];
          assert.ok(!groupsProven(groups.get(kx)!, rendered.get(kx), groups.get(ky)!, rendered.get(ky)), `kept ${kx} and ${ky} are proven duplicates`);
        }
      }
      // every drop of a whole FrameId names a kept frame it is proven to duplicate
      for (const e of c.audit) {
        if (e.disposition !== 'dropped') continue;
        assert.ok(e.reason.kind === 'duplicate' || e.reason.kind === 'identity-conflict', e.reason.kind);
        if (e.reason.kind !== 'duplicate' && e.reason.kind !== 'identity-conflict') continue;
        if (rendered.has(frameIdKey(e.frame)) || e.reason.kind === 'identity-conflict') {
          // a second copy of a FrameId: it names that FrameId (its representative)
          assert.equal(frameIdKey(e.reason.of), frameIdKey(e.frame));
          continue;
        }
        const of = frameIdKey(e.reason.of);
        assert.ok(rendered.has(of), 'a drop names a kept frame');
        assert.ok(groupsProven(groups.get(frameIdKey(e.frame))!, undefined, groups.get(of)!, rendered.get(of)), `${frameIdKey(e.frame)} dropped as duplicate of ${of} without a proof`);
      }
      // maximality: a FrameId that is not kept is a proven duplicate of a kept one
      for (const [key, members] of groups) {
        if (rendered.has(key)) continue;
        assert.ok(
          keptKeys.some((k) => groupsProven(members, undefined, groups.get(k)!, rendered.get(k))),
          `${key} dropped although it duplicates no kept frame`,
        );
      }
    }),
    { numRuns: 400 },
  );
});

test('crafted digest collisions (same first 8 hex digits) degrade the index to a Map — never quadratic, same answer', () => {
  const n = 4000;
  const digests = Array.from({ length: n }, (_, i) => 'sha256:00000000' + i.toString(16).padStart(56, '0'));
  const index = new StringIndex(n, (p) => digests[p]!);
  for (let i = 0; i < n; i++) {
    const h = hashString(digests[i]!);
    assert.equal(index.find(digests[i]!, h), -1);
    index.insert(h, i);
  }
  assert.equal(index.degraded, true);
  for (let i = 0; i < n; i += 97) assert.deepEqual(index.findAll(digests[i]!, hashString(digests[i]!)), [i]);
  // through composition: every frame a distinct digest with the same prefix, plus one real duplicate
  const frames = digests.slice(0, 600).map((d, i) => fixtureFrame(`f${i}`, `content ${i}`, { content_digest: d }));
  frames.push(fixtureFrame('copy', 'content 7', { content_digest: digests[7] }));
  const c = composeForPrompt([fixtureAnswer('p', frames.slice(0, 300)), fixtureAnswer('q', frames.slice(300))], { budgetTokens: 10_000_000 });
  const drops = c.audit.filter((e) => e.disposition === 'dropped');
  assert.equal(drops.length, 1);
  assert.equal(drops[0]!.frame.frame_id, 'copy');
});

test('StringIndex grows past its capacity and finds every equal key', () => {
  const keys = ['a', 'b', 'a', 'c', 'a', ...Array.from({ length: 100 }, (_, i) => `k${i}`)];
  const index = new StringIndex(2, (p) => keys[p]!);
  keys.forEach((k, p) => index.insert(hashString(k), p));
  assert.deepEqual(
    index.findAll('a', hashString('a'))!.sort((x, y) => x - y),
    [0, 2, 4],
  );
  assert.equal(index.find('zz', hashString('zz')), -1);
  assert.equal(index.has('k99'), true);
});
