import { TOKEN_LIFETIME_CHOICES } from '../../auth/token-lifetime.js';
import type { TokenInfo } from '../../auth/token-service.js';
import { escapeHtml } from '../../html-escape.js';
import { renderPlainPage } from '../../publish/render/layout.js';
import type { Landing, LoginProvider } from './pages-service.js';

/**
 * The HTML of the sign-in and signed-in pages: pure functions of what the service found, every
 * value escaped. Forms carry the session's CSRF token (see csrf.ts).
 */

const e = escapeHtml;

function csrfField(csrf: string): string {
  return `<input type="hidden" name="csrf" value="${e(csrf)}">`;
}

function signedInHeader(email: string, csrf: string): string {
  return (
    '<nav class="page-actions" aria-label="Account">' +
    `<span>Signed in as <strong>${e(email)}</strong></span> · ` +
    '<a href="/app">Home</a> · <a href="/app/tokens">API tokens</a> · ' +
    `<form method="post" action="/logout" style="display:inline">${csrfField(csrf)}` +
    '<button class="button button-small button-secondary" type="submit">Sign out</button></form> ' +
    `<form method="post" action="/logout" style="display:inline">${csrfField(csrf)}` +
    '<input type="hidden" name="everywhere" value="1">' +
    '<button class="button button-small button-secondary" type="submit">Sign out everywhere</button></form>' +
    '</nav>'
  );
}

export function renderLoginPage(options: {
  orgId?: string | undefined;
  providers: LoginProvider[];
  returnPath: string;
}): string {
  const providers = options.providers.length
    ? '<h2>Single sign-on</h2><ul>' +
      options.providers
        .map((p) => {
          // The start URL may be absolute or a path; either way the return path rides along.
          const href = `${p.startURL}${p.startURL.includes('?') ? '&' : '?'}return=${encodeURIComponent(options.returnPath)}`;
          return `<li><a class="button" href="${e(href)}">Sign in with ${e(p.label)}</a></li>`;
        })
        .join('') +
      '</ul>'
    : options.orgId
      ? '<p>This organization has no single sign-on provider set up.</p>'
      : '';
  return renderPlainPage(
    'Sign in',
    '<h1 class="page-title">Sign in to Quire</h1>' +
      providers +
      '<h2>With a sign-in link</h2>' +
      '<p class="page-description">Ask an administrator of this server to run ' +
      '<code>npx quire login-link --email you@example.com</code> and send you the link it prints. ' +
      'Open it within 15 minutes; it works once.</p>' +
      '<p>To see your organization’s single sign-on, open this page with <code>?org=</code> and the ' +
      'organization’s id.</p>',
  );
}

/** A valid login link, opened: one button spends it (the form posts to the same address). */
export function renderLinkConfirm(email: string): string {
  return renderPlainPage(
    'Sign in to Quire',
    '<h1 class="page-title">Sign in to Quire</h1>' +
      `<p class="page-description">You are signing in as <strong>${e(email)}</strong>. ` +
      'The link works once.</p>' +
      '<form method="post"><button class="button" type="submit">Sign in</button></form>',
  );
}

/** The page for a login link that cannot sign anyone in. */
export function renderLinkRefused(reason: 'unknown' | 'used' | 'expired'): string {
  const what =
    reason === 'used'
      ? 'This sign-in link has already been used.'
      : reason === 'expired'
        ? 'This sign-in link has expired: links work for 15 minutes.'
        : 'This sign-in link is not valid.';
  return renderPlainPage(
    'Sign-in link not valid',
    `<h1 class="page-title">${e(what)}</h1>` +
      '<p class="page-description">Each link signs in once. Ask an administrator for a new one ' +
      '(<code>npx quire login-link --email you@example.com</code>), or sign in with your ' +
      'organization’s single sign-on.</p><a class="button" href="/login">Go to sign in</a>',
  );
}

export function renderLanding(email: string, csrf: string, landing: Landing): string {
  const orgs = landing.orgs.length
    ? landing.orgs.map((org) => renderOrg(org)).join('')
    : '<p>You are not a member of any organization yet.</p>';
  const more = landing.moreOrgs ? `<p>and ${landing.moreOrgs} more organizations.</p>` : '';
  return renderPlainPage(
    'Quire',
    signedInHeader(email, csrf) + '<h1 class="page-title">Your organizations</h1>' + orgs + more,
  );
}

