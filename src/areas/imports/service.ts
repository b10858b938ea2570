import { unzipSync } from 'fflate';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorize.js';
import type { BlobStore } from '../../content/blob-store.js';
import { type Page, paginate, type SortKey } from '../../db/keyset.js';
import type { ImportRunStatus, ImportRunsTable, StorageUploadsTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { ApiError, badRequest, invalidField, notFound } from '../../errors.js';
import { parsePageFile } from '../../git/front-matter.js';
import { type OutboundClient, OutboundError } from '../../http/outbound.js';
import { newId } from '../../ids.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { ContentChange } from '../change-requests/content-schemas.js';
import {
  type ContentWriteService,
  MAX_MARKDOWN_BYTES,
  type WriteOutcome,
} from '../change-requests/content-writes.js';
import type { MergeOutcome, MergeService } from '../change-requests/merging.js';
import type { ChangeRequestsService } from '../change-requests/service.js';
import type { SiteSpacesService } from '../sites/site-spaces.js';
import type { SpacesService } from '../spaces/service.js';
import type { StorageService } from '../storage/service.js';
import type { UsersService } from '../users/service.js';
import type { ListImportRunsQuery, StartImportBody } from './schemas.js';

export const IMPORT_JOB = 'imports.run';

/** The services imports call. */
export interface ImportsNeeds {
  authz: Pick<Authorizer, 'org' | 'space' | 'scope'>;
  jobs: Pick<JobQueue, 'register' | 'enqueue'>;
  spaces: Pick<SpacesService, 'find' | 'visibleIdsIn'>;
  siteSpaces: Pick<SiteSpacesService, 'spaceIdsOf'>;
  changeRequests: Pick<ChangeRequestsService, 'access' | 'create' | 'archiveIfUntouched'>;
  contentWrites: Pick<ContentWriteService, 'apply'>;
  merges: Pick<MergeService, 'merge'>;
  storage: Pick<StorageService, 'completed'>;
  users: Pick<UsersService, 'byIds'>;
  blobs: Pick<BlobStore, 'get'>;
  outbound: Pick<OutboundClient, 'check' | 'fetch'>;
}
/** The most files one run imports (the official schema's `maxItems`). */
export const MAX_IMPORT_FILES = 50;
/** A file's body may be a page's worth of markdown, plus its front matter. */
const MAX_FETCH_BYTES = MAX_MARKDOWN_BYTES + 64 * 1024;
const BUSY_RETRY_MS = 2000;
/** A zip's limits: entries listed, Markdown pages made, and their total uncompressed size. */
export const MAX_ZIP_ENTRIES = 2000;
export const MAX_ZIP_PAGES = 200;
export const MAX_ZIP_BYTES = 50 * 1024 * 1024;
/** An in-progress run not updated for this long never reported back: it is shown as failed. */
export const STALE_MS = 30 * 60_000;

type FileKind = 'markdown' | 'text';
const KINDS: Record<string, FileKind> = { md: 'markdown', markdown: 'markdown', txt: 'text' };

/** What a run's `source` column holds. */
export interface StoredSource {
  type: 'file';
  files: string[];
}

export interface ImportedPage {
  id: string;
  sourceURL: string;
}

const INTERRUPTED =
  'the import was interrupted (the server stopped while it ran); check the space and start it again';

/** A run that cannot go on, with a message for the person who started it. */
class ImportFailure extends Error {}

/**
 * Content imports: startImportRun checks the request (target, permissions, every file URL) and
 * queues one background job; the job fetches every file through the guarded outbound client,
 * turns each into a page (front matter and title as git import reads them), and writes them all
 * as one batch into the target change request, or into a change request it opens and merges, so
 * the space's content changes the way a merge changes it (links and search follow). A failure
 * before the write changes nothing. One run per space is in progress at a time.
 */
export class ImportsService {
  constructor(
    private readonly deps: Deps,
    private readonly services: ImportsNeeds,
  ) {}

  registerJobs(): void {
    this.services.jobs.register(
      IMPORT_JOB,
      (payload, context) => this.runJob((payload as { runId: string }).runId, context.signal),
      { maxAttempts: 1, onLost: (payload) => this.lost((payload as { runId: string }).runId) },
    );
  }

  async start(actor: Actor, orgId: string, body: StartImportBody): Promise<ImportRunsTable> {
    await this.services.authz.org(actor, orgId, 'view');
    const files = this.checkSource(body.source);
    const { target } = body;
    const spaceRow = await this.services.spaces.find(target.space);
    if (!spaceRow || spaceRow.org_id !== orgId) throw notFound(`Space "${target.space}" not found`);
    let crId: string | null = null;
    if (target.changeRequest) {
      const { cr } = await this.services.changeRequests.access(
        actor,
        target.space,
        target.changeRequest,
        'propose',
      );
      if (cr.status === 'merged' || cr.status === 'archived')
        throw invalidField(
          'body.target.changeRequest',
          `is ${cr.status}, its content can no longer change; import into an open change request or into the space`,
        );
      crId = cr.id;
    } else {
      await this.services.authz.space(actor, target.space, 'edit');
    }
    for (const [i, file] of files.entries()) {
      if (!isUrl(file)) {
        await this.uploadOf(orgId, file, `body.source.files.${i}`);
        continue;
      }
      try {
        await this.services.outbound.check(file);
      } catch (error) {
        if (error instanceof OutboundError) throw invalidField(`body.source.files.${i}`, error.message);
        throw error;
      }
    }

    const now = this.deps.clock.now().toISOString();
    const row: ImportRunsTable = {
      id: newId(),
      org_id: orgId,
      space_id: target.space,
      change_request_id: crId,
      page_id: target.page ?? null,
      written_change_request_id: null,
      source: JSON.stringify({ type: 'file', files } satisfies StoredSource),
      status: 'pending',
      reason: null,
      pages: null,
      created_by: actor.userId,
      created_at: now,
      updated_at: now,
      started_at: null,
      completed_at: null,
    };
    await this.deps.db.transaction().execute(async (tx) => {
      await tx.insertInto('import_runs').values(row).execute();
      await this.services.jobs.enqueue(IMPORT_JOB, { runId: row.id }, { tx });
    });
    return row;
  }

  async get(actor: Actor, orgId: string, runId: string): Promise<ImportRunsTable> {
    await this.services.authz.org(actor, orgId, 'view');
    const row = await this.row(runId);
    const missing = () => notFound(`Import run "${runId}" not found`);
    if (!row || row.org_id !== orgId) throw missing();
    try {
      await this.services.authz.space(actor, row.space_id, 'view');
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) throw missing();
      throw error;
    }
    return row;
  }

  async list(actor: Actor, orgId: string, query: ListImportRunsQuery): Promise<Page<ImportRunsTable>> {
    const scope = await this.services.authz.scope(actor, orgId);
    const { db } = this.deps;
    const visible = this.services.spaces.visibleIdsIn(orgId, scope.spaceVisibility());
    let q = db
      .selectFrom('import_runs as r')
      .selectAll('r')
      .where('r.org_id', '=', orgId)
      .where('r.space_id', 'in', visible);
    if (query.space) q = q.where('r.space_id', '=', query.space);
    if (query.changeRequest) {
      const cr = query.changeRequest;
      q = q.where((eb) =>
        eb.or([eb('r.change_request_id', '=', cr), eb('r.written_change_request_id', '=', cr)]),
      );
    }
    if (query.site) {
      q = q.where('r.space_id', 'in', this.services.siteSpaces.spaceIdsOf(query.site));
    }
    if (query.status) {
      const statuses: ImportRunStatus[] =
        query.status === 'active' ? ['pending', 'in-progress'] : [query.status];
      q = q.where('r.status', 'in', statuses);
    }
    const keys: SortKey<ImportRunsTable>[] = [
      { ref: 'r.created_at', dir: 'desc', value: (r) => r.created_at },
      { ref: 'r.id', dir: 'desc', value: (r) => r.id },
    ];
    return paginate(db, q, keys, query, 'import-runs');
  }

  /** Cancels a run that has not started; a run in progress or done cannot be. */
  async cancel(actor: Actor, orgId: string, runId: string): Promise<ImportRunsTable> {
    const row = await this.get(actor, orgId, runId);
    await this.services.authz.space(actor, row.space_id, row.change_request_id ? 'propose' : 'edit');
    const now = this.deps.clock.now().toISOString();
    const result = await this.deps.db
      .updateTable('import_runs')
      .set({ status: 'cancelled', updated_at: now, completed_at: null })
      .where('id', '=', runId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) {
      const current = (await this.row(runId))!;
      if (current.status === 'cancelled') return current;
      throw badRequest(`Import run "${runId}" is ${current.status}; only a pending run can be cancelled`);
    }
    return (await this.row(runId))!;
  }

  /** The file URLs of a `{type: 'file'}` source; refuses other sources and malformed lists. */
  private checkSource(source: StartImportBody['source']): string[] {
    if (source.type === 'website')
      throw invalidField(
        'body.source.type',
        '"website" is not supported by this server; import Markdown files with {"type": "file", "files": ["https://.../page.md"]}',
      );
    if (source.type !== 'file')
      throw invalidField(
        'body.source.type',
        `must be "file" (or "website", not supported here), got "${source.type}"`,
      );
    const files = source.files;
    if (files === undefined)
      throw invalidField(
        'body.source.files',
        'is required when source.type is "file"; list the URLs of the files',
      );
    if (files.length === 0) throw invalidField('body.source.files', 'must list at least one file URL');
    if (files.length > MAX_IMPORT_FILES)
      throw invalidField(
        'body.source.files',
        `lists ${files.length} files; at most ${MAX_IMPORT_FILES} can be imported in one run, split the import`,
      );
    for (const [i, raw] of files.entries()) {
      const field = `body.source.files.${i}`;
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        // Not a URL: the key of an upload (generateStorageUploadURL), checked by start().
        continue;
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw invalidField(field, `must be an http:// or https:// URL, got a ${url.protocol} URL`);
      const name = fileName(url);
      if (!kindOf(name))
        throw invalidField(
          field,
          `names "${name || url.pathname}", which is not a file type that can be imported; import Markdown (.md, .markdown) or text (.txt) files`,
        );
    }
    return files;
  }

  private row(runId: string): Promise<ImportRunsTable | undefined> {
    return this.deps.db.selectFrom('import_runs').selectAll().where('id', '=', runId).executeTakeFirst();
  }

  /**
   * The run's job died with its server and is not run again: the run fails, saying so, which
   * also lets the space's next run go ahead at once.
   */
  private async lost(runId: string): Promise<void> {
    const now = this.deps.clock.now().toISOString();
    for (const [status, reason] of [
      ['in-progress', INTERRUPTED],
      ['pending', 'the server stopped before the import could start; start it again'],
    ] as const)
      await this.deps.db
        .updateTable('import_runs')
        .set({ status: 'failed', reason, updated_at: now })
        .where('id', '=', runId)
        .where('status', '=', status)
        .execute();
  }

  private async runJob(runId: string, signal: AbortSignal): Promise<void> {
    const row = await this.row(runId);
    if (!row || row.status === 'cancelled' || row.status === 'completed' || row.status === 'failed') return;
    const log = this.deps.log.child({ importRunId: runId, spaceId: row.space_id });
    if (row.status === 'in-progress') {
      // The job ran before and its worker died: what it did is unknown, say so rather than redo it.
      await this.finish(runId, 'failed', { reason: INTERRUPTED });
      return;
    }
    if (!(await this.claim(row))) {
      await this.services.jobs.enqueue(
        IMPORT_JOB,
        { runId },
        { runAt: new Date(this.deps.clock.now().getTime() + BUSY_RETRY_MS) },
      );
      return;
    }
    try {
      const { pages, crId } = await this.perform(row, signal);
      await this.finish(runId, 'completed', {
        pages: JSON.stringify(pages),
        written_change_request_id: crId,
      });
      log.info({ pages: pages.length }, 'import done');
    } catch (error) {
      const reason = failureReason(error);
      if (!(error instanceof ImportFailure || error instanceof ApiError || error instanceof OutboundError))
        log.error({ err: error }, 'import crashed');
      else log.warn({ reason }, 'import failed');
      await this.finish(runId, 'failed', { reason });
    }
  }

  /** pending -> in-progress, unless another run of the space is in progress (then: later). */
  private async claim(row: ImportRunsTable): Promise<boolean> {
    const now = this.deps.clock.now();
    const stale = new Date(now.getTime() - STALE_MS).toISOString();
    const result = await this.deps.db
      .updateTable('import_runs')
      .set({ status: 'in-progress', started_at: now.toISOString(), updated_at: now.toISOString() })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('import_runs as other')
              .select('other.id')
              .where('other.space_id', '=', row.space_id)
              .where('other.status', '=', 'in-progress')
              .where('other.updated_at', '>', stale)
              .where('other.id', '!=', row.id),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  private async finish(
    runId: string,
    status: 'completed' | 'failed',
    fields: Partial<Pick<ImportRunsTable, 'reason' | 'pages' | 'written_change_request_id'>>,
  ): Promise<void> {
    const now = this.deps.clock.now().toISOString();
    await this.deps.db
      .updateTable('import_runs')
      .set({ status, updated_at: now, ...(status === 'completed' ? { completed_at: now } : {}), ...fields })
      .where('id', '=', runId)
      .execute();
  }

  /** Fetches and converts every file, then writes them all at once (and merges, without a target change request). */
  private async perform(
    row: ImportRunsTable,
    signal: AbortSignal,
  ): Promise<{ pages: ImportedPage[]; crId: string }> {
    const actor = await this.actorOf(row.created_by);
    const { files } = JSON.parse(row.source) as StoredSource;
    const changes: ContentChange[] = [];
    const sources: string[] = [];
    for (const [i, file] of files.entries()) {
      if (isUrl(file)) {
        changes.push(await this.pageChange(file, i, row.page_id));
        sources.push(file);
        continue;
      }
      for (const page of await this.uploadChanges(row, file, i)) {
        changes.push(page.change);
        sources.push(page.source);
      }
    }
    if (changes.length === 0)
      throw new ImportFailure(
        'the files hold no Markdown page to import (a zip needs .md or .markdown files)',
      );

    // This server no longer holds the job (its lease lapsed): write nothing.
    if (signal.aborted)
      throw new ImportFailure(`${(signal.reason as Error).message}; start the import again`);
    let crId = row.change_request_id;
    let opened = false;
    if (!crId) {
      const subject =
        files.length === 1 ? `Import of ${shownName(files[0]!)}` : `Import of ${files.length} files`;
      crId = (await this.services.changeRequests.create(actor, row.space_id, { subject })).row.id;
      opened = true;
      await this.deps.db
        .updateTable('import_runs')
        .set({ written_change_request_id: crId, updated_at: this.deps.clock.now().toISOString() })
        .where('id', '=', row.id)
        .execute();
    }
    let outcome: WriteOutcome;
    try {
      outcome = await this.services.contentWrites.apply(actor, row.space_id, crId, changes);
    } catch (error) {
      // Nothing was written: the change request opened for the run goes away with it.
      if (opened) await this.archive(row.space_id, crId);
      throw error;
    }
    if (opened) {
      let merged: MergeOutcome<'merge'>;
      try {
        merged = await this.services.merges.merge(actor, row.space_id, crId);
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        throw new ImportFailure(
          `the pages were written into change request #${outcome.cr.number}, but merging it failed: ${detail}; merge it yourself once that is resolved`,
        );
      }
      if (merged.result !== 'merge')
        throw new ImportFailure(
          `the pages were written into change request #${outcome.cr.number}, but it conflicts with the space's content; resolve and merge it there`,
        );
    }
    const created = outcome.changes.filter((c) => c.object === 'created_page');
    return { pages: created.map((c, i) => ({ id: c.page, sourceURL: sources[i] ?? '' })), crId };
  }

  private async pageChange(raw: string, index: number, into: string | null): Promise<ContentChange> {
    const url = new URL(raw);
    const name = fileName(url);
    const label = `source.files.${index} (${shownUrl(url)})`;
    let text: string;
    try {
      const response = await this.services.outbound.fetch(raw, { maxBytes: MAX_FETCH_BYTES });
      if (response.status < 200 || response.status > 299)
        throw new ImportFailure(`${label} could not be fetched: the server answered ${response.status}`);
      text = decodeText(response.body, label);
    } catch (error) {
      if (error instanceof OutboundError)
        throw new ImportFailure(`${label} could not be fetched: ${error.message}`);
      throw error;
    }
    return this.toChange(text, name, label, into);
  }

  /** The completed upload a `files` entry names, or a 400 naming the entry. */
  private async uploadOf(orgId: string, key: string, field: string): Promise<StorageUploadsTable> {
    const upload = await this.services.storage.completed(orgId, key);
    if (!upload)
      throw invalidField(
        field,
        `is neither an http(s) URL of a file nor the key of a completed upload of this organization; upload the file with generateStorageUploadURL and PUT its bytes to the URL it answers first`,
      );
    if (upload.kind !== 'import_file')
      throw invalidField(
        field,
        `is an upload of kind "${upload.kind}"; upload files to import as "import_file"`,
      );
    if (!uploadKind(upload.name))
      throw invalidField(
        field,
        `names "${upload.name}", which is not a file type that can be imported; import Markdown (.md, .markdown), text (.txt) or a .zip of Markdown files`,
      );
    return upload;
  }

  /** The pages of an uploaded file: one for a Markdown or text file, one per Markdown file of a zip. */
  private async uploadChanges(
    row: ImportRunsTable,
    key: string,
    index: number,
  ): Promise<{ change: ContentChange; source: string }[]> {
    const label = `source.files.${index} (${shownName(key)})`;
    let upload: StorageUploadsTable;
    try {
      upload = await this.uploadOf(row.org_id, key, `source.files.${index}`);
    } catch (error) {
      if (error instanceof ApiError) throw new ImportFailure(error.message.replace(/^Invalid request: /, ''));
      throw error;
    }
    const data = upload.blob_hash ? await this.services.blobs.get(upload.blob_hash) : undefined;
    if (!data) throw new ImportFailure(`${label}: the uploaded file is no longer stored; upload it again`);
    if (uploadKind(upload.name) !== 'zip') {
      if (data.length > MAX_FETCH_BYTES) throw new ImportFailure(`${label} is larger than a page can be`);
      const change = this.toChange(decodeText(data, label), upload.name, label, row.page_id);
      return [{ change, source: key }];
    }
    return expandZip(data, label).map((entry) => ({
      change: this.toChange(
        decodeText(entry.data, `${label} ${entry.path}`),
        entry.path.split('/').pop()!,
        `${label} ${entry.path}`,
        row.page_id,
      ),
      source: `${key}#${entry.path}`,
    }));
  }

  /** One file's text -> an insert_page change (front matter and title as git import reads them). */
  private toChange(text: string, name: string, label: string, into: string | null): ContentChange {
    const fallbackTitle = name.replace(/\.[^.]+$/, '').trim() || 'Untitled';
    const base = { operation: 'insert_page' as const, ...(into ? { into } : {}) };
    if (kindOf(name) === 'text')
      return { ...base, title: fallbackTitle.slice(0, 256), document: { markdown: text } };
    const page = parsePageFile(text);
    if (page.problem) throw new ImportFailure(`${label}: ${page.problem}`);
    return {
      ...base,
      title: (page.title?.trim() || fallbackTitle).slice(0, 256),
      document: { markdown: page.body },
      ...(page.description ? { description: page.description.slice(0, 1000) } : {}),
      ...(page.icon ? { icon: page.icon.slice(0, 50) } : {}),
      ...(page.hidden ? { hidden: true } : {}),
      ...(page.noIndex ? { noIndex: true } : {}),
    };
  }

  private async actorOf(userId: string): Promise<Actor> {
    const user = (await this.services.users.byIds(this.deps.db, [userId])).get(userId);
    if (!user) throw new ImportFailure('the user who started the import no longer exists');
    return { userId: user.id, email: user.email, tokenId: 'import-run' };
  }

  private async archive(spaceId: string, crId: string): Promise<void> {
    try {
      await this.deps.db
        .transaction()
        .execute((tx) => this.services.changeRequests.archiveIfUntouched(tx, spaceId, crId));
    } catch (error) {
      this.deps.log.warn(
        { err: error, changeRequestId: crId },
        'could not archive the import change request',
      );
    }
  }
}

/** The last segment of a URL's path, decoded. */
export function fileName(url: URL): string {
  const last = url.pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** A `files` entry that is a URL (anything else is an upload key). */
function isUrl(file: string): boolean {
  try {
    new URL(file);
    return true;
  } catch {
    return false;
  }
}

/** How messages and subjects name a file: a URL's last segment, an upload key's last segment. */
function shownName(file: string): string {
  return isUrl(file) ? fileName(new URL(file)) : (file.split('/').pop() ?? file);
}

function uploadKind(name: string): FileKind | 'zip' | undefined {
  return /\.zip$/i.test(name) ? 'zip' : kindOf(name);
}

/** A zip entry name that would land outside the archive's folder. */
function escapes(name: string): boolean {
  return (
    name.startsWith('/') ||
    name.includes('\\') ||
    name.includes('\u0000') ||
    /^[a-zA-Z]:/.test(name) ||
    name.split('/').some((segment) => segment === '..')
  );
}

/** Markdown entries of a zip: not SUMMARY.md, nor hidden files or macOS metadata. */
function isPageEntry(name: string): boolean {
  const segments = name.split('/');
  const base = segments[segments.length - 1]!;
  if (segments.some((segment) => segment.startsWith('.') || segment === '__MACOSX')) return false;
  if (base.toLowerCase() === 'summary.md') return false;
  return /\.(md|markdown)$/i.test(base);
}

/**
 * The Markdown files of a zip, by path. Any entry escaping the archive fails the whole run; the
 * entry count, page count and declared sizes are capped before anything is inflated (fflate
 * inflates into a buffer of the declared size, so an entry cannot grow past it).
 */
export function expandZip(data: Buffer, label: string): { path: string; data: Buffer }[] {
  let entries = 0;
  let pages = 0;
  let total = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(data, {
      filter: (file) => {
        if (escapes(file.name))
          throw new ImportFailure(
            `${label} holds "${file.name.slice(0, 200)}", a path outside the archive; nothing was imported`,
          );
        if (++entries > MAX_ZIP_ENTRIES)
          throw new ImportFailure(`${label} holds more than ${MAX_ZIP_ENTRIES} entries`);
        if (file.name.endsWith('/') || !isPageEntry(file.name)) return false;
        if (++pages > MAX_ZIP_PAGES)
          throw new ImportFailure(
            `${label} holds more than ${MAX_ZIP_PAGES} Markdown files; split it into several imports`,
          );
        if (file.originalSize > MAX_FETCH_BYTES)
          throw new ImportFailure(`${label} ${file.name} is larger than a page can be`);
        total += file.originalSize;
        if (total > MAX_ZIP_BYTES)
          throw new ImportFailure(`${label} holds more than ${MAX_ZIP_BYTES} bytes of Markdown`);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof ImportFailure) throw error;
    throw new ImportFailure(`${label} is not a readable zip archive`);
  }
  return Object.keys(files)
    .sort()
    .map((path) => ({ path, data: Buffer.from(files[path]!) }));
}

function kindOf(name: string): FileKind | undefined {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? KINDS[name.slice(dot + 1).toLowerCase()] : undefined;
}

/** A URL as messages show it: no credentials, no query string (either may hold a secret). */
function shownUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

function decodeText(data: Buffer, label: string): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw new ImportFailure(`${label} is not UTF-8 text; only Markdown and text files can be imported`);
  }
  if (text.includes('\u0000')) throw new ImportFailure(`${label} is not a text file`);
  return text;
}

/** The reason shown on a failed run; field names of the content write are put in the run's terms. */
function failureReason(error: unknown): string {
  if (error instanceof ImportFailure || error instanceof OutboundError) return error.message;
  if (error instanceof ApiError)
    return `the pages could not be written: ${error.message
      .replace(/^Invalid request: /, '')
      .replace(/body\.changes\.\d+\.into/g, 'target.page')
      .replace(/body\.changes\.(\d+)/g, 'source.files.$1')}`;
  return 'the import failed because of an internal error; see the server log';
}
