import { createHash } from 'node:crypto';
import type { Actor } from '../../auth/actor.js';
import type { PdfPrinter } from '../../browser/pdf-printer.js';
import type { BlobStore } from '../../content/blob-store.js';
import type { SpacesTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { ApiError, invalidField, notFound } from '../../errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import {
  buildPrintBook,
  type PrintBookNeeds,
  type PrintCover,
  selectPages,
} from '../../publish/print-book.js';
import { SITE_ASSETS } from '../../publish/render/assets.js';
import { renderPrintBook } from '../../publish/render/print-html.js';
import { VERSION } from '../../version.js';
import { servedType } from '../change-requests/file-facts.js';
import type { ChangeRequestsService } from '../change-requests/service.js';
import type { ContentService, OpenContent } from '../content/service.js';
import type { UsersService } from '../users/service.js';
import { type PrintGrant, signPrintGrant, verifyPrintGrant } from './print-token.js';
import type { PdfQuery } from './schemas.js';

export interface PdfNeeds extends PrintBookNeeds {
  changeRequests: Pick<ChangeRequestsService, 'access'>;
  content: PrintBookNeeds['content'] & Pick<ContentService, 'open' | 'openAt'>;
  users: Pick<UsersService, 'byIds'>;
  jobs: Pick<JobQueue, 'register' | 'enqueue' | 'get'>;
  blobs: Pick<BlobStore, 'put' | 'get'>;
  /** Undefined when there is no browser to print with: print URLs lead to the print HTML. */
  printer: Pick<PdfPrinter, 'print'> | undefined;
  /** The key print URLs are signed with. */
  signingKey: () => Uint8Array;
}

/** A print URL, opened: what it prints, as of now. */
interface PrintTarget {
  space: SpacesTable;
  revisionId: string;
  selection: { page?: string | undefined; only: boolean };
  cover: PrintCover;
  /** Names the PDF of exactly this print (revision, selection, title page, renderer). */
  key: string;
  /** For the PDF's file name. */
  fileName: string;
}

interface RenderPayload {
  key: string;
  spaceId: string;
  revisionId: string;
  selection: PrintTarget['selection'];
  cover: PrintCover;
}

export const RENDER_JOB = 'pdf.render';
/** Bumped when the book's layout changes, so PDFs printed before are not served again. */
const BOOK_FORMAT = 1;
/** How often a request waiting for its PDF looks whether it is there. */
const WAIT_POLL_MS = 150;
/** Beyond the print's own time limit, how long a request waits for its turn in the queue. */
const QUEUE_WAIT_MS = 60_000;

export type PdfAnswer =
  | { kind: 'pdf'; body: Buffer; fileName: string }
  | { kind: 'html'; location: string }
  /** Still printing (or waiting for its turn) when the request stopped waiting. */
  | { kind: 'busy' };

/**
 * Change requests and spaces printed (API.md 4.4, `getChangeRequestPDF` and `getSpacePDF`).
 * The API answers a signed URL valid for an hour (print-token.ts). The URL serves the printed
 * book: as PDF when a Chromium is available (printed by a job, one at a time, and kept by
 * revision in the blob store), else as print-ready HTML, which the reader's browser prints.
 */
export class PdfService {
  constructor(
    private readonly deps: Deps,
    private readonly services: PdfNeeds,
  ) {}

  registerJobs(): void {
    this.services.jobs.register(RENDER_JOB, (payload) => this.render(payload as RenderPayload), {
      maxAttempts: 2,
    });
  }

  get canPrint(): boolean {
    return this.services.printer !== undefined;
  }

