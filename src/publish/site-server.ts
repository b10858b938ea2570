import { createHash } from 'node:crypto';
import type { PageIndex } from '../areas/content/page-index.js';
import type { ContentService, OpenContent } from '../areas/content/service.js';
import { publicSpecUrl } from '../areas/openapi/present.js';
import type { ContentRef } from '../content/document-schema.js';
import { markdownToDocument } from '../content/markdown/to-document.js';
import type { PageNode } from '../content/tree.js';
import type { SpacesTable } from '../db/tables.js';
import type { Deps } from '../deps.js';
import { safeHref, safeSrc } from '../link-urls.js';
import { Lru } from '../lru.js';
import { referencePageMarkdown } from '../openapi/reference-pages.js';
import { specSlugsIn } from '../search/api-text.js';
import type { SearchEngine } from '../search/engine.js';
import { VERSION } from '../version.js';
import { VisitorView } from './adaptive.js';
import { SiteAddresses } from './addresses.js';
import { expandApiBlocks } from './api-markdown.js';
import {
  type ComputedReference,
  computedReferences,
  computedSource,
  computedSpecs,
  locateReference,
  type ReferenceTarget,
  referenceHref,
  referenceNeighbours,
} from './api-reference.js';
import { evaluateCondition, parseCondition } from './conditions.js';
import { type DocumentExtrasNeeds, documentExtras } from './document-extras.js';
import { PageAnswers, type SiteRef, type ViewedPage } from './page-answers.js';
import { SITE_ASSETS } from './render/assets.js';
import { renderPage, renderStatusPage } from './render/layout.js';
import type { DocumentLinks, PageContent, SiteFrame } from './render/model.js';
import { renderTree } from './render/navigation-html.js';
import { renderLlmsTxt, renderRobots, renderSitemap } from './render/site-files.js';
import { SHARE_KEY_PARAM } from './share-keys.js';
import { loadPublishedSite, type PublishedSite, previewSite, type SiteSpaceRow } from './site-data.js';
import { breadcrumbs, firstDocument, neighbours, pageHref, sectionNav, variantNav } from './site-frame.js';
import { lookOf, mergedCustomization } from './site-look.js';
import type { SiteResponse } from './site-response.js';
import {
  firstVisible,
  locate,
  type SiteLocation,
  siteSpaceHref,
  type VisibleSite,
  visibleParts,
} from './site-routing.js';
import { SiteSearch } from './site-search.js';
import { sidebarTree, type TreeSource, wholeTree } from './site-tree.js';
import { loadSpecDocuments, specKey } from './spec-documents.js';
import { TREE_SEGMENT, TreeFragments } from './tree-fragment.js';
import type { Visitor } from './visitor.js';
import { cookieName, decideAccess, parseCookies, presentedBy, TOKEN_PARAM } from './visitor-access.js';
import type { VisitorClaims } from './visitor-token.js';

export interface SiteRequest {
  site: SiteRef;
  /** The path below the site root, without a leading slash, still URL-encoded. */
  path: string;
  query: URLSearchParams;
  headers: { cookie?: string | undefined; ifNoneMatch?: string | undefined };
  /** The absolute URL requested (for redirects back after signing in). */
  url: string;
  /** Who asks, for the site's view events (published sites only). */
  visitor?: Visitor;
  /** Where its answer may be kept (see `answerKey`): published sites' own routes only. */
  key?: string;
}

/** A revalidation that may have a kept answer, before any routing (see `revalidate`). */
export interface Revalidation {
  key: string;
  headers: SiteRequest['headers'];
  visitor: Visitor;
}

/** A page of a published site was viewed (integrations hear it as `site_view`). */
export interface PageView {
  orgId: string;
  siteId: string;
  siteSpaceId: string;
  spaceId: string;
  pageId: string;
  url: string;
  referrer: string;
  visitor: { ip: string; userAgent: string; language?: string };
}

export type { SiteResponse };

const HTML = 'text/html; charset=utf-8';

/** The services the published site calls. */
export interface SiteServerNeeds extends DocumentExtrasNeeds {
  content: Pick<ContentService, 'body' | 'openPublished' | 'reusableDocument'>;
  searchEngine: Pick<SearchEngine, 'search'>;
  /** Told of each page view of a published site; must return at once (it is on every view). */
  siteViews?: { record(view: PageView): void };
}

