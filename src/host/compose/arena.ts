/**
 * Scratch memory for one composition: typed arrays carved out of one reusable ArrayBuffer.
 *
 * At 100k frames composition allocated ~15 fresh multi-hundred-KB typed arrays per call, and the
 * first touch of fresh memory (page faults) showed up in every pass (bench/compose). An arena is
 * reused by the next call: views are handed out zero-filled (or filled as asked) exactly like a
 * fresh typed array, and nothing carved from it is ever returned to the caller of composition.
 * A call that needs more than the arena holds gets fresh arrays for the rest and the arena grows
 * for the next call. At most one arena is kept idle (MAX_IDLE_BYTES); a nested composition (a
 * custom strategy composing from inside `order`) simply gets an arena of its own.
 */

const ALIGN = 8;
const MAX_IDLE_BYTES = 256 * 1024 * 1024;

export class Arena {
  private buffer: ArrayBuffer;
  private offset = 0;
  private needed = 0;
  /** Reusable JS arrays (for references); cleared on reset so they keep nothing alive. */
  private readonly arrays: unknown[][] = [];
  private readonly used: number[] = [];
  /** Reusable byte buffer (the rendered prompt text); one per round. */
  private text: Buffer | undefined;
  private textInUse = false;

  constructor(bytes = 64 * 1024) {
    this.buffer = new ArrayBuffer(bytes);
  }

  private carve(bytes: number): number {
    const size = Math.ceil(bytes / ALIGN) * ALIGN;
    this.needed += size;
    if (this.offset + size > this.buffer.byteLength) return -1;
    const at = this.offset;
    this.offset += size;
    return at;
  }

  int32(n: number, fill = 0): Int32Array {
    const at = this.carve(n * 4);
    if (at === -1) return fill === 0 ? new Int32Array(n) : new Int32Array(n).fill(fill);
    return new Int32Array(this.buffer, at, n).fill(fill);
  }

  float64(n: number, fill = 0): Float64Array {
    const at = this.carve(n * 8);
    if (at === -1) return fill === 0 ? new Float64Array(n) : new Float64Array(n).fill(fill);
    return new Float64Array(this.buffer, at, n).fill(fill);
  }

  uint8(n: number, fill = 0): Uint8Array {
    const at = this.carve(n);
    if (at === -1) return fill === 0 ? new Uint8Array(n) : new Uint8Array(n).fill(fill);
    return new Uint8Array(this.buffer, at, n).fill(fill);
  }

  /**
   * An array with at least `n` slots, for references. Its length may exceed `n`: index it, never
   * read its length. Only slots below `n` may be written.
   */
  refs<T>(n: number): T[] {
    const k = this.used.length;
    let array = this.arrays[k];
    if (array === undefined || array.length < n) {
      array = new Array<unknown>(n);
      this.arrays[k] = array;
    }
    this.used.push(n);
    return array as T[];
  }

  /**
   * A byte buffer of at least `n` bytes whose contents are unspecified (the caller writes every
   * byte it reads). One per round from the arena; a second request in the same round is fresh.
   */
  bytes(n: number): Buffer {
    if (this.textInUse) return Buffer.allocUnsafeSlow(n);
    this.textInUse = true;
    if (this.text === undefined || this.text.length < n) this.text = Buffer.allocUnsafeSlow(n);
    return this.text;
  }

  /** Forget every view; grow to what this round needed. */
  reset(): void {
    this.textInUse = false;
    for (let k = 0; k < this.used.length; k++) this.arrays[k]!.fill(undefined, 0, this.used[k]);
    this.used.length = 0;
    if (this.needed > this.buffer.byteLength) this.buffer = new ArrayBuffer(this.needed);
    this.offset = 0;
    this.needed = 0;
  }

  /** Bytes held while idle (typed buffer + reference arrays). */
  get byteLength(): number {
    return this.buffer.byteLength + (this.text?.length ?? 0) + this.arrays.reduce((sum, a) => sum + 8 * a.length, 0);
  }
}

let idle: Arena | undefined;

/** An arena for one composition (the idle one when there is one). */
export function acquireArena(): Arena {
  const arena = idle ?? new Arena();
  idle = undefined;
  return arena;
}

/** Give an arena back once nothing carved from it is in use any more. */
export function releaseArena(arena: Arena): void {
  arena.reset();
  if (arena.byteLength <= MAX_IDLE_BYTES) idle = arena;
}
