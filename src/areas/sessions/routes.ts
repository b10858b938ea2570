import { parse as parseQuery } from 'node:querystring';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../../auth/actor.js';
import { csrfAllowed } from '../../auth/csrf.js';
import { clearSessionCookie, readSessionCookie, sessionCookie } from '../../auth/session-cookie.js';
import { SignInRequired } from '../../auth/sign-in-policy.js';
import { parseTokenLifetime } from '../../auth/token-lifetime.js';
import type { SpacesTable } from '../../db/tables.js';
import { forbidden } from '../../errors.js';
import type { App } from '../../http/types.js';
import { PreviewAddresses } from '../../publish/addresses.js';
import { SiteServer } from '../../publish/site-server.js';
import {
  renderEmptySpace,
  renderLanding,
  renderLinkConfirm,
  renderLinkRefused,
  renderLoginPage,
  renderNoSpace,
  renderTokensPage,
} from './pages-html.js';
import { APP_HOME, safeReturnPath } from './return-path.js';

/** Forms of these pages are a few fields; anything bigger is not one of ours. */
const FORM_LIMIT = 16 * 1024;

/**
 * Pages a person's own browser uses: nothing here may be cached by a proxy or framed by
 * another site (clickjacking the token page), and a login link's secret in the address must not
 * leak to other sites as a Referer.
 */
const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  // Not no-referrer: under it browsers send `Origin: null` even on this server's own form posts,
  // and the posts that have no CSRF token (the login link's) are judged by their Origin.
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
};

interface SignedIn {
  actor: Actor;
  cookie: string;
  csrf: string;
}

/**
 * Sign-in and the signed-in app: `/login`, `/login/link/:token`, `/logout`, `/app…`. The
 * handlers only route: sessions and AppPagesService hold the rules, pages-html draws. They are
 * registered in a scope of their own, the only one that parses HTML form bodies.
 */
