import { type Static, Type } from 'typebox';
import { PageQuery } from '../../http/schemas.js';
import { DocumentWire } from '../agent-instructions/schemas.js';
import { OrgParams } from '../orgs/schemas.js';
import { Language } from '../spaces/schemas.js';

const DateTime = Type.String({ format: 'date-time' });
const Count = Type.Integer({ minimum: 0 });

export const TranslationSource = Type.Object({
  space: Type.String({ minLength: 1, maxLength: 128 }),
  language: Language,
});

export const Translation = Type.Object({
  object: Type.Literal('translation'),
  id: Type.String(),
  status: Type.Enum(['pending', 'running', 'completed']),
  source: TranslationSource,
  language: Language,
  instructions: DocumentWire,
  result: Type.Optional(Type.Object({ space: Type.String(), revision: Type.String(), language: Language })),
  createdAt: DateTime,
  updatedAt: DateTime,
  stats: Type.Object({
    runs: Count,
    totalWords: Count,
    totalPages: Count,
    totalDuration: Count,
    latestRunDuration: Count,
    latestPages: Count,
    latestWords: Count,
  }),
  permissions: Type.Object({ view: Type.Boolean(), edit: Type.Boolean() }),
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
});
export type Translation = Static<typeof Translation>;

export const CreateTranslationBody = Type.Object({
  source: TranslationSource,
  language: Language,
  instructions: Type.Optional(DocumentWire),
});
export type CreateTranslationBody = Static<typeof CreateTranslationBody>;

export const UpdateTranslationBody = Type.Object({ instructions: DocumentWire });

export const TranslationParams = Type.Object({
  ...OrgParams.properties,
  translationId: Type.String({ minLength: 1, maxLength: 128 }),
});

export const ListTranslationsQuery = Type.Object({ ...PageQuery });
export type ListTranslationsQuery = Static<typeof ListTranslationsQuery>;
