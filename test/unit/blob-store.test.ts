import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HeadObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type BlobStore, FileBlobStore } from '../../src/content/blob-store.js';
import { createBlobStore, S3BlobStore } from '../../src/content/s3-blob-store.js';
import { freePort } from '../helpers/net.js';
import { type S3Server, startS3Server } from '../helpers/s3-server.js';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const layout = (hash: string) => `${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`;

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath ?? entry.path, entry.name)))
    .sort();
}

const INVALID_HASHES = [
  '../../../secret',
  `${'../'.repeat(10)}etc/passwd`,
  'A'.repeat(64),
  'a'.repeat(63),
  'a'.repeat(65),
  `${'a'.repeat(62)}/x`,
  `${'a'.repeat(63)}\0`,
  '',
];

/** A store under test, and what it holds, as `ab/cd/<hash>` paths relative to its root. */
interface Subject {
  store: BlobStore;
  stored(): Promise<string[]>;
  close?(): Promise<void>;
}

/** The BlobStore contract, the same for every store. */
function contract(name: string, open: () => Promise<Subject>) {
  describe(`${name}: the BlobStore contract`, () => {
    let subject: Subject;
    let store: BlobStore;
    beforeEach(async () => {
      subject = await open();
      store = subject.store;
    });
    afterEach(async () => {
      await subject.close?.();
    });

    it('stores bytes under their SHA-256 and reads them back', async () => {
      const data = Buffer.from('hello, quire\n');
      const { hash, size } = await store.put(data);
      expect(hash).toBe(sha256(data));
      expect(size).toBe(data.length);
      expect(await store.has(hash)).toBe(true);
      expect((await store.get(hash))?.equals(data)).toBe(true);
      expect(await subject.stored()).toEqual([layout(hash)]);
    });

    it('stores the same bytes once, however often and concurrently they are put', async () => {
      const data = Buffer.from('same');
      const results = await Promise.all(Array.from({ length: 8 }, () => store.put(Buffer.from(data))));
      expect(new Set(results.map((r) => r.hash)).size).toBe(1);
      expect(await store.put(data)).toEqual({ hash: sha256(data), size: 4 });
      expect(await subject.stored()).toEqual([layout(sha256(data))]);
    });

    it('keeps binary data and empty blobs intact', async () => {
      const binary = Buffer.from([0, 255, 1, 254, 10, 13, 0]);
      const empty = Buffer.alloc(0);
      const a = await store.put(binary);
      const b = await store.put(empty);
      expect((await store.get(a.hash))?.equals(binary)).toBe(true);
      expect(b).toEqual({ hash: sha256(empty), size: 0 });
      expect((await store.get(b.hash))?.length).toBe(0);
      expect(await store.has(b.hash)).toBe(true);
      expect((await collect((await store.stream(b.hash))!)).length).toBe(0);
    });

    it('streams a blob', async () => {
      const data = Buffer.alloc(300 * 1024, 'x');
      const { hash } = await store.put(data);
      const stream = await store.stream(hash);
      expect(stream).toBeDefined();
      expect((await collect(stream!)).equals(data)).toBe(true);
    });

    it('round-trips a blob of a few megabytes byte for byte', async () => {
      const data = randomBytes(6 * 1024 * 1024 + 7);
      const { hash, size } = await store.put(data);
      expect(size).toBe(data.length);
      expect(sha256((await store.get(hash))!)).toBe(hash);
      expect((await collect((await store.stream(hash))!)).equals(data)).toBe(true);
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
      expect(await store.stream(hash)).toBeUndefined();
      await expect(store.delete(hash)).resolves.toBeUndefined();
      expect(await subject.stored()).toEqual([]);
      const again = await store.put(Buffer.from('gone soon'));
      expect(await store.has(again.hash)).toBe(true);
    });

    it('refuses anything but 64 lowercase hex', async () => {
      for (const hash of INVALID_HASHES) {
        await expect(store.get(hash)).rejects.toThrow(RangeError);
        await expect(store.stream(hash)).rejects.toThrow(RangeError);
        await expect(store.has(hash)).rejects.toThrow(RangeError);
        await expect(store.delete(hash)).rejects.toThrow(RangeError);
      }
      expect(await subject.stored()).toEqual([]);
    });
  });
}

