import type { TranslationsTable } from '../../db/tables.js';
import type { Urls } from '../../http/urls.js';
import type { Translation } from './schemas.js';

type Language = Translation['language'];

/** Only organization admins see translations, and they may do everything with them. */
export function presentTranslation(row: TranslationsTable, urls: Urls): Translation {
  const translation: Translation = {
    object: 'translation',
    id: row.id,
    status: row.status,
    source: { space: row.source_space_id, language: row.source_language as Language },
    language: row.language as Language,
    instructions: JSON.parse(row.instructions) as Record<string, unknown>,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    stats: {
      runs: row.runs,
      totalWords: row.total_words,
      totalPages: row.total_pages,
      totalDuration: row.total_duration,
      latestRunDuration: row.latest_run_duration,
      latestPages: row.latest_pages,
      latestWords: row.latest_words,
    },
    permissions: { view: true, edit: true },
    urls: { location: urls.api(`/orgs/${row.org_id}/translations/${row.id}`) },
  };
  if (row.target_space_id && row.result_revision_id) {
    translation.result = {
      space: row.target_space_id,
      revision: row.result_revision_id,
      language: row.language as Language,
    };
  }
  return translation;
}