/**
 * Serves published sites: decides who may see what (visibility, share links, visitor tokens,
 * adaptive conditions), finds the section, site space and page a path shows, and answers HTML
 * pages (cached by what they depend on, with ETags), markdown views, search, and the site files.
 */
export class SiteServer {
  readonly addresses: SiteAddresses;
  private readonly search: SiteSearch;
  /** Rendered pages by ETag, as the bytes sent (encoding a page of hundreds of KB costs per answer). */
  private readonly rendered = new Lru<string, Buffer>(2048);
  private readonly conditions = new Lru<string, ReturnType<typeof parseCondition> | null>(512);
  /**
   * The content each space row shows. A row object comes back from `loadPublishedSite` only while
   * the database is unchanged (its ReadCache), so the same object always means the same revision;
   * while that cache is off (PostgreSQL's change counter unreadable) rows are fresh and this never hits.
   */
  private readonly opened = new WeakMap<SpacesTable, OpenContent>();
  private readonly etags = new Lru<string, string>(8192);
  /** The whole page trees that trimmed pages name (see tree-fragment.ts). */
  private readonly trees = new TreeFragments();
  private readonly answers = new PageAnswers();

  constructor(
    private readonly deps: Deps,
    private readonly services: SiteServerNeeds,
    /** Where pages live; the app's space previews pass their own (see `preview`). */
    addresses?: SiteAddresses,
  ) {
    this.addresses = addresses ?? new SiteAddresses(deps.config.publicUrl);
    this.search = new SiteSearch(deps.db, services);
  }

  /** Whether a site claims this custom hostname (published or not: it answers for it either way). */
  async hasHostname(hostname: string): Promise<boolean> {
    const row = await this.deps.db
      .selectFrom('sites')
      .select('id')
      .where('hostname', '=', hostname)
      .executeTakeFirst();
    return row !== undefined;
  }

  async handle(request: SiteRequest): Promise<SiteResponse> {
    const segments = pathSegments(request.path);
    if (segments[0] === '~assets') return this.asset(segments[1]);

    const published = await loadPublishedSite(this.deps.database, request.site);
    if (!published?.site.published) return this.status(404, 'There is no published site here.');
    const { site } = published;
    const kept = request.key === undefined ? undefined : this.answers.get(request.key);
    if (kept && this.answers.holds(kept, published, request.headers)) {
      if (kept.view && request.visitor) this.recordView(kept.view, request.url, request.visitor);
      return { status: 304, headers: kept.headers, body: '' };
    }
    const presented = presentedBy(site, request.query, parseCookies(request.headers.cookie));
    const decision = await decideAccess(
      this.deps.db,
      site,
      presented,
      this.deps.clock.now().getTime(),
      request.url,
    );
    if (decision.kind === 'redirect') return redirect(decision.location);
    if (decision.kind === 'deny') return this.status(decision.status, decision.message, true);
    if (presented.fromQuery) return this.keepCredentials(request, published, presented);

    const visible = visibleParts(published, (condition) => this.allows(condition, decision.claims));
    const protectedSite = site.visibility !== 'public' && site.visibility !== 'unlisted';
    const noindex = site.visibility !== 'public';
    // Without a credential, a public site answers a URL the same until the next commit.
    const keep = !protectedSite && presented.token === undefined && presented.shareKey === undefined;
    return this.serve(request, segments, visible, decision.claims, {
      noindex,
      protectedSite,
      views: true,
      keep,
    });
  }

  /**
   * The 304 of a revalidation whose URL's kept answer still holds, or undefined: then the
   * request goes the whole way (`handle`). Asked before routing, by the HTTP front door; the site
   * is read again (through the read cache) to know that nothing changed. `admit` is asked last,
   * only for a request this answers (the site rate limit); the view is recorded after it.
   */
  async revalidate(request: Revalidation, admit: () => boolean): Promise<SiteResponse | undefined> {
    const answer = this.answers.get(request.key);
    if (!answer) return undefined;
    const published = await loadPublishedSite(this.deps.database, answer.site);
    if (!published?.site.published || !this.answers.holds(answer, published, request.headers) || !admit())
      return undefined;
    if (answer.view) this.recordView(answer.view, answer.url, request.visitor);
    return { status: 304, headers: answer.headers, body: '' };
  }

