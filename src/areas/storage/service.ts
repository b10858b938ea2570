import { createHash, randomBytes } from 'node:crypto';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorize.js';
import type { BlobStore } from '../../content/blob-store.js';
import type { StorageUploadsTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { badRequest, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { GenerateUploadBody } from './schemas.js';

/** How long an upload URL works. */
export const UPLOAD_TTL_MS = 60 * 60_000;

/** File names a `kind: import_file` upload may have (what startImportRun reads). */
export const IMPORTABLE = /\.(md|markdown|txt|zip)$/i;

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Uploads: generateStorageUploadURL records a pending upload under a random key and answers a
 * Quire URL carrying a single-use token (only its digest is stored); a PUT of the bytes to that
 * URL within the hour stores them as a blob and completes the upload. Imports then name the file
 * by its key.
 */
export class StorageService {
  constructor(
    private readonly deps: Deps,
    private readonly services: { authz: Pick<Authorizer, 'org'>; blobs: Pick<BlobStore, 'put'> },
  ) {}

  async createUpload(
    actor: Actor,
    orgId: string,
    body: GenerateUploadBody,
  ): Promise<{ key: string; token: string }> {
    await this.services.authz.org(actor, orgId, 'view');
    const { file, kind } = body;
    if (kind === 'import_file' && !IMPORTABLE.test(file.name))
      throw badRequest(
        `Invalid request: body.file.name "${file.name.slice(0, 80)}" is not a file type that can be imported; upload Markdown (.md, .markdown), text (.txt) or a .zip of Markdown files`,
      );
    const token = randomBytes(32).toString('base64url');
    const safeName =
      file.name
        .split(/[\\/]/)
        .pop()!
        .replace(/[^\w.\- ]/g, '_')
        .slice(-128) || 'file';
    const key = `uploads/${orgId}/${newId(24)}/${safeName}`;
    const now = this.deps.clock.now();
    await this.deps.db
      .insertInto('storage_uploads')
      .values({
        key,
        org_id: orgId,
        kind,
        name: file.name,
        content_type: file.type,
        size: file.size,
        token_digest: digest(token),
        status: 'pending',
        blob_hash: null,
        created_by: actor.userId,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + UPLOAD_TTL_MS).toISOString(),
        completed_at: null,
      })
      .execute();
    return { key, token };
  }

  /** The PUT at an upload URL: an unknown, used or expired token is "not found". */
  async receive(token: string, data: Buffer): Promise<void> {
    const now = this.deps.clock.now().toISOString();
    const row = await this.deps.db
      .selectFrom('storage_uploads')
      .selectAll()
      .where('token_digest', '=', digest(token))
      .executeTakeFirst();
    if (row?.status !== 'pending' || row.expires_at <= now)
      throw notFound('No such upload URL (it may have expired or been used already)');
    if (data.length !== Number(row.size))
      throw badRequest(
        `The upload is ${data.length} bytes but ${row.size} were declared; send exactly the declared file`,
      );
    const { hash } = await this.services.blobs.put(data);
    const result = await this.deps.db
      .updateTable('storage_uploads')
      .set({ status: 'complete', blob_hash: hash, completed_at: now })
      .where('key', '=', row.key)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0)
      throw notFound('No such upload URL (it may have expired or been used already)');
  }

  /** A completed upload of the organization, or undefined. */
  async completed(orgId: string, key: string): Promise<StorageUploadsTable | undefined> {
    const row = await this.deps.db
      .selectFrom('storage_uploads')
      .selectAll()
      .where('key', '=', key)
      .where('org_id', '=', orgId)
      .where('status', '=', 'complete')
      .executeTakeFirst();
    return row;
  }
}
