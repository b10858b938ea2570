import { createHash } from 'node:crypto';
import type { Actor } from '../../auth/actor.js';
import type { JsonDocument } from '../../content/document-schema.js';
import { documentToMarkdown, markdownToDocument } from '../../content/markdown/index.js';
import { insertRevision, revisionTreeHash } from '../../content/revisions.js';
import type { ContentStore, Snapshot } from '../../content/store.js';
import type { PageNode, ReusableContentNode, RevisionContent } from '../../content/tree.js';
import type { Tx } from '../../db/database.js';
import type { TranslationPagesTable, TranslationsTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import type { JobContext, JobQueue } from '../../jobs/queue.js';
import { escapeText, unescapeText } from '../../translations/placeholders.js';
import type { TranslationProvider } from '../../translations/providers/provider.js';
import {
  applyTranslations,
  countWords,
  placeholderProblem,
  segmentsOf,
} from '../../translations/segments.js';
import { type SegmentOutcome, translateSegments } from '../../translations/translate-segments.js';
import type { LinkIndex } from '../content/link-index.js';
import type { SpacesService } from '../spaces/service.js';
import type { UsersService } from '../users/service.js';
import { RUN_ATTEMPTS, RUN_JOB, type TranslationsService } from './service.js';

export interface RunNeeds {
  jobs: Pick<JobQueue, 'register' | 'enqueue'>;
  store: Pick<ContentStore, 'snapshot' | 'diff' | 'readBodies' | 'putBodies' | 'writeTree'>;
  links: Pick<LinkIndex, 'reindex'>;
  spaces: Pick<SpacesService, 'headOf' | 'lockRow' | 'moveHead' | 'create' | 'find'>;
  users: Pick<UsersService, 'rows'>;
  translations: Pick<TranslationsService, 'want'>;
  /** The configured service; undefined when none is. */
  provider: TranslationProvider | undefined;
}

/** What one run did: the translation's stats, its log line, and benchmarks. */
export interface RunCounts {
  pages: number;
  words: number;
  /** Pages whose translation failed this run (they kept their previous text). */
  failed: string[];
  /** Segments sent to the service, in how many requests, and the time spent waiting for it. */
  segmentsSent: number;
  requests: number;
  serviceMs: number;
  /** The whole run, from its start to its revision. */
  totalMs: number;
}

/** Reusable contents go through a run as pages with this prefix to their id. */
const REUSABLE = 'reusable:';

/** A reusable content as a page to translate: its body only (its title is a name for writers). */
function asPage(key: string, node: ReusableContentNode): PageNode {
  return {
    id: key,
    type: 'document',
    parent: null,
    order: 0,
    title: '',
    slug: '',
    body: node.body,
    createdAt: '',
    updatedAt: '',
  };
}

/** The pages and files a run looks at (see TranslationRunner.scope). */
interface Scope {
  pages: Set<string>;
  files: Set<string>;
}

/** A page's texts: its title, description and sidebar title, then its body's segments. */
interface PageTexts {
  id: string;
  fields: Array<'title' | 'description' | 'linkTitle'>;
  document: JsonDocument | undefined;
  segments: string[];
}

/**
 * A translation run: the source space's current content made one new revision of the target
 * space, translating only the pages whose text changed since the last run (each page's source
 * digest is kept), and within those only the segments the translation memory does not know. The
 * target keeps the source's page ids, slugs and tree, so links and a site's language variants
 * line up. Everything the service is asked is read and checked before the one transaction that
 * writes the revision; a run that fails writes nothing, and what it translated is remembered.
 */
export class TranslationRunner {
  /** What the latest run in this process did (its log line says the same). */
  lastRun: RunCounts | undefined;

  constructor(
    private readonly deps: Deps,
    private readonly needs: RunNeeds,
  ) {}

  registerJobs(): void {
    this.needs.jobs.register(
      RUN_JOB,
      async (payload, context) => {
        await this.run((payload as { translationId: string }).translationId, context);
      },
      {
        maxAttempts: RUN_ATTEMPTS,
        // The server stopped during the last try: say so, and let a wanted run go on.
        onLost: async (payload) => {
          await this.finishFailed(
            (payload as { translationId: string }).translationId,
            'the server stopped during the run',
          );
        },
      },
    );
  }

  async run(translationId: string, context: JobContext): Promise<void> {
    const { db } = this.deps;
    const row = await db
      .selectFrom('translations')
      .selectAll()
      .where('id', '=', translationId)
      .executeTakeFirst();
    if (!row) return;
    const provider = this.needs.provider;
    if (!provider) {
      await this.finishFailed(translationId, 'no translation service is configured');
      return;
    }
    const started = performance.now();
    await db
      .updateTable('translations')
      .set({ status: 'running', run_wanted: 0 })
      .where('id', '=', translationId)
      .execute();
    const log = this.deps.log.child({ translation: translationId });
    try {
      const { snapshot: source, revisionId: sourceRevision } = await this.sourceSnapshot(row);
      const target = await this.targetSpace(row);
      const base = await this.snapshotOfSpace(target.id);
      const instructions = instructionsText(row.instructions);
      const salt = digest([row.org_id, row.source_language, row.language, provider.name, instructions]);
      const scope = await this.scope(row, source, target, salt);
      const reusableKeys = [...source.content.reusableContents.keys()].map((id) => REUSABLE + id);
      const kept = await this.keptPages(row.id, scope && new Set([...scope.pages, ...reusableKeys]));
      const digests = new Map<string, string>();
      const todo: PageNode[] = [];
      const candidates = scope
        ? [...scope.pages].flatMap((id) => source.content.pages.get(id) ?? [])
        : source.content.pages.values();
      for (const page of candidates) {
        const pageDigest = digest([
          salt,
          page.title,
          page.description ?? '',
          page.linkTitle ?? '',
          page.body ?? '',
        ]);
        digests.set(page.id, pageDigest);
        const before = kept.get(page.id);
        if (
          !before ||
          before.source_digest !== pageDigest ||
          before.failed === 1 ||
          !base.content.pages.has(page.id)
        )
          todo.push(page);
      }
      // Reusable contents (GitBook's includes) are translated as pages are; a space has few.
      for (const node of source.content.reusableContents.values()) {
        const key = REUSABLE + node.id;
        const nodeDigest = digest([salt, 'reusable', node.body ?? '']);
        digests.set(key, nodeDigest);
        const before = kept.get(key);
        if (
          !before ||
          before.source_digest !== nodeDigest ||
          before.failed === 1 ||
          !base.content.reusableContents.has(node.id)
        )
          todo.push(asPage(key, node));
      }
      // Only the pages to translate are read and parsed: the rest of the space costs a digest each.
      const sourceBodies = await this.needs.store.readBodies(
        db,
        todo.flatMap((p) => (p.body ? [p.body] : [])),
      );
      const texts = todo.map((page) => pageTexts(page, page.body ? sourceBodies.get(page.body) : undefined));
      const counts: RunCounts = {
        totalMs: 0,
        pages: 0,
        words: 0,
        failed: [],
        segmentsSent: 0,
        requests: 0,
        serviceMs: 0,
      };
      const translated = await this.translate(provider, row, salt, texts, counts, instructions);
      if (context.signal.aborted) return;
      await this.write(
        row,
        { source, sourceRevision, salt, scope },
        target.id,
        todo,
        texts,
        translated,
        { digests, kept },
        counts,
        started,
      );
      counts.totalMs = performance.now() - started;
      this.lastRun = counts;
      log.info(
        {
          pages: counts.pages,
          words: counts.words,
          failed: counts.failed.length,
          segmentsSent: counts.segmentsSent,
          requests: counts.requests,
          serviceMs: Math.round(counts.serviceMs),
          ms: Math.round(counts.totalMs),
        },
        'translation run done',
      );
    } catch (error) {
      log.error({ err: error }, 'translation run failed');
      if (context.attempt >= RUN_ATTEMPTS) {
        await this.finishFailed(translationId, (error as Error).message);
        return;
      }
      // The queue tries this run again after a backoff: until then a run is queued, as for want().
      await db
        .updateTable('translations')
        .set({ status: 'pending', run_wanted: 1, last_error: (error as Error).message })
        .where('id', '=', translationId)
        .execute();
      throw error;
    }
  }

  /** Translations of each page's segments (undefined for a page that failed), memory first. */
  private async translate(
    provider: TranslationProvider,
    row: TranslationsTable,
    salt: string,
    pages: PageTexts[],
    counts: RunCounts,
    instructions: string,
  ): Promise<Array<string[] | undefined>> {
    const { db } = this.deps;
    const keyOf = (segment: string) => digest([salt, segment]);
    const wanted = [...new Set(pages.flatMap((p) => p.segments))];
    const memory = new Map<string, string>();
    for (let i = 0; i < wanted.length; i += 500) {
      const keys = wanted.slice(i, i + 500).map(keyOf);
      const rows = await db
        .selectFrom('translation_memory')
        .selectAll()
        .where('digest', 'in', keys)
        .execute();
      for (const r of rows) memory.set(r.digest, r.text);
    }
    const missing = wanted.filter((segment) => !memory.has(keyOf(segment)));
    const problems = new Map<string, string>();
    const keep = async (done: Array<[number, SegmentOutcome]>) => {
      const now = this.deps.clock.now().toISOString();
      const fresh: Array<{ digest: string; text: string; created_at: string }> = [];
      for (const [index, outcome] of done) {
        const segment = missing[index]!;
        counts.words += countWords(segment, row.source_language);
        if (outcome.text === undefined) problems.set(segment, outcome.problem ?? 'no translation');
        else {
          memory.set(keyOf(segment), outcome.text);
          fresh.push({ digest: keyOf(segment), text: outcome.text, created_at: now });
        }
      }
      if (fresh.length === 0) return;
      await db
        .insertInto('translation_memory')
        .values(fresh)
        .onConflict((oc) => oc.column('digest').doNothing())
        .execute();
    };
    await translateSegments(
      provider,
      { source: row.source_language, target: row.language, ...(instructions ? { instructions } : {}) },
      missing,
      {
        check: placeholderProblem,
        onBatch: keep,
        onRequest: (segments, ms) => {
          counts.segmentsSent += segments;
          counts.requests++;
          counts.serviceMs += ms;
        },
      },
    );
    return pages.map((page) => {
      if (page.segments.some((segment) => problems.has(segment))) return undefined;
      return page.segments.map((segment) => memory.get(keyOf(segment))!);
    });
  }

  private async write(
    row: TranslationsTable,
    {
      source,
      sourceRevision,
      salt,
      scope,
    }: { source: Snapshot; sourceRevision: string; salt: string; scope: Scope | undefined },
    targetSpaceId: string,
    todo: PageNode[],
    todoTexts: PageTexts[],
    translated: Array<string[] | undefined>,
    recorded: { digests: Map<string, string>; kept: Map<string, TranslationPagesTable> },
    counts: RunCounts,
    started: number,
  ): Promise<void> {
    const { db } = this.deps;
    // The translated pages, built before the transaction (parsing and writing markdown is the slow part).
    const built = new Map<string, { node: PageNode; markdown: string | undefined }>();
    todo.forEach((page, i) => {
      const texts = todoTexts[i]!;
      const result = translated[i];
      if (!result) {
        counts.failed.push(page.id);
        return;
      }
      try {
        const node: PageNode = { ...page };
        texts.fields.forEach((field, at) => {
          node[field] = plainText(result[at]!);
        });
        let markdown: string | undefined;
        if (texts.document) {
          const document = applyTranslations(texts.document, result.slice(texts.fields.length));
          markdown = documentToMarkdown(document);
        }
        built.set(page.id, { node, markdown });
        if (!page.id.startsWith(REUSABLE)) counts.pages++;
      } catch (error) {
        this.deps.log.warn({ err: error, page: page.id }, 'a translated page could not be rebuilt');
        counts.failed.push(page.id);
      }
    });

    await db.transaction().execute(async (tx) => {
      const space = await this.needs.spaces.lockRow(tx, targetSpaceId);
      if (!space || space.deleted_at) throw new Error('the translation space was deleted during the run');
      const base = await this.snapshotAt(tx, space.revision_id);
      const markdowns = [...built.values()].flatMap((b) => (b.markdown === undefined ? [] : [b.markdown]));
      const hashes = markdowns.length ? await this.needs.store.putBodies(tx, markdowns) : [];
      let h = 0;
      for (const entry of built.values()) if (entry.markdown !== undefined) entry.node.body = hashes[h++]!;

      // Unchanged or failed: the structure follows the source, the texts stay as translated before.
      const nodeFor = (page: PageNode): PageNode => {
        const fresh = built.get(page.id)?.node;
        const previous = base.content.pages.get(page.id);
        const node: PageNode = fresh ?? {
          ...page,
          ...(previous
            ? {
                title: previous.title,
                ...(previous.description !== undefined ? { description: previous.description } : {}),
                ...(previous.linkTitle !== undefined ? { linkTitle: previous.linkTitle } : {}),
                body: previous.body ?? null,
              }
            : {}),
        };
        delete node.fileHead;
        delete node.git;
        return node;
      };
      // A first run (or one after the settings changed) lays out every page; later ones start
      // from the target as it is and touch only the pages the source changed.
      const pages = scope ? new Map(base.content.pages) : new Map<string, PageNode>();
      const looked = scope
        ? scope.pages
        : new Set([...source.content.pages.keys(), ...base.content.pages.keys()]);
      if (scope) {
        for (const id of scope.pages) {
          const page = source.content.pages.get(id);
          if (page) pages.set(id, nodeFor(page));
          else pages.delete(id);
        }
      } else {
        for (const page of source.content.pages.values()) pages.set(page.id, nodeFor(page));
      }
      // Reusable contents: translated now, else as translated before, else as in the source.
      const reusableContents = new Map<string, ReusableContentNode>();
      for (const node of source.content.reusableContents.values()) {
        const fresh = built.get(REUSABLE + node.id)?.node;
        const previous = base.content.reusableContents.get(node.id);
        const { git: _git, fileHead: _head, ...rest } = node;
        const body = fresh ? (fresh.body ?? null) : previous ? previous.body : node.body;
        reusableContents.set(node.id, { ...rest, body });
      }
      const content: RevisionContent = {
        pages,
        files: source.content.files,
        reusableContents,
        variables: source.content.variables,
      };
      const changedPages = new Set<string>();
      for (const id of looked) {
        const old = base.content.pages.get(id);
        const node = pages.get(id);
        if (!old !== !node || (node && JSON.stringify(old) !== JSON.stringify(node))) changedPages.add(id);
      }
      const changedFiles = new Set<string>();
      const lookedFiles = scope
        ? scope.files
        : new Set([...content.files.keys(), ...base.content.files.keys()]);
      for (const id of lookedFiles) {
        if (base.content.files.get(id)?.blob !== content.files.get(id)?.blob) changedFiles.add(id);
      }
      const now = this.deps.clock.now().toISOString();
      let revisionId = space.revision_id;
      const sameRest =
        JSON.stringify([...base.content.reusableContents.values()]) ===
          JSON.stringify([...content.reusableContents.values()]) &&
        JSON.stringify(base.content.variables) === JSON.stringify(content.variables);
      if (changedPages.size > 0 || changedFiles.size > 0 || !sameRest || base.content.repository) {
        const treeHash = await this.needs.store.writeTree(tx, base, content, {
          pages: changedPages,
          files: changedFiles,
          reusable: !sameRest,
          variables: !sameRest,
        });
        const revision = await insertRevision(tx, {
          spaceId: targetSpaceId,
          treeHash,
          parents: space.revision_id ? [space.revision_id] : [],
          type: 'edits',
          createdBy: null,
          createdAt: now,
        });
        revisionId = revision.id;
        await this.needs.spaces.moveHead(tx, { spaceId: targetSpaceId, revisionId, by: null }, now);
        // Backlinks and broken-link reports of the translated pages, as after a merge.
        await this.needs.links.reindex(tx, targetSpaceId, content, changedPages);
      }
      await this.recordPages(tx, row.id, recorded, todo, new Set(counts.failed));
      const seconds = Math.round((performance.now() - started) / 1000);
      const translatedPages = await tx
        .selectFrom('translation_pages')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('translation_id', '=', row.id)
        .where('failed', '=', 0)
        .executeTakeFirst();
      const current = await tx
        .selectFrom('translations')
        .select(['run_wanted', 'runs', 'total_words', 'total_duration'])
        .where('id', '=', row.id)
        .executeTakeFirst();
      if (!current) return; // deleted during the run: its space stays, as after any delete
      await tx
        .updateTable('translations')
        .set({
          status: 'completed',
          target_space_id: targetSpaceId,
          result_revision_id: revisionId,
          source_revision_id: sourceRevision,
          settings_digest: salt,
          runs: current.runs + 1,
          total_words: current.total_words + counts.words,
          total_pages: Number(translatedPages?.n ?? 0),
          total_duration: current.total_duration + seconds,
          latest_run_duration: seconds,
          latest_pages: counts.pages,
          latest_words: counts.words,
          last_error: counts.failed.length
            ? `${counts.failed.length} page(s) kept their previous text: ${counts.failed.slice(0, 20).join(', ')}`
            : null,
          updated_at: now,
        })
        .where('id', '=', row.id)
        .execute();
      if (current.run_wanted === 1) await this.requeue(tx, row.id);
    });
  }

  /**
   * What a run needs to look at: undefined (every page) for a first run, a new target, or new
   * settings; otherwise the pages and files the source changed since the revision the result was
   * made from (found by walking only the parts of the two trees that differ), and the pages that
   * failed last time.
   */
  private async scope(
    row: TranslationsTable,
    source: Snapshot,
    target: { id: string; created: boolean },
    salt: string,
  ): Promise<Scope | undefined> {
    if (target.created || !row.source_revision_id || row.settings_digest !== salt) return undefined;
    const { db } = this.deps;
    const previous = await this.snapshotAt(db, row.source_revision_id);
    const diff = await this.needs.store.diff(db, previous, source);
    const failed = await db
      .selectFrom('translation_pages')
      .select('page_id')
      .where('translation_id', '=', row.id)
      .where('failed', '=', 1)
      .execute();
    return { pages: new Set([...diff.pages, ...failed.map((r) => r.page_id)]), files: diff.files };
  }

  /** What the pages in `ids` (every page when undefined) were translated from. */
  private async keptPages(
    translationId: string,
    ids: Set<string> | undefined,
  ): Promise<Map<string, TranslationPagesTable>> {
    const { db } = this.deps;
    const query = db.selectFrom('translation_pages').selectAll().where('translation_id', '=', translationId);
    if (!ids) return new Map((await query.execute()).map((r) => [r.page_id, r]));
    const found = new Map<string, TranslationPagesTable>();
    const list = [...ids];
    for (let i = 0; i < list.length; i += 500) {
      for (const r of await query.where('page_id', 'in', list.slice(i, i + 500)).execute())
        found.set(r.page_id, r);
    }
    return found;
  }

  /**
   * The digest each translated page was translated from (only the pages this run took up); pages
   * gone from the source are forgotten.
   */
  private async recordPages(
    tx: Tx,
    translationId: string,
    { digests, kept }: { digests: Map<string, string>; kept: Map<string, TranslationPagesTable> },
    todo: PageNode[],
    failed: Set<string>,
  ) {
    const gone = [...kept.keys()].filter((id) => !digests.has(id));
    for (let i = 0; i < gone.length; i += 500) {
      await tx
        .deleteFrom('translation_pages')
        .where('translation_id', '=', translationId)
        .where('page_id', 'in', gone.slice(i, i + 500))
        .execute();
    }
    const rows = todo.map((page) => ({
      translation_id: translationId,
      page_id: page.id,
      source_digest: digests.get(page.id)!,
      failed: failed.has(page.id) ? 1 : 0,
    }));
    for (let i = 0; i < rows.length; i += 200) {
      await tx
        .insertInto('translation_pages')
        .values(rows.slice(i, i + 200))
        .onConflict((oc) =>
          oc.columns(['translation_id', 'page_id']).doUpdateSet((eb) => ({
            source_digest: eb.ref('excluded.source_digest'),
            failed: eb.ref('excluded.failed'),
          })),
        )
        .execute();
    }
  }

  /** A run asked for while this one went: queued now, for the content that came meanwhile. */
  private async requeue(tx: Tx, id: string): Promise<void> {
    await tx
      .updateTable('translations')
      .set({ run_wanted: 0, status: 'completed' })
      .where('id', '=', id)
      .execute();
    await this.needs.translations.want(tx, id, new Date(this.deps.clock.now()));
  }

  /** The run ended without a revision: the translation is as before, with the reason kept. */
  private async finishFailed(id: string, reason: string): Promise<void> {
    this.deps.log.error({ translation: id, reason }, 'translation run failed');
    await this.deps.db.transaction().execute(async (tx) => {
      const row = await tx
        .selectFrom('translations')
        .select(['run_wanted', 'runs'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return;
      await tx
        .updateTable('translations')
        .set({ status: row.runs > 0 ? 'completed' : 'pending', last_error: reason, run_wanted: 0 })
        .where('id', '=', id)
        .execute();
    });
  }

  private async sourceSnapshot(row: TranslationsTable): Promise<{ snapshot: Snapshot; revisionId: string }> {
    const space = await this.needs.spaces.find(row.source_space_id);
    if (!space || space.deleted_at) throw new Error('the source space was deleted');
    return {
      snapshot: await this.snapshotAt(this.deps.db, space.revision_id),
      revisionId: space.revision_id,
    };
  }

  private async snapshotOfSpace(spaceId: string): Promise<Snapshot> {
    const head = await this.needs.spaces.headOf(this.deps.db, spaceId);
    return this.snapshotAt(this.deps.db, head!);
  }

  private async snapshotAt(db: Tx | Deps['db'], revisionId: string): Promise<Snapshot> {
    return this.needs.store.snapshot(db, await revisionTreeHash(db, revisionId));
  }

  /**
   * The space the translation writes: made on the first run (and again if it was deleted) next
   * to the source, in the target language, by the person who set the translation up.
   */
  private async targetSpace(row: TranslationsTable): Promise<{ id: string; created: boolean }> {
    if (row.target_space_id) {
      const existing = await this.needs.spaces.find(row.target_space_id);
      if (existing && !existing.deleted_at) return { id: existing.id, created: false };
    }
    const source = await this.needs.spaces.find(row.source_space_id);
    const [creator] = await this.needs.users.rows([row.created_by]);
    if (!source || !creator)
      throw new Error('the source space or the person who set the translation up is gone');
    const actor: Actor = { userId: creator.id, tokenId: `translation:${row.id}`, email: creator.email };
    const created = await this.needs.spaces.create(actor, row.org_id, {
      title: `${source.title} (${row.language})`.slice(0, 100),
      language: row.language as never,
      ...(source.parent_id ? { parent: source.parent_id } : {}),
    });
    await this.deps.db
      .updateTable('translations')
      .set({ target_space_id: created.row.id })
      .where('id', '=', row.id)
      .execute();
    return { id: created.row.id, created: true };
  }
}

function digest(parts: string[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** The instructions document as text for the translator (its paragraphs, one per line). */
function instructionsText(json: string): string {
  const lines: string[] = [];
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const n = node as { object?: string; leaves?: Array<{ text: string }>; nodes?: unknown[]; type?: string };
    if (n.object === 'text') {
      lines.push((n.leaves ?? []).map((l) => l.text).join(''));
      return;
    }
    for (const child of n.nodes ?? []) walk(child);
  };
  walk(JSON.parse(json));
  return lines
    .filter((l) => l.trim())
    .join('\n')
    .slice(0, 4000);
}

/** Plain texts (titles) go to the service as segments too, escaped like segment text. */
const plainText = (segment: string) => unescapeText(segment.replace(/<[^>]*>/g, '')).trim();

function pageTexts(page: PageNode, markdown: string | undefined): PageTexts {
  const fields: PageTexts['fields'] = [];
  const segments: string[] = [];
  for (const field of ['title', 'description', 'linkTitle'] as const) {
    const value = page[field];
    if (value && /\p{L}/u.test(value)) {
      fields.push(field);
      segments.push(escapeText(value));
    }
  }
  const document = markdown ? markdownToDocument(markdown, { profile: 'v0202' }) : undefined;
  if (document) for (const segment of segmentsOf(document)) segments.push(segment.text);
  return { id: page.id, fields, document, segments };
}
