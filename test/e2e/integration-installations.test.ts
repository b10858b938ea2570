import type { PublishIntegration } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/client.js';
import { failure } from '../helpers/expect-error.js';
import { addMember, createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Managing installations through the API: settings checked against the manifest's forms,
 * installing on single spaces, uninstalling, and the event log, with who may do each. The
 * scripts' side of it (what the events carry) is in integration-delivery.test.ts.
 */

let server: TestServer;
let admin: TestUser;
let writer: TestUser;
let outsider: TestUser;
let orgId: string;
let otherOrg: string;
let spaceId: string;
let installationId: string;
const NAME = 'quire-settings';

/** A script that handles every event, and fails on a space configured to fail. */
const SCRIPT = `export default {
  async fetch(request) {
    const form = await request.formData();
    const event = JSON.parse(form.get('event'));
    const environment = JSON.parse(form.get('environment'));
    const channel = environment.spaceInstallation?.configuration?.channel;
    if (channel === '#explode') throw new Error('cannot post to ' + channel + ' on ' + event.type);
    return new Response('ok');
  },
};`;

beforeAll(async () => {
  server = await startTestServer();
  admin = await createUser(server, { name: 'Ada Admin' });
  writer = await createUser(server, { name: 'Wes Writer' });
  outsider = await createUser(server, { name: 'Ola Outsider' });
  orgId = await createOrg(admin, 'Settings org');
  otherOrg = await createOrg(outsider, 'Other org');
  await addMember(admin, orgId, writer, 'edit');
  spaceId = (await admin.api.orgs.createSpace(orgId, { title: 'Guides' })).data.id;
  await admin.api.integrations.publishIntegration(NAME, {
    title: 'Settings',
    description: 'Has configuration forms',
    script: SCRIPT,
    organization: orgId,
    scopes: ['space:content:read'],
    visibility: 'public',
    configurations: {
      account: { properties: { team: { type: 'string', title: 'Team' }, level: { type: 'number' } } },
      space: {
        properties: {
          channel: { type: 'string', title: 'Channel' },
          mode: { type: 'string', enum: ['quiet', 'loud'] },
        },
        required: ['channel'],
      },
    },
  } as unknown as PublishIntegration);
  installationId = (await admin.api.integrations.installIntegration(NAME, { organization: orgId })).data.id;
});
afterAll(() => server.close());

const runJobs = () => server.app.quire.services.jobs.runDue();

describe('updating an installation', () => {
  it('keeps a configuration that fits the account form, and says which value does not', async () => {
    const { data } = await admin.api.integrations.updateIntegrationInstallation(NAME, installationId, {
      configuration: { team: 'docs', level: 2 },
      externalIds: ['acct-1'],
    });
    expect(data.configuration).toEqual({ team: 'docs', level: 2 });
    expect(data.externalIds).toEqual(['acct-1']);

    const wrongType = await failure(
      admin.api.integrations.updateIntegrationInstallation(NAME, installationId, {
        configuration: { team: 7 },
      }),
    );
    expect(wrongType).toEqual({
      code: 400,
      message: expect.stringContaining('body.configuration.team must be a string'),
    });
    const unknown = await failure(
      admin.api.integrations.updateIntegrationInstallation(NAME, installationId, {
        configuration: { password: 'x' },
      }),
    );
    expect(unknown.message).toContain('body.configuration.password');
    const tooMany = await failure(
      admin.api.integrations.updateIntegrationInstallation(NAME, installationId, {
        externalIds: ['1', '2', '3', '4', '5', '6'],
      }),
    );
    expect(tooMany.code).toBe(400);
    expect(tooMany.message).toContain('externalIds');
    // Nothing of a refused update was kept.
    const { data: after } = await admin.api.integrations.getIntegrationInstallationById(NAME, installationId);
    expect(after.configuration).toEqual({ team: 'docs', level: 2 });
  });

  it('is for the admins of the organization: 403 to its other members, 404 to anyone else', async () => {
    const body = { configuration: { team: 'x' } };
    expect(
      (await failure(writer.api.integrations.updateIntegrationInstallation(NAME, installationId, body))).code,
    ).toBe(403);
    expect(
      (await failure(outsider.api.integrations.updateIntegrationInstallation(NAME, installationId, body)))
        .code,
    ).toBe(404);
    const wrongName = await failure(
      admin.api.integrations.updateIntegrationInstallation('some-other', installationId, body),
    );
    expect(wrongName.code).toBe(404);
  });
});

describe('installing on a space', () => {
  it('installs once per space, counts it on the installation, and lists it', async () => {
    const first = await admin.api.integrations.installIntegrationOnSpace(NAME, installationId, {
      space: spaceId,
    });
    expect(first.status).toBe(201);
    expect(first.data).toMatchObject({
      integration: NAME,
      installation: installationId,
      status: 'active',
      configuration: {},
      space: spaceId,
    });
    expect(first.headers.get('location')).toBe(first.data.urls.location);
    const again = await admin.api.integrations.installIntegrationOnSpace(NAME, installationId, {
      space: spaceId,
    });
    expect(again.data.urls.location).toBe(first.data.urls.location);

    const { data: list } = await admin.api.integrations.listIntegrationInstallationSpaces(
      NAME,
      installationId,
    );
    expect(list.items.map((item) => item.space)).toEqual([spaceId]);
    const { data: installation } = await admin.api.integrations.getIntegrationInstallationById(
      NAME,
      installationId,
    );
    expect(installation.spaces).toBe(1);
    const { data: one } = await admin.api.integrations.getIntegrationSpaceInstallation(
      NAME,
      installationId,
      spaceId,
    );
    expect(one.space).toBe(spaceId);
  });

  it('refuses a space of another organization, a deleted one, and one that does not exist', async () => {
    const elsewhere = (await outsider.api.orgs.createSpace(otherOrg, { title: 'Theirs' })).data.id;
    const foreign = await failure(
      admin.api.integrations.installIntegrationOnSpace(NAME, installationId, { space: elsewhere }),
    );
    expect(foreign.code).toBe(404);
    const doomed = (await admin.api.orgs.createSpace(orgId, { title: 'Doomed' })).data.id;
    await admin.api.spaces.deleteSpaceById(doomed);
    expect(
      (
        await failure(
          admin.api.integrations.installIntegrationOnSpace(NAME, installationId, { space: doomed }),
        )
      ).code,
    ).toBe(404);
    expect(
      (
        await failure(
          admin.api.integrations.installIntegrationOnSpace(NAME, installationId, { space: 'nope' }),
        )
      ).code,
    ).toBe(404);
    const empty = await rawRequest(
      server.url,
      'POST',
      `/v1/integrations/${NAME}/installations/${installationId}/spaces`,
      {
        token: admin.token,
        body: {},
      },
    );
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain('space');
  });

  it('checks the configuration against the space form', async () => {
    const { data } = await admin.api.integrations.updateIntegrationSpaceInstallation(
      NAME,
      installationId,
      spaceId,
      {
        configuration: { channel: '#docs', mode: 'quiet' },
      },
    );
    expect(data.configuration).toEqual({ channel: '#docs', mode: 'quiet' });
    const missing = await failure(
      admin.api.integrations.updateIntegrationSpaceInstallation(NAME, installationId, spaceId, {
        configuration: { mode: 'loud' },
      }),
    );
    expect(missing.message).toContain('body.configuration.channel is required');
    const notListed = await failure(
      admin.api.integrations.updateIntegrationSpaceInstallation(NAME, installationId, spaceId, {
        configuration: { channel: '#docs', mode: 'shouting' },
      }),
    );
    expect(notListed.message).toContain('body.configuration.mode must be one of quiet, loud');
    const notInstalled = (await admin.api.orgs.createSpace(orgId, { title: 'Bare' })).data.id;
    const absent = await failure(
      admin.api.integrations.updateIntegrationSpaceInstallation(NAME, installationId, notInstalled, {
        configuration: { channel: '#x' },
      }),
    );
    expect(absent.code).toBe(404);
  });

  it('is managed by organization admins only', async () => {
    expect(
      (await failure(writer.api.integrations.listIntegrationInstallationSpaces(NAME, installationId))).code,
    ).toBe(403);
    expect(
      (await failure(outsider.api.integrations.listIntegrationInstallationSpaces(NAME, installationId))).code,
    ).toBe(404);
    expect(
      (await failure(outsider.api.integrations.uninstallIntegrationFromSpace(NAME, installationId, spaceId)))
        .code,
    ).toBe(404);
  });

  it('lets the installation itself keep its settings, and nothing of another installation', async () => {
    const own = await installationToken(installationId);
    const patched = await rawRequest(
      server.url,
      'PATCH',
      `/v1/integrations/${NAME}/installations/${installationId}`,
      {
        token: own,
        body: { externalIds: ['from-the-script'] },
      },
    );

    expect(patched.status).toBe(200);
    expect((patched.body as { externalIds: string[] }).externalIds).toEqual(['from-the-script']);
    const otherInstall = (
      await outsider.api.integrations.installIntegration(NAME, { organization: otherOrg })
    ).data.id;
    const foreign = await rawRequest(
      server.url,
      'GET',
      `/v1/integrations/${NAME}/installations/${otherInstall}`,
      {
        token: own,
      },
    );
    expect(foreign.status).toBe(404);
    // Uninstalling stays with people.
    const uninstall = await rawRequest(
      server.url,
      'DELETE',
      `/v1/integrations/${NAME}/installations/${installationId}`,
      {
        token: own,
      },
    );
    expect(uninstall.status).toBe(403);
  });

  it('uninstalls from a space: 205, then 204 once gone', async () => {
    const gone = await admin.api.integrations.uninstallIntegrationFromSpace(NAME, installationId, spaceId);
    expect(gone.status).toBe(205);
    const again = await admin.api.integrations.uninstallIntegrationFromSpace(NAME, installationId, spaceId);
    expect(again.status).toBe(204);
    const { data } = await admin.api.integrations.getIntegrationInstallationById(NAME, installationId);
    expect(data.spaces).toBe(0);
  });
});

describe('the event log', () => {
  it('lists what was delivered, newest first, and what a failing script wrote', async () => {
    await admin.api.integrations.installIntegrationOnSpace(NAME, installationId, { space: spaceId });
    await runJobs();
    await admin.api.integrations.updateIntegrationSpaceInstallation(NAME, installationId, spaceId, {
      configuration: { channel: '#explode' },
    });
    await runJobs();
    const { data } = await admin.api.integrations.listIntegrationEvents(NAME);
    const setups = data.items.filter((event) => event.payload.type === 'space_installation_setup');
    expect(data.items.map((event) => event.payload.type)).toContain('installation_setup');
    // Newest first: the update that failed, then the installs and updates that went through.
    expect(setups.map((event) => event.status)).toEqual(['failed', ...setups.slice(1).map(() => 'success')]);
    expect(setups.length).toBeGreaterThan(1);
    expect(setups[0]!.payload).toMatchObject({
      spaceId,
      previous: { status: 'active', configuration: {} },
    });
    expect(setups[0]!.installationId).toBe(installationId);
    const times = data.items.map((event) => event.createdAt);
    expect([...times].sort().reverse()).toEqual(times);

    const { data: failed } = await admin.api.integrations.getIntegrationEvent(NAME, setups[0]!.id);
    expect(failed.event.status).toBe('failed');
    const logs = failed.trace?.logs.map((line) => line.message).join('\n');
    expect(logs).toContain('cannot post to #explode on space_installation_setup');
    expect(logs).toContain('the script answered 500');

    const page = await admin.api.integrations.listIntegrationEvents(NAME, { limit: 1 });
    expect(page.data.items).toHaveLength(1);
    expect(page.data.next?.page).toBeDefined();
    await admin.api.integrations.updateIntegrationSpaceInstallation(NAME, installationId, spaceId, {
      configuration: { channel: '#docs' },
    });
  });

  it("is for the owner organization's admins", async () => {
    expect((await failure(writer.api.integrations.listIntegrationEvents(NAME))).code).toBe(403);
    // The integration is public, and installed in the outsider's organization: its events are still not theirs.
    expect((await failure(outsider.api.integrations.listIntegrationEvents(NAME))).code).toBe(404);
    expect((await failure(admin.api.integrations.getIntegrationEvent(NAME, 'no-such-event'))).code).toBe(404);
  });

  it('forgets events after the retention', async () => {
    const { clock } = server.app.quire.deps as unknown as { clock: { now(): Date } };
    const before = (await admin.api.integrations.listIntegrationEvents(NAME)).data.items.length;
    expect(before).toBeGreaterThan(0);
    const realNow = clock.now.bind(clock);
    clock.now = () => new Date(realNow().getTime() + 8 * 24 * 60 * 60 * 1000);
    try {
      await server.app.quire.services.integrationEvents.purge();
    } finally {
      clock.now = realNow;
    }
    expect((await admin.api.integrations.listIntegrationEvents(NAME)).data.items).toHaveLength(0);
  });
});

describe('uninstalling', () => {
  it('removes the installation, its spaces and its user: 205, then 204', async () => {
    const email = `installation-${installationId.toLowerCase()}@integrations.invalid`;
    await installationToken(installationId);
    const memberEmails = async () =>
      (
        await server.app.quire.deps.db
          .selectFrom('members')
          .innerJoin('users', 'users.id', 'members.user_id')
          .select('users.email')
          .where('members.org_id', '=', orgId)
          .execute()
      ).map((r) => r.email);
    expect(await memberEmails()).toContain(email);
    // A member in the database, not a person: the member list leaves it out.
    const listed = (await admin.api.orgs.listMembersInOrganizationById(orgId)).data.items.map(
      (m) => m.user.email,
    );
    expect(listed).not.toContain(email);
    expect(listed).toContain(admin.email);
    expect((await failure(writer.api.integrations.uninstallIntegration(NAME, installationId))).code).toBe(
      403,
    );
    expect((await failure(outsider.api.integrations.uninstallIntegration(NAME, installationId))).code).toBe(
      404,
    );

    const gone = await admin.api.integrations.uninstallIntegration(NAME, installationId);
    expect(gone.status).toBe(205);
    expect((await admin.api.integrations.uninstallIntegration(NAME, installationId)).status).toBe(204);
    expect(
      (await failure(admin.api.integrations.getIntegrationInstallationById(NAME, installationId))).code,
    ).toBe(404);
    expect(await memberEmails()).not.toContain(email);
    const { data } = await admin.api.orgs.listOrganizationInstallations(orgId);
    expect(data.items).toHaveLength(0);
    const rows = await server.app.quire.deps.db
      .selectFrom('integration_space_installations')
      .selectAll()
      .where('installation_id', '=', installationId)
      .execute();
    expect(rows).toHaveLength(0);
  });
});

/** The token the installation's script is given. */
function installationToken(id: string): Promise<string> {
  return server.app.quire.services.integrationIdentities.installationToken(
    { id, org_id: orgId, integration_name: NAME },
    { title: 'Settings', scopes: ['space:content:read'] },
  );
}
