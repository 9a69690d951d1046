/**
 * What one scenario established: the findings (from src/protocol, src/attest, src/host/f5-bytes and the
 * suite's own probe checks) and, per anchor/rule id, how many things were actually examined ("witnesses").
 *
 * A verdict for a set of ids is:
 *   failed          some finding for one of the ids is an error (a MUST violated)
 *   not-applicable  nothing was examined for some id (e.g. no frame carried a relation) — never a pass
 *   passed          everything examined; warnings (SHOULD not met) are reported beside the pass
 */
import type { Finding } from '../../protocol/findings.js';

export type Verdict =
  | { status: 'failed'; message: string; errors: Finding[]; warnings: Finding[] }
  | { status: 'not-applicable'; reason: string; warnings: Finding[] }
  | { status: 'passed'; warnings: Finding[]; witnessed: Record<string, number> };

const MAX_LISTED = 12;

export class ScenarioLedger {
  private readonly seen = new Set<string>();
  readonly findings: Finding[] = [];
  private readonly counts = new Map<string, number>();
  private readonly reasons = new Map<string, string>();

  add(findings: readonly Finding[]): void {
    for (const f of findings) {
      const key = `${f.id}\u0000${f.severity}\u0000${f.pointer}\u0000${f.message}`;
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      this.findings.push(f);
    }
  }

  /** Record that `count` items relevant to `id` were examined. */
  witness(id: string, count = 1): void {
    if (count <= 0) return;
    this.counts.set(id, (this.counts.get(id) ?? 0) + count);
  }

  witnessed(id: string): number {
    return this.counts.get(id) ?? 0;
  }

  /** Why `id` may have nothing to examine (the first reason given is kept). */
  unwitnessedBecause(id: string, reason: string): void {
    if (!this.reasons.has(id)) this.reasons.set(id, reason);
  }

  findingsFor(ids: readonly string[]): Finding[] {
    return this.findings.filter((f) => ids.includes(f.id));
  }

  verdict(ids: readonly string[]): Verdict {
    const relevant = this.findingsFor(ids);
    const errors = relevant.filter((f) => f.severity === 'error');
    const warnings = relevant.filter((f) => f.severity === 'warning');
    if (errors.length > 0) {
      const shown = errors.slice(0, MAX_LISTED).map((f) => f.message);
      if (errors.length > MAX_LISTED) shown.push(`(+${errors.length - MAX_LISTED} more ${ids.join('/')} violations)`);
      return { status: 'failed', message: shown.join('\n'), errors, warnings };
    }
    const missing = ids.filter((id) => this.witnessed(id) === 0 && !warnings.some((w) => w.id === id));
    if (missing.length > 0) {
      const reason = missing.map((id) => `${id}: ${this.reasons.get(id) ?? 'nothing the target returned could be examined for this rule'}`).join('; ');
      return { status: 'not-applicable', reason, warnings };
    }
    return { status: 'passed', warnings, witnessed: Object.fromEntries(ids.map((id) => [id, this.witnessed(id)])) };
  }
}
