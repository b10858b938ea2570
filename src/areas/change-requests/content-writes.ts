import type { Actor } from '../../auth/actor.js';
import type { BlobStore } from '../../content/blob-store.js';
import { Draft } from '../../content/draft.js';
import { type HrefContext, hrefOf } from '../../content/hrefs.js';
import { documentToMarkdown, plainLinks } from '../../content/markdown/index.js';
import { rewriteHrefs } from '../../content/markdown/rewrite-hrefs.js';
import { findTreeHash, insertRevision } from '../../content/revisions.js';
import type { ContentStore } from '../../content/store.js';
import { type FileNode, pathOf } from '../../content/tree.js';
import { validateDocument } from '../../content/validate-document.js';
import type { Tx } from '../../db/database.js';
import type { ChangeRequestsTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { ApiError, conflict, invalidField } from '../../errors.js';
import { type OutboundClient, OutboundError } from '../../http/outbound.js';
import { newId } from '../../ids.js';
import type { ContentChange, PageDocumentInput } from './content-schemas.js';
import { fileFacts } from './file-facts.js';
import type { ChangeRequestsService } from './service.js';

/** The largest page body accepted, in bytes of markdown. */
export const MAX_MARKDOWN_BYTES = 1024 * 1024;
/** The largest file accepted (base64 or fetched). */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;

export type AppliedChange =
  | { object: 'created_page'; page: string; ref?: string | undefined }
  | { object: 'updated_page'; page: string }
  | { object: 'deleted_page'; page: string };

export interface WriteOutcome {
  cr: ChangeRequestsTable;
  changes: AppliedChange[];
  insertedFiles: FileNode[];
}

interface PreparedFile {
  change: number;
  index: number;
  /** The file's id, given before the batch runs so pages anywhere in it can name the file. */
  id: string;
  /** The name the batch calls the file by (`ref`), when it has one. */
  ref?: string | undefined;
  node: Omit<FileNode, 'id'>;
  data: Buffer;
}

/**
 * Writing content into a change request: a batch of up to 50 changes applied all together as
 * one new revision of the change request, or not at all.
 */
/** The services content writes call. */
export interface ContentWriteNeeds {
  changeRequests: Pick<ChangeRequestsService, 'access' | 'addContribution'>;
  store: ContentStore;
  blobs: Pick<BlobStore, 'put'>;
  outbound: Pick<OutboundClient, 'fetch'>;
}

export class ContentWriteService {
  constructor(
    private readonly deps: Deps,
    private readonly services: ContentWriteNeeds,
  ) {}

  async apply(
    actor: Actor,
    spaceId: string,
    idOrNumber: string,
    changes: ContentChange[],
  ): Promise<WriteOutcome> {
    const { cr } = await this.services.changeRequests.access(actor, spaceId, idOrNumber, 'edit');
    requireWritable(cr);
    // Files are read (decoded or fetched) before the transaction: no network inside it.
    const files = await this.prepareFiles(changes);

    return this.deps.db.transaction().execute(async (tx) => {
      const fresh = await this.lock(tx, cr.id);
      requireWritable(fresh);
      const now = this.deps.clock.now().toISOString();
      const head = await this.services.store.snapshot(tx, await treeOf(tx, fresh.revision));
      const draft = new Draft(head.content, now, () => head.indexes().children);
      // Files named by `ref` resolve in the batch's pages, whichever change inserts them.
      const batch: BatchFiles = new Map(
        files.flatMap((f) => (f.ref ? [[f.ref, { id: f.id, name: f.node.name }]] : [])),
      );
      const applied: AppliedChange[] = [];
      const inserted: FileNode[] = [];
      // `into` may name a page inserted earlier in the same batch by its `ref`.
      const refs = new Map<string, string>();
      const into = <T extends { into?: string | null | undefined }>(change: T): T =>
        change.into && refs.has(change.into) ? { ...change, into: refs.get(change.into) } : change;
      for (const [i, change] of changes.entries()) {
        const field = `body.changes.${i}`;
        switch (change.operation) {
          case 'insert_page': {
            const page = draft.insertPage(
              change,
              into(change),
              markdownOf(change, field, draft, batch) ?? '',
              field,
            );
            if (change.ref) refs.set(change.ref, page.id);
            applied.push({ object: 'created_page', page: page.id, ref: change.ref });
            break;
          }
          case 'update_page':
            draft.updatePage(
              change.page,
              change,
              into(change),
              markdownOf(change, field, draft, batch, change.page),
              field,
            );
            applied.push({ object: 'updated_page', page: change.page });
            break;
          case 'delete_page':
            for (const id of draft.deletePage(change.page, field))
              applied.push({ object: 'deleted_page', page: id });
            break;
          case 'revert_page': {
            const sourceId = change.revision ?? fresh.revision_merged_ancestor;
            const sourceTree = await treeOf(tx, sourceId, spaceId, `${field}.revision`);
            const source = await this.services.store.snapshot(tx, sourceTree);
            const outcome = draft.revertPage(change.page, source.content, field);
            applied.push({
              object: outcome === 'deleted' ? 'deleted_page' : 'updated_page',
              page: change.page,
            });
            break;
          }
          case 'insert_files':
            for (const file of files.filter((f) => f.change === i)) {
              const node: FileNode = { id: file.id, ...file.node };
              draft.addFile(node);
              inserted.push(node);
            }
            break;
        }
      }
      draft.checkPaths('body.changes');

      for (const file of files) await this.services.blobs.put(file.data);
      const bodyIds = [...draft.bodies.keys()];
      const texts = bodyIds.map((id) => draft.bodies.get(id)).filter((t): t is string => t !== null);
      const hashes = await this.services.store.putBodies(tx, texts);
      let h = 0;
      for (const id of bodyIds) {
        const text = draft.bodies.get(id);
        const page = draft.pages.get(id);
        if (page) draft.pages.set(id, { ...page, body: text === null ? null : hashes[h] });
        if (text !== null) h++;
        draft.changedPages.add(id);
      }

      const treeHash = await this.services.store.writeTree(tx, head, draft.content, {
        pages: draft.changedPages,
        files: draft.changedFiles,
      });
      const revision = await insertRevision(tx, {
        spaceId,
        treeHash,
        parents: [fresh.revision],
        type: 'edits',
        createdBy: actor.userId,
        createdAt: now,
        changeRequestId: fresh.id,
      });
      await tx
        .updateTable('change_requests')
        .set({ revision: revision.id, updated_at: now })
        .where('id', '=', fresh.id)
        .execute();
      await this.services.changeRequests.addContribution(tx, fresh.id, actor.userId, now);
      return {
        cr: { ...fresh, revision: revision.id, updated_at: now },
        changes: applied,
        insertedFiles: inserted,
      };
    });
  }

  private async lock(tx: Tx, crId: string): Promise<ChangeRequestsTable> {
    let query = tx.selectFrom('change_requests').selectAll().where('id', '=', crId);
    if (this.deps.dialect === 'postgres') query = query.forUpdate();
    return query.executeTakeFirstOrThrow();
  }

  private async prepareFiles(changes: ContentChange[]): Promise<PreparedFile[]> {
    const prepared: PreparedFile[] = [];
    for (const [i, change] of changes.entries()) {
      if (change.operation !== 'insert_files') continue;
      for (const [j, file] of change.files.entries()) {
        const field = `body.changes.${i}.files.${j}`;
        const { data, contentType } =
          'base64' in file
            ? { data: decodeBase64(file.base64, `${field}.base64`), contentType: undefined }
            : await this.fetchFile(file.url, `${field}.url`);
        const facts = fileFacts(data, file.name, file.contentType ?? contentType);
        prepared.push({
          change: i,
          index: j,
          id: newId(),
          ref: file.ref,
          data,
          node: {
            name: file.name,
            contentType: facts.contentType,
            size: data.length,
            blob: facts.hash,
            ...(facts.dimensions ? { dimensions: facts.dimensions } : {}),
          },
        });
      }
    }
    return prepared;
  }

  private async fetchFile(
    url: string,
    field: string,
  ): Promise<{ data: Buffer; contentType: string | undefined }> {
    try {
      const response = await this.services.outbound.fetch(url, { maxBytes: MAX_FILE_BYTES });
      if (response.status < 200 || response.status > 299) {
        throw invalidField(field, `could not be fetched: the server answered ${response.status}`);
      }
      return { data: response.body, contentType: response.headers['content-type']?.split(';')[0]?.trim() };
    } catch (error) {
      if (error instanceof OutboundError) throw invalidField(field, `could not be fetched: ${error.message}`);
      throw error;
    }
  }
}

function requireWritable(cr: ChangeRequestsTable): void {
  if (cr.status === 'merged' || cr.status === 'archived') {
    throw conflict(`This change request is ${cr.status}; its content can no longer change`);
  }
}

/**
 * The markdown a change brings, from `{markdown}` or a rich-text `{document}`, within limits. A
 * document's links to pages and files become hrefs into the draft as it is at that change, so
 * they read back as the same references.
 */
type BatchFiles = ReadonlyMap<string, { id: string; name: string }>;

function markdownOf(
  change: ContentChange & { operation: 'insert_page' | 'update_page' },
  changeField: string,
  draft: Draft,
  batch: BatchFiles,
  pageId?: string,
): string | undefined {
  const input: PageDocumentInput | undefined = change.document;
  if (input === undefined) return undefined;
  const field = `${changeField}.document`;
  let markdown: string;
  if ('markdown' in input) {
    // `![Diagram](./diagram)` for a file inserted as `ref: "diagram"` points at that file.
    markdown = rewriteHrefs(
      input.markdown,
      new Map([...batch].map(([ref, file]) => [ref, `.gitbook/assets/${file.name}`])),
    );
  } else {
    validateDocument(input.document, `${field}.document`);
    const byId = new Map([...batch.values()].map((file) => [file.id, file.name]));
    const context: HrefContext = {
      pathOf: (id) => (draft.pages.has(id) ? pathOf(draft.content, id) : undefined),
      fileName: (id) => draft.files.get(id)?.name ?? byId.get(id) ?? batch.get(id)?.name,
      page: pageId,
    };
    markdown = documentToMarkdown(input.document, {
      ...plainLinks,
      href: (ref) => {
        const href = hrefOf(ref, context);
        if (href === undefined)
          throw invalidField(
            `${field}.document`,
            `links to ${JSON.stringify(ref)}, which is not in this content`,
          );
        return href;
      },
    });
  }
  if (Buffer.byteLength(markdown, 'utf8') > MAX_MARKDOWN_BYTES) {
    throw invalidField(
      `${field}.markdown`,
      `is over the ${MAX_MARKDOWN_BYTES / 1024} KiB a page may hold; split the page`,
    );
  }
  return markdown;
}

function decodeBase64(value: string, field: string): Buffer {
  const clean = value.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) {
    throw invalidField(field, 'is not valid base64');
  }
  const data = Buffer.from(clean, 'base64');
  if (data.length > MAX_FILE_BYTES)
    throw invalidField(field, `decodes to more than ${MAX_FILE_BYTES / 1024 / 1024} MiB`);
  return data;
}

async function treeOf(tx: Tx, revisionId: string, spaceId?: string, field?: string): Promise<string> {
  const treeHash = await findTreeHash(tx, revisionId, spaceId);
  if (treeHash === undefined) {
    if (field) throw invalidField(field, `"${revisionId}" is not a revision of this space`);
    throw new ApiError(500, `revision ${revisionId} is missing`);
  }
  return treeHash;
}
