import path from 'node:path';
import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Config, S3Config } from '../config.js';
import { UNAVAILABLE_RETRY_AFTER_S, Unavailable } from '../errors.js';
import { assertHash, type BlobStore, blobHash, FileBlobStore } from './blob-store.js';

/** The blob store the configuration asks for: the S3 bucket when QUIRE_S3_BUCKET is set, else `dataDir/blobs`. */
export function createBlobStore(config: Pick<Config, 'dataDir' | 's3'>): BlobStore {
  return config.s3 ? new S3BlobStore(config.s3) : new FileBlobStore(path.join(config.dataDir, 'blobs'));
}

/** `s3://bucket/prefix at endpoint`: where the files are, for the banner and error messages (no keys). */
export function describeS3(s3: S3Config): string {
  const place = `s3://${s3.bucket}${s3.prefix ? `/${s3.prefix}` : ''}`;
  return s3.endpoint ? `${place} at ${s3.endpoint}` : `${place} (AWS S3, ${s3.region})`;
}

export interface S3BlobStoreOptions {
  /** How long connecting may take. */
  connectTimeoutMs?: number;
  /** How long a request may take until its answer starts (an upload's bytes included). */
  requestTimeoutMs?: number;
  /** How long the connection may stay silent, also while an answer's body is read. */
  idleTimeoutMs?: number;
  /** Tries of one operation (the SDK retries connection errors, time-outs, 5xx and throttling). */
  maxAttempts?: number;
}

const DEFAULTS: Required<S3BlobStoreOptions> = {
  connectTimeoutMs: 5_000,
  requestTimeoutMs: 120_000,
  idleTimeoutMs: 30_000,
  maxAttempts: 3,
};

type Sdk = typeof import('@aws-sdk/client-s3');

interface SdkError {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

/**
 * Blobs as objects `<prefix>/ab/cd/<hash>` in an S3-compatible bucket, so several Quire processes
 * (behind one load balancer, on one PostgreSQL) serve the same files.
 *
 * Settings that matter against servers other than AWS:
 * - checksums only when an operation requires them: the SDK's default adds CRC32 headers, or for
 *   streamed bodies an `aws-chunked` framing with a trailer, which some S3-compatible servers
 *   reject and others store as part of the object; the payload's SHA-256 (which is the blob's
 *   hash) is still signed in `x-amz-content-sha256`, which AWS verifies;
 * - path-style addressing by default when an endpoint is set (QUIRE_S3_FORCE_PATH_STYLE);
 * - time-outs on connecting, on each request and on a silent connection, so a hung store fails
 *   the request that needed it rather than holding it forever.
 *
 * The SDK is loaded on first use: processes storing files on disk never load it.
 */
export class S3BlobStore implements BlobStore {
  private readonly options: Required<S3BlobStoreOptions>;
  private readonly where: string;
  private client: Promise<{ sdk: Sdk; client: S3Client }> | undefined;

  constructor(
    private readonly s3: S3Config,
    options: S3BlobStoreOptions = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.where = describeS3(s3);
  }

  private connect(): Promise<{ sdk: Sdk; client: S3Client }> {
    this.client ??= import('@aws-sdk/client-s3').then((sdk) => {
      const { s3, options } = this;
      const client = new sdk.S3Client({
        region: s3.region,
        ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
        forcePathStyle: s3.forcePathStyle,
        ...(s3.accessKeyId && s3.secretAccessKey
          ? { credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } }
          : {}),
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        maxAttempts: options.maxAttempts,
        requestHandler: {
          connectionTimeout: options.connectTimeoutMs,
          requestTimeout: options.requestTimeoutMs,
          // Without it the SDK only logs a warning when requestTimeout passes.
          throwOnRequestTimeout: true,
          socketTimeout: options.idleTimeoutMs,
        },
      });
      return { sdk, client };
    });
    return this.client;
  }

  private keyOf(hash: string): string {
    assertHash(hash);
    const key = `${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`;
    return this.s3.prefix ? `${this.s3.prefix}/${key}` : key;
  }