  /**
   * A space's current content drawn as a site of its own (see `previewSite`), for a signed-in
   * member the caller has checked may read the space. Pages are private (`protectedSite`) and
   * never indexed; the addresses are this server's (`PreviewAddresses` for the app).
   */
  async preview(space: SpacesTable, request: SiteRequest): Promise<SiteResponse> {
    const segments = pathSegments(request.path);
    if (segments[0] === '~assets') return this.asset(segments[1]);
    const visible = visibleParts(await previewSite(this.deps.db, space), () => true);
    return this.serve(request, segments, visible, {}, { noindex: true, protectedSite: true });
  }

  /** A request to the parts of a site the visitor may see, after access was decided. */
  private async serve(
    request: SiteRequest,
    segments: string[],
    visible: VisibleSite,
    claims: VisitorClaims,
    common: { noindex: boolean; protectedSite: boolean; views?: boolean; keep?: boolean },
  ): Promise<SiteResponse> {
    const { published } = visible;
    const { site } = published;
    const { noindex, protectedSite } = common;

    if (segments.length === 1 && segments[0] === 'robots.txt') return this.robots(published);
    if (segments.length === 1 && segments[0] === 'sitemap.xml') return this.sitemap(visible);
    if (segments.length === 1 && segments[0] === 'llms.txt') return this.llms(visible, common, claims);
    if (segments[0] === '~search') return this.searchIn(visible, request.query.get('q') ?? '', common);
    if (segments[0] === TREE_SEGMENT) return this.treeFragment(request, segments, visible, claims, common);

    let markdownView = false;
    const last = segments[segments.length - 1];
    if (last?.endsWith('.md')) {
      markdownView = true;
      segments[segments.length - 1] = last.slice(0, -3);
    }
    const location = locate(visible, segments);
    if (!location) {
      const first = segments.length === 0 ? firstVisible(visible) : undefined;
      if (first) return redirect(siteSpaceHref(this.addresses, published, first));
      return this.status(404, 'This page does not exist, or you may not see it.', protectedSite);
    }
    const open = await this.openPublished(location.siteSpace.space);
    const view = new VisitorView(claims, open.snapshot.content);
    const first = firstDocumentOf(open.index);
    let page: PageNode | undefined;
    if (location.pagePath === '' || (markdownView && location.pagePath === 'index')) {
      page =
        (location.siteSpace.page_id
          ? open.snapshot.content.pages.get(location.siteSpace.page_id)
          : undefined) ?? first;
    } else {
      page = open.index.pageAt(location.pagePath);
    }
    const spaceRoot = siteSpaceHref(this.addresses, published, location.siteSpace);
    // A page of an API reference computed from a specification has no stored page of its own.
    let reference: ReferenceTarget | undefined;
    if ((!page || page.type === 'computed') && location.pagePath !== '') {
      const found = locateReference(open.index, await this.referencesOf(published, open), location.pagePath);
      if (found && view.shows(found.reference.node)) {
        if (page) return redirect(referenceHref(spaceRoot, open.index, found.reference, found.page));
        reference = found;
        page = found.reference.node;
      }
    }
    if (page && page.type === 'group') {
      const inside = open.index
        .inOrder()
        .find((p) => p.parent === page!.id && p.type === 'document' && !p.hidden);
      if (inside) return redirect(pageHref(spaceRoot, open.index, inside, first));
      page = undefined;
    }
    if (page && page.type === 'link' && page.href) return redirect(page.href);
    // A page shown only to some visitors is, to the others, a page that does not exist.
    if (page && !view.shows(page)) page = undefined;
    if (!page || (page.type !== 'document' && !reference)) {
      const frame = this.frame(visible, location, open, undefined, noindex, view);
      return {
        status: 404,
        headers: this.htmlHeaders(common),
        body: renderStatusPage(frame, 404, 'This page does not exist, or you may not see it.'),
      };
    }

    const viewed: ViewedPage | undefined =
      common.views && !markdownView
        ? {
            orgId: site.org_id,
            siteId: site.id,
            siteSpaceId: location.siteSpace.id,
            spaceId: location.siteSpace.space.id,
            pageId: page.id,
          }
        : undefined;
    if (viewed && request.visitor) this.recordView(viewed, request.url, request.visitor);

    const etag = this.etagOf([
      VERSION,
      SITE_ASSETS.version,
      published.fingerprint,
      visible.key,
      // Conditional blocks and pages follow the claims.
      claimsKey(claims),
      location.siteSpace.id,
      page.id,
      reference?.page.slug ?? '',
      markdownView ? 'md' : 'html',
    ]);
    // A page drawn for a visitor's claims is theirs alone: no shared cache may keep it, and
    // the anonymous page of an adaptive site varies with the cookie that carries claims.
    const personal = protectedSite || claimsKey(claims) !== '';
    const cacheHeaders: Record<string, string> = {
      ETag: etag,
      'Cache-Control': personal ? 'private, no-cache' : 'public, no-cache',
      ...(site.adaptive_enabled ? { Vary: 'Cookie' } : {}),
    };
    if (common.keep && request.key !== undefined)
      this.answers.keep(request.key, published, {
        site: request.site,
        url: request.url,
        cookie: request.headers.cookie,
        etag,
        headers: cacheHeaders,
        view: viewed,
      });
    if (request.headers.ifNoneMatch?.split(/\s*,\s*/).includes(etag))
      return { status: 304, headers: cacheHeaders, body: '' };

    if (markdownView) {
      const title = reference ? reference.page.title : page.title;
      const description = reference ? undefined : page.description;
      const markdown = reference
        ? referencePageMarkdown(reference.reference.spec, reference.page)
        : ((await this.services.content.body(open, page, 'markdown')) as { markdown: string }).markdown;
      return {
        status: 200,
        headers: {
          ...cacheHeaders,
          'Content-Type': 'text/markdown; charset=utf-8',
          ...robotsHeader(noindex),
        },
        body: `# ${title}\n\n${description ? `${description}\n\n` : ''}${await this.withApiBlocks(
          published,
          open,
          view.markdown(markdown, page),
        )}`,
      };
    }
    let html = this.rendered.get(etag);
    if (html === undefined) {
      html = Buffer.from(
        await this.renderDocumentPage(
          visible,
          location,
          open,
          page,
          reference,
          spaceRoot,
          first,
          noindex,
          view,
        ),
        'utf8',
      );
      this.rendered.set(etag, html);
    }
    return { status: 200, headers: { ...this.htmlHeaders(common), ...cacheHeaders }, body: html };
  }

