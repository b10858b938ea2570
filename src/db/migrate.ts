import { type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Database } from './database.js';
import * as foundation from './migrations/0001-foundation.js';
import * as spaces from './migrations/0002-spaces.js';
import * as content from './migrations/0003-content.js';
import * as comments from './migrations/0004-comments.js';
import * as sites from './migrations/0005-sites.js';
import * as search from './migrations/0006-search.js';
import * as git from './migrations/0007-git.js';
import * as searchSpeed from './migrations/0008-search-speed.js';
import * as imports from './migrations/0009-imports.js';
import * as uploads from './migrations/0010-uploads.js';
import * as searchKeys from './migrations/0011-search-keys.js';
import * as searchTiers from './migrations/0012-search-tiers.js';
import * as openapi from './migrations/0013-openapi.js';
import * as sessions from './migrations/0014-sessions.js';
import * as saml from './migrations/0015-saml.js';
import * as searchPageSpecs from './migrations/0016-search-page-specs.js';
import * as integrations from './migrations/0017-integrations.js';
import * as installationTokens from './migrations/0018-installation-tokens.js';
import * as integrationSpacesEvents from './migrations/0019-integration-spaces-events.js';
import * as translations from './migrations/0020-translations.js';
import * as conversations from './migrations/0021-conversations.js';
import * as pdfRenders from './migrations/0022-pdf-renders.js';
import * as changeCounter from './migrations/0023-change-counter.js';
import * as searchHiddenPages from './migrations/0024-search-hidden-pages.js';
import * as searchWeightIndexes from './migrations/0025-search-weight-indexes.js';
import * as searchPageTerms from './migrations/0026-search-page-terms.js';
import * as searchPageTermsSqlite from './migrations/0027-search-page-terms-sqlite.js';
import * as searchVectorsInline from './migrations/0028-search-vectors-inline.js';
import * as searchTitleHeadingTables from './migrations/0029-search-title-heading-tables.js';
import * as searchPostings from './migrations/0030-search-postings.js';
import * as searchPostingsGeneration from './migrations/0031-search-postings-generation.js';
import * as siblingOrder from './migrations/0032-sibling-order.js';
import * as searchOrgTerms from './migrations/0033-search-org-terms.js';
import * as searchPendingRevision from './migrations/0034-search-pending-revision.js';
import * as searchOrgPages from './migrations/0035-search-org-pages.js';
import * as searchOrgPending from './migrations/0036-search-org-pending.js';
import * as pageDocuments from './migrations/0037-page-documents.js';
import * as pageDocumentConverter from './migrations/0038-page-document-converter.js';

/** Every migration, in order. Bundled as modules so the built server needs no migration folder. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-spaces': spaces,
  '0003-content': content,
  '0004-comments': comments,
  '0005-sites': sites,
  '0006-search': search,
  '0007-git': git,
  '0008-search-speed': searchSpeed,
  '0009-imports': imports,
  '0010-uploads': uploads,
  '0011-search-keys': searchKeys,
  '0012-search-tiers': searchTiers,
  '0013-openapi': openapi,
  '0014-sessions': sessions,
  '0015-saml': saml,
  '0016-search-page-specs': searchPageSpecs,
  '0017-integrations': integrations,
  '0018-installation-tokens': installationTokens,
  '0019-integration-spaces-events': integrationSpacesEvents,
  '0020-translations': translations,
  '0021-conversations': conversations,
  '0022-pdf-renders': pdfRenders,
  '0023-change-counter': changeCounter,
  '0024-search-hidden-pages': searchHiddenPages,
  '0025-search-weight-indexes': searchWeightIndexes,
  '0026-search-page-terms': searchPageTerms,
  '0027-search-page-terms-sqlite': searchPageTermsSqlite,
  '0028-search-vectors-inline': searchVectorsInline,
  '0029-search-title-heading-tables': searchTitleHeadingTables,
  '0030-search-postings': searchPostings,
  '0031-search-postings-generation': searchPostingsGeneration,
  '0032-sibling-order': siblingOrder,
  '0033-search-org-terms': searchOrgTerms,
  '0034-search-pending-revision': searchPendingRevision,
  '0035-search-org-pages': searchOrgPages,
  '0036-search-org-pending': searchOrgPending,
  '0037-page-documents': pageDocuments,
  '0038-page-document-converter': pageDocumentConverter,
};

class StaticProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return MIGRATIONS;
  }
}

export interface MigrationReport {
  applied: string[];
}

export async function migrateToLatest(database: Database): Promise<MigrationReport> {
  const migrator = new Migrator({
    db: database.db,
    provider: new StaticProvider(),
    ...(database.schema ? { migrationTableSchema: database.schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`migration ${failed ?? '(unknown)'} failed: ${reason}`);
  }
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}
