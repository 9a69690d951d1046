// Host misbehaviour variants of the "verify" group (see src/conformance/host-suite/variants/manifest.ts for the contract):
// verify & reuse (§6.3 D3/D4, §9 V1/V4, S9-verify-correlation), attestation verdicts (§6.5.4 F8/F9,
// S6.5.4-distinct-verdicts), the usage report (§7.3 UR1) and attribution (§14 A1–A3).
//
// Each variant is the honest bundled host with ONE thing changed, through a wrapper around the
// host-under-test surface. Two of them misbehave on the WIRE (what a provider receives), which the
// HostUnderTest surface cannot reach: the variant then connects every stdio provider through a small
// line relay (a child node process it starts in front of the provider) that rewrites the host's verify
// envelopes on their way out. The provider, which records what it received, sees exactly what a host
// with that bug would send.
import * as ed from '@noble/ed25519';
import { fromLowerHex, parseDigest, renderDigest, resultSetRoot } from '../../../attest/index.js';
import type { ContextUse, AttributionRecord } from '../../../host/attribution.js';
import type { HostUnderTest } from '../../../host/under-test.js';
import type { FanOutResult } from '../../../host/fan-out.js';
import type { HostMisbehaviour } from './manifest.js';
import type { VerifyOutcome } from '../../../host/verify-reuse.js';

/**
 * The relay (CommonJS, run with `node -e`): argv = [mode, command, ...args]. It spawns the provider,
 * passes every line both ways, and in between:
 *  - mode `bodies`: remembers each served frame's content/title from `frames` replies and adds them to
 *    the identities of every outgoing `verify` (breaks V1: a verify carries identities only);
 *  - mode `strip-verify-id`: removes the `id` of every outgoing `verify` and puts it back on the
 *    `verified` reply, so the host still matches it (breaks S9-verify-correlation, seen by the provider);
 *  - mode `blank-verify-id`: the same with an empty-string `id` (present, but names no request);
 *  - mode `local-id:<id>`: every outgoing verify names its frames' provider by the host's local id <id>, and
 *    the verdicts come back under the names the host asked with (a host keyed by local ids, §6.5.2).
 */
const RELAY = String.raw`
const { spawn } = require('node:child_process');
const [mode, command, ...args] = process.argv.slice(1);
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
const localId = mode.startsWith('local-id:') ? mode.slice('local-id:'.length) : undefined;
const names = new Map();
const bodies = new Map();
const pendingIds = [];
function lines(stream, onLine) {
  let buf = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    buf += chunk;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) { const line = buf.slice(0, i); buf = buf.slice(i + 1); onLine(line); }
  });
  return () => buf;
}
function parse(line) { try { return JSON.parse(line); } catch { return undefined; } }
lines(child.stdout, (line) => {
  const msg = parse(line);
  if (localId !== undefined && msg && msg.type === 'verified' && msg.response && Array.isArray(msg.response.verdicts)) {
    for (const v of msg.response.verdicts) if (v && v.frame && v.frame.provider_id === localId && names.has(v.frame.frame_id)) v.frame.provider_id = names.get(v.frame.frame_id);
    process.stdout.write(JSON.stringify(msg) + '\n');
    return;
  }
  if (msg && msg.type === 'frames' && msg.result && Array.isArray(msg.result.frames)) {
    for (const f of msg.result.frames) if (f && typeof f.id === 'string') bodies.set(f.id, { content: f.content, title: f.title });
  }
  if ((mode === 'strip-verify-id' && msg && msg.type === 'verified' && msg.id === undefined && pendingIds.length > 0) ||
      (mode === 'blank-verify-id' && msg && msg.type === 'verified' && msg.id === '' && pendingIds.length > 0)) {
    msg.id = pendingIds.shift();
    process.stdout.write(JSON.stringify(msg) + '\n');
    return;
  }
  process.stdout.write(line + '\n');
});
const rest = lines(process.stdin, (line) => {
  const msg = parse(line);
  if (localId !== undefined && msg && msg.type === 'verify' && msg.request && Array.isArray(msg.request.frames)) {
    for (const f of msg.request.frames) if (f && typeof f.provider_id === 'string') { names.set(f.frame_id, f.provider_id); f.provider_id = localId; }
    child.stdin.write(JSON.stringify(msg) + '\n');
    return;
  }
  if (msg && msg.type === 'verify') {
    if (mode === 'bodies' && msg.request && Array.isArray(msg.request.frames)) {
      for (const f of msg.request.frames) { const b = bodies.get(f.frame_id); if (b) { f.content = b.content; f.title = b.title; } }
      child.stdin.write(JSON.stringify(msg) + '\n');
      return;
    }
    if ((mode === 'strip-verify-id' || mode === 'blank-verify-id') && msg.id !== undefined) {
      pendingIds.push(msg.id);
      if (mode === 'blank-verify-id') msg.id = '';
      else delete msg.id;
      child.stdin.write(JSON.stringify(msg) + '\n');
      return;
    }
  }
  child.stdin.write(line + '\n');
});
process.stdin.on('end', () => { const tail = rest(); if (tail) child.stdin.write(tail); child.stdin.end(); });
child.stdin.on('error', () => {});
child.on('exit', (code, signal) => process.exit(code === null ? 1 : code));
`;

