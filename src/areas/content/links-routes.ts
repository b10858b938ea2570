import { Type } from 'typebox';
import type { Actor } from '../../auth/actor.js';
import { PageQuery, STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { presentOrganization } from '../orgs/present.js';
import { presentSpace } from '../spaces/present.js';
import type { LinkUsage } from './links-service.js';
import { presentFile, presentPageItself } from './present.js';
import type { OpenContent } from './service.js';

const Open = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true });
const Id = Type.String({ minLength: 1, maxLength: 128 });
const Status = Type.Optional(Type.Enum(['ok', 'broken', 'in-app']));
const UsageList = Type.Object({
  items: Type.Array(Open),
  count: Type.Number(),
  next: Type.Optional(Type.Object({ page: Type.String() })),
  stats: Type.Object({
    total: Type.Number(),
    broken: Type.Object({ total: Type.Number(), changeRequest: Type.Number() }),
  }),
});
const LocationList = Type.Object({
  items: Type.Array(Open),
  count: Type.Number(),
  next: Type.Optional(Type.Object({ page: Type.String() })),
});

/** The links of a space's content and what links to its pages and files (API.md 4.2, 4.13). */
export function linkRoutes(app: App): void {
  const { services, urls } = app.quire;
  const tags = ['content'];

  /** Locations are full objects: the organization and space as the caller sees them, and the page. */
  const locator = async (actor: Actor, content: OpenContent) => {
    const org = presentOrganization(await services.orgs.get(actor, content.space.org_id), urls);
    const role = await services.authz.spaceRole(
      actor,
      content.space,
      (await services.authz.membership(actor, content.space.org_id))?.role,
    );
    const space = presentSpace({ row: content.space, role }, urls);
    const ctx = { spaceId: content.space.id, urls, index: content.index, metadata: true };
    return {
      page: (pageId: string) => {
        const node = content.snapshot.content.pages.get(pageId)!;
        return {
          kind: 'page',
          organization: org,
          space,
          page: { ...presentPageItself(node, ctx), pages: [] },
        };
      },
      file: (fileId: string) => ({
        kind: 'file',
        organization: org,
        space,
        file: presentFile(content.snapshot.content.files.get(fileId)!, ctx),
      }),
    };
  };
  const usage = (u: LinkUsage, locate: Awaited<ReturnType<typeof locator>>) => {
    const target =
      u.target.kind === 'page'
        ? locate.page(u.target.pageId)
        : u.target.kind === 'file'
          ? locate.file(u.target.fileId)
          : { kind: 'url', url: u.target.kind === 'url' ? u.target.url : u.target.href };
    return {
      status: u.status,
      relation: 'reference',
      targetReference: target,
      locationReferences: u.sources.map((id) => locate.page(id)),
    };
  };

  app.get(
    '/v1/spaces/:spaceId/links',
    {
      schema: {
        operationId: 'listSpaceLinks',
        tags,
        params: Type.Object({ spaceId: Id }),
        querystring: Type.Object({ ...PageQuery, status: Status }),
        response: { 200: UsageList, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const content = await services.linkReader.open(request.actor, request.params.spaceId);
      const page = await services.linkReader.usages(content, request.query);
      const locate = await locator(request.actor, content);
      return { ...page, items: page.items.map((u) => usage(u, locate)) };
    },
  );

  app.get(
    '/v1/spaces/:spaceId/content/page/:pageId/links',
    {
      schema: {
        operationId: 'listPageLinksInSpace',
        tags,
        params: Type.Object({ spaceId: Id, pageId: Id }),
        querystring: Type.Object({ ...PageQuery, status: Status }),
        response: { 200: UsageList, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const content = await services.linkReader.open(request.actor, request.params.spaceId);
      services.content.page(content, request.params.pageId);
      const page = await services.linkReader.usages(content, request.query, request.params.pageId);
      const locate = await locator(request.actor, content);
      return { ...page, items: page.items.map((u) => usage(u, locate)) };
    },
  );

  app.get(
    '/v1/spaces/:spaceId/content/page/:pageId/backlinks',
    {
      schema: {
        operationId: 'listSpacePageBacklinks',
        tags,
        params: Type.Object({ spaceId: Id, pageId: Id }),
        querystring: Type.Object(PageQuery),
        response: { 200: LocationList, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const content = await services.linkReader.open(request.actor, request.params.spaceId);
      services.content.page(content, request.params.pageId);
      const page = await services.linkReader.backlinks(
        content,
        { pageId: request.params.pageId },
        request.query,
      );
      const locate = await locator(request.actor, content);
      return { ...page, items: page.items.map((id) => locate.page(id)) };
    },
  );

  app.get(
    '/v1/spaces/:spaceId/content/files/:fileId/backlinks',
    {
      schema: {
        operationId: 'listSpaceFileBacklinks',
        tags,
        params: Type.Object({ spaceId: Id, fileId: Id }),
        querystring: Type.Object(PageQuery),
        response: { 200: LocationList, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const content = await services.linkReader.open(request.actor, request.params.spaceId);
      services.content.file(content, request.params.fileId);
      const page = await services.linkReader.backlinks(
        content,
        { fileId: request.params.fileId },
        request.query,
      );
      const locate = await locator(request.actor, content);
      return { ...page, items: page.items.map((id) => locate.page(id)) };
    },
  );
}
