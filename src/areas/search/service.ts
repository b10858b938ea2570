import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorize.js';
import { invalidField } from '../../errors.js';
import type { SearchEngine, SearchResults } from '../../search/engine.js';
import type { SpacesService } from '../spaces/service.js';

export interface SearchInput {
  query: string;
  page?: string | undefined;
  limit?: number | undefined;
}

/**
 * Search through the API: who may search where. An organization search covers the spaces of
 * the organization the caller may read (their visibility computed once, as SQL, like the
 * space list), a space search the one space the caller may read. Hidden pages are left out, as
 * on the published site: they are pages their authors keep out of navigation and search.
 */
export class SearchService {
  constructor(
    private readonly services: {
      authz: Pick<Authorizer, 'scope' | 'space'>;
      searchEngine: Pick<SearchEngine, 'search'>;
      spaces: Pick<SpacesService, 'languagesIn' | 'titles'>;
    },
  ) {}

  async inOrg(
    actor: Actor,
    orgId: string,
    input: SearchInput,
  ): Promise<{ results: SearchResults; titles: Map<string, string> }> {
    const scope = await this.services.authz.scope(actor, orgId);
    requireText(input.query);
    const languages = await this.services.spaces.languagesIn(orgId);
    const results = await this.services.searchEngine.search({
      query: input.query,
      scope: { org: { orgId, visibility: scope.spaceVisibility() }, includeHidden: false },
      languages,
      page: input.page,
      limit: input.limit,
      scopeKey: `org:${orgId}`,
    });
    const ids = [...new Set(results.hits.map((hit) => hit.spaceId))];
    return { results, titles: await this.services.spaces.titles(ids) };
  }

  async inSpace(actor: Actor, spaceId: string, input: SearchInput): Promise<SearchResults> {
    const { space } = await this.services.authz.space(actor, spaceId, 'view');
    requireText(input.query);
    return this.services.searchEngine.search({
      query: input.query,
      scope: { spaceIds: [space.id], includeHidden: false },
      languages: [space.language],
      page: input.page,
      limit: input.limit,
      scopeKey: `space:${space.id}`,
    });
  }
}

function requireText(query: string): void {
  if (query.trim() === '')
    throw invalidField('querystring.query', 'must not be empty: give the words to search for');
}
