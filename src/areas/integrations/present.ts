import type {
  IntegrationEventsTable,
  IntegrationInstallationsTable,
  IntegrationSpaceInstallationsTable,
  IntegrationsTable,
} from '../../db/tables.js';
import type { Urls } from '../../http/urls.js';
import { type OrgView, presentOrganization } from '../orgs/present.js';
import type {
  Integration,
  IntegrationBlock,
  IntegrationConfigurations,
  IntegrationContentSource,
  IntegrationEvent,
  IntegrationInstallation,
  IntegrationSpaceInstallation,
} from './schemas.js';

/** An integration as one caller sees it: its owner organization (with the caller's role there). */
export interface IntegrationView {
  row: IntegrationsTable;
  owner: OrgView;
}

export interface InstallationView {
  row: IntegrationInstallationsTable;
  integration: IntegrationView;
  /** How many spaces it is installed on. */
  spaces: number;
}

/** Where an integration's images are served: `<assets><blob hash>` (routes.ts). */
export function integrationAssetsUrl(urls: Urls, name: string): string {
  return `${urls.base}/integrations/${encodeURIComponent(name)}/assets/`;
}

/**
 * Where the integration runtime receives requests for the integration (its webhooks). The route
 * itself belongs to the runtime (src/integrations/runtime), not to this area.
 */
export function integrationPublicEndpoint(urls: Urls, name: string): string {
  return urls.api(`/integrations/${encodeURIComponent(name)}/integration`);
}

export function presentIntegration(view: IntegrationView, urls: Urls): Integration {
  const { row } = view;
  const name = encodeURIComponent(row.name);
  const assets = integrationAssetsUrl(urls, row.name);
  const publicEndpoint = integrationPublicEndpoint(urls, row.name);
  const integration: Integration = {
    object: 'integration',
    name: row.name,
    version: row.version,
    title: row.title,
    description: row.description,
    previewImages: (JSON.parse(row.preview_images) as string[]).map((hash) => assets + hash),
    target: row.target,
    // Quire verifies no one: the flag is GitBook's review of marketplace integrations.
    verified: false,
    visibility: row.visibility,
    scopes: JSON.parse(row.scopes) as Integration['scopes'],
    categories: JSON.parse(row.categories) as Integration['categories'],
    blocks: JSON.parse(row.blocks) as IntegrationBlock[],
    contentSources: JSON.parse(row.content_sources) as IntegrationContentSource[],
    configurations: JSON.parse(row.configurations) as IntegrationConfigurations,
    externalLinks: JSON.parse(row.external_links) as Integration['externalLinks'],
    owner: presentOrganization(view.owner, urls),
    urls: {
      location: urls.api(`/integrations/${name}`),
      app: urls.app(`/integrations/${name}`),
      assets,
      publicEndpoint,
      publicContentEndpoint: publicEndpoint,
    },
    permissions: { admin: view.owner.role === 'admin' },
  };
  if (row.summary !== null) integration.summary = row.summary;
  if (row.icon !== null) integration.urls.icon = assets + row.icon;
  if (row.content_security_policy !== null) {
    integration.contentSecurityPolicy = JSON.parse(row.content_security_policy) as
      | string
      | Record<string, string>;
  }
  return integration;
}

const installationPath = (name: string, id: string) =>
  `/integrations/${encodeURIComponent(name)}/installations/${encodeURIComponent(id)}`;

export function presentInstallation(
  row: IntegrationInstallationsTable,
  urls: Urls,
  spaces: number,
): IntegrationInstallation {
  const path = installationPath(row.integration_name, row.id);
  const publicEndpoint = urls.api(`${path}/integration`);
  return {
    id: row.id,
    status: row.status,
    space_selection: row.space_selection,
    // Quire has no site installations: an installation covers every site of its organization.
    site_selection: 'all',
    spaces,
    configuration: JSON.parse(row.configuration) as Record<string, unknown>,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    urls: {
      location: urls.api(path),
      app: urls.app(path),
      publicEndpoint,
      publicContentEndpoint: publicEndpoint,
    },
    externalIds: JSON.parse(row.external_ids) as string[],
    target: { organization: row.org_id },
  };
}

export function presentSpaceInstallation(
  row: IntegrationSpaceInstallationsTable,
  integrationName: string,
  urls: Urls,
): IntegrationSpaceInstallation {
  const path = installationPath(integrationName, row.installation_id);
  const publicEndpoint = urls.api(`${path}/integration`);
  return {
    integration: integrationName,
    installation: row.installation_id,
    status: row.status,
    configuration: JSON.parse(row.configuration) as Record<string, unknown>,
    externalIds: JSON.parse(row.external_ids) as string[],
    urls: {
      location: urls.api(`${path}/spaces/${encodeURIComponent(row.space_id)}`),
      publicEndpoint,
      publicContentEndpoint: publicEndpoint,
    },
    // The id form the contract still accepts; the whole Space would need the caller's view of it.
    space: row.space_id,
  };
}

/** `integrationId` is the integration's name: names are what identify integrations here. */
export function presentEvent(row: IntegrationEventsTable): IntegrationEvent {
  return {
    id: row.id,
    integrationId: row.integration_name,
    ...(row.installation_id ? { installationId: row.installation_id } : {}),
    createdAt: row.created_at,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    status: row.status,
  };
}
