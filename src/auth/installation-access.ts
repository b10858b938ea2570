/**
 * What an integration's installation token may call. GitBook's contract says which operations
 * accept such a token (`integration-installation` in their `security`); of those Quire
 * implements, each needs one of the integration's scopes, or none. Everything else is refused,
 * whatever the token's user could otherwise do: an installation acts only through these.
 */
export const INSTALLATION_OPERATIONS: Record<string, readonly string[]> = {
  'GET /v1/': [],
  'GET /v1/spaces/{spaceId}': ['space:metadata:read', 'space:content:read'],
  'GET /v1/spaces/{spaceId}/content': ['space:content:read'],
  'GET /v1/spaces/{spaceId}/revisions/{revisionId}': ['space:content:read'],
  'GET /v1/spaces/{spaceId}/revisions/{revisionId}/changes': ['space:content:read'],
  'GET /v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}': ['space:content:read'],
  'POST /v1/spaces/{spaceId}/git/import': ['space:git:sync'],
  'POST /v1/spaces/{spaceId}/git/export': ['space:git:sync'],
  'GET /v1/integrations': [],
  'GET /v1/integrations/{integrationName}': [],
  'GET /v1/orgs/{organizationId}': [],
  'GET /v1/orgs/{organizationId}/spaces': ['space:metadata:read', 'space:content:read'],
  'GET /v1/orgs/{organizationId}/sites/{siteId}': ['site:metadata:read'],
  'GET /v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema': ['site:adaptive:read'],
  'PUT /v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema': ['site:adaptive:write'],
  'GET /v1/urls/content': ['space:content:read'],
  // 0.146 only (GitBook dropped conversations from 0.202).
  'POST /v1/orgs/{organizationId}/conversations': ['conversations:ingest'],
  // Its own installation only (the integrations area checks that it is the one).
  'GET /v1/integrations/{integrationName}/installations/{installationId}': [],
  'PATCH /v1/integrations/{integrationName}/installations/{installationId}': [],
  'GET /v1/integrations/{integrationName}/installations/{installationId}/spaces': [],
  'POST /v1/integrations/{integrationName}/installations/{installationId}/spaces': [],
  'GET /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}': [],
  'PATCH /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}': [],
  'DELETE /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}': [],
};

/** Fastify's `:name` route parameters in the contract's `{name}` form. */
const templates = new Map<string, string>();
function contractPath(route: string): string {
  let path = templates.get(route);
  if (path === undefined) {
    path = route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    templates.set(route, path);
  }
  return path;
}

/**
 * Why an installation token with `scopes` may not call `method route` (a Fastify route
 * pattern), or undefined when it may.
 */
export function installationRefusal(
  method: string,
  route: string,
  scopes: readonly string[],
): string | undefined {
  const operation = `${method.toUpperCase()} ${contractPath(route)}`;
  const needed = INSTALLATION_OPERATIONS[operation];
  if (needed === undefined) return `${operation} is not open to integration installation tokens`;
  if (needed.length === 0 || needed.some((scope) => scopes.includes(scope))) return undefined;
  return `${operation} needs the integration scope ${needed.join(' or ')}; this integration has ${
    scopes.length ? scopes.join(', ') : 'none'
  }`;
}