describe('createBlobStore', () => {
  it('stores files under dataDir/blobs without S3 settings, in the bucket with them', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'quire-data-'));
    try {
      const local = createBlobStore({ dataDir, s3: undefined });
      expect(local).toBeInstanceOf(FileBlobStore);
      const { hash } = await local.put(Buffer.from('local'));
      expect(await filesUnder(dataDir)).toEqual([path.join('blobs', layout(hash))]);
      expect(createBlobStore({ dataDir, s3: s3.config() })).toBeInstanceOf(S3BlobStore);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

// The file store.

contract('file blob store', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'quire-blobs-'));
  return {
    store: new FileBlobStore(root),
    stored: () => filesUnder(root),
    close: () => rm(root, { recursive: true, force: true }),
  };
});

describe('file blob store', () => {
  let dir: string;
  let store: FileBlobStore;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'quire-blobs-'));
    store = new FileBlobStore(dir);
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a hash that would walk out of its directory before touching the file system', async () => {
    const outside = path.join(dir, '..', `${path.basename(dir)}-secret`);
    await writeFile(outside, 'secret');
    try {
      for (const hash of [`../../../${path.basename(outside)}`, `../${path.basename(outside)}`]) {
        await expect(store.get(hash)).rejects.toThrow(RangeError);
        await expect(store.delete(hash)).rejects.toThrow(RangeError);
      }
    } finally {
      await rm(outside, { force: true });
    }
  });

  it('leaves no temporary files behind', async () => {
    await Promise.all(['a', 'b', 'c'].map((text) => store.put(Buffer.from(text))));
    const files = await filesUnder(dir);
    expect(files).toHaveLength(3);
    expect(files.some((file) => file.endsWith('.tmp'))).toBe(false);
  });
});

// The S3 store, against a real S3-compatible server on loopback. Each test has its own prefix.

let s3: S3Server;
let runs = 0;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.stop();
});

contract('S3 blob store', async () => {
  const prefix = `run-${++runs}/blobs`;
  return {
    store: new S3BlobStore(s3.config({ prefix })),
    stored: async () => (await s3.keys(`${prefix}/`)).map((key) => key.slice(prefix.length + 1)),
  };
});

/** How long an operation on a store that cannot answer took to fail, and how. */
async function failure(operation: () => Promise<unknown>): Promise<{ error: Error }> {
  const error = await operation().then(
    () => {
      throw new Error('expected the operation to fail');
    },
    (e: unknown) => e as Error,
  );
  return { error };
}

