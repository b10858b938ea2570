import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { StorageUploadKind } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markdownOf, newChangeRequest, write } from '../helpers/content.js';
import { createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { type S3Server, startS3Server } from '../helpers/s3-server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Quire storing its files in an S3-compatible bucket (QUIRE_S3_*), against a real S3 server on
 * loopback: uploads land in the bucket under the prefix, downloads come back from it byte for
 * byte, and nothing is written to the local blobs directory.
 */

const PREFIX = 'quire/blobs';
let s3: S3Server;
let server: TestServer;
let admin: TestUser;
let orgId: string;
const logs: string[] = [];

beforeAll(async () => {
  s3 = await startS3Server();
  server = await startTestServer({ env: s3.env(PREFIX), logs });
  admin = await createUser(server);
  orgId = await createOrg(admin, 'S3 org');
});
afterAll(async () => {
  await server?.close();
  await s3?.stop();
});

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const keyOf = (hash: string) => `${PREFIX}/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`;

function localBlobs(): string[] {
  const dir = path.join(server.config.dataDir, 'blobs');
  return existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : [];
}

describe('files in an S3 bucket', () => {
  it('is configured from QUIRE_S3_*', () => {
    expect(server.config.s3).toEqual({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: 'us-east-1',
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      prefix: PREFIX,
      forcePathStyle: true,
    });
  });

  it('stores an upload in the bucket, and an import reads it back from there', async () => {
    const markdown = Buffer.from('# Stored in S3\n\nbucketbody paragraph.\n');
    const target = (
      await admin.api.orgs.generateStorageUploadUrl(orgId, {
        file: { name: 'guide.md', type: 'text/markdown', size: markdown.length },
        kind: StorageUploadKind.ImportFile,
      })
    ).data;
    const put = await fetch(target.url, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: markdown,
    });
    expect(put.status).toBe(200);
    expect(await s3.keys(`${PREFIX}/`)).toContain(keyOf(sha256(markdown)));

    const spaceId = (await admin.api.orgs.createSpace(orgId, { title: 'Imported' })).data.id;
    const started = (
      await admin.api.org.startImportRun(orgId, {
        source: { type: 'file', files: [target.key] },
        target: { space: spaceId },
      })
    ).data;
    await server.app.quire.services.jobs.runDue();
    const run = (await admin.api.org.getImportRun(orgId, started.id)).data as {
      status: string;
      reason?: string;
    };
    expect(run.status, run.reason).toBe('completed');
    const [page] = (await admin.api.spaces.listPages(spaceId)).data.pages;
    expect(page?.title).toBe('Stored in S3');
    expect(await markdownOf(admin.api, spaceId, page!.id)).toContain('bucketbody paragraph.');
  });

  it('serves a file inserted through the API from the bucket, byte for byte', async () => {
    const spaceId = (await admin.api.orgs.createSpace(orgId, { title: 'Files' })).data.id;
    const crId = await newChangeRequest(admin.api, spaceId);
    const data = randomBytes(1024 * 1024 + 13);
    const result = await write(admin.api, spaceId, crId, [
      { operation: 'insert_files', files: [{ name: 'data.bin', base64: data.toString('base64') }] },
    ]);
    const [file] = result.insertedFiles;
    expect(file?.size).toBe(data.length);

    // The object is in the bucket, under the prefix, named by the bytes' SHA-256.
    expect(await s3.keys(`${PREFIX}/`)).toContain(keyOf(sha256(data)));

    const download = await fetch(file!.downloadURL);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await download.arrayBuffer()).equals(data)).toBe(true);
  });

  it('answers 404, not a broken 200, for a file the bucket does not hold', async () => {
    const missing = sha256(Buffer.from('never uploaded'));
    const response = await fetch(`${server.url}/files/${missing}/gone.bin`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 404, message: 'No such file' } });
  });

  it('writes nothing to the local blobs directory', () => {
    expect(localBlobs()).toEqual([]);
  });

  it('answers 503 with Retry-After, not a hang or a 500, when the bucket is unreachable, and logs which one', async () => {
    const data = Buffer.from('stored before the outage');
    const spaceId = (await admin.api.orgs.createSpace(orgId, { title: 'Outage' })).data.id;
    const crId = await newChangeRequest(admin.api, spaceId);
    const [file] = (
      await write(admin.api, spaceId, crId, [
        { operation: 'insert_files', files: [{ name: 'note.txt', base64: data.toString('base64') }] },
      ])
    ).insertedFiles;
    await s3.stop();
    const response = await fetch(file!.downloadURL);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toEqual({
      error: {
        code: 503,
        message:
          "File storage is unavailable; try again in 5 seconds. If it persists, the server's log says why.",
      },
    });
    const logged = logs.find((line) => line.includes('request failed'));
    expect(logged).toContain(
      `S3 blob store s3://${s3.bucket}/${PREFIX} at ${s3.endpoint}: GET ${keyOf(sha256(data))}`,
    );
  });
});
