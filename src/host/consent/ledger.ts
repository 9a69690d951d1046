// The consent ledger (C1, C2, C6; §4.1 receipts): an append-only JSON Lines file of explicit, named,
// revocable grants and of revocations. Nothing is ever edited or removed; revoking is appending.
//
// Durability: a record is one line written with O_APPEND and fsync'ed (fs.fsyncSync on the file) BEFORE
// grant()/revoke() return — a grant the caller was told about survives a crash or power loss. When the file
// is created, its directory is fsync'ed too, so the file itself survives.
//
// Integrity: every line carries `seq` (1, 2, 3, … with no gap) and `check`, the first 16 hex digits of
// sha256 over the line's JSON without `check`. Loading:
// - a LAST line with no terminating newline (or made only of NUL bytes) is a torn append — a crash
//   mid-write. It is ignored and reported as a diagnostic: never fatal, never a grant. Opening the ledger
//   for writing truncates it away (it was never acknowledged), so the next append starts on a line boundary.
// - any other line that does not parse, fails its check, or breaks the sequence is a hard LedgerCorrupt
//   naming the line: consent is never evaluated from a ledger that was tampered with or damaged.
//
// Format (one object per line, members in this order):
//   {"op":"header","seq":0,"format":"cgp-consent-ledger/1","created_at":…,"check":…}
//   {"op":"grant","seq":n,"grant_id":…,"provider":{"name","version"},"routing_id":…,"grantor":{"kind","id"},
//    "granted_at":…,["expires_at":…,]"egress":bool,"receipts":[{provider,routing_id,scope,grantor,granted_at}],"check":…}
//   {"op":"revoke","seq":n,"provider":{…},"routing_id":…,"grantor":{…},"revoked_at":…,["scopes":[…],]["reason":…,]"check":…}
// Several writers (processes) may share one file: every append (and the open-time repair) happens under an
// exclusive lock file `<ledger>.lock` (lock-file.ts: O_EXCL create, holding the writer's pid; a lock left by a dead pid is
// broken). Under the lock the writer first reads what others appended since it last looked, then numbers its
// record after theirs, so two processes never interleave bytes or reuse a sequence number.
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { compareProtocolTimestamps, formatProtocolTimestamp, isProtocolTimestamp } from '../../protocol/timestamp.js';
import { LedgerCorrupt } from '../errors.js';
import { acquireLock } from './lock-file.js';

export const LEDGER_FORMAT = 'cgp-consent-ledger/1';

export interface ProviderIdentity {
  name: string;
  version: string;
}

export interface Grantor {
  kind: 'human' | 'policy';
  id: string;
}

/** A per-scope consent receipt (§4.1): who agreed that what may leave, to which provider, when. */
export interface ConsentReceipt {
  provider: ProviderIdentity;
  routing_id: string;
  scope: string;
  grantor: Grantor;
  /** F4 timestamp. */
  granted_at: string;
  expires_at?: string;
}

export interface GrantRecord {
  op: 'grant';
  seq: number;
  grant_id: string;
  provider: ProviderIdentity;
  routing_id: string;
  grantor: Grantor;
  granted_at: string;
  expires_at?: string;
  /** Whether the provider's egress (declared or forced by C4) was what this consent was given for. */
  egress: boolean;
  receipts: ConsentReceipt[];
}

export interface RevokeRecord {
  op: 'revoke';
  seq: number;
  provider: ProviderIdentity;
  routing_id: string;
  grantor: Grantor;
  revoked_at: string;
  /** Absent: the consent and every receipt for this provider are revoked. */
  scopes?: string[];
  reason?: string;
}

export type LedgerRecord = GrantRecord | RevokeRecord;

export interface LedgerDiagnostic {
  kind: 'torn-tail' | 'torn-tail-truncated' | 'created' | 'in-memory';
  message: string;
  /** 1-based line number of the torn line, when there is one. */
  line?: number;
  bytes?: number;
}

export interface LedgerOptions {
  /** Clock for granted_at / revoked_at (default: now). */
  now?: () => Date;
  /**
   * Upper bound on the bytes one write() syscall carries (default: unbounded). Only useful to make a
   * crash land inside a line when testing torn-tail recovery.
   */
  maxWriteBytes?: number;
}

export interface GrantInput {
  provider: ProviderIdentity;
  routingId: string;
  grantor: Grantor;
  /** The off-machine scopes consented to; one receipt each. */
  scopes: readonly string[];
  egress: boolean;
  /** F4 timestamp; the ledger's clock when absent. */
  grantedAt?: string;
  expiresAt?: string;
}