  private recordView(view: ViewedPage, url: string, asked: Visitor): void {
    // Written out rather than spread: this runs on every page view, kept revalidations too.
    const { ip, userAgent, language } = asked;
    this.services.siteViews?.record({
      orgId: view.orgId,
      siteId: view.siteId,
      siteSpaceId: view.siteSpaceId,
      spaceId: view.spaceId,
      pageId: view.pageId,
      url,
      referrer: asked.referrer,
      visitor: language === undefined ? { ip, userAgent } : { ip, userAgent, language },
    });
  }

  /** A page's ETag: a digest of what it depends on, computed once per combination. */
  private etagOf(parts: string[]): string {
    return `"${this.digestOf(parts)}"`;
  }

  private digestOf(parts: string[]): string {
    const key = parts.join('\0');
    let value = this.etags.get(key);
    if (value === undefined) {
      value = digest(key);
      this.etags.set(key, value);
    }
    return value;
  }

  /** The key of a site space's whole tree as this visitor sees it (see tree-fragment.ts). */
  private treeKey(visible: VisibleSite, claims: VisitorClaims, siteSpace: SiteSpaceRow): string {
    return this.digestOf([
      VERSION,
      TREE_SEGMENT,
      visible.published.fingerprint,
      visible.key,
      claimsKey(claims),
      siteSpace.id,
    ]);
  }

