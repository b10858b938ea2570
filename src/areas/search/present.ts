import type { Static } from 'typebox';
import type { Urls } from '../../http/urls.js';
import type { PageHit } from '../../search/engine.js';
import type { SearchPageResult, SearchSpaceResult } from './schemas.js';

type PageResult = Static<typeof SearchPageResult>;
type SpaceResult = Static<typeof SearchSpaceResult>;

/** A page hit as the API gives it: `path#anchor` and app URLs point at the matched section. */
export function presentPageHit(hit: PageHit, urls: Urls): PageResult {
  const app = urls.app(`/s/${hit.spaceId}/${hit.path.split('/').map(encodeURIComponent).join('/')}`);
  return {
    id: hit.pageId,
    title: hit.title,
    description: hit.description,
    path: hit.path,
    score: hit.score,
    rank: hit.rank,
    resultType: hit.resultType,
    sections: hit.sections.map((section) => ({
      id: section.id,
      title: section.title,
      path: section.anchor ? `${hit.path}#${section.anchor}` : hit.path,
      score: section.score,
      resultType: section.resultType,
      body: section.body,
      urls: { app: section.anchor ? `${app}#${section.anchor}` : app },
    })),
    ancestors: hit.ancestors.map((title) => ({ title })),
    urls: { app },
  };
}

/**
 * Organization results: the page hits of one result page grouped by space, spaces in the
 * order of their best hit; each hit keeps its `rank` in the whole ranked list.
 */
export function presentSpaceResults(
  hits: PageHit[],
  titles: ReadonlyMap<string, string>,
  urls: Urls,
): SpaceResult[] {
  const groups = new Map<string, { score: number; pages: PageResult[] }>();
  for (const hit of hits) {
    const group = groups.get(hit.spaceId) ?? { score: 0, pages: [] };
    group.score = Math.max(group.score, hit.score);
    group.pages.push(presentPageHit(hit, urls));
    groups.set(hit.spaceId, group);
  }
  return [...groups].map(([id, group]) => ({
    type: 'space' as const,
    id,
    title: titles.get(id) ?? '',
    score: group.score,
    pages: group.pages,
  }));
}
