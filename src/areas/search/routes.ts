import { listOf, STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { OrgParams } from '../orgs/schemas.js';
import { SpaceParams } from '../spaces/schemas.js';
import { presentPageHit, presentSpaceResults } from './present.js';
import { SearchPageResult, SearchQuery, SearchSpaceResult } from './schemas.js';

export function searchRoutes(app: App): void {
  const { services, urls } = app.quire;

  app.get(
    '/v1/orgs/:organizationId/search',
    {
      schema: {
        operationId: 'searchOrganizationContent',
        tags: ['organizations'],
        params: OrgParams,
        querystring: SearchQuery,
        response: { 200: listOf(SearchSpaceResult), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { results, titles } = await services.search.inOrg(
        request.actor,
        request.params.organizationId,
        request.query,
      );
      return {
        items: presentSpaceResults(results.hits, titles, urls),
        count: results.count,
        ...(results.next ? { next: results.next } : {}),
      };
    },
  );

  app.get(
    '/v1/spaces/:spaceId/search',
    {
      schema: {
        operationId: 'searchSpaceContent',
        tags: ['space-content'],
        params: SpaceParams,
        querystring: SearchQuery,
        response: { 200: listOf(SearchPageResult), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const results = await services.search.inSpace(request.actor, request.params.spaceId, request.query);
      return {
        items: results.hits.map((hit) => presentPageHit(hit, urls)),
        count: results.count,
        ...(results.next ? { next: results.next } : {}),
      };
    },
  );
}