describe('S3 blob store', () => {
  it('keeps objects at <prefix>/ab/cd/<hash> as application/octet-stream', async () => {
    const store = new S3BlobStore(s3.config({ prefix: 'tenant/files' }));
    const data = Buffer.from('%PDF-1.7 not really');
    const { hash } = await store.put(data);
    expect(await s3.keys('tenant/')).toEqual([`tenant/files/${layout(hash)}`]);
    const head = await s3.client.send(
      new HeadObjectCommand({ Bucket: s3.bucket, Key: `tenant/files/${layout(hash)}` }),
    );
    expect(head.ContentType).toBe('application/octet-stream');
    expect(head.ContentLength).toBe(data.length);
  });

  it('keeps objects at ab/cd/<hash> without a prefix', async () => {
    await s3.createBucket('quire-no-prefix');
    const store = new S3BlobStore(s3.config({ bucket: 'quire-no-prefix' }));
    const { hash } = await store.put(Buffer.from('top level'));
    const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: 'quire-no-prefix' }));
    expect(listed.Contents?.map((object) => object.Key)).toEqual([layout(hash)]);
  });

  it('writes over an object of the wrong size rather than trusting it', async () => {
    const store = new S3BlobStore(s3.config({ prefix: 'damaged' }));
    const data = Buffer.from('the whole file');
    const key = `damaged/${layout(sha256(data))}`;
    await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: Buffer.from('the wh') }));
    await store.put(data);
    expect((await store.get(sha256(data)))?.equals(data)).toBe(true);
  });

  it('refuses invalid hashes before any request', async () => {
    // Nothing listens at this endpoint: a request would fail with a connection error instead.
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const store = new S3BlobStore(s3.config({ endpoint: nowhere }), { maxAttempts: 1 });
    for (const hash of INVALID_HASHES) {
      await expect(store.has(hash)).rejects.toThrow(/^Invalid blob hash/);
      await expect(store.get(hash)).rejects.toThrow(RangeError);
      await expect(store.stream(hash)).rejects.toThrow(RangeError);
      await expect(store.delete(hash)).rejects.toThrow(RangeError);
    }
  });

  it('reports a missing bucket as an error naming it, not as a missing blob', async () => {
    const store = new S3BlobStore(s3.config({ bucket: 'no-such-bucket' }));
    const hash = sha256(Buffer.from('x'));
    await expect(store.get(hash)).rejects.toThrow(
      `S3 blob store s3://no-such-bucket at ${s3.endpoint}: GET ${layout(hash)} failed`,
    );
    await expect(store.stream(hash)).rejects.toThrow(/NoSuchBucket|bucket does not exist/);
    await expect(store.put(Buffer.from('x'))).rejects.toThrow(/s3:\/\/no-such-bucket.*PUT.*failed/);
  });

  it('reports refused credentials with the status and what to check', async () => {
    const store = new S3BlobStore(s3.config({ accessKeyId: 'UNKNOWN', prefix: 'denied' }));
    const hash = sha256(Buffer.from('x'));
    const { error } = await failure(() => store.has(hash));
    expect(error.message).toContain(`S3 blob store s3://${s3.bucket}/denied at ${s3.endpoint}: HEAD denied/`);
    expect(error.message).toMatch(/HTTP 403.*check the credentials/);
    await expect(store.get(hash)).rejects.toThrow(/InvalidAccessKeyId|Access Key Id/);
  });
});

describe('S3 blob store whose server is gone or hung', () => {
  let doomed: S3Server;
  beforeAll(async () => {
    doomed = await startS3Server({ bucket: 'doomed' });
  });
  afterAll(async () => {
    await doomed.stop();
  });

  it('fails each operation of a hung server within its time-outs', async () => {
    const store = new S3BlobStore(doomed.config(), {
      connectTimeoutMs: 500,
      requestTimeoutMs: 500,
      idleTimeoutMs: 500,
      maxAttempts: 2,
    });
    const { hash } = await store.put(Buffer.from('before the hang'));
    doomed.pause();
    try {
      for (const operation of [
        () => store.has(hash),
        () => store.get(hash),
        () => store.stream(hash),
        () => store.put(Buffer.from('during the hang')),
        () => store.delete(hash),
      ]) {
        const { error } = await failure(operation);
        expect(error.message).toContain(`S3 blob store s3://doomed at ${doomed.endpoint}`);
        // The store's time-outs ended it: a hang would be the test's own time-out instead.
        expect(error.message).toMatch(/time/i);
      }
    } finally {
      doomed.resume();
    }
    // Answering again. (What was sent during the hang may still be carried out now, as on S3.)
    expect(typeof (await store.has(hash))).toBe('boolean');
  });

  it('fails with a clear error, not a hang, once the server has stopped', async () => {
    const store = new S3BlobStore(doomed.config(), { maxAttempts: 2 });
    const { hash } = await store.put(Buffer.from('before the stop'));
    await doomed.stop();
    for (const operation of [
      () => store.has(hash),
      () => store.get(hash),
      () => store.stream(hash),
      () => store.put(Buffer.from('after the stop')),
      () => store.delete(hash),
    ]) {
      const { error } = await failure(operation);
      expect(error.message).toMatch(
        new RegExp(
          `^S3 blob store s3://doomed at ${doomed.endpoint}: (HEAD|GET|DELETE) .* failed: .*ECONNREFUSED`,
        ),
      );
    }
  });
});