  /** A print URL for a change request's pages (by id or number) or the space's current pages. */
  async mint(
    actor: Actor,
    spaceId: string,
    changeRequest: string | undefined,
    query: PdfQuery,
  ): Promise<{ url: string }> {
    if (query.only === true && query.page === undefined)
      throw invalidField('query.only', 'needs query.page: it prints that page without its descendants');
    let changeRequestId: string | undefined;
    if (changeRequest !== undefined)
      changeRequestId = (await this.services.changeRequests.access(actor, spaceId, changeRequest, 'view')).cr
        .id;
    const open = await this.services.content.open(
      actor,
      spaceId,
      changeRequestId ? { kind: 'change-request', id: changeRequestId } : { kind: 'space' },
    );
    this.checkPage(open, query.page, changeRequestId !== undefined);
    const grant: PrintGrant = {
      kind: changeRequestId ? 'change-request' : 'space',
      spaceId,
      changeRequestId,
      page: query.page,
      only: query.only === true,
      userId: actor.userId,
    };
    const token = await signPrintGrant(grant, this.services.signingKey(), this.deps.clock.now());
    return { url: `${this.deps.config.publicUrl}/print/${token}.pdf` };
  }

  /** The print-ready HTML of a print URL. */
  async html(token: string): Promise<string> {
    const target = await this.target(token);
    const open = await this.services.content.openAt(target.space, target.revisionId);
    return renderPrintBook(await this.book(open, target.cover, target.selection));
  }

