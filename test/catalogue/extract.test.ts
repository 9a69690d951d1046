import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CATALOGUE_FILES, FALLBACK_MARKER, extractCatalogue, extractCatalogueWithDiagnostics, renderCatalogueFiles } from '../../src/catalogue/extract.js';
import { ANCHOR_SIDES, RULE_TABLE } from '../../src/catalogue/mapping.js';
import { CATALOGUE_LEVELS, CATALOGUE_SIDES } from '../../src/catalogue/types.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const spec = readFileSync(new URL('../../SPEC.md', import.meta.url), 'utf8');

const EXPECTED_ANCHORS = [
  'H1',
  'H2',
  'H3',
  'H4',
  'C1',
  'C2',
  'C3',
  'C4',
  'C5',
  'C6',
  'C7',
  'C8',
  'Q1',
  'E1',
  'F1',
  'F2',
  'F3',
  'F4',
  'F5',
  'F6',
  'F7',
  'F8',
  'F9',
  'F10',
  'F11',
  'F12',
  'F13',
  'D1',
  'D2',
  'D3',
  'D4',
  'P1',
  'P2',
  'P3',
  'P4',
  'P5',
  'B1',
  'B2',
  'B3',
  'B4',
  'UR1',
  'G1',
  'G2',
  'G3',
  'G4',
  'V1',
  'V2',
  'V3',
  'V4',
  'X1',
  'X2',
  'R1',
  'R2',
  'R3',
  'U1',
  'U2',
  'U3',
  'U4',
  'A1',
  'A2',
  'A3',
];

const RELIED_ON_RULE_IDS = [
  'S2.1-no-newline',
  'S2.1-unknown-type',
  'S6.1-as-of',
  'S6.3-content-digest',
  'S6.4.1-no-reference-over-transport',
  'S6.4.1-resolve-declared',
  'S6.4.1-unrehydratable-empty',
  'S7.2-budget-token',
  'S10-not-retryable',
  'S2-wire-shape',
  'S13-authoring-strict',
];

test('SPEC.md yields exactly the 61 anchors, unique, in SPEC order', () => {
  const { anchors } = extractCatalogue(spec);
  assert.equal(EXPECTED_ANCHORS.length, 61);
  assert.deepEqual(
    anchors.map((a) => a.id),
    EXPECTED_ANCHORS,
  );
  assert.equal(new Set(anchors.map((a) => a.id)).size, 61);
});

test('every entry has text, a numbered section, a valid level and side', () => {
  const { anchors, rules } = extractCatalogue(spec);
  for (const e of [...anchors, ...rules]) {
    assert.ok(e.text.trim().length > 0, `${e.id} has empty text`);
    assert.match(e.section, /^\d+(\.\d+)*$/, `${e.id} section`);
    assert.ok(CATALOGUE_LEVELS.includes(e.level), `${e.id} level ${e.level}`);
    assert.ok(CATALOGUE_SIDES.includes(e.side), `${e.id} side ${e.side}`);
    assert.ok(!e.text.includes('**') && !e.text.includes('`'), `${e.id} text keeps Markdown`);
  }
  for (const a of anchors) assert.equal(a.kind, 'anchor');
  for (const r of rules) assert.equal(r.kind, 'rule');
});

test('anchor sections come from the heading each table sits under', () => {
  const bySection = new Map(extractCatalogue(spec).anchors.map((a) => [a.id, a.section]));
  const expected: Record<string, string> = {
    H1: '3',
    C8: '4',
    Q1: '5',
    E1: '5.2',
    F13: '6',
    D1: '6.3',
    P5: '6.4',
    B4: '7',
    UR1: '7.3',
    G4: '8',
    V4: '9',
    X2: '10',
    R3: '11',
    U4: '13',
    A3: '14',
  };
  for (const [id, section] of Object.entries(expected)) assert.equal(bySection.get(id), section, id);
});

