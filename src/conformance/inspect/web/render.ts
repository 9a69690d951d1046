/**
 * The inspector page, rendered on the server (docs/inspector.md): the whole page on GET /, and the fragments
 * the page's small script swaps in after each action (connection view, one exchange, one wire line, suite
 * progress). Pure functions of what the link observed; every value from the peer is HTML-escaped.
 */
import { budgetTokens, utf8ByteLength } from '../../../protocol/token-cost.js';
import { sha256Digest } from '../../../protocol/digest.js';
import type { Finding } from '../../../protocol/findings.js';
import { isJsonObject, type JsonObject } from '../../../protocol/json-value.js';
import { explain, renderExplanation } from '../../explain/explain.js';
import type { Exchange, FrameRow, PeerState, ProviderLink, WireEntry } from './link.js';

export function esc(v: unknown): string {
  const s = typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v);
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const pretty = (v: unknown): string => {
  try {
    return JSON.stringify(v, null, 2) ?? String(v);
  } catch {
    return String(v);
  }
};

/** A line as JSON, pretty-printed when it parses; else the bytes as they came. */
function prettyLine(line: string): string {
  try {
    return JSON.stringify(JSON.parse(line), null, 2);
  } catch {
    return line;
  }
}

/** One finding, its anchor a button opening `explain`. */
export function renderFinding(f: Finding): string {
  return `<li class="finding ${f.severity}" data-anchor="${esc(f.id)}"><button type="button" class="explain" data-explain="${esc(f.id)}" title="explain ${esc(f.id)}">${esc(f.id)}</button> <span class="sev">${f.severity === 'error' ? 'MUST violated' : 'warning'}</span>${f.pointer ? ` <code class="ptr">${esc(f.pointer)}</code>` : ''} <span class="msg">${esc(f.message)}</span></li>`;
}

function findingsList(findings: readonly Finding[], empty: string): string {
  if (findings.length === 0) return `<p class="clean">${esc(empty)}</p>`;
  return `<ul class="findings">${findings.map(renderFinding).join('')}</ul>`;
}

function peerBlock(p: PeerState): string {
  const parts: string[] = [];
  if (p.problem) parts.push(`<p class="banner bad peer-problem" data-state="${esc(p.state)}"><strong>${esc(p.state)}</strong>: ${esc(p.problem)}</p>`);
  if (p.exit) parts.push(`<p class="exit">exit status: <code>${esc(p.exit.signal !== null ? `signal ${p.exit.signal}` : String(p.exit.exitCode))}</code></p>`);
  if (p.stderrTail) parts.push(`<details class="stderr"${p.state !== 'ready' ? ' open' : ''}><summary>stderr (tail)</summary><pre>${esc(p.stderrTail)}</pre></details>`);
  return parts.join('');
}