  /** `~tree/{siteSpaceId}/{key}`: the whole tree of a site space, when the key is the visitor's. */
  private async treeFragment(
    request: SiteRequest,
    segments: string[],
    visible: VisibleSite,
    claims: VisitorClaims,
    common: { protectedSite: boolean },
  ): Promise<SiteResponse> {
    const siteSpace =
      segments.length === 3 ? visible.siteSpaces.find((s) => s.id === segments[1]) : undefined;
    // Another revision's key (a page loaded before a merge) or another visitor's: the script
    // then follows the link it was opening instead.
    if (!siteSpace || segments[2] !== this.treeKey(visible, claims, siteSpace))
      return this.status(404, 'This navigation is out of date: reload the page.');
    return this.trees.respond({
      key: segments[2],
      personal: common.protectedSite || claimsKey(claims) !== '',
      ifNoneMatch: request.headers.ifNoneMatch,
      headers: this.htmlHeaders({ noindex: true }),
      render: async () => {
        const open = await this.openPublished(siteSpace.space);
        const view = new VisitorView(claims, open.snapshot.content);
        return renderTree(
          wholeTree({
            index: open.index,
            spaceRoot: siteSpaceHref(this.addresses, visible.published, siteSpace),
            first: firstDocumentOf(open.index),
            shows: (p) => view.shows(p),
            references: await this.referencesOf(visible.published, open),
          }),
        );
      },
    });
  }

  private async openPublished(space: SpacesTable): Promise<OpenContent> {
    let open = this.opened.get(space);
    if (!open) {
      open = await this.services.content.openPublished(space);
      this.opened.set(space, open);
    }
    return open;
  }

  private async renderDocumentPage(
    visible: VisibleSite,
    location: SiteLocation,
    open: OpenContent,
    page: PageNode,
    reference: ReferenceTarget | undefined,
    spaceRoot: string,
    first: PageNode | undefined,
    noindex: boolean,
    view: VisitorView,
  ): Promise<string> {
    const document = reference
      ? (markdownToDocument(referencePageMarkdown(reference.reference.spec, reference.page), {
          profile: 'render',
        }) as PageContent['document'])
      : (
          (await this.services.content.body(open, page, 'document', 'render')) as {
            document: PageContent['document'];
          }
        ).document;
    const extras = await documentExtras(this.deps.db, this.services, open, document, visible.published.specs);
    const href = reference
      ? referenceHref(spaceRoot, open.index, reference.reference, reference.page)
      : pageHref(spaceRoot, open.index, page, first);
    const base = this.documentLinks(open, spaceRoot, first);
    const links: DocumentLinks = {
      ...base,
      // A page the visitor may not see is named, not linked: no dead link, no hint of its address.
      page: (pageId, anchor) => {
        const target = open.snapshot.content.pages.get(pageId);
        return target && view.shows(target) ? base.page(pageId, anchor) : undefined;
      },
      visible: (expression) => view.holds(expression, page),
      expression: (expression) => view.text(expression, page),
      reusable: (id) => extras.reusable.get(id),
      user: (id) => extras.users.get(id),
      tag: (slug) => {
        const label = extras.tags.get(slug);
        return label === undefined ? undefined : { label };
      },
      openapi: (source) => extras.specs.get(specKey(source)),
    };
    const content: PageContent = {
      title: reference ? reference.page.title : page.title,
      description: reference ? undefined : page.description,
      emoji: reference ? undefined : page.emoji,
      cover: reference ? undefined : coverOf(page, base),
      href,
      markdownHref: `${href === spaceRoot ? `${spaceRoot.replace(/\/?$/, '/')}index` : href}.md`,
      breadcrumbs: breadcrumbs(open.index, spaceRoot, page, first),
      document,
      links,
      ...(reference
        ? referenceNeighbours(spaceRoot, open.index, reference)
        : neighbours(open.index, spaceRoot, page, first, (p) => view.shows(p))),
    };
    const computed = {
      references: await this.referencesOf(visible.published, open),
      activeSlug: reference?.page.slug,
    };
    return renderPage(this.frame(visible, location, open, page, noindex, view, computed), content);
  }

  /**
   * Where a link to a specification leads: the reference this space computes from it, else the
   * public copy of the specification; nothing while it is private and has no reference here.
   */
  private specHref(
    published: PublishedSite,
    open: OpenContent,
    spaceRoot: string,
    slug: string,
  ): string | undefined {
    const spec = published.specs.get(slug.toLowerCase());
    if (!spec) return undefined;
    if (spec.last_version_id)
      for (const page of open.index.inOrder())
        if (computedSource(page)?.spec.toLowerCase() === slug.toLowerCase())
          return pageHref(spaceRoot, open.index, page, undefined);
    return spec.visibility === 'public'
      ? publicSpecUrl(this.deps.urls, { org_id: published.site.org_id, slug: spec.slug })
      : undefined;
  }

