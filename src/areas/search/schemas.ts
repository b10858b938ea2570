import { Type } from 'typebox';
import { PageQuery } from '../../http/schemas.js';

/**
 * Search hits as both official API versions describe them (`SearchSpaceResult`,
 * `SearchPageResult`, `SearchSectionResult`): 0.202.0 adds `score`, `rank` and `description`
 * as required fields, which 0.146.0 accepts as extra ones. `body` is a short HTML-escaped
 * excerpt of the section in which the matched words are wrapped in `<mark>`.
 */

export const SearchQuery = Type.Object({
  query: Type.String({ maxLength: 512, description: 'Words to search for: "phrases", -excluded words' }),
  ...PageQuery,
});

const Score = Type.Number({ minimum: 0, description: 'Relevance; higher is better' });
const ResultType = Type.Enum(['page', 'section']);
const AppUrls = Type.Object({ app: Type.String({ format: 'uri' }) });

export const SearchSectionResult = Type.Object({
  id: Type.String(),
  title: Type.String(),
  path: Type.String(),
  score: Score,
  resultType: ResultType,
  body: Type.String(),
  urls: AppUrls,
});

export const SearchPageResult = Type.Object({
  id: Type.String(),
  title: Type.String(),
  description: Type.String(),
  path: Type.String(),
  score: Score,
  rank: Type.Integer({ minimum: 1 }),
  resultType: ResultType,
  sections: Type.Array(SearchSectionResult),
  ancestors: Type.Array(Type.Object({ title: Type.String() })),
  urls: AppUrls,
});

export const SearchSpaceResult = Type.Object({
  type: Type.Literal('space'),
  id: Type.String(),
  title: Type.String(),
  score: Score,
  pages: Type.Array(SearchPageResult),
});
