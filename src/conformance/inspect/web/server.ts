/**
 * `cgp-conformance inspect --web`: the inspector's HTTP server (docs/inspector.md). node:http on 127.0.0.1,
 * a random port, a per-run token required on every request (header X-CGP-Token, or ?token= where a browser
 * cannot set a header: the page's own assets, the event stream, downloads); POSTs need the header, a JSON
 * body and, when the browser names one, this origin. A request without the token is refused (403) and so is
 * one naming another Host (DNS rebinding). The server stops when the page goes away (its event stream closes
 * and no page reconnects within a grace), on POST /api/stop, or when its owner calls close() (Ctrl-C); it
 * closes the provider connection and kills a running suite on the way out.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fingerprintsMatch } from '../../../protocol/fingerprint.js';
import { isJsonObject, type JsonObject } from '../../../protocol/json-value.js';
import { findPackageRoot } from '../../../util/package-root.js';
import { probeLine } from '../../fuzz/session.js';
import { HANDSHAKE_LINE, ProviderLink, type InspectTarget, type WireEntry } from './link.js';
import { esc, renderConnection, renderExchange, renderExplain, renderPage, renderQueryBuilder, renderWireRow } from './render.js';
import { SuiteRun, type SuiteDone, type SuiteProgress } from './suite-run.js';

export interface InspectorOptions {
  target: InspectTarget;
  /** Handshake and request timeout (every wire read is bounded by it). */
  timeoutMs?: number;
  /** How long the server waits for a page to come back after the last one went away (default 5000 ms). */
  pageGoneGraceMs?: number;
  /** Misbehaviour modes to mention when the target is the bundled provider. */
  misbehaviours?: readonly string[];
}

export interface Inspector {
  url: string;
  token: string;
  port: number;
  /** Resolves with the reason once the server has stopped and everything it started is gone. */
  closed: Promise<string>;
  close(reason: string): Promise<string>;
}

const MAX_WIRE = 20_000;
const MAX_BODY = 4 * 1024 * 1024;
const ASSETS: Record<string, string> = { 'inspector.js': 'text/javascript; charset=utf-8', 'inspector.css': 'text/css; charset=utf-8' };

/** The page's assets, read from the package root (so they load from src/, dist/ and a bundle alike). */
function asset(name: string): string {
  return readFileSync(join(findPackageRoot(), 'assets', 'inspector', name), 'utf8');
}

/** A command line split the way a POSIX shell splits words (single and double quotes, backslash escapes). */
export function splitCommandLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let has = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else cur += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) cur += line[++i];
      else cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      has = true;
    } else if (c === '\\' && i + 1 < line.length) {
      cur += line[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (has || cur !== '') out.push(cur);
      cur = '';
      has = false;
    } else cur += c;
  }
  if (quote !== null) throw new Error(`unterminated ${quote} quote in the target command line`);
  if (has || cur !== '') out.push(cur);
  return out;
}

const quoteWord = (w: string): string => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

export function targetLine(t: InspectTarget): string {
  return t.kind === 'http' ? t.url : [t.command, ...t.args].map(quoteWord).join(' ');
}

