import { describe, expect, it } from 'vitest';
import {
  fetchEvent,
  installationSetup,
  siteView,
  spaceContentUpdated,
  spaceGitSyncCompleted,
  spaceGitSyncStarted,
  spaceInstallationSetup,
  spaceVisibilityUpdated,
} from '../../src/integrations/events.js';
import { checkSchema } from '../helpers/official-spec.js';

const user = {
  object: 'user',
  id: 'u1',
  displayName: 'Ann',
  email: 'ann@example.com',
  urls: { location: 'https://quire.test/v1/users/u1' },
};

describe('integration events', () => {
  it('are valid official Event objects, in both schema versions', () => {
    const events = [
      installationSetup('i1'),
      spaceInstallationSetup('i1', 's1'),
      installationSetup('i1', { status: 'active', configuration: { project: 'a' } }),
      spaceInstallationSetup('i1', 's1', { status: 'active', configuration: {} }),
      spaceContentUpdated('i1', 's1', 'r1', [user]),
      spaceGitSyncStarted('i1', 's1', 'r1', 'abc123'),
      spaceGitSyncCompleted('i1', 's1', 'r1', 'abc123', 'success'),
      spaceVisibilityUpdated('i1', 's1', 'private', 'public'),
      siteView('i1', {
        siteId: 'site1',
        siteSpaceId: 'ss1',
        pageId: 'p1',
        url: 'https://docs.example.com/guide',
        referrer: '',
        visitor: { anonymousId: 'v1', userAgent: 'test', ip: '192.0.2.1' },
      }),
      fetchEvent({ url: 'https://quire.test/v1/integrations/x/integration', method: 'post', headers: {} }),
    ];
    for (const event of events) expect(checkSchema('Event', event), String(event.type)).toEqual([]);
    expect(new Set(events.map((e) => e.eventId)).size).toBe(events.length);
  });
});
