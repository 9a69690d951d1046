// A bounded tail of a byte stream (used for a child's stderr): keeps the last `capacity` bytes.

export class ByteRing {
  readonly capacity: number;
  private chunks: Buffer[] = [];
  private length = 0;
  private dropped = 0;

  constructor(capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 0) throw new RangeError('capacity must be a non-negative integer');
    this.capacity = capacity;
  }

  push(chunk: Uint8Array): void {
    if (this.capacity === 0 || chunk.length === 0) {
      this.dropped += chunk.length;
      return;
    }
    let buf = Buffer.from(chunk); // copy: never pin the caller's buffer
    if (buf.length >= this.capacity) {
      this.dropped += this.length + buf.length - this.capacity;
      buf = buf.subarray(buf.length - this.capacity);
      this.chunks = [buf];
      this.length = buf.length;
      return;
    }
    this.chunks.push(buf);
    this.length += buf.length;
    while (this.length > this.capacity) {
      const first = this.chunks[0]!;
      const excess = this.length - this.capacity;
      if (first.length <= excess) {
        this.chunks.shift();
        this.length -= first.length;
        this.dropped += first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.length -= excess;
        this.dropped += excess;
      }
    }
  }

  /** Bytes held (≤ capacity). */
  get size(): number {
    return this.length;
  }

  /** Bytes that fell off the front. */
  get droppedBytes(): number {
    return this.dropped;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.length);
  }

  /** Lossy UTF-8 text of the held bytes. */
  text(): string {
    return this.bytes().toString('utf8');
  }
}