export function parseTargetLine(line: string): InspectTarget {
  const trimmed = line.trim();
  if (/^https?:\/\//i.test(trimmed)) return { kind: 'http', url: trimmed };
  const words = splitCommandLine(trimmed);
  if (words.length === 0) throw new Error('the target is empty: give a provider command line or an http(s):// URL');
  return { kind: 'stdio', command: words[0]!, args: words.slice(1) };
}

export class FormError extends Error {}

const intField = (name: string, v: unknown): number => {
  const s = typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
  if (!/^[0-9]+$/.test(s)) throw new FormError(`${name} must be a non-negative integer (got ${JSON.stringify(v)}); the raw envelope editor sends anything`);
  return Number(s);
};
const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' && v !== '' ? [v] : []);

/** The query envelope the form describes. E1: an embedding only when the host's fingerprint matches exactly. */
export function buildQuery(form: JsonObject, capabilities: JsonObject): JsonObject {
  const goal = typeof form.goal === 'string' ? form.goal : '';
  const query: JsonObject = { goal };
  const text = typeof form.query_text === 'string' && form.query_text.trim() !== '' ? form.query_text : goal;
  query.query_text = text;
  query.kinds = list(form.kinds);
  const anchors =
    typeof form.anchors === 'string'
      ? form.anchors
          .split(/[,\n]/)
          .map((a) => a.trim())
          .filter((a) => a !== '')
      : list(form.anchors);
  query.anchors = anchors;
  query.max_frames = intField('max_frames', form.max_frames);
  query.max_tokens = intField('max_tokens', form.max_tokens);
  if (typeof form.as_of === 'string' && form.as_of.trim() !== '') query.as_of = form.as_of.trim();
  const reps = list(form.representation_preferences);
  if (reps.length > 0) query.representation_preferences = reps;
  const vector = typeof form.embedding === 'string' ? form.embedding.trim() : '';
  if (vector !== '') {
    if (!fingerprintsMatch(form.embedding_fingerprint, capabilities.embeddings_fingerprint)) {
      throw new FormError(
        `E1: your fingerprint ${JSON.stringify(form.embedding_fingerprint ?? '')} is not exactly the provider's embeddings_fingerprint ${JSON.stringify(capabilities.embeddings_fingerprint ?? null)}, so the form does not send the embedding (the raw editor can)`,
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(vector);
    } catch {
      parsed = undefined;
    }
    if (!Array.isArray(parsed) || !parsed.every((x) => typeof x === 'number')) throw new FormError('the embedding must be a JSON array of numbers, e.g. [0.1, 0.2]');
    query.embedding = parsed;
  }
  return { type: 'query', query };
}

/**
 * What `replay` accepts from the current connection: the lines sent on it, the handshake first; when the last
 * is not a query carrying a string id, the liveness probe `fuzz` uses is appended (replay requires it last).
 */
export function replayFile(wire: readonly WireEntry[], connection: number): { text: string; appendedProbe: boolean } {
  const sent = wire.filter((e) => e.connection === connection && e.direction === 'out').map((e) => e.line);
  if (sent.length === 0 || !sent[0]!.includes('"handshake"')) sent.unshift(HANDSHAKE_LINE);
  let last: unknown;
  try {
    last = JSON.parse(sent.at(-1)!);
  } catch {
    last = undefined;
  }
  const ok = sent.length > 1 && isJsonObject(last) && last.type === 'query' && typeof last.id === 'string' && last.id !== '';
  if (!ok) sent.push(probeLine('inspector-replay-probe').toString('utf8'));
  return { text: `${sent.join('\n')}\n`, appendedProbe: !ok };
}

function tokenOk(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function send(res: ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    // nothing is fetched from anywhere but this server; no inline script
    'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'self'; connect-src 'self'; form-action 'self'",
    ...extra,
  });
  res.end(body);
}

const json = (res: ServerResponse, status: number, value: unknown) => send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new FormError(`request body over ${MAX_BODY} bytes`));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Everything one inspector run holds: the provider connection, the wire log, the suite, the pages listening. */
interface InspectorState {
  readonly opts: InspectorOptions;
  readonly token: string;
  readonly wire: WireEntry[];
  seq: number;
  connections: number;
  link: ProviderLink | undefined;
  target: InspectTarget;
  suite: SuiteRun | undefined;
  /** The pages' open event streams. */
  readonly clients: Set<ServerResponse>;
  everHadPage: boolean;
  goneTimer: NodeJS.Timeout | undefined;
  busy: Promise<unknown>;
  stopping: Promise<string> | undefined;
  readonly misbehaviours: readonly string[];
  readonly resolveClosed: (reason: string) => void;
  readonly server: Server;
  readonly heartbeat: NodeJS.Timeout;
}