export interface RevokeInput {
  provider: ProviderIdentity;
  routingId: string;
  grantor: Grantor;
  scopes?: readonly string[];
  reason?: string;
  revokedAt?: string;
}

/** What the ledger says about one provider at one instant. */
export interface ConsentState {
  consentLive: boolean;
  liveScopes: Set<string>;
}

function checksum(json: string): string {
  return createHash('sha256').update(json, 'utf8').digest('hex').slice(0, 16);
}

function serialise(record: Record<string, unknown>): string {
  const body = JSON.stringify(record);
  const check = checksum(body);
  return `${body.slice(0, -1)}${body.length > 2 ? ',' : ''}"check":"${check}"}\n`;
}

function isGrantor(v: unknown): v is Grantor {
  if (!v || typeof v !== 'object') return false;
  const g = v as Record<string, unknown>;
  return (g.kind === 'human' || g.kind === 'policy') && typeof g.id === 'string' && g.id.trim() !== '';
}

function isIdentity(v: unknown): v is ProviderIdentity {
  if (!v || typeof v !== 'object') return false;
  const p = v as Record<string, unknown>;
  return typeof p.name === 'string' && p.name !== '' && typeof p.version === 'string' && p.version !== '';
}

function checkGrantor(grantor: Grantor): void {
  if (!isGrantor(grantor)) throw new TypeError('consent: grantor must be {kind: "human"|"policy", id: non-empty string}');
}

interface Parsed {
  /** Complete lines read (header included). */
  lines?: number;
  records: LedgerRecord[];
  diagnostics: LedgerDiagnostic[];
  /** Byte length of the trustworthy prefix (everything before a torn tail). */
  goodBytes: number;
  lastSeq: number;
  hasHeader: boolean;
}

interface ParseStart {
  lastSeq: number;
  hasHeader: boolean;
  /** Lines before `buf` (for line numbers in diagnostics). */
  lineNo: number;
}

function parseLedger(buf: Buffer, file: string, start: ParseStart = { lastSeq: -1, hasHeader: false, lineNo: 0 }): Parsed & { lines: number } {
  const records: LedgerRecord[] = [];
  const diagnostics: LedgerDiagnostic[] = [];
  let offset = 0;
  let lineNo = start.lineNo;
  let lastSeq = start.lastSeq;
  let hasHeader = start.hasHeader;
  while (offset < buf.length) {
    lineNo += 1;
    const nl = buf.indexOf(0x0a, offset);
    if (nl === -1) {
      // No newline: a torn append. Acknowledged records always end with their newline.
      diagnostics.push({
        kind: 'torn-tail',
        line: lineNo,
        bytes: buf.length - offset,
        message: `line ${lineNo} of ${file} is a torn append (${buf.length - offset} bytes, no newline): ignored, never counted as a grant`,
      });
      return { records, diagnostics, goodBytes: offset, lastSeq, hasHeader, lines: lineNo - 1 };
    }
    const bytes = buf.subarray(offset, nl);
    const isLastLine = nl === buf.length - 1;
    if (isLastLine && bytes.length > 0 && bytes.every((b) => b === 0)) {
      diagnostics.push({ kind: 'torn-tail', line: lineNo, bytes: bytes.length + 1, message: `line ${lineNo} of ${file} is zero-filled (an interrupted extension): ignored` });
      return { records, diagnostics, goodBytes: offset, lastSeq, hasHeader, lines: lineNo - 1 };
    }
    const text = bytes.toString('utf8');
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new LedgerCorrupt(file, lineNo, 'not a JSON object');
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new LedgerCorrupt(file, lineNo, 'not a JSON object');
    const { check, ...rest } = value;
    if (typeof check !== 'string' || checksum(JSON.stringify(rest)) !== check) throw new LedgerCorrupt(file, lineNo, 'checksum mismatch (the line was altered)');
    const seq = rest.seq;
    if (typeof seq !== 'number' || seq !== lastSeq + 1) throw new LedgerCorrupt(file, lineNo, `sequence ${JSON.stringify(seq)} where ${lastSeq + 1} was expected (a line is missing or duplicated)`);
    lastSeq = seq;
    if (rest.op === 'header') {
      if (lineNo !== 1 || rest.format !== LEDGER_FORMAT) throw new LedgerCorrupt(file, lineNo, `unexpected header (format ${JSON.stringify(rest.format)})`);
      hasHeader = true;
    } else if (rest.op === 'grant') {
      if (!hasHeader) throw new LedgerCorrupt(file, lineNo, 'record before the header');
      if (
        !isIdentity(rest.provider) ||
        typeof rest.routing_id !== 'string' ||
        !isGrantor(rest.grantor) ||
        !isProtocolTimestamp(rest.granted_at) ||
        !Array.isArray(rest.receipts) ||
        typeof rest.grant_id !== 'string'
      ) {
        throw new LedgerCorrupt(file, lineNo, 'grant record is missing required members');
      }
      records.push(rest as unknown as GrantRecord);
    } else if (rest.op === 'revoke') {
      if (!hasHeader) throw new LedgerCorrupt(file, lineNo, 'record before the header');
      if (!isIdentity(rest.provider) || typeof rest.routing_id !== 'string' || !isGrantor(rest.grantor) || !isProtocolTimestamp(rest.revoked_at)) {
        throw new LedgerCorrupt(file, lineNo, 'revoke record is missing required members');
      }
      records.push(rest as unknown as RevokeRecord);
    } else {
      throw new LedgerCorrupt(file, lineNo, `unknown op ${JSON.stringify(rest.op)}`);
    }
    offset = nl + 1;
  }
  return { records, diagnostics, goodBytes: offset, lastSeq, hasHeader, lines: lineNo };
}

