import type { Actor } from '../../auth/actor.js';
import type { Deps } from '../../deps.js';
import { invalidField } from '../../errors.js';
import type { SearchResults } from '../../search/engine.js';
import type { Services } from '../../services.js';

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
    private readonly deps: Deps,
    private readonly services: Services,
  ) {}

  async inOrg(
    actor: Actor,
    orgId: string,
    input: SearchInput,
  ): Promise<{ results: SearchResults; titles: Map<string, string> }> {
    const scope = await this.services.authz.scope(actor, orgId);
    requireText(input.query);
    const languages = await this.deps.db
      .selectFrom('spaces')
      .select('language')
      .distinct()
      .where('org_id', '=', orgId)
      .where('deleted_at', 'is', null)
      .execute();
    const results = await this.services.searchEngine.search({
      query: input.query,
      scope: { org: { orgId, visibility: scope.spaceVisibility() }, includeHidden: false },
      languages: languages.map((row) => row.language),
      page: input.page,
      limit: input.limit,
      scopeKey: `org:${orgId}`,
    });
    const ids = [...new Set(results.hits.map((hit) => hit.spaceId))];
    const rows =
      ids.length > 0
        ? await this.deps.db.selectFrom('spaces').select(['id', 'title']).where('id', 'in', ids).execute()
        : [];
    return { results, titles: new Map(rows.map((row) => [row.id, row.title])) };
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
