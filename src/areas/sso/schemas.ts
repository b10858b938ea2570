import { type Static, Type } from 'typebox';
import { MemberRoleOrGuest } from '../../auth/roles.js';
import { PageQuery, Timestamp } from '../../http/schemas.js';
import { Team } from '../teams/schemas.js';

export const SamlLabel = Type.String({ minLength: 1, maxLength: 30 });
export const SamlEntityId = Type.String({ maxLength: 1024 });
export const SamlCertificate = Type.String({ maxLength: 10000 });
export const SamlSsoUrl = Type.String({ format: 'uri', maxLength: 2048 });

/** What an unconfigured provider answers as `ssoURL` (the schema requires a URI). */
export const UNCONFIGURED_SSO_URL = 'urn:quire:saml:unconfigured';

export const SamlProvider = Type.Object({
  object: Type.Literal('saml-provider'),
  id: Type.String(),
  label: Type.String(),
  ssoURL: Type.String({ format: 'uri' }),
  entityID: Type.String(),
  certificate: Type.String(),
  defaultTeam: Type.Optional(Team),
  defaultRole: MemberRoleOrGuest,
  createdAt: Timestamp,
  status: Type.Enum(['active', 'pending']),
  service: Type.Object({
    acsURL: Type.String({ format: 'uri' }),
    startURL: Type.String({ format: 'uri' }),
    entityID: Type.String(),
  }),
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
});
export type SamlProvider = Static<typeof SamlProvider>;

export const SsoProviderLogin = Type.Object({
  id: Type.String(),
  label: Type.String(),
  startURL: Type.String({ format: 'uri' }),
});
export const SsoProviderLogins = Type.Object({ items: Type.Array(SsoProviderLogin) });

const ProviderFields = {
  entityID: Type.Optional(SamlEntityId),
  certificate: Type.Optional(SamlCertificate),
  ssoURL: Type.Optional(SamlSsoUrl),
  defaultTeam: Type.Optional(Type.Union([Type.String({ maxLength: 128 }), Type.Null()])),
  defaultRole: Type.Optional(MemberRoleOrGuest),
};

export const CreateSamlProviderBody = Type.Object({ label: SamlLabel, ...ProviderFields });
export type CreateSamlProviderBody = Static<typeof CreateSamlProviderBody>;
export const UpdateSamlProviderBody = Type.Object({ label: Type.Optional(SamlLabel), ...ProviderFields });
export type UpdateSamlProviderBody = Static<typeof UpdateSamlProviderBody>;

export const SamlProviderParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 128 }),
  samlProviderId: Type.String({ minLength: 1, maxLength: 128 }),
});
export const ListSamlProvidersQuery = Type.Object(PageQuery);

/** The service-provider endpoints: `/sso/saml/:providerId/...`. */
export const SpParams = Type.Object({
  providerId: Type.String({ minLength: 1, maxLength: 128, pattern: '^[a-zA-Z0-9_-]+$' }),
});
export const StartQuery = Type.Object({ return: Type.Optional(Type.String({ maxLength: 2048 })) });