  /** Markdown with its API blocks written out from the specifications they draw. */
  private async withApiBlocks(
    published: PublishedSite,
    open: OpenContent,
    markdown: string,
  ): Promise<string> {
    const slugs = specSlugsIn(markdown);
    if (slugs.length === 0) return markdown;
    const documents = await loadSpecDocuments(
      this.services,
      open,
      published.specs,
      slugs.map((spec) => ({ kind: 'openapi', spec })),
    );
    return expandApiBlocks(markdown, (spec) => documents.get(specKey({ kind: 'openapi', spec })));
  }

  /** The API references of a space's computed pages, from the specifications' newest versions. */
  private async referencesOf(
    published: PublishedSite,
    open: OpenContent,
  ): Promise<Map<string, ComputedReference>> {
    const specs = computedSpecs(open.index);
    if (specs.size === 0) return new Map();
    const documents = await loadSpecDocuments(
      this.services,
      open,
      published.specs,
      [...specs].map((spec) => ({ kind: 'openapi', spec })),
    );
    return computedReferences(open.index, (spec) => documents.get(specKey({ kind: 'openapi', spec })));
  }

  private frame(
    visible: VisibleSite,
    location: SiteLocation,
    open: OpenContent,
    page: PageNode | undefined,
    noindex: boolean,
    view: VisitorView,
    computed?: { references: TreeSource['references']; activeSlug?: string | undefined },
  ): SiteFrame {
    const { published } = visible;
    const spaceRoot = siteSpaceHref(this.addresses, published, location.siteSpace);
    const first = firstDocumentOf(open.index);
    const links = this.documentLinks(open, spaceRoot, first);
    const hrefOf = (ref: ContentRef): string | undefined => {
      if (ref.kind === 'url') return safeHref(ref.url);
      if (ref.kind === 'page' && (!ref.space || ref.space === open.space.id)) return links.page(ref.page);
      if (ref.kind === 'openapi') return this.specHref(published, open, spaceRoot, ref.spec);
      return undefined;
    };
    const customization = mergedCustomization(published.site.customization, location.siteSpace.customization);
    return {
      siteTitle: published.site.title,
      homeHref: this.addresses.root(published.site),
      look: lookOf(customization, hrefOf),
      sections: sectionNav(this.addresses, visible, location),
      variants: variantNav(this.addresses, visible, location),
      ...this.sidebar(visible, location.siteSpace, open, spaceRoot, page, view, computed),
      searchHref: this.addresses.at(published.site, '~search'),
      assetsHref: this.addresses.at(published.site, '~assets'),
      noindex,
      lang: open.space.language ?? 'en',
    };
  }

  /** The tree a page sends, and where the whole one is when that is trimmed. */
  private sidebar(
    visible: VisibleSite,
    siteSpace: SiteSpaceRow,
    open: OpenContent,
    spaceRoot: string,
    page: PageNode | undefined,
    view: VisitorView,
    computed: { references: TreeSource['references']; activeSlug?: string | undefined } | undefined,
  ): Pick<SiteFrame, 'tree' | 'treeHref'> {
    const source: TreeSource = {
      index: open.index,
      spaceRoot,
      first: firstDocumentOf(open.index),
      shows: (p) => view.shows(p),
      references: computed?.references ?? new Map(),
    };
    const { items, trimmed } = sidebarTree(source, { page, referenceSlug: computed?.activeSlug });
    if (!trimmed) return { tree: items };
    const key = this.treeKey(visible, view.claims, siteSpace);
    return {
      tree: items,
      treeHref: this.addresses.at(visible.published.site, TREE_SEGMENT, siteSpace.id, key),
    };
  }

  private documentLinks(open: OpenContent, spaceRoot: string, first: PageNode | undefined): DocumentLinks {
    const { pages, files } = open.snapshot.content;
    return {
      page: (pageId, anchor) => {
        const target = pages.get(pageId);
        if (!target) return undefined;
        const href = pageHref(spaceRoot, open.index, target, first);
        return anchor ? `${href}#${encodeURIComponent(anchor)}` : href;
      },
      file: (fileId) => {
        const file = files.get(fileId);
        return file
          ? {
              href: this.deps.urls.file(file.blob, file.name),
              name: file.name,
              contentType: file.contentType,
            }
          : undefined;
      },
      url: (url) => url,
      pageInfo: (pageId) => {
        const target = pages.get(pageId);
        return target
          ? { title: target.title, emoji: target.emoji, description: target.description }
          : undefined;
      },
    };
  }