export async function startInspector(opts: InspectorOptions): Promise<Inspector> {
  let resolveClosed!: (reason: string) => void;
  const closed = new Promise<string>((r) => (resolveClosed = r));
  const clients = new Set<ServerResponse>();
  const st: InspectorState = {
    opts,
    token: randomBytes(24).toString('base64url'),
    wire: [],
    seq: 0,
    connections: 0,
    link: undefined,
    target: opts.target,
    suite: undefined,
    clients,
    everHadPage: false,
    goneTimer: undefined,
    busy: Promise.resolve(),
    stopping: undefined,
    misbehaviours: opts.misbehaviours ?? [],
    resolveClosed,
    server: createServer((req, res) => handleRequest(st, req, res)),
    heartbeat: startHeartbeat(clients),
  };
  await connect(st);
  await listen(st.server);
  const port = (st.server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/?token=${st.token}`, token: st.token, port, closed, close: (reason) => close(st, reason) };
}

function listen(server: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
}

/** One exchange at a time: the connection is lock-step. */
function serial<T>(st: InspectorState, fn: () => Promise<T>): Promise<T> {
  const run = st.busy.then(fn, fn);
  st.busy = run.catch(() => undefined);
  return run;
}

function broadcast(st: InspectorState, event: string, data: unknown): void {
  const payload = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
  for (const c of st.clients) c.write(payload);
}

function onWire(st: InspectorState, e: WireEntry): void {
  if (st.wire.length > MAX_WIRE) st.wire.splice(0, st.wire.length - MAX_WIRE);
  broadcast(st, 'ui', { sel: '#wire-body', mode: 'append', html: renderWireRow(e) });
}

/** Closes the current provider connection (if any) and opens the next one to the current target. */
async function connect(st: InspectorState): Promise<ProviderLink> {
  const old = st.link;
  st.link = undefined;
  await old?.close();
  st.connections++;
  st.link = await ProviderLink.open(st.target, {
    ...(st.opts.timeoutMs !== undefined ? { timeoutMs: st.opts.timeoutMs } : {}),
    connection: st.connections,
    wire: st.wire,
    nextSeq: () => ++st.seq,
    onWire: (e) => onWire(st, e),
  });
  return st.link;
}

// ---- rendering ----

function suiteSection(st: InspectorState): string {
  const { suite } = st;
  const head = `<h2>Conformance suite</h2><p class="actions"><button type="button" id="run-suite"${suite?.running ? ' disabled' : ''}>Run the suite</button>${suite?.running ? ' <button type="button" id="cancel-suite">Cancel</button>' : ''} <span class="hint">the provider suite against this target, in a process of its own; the report is the coverage page</span></p>`;
  if (!suite) return `${head}<ol id="suite-progress"></ol><div id="suite-result"></div>`;
  return `${head}<p id="suite-count">${suite.progress.length} scenario(s) finished</p><ol id="suite-progress">${suite.progress.map(progressItem).join('')}</ol><div id="suite-result">${suite.done ? doneBlock(suite.done, st.token) : ''}</div>`;
}

function progressItem(p: SuiteProgress): string {
  return `<li class="s-${esc(p.status)}"><span class="st">${esc(p.status)}</span> ${esc(p.name)} <span class="hint">${esc(p.uri.split('/features/').pop())} (${p.done}/${p.total})</span></li>`;
}

function doneBlock(d: SuiteDone, token: string): string {
  if (!d.ran) return `<p class="banner bad suite-verdict" data-verdict="inconclusive">the suite did not run to a verdict (exit ${d.exit_code}): ${esc(d.reason)}</p>`;
  const s = d.summary ?? {};
  return `<p class="banner ${d.conformant ? 'good' : 'bad'} suite-verdict" data-verdict="${d.conformant ? 'CONFORMANT' : 'NOT CONFORMANT'}"><strong>${d.conformant ? 'CONFORMANT' : 'NOT CONFORMANT'}</strong> (exit ${d.exit_code}) — ${s.witnessed ?? 0} witnessed, ${s.warning ?? 0} warning, ${s.failed ?? 0} failed, ${s.unwitnessed ?? 0} unwitnessed, ${s.not_applicable ?? 0} not applicable${(d.must_failed ?? []).length > 0 ? `; MUST failed: ${(d.must_failed ?? []).map((id) => `<button type="button" class="explain" data-explain="${esc(id)}">${esc(id)}</button>`).join(' ')}` : ''}</p><p><a id="coverage-link" href="/suite/coverage.html?token=${esc(token)}" target="_blank" rel="noopener">open the coverage page</a></p><iframe id="coverage-frame" title="coverage report" src="/suite/coverage.html?token=${esc(token)}"></iframe>`;
}

/** The misbehaviour modes worth mentioning: only when the target is the bundled provider. */
function bundledHint(st: InspectorState): readonly string[] {
  const t = st.target;
  return t.kind === 'stdio' && t.args.some((a) => /provider(\.cjs|[/\\]main\.[jt]s)$/.test(a)) ? st.misbehaviours : [];
}

function connectionHtml(st: InspectorState): string {
  return renderConnection(st.link, targetLine(st.target), bundledHint(st));
}

function page(st: InspectorState): string {
  return renderPage({ token: st.token, title: st.link?.label ?? targetLine(st.target), connection: connectionHtml(st), query: renderQueryBuilder(st.link), wire: st.wire, suite: suiteSection(st) });
}

// ---- request routing ----

function handleRequest(st: InspectorState, req: IncomingMessage, res: ServerResponse): void {
  void route(st, req, res).catch((err: unknown) => {
    if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', `inspector error: ${err instanceof Error ? err.message : String(err)}\n`);
    else res.end();
  });
}

async function route(st: InspectorState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const port = (st.server.address() as AddressInfo).port;
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
  if (!guard(st, req, res, url, port)) return;
  if (req.method === 'POST') return handlePost(st, req, res, url.pathname);
  if (req.method !== 'GET') return send(res, 405, 'text/plain; charset=utf-8', 'method not allowed\n');
  return handleGet(st, req, res, url);
}

/**
 * Host, token and (for POSTs) Origin: refuses the request with a 403 and returns false when any is wrong.
 * Loopback only, and only under the name this server was given (no DNS rebinding).
 */
function guard(st: InspectorState, req: IncomingMessage, res: ServerResponse, url: URL, port: number): boolean {
  if (req.headers.host !== `127.0.0.1:${port}` && req.headers.host !== `localhost:${port}`) {
    send(res, 403, 'text/plain; charset=utf-8', 'forbidden: unexpected Host header\n');
    return false;
  }
  const header = req.headers['x-cgp-token'];
  const given = typeof header === 'string' ? header : req.method === 'GET' ? (url.searchParams.get('token') ?? undefined) : undefined;
  if (!tokenOk(given, st.token)) {
    send(res, 403, 'text/plain; charset=utf-8', 'forbidden: this inspector requires its per-run token (open the URL it printed)\n');
    return false;
  }
  const origin = req.headers.origin;
  if (req.method === 'POST' && origin !== undefined && origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`) {
    send(res, 403, 'text/plain; charset=utf-8', 'forbidden: cross-origin request\n');
    return false;
  }
  return true;
}