test('levels: strongest bold key word, rows without one judged by their words', () => {
  const level = new Map(extractCatalogue(spec).anchors.map((a) => [a.id, a.level]));
  assert.equal(level.get('C3'), 'SHOULD'); // "advisory — see C4" in Verified by; the row says SHOULD
  assert.equal(level.get('G3'), 'SHOULD');
  assert.equal(level.get('D4'), 'SHOULD');
  assert.equal(level.get('G4'), 'MUST'); // MUST beats SHOULD
  assert.equal(level.get('E1'), 'MUST');
  assert.equal(level.get('V4'), 'MUST'); // MUST beats MAY
  assert.equal(level.get('P4'), 'MUST'); // no key word: reviewed
  assert.equal(level.get('U4'), 'MUST'); // no key word: reviewed
});

test('sides follow the reviewed mapping', () => {
  const side = new Map(extractCatalogue(spec).anchors.map((a) => [a.id, a.side]));
  const expected: Record<string, string> = {
    H1: 'provider',
    H3: 'both',
    C1: 'host',
    C3: 'provider',
    C5: 'provider',
    E1: 'both',
    F8: 'host',
    F13: 'both',
    D2: 'host',
    P5: 'both',
    B2: 'host',
    UR1: 'host',
    V1: 'host',
    V4: 'both',
    X1: 'host',
    R3: 'host',
    U1: 'both',
    U2: 'host',
    U4: 'types',
    A2: 'host',
  };
  for (const [id, s] of Object.entries(expected)) assert.equal(side.get(id), s, id);
  assert.deepEqual(Object.keys(ANCHOR_SIDES), EXPECTED_ANCHORS);
});

test('adding a requirement-table row adds its anchor; removing one removes it', () => {
  const h4 = spec.split('\n').find((l) => l.startsWith('| **H4** |'));
  assert.ok(h4);
  const added = spec.replace(h4, `${h4}\n| **H5** | A provider **SHOULD** answer promptly. | test |`);
  const withH5 = extractCatalogueWithDiagnostics(added);
  const ids = withH5.anchors.map((a) => a.id);
  assert.deepEqual(ids.slice(0, 5), ['H1', 'H2', 'H3', 'H4', 'H5']);
  assert.equal(ids.length, 62);
  const h5 = withH5.anchors[4];
  assert.equal(h5?.level, 'SHOULD');
  assert.equal(h5?.section, '3');
  assert.equal(h5?.text, 'A provider SHOULD answer promptly.');
  assert.deepEqual(withH5.diagnostics.unmappedAnchors, ['H5']); // the new row still needs a reviewed side
  assert.notEqual(renderCatalogueFiles(added)[CATALOGUE_FILES.anchors], renderCatalogueFiles(spec)[CATALOGUE_FILES.anchors]);

  const h2 = spec.split('\n').find((l) => l.startsWith('| **H2** |'));
  assert.ok(h2);
  const removed = extractCatalogueWithDiagnostics(spec.replace(`${h2}\n`, ''));
  assert.ok(!removed.anchors.some((a) => a.id === 'H2'));
  assert.equal(removed.anchors.length, 60);
  assert.deepEqual(removed.diagnostics.missingAnchors, ['H2']);
});

test('every rule id the design and the schema validator rely on exists', () => {
  const rules = new Map(extractCatalogue(spec).rules.map((r) => [r.id, r]));
  for (const id of RELIED_ON_RULE_IDS) assert.ok(rules.has(id), `missing rule ${id}`);
  assert.deepEqual(pick(rules.get('S2-wire-shape')), { section: '2', level: 'MUST', side: 'both' });
  assert.deepEqual(pick(rules.get('S13-authoring-strict')), { section: '13', level: 'advisory', side: 'types' });
  assert.equal(rules.get('S6.3-content-digest')?.level, 'SHOULD'); // a warning, never a D-anchor failure
  assert.equal(rules.get('S10-not-retryable')?.side, 'host');
});

