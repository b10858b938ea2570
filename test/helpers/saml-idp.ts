import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import * as samlify from 'samlify';
import { generate } from 'selfsigned';

// The test IdP signs what it is told to; schema validation of its own output is not the point.
samlify.setSchemaValidator({ validate: async () => 'ok' });

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** What the SP says about itself (the provider's `service`). */
export interface SpSide {
  entityID: string;
  acsURL: string;
}

/** What may be changed in a response, to make it wrong on purpose. */
export interface ResponseOptions {
  inResponseTo?: string | null;
  email?: string;
  issuer?: string;
  audience?: string;
  destination?: string;
  recipient?: string;
  notBefore?: Date;
  notOnOrAfter?: Date;
  attributes?: Record<string, string>;
}

export interface TestIdp {
  entityID: string;
  ssoURL: string;
  /** PEM of the signing certificate. */
  certificate: string;
  /** A signed SAMLResponse (base64) as the IdP would post it to the ACS. */
  respond(sp: SpSide, options?: ResponseOptions): Promise<string>;
}

/** An identity provider with a key pair made now (samlify signing, selfsigned keys). */
export async function makeIdp(
  entityID = 'https://idp.example.test/saml',
  ssoURL = 'https://idp.example.test/sso',
): Promise<TestIdp> {
  const keys = await generate([{ name: 'commonName', value: 'idp.example.test' }], {
    keySize: 2048,
    algorithm: 'sha256',
  });
  const idp = samlify.IdentityProvider({
    entityID,
    signingCert: keys.cert,
    privateKey: keys.private,
    nameIDFormat: [EMAIL_FORMAT],
    singleSignOnService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: ssoURL }],
  });
  return {
    entityID,
    ssoURL,
    certificate: keys.cert,
    async respond(side, options = {}) {
      const sp = samlify.ServiceProvider({
        entityID: side.entityID,
        wantAssertionsSigned: true,
        assertionConsumerService: [
          { Binding: samlify.Constants.namespace.binding.post, Location: side.acsURL },
        ],
      });
      const now = new Date();
      const later = new Date(now.getTime() + 5 * 60_000);
      const id = `_${Math.random().toString(36).slice(2)}${Date.now()}`;
      const attributes = Object.entries(options.attributes ?? {})
        .map(
          ([name, value]) =>
            `<saml:Attribute Name="${name}"><saml:AttributeValue xsi:type="xs:string">${value}</saml:AttributeValue></saml:Attribute>`,
        )
        .join('');
      const values: Record<string, string | null> = {
        ID: id,
        AssertionID: `${id}a`,
        Destination: options.destination ?? side.acsURL,
        Audience: options.audience ?? side.entityID,
        SubjectRecipient: options.recipient ?? side.acsURL,
        Issuer: options.issuer ?? entityID,
        IssueInstant: now.toISOString(),
        StatusCode: samlify.Constants.StatusCode.Success,
        ConditionsNotBefore: (options.notBefore ?? now).toISOString(),
        ConditionsNotOnOrAfter: (options.notOnOrAfter ?? later).toISOString(),
        SubjectConfirmationDataNotOnOrAfter: (options.notOnOrAfter ?? later).toISOString(),
        NameIDFormat: EMAIL_FORMAT,
        NameID: options.email ?? 'ann@example.com',
        InResponseTo: options.inResponseTo ?? null,
      };
      const authn = `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${id}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`;
      const statements = attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '';
      const { context } = await idp.createLoginResponse(sp, {} as never, 'post', {}, (template: string) => ({
        id,
        context: samlify.SamlLib.replaceTagsByValue(
          template.replace('{AuthnStatement}', authn).replace('{AttributeStatement}', statements),
          values as Record<string, string>,
        ),
      }));
      return context;
    },
  };
}

/** The AuthnRequest a start redirect carries: its ID, ACS URL and Issuer, and the RelayState. */
export function readAuthnRequest(location: string): {
  id: string;
  acsURL: string;
  issuer: string;
  relayState: string | null;
  xml: string;
} {
  const url = new URL(location);
  const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString(
    'utf8',
  );
  const attr = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(xml)?.[1] ?? '';
  const issuer = /<(?:saml:)?Issuer[^>]*>([^<]*)<\//.exec(xml)?.[1] ?? '';
  return {
    id: attr('ID'),
    acsURL: attr('AssertionConsumerServiceURL'),
    issuer,
    relayState: url.searchParams.get('RelayState'),
    xml,
  };
}

/** A provider as the API presents it: what a sign-in needs of it. */
export interface SamlProvider {
  id: string;
  status: string;
  service: { acsURL: string; startURL: string; entityID: string };
}

/** GET the provider's start URL: the AuthnRequest of its redirect to the IdP. */
export async function startSignIn(provider: SamlProvider, returnTo?: string) {
  const url = new URL(provider.service.startURL);
  if (returnTo !== undefined) url.searchParams.set('return', returnTo);
  const response = await fetch(url, { redirect: 'manual' });
  if (response.status !== 302) throw new Error(`start answered ${response.status}: ${await response.text()}`);
  return readAuthnRequest(response.headers.get('location')!);
}

/** POST a form to the provider's ACS, as the IdP's auto-posting page would. */
export async function postToAcs(provider: SamlProvider, form: Record<string, string>) {
  const response = await fetch(provider.service.acsURL, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
    redirect: 'manual',
  });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/** A whole sign-in: start, the IdP's signed response to that request (changed by `options`), ACS. */
export async function samlSignIn(
  idp: TestIdp,
  provider: SamlProvider,
  options: ResponseOptions = {},
  edit?: (xml: string) => string,
) {
  const request = await startSignIn(provider);
  let response = await idp.respond(provider.service, { inResponseTo: request.id, ...options });
  if (edit) response = editResponse(response, edit);
  return postToAcs(provider, { SAMLResponse: response, RelayState: request.relayState! });
}

/** Decodes, changes and encodes a response again (after signing: tampering). */
export function editResponse(base64: string, edit: (xml: string) => string): string {
  return Buffer.from(edit(Buffer.from(base64, 'base64').toString('utf8'))).toString('base64');
}

/**
 * The IdP as a real HTTP server on loopback, for browsers: GET /sso (Redirect binding) answers a
 * page that posts a signed response for `email` to the request's ACS, as IdPs do.
 */
export async function startIdpServer(email: () => string): Promise<{ idp: TestIdp; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== '/sso') {
        response.writeHead(404).end();
        return;
      }
      const authn = readAuthnRequest(url.toString());
      const samlResponse = await idp.respond(
        { entityID: authn.issuer, acsURL: authn.acsURL },
        { inResponseTo: authn.id, email: email() },
      );
      const field = (name: string, value: string) =>
        `<input type="hidden" name="${name}" value="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`;
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><form method="post" action="${authn.acsURL}">${field('SAMLResponse', samlResponse)}${field(
            'RelayState',
            authn.relayState ?? '',
          )}<button>Continue</button></form><script>document.forms[0].submit()</script>`,
        );
    })().catch((error) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const idp = await makeIdp(`http://127.0.0.1:${port}/metadata`, `http://127.0.0.1:${port}/sso`);
  return { idp, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