  private allows(condition: string | null, claims: VisitorClaims): boolean {
    if (!condition) return true;
    let parsed = this.conditions.get(condition);
    if (parsed === undefined) {
      try {
        parsed = parseCondition(condition);
      } catch {
        parsed = null;
      }
      this.conditions.set(condition, parsed);
    }
    // A condition that no longer parses hides its part rather than showing it to everyone.
    return parsed !== null && evaluateCondition(parsed, claims);
  }

  /** Keeps a share key or visitor token from the URL in cookies and redirects to the clean URL. */
  private keepCredentials(
    request: SiteRequest,
    published: PublishedSite,
    presented: { shareKey?: string | undefined; token?: string | undefined },
  ): SiteResponse {
    const root = new URL(this.addresses.root(published.site));
    const secure = root.protocol === 'https:' ? '; Secure' : '';
    const attributes = `; Path=${root.pathname}; HttpOnly; SameSite=Lax${secure}`;
    const cookies: string[] = [];
    const clean = new URL(request.url);
    if (clean.searchParams.has(SHARE_KEY_PARAM) && presented.shareKey)
      cookies.push(
        `${cookieName('share', published.site.id)}=${encodeURIComponent(presented.shareKey)}${attributes}`,
      );
    if (clean.searchParams.has(TOKEN_PARAM) && presented.token)
      cookies.push(
        `${cookieName('visitor', published.site.id)}=${encodeURIComponent(presented.token)}${attributes}`,
      );
    clean.searchParams.delete(SHARE_KEY_PARAM);
    clean.searchParams.delete(TOKEN_PARAM);
    return {
      status: 302,
      headers: { Location: clean.toString(), 'Set-Cookie': cookies, 'Cache-Control': 'no-store' },
      body: '',
    };
  }

  private async contentsOf(visible: VisibleSite) {
    const out: Array<{ siteSpace: SiteSpaceRow; open: OpenContent; href: (pageId: string) => string }> = [];
    for (const siteSpace of visible.siteSpaces) {
      const open = await this.openPublished(siteSpace.space);
      const root = siteSpaceHref(this.addresses, visible.published, siteSpace);
      const first = firstDocumentOf(open.index);
      out.push({
        siteSpace,
        open,
        href: (pageId) => pageHref(root, open.index, open.snapshot.content.pages.get(pageId)!, first),
      });
    }
    return out;
  }

