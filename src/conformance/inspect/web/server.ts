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
  const anchors = typeof form.anchors === 'string' ? form.anchors.split(/[,\n]/).map((a) => a.trim()).filter((a) => a !== '') : list(form.anchors);
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

export async function startInspector(opts: InspectorOptions): Promise<Inspector> {
  const token = randomBytes(24).toString('base64url');
  const wire: WireEntry[] = [];
  let seq = 0;
  let connections = 0;
  let link: ProviderLink | undefined;
  let target = opts.target;
  let suite: SuiteRun | undefined;
  const clients = new Set<ServerResponse>();
  let everHadPage = false;
  let goneTimer: NodeJS.Timeout | undefined;
  let busy: Promise<unknown> = Promise.resolve();
  let stopping: Promise<string> | undefined;
  let resolveClosed!: (reason: string) => void;
  const closed = new Promise<string>((r) => (resolveClosed = r));
  const misbehaviours = opts.misbehaviours ?? [];

  /** One exchange at a time: the connection is lock-step. */
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = busy.then(fn, fn);
    busy = run.catch(() => undefined);
    return run;
  };

  const broadcast = (event: string, data: unknown) => {
    const payload = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const c of clients) c.write(payload);
  };

  const onWire = (e: WireEntry) => {
    if (wire.length > MAX_WIRE) wire.splice(0, wire.length - MAX_WIRE);
    broadcast('ui', { sel: '#wire-body', mode: 'append', html: renderWireRow(e) });
  };

  const connect = async () => {
    const old = link;
    link = undefined;
    await old?.close();
    connections++;
    link = await ProviderLink.open(target, { ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}), connection: connections, wire, nextSeq: () => ++seq, onWire });
    return link;
  };

  const suiteSection = (): string => {
    const head = `<h2>Conformance suite</h2><p class="actions"><button type="button" id="run-suite"${suite?.running ? ' disabled' : ''}>Run the suite</button>${suite?.running ? ' <button type="button" id="cancel-suite">Cancel</button>' : ''} <span class="hint">the provider suite against this target, in a process of its own; the report is the coverage page</span></p>`;
    if (!suite) return `${head}<ol id="suite-progress"></ol><div id="suite-result"></div>`;
    return `${head}<p id="suite-count">${suite.progress.length} scenario(s) finished</p><ol id="suite-progress">${suite.progress.map(progressItem).join('')}</ol><div id="suite-result">${suite.done ? doneBlock(suite.done) : ''}</div>`;
  };
  const progressItem = (p: SuiteProgress) => `<li class="s-${esc(p.status)}"><span class="st">${esc(p.status)}</span> ${esc(p.name)} <span class="hint">${esc(p.uri.split('/features/').pop())} (${p.done}/${p.total})</span></li>`;
  const doneBlock = (d: SuiteDone): string => {
    if (!d.ran) return `<p class="banner bad suite-verdict" data-verdict="inconclusive">the suite did not run to a verdict (exit ${d.exit_code}): ${esc(d.reason)}</p>`;
    const s = d.summary ?? {};
    return `<p class="banner ${d.conformant ? 'good' : 'bad'} suite-verdict" data-verdict="${d.conformant ? 'CONFORMANT' : 'NOT CONFORMANT'}"><strong>${d.conformant ? 'CONFORMANT' : 'NOT CONFORMANT'}</strong> (exit ${d.exit_code}) — ${s.witnessed ?? 0} witnessed, ${s.warning ?? 0} warning, ${s.failed ?? 0} failed, ${s.unwitnessed ?? 0} unwitnessed, ${s.not_applicable ?? 0} not applicable${(d.must_failed ?? []).length > 0 ? `; MUST failed: ${(d.must_failed ?? []).map((id) => `<button type="button" class="explain" data-explain="${esc(id)}">${esc(id)}</button>`).join(' ')}` : ''}</p><p><a id="coverage-link" href="/suite/coverage.html?token=${esc(token)}" target="_blank" rel="noopener">open the coverage page</a></p><iframe id="coverage-frame" title="coverage report" src="/suite/coverage.html?token=${esc(token)}"></iframe>`;
  };

  const page = () =>
    renderPage({ token, title: link?.label ?? targetLine(target), connection: renderConnection(link, targetLine(target), bundledHint()), query: renderQueryBuilder(link), wire, suite: suiteSection() });
  const bundledHint = () => (target.kind === 'stdio' && target.args.some((a) => /provider(\.cjs|[/\\]main\.[jt]s)$/.test(a)) ? misbehaviours : []);

  async function api(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const body = await readBody(req);
    let input: JsonObject = {};
    if (body !== '') {
      const v = JSON.parse(body) as unknown;
      if (!isJsonObject(v)) throw new FormError('the request body must be a JSON object');
      input = v;
    }
    switch (path) {
      case '/api/connect': {
        if (typeof input.target === 'string') target = parseTargetLine(input.target);
        await serial(connect);
        json(res, 200, { connection: renderConnection(link, targetLine(target), bundledHint()), query: renderQueryBuilder(link), state: link!.peer() });
        return;
      }
      case '/api/query':
      case '/api/raw':
      case '/api/verify': {
        const current = link;
        if (!current) throw new FormError('not connected');
        let request: { envelope: JsonObject } | { raw: string };
        if (path === '/api/query') request = { envelope: buildQuery(input, current.capabilities) };
        else if (path === '/api/raw') {
          if (typeof input.raw !== 'string' || input.raw.includes('\n')) throw new FormError('a raw line is one line of text (no newline: the newline is the frame)');
          request = { raw: input.raw };
        } else {
          const picks = Array.isArray(input.frames) ? input.frames.filter((i): i is number => typeof i === 'number') : [];
          const ids = current.identities(picks);
          if (ids.length === 0) throw new FormError('pick at least one frame of the last frames answer to verify');
          request = { envelope: { type: 'verify', request: { frames: ids } } };
        }
        const ex = await serial(() => current.exchange(request));
        json(res, 200, { html: renderExchange(ex), n: ex.n, state: ex.peer, connection: renderConnection(link, targetLine(target), bundledHint()) });
        return;
      }
      case '/api/suite': {
        if (suite?.running) throw new FormError('the suite is already running');
        suite?.dispose();
        suite = new SuiteRun(target, opts.timeoutMs, {
          progress: (p) => broadcast('ui', { sel: '#suite-progress', mode: 'append', html: progressItem(p), count: `${p.done} of ${p.total} scenario(s) finished` }),
          done: () => broadcast('ui', { sel: '#suite', mode: 'replace', html: suiteSection() }),
        });
        json(res, 200, { html: suiteSection(), pid: suite.pid });
        return;
      }
      case '/api/suite/cancel':
        await suite?.cancel();
        json(res, 200, { html: suiteSection() });
        return;
      case '/api/stop':
        json(res, 200, { stopping: true });
        void close('stopped from the page');
        return;
      default:
        send(res, 404, 'text/plain; charset=utf-8', `no such endpoint: ${path}\n`);
    }
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      const port = (server.address() as AddressInfo).port;
      const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
      // loopback only, and only under the name this server was given (no DNS rebinding)
      if (req.headers.host !== `127.0.0.1:${port}` && req.headers.host !== `localhost:${port}`) {
        send(res, 403, 'text/plain; charset=utf-8', 'forbidden: unexpected Host header\n');
        return;
      }
      const header = req.headers['x-cgp-token'];
      const given = typeof header === 'string' ? header : req.method === 'GET' ? (url.searchParams.get('token') ?? undefined) : undefined;
      if (!tokenOk(given, token)) {
        send(res, 403, 'text/plain; charset=utf-8', 'forbidden: this inspector requires its per-run token (open the URL it printed)\n');
        return;
      }
      if (req.method === 'POST') {
        const origin = req.headers.origin;
        if (origin !== undefined && origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`) {
          send(res, 403, 'text/plain; charset=utf-8', 'forbidden: cross-origin request\n');
          return;
        }
        try {
          await api(req, res, url.pathname);
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          if (!res.headersSent) json(res, err instanceof FormError || err instanceof SyntaxError ? 400 : 500, { error: message });
        }
        return;
      }
      if (req.method !== 'GET') {
        send(res, 405, 'text/plain; charset=utf-8', 'method not allowed\n');
        return;
      }
      const path = url.pathname;
      if (path === '/') return send(res, 200, 'text/html; charset=utf-8', page());
      if (path.startsWith('/assets/') && ASSETS[path.slice(8)]) return send(res, 200, ASSETS[path.slice(8)]!, asset(path.slice(8)));
      if (path === '/events') return events(req, res);
      if (path === '/api/explain') return send(res, 200, 'text/html; charset=utf-8', renderExplain(url.searchParams.get('id') ?? ''));
      if (path === '/api/state') {
        return json(res, 200, { target: targetLine(target), peer: link?.peer(), connection: connections, pid: link?.pid, suite: suite ? { running: suite.running, pid: suite.pid, done: suite.done ?? null } : null, wire: wire.length, pages: clients.size });
      }
      if (path === '/api/replay.ndjson') {
        const { text, appendedProbe } = replayFile(wire, connections);
        return send(res, 200, 'application/x-ndjson; charset=utf-8', text, { 'content-disposition': 'attachment; filename="inspector-replay.ndjson"', 'x-cgp-appended-probe': String(appendedProbe) });
      }
      if (path === '/api/wire.ndjson') {
        return send(res, 200, 'application/x-ndjson; charset=utf-8', wire.map((e) => `${e.line}\n`).join(''), { 'content-disposition': 'attachment; filename="inspector-wire.ndjson"' });
      }
      if (path === '/suite/coverage.html') {
        if (!suite?.done?.html) return send(res, 404, 'text/plain; charset=utf-8', 'no suite report yet\n');
        return send(res, 200, 'text/html; charset=utf-8', readFileSync(suite.done.html, 'utf8'), {
          // the coverage page carries its own inline script and styles; it fetches nothing
          'content-security-policy': "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'",
        });
      }
      send(res, 404, 'text/plain; charset=utf-8', 'not found\n');
    })().catch((err: unknown) => {
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', `inspector error: ${err instanceof Error ? err.message : String(err)}\n`);
      else res.end();
    });
  });

  /** The page's event stream: wire lines, suite progress, and a heartbeat. Its closing is how the page leaving is seen. */
  function events(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write(`retry: 1000\nevent: hello\ndata: ${JSON.stringify({ wire: wire.length })}\n\n`);
    clients.add(res);
    everHadPage = true;
    if (goneTimer) clearTimeout(goneTimer);
    goneTimer = undefined;
    req.on('close', () => {
      clients.delete(res);
      if (clients.size === 0 && everHadPage && !stopping) {
        goneTimer = setTimeout(() => {
          if (clients.size === 0) void close('the page was closed');
        }, opts.pageGoneGraceMs ?? 5_000);
      }
    });
  }

  const heartbeat = setInterval(() => {
    for (const c of clients) c.write(`event: ping\ndata: ${Date.now()}\n\n`);
  }, 5_000);
  heartbeat.unref();

  function close(reason: string): Promise<string> {
    stopping ??= (async () => {
      clearInterval(heartbeat);
      if (goneTimer) clearTimeout(goneTimer);
      broadcast('bye', { reason });
      for (const c of clients) c.end();
      clients.clear();
      await suite?.cancel();
      suite?.dispose();
      await link?.close();
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
      resolveClosed(reason);
      return reason;
    })();
    return stopping;
  }

  await connect();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/?token=${token}`, token, port, closed, close };
}
