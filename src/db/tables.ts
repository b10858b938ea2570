import type { Generated } from 'kysely';

/**
 * Row shapes of the database, shared by SQLite and PostgreSQL. Timestamps are ISO 8601 UTC strings
 * (they sort as text on both engines), flags are 0/1 integers and structured values are JSON text.
 */

export type Flag = 0 | 1;
export type RoleColumn = 'admin' | 'create' | 'edit' | 'review' | 'comment' | 'read';

export interface UsersTable {
  id: string;
  email: string;
  display_name: string;
  photo_url: string | null;
  created_at: string;
}

export interface ApiTokensTable {
  id: string;
  user_id: string;
  /** First 16 hex characters of the token's SHA-256: finds the row without comparing secrets. */
  lookup: string;
  /** Full SHA-256 of the token, compared in constant time. */
  hash: string;
  label: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** After this instant the token is refused like an unknown one; null never expires. */
  expires_at: string | null;
  /** JSON list of integration scopes for an installation's token (migration 0018); null otherwise. */
  scopes: string | null;
}

/** A browser session (src/areas/sessions); the cookie value is stored only as its digest. */
export interface SessionsTable {
  id: string;
  user_id: string;
  lookup: string;
  hash: string;
  /** How the person signed in: `link`, `saml:<providerId>`. */
  source: string;
  user_agent: string | null;
  created_at: string;
  last_seen_at: string;
  /** Slides forward with use, bounded by created_at plus the absolute lifetime. */
  expires_at: string;
}