  private async searchIn(
    visible: VisibleSite,
    query: string,
    common: { noindex: boolean; protectedSite: boolean },
  ): Promise<SiteResponse> {
    const results = await this.search.search(await this.contentsOf(visible), query.slice(0, 200));
    return {
      status: 200,
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': common.protectedSite ? 'private, no-cache' : 'public, no-cache',
        ...robotsHeader(true),
      },
      body: JSON.stringify({ results }),
    };
  }

  private robots(published: PublishedSite): SiteResponse {
    const allow = published.site.visibility === 'public';
    const body = renderRobots(
      allow ? { allow, sitemapUrl: this.addresses.at(published.site, 'sitemap.xml') } : { allow },
    );
    return { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body };
  }

  private async sitemap(visible: VisibleSite): Promise<SiteResponse> {
    if (visible.published.site.visibility !== 'public') return this.status(404, 'This site has no sitemap.');
    const urls: string[] = [];
    for (const { siteSpace, open, href } of await this.contentsOf(visible)) {
      const references = await this.referencesOf(visible.published, open);
      const root = siteSpaceHref(this.addresses, visible.published, siteSpace);
      // The sitemap is the same for every visitor: pages shown only to some are left out.
      for (const page of open.index.inOrder()) {
        if (page.hidden || page.noIndex || hasCondition(open, page)) continue;
        if (page.type === 'document') urls.push(href(page.id));
        const reference = page.type === 'computed' ? references.get(page.id) : undefined;
        for (const item of reference?.pages ?? [])
          urls.push(referenceHref(root, open.index, reference!, item));
      }
    }
    return {
      status: 200,
      headers: { 'Content-Type': 'application/xml; charset=utf-8' },
      body: renderSitemap(urls),
    };
  }

  private async llms(
    visible: VisibleSite,
    common: { noindex: boolean; protectedSite: boolean },
    claims: VisitorClaims,
  ): Promise<SiteResponse> {
    const pages: Array<{ title: string; href: string; description?: string }> = [];
    for (const { open, href } of await this.contentsOf(visible)) {
      const view = new VisitorView(claims, open.snapshot.content);
      for (const page of open.index.inOrder()) {
        if (page.type !== 'document' || page.hidden || !view.shows(page)) continue;
        const url = href(page.id);
        const markdown = `${url.endsWith('/') ? `${url}index` : url}.md`;
        pages.push(
          page.description
            ? { title: page.title, href: markdown, description: page.description }
            : { title: page.title, href: markdown },
        );
      }
    }
    return {
      status: 200,
      headers: {
        'Content-Type': 'text/plain; charset=utf-8',
        'Cache-Control': common.protectedSite ? 'private, no-cache' : 'public, no-cache',
        ...robotsHeader(common.noindex),
      },
      body: renderLlmsTxt({ title: visible.published.site.title }, pages),
    };
  }

  private asset(name: string | undefined): SiteResponse {
    const asset = name ? SITE_ASSETS.files.get(name) : undefined;
    if (!asset) return this.status(404, 'No such file.');
    return {
      status: 200,
      headers: { 'Content-Type': asset.contentType, 'Cache-Control': 'public, max-age=31536000, immutable' },
      body: asset.body,
    };
  }

  private htmlHeaders(common: { noindex: boolean }): Record<string, string> {
    return {
      'Content-Type': HTML,
      'Content-Security-Policy':
        "default-src 'self'; img-src * data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'self'; base-uri 'none'; form-action 'self'",
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      ...robotsHeader(common.noindex),
    };
  }

  private status(status: number, message: string, noindex = true): SiteResponse {
    return {
      status,
      headers: { ...this.htmlHeaders({ noindex }), 'Cache-Control': 'no-store' },
      body: renderStatusPage(undefined, status, message),
    };
  }
}

/** The segments of a path below a site's root, URL-decoded where they decode. */
function pathSegments(path: string): string[] {
  return path
    .split('/')
    .filter((s) => s !== '')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
}

/** Per page index (one per revision's content, immutable): its first document, found once. */
const firstDocuments = new WeakMap<PageIndex, PageNode | null>();

/** `firstDocument`, without walking the whole tree again on every request. */
function firstDocumentOf(index: PageIndex): PageNode | undefined {
  let first = firstDocuments.get(index);
  if (first === undefined) {
    first = firstDocument(index) ?? null;
    firstDocuments.set(index, first);
  }
  return first ?? undefined;
}

function robotsHeader(noindex: boolean): Record<string, string> {
  return noindex ? { 'X-Robots-Tag': 'noindex' } : {};
}

function redirect(location: string): SiteResponse {
  return { status: 302, headers: { Location: location, 'Cache-Control': 'no-store' }, body: '' };
}

/** The cover a page shows (a file of the space or a URL), when its layout shows one. */
function coverOf(page: PageNode, links: DocumentLinks): PageContent['cover'] {
  const cover = page.cover;
  if (!cover || page.layout?.cover === false) return undefined;
  const src = (ref: NonNullable<PageNode['cover']>['ref']) =>
    ref.kind === 'file' ? links.file(ref.file)?.href : safeSrc(ref.url);
  const light = src(cover.ref);
  if (!light) return undefined;
  return {
    src: light,
    srcDark: cover.refDark ? src(cover.refDark) : undefined,
    yPos: cover.yPos,
    height: cover.height,
    size: page.layout?.coverSize ?? 'hero',
  };
}

/** Whether a page or a page above it is shown only to some visitors. */
function hasCondition(open: OpenContent, page: PageNode): boolean {
  for (let current: PageNode | undefined = page, guard = 0; current && guard < 1000; guard++) {
    if (current.condition) return true;
    current = current.parent ? open.snapshot.content.pages.get(current.parent) : undefined;
  }
  return false;
}

function claimsKey(claims: VisitorClaims): string {
  const text = JSON.stringify(claims ?? {});
  return text === '{}' ? '' : digest(text);
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 27);
}