function dl(rows: Array<[string, string]>): string {
  return `<dl class="kv">${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

/** The connection view: target, ack as received, capabilities, data flow, banners (C5, H1 …), peer state. */
export function renderConnection(link: ProviderLink | undefined, commandLine: string, misbehaviours: readonly string[]): string {
  const out: string[] = ['<h2>Connection</h2>'];
  out.push(
    `<form id="connect-form" class="row"><label>target <input name="target" id="target-input" size="80" value="${esc(commandLine)}" spellcheck="false"></label> <button type="submit" id="reconnect">Reconnect</button></form>`,
  );
  if (misbehaviours.length > 0) {
    out.push(
      `<details class="hint"><summary>The bundled provider can misbehave on purpose: append <code>--misbehave &lt;mode&gt;</code> to the target and reconnect</summary><p>${misbehaviours.map((m) => `<code>${esc(m)}</code>`).join(' ')}</p></details>`,
    );
  }
  if (!link) return `${out.join('')}<p class="banner bad">not connected</p>`;
  const peer = link.peer();
  out.push(
    `<p class="state state-${esc(peer.state)}" id="link-state">connection ${link.connection}: <strong>${esc(peer.state)}</strong>${peer.pid !== undefined ? ` (pid ${peer.pid})` : ''} — ${esc(link.label)}</p>`,
  );
  out.push(peerBlock(peer));
  const blocking = link.handshakeFindings.filter((f) => f.id === 'C5' || f.id === 'H1');
  for (const f of blocking)
    out.push(`<p class="banner bad contradiction" data-anchor="${esc(f.id)}"><button type="button" class="explain" data-explain="${esc(f.id)}">${esc(f.id)}</button> ${esc(f.message)}</p>`);
  const ack = link.ack;
  if (ack) {
    const p = isJsonObject(ack.provider) ? ack.provider : {};
    const caps = link.capabilities;
    const df = isJsonObject(p.data_flow) ? p.data_flow : undefined;
    out.push(
      dl([
        ['provider', `${esc(p.name)} ${esc(p.version)}`],
        ['protocol_version', `<code>${esc(ack.protocol_version)}</code>`],
        ['handshake', `${link.handshake?.elapsedMs ?? '?'} ms`],
        [
          'data_flow',
          df
            ? Object.entries(df)
                .map(([k, v]) => `<code>${esc(k)}: ${esc(JSON.stringify(v))}</code>`)
                .join(' ')
            : '<em>not declared</em>',
        ],
      ]),
    );
    out.push(
      '<h3>Capabilities</h3>',
      `<table class="caps"><tbody>${Object.entries(caps)
        .map(([k, v]) => `<tr><th>${esc(k)}</th><td><code>${esc(JSON.stringify(v))}</code></td></tr>`)
        .join('')}</tbody></table>`,
    );
    const keys = Array.isArray(ack.attester_keys) ? ack.attester_keys.filter(isJsonObject) : [];
    out.push(
      '<h3>Attester keys</h3>',
      keys.length === 0 ? '<p>none</p>' : `<ul>${keys.map((k) => `<li><code>${esc(k.key_id)}</code> (${esc(k.algorithm)}) <code class="hex">${esc(k.public_key)}</code></li>`).join('')}</ul>`,
    );
    out.push(`<details class="json"><summary>handshake_ack as received</summary><pre>${esc(pretty(ack))}</pre></details>`);
  } else if (link.handshake?.reply) {
    out.push(`<details class="json" open><summary>handshake answer (not an ack)</summary><pre>${esc(pretty(link.handshake.reply))}</pre></details>`);
  }
  out.push('<h3>Checks on the handshake</h3>', findingsList(link.handshakeFindings, 'no finding on the handshake answer'));
  return out.join('');
}

function checkboxes(name: string, values: readonly string[], checked: readonly string[] = []): string {
  return values.map((v) => `<label class="check"><input type="checkbox" name="${esc(name)}" value="${esc(v)}"${checked.includes(v) ? ' checked' : ''}> ${esc(v)}</label>`).join(' ');
}

/** The query builder: only the declared kinds and the advertised representations are offered (P5). */
export function renderQueryBuilder(link: ProviderLink | undefined): string {
  const caps = link?.capabilities ?? {};
  const q = isJsonObject(caps.query) ? caps.query : {};
  const kinds = Array.isArray(q.kinds) ? q.kinds.filter((k): k is string => typeof k === 'string') : [];
  const reps = Array.isArray(caps.representations) ? caps.representations.filter((r): r is string => typeof r === 'string') : [];
  const fp = typeof caps.embeddings_fingerprint === 'string' ? caps.embeddings_fingerprint : undefined;
  return `<h2>Query</h2>
<form id="query-form" class="grid">
<label>goal <input name="goal" value="what does this provider know?" required></label>
<label>query_text <input name="query_text" placeholder="(default: the goal)"></label>
<fieldset><legend>kinds (declared)</legend>${kinds.length > 0 ? checkboxes('kinds', kinds) : '<em>the provider declares no kinds: any</em>'}</fieldset>
<label>anchors <input name="anchors" placeholder="comma-separated URIs"></label>
<label>max_tokens <input name="max_tokens" type="number" min="0" value="4096"></label>
<label>max_frames <input name="max_frames" id="max-frames" type="number" min="0" value="8"></label>
<label>as_of <input name="as_of" placeholder="YYYY-MM-DDTHH:MM:SSZ"></label>
<fieldset><legend>representation_preferences (advertised: P5)</legend>${reps.length > 0 ? checkboxes('representation_preferences', reps) : '<em>none advertised: full only</em>'}</fieldset>
<fieldset><legend>embedding (E1: only when fingerprints match)</legend>${
    fp
      ? `<label>your fingerprint <input name="embedding_fingerprint" placeholder="${esc(fp)}"></label> <label>vector <input name="embedding" placeholder="[0.1, …]"></label>`
      : '<em>the provider declares no embeddings_fingerprint</em>'
  }</fieldset>
<div class="actions"><button type="submit" id="send-query">Send query</button></div>
</form>
<details id="raw-editor"><summary>Raw envelope editor (anything the form cannot say, malformed input included)</summary>
<form id="raw-form"><textarea name="raw" id="raw-text" rows="4" spellcheck="false">{"type":"query","query":{"goal":"raw","max_frames":1,"max_tokens":100}}</textarea>
<div class="actions"><button type="submit" id="send-raw">Send raw line</button> <span class="hint">sent byte for byte, plus a newline</span></div></form></details>`;
}

/** A budget bar: used against the limit, over the limit in red. */
function bar(label: string, anchor: string, used: number, limit: unknown): string {
  if (typeof limit !== 'number') return '';
  const pct = limit === 0 ? (used === 0 ? 0 : 100) : Math.min(100, (used / limit) * 100);
  const over = used > limit;
  return `<div class="budget${over ? ' over' : ''}" data-anchor="${anchor}"><span class="blabel">${esc(label)} <button type="button" class="explain" data-explain="${anchor}">${anchor}</button></span><span class="track"><span class="fill" style="width:${pct.toFixed(1)}%"></span></span><span class="bnum">${used} / ${limit}${over ? ' — over' : ''}</span></div>`;
}

function yes(v: boolean | null, no: string): string {
  return v === null ? '<span class="na">n/a</span>' : v ? '<span class="ok">yes</span>' : `<span class="bad">${esc(no)}</span>`;
}

/** A file:// URI by its last path segment (the JSON in the expanded row keeps it whole). */
const shortUri = (v: unknown): string => (typeof v === 'string' && v.startsWith('file://') ? `…/${v.split('/').pop()}` : String(v));

function frameRow(r: FrameRow, ex: Exchange): string {
  const f = r.frame;
  const content = typeof f.content === 'string' ? f.content : undefined;
  const expected = content !== undefined ? budgetTokens(content) : null;
  const costOk = expected === null ? null : f.token_cost === expected;
  const digestOk = content === undefined || f.content_digest === undefined ? null : f.content_digest === sha256Digest(content);
  const prov = Array.isArray(f.provenance) ? f.provenance.filter(isJsonObject) : [];
  const rels = Array.isArray(f.relations) ? f.relations.filter(isJsonObject) : [];
  const bad = r.findings.some((x) => x.severity === 'error');
  const cells = [
    `<input type="checkbox" class="pick" value="${r.index}" aria-label="pick frame ${r.index}">`,
    String(r.index),
    `<code>${esc(f.id)}</code>`,
    esc(f.kind),
    esc(typeof f.representation === 'string' ? f.representation : 'full'),
    `${esc(f.token_cost)}${expected !== null ? ` <span class="vs">ceil(${utf8ByteLength(content!)}/4) = ${expected}</span> ${yes(costOk, 'B3 ✗')}` : ''}`,
    yes(digestOk, 'mismatch'),
    prov.length === 0
      ? '—'
      : esc(
          prov
            .map(
              (p) =>
                `${String(p.type)} ${String(p.uri ?? p.source ?? '')
                  .split('/')
                  .pop()}${p.range !== undefined ? ` ${String(p.range)}` : ''}`,
            )
            .join('; '),
        ),
    rels.length === 0 ? '—' : esc(rels.map((x) => `${String(x.rel)} → ${shortUri(x.target_uri ?? x.target_id ?? '')}`).join(', ')),
    `<span class="verdict v-${esc(r.attestation)}" title="${esc(r.attestationReasons.join('; '))}">${esc(r.attestation)}</span>`,
    esc(f.score),
  ];
  const detail = `<tr class="frame-detail" hidden><td colspan="${cells.length}">${content !== undefined ? `<h4>content</h4><pre class="content">${esc(content)}</pre>` : ''}<h4>JSON</h4><pre>${esc(pretty(f))}</pre>${r.findings.length > 0 ? findingsList(r.findings, '') : ''}<p class="hint">attestation: ${esc(r.attestation)} — ${esc(r.attestationReasons.join('; ') || 'no reason given')}${r.attestation !== 'attested' ? ' (F9: treated as unattested, never dropped)' : ''}</p></td></tr>`;
  return `<tr class="frame${bad ? ' has-finding' : ''}" data-index="${r.index}">${cells.map((c) => `<td>${c}</td>`).join('')}</tr>${detail}`;
}

/** One exchange: what was sent, the answer, every finding inline with its anchor, frames, verdicts. */
export function renderExchange(ex: Exchange): string {
  const type = ex.sentEnvelope && typeof ex.sentEnvelope.type === 'string' ? ex.sentEnvelope.type : 'raw line';
  const replyType = ex.reply === undefined ? 'no answer' : ex.reply === null ? '204 (no envelope)' : String(ex.reply.type);
  const out: string[] = [
    `<article class="exchange" id="exchange-${ex.connection}-${ex.n}" data-reply="${esc(replyType)}"><header><strong>#${ex.n}</strong> <span class="hint">connection ${ex.connection}</span> ${esc(type)}${ex.raw ? ' (raw)' : ''} → <strong class="reply-type">${esc(replyType)}</strong> <span class="ms">${ex.elapsedMs} ms</span></header>`,
  ];
  if (ex.problem) out.push(`<p class="banner bad problem">${esc(ex.problem)}</p>`);
  out.push(peerBlock(ex.peer));
  const garbage = ex.inbound.filter((e) => {
    if (e.error !== undefined) return true;
    try {
      const v = JSON.parse(e.line) as unknown;
      return !isJsonObject(v) || typeof v.type !== 'string';
    } catch {
      return true;
    }
  });
  if (garbage.length > 0) {
    out.push(
      `<div class="banner bad garbage"><strong>the provider wrote ${garbage.length} line(s) that are not envelopes</strong>${garbage
        .slice(0, 5)
        .map((g) => `<pre class="bytes">${esc(g.error ? `[${g.error}] ` : '')}${esc(JSON.stringify(g.line.length > 400 ? `${g.line.slice(0, 400)}…` : g.line))}</pre>`)
        .join('')}</div>`,
    );
  }
  out.push(`<h3>Checks (the suite's rules)</h3>`, findingsList(ex.findings, 'no finding: every rule that applies to this answer holds'));
  if (ex.frames) {
    const frames = ex.frames;
    const sum = frames.reduce((n, r) => n + (typeof r.frame.token_cost === 'number' ? r.frame.token_cost : 0), 0);
    const q = ex.query ?? {};
    out.push(`<div class="budgets">${bar('token_cost summed vs max_tokens', 'B1', sum, q.max_tokens)}${bar('frames vs max_frames', 'B4', frames.length, q.max_frames)}</div>`);
    out.push(
      `<table class="frames" data-count="${frames.length}"><thead><tr><th></th><th>#</th><th>id</th><th>kind</th><th>representation</th><th>token_cost (B3)</th><th>digest</th><th>provenance</th><th>relations</th><th>attestation (F8/F9)</th><th>score</th></tr></thead><tbody>${frames.map((r) => frameRow(r, ex)).join('')}</tbody></table>`,
      `<p class="actions"><button type="button" class="verify">Verify picked frames</button> <span class="hint">click a row to expand it</span></p>`,
    );
  }
  if (ex.verdicts) {
    out.push(
      `<table class="verdicts"><thead><tr><th>frame_id</th><th>content_digest</th><th>verdict (V3)</th><th>replacement_digest</th></tr></thead><tbody>${ex.verdicts
        .map(
          (v) =>
            `<tr class="verdict-row"><td><code>${esc(v.frame.frame_id)}</code></td><td><code class="hex">${esc(v.frame.content_digest)}</code></td><td class="v-${esc(v.status)}">${esc(v.status)}${v.missing ? ' <span class="bad">(no verdict came back: read as unknown, V2)</span>' : ''}</td><td>${v.replacement_digest !== undefined ? `<code>${esc(v.replacement_digest)}</code>` : '—'}</td></tr>`,
        )
        .join('')}</tbody></table>`,
    );
  }
  out.push(`<details class="json"><summary>sent</summary><pre>${esc(prettyLine(ex.sent))}</pre></details>`);
  if (ex.reply) out.push(`<details class="json"><summary>answer as received</summary><pre>${esc(pretty(ex.reply))}</pre></details>`);
  out.push('</article>');
  return out.join('');
}

