import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorize.js';
import { emptyDocument, type JsonDocument } from '../../content/document-schema.js';
import { validateDocument } from '../../content/validate-document.js';
import type { Db, Tx } from '../../db/database.js';
import { type Page, paginate } from '../../db/keyset.js';
import type { TranslationsTable } from '../../db/tables.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import type { Deps } from '../../deps.js';
import { ApiError, conflict, invalidField, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { HeadMoved } from '../spaces/service.js';
import type { CreateTranslationBody, ListTranslationsQuery } from './schemas.js';

export const RUN_JOB = 'translations.run';
/** A run that fails (the service down for long) is tried this many times, with backoff. */
export const RUN_ATTEMPTS = 3;

export interface TranslationsNeeds {
  authz: Pick<Authorizer, 'org' | 'space'>;
  jobs: Pick<JobQueue, 'enqueue'>;
}

/**
 * Translations (API.md 4.10): a source space kept translated into another language, in a space
 * of its own that runs write (run.ts). Organization admins only: other members are answered 403,
 * everyone else 404. One translation per source space and language.
 */
export class TranslationsService {
  constructor(
    private readonly deps: Deps,
    private readonly needs: TranslationsNeeds,
  ) {}

  async list(actor: Actor, orgId: string, query: ListTranslationsQuery): Promise<Page<TranslationsTable>> {
    await this.needs.authz.org(actor, orgId, 'admin');
    const q = this.deps.db.selectFrom('translations').selectAll().where('org_id', '=', orgId);
    return paginate(
      this.deps.db,
      q,
      [
        { ref: 'created_at', dir: 'asc', value: (r) => r.created_at },
        { ref: 'id', dir: 'asc', value: (r) => r.id },
      ],
      query,
      'translations',
    );
  }

  async get(actor: Actor, orgId: string, id: string): Promise<TranslationsTable> {
    await this.needs.authz.org(actor, orgId, 'admin');
    return this.require(this.deps.db, orgId, id);
  }

  async create(actor: Actor, orgId: string, body: CreateTranslationBody): Promise<TranslationsTable> {
    await this.needs.authz.org(actor, orgId, 'admin');
    const source = await this.sourceSpace(actor, orgId, body.source.space);
    if (body.language === body.source.language) {
      throw invalidField('body.language', `must differ from the source language (${body.source.language})`);
    }
    const instructions = body.instructions ?? emptyDocument();
    validateDocument(instructions, 'body.instructions');
    const now = this.deps.clock.now().toISOString();
    const row: TranslationsTable = {
      id: newId(),
      org_id: orgId,
      source_space_id: source,
      source_language: body.source.language,
      language: body.language,
      instructions: JSON.stringify(instructions satisfies JsonDocument),
      status: 'pending',
      target_space_id: null,
      result_revision_id: null,
      source_revision_id: null,
      settings_digest: null,
      runs: 0,
      total_words: 0,
      total_pages: 0,
      total_duration: 0,
      latest_run_duration: 0,
      latest_pages: 0,
      latest_words: 0,
      last_error: null,
      run_wanted: 0,
      created_by: actor.userId,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.deps.db.insertInto('translations').values(row).execute();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw conflict(
        `Space "${source}" already has a translation into "${body.language}": update or run that one`,
      );
    }
    return row;
  }

  async update(actor: Actor, orgId: string, id: string, instructions: unknown): Promise<TranslationsTable> {
    await this.needs.authz.org(actor, orgId, 'admin');
    validateDocument(instructions, 'body.instructions');
    await this.require(this.deps.db, orgId, id);
    const updated_at = this.deps.clock.now().toISOString();
    await this.deps.db
      .updateTable('translations')
      .set({ instructions: JSON.stringify(instructions), updated_at })
      .where('id', '=', id)
      .execute();
    return this.require(this.deps.db, orgId, id);
  }

  /** Deletes the translation; its space stays (it is ordinary content now). 204 either way. */
  async delete(actor: Actor, orgId: string, id: string): Promise<void> {
    await this.needs.authz.org(actor, orgId, 'admin');
    await this.deps.db.transaction().execute(async (tx) => {
      const gone = await tx
        .deleteFrom('translations')
        .where('id', '=', id)
        .where('org_id', '=', orgId)
        .returning('id')
        .execute();
      if (gone.length > 0)
        await tx.deleteFrom('translation_pages').where('translation_id', '=', id).execute();
    });
  }

  /**
   * Asks for a run (`runTranslation`). Without a configured service nothing can run: the call
   * still answers 204 (the contract has nothing else) and the reason is logged.
   */
  async run(actor: Actor, orgId: string, id: string): Promise<void> {
    await this.needs.authz.org(actor, orgId, 'admin');
    await this.require(this.deps.db, orgId, id);
    if (!this.deps.config.translation) {
      this.deps.log.error(
        { translation: id },
        'translation not run: no translation service is configured (set QUIRE_TRANSLATION_PROVIDER; see the README)',
      );
      return;
    }
    await this.deps.db.transaction().execute((tx) => this.want(tx, id, new Date(this.deps.clock.now())));
  }

  /** A merge into a translated space runs its translations after the debounce (merges in between join). */
  readonly headMoved = async (tx: Tx, moved: HeadMoved): Promise<void> => {
    if (!this.deps.config.translation) return;
    const rows = await tx
      .selectFrom('translations')
      .select('id')
      .where('source_space_id', '=', moved.spaceId)
      .execute();
    const at = new Date(this.deps.clock.now().getTime() + this.deps.config.translationDebounceMs);
    for (const { id } of rows) await this.want(tx, id, at);
  };

  /**
   * One run at a time per translation: a run is queued unless one is queued already; asked for
   * during a run, it is marked wanted and the running one queues it when it ends (run.ts).
   */
  async want(tx: Tx, id: string, at: Date): Promise<void> {
    let query = tx.selectFrom('translations').select(['status', 'run_wanted']).where('id', '=', id);
    if (this.deps.dialect === 'postgres') query = query.forUpdate();
    const row = await query.executeTakeFirst();
    if (!row || row.run_wanted === 1) return;
    await tx
      .updateTable('translations')
      .set({ run_wanted: 1, ...(row.status === 'running' ? {} : { status: 'pending' }) })
      .where('id', '=', id)
      .execute();
    if (row.status !== 'running') {
      await this.needs.jobs.enqueue(
        RUN_JOB,
        { translationId: id },
        { tx, runAt: at, maxAttempts: RUN_ATTEMPTS },
      );
    }
  }

  private async require(db: Db | Tx, orgId: string, id: string): Promise<TranslationsTable> {
    const row = await db
      .selectFrom('translations')
      .selectAll()
      .where('id', '=', id)
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    if (!row) throw notFound(`Translation "${id}" not found`);
    return row;
  }

  /** A live space of the organization that the caller can read; 400 naming the field otherwise. */
  private async sourceSpace(actor: Actor, orgId: string, spaceId: string): Promise<string> {
    try {
      const { space } = await this.needs.authz.space(actor, spaceId, 'view');
      if (space.org_id === orgId) return space.id;
    } catch (error) {
      // Unknown, deleted, or not the caller's: all said the same way below.
      if (!(error instanceof ApiError)) throw error;
    }
    throw invalidField(
      'body.source.space',
      `"${spaceId}" is not a space of this organization that you can read`,
    );
  }
}