function handleGet(st: InspectorState, req: IncomingMessage, res: ServerResponse, url: URL): void {
  const path = url.pathname;
  if (path === '/') return send(res, 200, 'text/html; charset=utf-8', page(st));
  if (path.startsWith('/assets/') && ASSETS[path.slice(8)]) return send(res, 200, ASSETS[path.slice(8)]!, asset(path.slice(8)));
  if (path === '/events') return events(st, req, res);
  if (path === '/api/explain') return send(res, 200, 'text/html; charset=utf-8', renderExplain(url.searchParams.get('id') ?? ''));
  if (path === '/api/state') return json(res, 200, stateSnapshot(st));
  if (path === '/api/replay.ndjson') return sendReplay(st, res);
  if (path === '/api/wire.ndjson') {
    return send(res, 200, 'application/x-ndjson; charset=utf-8', st.wire.map((e) => `${e.line}\n`).join(''), { 'content-disposition': 'attachment; filename="inspector-wire.ndjson"' });
  }
  if (path === '/suite/coverage.html') return sendCoverage(st, res);
  send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
}

function stateSnapshot(st: InspectorState): Record<string, unknown> {
  const { suite, link } = st;
  return {
    target: targetLine(st.target),
    peer: link?.peer(),
    connection: st.connections,
    pid: link?.pid,
    suite: suite ? { running: suite.running, pid: suite.pid, done: suite.done ?? null } : null,
    wire: st.wire.length,
    pages: st.clients.size,
  };
}

function sendReplay(st: InspectorState, res: ServerResponse): void {
  const { text, appendedProbe } = replayFile(st.wire, st.connections);
  send(res, 200, 'application/x-ndjson; charset=utf-8', text, { 'content-disposition': 'attachment; filename="inspector-replay.ndjson"', 'x-cgp-appended-probe': String(appendedProbe) });
}

function sendCoverage(st: InspectorState, res: ServerResponse): void {
  if (!st.suite?.done?.html) return send(res, 404, 'text/plain; charset=utf-8', 'no suite report yet\n');
  send(res, 200, 'text/html; charset=utf-8', readFileSync(st.suite.done.html, 'utf8'), {
    // the coverage page carries its own inline script and styles; it fetches nothing
    'content-security-policy': "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'",
  });
}

// ---- the POST API ----

async function handlePost(st: InspectorState, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  try {
    await api(st, res, path, await readJsonBody(req));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (!res.headersSent) json(res, err instanceof FormError || err instanceof SyntaxError ? 400 : 500, { error: message });
  }
}

/** The request body as a JSON object; an empty body is an empty object. */
async function readJsonBody(req: IncomingMessage): Promise<JsonObject> {
  const body = await readBody(req);
  if (body === '') return {};
  const v = JSON.parse(body) as unknown;
  if (!isJsonObject(v)) throw new FormError('the request body must be a JSON object');
  return v;
}

async function api(st: InspectorState, res: ServerResponse, path: string, input: JsonObject): Promise<void> {
  switch (path) {
    case '/api/connect':
      return apiConnect(st, res, input);
    case '/api/query':
    case '/api/raw':
    case '/api/verify':
      return apiExchange(st, res, path, input);
    case '/api/suite':
      return apiSuite(st, res);
    case '/api/suite/cancel':
      await st.suite?.cancel();
      return json(res, 200, { html: suiteSection(st) });
    case '/api/stop':
      json(res, 200, { stopping: true });
      void close(st, 'stopped from the page');
      return;
    default:
      send(res, 404, 'text/plain; charset=utf-8', `no such endpoint: ${path}\n`);
  }
}

