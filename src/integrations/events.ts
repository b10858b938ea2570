import { newId } from '../ids.js';

/**
 * The events Quire delivers to integration scripts, in the shapes of the official `Event`
 * schemas (what `@gitbook/runtime` hands to an integration's `events` handlers). Builders only:
 * who receives them, and when, is the integrations area's business.
 */

/** A user as events carry it (the official `User` object, presented by the users area). */
export type EventUser = { id: string };

interface Base {
  eventId: string;
  type: string;
  installationId: string;
}

export type IntegrationEvent = Base & Record<string, unknown>;

const base = (type: string, installationId: string): Base => ({ eventId: newId(), type, installationId });

/** What an installation was before an update (the `previous` of the setup events). */
export interface PreviousSetup {
  status: 'active' | 'pending' | 'paused';
  configuration: Record<string, unknown>;
}

/** Sent when an integration is installed, and again when its installation is updated. */
export function installationSetup(installationId: string, previous?: PreviousSetup): IntegrationEvent {
  return {
    ...base('installation_setup', installationId),
    status: 'active',
    ...(previous ? { previous } : {}),
  };
}

/** Sent when an integration is installed on a space, and again when that is updated. */
export function spaceInstallationSetup(
  installationId: string,
  spaceId: string,
  previous?: PreviousSetup,
): IntegrationEvent {
  return {
    ...base('space_installation_setup', installationId),
    spaceId,
    status: 'active',
    ...(previous ? { previous } : {}),
  };
}

export function spaceContentUpdated(
  installationId: string,
  spaceId: string,
  revisionId: string,
  updatedBy: EventUser[],
): IntegrationEvent {
  return { ...base('space_content_updated', installationId), spaceId, revisionId, updatedBy };
}

export function spaceGitSyncStarted(
  installationId: string,
  spaceId: string,
  revisionId: string,
  commitId: string,
): IntegrationEvent {
  return { ...base('space_gitsync_started', installationId), spaceId, revisionId, commitId };
}

export function spaceGitSyncCompleted(
  installationId: string,
  spaceId: string,
  revisionId: string,
  commitId: string,
  state: 'success' | 'failure',
): IntegrationEvent {
  return { ...base('space_gitsync_completed', installationId), spaceId, revisionId, commitId, state };
}

export function spaceVisibilityUpdated(
  installationId: string,
  spaceId: string,
  previousVisibility: string,
  visibility: string,
): IntegrationEvent {
  return { ...base('space_visibility_updated', installationId), spaceId, previousVisibility, visibility };
}

export interface SiteView {
  siteId: string;
  siteSpaceId?: string;
  spaceId?: string;
  pageId?: string;
  url: string;
  referrer: string;
  visitor: { anonymousId: string; userAgent: string; ip: string; language?: string };
}

export function siteView(installationId: string, view: SiteView): IntegrationEvent {
  const { visitor, ...rest } = view;
  // Visitors' cookies are theirs: none are passed on.
  return { ...base('site_view', installationId), ...rest, visitor: { ...visitor, cookies: {} } };
}

/** The methods a `fetch` event can carry (the official `FetchRequest`). */
export const FETCH_METHODS = ['get', 'post', 'put', 'delete'] as const;

/** A request to the integration's public endpoint (webhooks from other services). */
export function fetchEvent(
  request: { url: string; method: (typeof FETCH_METHODS)[number]; headers: Record<string, string> },
  installationId?: string,
): Record<string, unknown> {
  return {
    eventId: newId(),
    type: 'fetch',
    ...(installationId ? { installationId } : {}),
    request: { url: request.url, method: request.method, headers: request.headers },
  };
}
