import { X509Certificate } from 'node:crypto';
import type { CacheProvider, Profile, SAML } from '@node-saml/node-saml';
import { DOMParser } from '@xmldom/xmldom';
import type { SamlProvidersTable } from '../../db/tables.js';

/** How long an AuthnRequest id may be answered, and how far the IdP's clock may be off. */
export const REQUEST_VALIDITY_MS = 10 * 60 * 1000;
export const CLOCK_SKEW_MS = 5000;
/** The largest SAMLResponse form post accepted. */
export const ACS_BODY_LIMIT = 512 * 1024;
/** RelayState may be at most 80 bytes (SAML bindings 3.4.3). */
export const RELAY_STATE_MAX = 80;

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const EMAIL_ATTRIBUTES = [
  'email',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'mail',
];
const EMAIL = /^[^\s@<>"]{1,64}@[^\s@<>"]{1,253}$/;

/** The service-provider side of a provider: every URL is absolute under the public URL. */
export interface ServiceUrls {
  entityID: string;
  acsURL: string;
  startURL: string;
}

export function serviceUrls(publicUrl: string, providerId: string): ServiceUrls {
  const base = `${publicUrl}/sso/saml/${providerId}`;
  return { entityID: `${base}/metadata`, acsURL: `${base}/acs`, startURL: `${base}/start` };
}

/**
 * The certificate as PEM when it parses as X.509 (given as PEM, with or without its BEGIN/END
 * lines), else null.
 */
export function certificatePem(text: string): string | null {
  const body = text.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  if (body === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return null;
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
    return pem;
  } catch {
    return null;
  }
}

/** A provider is active once its IdP URL, entity ID and a parseable certificate are set. */
export function isActive(row: Pick<SamlProvidersTable, 'sso_url' | 'entity_id' | 'certificate'>): boolean {
  return Boolean(row.sso_url) && row.entity_id !== '' && certificatePem(row.certificate) !== null;
}

/**
 * node-saml for one provider. The IdP fields are only read when the provider is active (the
 * metadata of a pending one needs none of them).
 */
export async function samlFor(
  row: SamlProvidersTable,
  sp: ServiceUrls,
  cacheProvider?: CacheProvider,
): Promise<SAML> {
  // Loaded at the first sign-in: node-saml and its XML libraries are a hundred modules that
  // every start (the CLI's too) would load otherwise.
  const { SAML, ValidateInResponseTo } = await import('@node-saml/node-saml');
  const pem = certificatePem(row.certificate);
  return new SAML({
    entryPoint: row.sso_url ?? undefined,
    // A pending provider has no certificate; node-saml needs one to be built, and the
    // metadata it then serves does not include it.
    idpCert: pem ?? 'unconfigured',
    idpIssuer: row.entity_id,
    issuer: sp.entityID,
    audience: sp.entityID,
    callbackUrl: sp.acsURL,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_VALIDITY_MS,
    ...(cacheProvider ? { cacheProvider } : {}),
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    disableRequestedAuthnContext: true,
    identifierFormat: EMAIL_FORMAT,
  });
}

/**
 * What node-saml does not check: the assertion's issuer is the provider's entity ID (and so is
 * the response's, when it names one), the response's Destination (when present) and every
 * bearer confirmation's Recipient are our ACS URL. Answers why it is refused, or null.
 */
export function extraRefusal(
  profile: Profile,
  responseXml: string,
  row: SamlProvidersTable,
  sp: ServiceUrls,
): string | null {
  if (profile.issuer !== row.entity_id) {
    return `the assertion's Issuer "${String(profile.issuer ?? '')}" is not the provider's entity ID`;
  }
  const root = new DOMParser().parseFromString(responseXml, 'text/xml').documentElement;
  if (root?.localName !== 'Response') return 'the message is not a SAML Response';
  const destination = root.getAttribute('Destination');
  if (destination && destination !== sp.acsURL)
    return `its Destination "${destination}" is not this provider's ACS URL`;
  for (let node = root.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 1 && (node as Element).localName === 'Issuer') {
      const issuer = (node.textContent ?? '').trim();
      if (issuer !== row.entity_id)
        return `the response's Issuer "${issuer}" is not the provider's entity ID`;
    }
  }
  const recipients = recipientsOf(profile.getAssertion?.());
  if (recipients.length === 0) return 'its assertion names no Recipient';
  const other = recipients.find((r) => r !== sp.acsURL);
  if (other !== undefined) return `its Recipient "${other}" is not this provider's ACS URL`;
  return null;
}

type XmlJs = Record<string, unknown>;

function children(node: unknown, name: string): XmlJs[] {
  const value = (node as XmlJs | undefined)?.[name];
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? (value as XmlJs[]) : [value as XmlJs];
}

/** Recipient of every SubjectConfirmationData of the signed assertion (as node-saml parsed it). */
function recipientsOf(parsed: XmlJs | undefined): string[] {
  const out: string[] = [];
  for (const assertion of children(parsed, 'Assertion'))
    for (const subject of children(assertion, 'Subject'))
      for (const confirmation of children(subject, 'SubjectConfirmation'))
        for (const data of children(confirmation, 'SubjectConfirmationData')) {
          const attributes = data.$ as Record<string, string> | undefined;
          out.push(attributes?.Recipient ?? '');
        }
  return out;
}

/** The person's email: the NameID (email format, or shaped like one), else an email attribute. */
export function emailOf(profile: Profile): string | null {
  const candidates: unknown[] = [];
  if (profile.nameIDFormat === EMAIL_FORMAT || EMAIL.test(profile.nameID ?? ''))
    candidates.push(profile.nameID);
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  for (const name of EMAIL_ATTRIBUTES) {
    const value = attributes[name];
    candidates.push(...(Array.isArray(value) ? value : [value]));
  }
  for (const candidate of candidates) {
    if (typeof candidate === 'string' && EMAIL.test(candidate.trim())) return candidate.trim().toLowerCase();
  }
  return null;
}

/**
 * The SAMLResponse form field as XML, or why it is refused: not base64, not XML, or carrying a
 * DOCTYPE (entity declarations have no place in a SAML message).
 */
export function decodeResponse(value: string): { xml: string } | { refusal: string } {
  const compact = value.replace(/\s+/g, '');
  if (compact === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 === 1) {
    return { refusal: 'is not base64' };
  }
  const xml = Buffer.from(compact, 'base64').toString('utf8');
  if (!xml.trimStart().startsWith('<')) return { refusal: 'is not a base64-encoded XML document' };
  if (/<!DOCTYPE|<!ENTITY/i.test(xml))
    return { refusal: 'carries a DOCTYPE, which SAML messages must not have' };
  return { xml };
}
