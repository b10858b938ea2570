import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Where uploaded files live: content-addressed by SHA-256, so the same bytes are stored once
 * however many spaces and revisions use them. Two stores implement it: `FileBlobStore` below (a
 * local directory) and `S3BlobStore` (src/content/s3-blob-store.ts: an S3-compatible bucket
 * several Quire processes share); `createBlobStore` there picks one from the configuration.
 */
export interface BlobStore {
  /** Idempotent: the same bytes give the same hash and are stored once. */
  put(data: Buffer): Promise<{ hash: string; size: number }>;
  get(hash: string): Promise<Buffer | undefined>;
  /** For serving downloads without holding the whole file in memory. */
  stream(hash: string): Promise<NodeJS.ReadableStream | undefined>;
  has(hash: string): Promise<boolean>;
  /** Nothing to delete is not an error. */
  delete(hash: string): Promise<void>;
}

const HASH = /^[0-9a-f]{64}$/;

export function blobHash(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * A hash becomes part of a file path or object key: anything but 64 lowercase hex could walk out
 * of the root. Every store checks it before touching its storage.
 */
export function assertHash(hash: string): void {
  if (typeof hash !== 'string' || !HASH.test(hash)) {
    throw new RangeError(
      `Invalid blob hash "${String(hash).slice(0, 80)}": expected 64 lowercase hex characters`,
    );
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/** Blobs as files under `root/ab/cd/<hash>`: two levels keep any one directory small. */
export class FileBlobStore implements BlobStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private pathOf(hash: string): string {
    assertHash(hash);
    return path.join(this.root, hash.slice(0, 2), hash.slice(2, 4), hash);
  }

  async put(data: Buffer): Promise<{ hash: string; size: number }> {
    const hash = blobHash(data);
    const file = this.pathOf(hash);
    if (await this.has(hash)) return { hash, size: data.length };
    await mkdir(path.dirname(file), { recursive: true });
    // Written beside its final name, flushed, then renamed: a reader sees the whole blob or
    // none, and a crash leaves at most a stray temporary file, never a truncated blob.
    const temp = `${file}.${randomUUID()}.tmp`;
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } catch (error) {
      await handle.close();
      await unlink(temp).catch(() => {});
      throw error;
    }
    await handle.close();
    try {
      await rename(temp, file);
    } catch (error) {
      await unlink(temp).catch(() => {});
      throw error;
    }
    return { hash, size: data.length };
  }

  async get(hash: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.pathOf(hash));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async stream(hash: string): Promise<NodeJS.ReadableStream | undefined> {
    // Opened here rather than by the stream, so a missing blob is known before a response starts.
    try {
      const handle = await open(this.pathOf(hash), 'r');
      return handle.createReadStream();
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async has(hash: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(hash))).isFile();
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async delete(hash: string): Promise<void> {
    try {
      await unlink(this.pathOf(hash));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }
}
