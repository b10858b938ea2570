import type { SamlProvidersTable } from '../../db/tables.js';
import type { Urls } from '../../http/urls.js';
import { presentTeam, type TeamView } from '../teams/present.js';
import { isActive, serviceUrls } from './saml.js';
import { type SamlProvider, UNCONFIGURED_SSO_URL } from './schemas.js';

export interface SamlProviderView {
  row: SamlProvidersTable;
  /** The default team as the caller sees it; absent when none is set (or it was deleted). */
  team: TeamView | undefined;
}

export function presentSamlProvider(view: SamlProviderView, urls: Urls): SamlProvider {
  const { row } = view;
  return {
    object: 'saml-provider',
    id: row.id,
    label: row.label,
    ssoURL: row.sso_url ?? UNCONFIGURED_SSO_URL,
    entityID: row.entity_id,
    certificate: row.certificate,
    ...(view.team ? { defaultTeam: presentTeam(view.team) } : {}),
    defaultRole: row.default_role,
    createdAt: row.created_at,
    status: isActive(row) ? 'active' : 'pending',
    service: serviceUrls(urls.base, row.id),
    urls: { location: urls.api(`/orgs/${row.org_id}/saml/${row.id}`) },
  };
}