test('no fallback ids: every normative prose sentence is named by the reviewed table', () => {
  const { rules, diagnostics } = extractCatalogueWithDiagnostics(spec);
  assert.deepEqual(diagnostics, {
    fallbackRuleIds: [],
    unmatchedMappings: [],
    ambiguousMappings: [],
    unmappedAnchors: [],
    missingAnchors: [],
    duplicateAnchors: [],
    anchorsWithoutLevel: [],
  });
  for (const r of rules) assert.ok(!r.id.includes(FALLBACK_MARKER), r.id);
  // Every non-excluded mapping row yields exactly one rule.
  const expected = RULE_TABLE.filter((m) => m.exclude === undefined).map((m) => m.id);
  assert.deepEqual(rules.map((r) => r.id).sort(), [...expected].sort());
});

test('an unreviewed normative sentence gets a deterministic fallback id', () => {
  const mutated = spec.replace('The flagship guarantee, and the one most easily faked.', 'The flagship guarantee, and the one most easily faked. A host **SHOULD** log every drop.');
  const a = extractCatalogueWithDiagnostics(mutated);
  const b = extractCatalogueWithDiagnostics(mutated);
  assert.deepEqual(a.diagnostics.fallbackRuleIds, ['S7-unreviewed-a-host-should-log-every-drop']);
  assert.deepEqual(a, b);
  const rule = a.rules.find((r) => r.id === 'S7-unreviewed-a-host-should-log-every-drop');
  assert.equal(rule?.level, 'SHOULD');
});

test('normative words in fenced code and requirement tables are not prose rules', () => {
  const mutated = spec.replace('```abnf\n', '```abnf\n; a host **MUST** not appear here\n');
  assert.deepEqual(extractCatalogueWithDiagnostics(mutated).diagnostics.fallbackRuleIds, []);
  const ruleTexts = extractCatalogue(spec)
    .rules.map((r) => r.text)
    .join('\n');
  assert.ok(!ruleTexts.includes('provider.name and provider.version MUST NOT be empty'));
});

test('rule ids are unique, stable and name their section', () => {
  const { anchors, rules } = extractCatalogue(spec);
  const ids = [...anchors, ...rules].map((e) => e.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const r of rules) assert.ok(r.id.startsWith(`S${r.section}-`), `${r.id} vs section ${r.section}`);
});

test('the committed generated files equal renderCatalogueFiles(SPEC.md)', () => {
  const files = renderCatalogueFiles(spec);
  assert.deepEqual(Object.keys(files).sort(), [CATALOGUE_FILES.anchors, CATALOGUE_FILES.rules].sort());
  for (const [rel, text] of Object.entries(files)) {
    assert.equal(readFileSync(new URL(rel, `file://${repoRoot}`), 'utf8'), text, `${rel} is stale`);
  }
});

test('generated files: banner, source, member, 2-space JSON with a trailing newline', () => {
  const files = renderCatalogueFiles(spec);
  for (const [rel, member] of [
    [CATALOGUE_FILES.anchors, 'anchors'],
    [CATALOGUE_FILES.rules, 'rules'],
  ] as const) {
    const text = files[rel] ?? '';
    assert.ok(text.endsWith('}\n'));
    const parsed = JSON.parse(text) as Record<string, unknown>;
    assert.deepEqual(Object.keys(parsed), ['$comment', 'source', member]);
    assert.match(String(parsed.$comment), /^generated by scripts\/extract-rules\.ts from SPEC\.md — do not edit; regenerate with `npm run extract-rules`/);
    assert.match(String(parsed.$comment), /mapping table/);
    assert.equal(parsed.source, 'SPEC.md');
    assert.equal(text, `${JSON.stringify(parsed, null, 2)}\n`);
    const first = (parsed[member] as Record<string, unknown>[])[0] ?? {};
    assert.deepEqual(Object.keys(first), ['id', 'kind', 'section', 'level', 'side', 'text']);
  }
  assert.deepEqual(renderCatalogueFiles(spec), files); // deterministic
});

function pick(e: { section: string; level: string; side: string } | undefined): object {
  return { section: e?.section, level: e?.level, side: e?.side };
}
