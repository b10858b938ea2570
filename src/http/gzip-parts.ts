import { promisify } from 'node:util';
import zlib from 'node:zlib';

/** A body in gzip as buffers to send one after the other, and their length. */
export interface GzipBody {
  parts: Buffer[];
  length: number;
}

/**
 * A buffer compressed on its own: raw DEFLATE blocks, none of them final, ending on a byte (a
 * sync flush), so it can sit between others in one stream; with the CRC-32 of what it holds.
 */
interface Deflated {
  bytes: Buffer;
  crc: number;
  /** x^(8 * length) modulo the CRC polynomial: what combines a CRC before it with `crc`. */
  shift: number;
}

const deflateRaw = promisify(zlib.deflateRaw) as (
  buffer: Buffer,
  options: zlib.ZlibOptions,
) => Promise<Buffer>;

/** No name, no time, "unknown" system: the same bytes give the same body. */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** The final block: an empty one of fixed codes. */
const LAST_BLOCK = Buffer.from([0x03, 0x00]);
/**
 * Parts compressed at once in the background. Each one done waits for a turn of the server's
 * thread to start the next, so too few take seconds for a tree of a thousand parts while the
 * server is busy; the rest wait in libuv's queue (four threads, shared with file reads), one
 * part (~0.4 ms for 59 KB) each.
 */
const IN_FLIGHT = 8;
/** A stored block holds at most this many bytes. */
const STORED_MAX = 0xffff;

/**
 * Gzip bodies of bodies sent as parts (encoded JSON that reuses, from one revision to the next,
 * the buffers of what did not change), each large part compressed once and its DEFLATE blocks
 * kept while the part lives, so a body is put together from them rather than compressed again.
 *
 * A gzip stream is one DEFLATE stream. Blocks ending on a sync flush can follow one another:
 * a part's blocks only refer back to its own bytes. Small parts between large ones (commas, a
 * page's own members around its pages) are copied in stored blocks, uncompressed, which costs
 * five bytes a run and no compression. The CRC-32 of the whole is combined from the parts'.
 *
 * A body whose parts are not all compressed yet is made at once when what is missing is small
 * (a merge changes a few parts of a tree); otherwise `of` answers undefined (the caller sends
 * the body as it is) and the missing parts are compressed in zlib's threads for the next read.
 */
export class GzipParts {
  private readonly deflated = new WeakMap<Buffer, Deflated | Promise<Deflated>>();
  /**
   * Bodies made, by the array of parts they were made of (a kept tree's is the same array), or by
   * their one part (a kept page's buffer, sent in a new array each time): as parts when first
   * made, in one buffer from their second read on.
   */
  private readonly bodies = new WeakMap<object, { body: GzipBody; reads: number }>();
  private readonly ownBlocksFrom: number;
  private readonly waitUpTo: number;
  private readonly level: number;
  /** Parts waiting to be compressed in the background, each once. */
  private readonly queue: Buffer[] = [];
  private readonly queued = new WeakSet<Buffer>();
  private compressing = 0;

  constructor(
    options: {
      /** Parts of at least this many bytes are compressed and kept; smaller ones are stored. */
      ownBlocksFrom?: number;
      /** At most this many bytes of parts not yet compressed are compressed while the reader waits. */
      waitUpTo?: number;
      level?: number;
    } = {},
  ) {
    this.ownBlocksFrom = options.ownBlocksFrom ?? 16 * 1024;
    this.waitUpTo = options.waitUpTo ?? 2 ** 20;
    this.level = options.level ?? zlib.constants.Z_DEFAULT_COMPRESSION;
  }

  /** The parts' gzip body, or undefined while too much of it is still to compress. */
  async of(parts: readonly Buffer[]): Promise<GzipBody | undefined> {
    const key = parts.length === 1 ? parts[0]! : parts;
    const made = this.bodies.get(key);
    if (made) {
      // Read again: one buffer is one write, where a tree's body is two thousand (10.3 -> 6.8 ms
      // median for the 100,000-page tree, bench/scale). Not at the first read: a new buffer of
      // 4.5 MB for each revision brought V8's full collections (20-80 ms in that heap) every
      // fifteen merges when each revision was read once.
      if (++made.reads === 2 && made.body.parts.length > 1)
        made.body = { parts: [Buffer.concat(made.body.parts, made.body.length)], length: made.body.length };
      return made.body;
    }
    const missing: Buffer[] = [];
    let missingBytes = 0;
    for (const part of parts)
      if (part.length >= this.ownBlocksFrom && !this.deflated.has(part)) {
        missing.push(part);
        missingBytes += part.length;
      }
    if (missingBytes > this.waitUpTo) {
      this.inBackground(missing);
      return undefined;
    }
    await Promise.all(missing.map((part) => this.deflate(part)));
    const blocks: (Deflated | Promise<Deflated>)[] = [];
    let pending = false;
    for (const part of parts)
      if (part.length >= this.ownBlocksFrom) {
        const block = this.deflated.get(part)!;
        pending ||= block instanceof Promise;
        blocks.push(block);
      }
    // Awaited apart from the loop: each of them was started above or by another reader. Only
    // when some are: a thousand kept blocks made a thousand promises for nothing.
    const done = pending ? await Promise.all(blocks) : (blocks as Deflated[]);
    const body = this.assemble(parts, done);
    this.bodies.set(key, { body, reads: 1 });
    return body;
  }