async function apiConnect(st: InspectorState, res: ServerResponse, input: JsonObject): Promise<void> {
  if (typeof input.target === 'string') st.target = parseTargetLine(input.target);
  await serial(st, () => connect(st));
  json(res, 200, { connection: connectionHtml(st), query: renderQueryBuilder(st.link), state: st.link!.peer() });
}

async function apiExchange(st: InspectorState, res: ServerResponse, path: '/api/query' | '/api/raw' | '/api/verify', input: JsonObject): Promise<void> {
  const current = st.link;
  if (!current) throw new FormError('not connected');
  const request = exchangeRequest(current, path, input);
  const ex = await serial(st, () => current.exchange(request));
  json(res, 200, { html: renderExchange(ex), n: ex.n, state: ex.peer, connection: connectionHtml(st) });
}

/** What the query form, the raw line editor or the verify picker asks to send. */
function exchangeRequest(current: ProviderLink, path: '/api/query' | '/api/raw' | '/api/verify', input: JsonObject): { envelope: JsonObject } | { raw: string } {
  if (path === '/api/query') return { envelope: buildQuery(input, current.capabilities) };
  if (path === '/api/raw') {
    if (typeof input.raw !== 'string' || input.raw.includes('\n')) throw new FormError('a raw line is one line of text (no newline: the newline is the frame)');
    return { raw: input.raw };
  }
  const picks = Array.isArray(input.frames) ? input.frames.filter((i): i is number => typeof i === 'number') : [];
  const ids = current.identities(picks);
  if (ids.length === 0) throw new FormError('pick at least one frame of the last frames answer to verify');
  return { envelope: { type: 'verify', request: { frames: ids } } };
}

function apiSuite(st: InspectorState, res: ServerResponse): void {
  if (st.suite?.running) throw new FormError('the suite is already running');
  st.suite?.dispose();
  st.suite = new SuiteRun(st.target, st.opts.timeoutMs, {
    progress: (p) => broadcast(st, 'ui', { sel: '#suite-progress', mode: 'append', html: progressItem(p), count: `${p.done} of ${p.total} scenario(s) finished` }),
    done: () => broadcast(st, 'ui', { sel: '#suite', mode: 'replace', html: suiteSection(st) }),
  });
  json(res, 200, { html: suiteSection(st), pid: st.suite.pid });
}

// ---- the event stream and shutdown ----

/** The page's event stream: wire lines, suite progress, and a heartbeat. Its closing is how the page leaving is seen. */
function events(st: InspectorState, req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
  res.write(`retry: 1000\nevent: hello\ndata: ${JSON.stringify({ wire: st.wire.length })}\n\n`);
  st.clients.add(res);
  st.everHadPage = true;
  if (st.goneTimer) clearTimeout(st.goneTimer);
  st.goneTimer = undefined;
  req.on('close', () => {
    st.clients.delete(res);
    if (st.clients.size === 0 && st.everHadPage && !st.stopping) schedulePageGoneClose(st);
  });
}

/** The last page went away: stop unless one comes back within the grace. */
function schedulePageGoneClose(st: InspectorState): void {
  st.goneTimer = setTimeout(() => {
    if (st.clients.size === 0) void close(st, 'the page was closed');
  }, st.opts.pageGoneGraceMs ?? 5_000);
}

function startHeartbeat(clients: ReadonlySet<ServerResponse>): NodeJS.Timeout {
  const heartbeat = setInterval(() => {
    for (const c of clients) c.write(`event: ping\ndata: ${Date.now()}\n\n`);
  }, 5_000);
  heartbeat.unref();
  return heartbeat;
}

/** Stops once, whoever asks first: ends the pages' streams, the suite, the provider connection, then the server. */
function close(st: InspectorState, reason: string): Promise<string> {
  st.stopping ??= (async () => {
    clearInterval(st.heartbeat);
    if (st.goneTimer) clearTimeout(st.goneTimer);
    broadcast(st, 'bye', { reason });
    for (const c of st.clients) c.end();
    st.clients.clear();
    await st.suite?.cancel();
    st.suite?.dispose();
    await st.link?.close();
    await new Promise<void>((r) => {
      st.server.close(() => r());
      st.server.closeAllConnections();
    });
    st.resolveClosed(reason);
    return reason;
  })();
  return st.stopping;
}