function renderOrg(org: Landing['orgs'][number]): string {
  if (org.signInRequired) {
    return (
      `<section id="org-${e(org.id)}"><h2>${e(org.title)}</h2>` +
      '<p>This organization lets its members in only through its identity provider. ' +
      `<a class="button" href="/login?org=${e(encodeURIComponent(org.id))}">Sign in to ${e(org.title)}</a></p></section>`
    );
  }
  const spaces = org.spaces.length
    ? '<ul>' +
      org.spaces
        .map((s) => {
          const sites = s.published.length
            ? ` — published on ${s.published.map((p) => `<a href="${e(p.url)}">${e(p.title)}</a>`).join(', ')}`
            : '';
          return `<li><a href="/app/s/${e(encodeURIComponent(s.id))}">${e(s.title || 'Untitled space')}</a>${sites}</li>`;
        })
        .join('') +
      '</ul>'
    : '<p>No spaces you can read.</p>';
  const more = org.moreSpaces ? `<p>and ${org.moreSpaces} more spaces.</p>` : '';
  const role = org.role ? ` <small>(${e(org.role)})</small>` : '';
  return `<section id="org-${e(org.id)}"><h2>${e(org.title)}${role}</h2>${spaces}${more}</section>`;
}

export function renderTokensPage(
  email: string,
  csrf: string,
  tokens: TokenInfo[],
  outcome: { created?: { token: string; label: string | null }; problem?: string } = {},
): string {
  const { created, problem } = outcome;
  const refused = problem ? `<div class="hint hint-danger" role="alert"><p>${e(problem)}</p></div>` : '';
  const shown = created
    ? '<div class="hint" role="status"><p>Your new token' +
      (created.label ? ` “${e(created.label)}”` : '') +
      ' is below. Copy it now: it is not shown again.</p>' +
      `<p><code id="new-token">${e(created.token)}</code></p></div>`
    : '';
  const rows = tokens
    .map((t) => {
      const state = t.revokedAt
        ? `revoked ${e(t.revokedAt)}`
        : t.expiresAt
          ? `expires ${e(t.expiresAt)}`
          : 'active';
      const revoke = t.revokedAt
        ? ''
        : `<form method="post" action="/app/tokens/${e(encodeURIComponent(t.id))}/revoke">${csrfField(csrf)}` +
          '<button class="button button-small button-secondary" type="submit">Revoke</button></form>';
      return (
        `<tr><td>${e(t.label ?? '—')}</td><td>${e(t.createdAt)}</td>` +
        `<td>${e(t.lastUsedAt ?? 'never')}</td><td>${state}</td><td>${revoke}</td></tr>`
      );
    })
    .join('');
  const table = tokens.length
    ? '<table><thead><tr><th>Label</th><th>Created</th><th>Last used</th><th>State</th><th></th></tr></thead>' +
      `<tbody>${rows}</tbody></table>`
    : '<p>You have no API tokens.</p>';
  return renderPlainPage(
    'API tokens',
    signedInHeader(email, csrf) +
      '<h1 class="page-title">Personal API tokens</h1>' +
      '<p class="page-description">A token acts as you on the API: send it as ' +
      '<code>Authorization: Bearer &lt;token&gt;</code>.</p>' +
      refused +
      shown +
      `<form method="post" action="/app/tokens">${csrfField(csrf)}` +
      '<label>Label <input name="label" maxlength="100"></label> ' +
      '<label>Expires <select name="expiresInDays"><option value="">never</option>' +
      TOKEN_LIFETIME_CHOICES.map((days) => `<option value="${days}">in ${days} days</option>`).join('') +
      '</select></label> ' +
      '<button class="button" type="submit">Create token</button></form>' +
      table,
  );
}

/** A space preview the person may not see, or that does not exist (the same answer for both). */
export function renderNoSpace(): string {
  return renderPlainPage(
    'Space not found',
    '<h1 class="page-title">This space does not exist, or you may not read it.</h1>' +
      '<a class="button" href="/app">Go to your organizations</a>',
  );
}

/** The preview of a space that has no page yet. */
export function renderEmptySpace(title: string): string {
  return renderPlainPage(
    title || 'Untitled space',
    `<h1 class="page-title">${e(title || 'Untitled space')}</h1>` +
      '<p class="page-description">This space has no pages yet.</p>' +
      '<a class="button" href="/app">Go to your organizations</a>',
  );
}