  /**
   * The body: the header, each large part's kept blocks, the small parts between them copied in
   * stored blocks, the final block and the trailer. After a merge this is all a tree's read
   * does here, so it costs a pass over the parts and one new buffer: the small parts and their
   * heads go in one buffer, sized first (a buffer, a CRC and a combine for each of a thousand
   * runs took 6-11 ms for the 100,000-page tree).
   */
  private assemble(parts: readonly Buffer[], done: Deflated[]): GzipBody {
    const own = this.ownBlocksFrom;
    let storedBytes = 0;
    let run = 0;
    for (const part of parts) {
      if (part.length < own) run += part.length;
      else {
        storedBytes += storedLength(run);
        run = 0;
      }
    }
    storedBytes += storedLength(run);
    const stored = Buffer.allocUnsafe(storedBytes);
    const out: Buffer[] = [HEADER];
    let crc = 0;
    let total = 0;
    let at = 0;
    let next = 0;
    let from = 0;
    // Copies parts[from, to) (small ones) into `stored` behind the heads of their blocks.
    const storeRun = (to: number, bytes: number) => {
      if (bytes === 0) return;
      const start = at;
      let room = 0;
      for (let i = from; i < to; i++) {
        const part = parts[i]!;
        crc = zlib.crc32(part, crc);
        for (let p = 0; p < part.length; ) {
          if (room === 0) {
            room = Math.min(STORED_MAX, bytes);
            stored[at] = 0;
            stored.writeUInt16LE(room, at + 1);
            stored.writeUInt16LE(~room & 0xffff, at + 3);
            at += 5;
          }
          const take = Math.min(room, part.length - p);
          stored.set(take === part.length ? part : part.subarray(p, p + take), at);
          at += take;
          p += take;
          room -= take;
          bytes -= take;
        }
      }
      out.push(stored.subarray(start, at));
    };
    run = 0;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (part.length < own) {
        run += part.length;
        continue;
      }
      storeRun(i, run);
      total += run;
      run = 0;
      from = i + 1;
      const block = done[next++]!;
      crc = (multModP(block.shift, crc >>> 0) ^ block.crc) >>> 0;
      total += part.length;
      out.push(block.bytes);
    }
    storeRun(parts.length, run);
    total += run;
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc >>> 0, 0);
    trailer.writeUInt32LE(total % 2 ** 32, 4);
    out.push(LAST_BLOCK, trailer);
    let length = 0;
    for (const buffer of out) length += buffer.length;
    return { parts: out, length };
  }

  private deflate(part: Buffer): Promise<Deflated> {
    const known = this.deflated.get(part);
    if (known) return Promise.resolve(known);
    const made = deflateRaw(part, { level: this.level, finishFlush: zlib.constants.Z_SYNC_FLUSH }).then(
      (bytes) => {
        const block = { bytes, crc: zlib.crc32(part), shift: x2nModP(part.length, 3) };
        this.deflated.set(part, block);
        return block;
      },
      (error: unknown) => {
        // Not kept: the next read tries again.
        this.deflated.delete(part);
        throw error;
      },
    );
    this.deflated.set(part, made);
    return made;
  }

  /** Compresses the parts after those already waiting, IN_FLIGHT at a time. */
  private inBackground(parts: Buffer[]): void {
    for (const part of parts)
      if (!this.queued.has(part)) {
        this.queued.add(part);
        this.queue.push(part);
      }
    while (this.compressing < IN_FLIGHT && this.queue.length > 0) {
      this.compressing++;
      void this.drain();
    }
  }

  private async drain(): Promise<void> {
    try {
      for (let part = this.queue.shift(); part; part = this.queue.shift()) {
        this.queued.delete(part);
        await this.deflate(part).catch(() => undefined);
      }
    } finally {
      this.compressing--;
    }
  }
}

const CRC_POLY = 0xedb88320;

/** a * b modulo the CRC-32 polynomial, in its reflected bit order (zlib's multmodp). */
function multModP(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ CRC_POLY : b >>> 1;
  }
  return p >>> 0;
}

/** x^(2^k) modulo the polynomial, for k < 32. */
const X2N: number[] = (() => {
  const table = [0x40000000];
  for (let k = 1; k < 32; k++) table.push(multModP(table[k - 1]!, table[k - 1]!));
  return table;
})();

/** x^(n * 2^k) modulo the polynomial. */
function x2nModP(n: number, k: number): number {
  let p = 0x80000000;
  while (n > 0) {
    if (n % 2 === 1) p = multModP(X2N[k & 31]!, p);
    n = Math.floor(n / 2);
    k++;
  }
  return p;
}

/** Bytes of `length` bytes in stored blocks: each block's five bytes of head and its bytes. */
function storedLength(length: number): number {
  return length + 5 * Math.ceil(length / STORED_MAX);
}

/** The CRC-32 of two byte strings one after the other, from theirs and the second's length. */
export function crc32Combine(first: number, second: number, secondLength: number): number {
  return (multModP(x2nModP(secondLength, 3), first >>> 0) ^ second) >>> 0;
}
