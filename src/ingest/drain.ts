/**
 * Log template mining: typed tokenisation + a fixed-depth parse tree in the manner of Drain (He, Zhu,
 * Zheng, Lyu, "Drain: An Online Log Parsing Approach with Fixed Depth Tree", ICWS 2017), written here.
 *
 * 1. Tokenise a line: JSON objects are flattened to `key=value` tokens; everything else splits on
 *    whitespace, keeping double-quoted spans whole when they hold a `key="…"` value. Timestamps (ISO,
 *    Apache/NCSA `[DD/Mon/YYYY:HH:MM:SS ±HHMM]`, syslog `Mon DD HH:MM:SS`, bare clocks) are found first
 *    and become one token each.
 * 2. Type each token's value (the part after `key=` if any, punctuation around it kept as affixes):
 *    timestamp, ip, status, duration, path, id, number, level, method. A typed token is compared by its
 *    type (`<status>`), so `200` and `502` fall into one template whose status slot is then analysed.
 * 3. Drain: the tree's first layer is the token count, the next `DEPTH - 2` layers are the leading
 *    tokens (a token holding a digit, or a typed one, goes to the `<*>` child); a leaf holds a list of
 *    templates. A line joins the most similar template of its leaf when the similarity (the share of
 *    positions whose tokens are equal, variable positions excluded) is ≥ SIM_THRESHOLD; the positions
 *    that differ become variables. Otherwise it starts a new template.
 * Deterministic: the result is a function of the lines in order.
 */

export type FieldType = 'timestamp' | 'ip' | 'status' | 'duration' | 'path' | 'id' | 'number' | 'level' | 'method';

export interface Token {
  /** What the tree compares: the literal text, or `prefix<type>suffix` for a typed value. */
  key: string;
  /** The token as written. */
  text: string;
  type?: FieldType;
  /** The typed value (without key= and affixes). */
  value?: string;
  /** `key` of `key=value`, when the token has one. */
  name?: string;
}

export interface Template {
  id: number;
  /** Per position: the shared key, or `<*>` for a free variable. */
  keys: string[];
  /** Member lines (0-based indices into the mined line list), in order. */
  members: number[];
}

export const DEPTH = 4;
export const SIM_THRESHOLD = 0.5;
export const MAX_CHILDREN = 100;
const WILD = '<*>';

// ── timestamps anywhere in a line ───────────────────────────────────────────────────────────────

const TS_PATTERNS = [
  /\[?\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|z|[+-]\d{2}:?\d{2}| ?UTC)?\]?/g,
  /\[\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2}(?: [+-]\d{4})?\]/g,
  /\b[A-Z][a-z]{2} {1,2}\d{1,2} \d{2}:\d{2}:\d{2}\b/g,
  // a bare clock is a valid time of day standing alone: not a run of colon-separated hex bytes (a MAC
  // address `08:90:08:41:02:08`, a hex dump), not inside a longer token (docs/interpretations.md §124)
  /(?<![\w:.-])\[?(?:[01]\d|2[0-3]):[0-5]\d:(?:[0-5]\d|60)(?:[.,]\d{1,9})?(?![\w:])\]?/g,
];

/** The first timestamp-like span of a line: [start, end) and its clock text `HH:MM:SS`. */
export function findTimestamp(line: string): { start: number; end: number; clock: string; sortKey: string } | undefined {
  for (const re of TS_PATTERNS) {
    re.lastIndex = 0;
    const m = re.exec(line);
    if (!m) continue;
    const clock = /(?<!\d)(\d{2}:\d{2}:\d{2})/.exec(m[0])![1]!;
    const date = /(\d{4})-(\d{2})-(\d{2})/.exec(m[0]);
    const apache = /(\d{2})\/([A-Z][a-z]{2})\/(\d{4})/.exec(m[0]);
    const day = date ? `${date[1]}${date[2]}${date[3]}` : apache ? `${apache[3]}${MONTH[apache[2]!] ?? '00'}${apache[1]}` : '';
    const frac = /:\d{2}[.,](\d+)/.exec(m[0])?.[1] ?? '';
    return { start: m.index, end: m.index + m[0].length, clock, sortKey: `${day}${clock}.${frac.padEnd(9, '0')}` };
  }
  return undefined;
}
const MONTH: Record<string, string> = { Jan: '01', Feb: '02', Mar: '03', Apr: '04', May: '05', Jun: '06', Jul: '07', Aug: '08', Sep: '09', Oct: '10', Nov: '11', Dec: '12' };