/**
 * The relay's command line for a provider: its `local-id:<id>` mode sends every verify with that local id as
 * the identities' provider_id (as a host keyed by its own provider ids does, SPEC.md §6.5.2) and gives the
 * verdicts back under the names the host asked with.
 */
export function relayCommand(mode: string, command: string, args: readonly string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: ['-e', RELAY, '--', mode, command, ...args] };
}

/** Connect every stdio provider through the relay in `mode` (the rest of the host is untouched). */
function relayed(mode: 'bodies' | 'strip-verify-id' | 'blank-verify-id') {
  return (honest: HostUnderTest): HostUnderTest => ({
    ...honest,
    connectStdio: (command, args, opts) => honest.connectStdio(process.execPath, ['-e', RELAY, '--', mode, command, ...args], opts),
  });
}

/** Rewrite the evidence of every received frame after an honest fan-out. */
function mapFanOut(honest: HostUnderTest, change: (result: FanOutResult) => FanOutResult): HostUnderTest {
  return { ...honest, queryAll: async (query) => change(await honest.queryAll(query)) };
}

function mapVerify(honest: HostUnderTest, change: (outcome: VerifyOutcome) => VerifyOutcome): HostUnderTest {
  return { ...honest, verify: async (routingId, held) => change(await honest.verify(routingId, held)) };
}

function mapUses(record: AttributionRecord, change: (use: ContextUse) => ContextUse): AttributionRecord {
  return { ...record, uses: record.uses.map((u) => change({ ...u })) };
}

/**
 * Re-check every result signature the strict verifier rejected with a permissive (ZIP-215, cofactored)
 * Ed25519 verifier and report the frames attested when it accepts — except under a key `blocked` names.
 */
function permissiveEd25519(blocked: (publicKeyHex: string) => boolean) {
  return (honest: HostUnderTest): HostUnderTest => ({
    ...honest,
    queryAll: async (query) => {
      const r = await honest.queryAll(query);
      for (const a of r.answers) {
        const ra = a.result.result_attestation;
        if (ra === undefined || ra === null || ra.algorithm !== 'ed25519') continue;
        const key = (a.provider.ack.attester_keys ?? []).find((k) => k.key_id === ra.key_id && k.algorithm === 'ed25519');
        const root = parseDigest(ra.signed_commitment);
        if (key === undefined || root === undefined || renderDigest(resultSetRoot(a.provider.name, a.result.frames)) !== ra.signed_commitment) continue;
        if (blocked(key.public_key)) continue;
        const signature = fromLowerHex(ra.signature, 64);
        const publicKey = fromLowerHex(key.public_key, 32);
        if (signature === undefined || publicKey === undefined) continue;
        let ok = false;
        try {
          ok = await ed.verifyAsync(signature, root, publicKey);
        } catch {
          ok = false;
        }
        if (ok) for (const f of a.frames) if (f.evidence?.verdict === 'bad-signature') f.evidence = { ...f.evidence, verdict: 'attested' };
      }
      return r;
    },
  });
}

