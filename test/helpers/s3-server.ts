import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../../src/config.js';

/**
 * A real S3-compatible server on loopback for tests: s3rver (the npm package), run as a child
 * process on a port the system picks, storing objects in a temporary directory, with one bucket
 * created. s3rver accepts its built-in key pair (S3RVER / S3RVER) and refuses unknown access key
 * ids; it does not check SigV4 signatures.
 */
export interface S3Server {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** A client of the server, to look at what a store left in the bucket. */
  client: S3Client;
  /** A store configuration for this server's bucket (path-style, its keys). */
  config(overrides?: Partial<S3Config>): S3Config;
  /** The QUIRE_S3_* variables that point Quire at the bucket. */
  env(prefix?: string): Record<string, string>;
  createBucket(name: string): Promise<void>;
  /** Keys of the objects in the bucket (under `prefix`), sorted. */
  keys(prefix?: string): Promise<string[]>;
  /** Freezes the process (SIGSTOP): connections are still accepted, nothing is answered. */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

const ACCESS_KEY = 'S3RVER';
const SECRET_KEY = 'S3RVER';
const START_TIMEOUT_MS = 20_000;

function s3rverBin(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('s3rver/package.json')), 'bin', 's3rver.js');
}

async function listening(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    let settled = false;
    const settle = (error: Error | undefined, port = 0) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!error) return resolve(port);
      child.kill('SIGKILL');
      reject(new Error(`${error.message}\n${out}${err}`));
    };
    const timer = setTimeout(
      () => settle(new Error(`s3rver did not start in ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk;
      const match = /listening on \S+:(\d+)/.exec(out);
      if (match) settle(undefined, Number(match[1]));
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk;
    });
    child.once('error', (error) => settle(error));
    child.once('exit', (code, signal) =>
      settle(new Error(`s3rver exited (${code ?? signal}) before listening`)),
    );
  });
}

export async function startS3Server(options: { bucket?: string } = {}): Promise<S3Server> {
  const bucket = options.bucket ?? 'quire-test';
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-s3rver-'));
  const child = spawn(
    process.execPath,
    [
      s3rverBin(),
      '--directory',
      dir,
      '--address',
      '127.0.0.1',
      '--port',
      '0',
      '--silent',
      '--no-vhost-buckets',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let port: number;
  try {
    port = await listening(child);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: SECRET_KEY },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: 5000, requestTimeout: 10_000, throwOnRequestTimeout: true },
  });
  let paused = false;
  const server: S3Server = {
    endpoint,
    bucket,
    accessKeyId: ACCESS_KEY,
    secretAccessKey: SECRET_KEY,
    client,
    config: (overrides = {}) => ({
      bucket,
      endpoint,
      region: 'us-east-1',
      accessKeyId: ACCESS_KEY,
      secretAccessKey: SECRET_KEY,
      prefix: '',
      forcePathStyle: true,
      ...overrides,
    }),
    env: (prefix) => ({
      QUIRE_S3_BUCKET: bucket,
      QUIRE_S3_ENDPOINT: endpoint,
      QUIRE_S3_ACCESS_KEY_ID: ACCESS_KEY,
      QUIRE_S3_SECRET_ACCESS_KEY: SECRET_KEY,
      ...(prefix ? { QUIRE_S3_PREFIX: prefix } : {}),
    }),
    async createBucket(name) {
      await client.send(new CreateBucketCommand({ Bucket: name }));
    },
    async keys(prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys.sort();
    },
    pause() {
      paused = child.kill('SIGSTOP');
    },
    resume() {
      if (paused) child.kill('SIGCONT');
      paused = false;
    },
    async stop() {
      client.destroy();
      server.resume();
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await server.createBucket(bucket);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}