// ── typing ──────────────────────────────────────────────────────────────────────────────────────

const LEVELS = /^(?:ERROR|ERR|WARN|WARNING|INFO|DEBUG|TRACE|FATAL|CRITICAL|CRIT|PANIC|SEVERE|NOTICE|Normal|Warning|E|W|I|D|F)$/;
const LEVELS_ANY_CASE = /^(?:error|err|warn|warning|info|debug|trace|fatal|critical|crit|panic|severe|notice)$/i;
const METHODS = /^(?:GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS|CONNECT)$/;
const IPV4 = /^(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?$/;
const IPV6 = /^\[?(?:[0-9a-fA-F]{1,4}:){2,7}[0-9a-fA-F]{0,4}\]?(?::\d+)?$/;
const DURATION = /^-?\d+(?:\.\d+)?(?:ms|s|us|µs|μs|ns|m|h|sec|secs)$/;
const NUMBER = /^-?\d+(?:\.\d+)?(?:[kKMG]i?B|[kKMG]|B|%)?$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const HEX = /^(?:0x)?[0-9a-fA-F]{8,}$/;
const MIXED_ID = /^[A-Za-z0-9][\w.:-]{4,}$/;
const DURATION_NAME = /(?:duration|latency|elapsed|took|_ms$|^ms$|time_ms|request_time|rt$|response_time|upstream_time)/i;
const STATUS_NAME = /^(?:status|status_code|code|http_status|statusCode|resp_status|response_code)$/i;
const LEVEL_NAME = /^(?:level|lvl|severity|loglevel|log_level)$/i;
const ID_NAME = /(?:^id$|_id$|Id$|^req$|^request$|^trace$|^span$|^user$|^uid$)/;
const TS_NAME = /^(?:ts|time|timestamp|@timestamp|t|date|datetime|eventTime|lastTimestamp)$/i;
const LEAD = /^[("'[{<]+/;
const TRAIL = /[)"'\]}>,;:.!]+$/;

function hasDigit(t: string): boolean {
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c >= 48 && c <= 57) return true;
  }
  return false;
}

/** The type of a bare value (no key=), or undefined for a literal. `prev` is the previous token. */
export function typeOf(core: string, prev: string | undefined, name: string | undefined): FieldType | undefined {
  if (core === '') return undefined;
  if (name !== undefined) {
    if (TS_NAME.test(name) && (hasDigit(core) || core === '')) return 'timestamp';
    if (LEVEL_NAME.test(name)) return 'level';
    if (STATUS_NAME.test(name) && /^[1-5]\d\d$/.test(core)) return 'status';
    if (DURATION_NAME.test(name) && /^-?\d+(?:\.\d+)?[a-zµμ]*$/.test(core)) return 'duration';
    if (/^(?:method|verb|http_method)$/i.test(name)) return 'method';
    if (/^(?:path|uri|url|route|endpoint|request_uri)$/i.test(name)) return 'path';
    if (ID_NAME.test(name) && core !== '-' && core !== '') return 'id';
    if (/^(?:ip|remote_addr|client_ip|clientip|addr|remote|peer)$/i.test(name) && (IPV4.test(core) || IPV6.test(core))) return 'ip';
  }
  if (METHODS.test(core)) return 'method';
  if (LEVELS.test(core) || (name === undefined && LEVELS_ANY_CASE.test(core) && core.length > 3)) return 'level';
  if (IPV4.test(core) || (core.includes(':') && IPV6.test(core) && hasDigit(core))) return 'ip';
  if (/^[1-5]\d\d$/.test(core) && prev !== undefined && (/HTTP\/[\d.]+"?$/.test(prev) || /^(?:status|code|->|→)$/i.test(prev))) return 'status';
  if (DURATION.test(core)) return 'duration';
  if (NUMBER.test(core)) return 'number';
  if (core.startsWith('/') && (core.length > 1 || (prev !== undefined && /^"?[A-Z]{3,7}$/.test(prev))) && !core.includes('//')) return 'path';
  if (UUID.test(core) || (HEX.test(core) && hasDigit(core))) return 'id';
  if (hasDigit(core) && MIXED_ID.test(core) && /[A-Za-z]/.test(core) && !/^[A-Za-z]+\d?$/.test(core)) return 'id';
  return undefined;
}

function typed(text: string, prev: string | undefined): Token {
  const eq = /^([A-Za-z_@][\w.@-]*)=(.*)$/s.exec(text);
  const name = eq ? eq[1] : undefined;
  let body = eq ? eq[2]! : text;
  const head = eq ? `${name}=` : '';
  const lead = LEAD.exec(body)?.[0] ?? '';
  body = body.slice(lead.length);
  const trail = TRAIL.exec(body)?.[0] ?? '';
  // keep a trailing `.5` of a number, a trailing `:` of `host:` … only strip when the core stays non-empty
  const core = trail.length > 0 && trail.length < body.length ? body.slice(0, body.length - trail.length) : body;
  const aff = core === body ? '' : trail;
  const type = typeOf(core, prev, name);
  if (!type) return { key: text, text, ...(name ? { name } : {}) };
  return { key: `${head}${lead}<${type}>${aff}`, text, type, value: core, ...(name ? { name } : {}) };
}

function flatten(value: unknown, prefix: string, out: Array<[string, string]>): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
    return;
  }
  out.push([prefix, typeof value === 'string' ? value : JSON.stringify(value)]);
}

/** Split on whitespace; a `"` opening a token (or after `=`) runs to its closing `"`. */
function splitQuoted(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  const n = line.length;
  while (i < n) {
    while (i < n && (line[i] === ' ' || line[i] === '\t')) i++;
    if (i >= n) break;
    let j = i;
    let quoted = false;
    while (j < n) {
      const c = line[j]!;
      if (c === '"' && (j === i || line[j - 1] === '=')) {
        const close = line.indexOf('"', j + 1);
        if (close < 0) {
          j = n;
          break;
        }
        j = close + 1;
        quoted = true;
        continue;
      }
      if (c === ' ' || c === '\t') break;
      j++;
    }
    const w = line.slice(i, j);
    // an access log's quoted request line is three fields: method, path, protocol
    const req = quoted && line[i] === '"' ? /^"([A-Z]{3,7}) (\S+) (HTTP\/[\d.]+)"$/.exec(w) : null;
    if (req) out.push(`"${req[1]}`, req[2]!, `${req[3]}"`);
    else out.push(w);
    i = j;
  }
  return out;
}

export interface TokenisedLine {
  tokens: Token[];
  /** Index of the token its time (sortKey) was read from. */
  tsIndex?: number;
  /** Sortable instant text of its first timestamp, and its clock (HH:MM:SS). */
  sortKey?: string;
  clock?: string;
  json: boolean;
}

/** Tokenise one (decoded) line. */
export function tokenise(line: string): TokenisedLine {
  const t = line.trim();
  if (t.startsWith('{') && t.endsWith('}')) {
    try {
      const obj = JSON.parse(t) as unknown;
      if (obj !== null && typeof obj === 'object' && !Array.isArray(obj)) {
        const pairs: Array<[string, string]> = [];
        flatten(obj, '', pairs);
        const tokens: Token[] = [];
        let sortKey: string | undefined;
        let clock: string | undefined;
        let tsIndex: number | undefined;
        for (const [k, v] of pairs) {
          const tok = typed(`${k}=${v}`, undefined);
          if (tok.type === 'timestamp' && sortKey === undefined) {
            const ts = findTimestamp(v);
            if (ts) {
              sortKey = ts.sortKey;
              clock = ts.clock;
              tsIndex = tokens.length;
            }
          }
          // free text (a message) is compared by its words' shape: one token, literal
          tokens.push(tok);
        }
        return { tokens, json: true, ...(sortKey ? { sortKey, clock: clock!, tsIndex: tsIndex! } : {}) };
      }
    } catch {
      // not JSON: tokenised as text below
    }
  }
  const ts = findTimestamp(line);
  let text = line;
  const lead: Token[] = [];
  const tail: Token[] = [];
  if (ts) {
    const before = line.slice(0, ts.start);
    const stamp = line.slice(ts.start, ts.end);
    const after = line.slice(ts.end);
    const tsTok: Token = { key: '<timestamp>', text: stamp, type: 'timestamp', value: stamp };
    let prev: string | undefined;
    for (const w of splitQuoted(before)) {
      const tok = typed(w, prev);
      lead.push(tok);
      prev = w;
    }
    lead.push(tsTok);
    prev = stamp;
    for (const w of splitQuoted(after)) {
      const tok = typed(w, prev);
      tail.push(tok);
      prev = w;
    }
    return { tokens: [...lead, ...tail], json: false, sortKey: ts.sortKey, clock: ts.clock, tsIndex: lead.length - 1 };
  }
  const tokens: Token[] = [];
  let prev: string | undefined;
  for (const w of splitQuoted(text)) {
    tokens.push(typed(w, prev));
    prev = w;
  }
  text = '';
  return { tokens, json: false };
}

// ── the tree ────────────────────────────────────────────────────────────────────────────────────

interface Node {
  children: Map<string, Node>;
  templates: Template[];
}

function node(): Node {
  return { children: new Map(), templates: [] };
}

function isVariableKey(k: string): boolean {
  return k === WILD || k.includes('<');
}

function similarity(t: readonly string[], keys: readonly string[]): { sim: number; vars: number } {
  let same = 0;
  let vars = 0;
  for (let i = 0; i < t.length; i++) {
    if (t[i] === WILD) {
      vars++;
      continue;
    }
    if (t[i] === keys[i]) same++;
  }
  return { sim: same / t.length, vars };
}

export class DrainTree {
  readonly templates: Template[] = [];
  private readonly root = node();

  constructor(
    private readonly depth = DEPTH,
    private readonly threshold = SIM_THRESHOLD,
  ) {}

  /** Add one line (its token keys); returns the template it joined or started. */
  add(keys: readonly string[], lineNo: number): Template {
    const len = keys.length;
    let cur: Node | undefined = this.root.children.get(String(len));
    if (!cur) {
      cur = node();
      this.root.children.set(String(len), cur);
    }
    for (let d = 0; d < Math.min(this.depth - 2, len); d++) {
      const k = keys[d]!;
      const branch = isVariableKey(k) || hasDigit(k) ? WILD : k;
      let next: Node | undefined = cur.children.get(branch);
      if (!next) {
        if (cur.children.size >= MAX_CHILDREN) next = cur.children.get(WILD);
        if (!next) {
          next = node();
          cur.children.set(cur.children.size >= MAX_CHILDREN ? WILD : branch, next);
        }
      }
      cur = next;
    }
    let best: Template | undefined;
    let bestSim = -1;
    let bestVars = -1;
    for (const t of cur.templates) {
      const { sim, vars } = similarity(t.keys, keys);
      if (sim > bestSim || (sim === bestSim && vars > bestVars)) {
        best = t;
        bestSim = sim;
        bestVars = vars;
      }
    }
    if (best && (len === 0 || bestSim >= this.threshold)) {
      for (let i = 0; i < len; i++) if (best.keys[i] !== keys[i]) best.keys[i] = WILD;
      best.members.push(lineNo);
      return best;
    }
    const t: Template = { id: this.templates.length, keys: [...keys], members: [lineNo] };
    cur.templates.push(t);
    this.templates.push(t);
    return t;
  }
}
