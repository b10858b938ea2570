import type { Actor } from '../../auth/actor.js';
import { pageOfList } from '../../db/keyset.js';
import type { PageLinksTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import type { ContentService, OpenContent } from './service.js';

export type LinkStatus = 'ok' | 'broken' | 'in-app';

/** One target and the pages that link to it. */
export interface LinkUsage {
  key: string;
  status: LinkStatus;
  target:
    | { kind: 'page'; pageId: string }
    | { kind: 'file'; fileId: string }
    | { kind: 'url'; url: string }
    | { kind: 'missing'; href: string };
  sources: string[];
}

export interface LinkPage {
  items: LinkUsage[];
  count: number;
  next?: { page: string };
  stats: { total: number; broken: { total: number; changeRequest: number } };
}

interface Request {
  page?: string | undefined;
  limit?: number | undefined;
  status?: LinkStatus | undefined;
}

/**
 * Reading the link index against the space's current content: a link is `ok` when its target
 * exists, `broken` when it does not, `in-app` when it is a URL into this server's app.
 */
export class LinksService {
  constructor(
    private readonly deps: Deps,
    private readonly services: { content: Pick<ContentService, 'open'> },
  ) {}

  async open(actor: Actor, spaceId: string): Promise<OpenContent> {
    return this.services.content.open(actor, spaceId, { kind: 'space' });
  }

  async usages(content: OpenContent, request: Request, fromPage?: string): Promise<LinkPage> {
    let query = this.deps.db.selectFrom('page_links').selectAll().where('space_id', '=', content.space.id);
    if (fromPage) query = query.where('page_id', '=', fromPage);
    const rows = await query.execute();
    const groups = new Map<string, LinkUsage>();
    for (const row of rows) {
      if (!content.snapshot.content.pages.has(row.page_id)) continue;
      const usage = this.resolve(content, row);
      const known = groups.get(usage.key);
      if (known) {
        if (!known.sources.includes(row.page_id)) known.sources.push(row.page_id);
      } else {
        groups.set(usage.key, usage);
      }
    }
    const all = [...groups.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const broken = all.filter((u) => u.status === 'broken').length;
    const filtered = request.status ? all.filter((u) => u.status === request.status) : all;
    const { items, count, next } = pageOfList(filtered, (u) => u.key, request, 'link-usages');
    return {
      items,
      count,
      ...(next ? { next } : {}),
      stats: { total: all.length, broken: { total: broken, changeRequest: 0 } },
    };
  }

  /** Pages whose links reach the page (by its path) or the file (by its name). */
  async backlinks(
    content: OpenContent,
    target: { pageId: string } | { fileId: string },
    request: Request,
  ): Promise<{ items: string[]; count: number; next?: { page: string } }> {
    const [kind, value] =
      'pageId' in target
        ? (['page', content.index.pathOf(target.pageId)] as const)
        : (['file', content.snapshot.content.files.get(target.fileId)?.name ?? ''] as const);
    const rows = await this.deps.db
      .selectFrom('page_links')
      .select('page_id')
      .distinct()
      .where('space_id', '=', content.space.id)
      .where('target_kind', '=', kind)
      .where('target', '=', value)
      .orderBy('page_id')
      .execute();
    const sources = rows.map((r) => r.page_id).filter((id) => content.snapshot.content.pages.has(id));
    return pageOfList(sources, (id) => id, request, 'backlinks');
  }

  private resolve(content: OpenContent, row: PageLinksTable): LinkUsage {
    const key = `${row.target_kind}:${row.target}${row.anchor ? `#${row.anchor}` : ''}`;
    const base = { key, sources: [row.page_id] };
    switch (row.target_kind) {
      case 'page': {
        const page = content.index.pageAt(row.target);
        return page
          ? { ...base, status: 'ok', target: { kind: 'page', pageId: page.id } }
          : { ...base, status: 'broken', target: { kind: 'missing', href: row.href } };
      }
      case 'anchor':
        return {
          ...base,
          key: `anchor:${row.page_id}#${row.anchor}`,
          status: 'ok',
          target: { kind: 'page', pageId: row.page_id },
        };
      case 'file': {
        const file = [...content.snapshot.content.files.values()].find((f) => f.name === row.target);
        return file
          ? { ...base, status: 'ok', target: { kind: 'file', fileId: file.id } }
          : { ...base, status: 'broken', target: { kind: 'missing', href: row.href } };
      }
      default: {
        const inApp = row.target.startsWith(`${this.deps.config.publicUrl}/app/`);
        return { ...base, status: inApp ? 'in-app' : 'ok', target: { kind: 'url', url: row.target } };
      }
    }
  }
}