/** A one-time sign-in link printed by `quire login-link`. */
export interface LoginLinksTable {
  id: string;
  user_id: string;
  lookup: string;
  hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface OrganizationsTable {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
  created_by: string;
  /** JSON array, mirrored row by row in `org_email_domains` for lookups. */
  email_domains: string;
  hostname: string | null;
  type: 'business' | 'community';
  use_case: string | null;
  community_type: string | null;
  default_role: RoleColumn | null;
  /** JSON of `{type: 'site', site}` or null. */
  default_content: string | null;
  sso: Flag;
  ai: Flag;
  invite_links: Flag;
  logo_url: string | null;
  /** JSON of the organization's merge rules. */
  merge_rules: string;
}

export interface OrgEmailDomainsTable {
  domain: string;
  org_id: string;
}

export interface MembersTable {
  org_id: string;
  user_id: string;
  /** Null for guests. */
  role: RoleColumn | null;
  joined_at: string;
  last_seen_at: string | null;
  disabled: Flag;
  sso: Flag;
}

export interface EmailInvitesTable {
  id: string;
  org_id: string;
  email: string;
  role: RoleColumn | null;
  invited_by: string;
  created_at: string;
}

export interface LinkInvitesTable {
  id: string;
  org_id: string;
  /** Organization role given on joining (null: guest). */
  role: RoleColumn | null;
  /** For links to one space or collection: the level given there. */
  level: RoleColumn | null;
  target_type: 'space' | 'collection' | null;
  target_id: string | null;
  created_by: string;
  created_at: string;
}

export interface AgentInstructionsTable {
  org_id: string;
  /** JSON rich-text document. */
  instructions: string;
  updated_at: string;
  updated_by: string;
}

/** `default_level` of collections and spaces: a role, null (no default access) or 'inherit'. */
export type DefaultLevelColumn = RoleColumn | 'inherit' | null;

export interface CollectionsTable {
  id: string;
  org_id: string;
  parent_id: string | null;
  title: string;
  description: string | null;
  default_level: DefaultLevelColumn;
  /** Order among the siblings (spaces and collections) of the same parent. */
  position: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface SpacesTable {
  id: string;
  org_id: string;
  parent_id: string | null;
  title: string;
  emoji: string | null;
  icon_url: string | null;
  visibility: 'public' | 'unlisted' | 'share-link' | 'visitor-auth' | 'in-collection' | 'private';
  edit_mode: 'live' | 'locked';
  language: string | null;
  default_level: DefaultLevelColumn;
  /** JSON of the space's merge rules ({type: 'inherit'} or its own). */
  merge_rules: string;
  revision_id: string;
  position: number;
  comments: number;
  change_requests: number;
  change_requests_open: number;
  change_requests_draft: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** Content-addressed store: the SHA-256 of `data` is its key, so equal content is stored once. */
export interface ObjectsTable {
  hash: string;
  data: string;
}

export interface RevisionsTable {
  id: string;
  space_id: string;
  /** JSON array of parent revision ids. */
  parents: string;
  type: string;
  /** Object holding the revision's tree (pages, files, reusable contents, variables). */
  tree_hash: string;
  created_by: string | null;
  created_at: string;
  /** The change request this revision belongs to (null: the space's main line). */
  change_request_id: string | null;
  /** For merge revisions: the merged change request. */
  merged_from: string | null;
  /** JSON of the git commit this revision came from or went to. */
  git: string | null;
}

export type ChangeRequestStatus = 'draft' | 'open' | 'archived' | 'merged';

export interface ChangeRequestsTable {
  id: string;
  space_id: string;
  number: number;
  status: ChangeRequestStatus;
  subject: string;
  /** JSON rich-text document. */
  description: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  merged_by: string | null;
  merged_at: string | null;
  revision_initial: string;
  revision: string;
  revision_merged_ancestor: string;
  revision_merged: string | null;
  comments: number;
  /** The conversations cluster it was opened for (`conversationsIssuesCluster`, migration 0021). */
  conversations_cluster_id: string | null;
}

export interface ChangeRequestReviewersTable {
  change_request_id: string;
  user_id: string;
  requested_by: string;
  revision: string;
  created_at: string;
}

export interface ChangeRequestReviewsTable {
  id: string;
  change_request_id: string;
  reviewer_id: string;
  status: 'approved' | 'changes-requested';
  revision: string;
  comment: string | null;
  created_at: string;
  updated_at: string;
}

export interface ChangeRequestContributorsTable {
  change_request_id: string;
  user_id: string;
  /** What they contributed: edits to the content, or comments. */
  action_type: 'edit' | 'comment';
  count: number;
  updated_at: string;
}

export interface PageLinksTable {
  space_id: string;
  page_id: string;
  seq: number;
  target_kind: 'page' | 'anchor' | 'file' | 'url';
  /** Page id, file id, or URL. */
  target: string;
  anchor: string | null;
  href: string;
}

export type CommentStatus = 'open' | 'resolved';

export interface CommentsTable {
  id: string;
  space_id: string;
  /** Null for a comment on the space itself. */
  change_request_id: string | null;
  /** Order of posting within the space: timestamps alone tie within a millisecond. */
  seq: number;
  posted_by: string;
  posted_at: string;
  edited_at: string | null;
  /** Markdown as written. */
  body: string;
  /** The revision the target was seen in when the comment was posted. */
  revision: string;
  target_page: string | null;
  target_node: string | null;
  target_record: string | null;
  target_definition: string | null;
  status: CommentStatus;
  resolved_at: string | null;
  resolved_by: string | null;
  replies: number;
}

export interface CommentRepliesTable {
  id: string;
  comment_id: string;
  seq: number;
  posted_by: string;
  posted_at: string;
  edited_at: string | null;
  body: string;
}

export interface CommentReactionsTable {
  comment_id: string;
  /** The comment or reply reacted to. */
  subject_id: string;
  emoji: string;
  user_id: string;
  reacted_at: string;
}

export type SiteVisibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth';

export interface SitesTable {
  id: string;
  org_id: string;
  type: string;
  title: string;
  visibility: SiteVisibility;
  published: 0 | 1;
  basename: string | null;
  hostname: string | null;
  /** JSON `{origin, target}`, or null. */
  proxy: string | null;
  adaptive_enabled: 0 | 1;
  agents_context: 'included' | 'excluded';
  /** JSON customization settings of the site. */
  customization: string;
  customization_updated_at: string | null;
  /** JSON draft-07 schema of visitor claims, or null when never set. */
  adaptive_schema: string | null;
  adaptive_schema_updated_at: string | null;
  /** Secret that signs visitor-auth JWTs (HS256). */
  auth_private_key: string;
  /** Where visitors without a valid token are sent, if set. */
  auth_fallback_url: string | null;
  /** Secret share-link keys are derived from; only their hashes are stored. */
  share_secret: string;
  default_section_id: string | null;
  /** Default site space at the root, for sites without sections. */
  default_site_space_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface SiteSectionGroupsTable {
  id: string;
  site_id: string;
  parent_id: string | null;
  title: string;
  icon: string | null;
  /** Order among the siblings, sections and groups alike. */
  position: number;
  created_at: string;
}

export interface SiteSectionsTable {
  id: string;
  site_id: string;
  group_id: string | null;
  title: string;
  description: string | null;
  path: string;
  condition: string | null;
  icon: string | null;
  position: number;
  default_site_space_id: string | null;
  created_at: string;
}

export interface SiteSpacesTable {
  id: string;
  site_id: string;
  /** Null when the site has no sections. */
  section_id: string | null;
  space_id: string;
  path: string;
  /** Overrides the space's title when set. */
  title: string | null;
  condition: string | null;
  hidden: 0 | 1;
  page_id: string | null;
  position: number;
  /** JSON customization overriding the site's, or null. */
  customization: string | null;
  created_at: string;
}

export interface SiteShareLinksTable {
  id: string;
  site_id: string;
  name: string | null;
  active: 0 | 1;
  key_hash: string;
  created_at: string;
}

export interface TeamsTable {
  id: string;
  org_id: string;
  title: string;
  created_at: string;
}

export interface TeamMembersTable {
  team_id: string;
  user_id: string;
  org_id: string;
  role: 'owner' | 'member';
  joined_at: string;
}

export interface GrantsTable {
  org_id: string;
  target_type: 'space' | 'collection';
  target_id: string;
  principal_type: 'user' | 'team';
  principal_id: string;
  role: RoleColumn;
  created_at: string;
}

export interface JobsTable {
  id: string;
  kind: string;
  /** JSON. */
  payload: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  run_at: string;
  attempts: number;
  max_attempts: number;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface SchedulesTable {
  name: string;
  interval_ms: number;
  next_run_at: string;
}

/** Which revision of a space the search index holds, analysed how. */
export interface SearchSpacesTable {
  space_id: string;
  revision_id: string;
  tree_hash: string;
  language: string | null;
  /** ANALYZER_VERSION the space was indexed with. */
  version: number;
  indexed_at: string;
  /** The revision a sync in steps is writing (0034); null when none is part way. */
  pending_revision_id: string | null;
}

/** A document page in the search index: its place in the tree when it was indexed. */
export interface SearchPagesTable {
  space_id: string;
  page_id: string;
  title: string;
  description: string;
  path: string;
  /** JSON array of the ancestors' titles, top-level first. */
  ancestors: string;
  /** Hidden itself or under a hidden page. */
  hidden: Flag;
  /** The page's number in its space (part of its sections' ids on SQLite); null before 0011. */
  num: number | null;
  /** The OpenAPI specs the page draws, `|slug|slug|` in lower case; null when none (or before 0016). */
  specs: string | null;
}

/** The number of each indexed space (part of its sections' ids on SQLite). */
export interface SearchSpaceKeysTable {
  space_id: string;
  num: number;
}

/** One section of an indexed page (the terms are in search_fts or the `vector` column). */
export interface SearchSectionsTable {
  id: Generated<number>;
  space_id: string;
  page_id: string;
  position: number;
  anchor: string | null;
  heading: string;
  body: string;
}

/** Stem of each indexed term, per stemmer: a query word expands to the terms sharing its stem. */
export interface SearchVocabTable {
  stemmer: string;
  stem: string;
  term: string;
}

/** One term's postings in a chunk of 1,024 page numbers of a space (search/postings/codec.ts). */
export interface SearchPostingsTable {
  space_id: string;
  term: string;
  chunk: number;
  entries: Buffer;
  positions: Buffer;
}

/** A page's converted document for a profile (areas/content/stored-documents.ts). */
export interface PageDocumentsTable {
  space_id: string;
  page_id: string;
  profile: string;
  /** The hash of the markdown it was converted from. */
  body: string;
  /** JSON: the questions the conversion asked of the tree's links, with their answers. */
  asked: string;
  /** The document's JSON, deflated. */
  document: Buffer;
  /** The stamp of the code that converted it (areas/content/converter-stamp.ts). */
  converter: Generated<string>;
}

/** The tree a space's converted documents were last filled for. */
export interface PageDocumentFillsTable {
  space_id: string;
  tree_hash: string;
  /** The stamp of the code that filled them (areas/content/converter-stamp.ts). */
  converter: Generated<string>;
}

/** How many sections of a space hold a term. */
export interface SearchTermsTable {
  space_id: string;
  term: string;
  sections: number;
}

/** What a space's postings cover; a space without a row is searched without them. */
export interface SearchSpaceStatsTable {
  space_id: string;
  pages: number;
  sections: number;
  /** Terms of every section, title and heading included (bm25's average length). */
  tokens: number;
  /** New at every write of the space's postings (0031); 0: never written since. */
  generation: Generated<number>;
}

/** An indexed page's number among its organization's (0035; search/postings/org-postings.ts). */
export interface SearchOrgPagesTable {
  org_id: string;
  onum: number;
  space_id: string;
  /** Its number in its space (search_pages.num). */
  num: number;
}

/**
 * A page of an organization whose postings are not written yet (0036), with what they hold of it:
 * the page as JSON (PostedPage without its number), or null.
 */
export interface SearchOrgPendingTable {
  org_id: string;
  onum: number;
  was: string | null;
}

/** Git sync of a space (src/areas/git). */
export interface GitSyncsTable {
  space_id: string;
  installation_id: string;
  provider: string;
  /** Without credentials. */
  url: string;
  ref: string;
  project_directory: string;
  tree_url: string | null;
  commit_url: string | null;
  /** JSON: the redirects of .gitbook.yaml, written back on export. */
  redirects: string | null;
  last_commit: string | null;
  last_revision: string | null;
  last_timestamp: string | null;
  op_state: string | null;
  op_direction: string | null;
  op_started_at: string | null;
  op_ended_at: string | null;
  op_error: string | null;
  /** JSON array of what an operation left out. */
  op_warnings: string | null;
  lease_job: string | null;
  lease_until: string | null;
  created_at: string;
  updated_at: string;
}

export type ImportRunStatus = 'pending' | 'in-progress' | 'completed' | 'failed' | 'cancelled';

/** A content import run (src/areas/imports). */
export interface ImportRunsTable {
  id: string;
  org_id: string;
  space_id: string;
  /** The change request asked for as the target, if any. */
  change_request_id: string | null;
  /** The page asked for as the parent of the imported pages, if any. */
  page_id: string | null;
  /** The change request the run wrote into: the target one, or the one it opened (and merged). */
  written_change_request_id: string | null;
  /** JSON: the source as asked (`{type: 'file', files: [...]}`). */
  source: string;
  status: ImportRunStatus;
  reason: string | null;
  /** JSON array of `{id, sourceURL}`: the pages made. */
  pages: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
}

export type StorageUploadKind = 'import_file' | 'organization_file' | 'customization_font';

/** A file upload (src/areas/storage): pending until its bytes are PUT at its signed URL. */
export interface StorageUploadsTable {
  /** The key the API returns and imports name the file by. */
  key: string;
  org_id: string;
  kind: StorageUploadKind;
  /** The declared file name, MIME type and size in bytes. */
  name: string;
  content_type: string;
  size: number;
  /** SHA-256 (hex) of the single-use upload token; the token itself is never stored. */
  token_digest: string;
  status: 'pending' | 'complete';
  /** The blob holding the bytes, once complete. */
  blob_hash: string | null;
  created_by: string;
  created_at: string;
  /** The upload URL works until then. */
  expires_at: string;
  completed_at: string | null;
}

export type OpenApiVisibility = 'private' | 'public';
export type OpenApiProcessingState = 'pending' | 'progress' | 'complete';

/** An OpenAPI specification (src/areas/openapi). */
export interface OpenApiSpecsTable {
  id: string;
  org_id: string;
  /** As created; `slug_key` (lower case) is what names it. */
  slug: string;
  slug_key: string;
  /** One of `source_url` and `source_blob` is set: the URL, or the blob holding the text. */
  source_url: string | null;
  source_blob: string | null;
  /** Counts source changes; a processing run that read an older source drops its result. */
  source_rev: number;
  visibility: OpenApiVisibility;
  processing_state: OpenApiProcessingState;
  /** The newest version, kept when a later run fails. */
  last_version_id: string | null;
  last_processed_at: string | null;
  last_error_code: 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR' | null;
  /** JSON array of `{message, code?}`, at most 100; `last_error_count` is the full count. */
  last_errors: string | null;
  last_error_count: number;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** A processed content of a spec, stored when it differed from the version before. */
export interface OpenApiSpecVersionsTable {
  id: string;
  spec_id: string;
  /** 1, 2, 3… per spec: newest highest. */
  seq: number;
  /** SHA-256 of the document's canonical JSON: what "the content changed" compares. */
  hash: string;
  /** Blob of the bundled document as JSON. */
  document_blob: string;
  /** Blob of the entry file exactly as submitted or fetched, and its format. */
  raw_blob: string;
  raw_format: 'json' | 'yaml';
  /** The URL it was fetched from (after redirects), for URL sources. */
  source_url: string | null;
  /** How many other files were bundled into the document. */
  external_documents: number;
  created_at: string;
}

/** A SAML identity provider of an organization (src/areas/sso); IdP fields are '' until set. */
export interface SamlProvidersTable {
  id: string;
  org_id: string;
  label: string;
  entity_id: string;
  /** PEM of the IdP's signing certificate, as given. */
  certificate: string;
  sso_url: string | null;
  default_team_id: string | null;
  /** Role given on joining by single sign-on; null: guest. */
  default_role: RoleColumn | null;
  created_at: string;
  updated_at: string;
}

/** An AuthnRequest id sent to an IdP, single-use, until `expires_at`. */
export interface SamlRequestsTable {
  id: string;
  provider_id: string;
  relay_state: string;
  /** Same-origin path to return to after signing in. */
  return_path: string | null;
  created_at: string;
  expires_at: string;
}

export type IntegrationVisibility = 'public' | 'private' | 'unlisted';

/** A published integration (src/areas/integrations); lists and objects are JSON text. */
export interface IntegrationsTable {
  /** Global, as GitBook's are; the first organization to publish it owns it. */
  name: string;
  owner_org_id: string;
  /** 1 at the first publish, one more at each later one. */
  version: number;
  title: string;
  description: string;
  summary: string | null;
  visibility: IntegrationVisibility;
  target: 'all' | 'site' | 'space' | 'organization';
  runtime: 'v1' | 'v2';
  scopes: string;
  categories: string;
  blocks: string;
  content_sources: string;
  configurations: string;
  external_links: string;
  /** JSON of the CSP string or directive object; null when none was given. */
  content_security_policy: string | null;
  /** `|host|host|` of the blocks' urlUnfurl patterns, lower case: what `blockDomain` matches. */
  unfurl_hosts: string;
  /** Blob hash of the icon (PNG, JPEG or WebP), or null. */
  icon: string | null;
  /** JSON array of the preview images' blob hashes. */
  preview_images: string;
  /** Blob hash of the bundled script. */
  script_sha: string;
  /** The secrets object as JSON, sealed by the server's SecretBox; never plaintext. */
  secrets: string | null;
  created_at: string;
  updated_at: string;
}

/** An integration installed in an organization (one per pair). */
export interface IntegrationInstallationsTable {
  id: string;
  integration_name: string;
  org_id: string;
  status: 'active';
  /** JSON object of the installation's configuration. */
  configuration: string;
  /** `all`: events of every space of the organization; `selected`: of its space installations. */
  space_selection: 'all' | 'selected';
  /** JSON list of the ids the integration assigned (at most 5). */
  external_ids: string;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** An integration installed on one space of its installation's organization (migration 0019). */
export interface IntegrationSpaceInstallationsTable {
  installation_id: string;
  space_id: string;
  status: 'active';
  /** JSON object of the configuration for this space. */
  configuration: string;
  /** JSON list of the ids the integration assigned (at most 5). */
  external_ids: string;
  created_at: string;
  updated_at: string;
}

/** An event delivered to an integration, with the outcome of its last attempt (migration 0019). */
export interface IntegrationEventsTable {
  /** The event's `eventId`. */
  id: string;
  integration_name: string;
  installation_id: string | null;
  type: string;
  /** JSON of the event as delivered. */
  payload: string;
  status: 'success' | 'failed';
  /** JSON list of `{message, timestamp, level}` written by the script during the last attempt. */
  logs: string;
  attempts: number;
  created_at: string;
  updated_at: string;
}

/** A space kept translated into another language (migration 0020). */
export interface TranslationsTable {
  id: string;
  org_id: string;
  source_space_id: string;
  source_language: string;
  language: string;
  /** JSON of the instructions document. */
  instructions: string;
  status: 'pending' | 'running' | 'completed';
  target_space_id: string | null;
  result_revision_id: string | null;
  /** The source revision the result was translated from. */
  source_revision_id: string | null;
  /** Digest of what else the result depends on (instructions, languages, service). */
  settings_digest: string | null;
  runs: number;
  total_words: number;
  total_pages: number;
  total_duration: number;
  latest_run_duration: number;
  latest_pages: number;
  latest_words: number;
  /** Why the latest run failed, or which pages kept their previous text; null when all went through. */
  last_error: string | null;
  /** 1 when a run was asked for while one was going. */
  run_wanted: number;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** What each target page was translated from (migration 0020). */
export interface TranslationPagesTable {
  translation_id: string;
  page_id: string;
  /** Digest of the source page's title, description and body. */
  source_digest: string;
  /** 1 when its translation failed and it kept its previous text (tried again next run). */
  failed: number;
}

/** Translated segments by digest of their source and settings (migration 0020). */
export interface TranslationMemoryTable {
  digest: string;
  text: string;
  created_at: string;
}

/** A support conversation sent to the organization (migration 0021). */
export interface ConversationsTable {
  id: string;
  org_id: string;
  /** `integration:<integration>:<installation>`, `integration:api:<user>` or `email`. */
  source: string;
  /** Its id in its source. */
  external_id: string;
  subject: string | null;
  /** JSON of the `metadata` it was sent with ({} when none). */
  metadata: string;
  /** JSON of its parts (messages). */
  parts: string;
  created_at: string;
  ingested_at: string;
  /** When the analysis read it; null until then. */
  processed_at: string | null;
}

/** A documentation issue found in a conversation (migration 0021). */
export interface ConversationIssuesTable {
  id: string;
  org_id: string;
  conversation_id: string;
  title: string;
  summary: string;
  /** The language the analysis read it in (a code of the search analyzer, or `und`). */
  language: string;
  cluster_id: string | null;
  /** 1 once a clustering has seen it. */
  analysed: number;
  created_at: string;
  ingested_at: string;
}

/** A cluster of related issues (migration 0021). */
export interface ConversationClustersTable {
  id: string;
  org_id: string;
  label: string;
  /** The summary of the issue nearest the centre (the API's summary adds the counts). */
  medoid_summary: string;
  icon: string;
  /** JSON: the members' dates, sorted (the weekly pulse is counted from them when read). */
  dates: string;
  /** JSON: issues per conversation source. */
  sources: string;
  issues: number;
  conversations: number;
  /** JSON: the organization's pages that match it best, `[{spaceId, pageId, title, score}]`. */
  pages: string;
  /** 1 when no page matches it well: a documentation gap. */
  gap: number;
  created_at: string;
  updated_at: string;
}

/** A printed PDF kept for the next request of the same print (migration 0022). */
export interface PdfRendersTable {
  key: string;
  space_id: string;
  revision_id: string;
  blob_hash: string;
  size: number;
  /** Content pages printed. */
  pages: number;
  render_ms: number;
  created_at: string;
}

/** An organization's last batch clustering (migration 0021). */
export interface ConversationAnalysesTable {
  org_id: string;
  /** JSON of the engine's model (src/conversations: vocabulary and centroids). */
  model: string;
  clustered_at: string;
}

export interface Tables {
  users: UsersTable;
  api_tokens: ApiTokensTable;
  sessions: SessionsTable;
  login_links: LoginLinksTable;
  organizations: OrganizationsTable;
  org_email_domains: OrgEmailDomainsTable;
  members: MembersTable;
  email_invites: EmailInvitesTable;
  link_invites: LinkInvitesTable;
  agent_instructions: AgentInstructionsTable;
  collections: CollectionsTable;
  spaces: SpacesTable;
  objects: ObjectsTable;
  revisions: RevisionsTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  grants: GrantsTable;
  jobs: JobsTable;
  schedules: SchedulesTable;
  change_requests: ChangeRequestsTable;
  change_request_reviewers: ChangeRequestReviewersTable;
  change_request_reviews: ChangeRequestReviewsTable;
  change_request_contributors: ChangeRequestContributorsTable;
  page_links: PageLinksTable;
  comments: CommentsTable;
  comment_replies: CommentRepliesTable;
  comment_reactions: CommentReactionsTable;
  sites: SitesTable;
  site_section_groups: SiteSectionGroupsTable;
  site_sections: SiteSectionsTable;
  site_spaces: SiteSpacesTable;
  site_share_links: SiteShareLinksTable;
  search_spaces: SearchSpacesTable;
  search_pages: SearchPagesTable;
  search_space_keys: SearchSpaceKeysTable;
  search_sections: SearchSectionsTable;
  search_vocab: SearchVocabTable;
  search_postings: SearchPostingsTable;
  search_terms: SearchTermsTable;
  search_space_stats: SearchSpaceStatsTable;
  search_org_pages: SearchOrgPagesTable;
  search_org_pending: SearchOrgPendingTable;
  git_syncs: GitSyncsTable;
  import_runs: ImportRunsTable;
  storage_uploads: StorageUploadsTable;
  openapi_specs: OpenApiSpecsTable;
  openapi_spec_versions: OpenApiSpecVersionsTable;
  saml_providers: SamlProvidersTable;
  saml_requests: SamlRequestsTable;
  integrations: IntegrationsTable;
  integration_installations: IntegrationInstallationsTable;
  integration_space_installations: IntegrationSpaceInstallationsTable;
  integration_events: IntegrationEventsTable;
  translations: TranslationsTable;
  translation_pages: TranslationPagesTable;
  translation_memory: TranslationMemoryTable;
  conversations: ConversationsTable;
  conversation_issues: ConversationIssuesTable;
  conversation_clusters: ConversationClustersTable;
  conversation_analyses: ConversationAnalysesTable;
  pdf_renders: PdfRendersTable;
  page_documents: PageDocumentsTable;
  page_document_fills: PageDocumentFillsTable;
}
