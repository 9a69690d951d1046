// Summarise a V8 CPU profile (node --cpu-prof) as busy vs idle: "(idle)" samples are the event loop
// waiting (on a child, a socket, a timer); everything else is work, bucketed by where it ran.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileSummary {
  wallMs: number;
  idleMs: number;
  busyMs: number;
  gcMs: number;
  /** Busy time by bucket (a package name, node's internals, a folder of this package), largest first. */
  buckets: Array<[string, number]>;
}

function bucket(node: ProfileNode, root: string): string {
  const url = node.callFrame.url;
  if (url === '') return node.callFrame.functionName; // (program), (garbage collector), native
  if (url.startsWith('node:')) return 'node internals (module loading, streams, …)';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return `dependency ${nm[1]}`;
  return url.replace(`file://${root}/`, '').replace(/\/[^/]*$/, '/');
}

export function summariseProfile(file: string, root: string): ProfileSummary {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const perNode = new Map<number, number>();
  p.samples.forEach((id, i) => perNode.set(id, (perNode.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  let idle = 0;
  let gc = 0;
  const buckets = new Map<string, number>();
  for (const [id, us] of perNode) {
    const node = byId.get(id)!;
    const name = node.callFrame.functionName;
    if (name === '(idle)') {
      idle += us;
      continue;
    }
    if (name === '(garbage collector)') gc += us;
    const b = bucket(node, root);
    buckets.set(b, (buckets.get(b) ?? 0) + us);
  }
  const wall = (p.endTime - p.startTime) / 1000;
  return {
    wallMs: wall,
    idleMs: idle / 1000,
    busyMs: wall - idle / 1000,
    gcMs: gc / 1000,
    buckets: [...buckets].map(([k, us]) => [k, us / 1000] as [string, number]).sort((a, b) => b[1] - a[1]),
  };
}

/** The one profile node --cpu-prof wrote into `dir`. */
export function onlyProfile(dir: string): string {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  if (files.length !== 1) throw new Error(`expected one .cpuprofile in ${dir}, found ${files.length}`);
  return join(dir, files[0]!);
}

export function renderSummary(label: string, s: ProfileSummary, top = 6): string {
  const pct = (ms: number) => `${((100 * ms) / s.wallMs).toFixed(0)}%`;
  const lines = [
    `  ${label}: wall ${s.wallMs.toFixed(0)} ms — busy ${s.busyMs.toFixed(0)} ms (${pct(s.busyMs)}), idle ${s.idleMs.toFixed(0)} ms (${pct(s.idleMs)}), of which GC ${s.gcMs.toFixed(0)} ms`,
  ];
  for (const [k, ms] of s.buckets.slice(0, top)) lines.push(`      ${ms.toFixed(0).padStart(6)} ms  ${k}`);
  return lines.join('\n');
}