export async function sessionRoutes(app: App): Promise<void> {
  const { services, deps } = app.quire;
  const { sessions, appPages } = services;
  const publicOrigin = new URL(deps.config.publicUrl).origin;
  // The published-site renderer, at the app's addresses, for members' previews of spaces.
  const previews = new SiteServer(deps, services, new PreviewAddresses(deps.config.publicUrl));

  const html = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(body);

  async function signedIn(request: FastifyRequest): Promise<SignedIn | undefined> {
    const cookie = readSessionCookie(request.headers.cookie);
    const actor = cookie ? await sessions.resolve(cookie) : undefined;
    return actor && cookie ? { actor, cookie, csrf: sessions.csrfToken(cookie) } : undefined;
  }

  /** The signed-in person, or a redirect to the login page that brings them back here. */
  async function requireSignedIn(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<SignedIn | undefined> {
    const session = await signedIn(request);
    if (session) return session;
    const back = safeReturnPath(request.url);
    await reply.headers(PAGE_HEADERS).redirect(`/login?return=${encodeURIComponent(back)}`, 302);
    return undefined;
  }

  function checkCsrf(request: FastifyRequest, session: SignedIn): void {
    const form = request.body as Record<string, unknown> | undefined;
    const token = typeof form?.csrf === 'string' ? form.csrf : undefined;
    if (!csrfAllowed(request.method, request.headers, publicOrigin, session.csrf, token)) {
      throw forbidden('This form must be sent from Quire’s own page: reload the page and try again');
    }
  }

  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_LIMIT },
      (_request, body, done) => {
        const fields = parseQuery(typeof body === 'string' ? body : body.toString('utf8'));
        // One value per field: a repeated field keeps its first value.
        const form: Record<string, string> = {};
        for (const [name, value] of Object.entries(fields)) {
          const first = Array.isArray(value) ? value[0] : value;
          if (typeof first === 'string') form[name] = first;
        }
        done(null, form);
      },
    );

    scope.get('/login', { schema: { hide: true } }, async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const orgId = typeof query.org === 'string' && query.org.length <= 128 ? query.org : undefined;
      const providers = orgId ? await appPages.loginProviders(orgId) : [];
      return html(
        reply,
        200,
        renderLoginPage({ orgId, providers, returnPath: safeReturnPath(query.return) }),
      );
    });

    // Opening the link only asks: link previews (chat unfurling, mail scanners) fetch what they
    // see, and a GET that signed in would spend the link before its person clicks it.
    scope.get('/login/link/:token', { schema: { hide: true } }, async (request, reply) => {
      const { token } = request.params as { token: string };
      const outcome = await sessions.checkLoginLink(token);
      if (!outcome.ok)
        return html(reply, outcome.reason === 'unknown' ? 404 : 410, renderLinkRefused(outcome.reason));
      return html(reply, 200, renderLinkConfirm(outcome.email ?? ''));
    });

    scope.post('/login/link/:token', { schema: { hide: true } }, async (request, reply) => {
      // Another site must not sign a visitor in as someone else (login CSRF): a browser's post
      // from elsewhere carries that site's Origin.
      const origin = request.headers.origin;
      if (origin !== undefined && origin !== publicOrigin) {
        throw forbidden('This form must be sent from Quire’s own page: open the sign-in link again');
      }
      const { token } = request.params as { token: string };
      const outcome = await sessions.useLoginLink(token);
      if (!outcome.ok)
        return html(reply, outcome.reason === 'unknown' ? 404 : 410, renderLinkRefused(outcome.reason));
      const started = await sessions.start(outcome.userId, 'link', request.headers['user-agent']);
      return reply
        .headers(PAGE_HEADERS)
        .header('set-cookie', sessionCookie(deps.config, started.cookieValue, started.expiresAt))
        .redirect(APP_HOME, 303);
    });

    scope.post('/logout', { schema: { hide: true } }, async (request, reply) => {
      const session = await signedIn(request);
      if (session) {
        checkCsrf(request, session);
        const form = request.body as Record<string, unknown> | undefined;
        if (form?.everywhere === '1') await sessions.endAll(session.actor.userId);
        else await sessions.end(session.cookie);
      }
      return reply
        .headers(PAGE_HEADERS)
        .header('set-cookie', clearSessionCookie(deps.config))
        .redirect('/login', 303);
    });

    scope.get('/app', { schema: { hide: true } }, async (request, reply) => {
      const session = await requireSignedIn(request, reply);
      if (!session) return reply;
      const landing = await appPages.landing(session.actor);
      return html(reply, 200, renderLanding(session.actor.email, session.csrf, landing));
    });

    scope.get('/app/tokens', { schema: { hide: true } }, async (request, reply) => {
      const session = await requireSignedIn(request, reply);
      if (!session) return reply;
      const tokens = await appPages.tokens(session.actor);
      return html(reply, 200, renderTokensPage(session.actor.email, session.csrf, tokens));
    });

    scope.post('/app/tokens', { schema: { hide: true } }, async (request, reply) => {
      const session = await requireSignedIn(request, reply);
      if (!session) return reply;
      checkCsrf(request, session);
      const form = request.body as Record<string, unknown> | undefined;
      const label =
        typeof form?.label === 'string' && form.label.trim() ? form.label.trim().slice(0, 100) : null;
      const lifetime = parseTokenLifetime(form?.expiresInDays);
      if ('problem' in lifetime) {
        const tokens = await appPages.tokens(session.actor);
        const problem = `The lifetime ${lifetime.problem}.`;
        return html(reply, 400, renderTokensPage(session.actor.email, session.csrf, tokens, { problem }));
      }
      const issued = await appPages.createToken(session.actor, label, lifetime.days);
      // Shown in this answer only (no redirect): the secret is never stored to be shown again.
      const tokens = await appPages.tokens(session.actor);
      return html(
        reply,
        201,
        renderTokensPage(session.actor.email, session.csrf, tokens, {
          created: { token: issued.token, label },
        }),
      );
    });

    scope.post('/app/tokens/:tokenId/revoke', { schema: { hide: true } }, async (request, reply) => {
      const session = await requireSignedIn(request, reply);
      if (!session) return reply;
      checkCsrf(request, session);
      await appPages.revokeToken(session.actor, (request.params as { tokenId: string }).tokenId);
      return reply.headers(PAGE_HEADERS).redirect('/app/tokens', 303);
    });

    // Where `urls.app` of organizations and collections lead: the landing page lists them (an
    // organization by its anchor), never a 404. Spaces and change requests have previews below.
    scope.get('/app/o/:orgId', { schema: { hide: true } }, async (request, reply) => {
      const session = await requireSignedIn(request, reply);
      if (!session) return reply;
      const { orgId } = request.params as { orgId: string };
      return reply.headers(PAGE_HEADERS).redirect(`${APP_HOME}#org-${encodeURIComponent(orgId)}`, 302);
    });
    // A change request's page: its space's preview (change requests have no page of their own yet).
    scope.get('/app/s/:spaceId/~/changes/*', { schema: { hide: true } }, async (request, reply) => {
      const session = await requireSignedIn(request, reply);
      if (!session) return reply;
      const { spaceId } = request.params as { spaceId: string };
      return reply.headers(PAGE_HEADERS).redirect(`/app/s/${encodeURIComponent(spaceId)}/`, 302);
    });
    const preview = async (request: FastifyRequest, reply: FastifyReply) => {
      const session = await requireSignedIn(request, reply);
      if (!session) return reply;
      const { spaceId, '*': rest } = request.params as { spaceId: string; '*'?: string };
      let space: SpacesTable | undefined;
      try {
        space = await appPages.readableSpace(session.actor, spaceId);
      } catch (error) {
        if (!(error instanceof SignInRequired)) throw error;
        const back = encodeURIComponent(new URL(request.url, deps.config.publicUrl).pathname);
        const login = `/login?org=${encodeURIComponent(error.orgId)}&return=${back}`;
        return reply.headers(PAGE_HEADERS).redirect(login, 302);
      }
      if (!space) return html(reply, 404, renderNoSpace());
      const url = new URL(request.url, deps.config.publicUrl);
      const answer = await previews.preview(space, {
        site: { id: space.id },
        path: rest ?? '',
        query: url.searchParams,
        headers: { cookie: request.headers.cookie, ifNoneMatch: request.headers['if-none-match'] },
        url: url.toString(),
      });
      // A space without pages has nothing to draw; its address still answers (never a 404).
      if (answer.status === 404 && !rest) return html(reply, 200, renderEmptySpace(space.title));
      return reply.code(answer.status).headers(answer.headers).send(answer.body);
    };
    scope.get('/app/s/:spaceId', { schema: { hide: true } }, preview);
    scope.get('/app/s/:spaceId/*', { schema: { hide: true } }, preview);

    scope.get('/app/*', { schema: { hide: true } }, async (request, reply) => {
      const session = await requireSignedIn(request, reply);
      if (!session) return reply;
      return reply.headers(PAGE_HEADERS).redirect(APP_HOME, 302);
    });
  });
}
