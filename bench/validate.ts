// `cgp-conformance validate` on a large NDJSON session vs a bare ajv schema-only pass over the same lines
// (docs/interpretations.md §34). Everything is measured in this one run, interleaved A,B,A,B…; medians and the ratio printed.
//
//   (a) `node dist/src/cli/bin.js validate --json FILE` — the compiled CLI as a whole process
//   (b) a bare node script: reads FILE line by line (node:readline), JSON.parse, and runs ONLY the generated
//       ajv validator (strict profile, validate's default) of each envelope's type
//
// FILE: N envelopes (default 200k) of one honest session written by the bundled provider (src/provider/core.ts):
// handshake + ack, then queries answered by frames (several frames each) or errors, verify/verified. Replies come
// from a pool of real provider answers, re-tagged with fresh correlation ids; randomness from src/util/prng.ts.
// Peak RSS of (a) is reported for FILE and for a 10× file (same session, the body repeated, streamed to disk).
//
// Run: npx tsx bench/validate.ts [--n 200000] [--runs 5] [--cli dist/src/cli/bin.js] [--no-big] [--cpu-prof]
// Target: (a)/(b) ≤ 1.3× wall; peak RSS of (a) about the same for both file sizes. CPU seconds (user+sys, from
// /usr/bin/time) are printed beside wall: on a shared machine they are the steadier figure.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createProvider } from '../src/provider/core.js';
import { ENVELOPE_DEFS } from '../src/schema/validate.js';
import { prng } from '../src/util/prng.js';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '200000' },
    runs: { type: 'string', default: '5' },
    cli: { type: 'string', default: 'dist/src/cli/bin.js' },
    'no-big': { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const N = Number(values.n);
const RUNS = Number(values.runs);
const CLI = resolve(values.cli!);
const VALIDATORS = join(resolve(CLI, '../../../generated/validators/strict.js'));

/* ---------------------------------------------- input ---------------------------------------------- */

async function writeLines(path: string, lines: Iterable<string>): Promise<void> {
  const out = createWriteStream(path);
  let batch = '';
  for (const line of lines) {
    batch += line + '\n';
    if (batch.length > 1 << 16) {
      if (!out.write(batch)) await once(out, 'drain');
      batch = '';
    }
  }
  out.end(batch);
  await once(out, 'finish');
}

const WORDS = ['retry', 'loop', 'configuration', 'backend', 'handbook', 'install', 'token', 'budget', 'timeout', 'fetcher', 'markdown', 'question', 'delay', 'jitter'];
const KINDS = [['doc'], ['snippet'], ['doc', 'snippet'], ['symbol'], []];

/** A pool of real provider exchanges (request line, reply lines) with the correlation id "QID". */
async function exchangePool(rand: () => number): Promise<{ header: string[]; pool: string[][] }> {
  const p = createProvider();
  const hs = JSON.stringify({ type: 'handshake', protocol_version: 'contextgraph/1.0' });
  const header = [hs, ...(await p.handle(hs)).lines];
  const pool: string[][] = [];
  const frameIds: object[] = [];
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  for (let i = 0; i < 400; i++) {
    const r = rand();
    let request: object;
    if (r < 0.3 && frameIds.length > 0) {
      request = { type: 'verify', id: 'QID', request: { frames: [pick(frameIds), pick(frameIds)] } };
    } else {
      const goal = Array.from({ length: 2 + Math.floor(rand() * 3) }, () => pick(WORDS)).join(' ');
      const kinds = pick(KINDS);
      // 'reference' is not offered over a transport: the honest reply is an unsupported_representation error.
      const preference = r < 0.4 ? 'reference' : rand() < 0.7 ? 'compact' : 'full';
      request = {
        type: 'query',
        id: 'QID',
        query: { goal, ...(kinds.length ? { kinds } : {}), max_frames: 1 + Math.floor(rand() * 3), max_tokens: 40 + Math.floor(rand() * 200), representation_preferences: [preference] },
      };
    }
    const line = JSON.stringify(request);
    const reply = (await p.handle(line)).lines.map((l) => {
      // Half the results go unsigned (attestations are optional on the wire): a smaller, still valid reply.
      if (rand() < 0.5 || !l.startsWith('{"type":"frames"')) return l;
      const env = JSON.parse(l) as { result: Record<string, unknown> };
      delete env.result.frame_attestations;
      delete env.result.result_attestation;
      return JSON.stringify(env);
    });
    for (const l of reply) {
      const env = JSON.parse(l) as { type: string; result?: { frames?: Array<Record<string, unknown>> } };
      for (const f of env.result?.frames ?? []) {
        if (typeof f.content_digest === 'string') frameIds.push({ provider_id: 'example-docs', frame_id: f.id, content_digest: f.content_digest });
      }
    }
    pool.push([line, ...reply]);
  }
  return { header, pool };
}

function* body(pool: string[][], n: number, rand: () => number): Generator<string> {
  let written = 0;
  for (let q = 1; written < n; q++) {
    const ex = pool[Math.floor(rand() * pool.length)]!;
    for (const line of ex) {
      if (written++ >= n) return;
      yield line.replace('"id":"QID"', `"id":"q${q}"`);
    }
  }
}

/* ---------------------------------------------- runs ----------------------------------------------- */

const BASELINE = `
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
const { VALIDATORS } = await import(process.argv[2]);
const defs = JSON.parse(process.argv[4]);
let n = 0, bad = 0;
for await (const line of createInterface({ input: createReadStream(process.argv[3]), crlfDelay: Infinity })) {
  if (line.trim() === '') continue;
  const v = JSON.parse(line);
  n++;
  if (!VALIDATORS[defs[v.type]].validate(v)) bad++;
}
process.stdout.write(JSON.stringify({ messages: n, invalid: bad }) + '\\n');
`;

interface Run {
  ms: number;
  rssKb: number;
  /** user + system CPU seconds of the child (from /usr/bin/time): less disturbed by a busy machine than wall */
  cpuS: number;
  code: number | null;
  stdout: string;
}

/** One child under /usr/bin/time -f %M (peak RSS, KiB), stdout drained and kept (the tail only). */
async function timed(args: string[]): Promise<Run> {
  const rssFile = join(tmp, `rss-${Math.random().toString(36).slice(2)}`);
  const t0 = performance.now();
  const child = spawn('/usr/bin/time', ['-f', '%M %U %S', '-o', rssFile, process.execPath, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => {
    stdout = (stdout + d).slice(-4096);
  });
  const [code] = (await once(child, 'close')) as [number | null];
  const ms = performance.now() - t0;
  const [rss, user, sys] = readFileSync(rssFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number) as [number, number, number];
  rmSync(rssFile, { force: true });
  return { ms, rssKb: rss, cpuS: user + sys, code, stdout };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

const tmp = mkdtempSync(join(tmpdir(), 'cgp-bench-validate-'));
try {
  const rand = prng(14);
  const { header, pool } = await exchangePool(rand);
  const file = join(tmp, 'session.ndjson');
  await writeLines(file, [...header, ...body(pool, N - header.length, rand)]);
  const size = statSync(file).size;
  const baseline = join(tmp, 'baseline.mjs');
  writeFileSync(baseline, BASELINE);
  const defs = JSON.stringify(Object.fromEntries(ENVELOPE_DEFS));
  const A = () => timed([CLI, 'validate', '--json', file]);
  const B = () => timed([baseline, VALIDATORS, file, defs]);

  console.log(`validate bench: ${N} envelopes, ${mb(size)} NDJSON (${size} bytes), ${RUNS} interleaved runs each, cli ${values.cli}`);
  const a: Run[] = [];
  const b: Run[] = [];
  for (let r = 0; r < RUNS; r++) {
    a.push(await A());
    b.push(await B());
  }
  const last = a.at(-1)!;
  const m = /"messages": (\d+),\s*"errors": (\d+),\s*"warnings": (\d+)\s*}\s*}\s*$/.exec(last.stdout);
  const summary = m ? `${m[1]} messages, ${m[2]} errors, ${m[3]} warnings` : `(unparsed tail: ${JSON.stringify(last.stdout.slice(-200))})`;
  console.log(`(a) validate --json: exit ${a.map((x) => x.code).join(',')}; ${summary}`);
  console.log(`(b) bare ajv:        exit ${b.map((x) => x.code).join(',')}; ${b.at(-1)!.stdout.trim()}`);
  const ma = median(a.map((x) => x.ms));
  const mbase = median(b.map((x) => x.ms));
  console.log(`(a) runs ms: ${a.map((x) => x.ms.toFixed(0)).join(' ')}   median ${ma.toFixed(0)} ms   ${((N / ma) * 1000).toFixed(0)} msg/s`);
  console.log(`(b) runs ms: ${b.map((x) => x.ms.toFixed(0)).join(' ')}   median ${mbase.toFixed(0)} ms   ${((N / mbase) * 1000).toFixed(0)} msg/s`);
  console.log(`ratio (a)/(b) wall: ${(ma / mbase).toFixed(2)}×   (target ≤ 1.3×)`);
  const ca = median(a.map((x) => x.cpuS));
  const cb = median(b.map((x) => x.cpuS));
  console.log(
    `CPU (user+sys) medians: (a) ${ca.toFixed(2)} s, (b) ${cb.toFixed(2)} s, ratio ${(ca / cb).toFixed(2)}×   (runs (a) ${a.map((x) => x.cpuS.toFixed(2)).join(' ')} / (b) ${b.map((x) => x.cpuS.toFixed(2)).join(' ')})`,
  );
  console.log(
    `peak RSS (a) on ${mb(size)}: ${(median(a.map((x) => x.rssKb)) / 1024).toFixed(0)} MiB (median; runs ${a.map((x) => (x.rssKb / 1024).toFixed(0)).join(' ')})   (b): ${(median(b.map((x) => x.rssKb)) / 1024).toFixed(0)} MiB`,
  );

  if (!values['no-big']) {
    // The same session with its body repeated 10× (one handshake, one ack: still one session), streamed to disk.
    const big = join(tmp, 'session-10x.ndjson');
    const out = createWriteStream(big);
    out.write(header.join('\n') + '\n');
    for (let i = 0; i < 10; i++) {
      for await (const chunk of createReadStream(file, { start: Buffer.byteLength(header.join('\n') + '\n') })) {
        if (!out.write(chunk)) await once(out, 'drain');
      }
    }
    out.end();
    await once(out, 'finish');
    const bigSize = statSync(big).size;
    const r = await timed([CLI, 'validate', '--json', big]);
    console.log(
      `peak RSS (a) on ${mb(bigSize)} (10×): ${(r.rssKb / 1024).toFixed(0)} MiB, exit ${r.code}, ${(r.ms / 1000).toFixed(1)} s; ${r.code === 0 || r.code === 1 ? '' : `tail: ${JSON.stringify(r.stdout.slice(-300))}`}`,
    );
    rmSync(big, { force: true });
  }

  if (values['cpu-prof']) {
    const dir = join(tmp, 'prof');
    await timed(['--cpu-prof', '--cpu-prof-dir', dir, CLI, 'validate', '--json', file]);
    const profile = JSON.parse(readFileSync(join(dir, readdirSync(dir)[0]!), 'utf8')) as {
      nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
      samples: number[];
      timeDeltas: number[];
    };
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const self = new Map<string, number>();
    let total = 0;
    profile.samples.forEach((id, i) => {
      const dt = profile.timeDeltas[i] ?? 0;
      total += dt;
      const cf = byId.get(id)!.callFrame;
      const key = cf.url ? `${cf.functionName || '(anonymous)'} ${cf.url.replace(/^.*\/(dist|node_modules)\//, '$1/')}:${cf.lineNumber + 1}` : cf.functionName;
      self.set(key, (self.get(key) ?? 0) + dt);
    });
    const idle = (self.get('(idle)') ?? 0) + (self.get('(program)') ?? 0) * 0;
    console.log(
      `cpu profile of (a): ${(total / 1000).toFixed(0)} ms sampled, idle ${(idle / 1000).toFixed(0)} ms (${((idle / total) * 100).toFixed(1)}%), busy ${((total - idle) / 1000).toFixed(0)} ms; top self time:`,
    );
    for (const [k, us] of [...self.entries()].sort((x, y) => y[1] - x[1]).slice(0, 15)) {
      console.log(`  ${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`);
    }
  }
} finally {
  if (!values.keep) rmSync(tmp, { recursive: true, force: true });
  else console.log(`kept ${tmp}`);
}