export function renderWireRow(e: WireEntry): string {
  const p = prettyLine(e.line);
  const clipped = e.line.length > 200 ? `${e.line.slice(0, 200)}…` : e.line;
  return `<tr class="wire-${e.direction}${e.error ? ' wire-error' : ''}" data-seq="${e.seq}"><td>${e.seq}</td><td class="t">${esc(e.at.slice(11, 23))}</td><td>${e.direction === 'out' ? '→ sent' : '← received'}</td><td>${e.connection}</td><td><details><summary><code>${esc(e.error ? `[${e.error}] ` : '')}${esc(clipped)}</code></summary><pre>${esc(p)}</pre></details><textarea hidden class="ndjson">${esc(e.line)}</textarea></td></tr>`;
}

/** explain <id> as a fragment (one click from any finding). */
export function renderExplain(id: string): string {
  const e = explain(id.replace(/^@/, ''));
  if (!e) return `<p>unknown anchor or rule id ${esc(id)}</p>`;
  return `<h3>explain ${esc(e.id)}</h3><pre class="explain-text">${esc(renderExplanation(e))}</pre>`;
}

export function renderPage(opts: { token: string; title: string; connection: string; query: string; wire: readonly WireEntry[]; suite: string }): string {
  // the token travels in a meta tag; the script sends it on every request (header, or ?token= for EventSource)
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="cgp-token" content="${esc(opts.token)}">
<title>cgp-conformance inspector — ${esc(opts.title)}</title>
<link rel="stylesheet" href="/assets/inspector.css?token=${esc(opts.token)}">
</head><body>
<header class="top"><h1>cgp-conformance inspector</h1><span id="live" class="live">connecting…</span><button type="button" id="stop">Stop inspector</button></header>
<main>
<section id="connection">${opts.connection}</section>
<section id="query">${opts.query}</section>
<section id="exchanges"><h2>Exchanges</h2><div id="exchange-list"><p class="hint">nothing sent yet</p></div></section>
<section id="wire"><h2>Wire log</h2><p class="actions"><button type="button" id="copy-ndjson">Copy as NDJSON</button> <a id="download-replay" href="/api/replay.ndjson?token=${esc(opts.token)}" download="inspector-replay.ndjson">Download for <code>replay</code></a> <span class="hint">every line, both directions, with times; the download is what was sent on the current connection (handshake first, a query with an id last), which <code>cgp-conformance replay FILE -- &lt;command&gt;</code> accepts</span></p>
<table class="wire"><thead><tr><th>#</th><th>time (UTC)</th><th>direction</th><th>conn</th><th>line</th></tr></thead><tbody id="wire-body">${opts.wire.map(renderWireRow).join('')}</tbody></table></section>
<section id="suite">${opts.suite}</section>
</main>
<dialog id="explain-dialog"><div id="explain-body"></div><form method="dialog"><button>Close</button></form></dialog>
<script src="/assets/inspector.js?token=${esc(opts.token)}"></script>
</body></html>
`;
}
