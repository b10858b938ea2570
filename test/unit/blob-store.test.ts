import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileBlobStore } from '../../src/content/blob-store.js';

let root: string;
let store: FileBlobStore;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'quire-blobs-'));
  store = new FileBlobStore(root);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath ?? entry.path, entry.name)));
}

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

describe('file blob store', () => {
  it('stores bytes under their SHA-256 and reads them back', async () => {
    const data = Buffer.from('hello, quire\n');
    const { hash, size } = await store.put(data);
    expect(hash).toBe(sha256(data));
    expect(size).toBe(data.length);
    expect(await store.has(hash)).toBe(true);
    expect((await store.get(hash))?.equals(data)).toBe(true);
    expect(await filesUnder(root)).toEqual([path.join(hash.slice(0, 2), hash.slice(2, 4), hash)]);
  });

  it('stores the same bytes once, however often and concurrently they are put', async () => {
    const data = Buffer.from('same');
    const results = await Promise.all(Array.from({ length: 8 }, () => store.put(Buffer.from(data))));
    expect(new Set(results.map((r) => r.hash)).size).toBe(1);
    await store.put(data);
    expect(await filesUnder(root)).toHaveLength(1);
  });

  it('keeps binary data and empty blobs intact', async () => {
    const binary = Buffer.from([0, 255, 1, 254, 10, 13, 0]);
    const empty = Buffer.alloc(0);
    const a = await store.put(binary);
    const b = await store.put(empty);
    expect((await store.get(a.hash))?.equals(binary)).toBe(true);
    expect(b).toEqual({ hash: sha256(empty), size: 0 });
    expect((await store.get(b.hash))?.length).toBe(0);
  });

  it('streams a blob', async () => {
    const data = Buffer.alloc(300 * 1024, 'x');
    const { hash } = await store.put(data);
    const stream = await store.stream(hash);
    expect(stream).toBeDefined();
    expect((await collect(stream!)).equals(data)).toBe(true);
  });

  it('answers nothing for a blob it does not hold', async () => {
    const missing = sha256(Buffer.from('never stored'));
    expect(await store.get(missing)).toBeUndefined();
    expect(await store.stream(missing)).toBeUndefined();
    expect(await store.has(missing)).toBe(false);
  });

  it('deletes, and deleting what is not there is not an error', async () => {
    const { hash } = await store.put(Buffer.from('gone soon'));
    await store.delete(hash);
    expect(await store.has(hash)).toBe(false);
    expect(await store.get(hash)).toBeUndefined();
    await expect(store.delete(hash)).resolves.toBeUndefined();
    const again = await store.put(Buffer.from('gone soon'));
    expect(await store.has(again.hash)).toBe(true);
  });

  it('refuses anything but 64 lowercase hex before touching the file system', async () => {
    const outside = path.join(root, '..', `${path.basename(root)}-secret`);
    await writeFile(outside, 'secret');
    try {
      const bad = [
        `../../../${path.basename(outside)}`,
        `${'../'.repeat(10)}etc/passwd`,
        'A'.repeat(64),
        'a'.repeat(63),
        'a'.repeat(65),
        `${'a'.repeat(62)}/x`,
        `${'a'.repeat(63)}\0`,
        '',
      ];
      for (const hash of bad) {
        await expect(store.get(hash)).rejects.toThrow(RangeError);
        await expect(store.stream(hash)).rejects.toThrow(RangeError);
        await expect(store.has(hash)).rejects.toThrow(RangeError);
        await expect(store.delete(hash)).rejects.toThrow(RangeError);
      }
    } finally {
      await rm(outside, { force: true });
    }
  });

  it('leaves no temporary files behind', async () => {
    await Promise.all(['a', 'b', 'c'].map((text) => store.put(Buffer.from(text))));
    const files = await filesUnder(root);
    expect(files).toHaveLength(3);
    expect(files.some((file) => file.endsWith('.tmp'))).toBe(false);
  });
});