export const VERIFY_VARIANTS: readonly HostMisbehaviour[] = [
  // ── verify & reuse ─────────────────────────────────────────────────────────────────────────────
  {
    mode: 'verify-sends-bodies',
    breaks: ['V1'],
    description: 'every verify request carries the frame bodies (content, title) beside the identities it names',
    wrap: relayed('bodies'),
  },
  {
    mode: 'verify-without-id',
    breaks: ['S9-verify-correlation'],
    description: 'sends verify without an id to a provider declaring capabilities.correlation (queries still carry theirs)',
    wrap: relayed('strip-verify-id'),
  },
  {
    mode: 'verify-blank-id',
    breaks: ['S9-verify-correlation'],
    description: 'sends verify with an empty-string id to a provider declaring capabilities.correlation: an id is present but correlates nothing (queries still carry theirs)',
    wrap: relayed('blank-verify-id'),
  },
  {
    mode: 'reuse-digestless',
    breaks: ['D3'],
    description: 'keeps a held frame with no content_digest for reuse (it is neither sent to verify nor re-queried)',
    wrap: (honest) =>
      mapVerify(honest, (o) => {
        const digestless = o.dropped.filter((d) => d.reason === 'no-digest');
        return {
          ...o,
          retained: [...o.retained, ...digestless.map((d) => d.frame)],
          dropped: o.dropped.filter((d) => d.reason !== 'no-digest'),
          requery: o.requery.filter((f) => !digestless.some((d) => d.frame === f)),
        };
      }),
  },
  {
    mode: 'reuse-on-stale',
    breaks: ['D4', 'V4'],
    description: 'keeps serving its stored copy of a frame the provider called stale or gone (reuse on the absence of "valid" being checked)',
    wrap: (honest) =>
      mapVerify(honest, (o) => {
        const kept = o.dropped.filter((d) => d.reason === 'stale' || d.reason === 'gone');
        return {
          ...o,
          retained: [...o.retained, ...kept.map((d) => d.frame)],
          dropped: o.dropped.filter((d) => !kept.includes(d)),
          requery: o.requery.filter((f) => !kept.some((d) => d.frame === f)),
        };
      }),
  },
  // ── attestation ────────────────────────────────────────────────────────────────────────────────
  {
    mode: 'trust-unknown-algorithm',
    breaks: ['F8', 'S6.5.4-distinct-verdicts'],
    description: 'treats a frame whose attestation it cannot check (unrecognised algorithm) as attested',
    wrap: (honest) =>
      mapFanOut(honest, (r) => {
        for (const a of r.answers) for (const f of a.frames) if (f.evidence?.verdict === 'uncheckable') f.evidence = { ...f.evidence, verdict: 'attested' };
        return r;
      }),
  },
  {
    mode: 'drop-unverifiable',
    breaks: ['F9'],
    description: 'drops every frame whose attestation it cannot verify (uncheckable, bad signature, unknown key …) from the answers',
    wrap: (honest) =>
      mapFanOut(honest, (r) => ({
        ...r,
        answers: r.answers.map((a) => ({ ...a, frames: a.frames.filter((f) => f.evidence === undefined || f.evidence.verdict === 'attested' || f.evidence.verdict === 'unattested') })),
      })),
  },
  {
    mode: 'collapse-verdicts',
    breaks: ['S6.5.4-distinct-verdicts', 'F8'],
    description: 'collapses the attestation verdicts into a boolean: attested, or else "unattested" (uncheckable and tampered look alike)',
    wrap: (honest) =>
      mapFanOut(honest, (r) => {
        for (const a of r.answers) for (const f of a.frames) if (f.evidence !== undefined && f.evidence.verdict !== 'attested') f.evidence = { ...f.evidence, verdict: 'unattested' };
        return r;
      }),
  },
  {
    mode: 'permissive-ed25519',
    breaks: ['S6.5.4-strict-ed25519'],
    description:
      're-checks a result signature the strict verifier rejected with a permissive (ZIP-215, cofactored) Ed25519 verifier and, when that accepts it, reports the frames attested — small-order keys included',
    wrap: permissiveEd25519(() => false),
  },
  {
    mode: 'weak-key-blocklist',
    breaks: ['S6.5.4-strict-ed25519'],
    description:
      'verifies permissively (ZIP-215) but refuses one known weak key, the identity encoding 01 00…00, instead of every small-order key: the all-zero key with an all-zero signature still attests',
    wrap: permissiveEd25519((hex) => hex.toLowerCase() === `01${'00'.repeat(31)}`),
  },
  // ── usage report ───────────────────────────────────────────────────────────────────────────────
  {
    mode: 'miscount-usage',
    breaks: ['UR1'],
    description: "reports budget_consumed as the bytes of each served frame's title and content over 4 (chrome billed) instead of the summed token_cost of the served frames it lists",
    wrap: (honest) => ({
      ...honest,
      usage: async (query, fanOut) => {
        const bytes = fanOut.answers.flatMap((a) => a.frames).reduce((sum, f) => sum + Buffer.byteLength(`${String(f.frame.title ?? '')}${String(f.frame.content ?? '')}`, 'utf8'), 0);
        return { ...(await honest.usage(query, fanOut)), budget_consumed: Math.ceil(bytes / 4) };
      },
    }),
  },
  // ── attribution ────────────────────────────────────────────────────────────────────────────────
  {
    mode: 'infer-cited',
    breaks: ['A2'],
    description: 'marks every rendered frame cited (an inference that it influenced the output, not an observation of the output)',
    wrap: (honest) => ({
      ...honest,
      attribute: async (composed, usage, out) => mapUses(await honest.attribute(composed, usage, out), (u) => (u.rendered ? { ...u, cited: true } : u)),
    }),
  },
  {
    mode: 'attribution-by-title',
    breaks: ['A1'],
    description: "keys attribution records by the frame's human-facing name (its citation label) instead of the FrameId triple: a separately minted handle",
    wrap: (honest) => ({
      ...honest,
      attribute: async (composed, usage, out) => {
        const titles = new Map<string, string>();
        for (const f of composed.frames) titles.set(`${f.frameId.provider_id}\u0000${f.frameId.frame_id}`, f.citation);
        return mapUses(await honest.attribute(composed, usage, out), (u) => {
          const title = titles.get(`${u.frame.provider_id}\u0000${u.frame.frame_id}`) ?? `title of ${u.frame.frame_id}`;
          return { ...u, frame: { provider_id: u.frame.provider_id, frame_id: title } };
        });
      },
    }),
  },
  {
    mode: 'cite-unrendered',
    breaks: ['A2', 'A3'],
    description: 'marks a frame cited whenever the model output names its frame id, even one it never rendered (cited ⇒ rendered broken)',
    wrap: (honest) => ({
      ...honest,
      attribute: async (composed, usage, out) => mapUses(await honest.attribute(composed, usage, out), (u) => (!u.rendered && out.includes(u.frame.frame_id) ? { ...u, cited: true } : u)),
    }),
  },
  {
    mode: 'unreconcilable-attribution',
    breaks: ['A3'],
    description: 'reports a cited frame as neither selected nor rendered (cited ⇒ rendered ⇒ selected broken)',
    wrap: (honest) => ({
      ...honest,
      attribute: async (composed, usage, out) => mapUses(await honest.attribute(composed, usage, out), (u) => (u.cited ? { ...u, rendered: false, selected: false } : u)),
    }),
  },
];
