// The template-mining log distiller on small hand-made logs (docs/interpretations.md §68): the intent
// weights what is listed, a 4xx is judged against its own path's usual status, a latency outlier is
// quoted, a lone error in a frequent template is quoted with its line number.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { intentTerms } from '../../src/ingest/intent.js';
import { digestLog } from '../../src/ingest/logdigest.js';

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima', 'mike', 'november', 'oscar', 'papa', 'quebec', 'romeo', 'sierra', 'tango'];

describe('ingest: template-mining log distiller', () => {
  it('the intent weights selection: a template mentioning its terms is listed even when frequent ones crowd it out', () => {
    const lines: string[] = [];
    WORDS.forEach((w, k) => {
      const noun = k === WORDS.length - 1 ? 'orders' : 'batches';
      for (let i = 0; i < 30 - k; i++) lines.push(`2026-12-01T10:00:${String(i % 60).padStart(2, '0')}Z ${w} handled ${noun} ${i * 7 + k}`);
    });
    const plain = digestLog(lines.join('\n'), { firstLineNo: 1, terms: [] });
    const asked = digestLog(lines.join('\n'), { firstLineNo: 1, terms: intentTerms('why are orders failing') });
    assert.deepEqual(intentTerms('why are orders failing'), ['order', 'fail']);
    assert.ok(!plain.includes('tango handled orders'), plain);
    assert.match(plain, /\n… 6 more templates \(\d+ lines\)\n/);
    assert.match(asked, /\n×11 \(lines 400–410\) 10:00:00–10:00:10: <timestamp> tango handled orders <number>; <number> 19–89\n/);
  });
  it('a 4xx is an anomaly only where it is not its path’s usual status; a 5xx always is', () => {
    const lines: string[] = [];
    for (let i = 0; i < 60; i++) {
      const p = i % 3 === 0 ? 'GET /favicon.ico' : 'POST /login';
      const st = p.startsWith('GET') ? 404 : i === 31 ? 403 : i === 47 ? 500 : 302;
      lines.push(`10.0.0.${i + 1} - - [01/Dec/2026:10:00:${String(i).padStart(2, '0')} +0000] "${p} HTTP/1.1" ${st} 12`);
    }
    const d = digestLog(lines.join('\n'), { firstLineNo: 1, terms: [] });
    assert.match(d, /\[60-line log · 1 template · 10:00:00–10:00:59 · 2 anomalous lines\]/);
    assert.match(d, /\nL32 .*"POST \/login HTTP\/1\.1" 403 12\n/);
    assert.match(d, /\nL48 .*"POST \/login HTTP\/1\.1" 500 12\n/);
    assert.match(d, /\n {2}GET \/favicon\.ico → 404 ×20, 10:00:00–10:00:57\n/);
    assert.ok(!/\nL\d+ .*favicon/.test(d), 'the favicon 404s are that path’s normal');
  });
  it('a latency outlier and a lone ERROR in frequent templates are quoted with their line numbers', () => {
    const lines: string[] = [];
    for (let i = 0; i < 80; i++) {
      const d = i === 57 ? 2400 : 20 + (i % 9);
      const lvl = i === 66 ? 'ERROR' : 'INFO';
      lines.push(`time=2026-12-01T10:01:${String(i % 60).padStart(2, '0')}Z level=${lvl} msg="served" path=/v1/search status=200 duration=${d}ms`);
    }
    const d = digestLog(lines.join('\n'), { firstLineNo: 10, terms: [] });
    assert.match(d, /\nL67 .*duration=2400ms\n/);
    assert.match(d, /\nL76 .*level=ERROR/);
    assert.match(d, /\nelided \(in \[full\]\): lines 10–66, 68–75, 77–89$/);
  });
});
