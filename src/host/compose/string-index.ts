/**
 * An open-addressing index from strings to small integers (positions), used where a JS
 * Map<string, …> over 100k fresh strings measured ~20× slower than over 10k (bench/compose): no
 * per-entry allocation, one Int32Array (doubled when half full). Equal keys may be inserted several
 * times (all are found by `findAll`); the caller supplies `keyOf(position)` to compare keys exactly.
 *
 * Keys are provider-controlled (digests, labels), so the cheap hash could be attacked with crafted
 * collisions. A probe run longer than MAX_PROBE switches the index, for good, to a JS Map (V8 seeds
 * its string hash per process): the worst case is Map speed, never quadratic. Results never depend
 * on the hash: callers only ask "which positions carry this key".
 */

/** 32-bit hash of a string: for a well-formed `sha256:<64 hex>` digest its first 8 hex digits, else FNV-1a. */
export function hashString(s: string): number {
  if (s.length === 71 && s.charCodeAt(6) === 0x3a /* ':' */) {
    let h = 0;
    let ok = true;
    for (let i = 7; i < 15; i++) {
      const c = s.charCodeAt(i);
      const v = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
      if (v < 0) {
        ok = false;
        break;
      }
      h = (h << 4) | v;
    }
    if (ok) return h | 0;
  }
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h | 0;
}

/** Longest probe run tolerated before falling back to a Map. */
export const MAX_PROBE = 32;

export class StringIndex {
  private slots: Int32Array;
  private mask: number;
  private size = 0;
  /** Set once a probe run exceeded MAX_PROBE: key → positions, in insertion order. */
  private map: Map<string, number[]> | undefined;

  /** Sized for `capacity` insertions (the table is kept at most half full; it grows beyond). */
  constructor(
    capacity: number,
    private readonly keyOf: (position: number) => string,
  ) {
    let n = 16;
    while (n < capacity * 2) n *= 2;
    this.slots = new Int32Array(n).fill(-1);
    this.mask = n - 1;
  }

  /** True once the index fell back to a Map (tests, diagnostics). */
  get degraded(): boolean {
    return this.map !== undefined;
  }

  /** A position whose key equals `key`, or -1. */
  find(key: string, hash: number): number {
    if (this.map !== undefined) return this.map.get(key)?.[0] ?? -1;
    let probes = 0;
    for (let i = hash & this.mask; ; i = (i + 1) & this.mask) {
      const p = this.slots[i]!;
      if (p === -1) return -1;
      if (this.keyOf(p) === key) return p;
      if (++probes > MAX_PROBE) {
        this.degrade();
        return this.find(key, hash);
      }
    }
  }

  /** Every inserted position whose key equals `key`; undefined when none. */
  findAll(key: string, hash: number): number[] | undefined {
    if (this.map !== undefined) return this.map.get(key)?.slice();
    let out: number[] | undefined;
    let probes = 0;
    for (let i = hash & this.mask; ; i = (i + 1) & this.mask) {
      const p = this.slots[i]!;
      if (p === -1) return out;
      if (this.keyOf(p) === key) (out ??= []).push(p);
      if (++probes > MAX_PROBE) {
        this.degrade();
        return this.findAll(key, hash);
      }
    }
  }

  has(key: string, hash: number = hashString(key)): boolean {
    return this.find(key, hash) !== -1;
  }

  insert(hash: number, position: number): void {
    if (this.map !== undefined) {
      const key = this.keyOf(position);
      const list = this.map.get(key);
      if (list === undefined) this.map.set(key, [position]);
      else list.push(position);
      return;
    }
    if ((this.size + 1) * 2 > this.slots.length) this.grow();
    let probes = 0;
    let i = hash & this.mask;
    while (this.slots[i] !== -1) {
      i = (i + 1) & this.mask;
      if (++probes > MAX_PROBE) {
        this.degrade();
        this.insert(hash, position);
        return;
      }
    }
    this.slots[i] = position;
    this.size++;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2).fill(-1);
    this.mask = this.slots.length - 1;
    for (let s = 0; s < old.length; s++) {
      const p = old[s]!;
      if (p === -1) continue;
      let i = hashString(this.keyOf(p)) & this.mask;
      while (this.slots[i] !== -1) i = (i + 1) & this.mask;
      this.slots[i] = p;
    }
  }

  private degrade(): void {
    const map = new Map<string, number[]>();
    for (let s = 0; s < this.slots.length; s++) {
      const p = this.slots[s]!;
      if (p === -1) continue;
      const key = this.keyOf(p);
      const list = map.get(key);
      if (list === undefined) map.set(key, [p]);
      else list.push(p);
    }
    this.map = map;
  }
}