  /**
   * The PDF of a print URL: from the cache, or printed now (the request waits for its turn);
   * without a browser, or when printing failed, the address of the print HTML instead.
   */
  async pdf(token: string): Promise<PdfAnswer> {
    const target = await this.target(token);
    const htmlAnswer: PdfAnswer = { kind: 'html', location: `/print/${token}` };
    if (!this.services.printer) return htmlAnswer;
    const cached = await this.cached(target.key);
    if (cached) return { kind: 'pdf', body: cached, fileName: target.fileName };
    const payload: RenderPayload = {
      key: target.key,
      spaceId: target.space.id,
      revisionId: target.revisionId,
      selection: target.selection,
      cover: target.cover,
    };
    const jobId = await this.services.jobs.enqueue(RENDER_JOB, payload);
    const deadline = Date.now() + this.deps.config.pdf.timeoutMs + QUEUE_WAIT_MS;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
      const body = await this.cached(target.key);
      if (body) return { kind: 'pdf', body, fileName: target.fileName };
      const job = await this.services.jobs.get(jobId);
      if (!job || job.status === 'failed') {
        this.deps.log.warn(
          { jobId, error: job?.last_error },
          'printing a PDF failed; the print URL answers with the print HTML',
        );
        return htmlAnswer;
      }
    }
    return { kind: 'busy' };
  }

  private async render(payload: RenderPayload): Promise<void> {
    if (await this.cached(payload.key)) return;
    const space = await this.deps.db
      .selectFrom('spaces')
      .selectAll()
      .where('id', '=', payload.spaceId)
      .executeTakeFirst();
    if (!space) return;
    const started = Date.now();
    const open = await this.services.content.openAt(space, payload.revisionId);
    const book = await this.book(open, payload.cover, payload.selection);
    const { pdf, refused } = await this.services.printer!.print({
      html: renderPrintBook(book),
      title: book.title,
      timeoutMs: this.deps.config.pdf.timeoutMs,
      serve: (url) => this.ownFile(url),
    });
    if (refused.length > 0)
      this.deps.log.info(
        { refused: refused.slice(0, 20), count: refused.length },
        'requests refused while printing',
      );
    const { hash, size } = await this.services.blobs.put(pdf);
    await this.deps.db
      .insertInto('pdf_renders')
      .values({
        key: payload.key,
        space_id: space.id,
        revision_id: payload.revisionId,
        blob_hash: hash,
        size,
        pages: book.pages.length,
        render_ms: Date.now() - started,
        created_at: this.deps.clock.now().toISOString(),
      })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  }

  /**
   * What the printed page may load: the space's files, answered from the blob store (by their
   * URLs under this server's address). Everything else is refused.
   */
  private async ownFile(url: string): Promise<{ body: Buffer; contentType: string } | undefined> {
    const prefix = `${this.deps.config.publicUrl}/files/`;
    if (!url.startsWith(prefix)) return undefined;
    const [hash = '', name = ''] = url.slice(prefix.length).split('?')[0]!.split('/');
    if (!/^[0-9a-f]{64}$/.test(hash)) return undefined;
    const body = await this.services.blobs.get(hash);
    if (!body) return undefined;
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {}
    return { body, contentType: servedType(decoded) };
  }

  private book(open: OpenContent, cover: PrintCover, selection: PrintTarget['selection']) {
    return buildPrintBook(
      this.deps.db,
      this.services,
      this.deps.urls,
      open,
      cover,
      selection,
      this.deps.config.pdf.maxPages,
    );
  }

  private async cached(key: string): Promise<Buffer | undefined> {
    const row = await this.deps.db
      .selectFrom('pdf_renders')
      .select('blob_hash')
      .where('key', '=', key)
      .executeTakeFirst();
    return row ? this.services.blobs.get(row.blob_hash) : undefined;
  }

  /** A print URL's grant, checked, and what it prints now. */
  private async target(token: string): Promise<PrintTarget> {
    const check = await verifyPrintGrant(token, this.services.signingKey(), this.deps.clock.now());
    if (!check.ok) {
      if (check.expired) throw new ApiError(410, 'This print URL has expired: ask the API for a new one');
      throw notFound('There is no print at this URL');
    }
    const { grant } = check;
    const space = await this.deps.db
      .selectFrom('spaces')
      .selectAll()
      .where('id', '=', grant.spaceId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!space) throw notFound('There is no print at this URL: its space was deleted');
    const selection = { page: grant.page, only: grant.only };
    let revisionId = space.revision_id;
    let cover: PrintCover;
    let fileName: string;
    if (grant.kind === 'change-request') {
      const cr = await this.deps.db
        .selectFrom('change_requests')
        .selectAll()
        .where('id', '=', grant.changeRequestId!)
        .where('space_id', '=', space.id)
        .executeTakeFirst();
      if (!cr) throw notFound('There is no print at this URL: its change request is gone');
      revisionId = cr.revision;
      const author = (await this.services.users.byIds(this.deps.db, [cr.created_by])).get(cr.created_by);
      cover = {
        kicker: `Change request #${cr.number}`,
        title: cr.subject || 'Untitled change request',
        facts: [
          { label: 'Space', value: space.title || 'Untitled space' },
          { label: 'Author', value: author?.display_name ?? 'Unknown' },
          { label: 'Status', value: cr.status },
        ],
      };
      fileName = `change-request-${cr.number}`;
    } else {
      cover = { kicker: 'Space', title: space.title || 'Untitled space', facts: [] };
      fileName = slugOf(space.title) || 'space';
    }
    const open = await this.services.content.openAt(space, revisionId);
    this.checkPage(open, grant.page, grant.kind === 'change-request');
    if (grant.page) {
      const page = open.snapshot.content.pages.get(grant.page)!;
      cover.facts.push({
        label: 'Part',
        value: grant.only ? `${page.title} (this page only)` : `${page.title} and the pages under it`,
      });
    }
    cover.facts.push(
      { label: 'Revision', value: revisionId },
      { label: 'Content as of', value: open.revision.created_at.replace('T', ' ').slice(0, 16) + ' UTC' },
      { label: 'Pages', value: String(selectPages(open, selection).length) },
    );
    const key = createHash('sha256')
      .update(
        JSON.stringify([
          BOOK_FORMAT,
          VERSION,
          SITE_ASSETS.version,
          this.deps.config.pdf.maxPages,
          space.id,
          revisionId,
          selection,
          cover,
        ]),
      )
      .digest('hex');
    return { space, revisionId, selection, cover, key, fileName };
  }

  /** A selected page must be in the content printed; like any object not there, a 404. */
  private checkPage(open: OpenContent, page: string | undefined, changeRequest: boolean): void {
    if (page !== undefined && !open.snapshot.content.pages.has(page))
      throw notFound(
        `Page "${page}" is not in ${changeRequest ? "this change request's content" : "this space's content"}`,
      );
  }
}

function slugOf(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '-')
    .slice(0, 60);
}
