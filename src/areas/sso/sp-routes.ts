import { parse as parseForm } from 'node:querystring';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../../errors.js';
import { escapeHtml } from '../../html-escape.js';
import type { App } from '../../http/types.js';
import { renderPlainPage } from '../../publish/render/layout.js';
import { APP_HOME } from '../sessions/return-path.js';
import type { SignedIn } from './login.js';
import { ACS_BODY_LIMIT } from './saml.js';
import { SpParams, StartQuery } from './schemas.js';

/**
 * The service-provider side of each SAML provider, for browsers and identity providers (no
 * token): metadata, the redirect to the IdP, and the assertion consumer service.
 */
export async function ssoServiceProviderRoutes(app: App): Promise<void> {
  const { services } = app.quire;

  app.get(
    '/sso/saml/:providerId/metadata',
    { config: { public: true }, schema: { hide: true, params: SpParams } },
    async (request, reply) => {
      const xml = await services.ssoLogin.metadata(request.params.providerId);
      return reply.type('application/samlmetadata+xml; charset=utf-8').send(xml);
    },
  );

  app.get(
    '/sso/saml/:providerId/start',
    { config: { public: true }, schema: { hide: true, params: SpParams, querystring: StartQuery } },
    async (request, reply) =>
      forBrowsers(request, reply, async () => {
        const location = await services.ssoLogin.start(request.params.providerId, request.query.return);
        return reply.header('Cache-Control', 'no-store').redirect(location, 302);
      }),
  );

  // The IdP posts a form: its own parser, scoped to this route, with its own size cap.
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: ACS_BODY_LIMIT },
      (_request, body, done) =>
        done(null, parseForm(typeof body === 'string' ? body : body.toString('utf8'))),
    );
    scope.post(
      '/sso/saml/:providerId/acs',
      {
        config: { public: true },
        bodyLimit: ACS_BODY_LIMIT,
        schema: {
          hide: true,
          params: Type.Object({ providerId: Type.String({ minLength: 1, maxLength: 128 }) }),
        },
      },
      async (request, reply) =>
        forBrowsers(request, reply, async () => {
          const form = (request.body ?? {}) as Record<string, unknown>;
          const { providerId } = request.params as { providerId: string };
          const signedIn = await services.ssoLogin.consume(providerId, form, request.headers['user-agent']);
          reply.header('Cache-Control', 'no-store');
          if (signedIn.cookie) {
            reply.header('Set-Cookie', signedIn.cookie);
            return reply.redirect(signedIn.returnPath ?? APP_HOME, 303);
          }
          return reply.type('text/html; charset=utf-8').send(successPage(signedIn));
        }),
    );
  });
}

/**
 * A browser (one that asks for HTML) is shown a refusal as a page with the same status and
 * message; other clients get the API's JSON error.
 */
async function forBrowsers(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: () => Promise<FastifyReply>,
): Promise<FastifyReply> {
  try {
    return await answer();
  } catch (error) {
    if (!(error instanceof ApiError) || !(request.headers.accept ?? '').includes('text/html')) throw error;
    const message = error.message.replace(/^SAML sign-in refused: /, '');
    const main = `<h1>Sign-in failed</h1><p>${escapeHtml(message)}</p><p><a href="/login">Back to sign in</a></p>`;
    return reply
      .code(error.status)
      .header('Cache-Control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(renderPlainPage('Sign-in failed', main));
  }
}

/** Without browser sessions (tests of this area alone): a page saying who signed in where. */
function successPage(signedIn: SignedIn): string {
  const next = signedIn.returnPath ? `<p><a href="${escapeHtml(signedIn.returnPath)}">Continue</a></p>` : '';
  return renderPlainPage(
    'Signed in',
    `<h1>Signed in</h1><p>You are signed in as <strong>${escapeHtml(signedIn.email)}</strong> to ${escapeHtml(signedIn.orgTitle)}.</p>${next}`,
  );
}
