/**
 * A fixed-capacity open-addressing index from strings to small integers (positions), used where a
 * JS Map<string, …> over 100k fresh strings measured ~20× slower than 10k (bench/compose): no
 * per-entry allocation, no rehashing, one Int32Array. Equal keys may be inserted several times
 * (all are found by `forEach`); the caller supplies `keyOf(position)` to compare keys exactly.
 */

/** 32-bit hash of a string: for a well-formed `sha256:<64 hex>` digest the first 8 hex digits, else FNV-1a. */
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

export class StringIndex {
  private readonly slots: Int32Array;
  private readonly mask: number;
  private size = 0;

  /** Room for `capacity` insertions (the table is at most half full). */
  constructor(
    capacity: number,
    private readonly keyOf: (position: number) => string,
  ) {
    let n = 16;
    while (n < capacity * 2) n *= 2;
    this.slots = new Int32Array(n).fill(-1);
    this.mask = n - 1;
  }

  /** The first inserted position whose key equals `key`, or -1. */
  find(key: string, hash: number): number {
    for (let i = hash & this.mask; ; i = (i + 1) & this.mask) {
      const p = this.slots[i]!;
      if (p === -1) return -1;
      if (this.keyOf(p) === key) return p;
    }
  }

  /** Every inserted position whose key equals `key`, in insertion order; undefined when none. */
  findAll(key: string, hash: number): number[] | undefined {
    let out: number[] | undefined;
    for (let i = hash & this.mask; ; i = (i + 1) & this.mask) {
      const p = this.slots[i]!;
      if (p === -1) return out;
      if (this.keyOf(p) === key) (out ??= []).push(p);
    }
  }

  has(key: string, hash: number = hashString(key)): boolean {
    return this.find(key, hash) !== -1;
  }

  insert(hash: number, position: number): void {
    if (this.size * 2 >= this.slots.length) throw new RangeError('StringIndex capacity exceeded');
    let i = hash & this.mask;
    while (this.slots[i] !== -1) i = (i + 1) & this.mask;
    this.slots[i] = position;
    this.size++;
  }
}
