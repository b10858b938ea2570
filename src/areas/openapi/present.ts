import type { OpenApiSpecsTable, OpenApiSpecVersionsTable } from '../../db/tables.js';
import type { Urls } from '../../http/urls.js';
import type { ProcessingIssue } from '../../openapi/document.js';
import type { OpenApiSpec, OpenApiSpecVersion } from './schemas.js';

export interface SpecView {
  row: OpenApiSpecsTable;
  /** The caller may change or delete it (the createOpenAPISpec role). */
  edit: boolean;
}

/** Where a spec's API resource is, and the path its public copy and versions hang under. */
function specPath(row: Pick<OpenApiSpecsTable, 'org_id' | 'slug'>): string {
  return `/orgs/${row.org_id}/openapi/${encodeURIComponent(row.slug)}`;
}

/** The public raw URL of a spec (it answers only while the spec is public). */
export function publicSpecUrl(urls: Urls, row: Pick<OpenApiSpecsTable, 'org_id' | 'slug'>): string {
  return `${urls.base}/openapi/o/${encodeURIComponent(row.org_id)}/${encodeURIComponent(row.slug)}`;
}

/** Where a version's entry file can be read (a Quire extension of `…/versions/latest/content/raw`). */
export function versionRawUrl(urls: Urls, spec: OpenApiSpecsTable, versionId: string): string {
  return urls.api(`${specPath(spec)}/versions/${versionId}/content/raw`);
}

export function presentSpec(view: SpecView, urls: Urls): OpenApiSpec {
  const { row } = view;
  const spec: OpenApiSpec = {
    object: 'openapi-spec',
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    slug: row.slug,
    processingState: row.processing_state,
    visibility: row.visibility,
    lastProcessedErrorCount: row.last_error_count,
    permissions: { view: true, edit: view.edit },
    urls: {
      location: urls.api(specPath(row)),
      app: urls.app(`/o/${row.org_id}/openapi/${encodeURIComponent(row.slug)}`),
    },
  };
  if (row.source_url !== null) spec.sourceURL = row.source_url;
  if (row.last_version_id !== null) spec.lastVersion = row.last_version_id;
  if (row.last_processed_at !== null) spec.lastProcessedAt = row.last_processed_at;
  if (row.last_error_code !== null) spec.lastProcessErrorCode = row.last_error_code;
  if (row.last_errors !== null) spec.lastProcessedErrors = JSON.parse(row.last_errors) as ProcessingIssue[];
  if (row.visibility === 'public') spec.urls.published = publicSpecUrl(urls, row);
  return spec;
}

export function presentVersion(
  spec: OpenApiSpecsTable,
  version: OpenApiSpecVersionsTable,
  urls: Urls,
): OpenApiSpecVersion {
  return {
    object: 'openapi-spec-version',
    id: version.id,
    createdAt: version.created_at,
    url: versionRawUrl(urls, spec, version.id),
    urls: { location: urls.api(`${specPath(spec)}/versions/${version.id}`) },
  };
}

const ENTRY = JSON.stringify({ dir: '.', isEntrypoint: true, references: [], filename: 'openapi.json' });

/**
 * The `OpenApiSpecContent` of a version, as JSON text: the document is already JSON in the blob
 * store, and is spliced in rather than parsed and serialized again (it can be megabytes).
 */
export function presentContentJson(
  spec: OpenApiSpecsTable,
  version: OpenApiSpecVersionsTable,
  documentJson: string,
  urls: Urls,
): string {
  const url = versionRawUrl(urls, spec, version.id);
  const tail = JSON.stringify({
    url,
    urls: {
      source: version.source_url ?? url,
      public: spec.visibility === 'public' ? publicSpecUrl(urls, spec) : null,
    },
  });
  return `{"filesystem":{"0":${ENTRY.slice(0, -1)},"specification":${documentJson}}},${tail.slice(1)}`;
}