function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch (err) {
    // Some platforms cannot fsync a directory (EISDIR/EINVAL/EPERM); the file itself is synced regardless.
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EINVAL' && code !== 'EPERM' && code !== 'EBADF') throw err;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export class ConsentLedger {
  /** The file, or undefined for an in-memory ledger (not durable; for tests and demos). */
  readonly path: string | undefined;
  readonly diagnostics: LedgerDiagnostic[];
  readonly #records: LedgerRecord[];
  readonly #now: () => Date;
  readonly #maxWrite: number;
  #fd: number | undefined;
  #size: number;
  #seq: number;
  /** Complete lines known (for line numbers when catching up with other writers). */
  #lines: number;

  private constructor(file: string | undefined, fd: number | undefined, parsed: Parsed, size: number, opts: LedgerOptions) {
    this.path = file;
    this.#fd = fd;
    this.#records = parsed.records;
    this.diagnostics = parsed.diagnostics;
    this.#seq = parsed.lastSeq;
    this.#size = size;
    this.#lines = parsed.lines ?? 0;
    this.#now = opts.now ?? (() => new Date());
    this.#maxWrite = opts.maxWriteBytes && opts.maxWriteBytes > 0 ? Math.floor(opts.maxWriteBytes) : Infinity;
  }

  /** Read a ledger without opening it for writing (a missing file is an empty ledger). Throws LedgerCorrupt. */
  static load(file: string): { records: LedgerRecord[]; diagnostics: LedgerDiagnostic[] } {
    let buf: Buffer;
    try {
      buf = fs.readFileSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], diagnostics: [] };
      throw err;
    }
    const parsed = parseLedger(buf, file);
    return { records: parsed.records, diagnostics: parsed.diagnostics };
  }

  /**
   * Open (creating if needed) a ledger for appending. A torn last line is truncated away (it was never
   * acknowledged) and reported in `diagnostics`; any other damage throws LedgerCorrupt.
   */
  static open(file: string, opts: LedgerOptions = {}): ConsentLedger {
    const abs = path.resolve(file);
    let fd: number;
    let created = false;
    try {
      fd = fs.openSync(abs, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600);
      created = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      fd = fs.openSync(abs, fs.constants.O_WRONLY | fs.constants.O_APPEND);
    }
    let release: (() => void) | undefined;
    try {
      // Under the lock: nobody else is mid-append, so a line without its newline is a dead writer's torn tail.
      release = acquireLock(abs);
      const buf = fs.readFileSync(abs);
      const parsed = parseLedger(buf, abs);
      if (created) parsed.diagnostics.push({ kind: 'created', message: `created consent ledger ${abs}` });
      if (parsed.goodBytes < buf.length) {
        fs.ftruncateSync(fd, parsed.goodBytes);
        fs.fsyncSync(fd);
        parsed.diagnostics.push({
          kind: 'torn-tail-truncated',
          bytes: buf.length - parsed.goodBytes,
          message: `removed a torn, never-acknowledged tail of ${buf.length - parsed.goodBytes} bytes from ${abs} before appending`,
        });
      }
      const ledger = new ConsentLedger(abs, fd, parsed, parsed.goodBytes, opts);
      if (!parsed.hasHeader) {
        // An empty file (or only a torn header): start it properly.
        ledger.#write({ op: 'header', seq: 0, format: LEDGER_FORMAT, created_at: formatProtocolTimestamp(ledger.#now()) });
      }
      if (created) fsyncDir(path.dirname(abs)); // the new file's directory entry is durable too
      return ledger;
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    } finally {
      release?.();
    }
  }

  /** A ledger that lives in memory only (NOT durable: for tests and demos). */
  static inMemory(opts: LedgerOptions = {}): ConsentLedger {
    const parsed: Parsed = {
      records: [],
      diagnostics: [{ kind: 'in-memory', message: 'in-memory consent ledger: grants do not survive this process' }],
      goodBytes: 0,
      lastSeq: 0,
      hasHeader: true,
    };
    return new ConsentLedger(undefined, undefined, parsed, 0, opts);
  }

  get durable(): boolean {
    return this.path !== undefined;
  }

  records(): readonly LedgerRecord[] {
    return this.#records;
  }

  /** Every receipt ever granted, in grant order (revoked ones included: the ledger is history). */
  receipts(): ConsentReceipt[] {
    return this.#records.flatMap((r) => (r.op === 'grant' ? r.receipts : []));
  }

  /**
   * Record an explicit, named grant: the provider's consent plus one receipt per scope. Returns only once
   * the line is on disk (fsync'ed).
   */
  grant(input: GrantInput): GrantRecord {
    checkGrantor(input.grantor);
    if (!isIdentity(input.provider)) throw new TypeError('consent: provider must be {name, version}, both non-empty');
    if (typeof input.routingId !== 'string' || input.routingId === '') throw new TypeError('consent: routingId must be a non-empty string');
    const grantedAt = input.grantedAt ?? formatProtocolTimestamp(this.#now());
    if (!isProtocolTimestamp(grantedAt)) throw new TypeError(`consent: granted_at ${JSON.stringify(grantedAt)} is not an F4 timestamp`);
    if (input.expiresAt !== undefined && !isProtocolTimestamp(input.expiresAt)) throw new TypeError(`consent: expires_at ${JSON.stringify(input.expiresAt)} is not an F4 timestamp`);
    const provider = { name: input.provider.name, version: input.provider.version };
    const grantor = { kind: input.grantor.kind, id: input.grantor.id };
    const scopes = [...new Set(input.scopes)];
    for (const s of scopes) if (typeof s !== 'string' || s === '') throw new TypeError('consent: scopes must be non-empty strings');
    const receipts: ConsentReceipt[] = scopes.map((scope) => ({
      provider,
      routing_id: input.routingId,
      scope,
      grantor,
      granted_at: grantedAt,
      ...(input.expiresAt !== undefined ? { expires_at: input.expiresAt } : {}),
    }));
    const record: GrantRecord = {
      op: 'grant',
      seq: 0, // numbered under the lock, after what other writers appended (#append)
      grant_id: `grant-${randomUUID()}`,
      provider,
      routing_id: input.routingId,
      grantor,
      granted_at: grantedAt,
      ...(input.expiresAt !== undefined ? { expires_at: input.expiresAt } : {}),
      egress: input.egress,
      receipts,
    };
    this.#append(record as unknown as Record<string, unknown>);
    return record;
  }

  /** Revoke (by appending): every scope when `scopes` is absent, else those scopes' receipts only. */
  revoke(input: RevokeInput): RevokeRecord {
    checkGrantor(input.grantor);
    if (!isIdentity(input.provider)) throw new TypeError('consent: provider must be {name, version}, both non-empty');
    const revokedAt = input.revokedAt ?? formatProtocolTimestamp(this.#now());
    if (!isProtocolTimestamp(revokedAt)) throw new TypeError(`consent: revoked_at ${JSON.stringify(revokedAt)} is not an F4 timestamp`);
    const record: RevokeRecord = {
      op: 'revoke',
      seq: 0, // numbered under the lock (#append)
      provider: { name: input.provider.name, version: input.provider.version },
      routing_id: input.routingId,
      grantor: { kind: input.grantor.kind, id: input.grantor.id },
      revoked_at: revokedAt,
      ...(input.scopes !== undefined ? { scopes: [...new Set(input.scopes)] } : {}),
      ...(input.reason !== undefined ? { reason: input.reason } : {}),
    };
    this.#append(record as unknown as Record<string, unknown>);
    return record;
  }

  /**
   * Fold the history for one provider. A grant applies to the exact identity (routing id, name AND
   * version: a different build needs its own consent); a revocation applies to the routing id and name
   * whatever the version. Expired grants (expires_at ≤ now) count as absent.
   */
  state(provider: ProviderIdentity, routingId: string, now: Date = this.#now()): ConsentState {
    const instant = formatProtocolTimestamp(now);
    let consent: string | null | undefined; // undefined: none; null: no expiry; string: expires_at
    const scopes = new Map<string, string | null>();
    for (const r of this.#records) {
      if (r.routing_id !== routingId || r.provider.name !== provider.name) continue;
      if (r.op === 'grant') {
        if (r.provider.version !== provider.version) continue;
        consent = r.expires_at ?? null;
        for (const receipt of r.receipts) scopes.set(receipt.scope, receipt.expires_at ?? null);
      } else if (r.scopes === undefined) {
        consent = undefined;
        scopes.clear();
      } else {
        for (const s of r.scopes) scopes.delete(s);
      }
    }
    const live = (exp: string | null | undefined) => exp === null || (typeof exp === 'string' && (compareProtocolTimestamps(instant, exp) ?? 1) < 0);
    const liveScopes = new Set<string>();
    for (const [s, exp] of scopes) if (live(exp)) liveScopes.add(s);
    return { consentLive: live(consent), liveScopes };
  }

  close(): void {
    if (this.#fd !== undefined) {
      fs.closeSync(this.#fd);
      this.#fd = undefined;
    }
  }

  /** Number `record` after every record appended so far (by any writer), write it, remember it. */
  #append(record: Record<string, unknown>): void {
    if (this.path === undefined) {
      record.seq = this.#seq + 1;
      this.#seq = record.seq as number;
      this.#records.push(record as unknown as LedgerRecord);
      return;
    }
    if (this.#fd === undefined) throw new Error(`consent ledger ${this.path} is closed`);
    const release = acquireLock(this.path);
    try {
      this.#catchUp();
      record.seq = this.#seq + 1;
      this.#write(record);
      this.#records.push(record as unknown as LedgerRecord);
    } finally {
      release();
    }
  }

  /** Read what other writers appended since we last looked (called under the lock). */
  #catchUp(): void {
    const size = fs.statSync(this.path!).size;
    if (size === this.#size) return;
    const fd = fs.openSync(this.path!, 'r');
    let buf: Buffer;
    try {
      buf = Buffer.alloc(size - this.#size);
      let got = 0;
      while (got < buf.length) {
        const n = fs.readSync(fd, buf, got, buf.length - got, this.#size + got);
        if (n === 0) break;
        got += n;
      }
      buf = buf.subarray(0, got);
    } finally {
      fs.closeSync(fd);
    }
    const parsed = parseLedger(buf, this.path!, { lastSeq: this.#seq, hasHeader: true, lineNo: this.#lines });
    this.#records.push(...parsed.records);
    this.#seq = parsed.lastSeq;
    this.#lines = parsed.lines;
    if (parsed.goodBytes < buf.length) {
      // We hold the lock, so nobody is mid-append: the partial line is a dead writer's, never acknowledged.
      fs.ftruncateSync(this.#fd!, this.#size + parsed.goodBytes);
      fs.fsyncSync(this.#fd!);
      this.diagnostics.push(...parsed.diagnostics, {
        kind: 'torn-tail-truncated',
        bytes: buf.length - parsed.goodBytes,
        message: `removed a torn, never-acknowledged tail of ${buf.length - parsed.goodBytes} bytes (another writer died mid-append) from ${this.path}`,
      });
    }
    this.#size += parsed.goodBytes;
  }

  /** Write one line at the end (the caller holds the lock), fsync, and advance. */
  #write(record: Record<string, unknown>): void {
    const fd = this.#fd;
    if (fd === undefined) throw new Error(`consent ledger ${this.path} is closed`);
    const bytes = Buffer.from(serialise(record), 'utf8');
    const start = this.#size;
    try {
      let written = 0;
      while (written < bytes.length) {
        const n = fs.writeSync(fd, bytes, written, Math.min(bytes.length - written, this.#maxWrite));
        written += n;
      }
      fs.fsyncSync(fd); // durable BEFORE the caller hears "done"
    } catch (err) {
      // Leave no partial line behind for the next append to glue onto.
      try {
        fs.ftruncateSync(fd, start);
        fs.fsyncSync(fd);
      } catch {
        /* the torn tail will be found (and ignored) at the next load */
      }
      throw err;
    }
    this.#size = start + bytes.length;
    this.#seq = record.seq as number;
    this.#lines += 1;
  }
}