  /** The object's size, or undefined when there is none. */
  private async head(key: string): Promise<number | undefined> {
    const { sdk, client } = await this.connect();
    try {
      const answer = await client.send(new sdk.HeadObjectCommand({ Bucket: this.s3.bucket, Key: key }));
      return answer.ContentLength ?? 0;
    } catch (error) {
      // A HEAD answer has no body: a 404 is all there is to tell a missing object by.
      if (status(error) === 404) return undefined;
      throw this.failure('HEAD', key, error);
    }
  }

  async put(data: Buffer): Promise<{ hash: string; size: number }> {
    const hash = blobHash(data);
    const key = this.keyOf(hash);
    // Same bytes, same key: an object of the right size is this blob already. Another size is a
    // damaged object (or not an S3 server at all), written over rather than trusted.
    if ((await this.head(key)) === data.length) return { hash, size: data.length };
    const { sdk, client } = await this.connect();
    try {
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: this.s3.bucket,
          Key: key,
          Body: data,
          ContentLength: data.length,
          ContentType: 'application/octet-stream',
        }),
      );
    } catch (error) {
      throw this.failure('PUT', key, error);
    }
    return { hash, size: data.length };
  }

  async get(hash: string): Promise<Buffer | undefined> {
    const key = this.keyOf(hash);
    const body = await this.open(key);
    if (!body) return undefined;
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      return Buffer.concat(chunks);
    } catch (error) {
      throw this.failure('GET', key, error);
    }
  }

  async stream(hash: string): Promise<NodeJS.ReadableStream | undefined> {
    // The GET's answer has started when this returns: a missing object is known before a
    // download's response starts, and the body streams from the open connection.
    return this.open(this.keyOf(hash));
  }

  async has(hash: string): Promise<boolean> {
    return (await this.head(this.keyOf(hash))) !== undefined;
  }

  async delete(hash: string): Promise<void> {
    const key = this.keyOf(hash);
    const { sdk, client } = await this.connect();
    try {
      await client.send(new sdk.DeleteObjectCommand({ Bucket: this.s3.bucket, Key: key }));
    } catch (error) {
      // S3 answers 204 for a missing key; some compatible servers answer 404.
      if (!isMissingObject(error)) throw this.failure('DELETE', key, error);
    }
  }

  private async open(key: string): Promise<Readable | undefined> {
    const { sdk, client } = await this.connect();
    try {
      const answer = await client.send(new sdk.GetObjectCommand({ Bucket: this.s3.bucket, Key: key }));
      // In Node the body is the response itself (an IncomingMessage).
      if (answer.Body instanceof Readable) return answer.Body;
      throw new Error('the answer has no readable body');
    } catch (error) {
      if (isMissingObject(error)) return undefined;
      throw this.failure('GET', key, error);
    }
  }

  private failure(operation: string, key: string, error: unknown): Unavailable {
    const code = status(error);
    // Without s3:ListBucket, S3 answers 403 rather than 404 for a missing key.
    const hint = code === 403 ? '; check the credentials and that they may s3:ListBucket on the bucket' : '';
    return new Unavailable(
      `File storage is unavailable; try again in ${UNAVAILABLE_RETRY_AFTER_S} seconds. If it persists, the server's log says why.`,
      `S3 blob store ${this.where}: ${operation} ${key} failed: ${explain(error)}${hint}`,
      { cause: error },
    );
  }
}

function status(error: unknown): number | undefined {
  return (error as SdkError | undefined)?.$metadata?.httpStatusCode;
}

/** A missing object, not a missing bucket (which is a configuration error to report). */
function isMissingObject(error: unknown): boolean {
  const name = (error as SdkError | undefined)?.name;
  if (name === 'NoSuchKey') return true;
  return status(error) === 404 && name !== 'NoSuchBucket';
}

function explain(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const e = error as Error & SdkError;
  const code = status(error);
  // Connection errors of Node's happy-eyeballs connect are AggregateErrors without a message.
  const message = e.message || e.code || e.name;
  const parts = [code === undefined ? undefined : `HTTP ${code}`, e.name !== 'Error' ? e.name : undefined]
    .filter((part) => part !== undefined && !message.includes(part))
    .join(' ');
  return parts ? `${message} (${parts})` : message;
}
