import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { insert, newChangeRequest, seed, write } from '../helpers/content.js';
import { createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { type GitServer, startGitServer } from '../helpers/git-server.js';
import { gitbookPublish } from '../helpers/gitbook-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { publishedSite } from '../helpers/sites.js';

/**
 * Integrations end to end: the official CLI builds and publishes a script written against
 * @gitbook/runtime, it is installed, and Quire runs it in workerd on real events. The script
 * reports what it sees to a recorder on loopback (reachable because QUIRE_OUTBOUND_ALLOW names
 * it), reads content back with its installation token, and tries what it may not.
 */

const NOTIFY = path.resolve(import.meta.dirname, '../fixtures/integrations/notify');

let server: TestServer;
let admin: TestUser;
let orgId: string;
let spaceId: string;
let recorder: Server;
let git: GitServer;
let reportUrl: string;
let installationId: string;
const reports: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  recorder = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      reports.push(JSON.parse(body) as Record<string, unknown>);
      response.end('recorded');
    });
  });
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  const port = (recorder.address() as AddressInfo).port;
  reportUrl = `http://127.0.0.1:${port}/report`;
  git = await startGitServer();
  const gitPort = new URL(git.url).port;
  server = await startTestServer({ env: { QUIRE_OUTBOUND_ALLOW: `127.0.0.1:${port},127.0.0.1:${gitPort}` } });
  admin = await createUser(server);
  orgId = await createOrg(admin, 'Integrations org');
  spaceId = (await admin.api.orgs.createSpace(orgId, { title: 'Handbook' })).data.id;
  await seed(admin.api, spaceId, [insert('Welcome', 'Hello.')]);

  // The manifest as a team would write it, with this test's recorder and organization.
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-notify-'));
  const manifest = readFileSync(path.join(NOTIFY, 'gitbook-manifest.yaml'), 'utf8')
    .replace('script: src/index.ts', `script: ${path.join(NOTIFY, 'src/index.ts')}`)
    .replace('REPORT_URL: replaced-by-the-test', `REPORT_URL: ${reportUrl}`);
  writeFileSync(path.join(dir, 'gitbook-manifest.yaml'), manifest);
  const run = await gitbookPublish({
    manifest: path.join(dir, 'gitbook-manifest.yaml'),
    organization: orgId,
    token: admin.token,
    endpoint: server.url,
  });
  run.cleanup();
  rmSync(dir, { recursive: true, force: true });
  if (run.code !== 0) throw new Error(`gitbook publish failed:\n${run.stdout}\n${run.stderr}`);
}, 180_000);
afterAll(async () => {
  await server?.close();
  await git?.close();
  recorder?.close();
});

/** Runs the queued deliveries (the test server's worker is off) until `done` holds. */
async function deliverUntil(done: () => boolean): Promise<void> {
  await vi.waitFor(
    async () => {
      await server.app.quire.services.jobs.runDue();
      expect(done()).toBe(true);
    },
    { timeout: 20_000, interval: 100 },
  );
}

describe('an integration published with the official CLI, running in workerd', () => {
  it('receives installation_setup when it is installed', async () => {
    const { data } = await admin.api.integrations.installIntegration('quire-notify', { organization: orgId });
    installationId = data.id;
    await deliverUntil(() => reports.some((r) => r.type === 'installation_setup'));
    expect(reports.find((r) => r.type === 'installation_setup')).toEqual({
      type: 'installation_setup',
      installationId,
    });
  });

  it('receives space_content_updated after a merge, reads the content back, and is refused what it may not do', async () => {
    const crId = await newChangeRequest(admin.api, spaceId, 'Add a page');
    await write(admin.api, spaceId, crId, [insert('Release notes', 'New things.')]);
    const merged = await admin.api.spaces.mergeChangeRequest(spaceId, crId);
    expect(merged.data.result).toBe('merge');
    const revisionId = merged.data.revision;

    await deliverUntil(() =>
      reports.some((r) => r.type === 'space_content_updated' && r.revisionId === revisionId),
    );
    const report = reports.find((r) => r.type === 'space_content_updated' && r.revisionId === revisionId)!;
    expect(report.spaceId).toBe(spaceId);
    expect(report.updatedBy).toEqual([admin.id]);
    // What it read with its installation token is the merged content.
    expect(report.titles).toEqual(['Welcome', 'Release notes']);
    // Its scopes (space:content:read) do not cover a git import.
    const outOfScope = report.outOfScope as { status: number; body: string };
    expect(outOfScope.status).toBe(403);
    expect(outOfScope.body).toContain('needs the integration scope space:git:sync');
    // A private address is refused by Quire's guarded client, not reached.
    const internal = report.internal as { status: number; body: string };
    expect(internal.status).toBe(502);
    expect(internal.body).toContain('10.0.0.1');
  });

  it('hears a git import start and end, and the content it brought', async () => {
    git.createRepo('docs');
    const commit = git.commit('docs', 'main', { 'README.md': '# Imported\n\nFrom git.\n' }, 'Docs');
    const imported = (await admin.api.orgs.createSpace(orgId, { title: 'From git' })).data.id;
    await admin.api.spaces.importGitRepository(imported, {
      url: git.repoUrl('docs'),
      ref: 'refs/heads/main',
    });
    const about = (type: string) => reports.find((r) => r.type === type && r.spaceId === imported);
    await deliverUntil(
      () => about('space_gitsync_completed') !== undefined && about('space_content_updated') !== undefined,
    );
    expect(about('space_gitsync_started')).toBeDefined();
    expect(about('space_gitsync_completed')).toMatchObject({ state: 'success', commitId: commit });
    expect(about('space_content_updated')?.titles).toEqual(['Imported']);
  });

  it('hears the page views of a published site as site_view', async () => {
    const site = await publishedSite(admin, orgId, [spaceId]);
    const page = await fetch(site.urls.published!, {
      headers: { 'user-agent': 'Reader/1.0', referer: 'https://search.example/' },
    });
    expect(page.status).toBe(200);
    await server.app.quire.services.siteViews.flush();
    await deliverUntil(() => reports.some((r) => r.type === 'site_view'));
    const view = reports.find((r) => r.type === 'site_view')!;
    expect(view).toMatchObject({
      siteId: site.id,
      referrer: 'https://search.example/',
      userAgent: 'Reader/1.0',
    });
    expect(view.url).toContain(new URL(site.urls.published!).pathname);
    expect(view.anonymousId).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('receives space_visibility_updated when a space is made public', async () => {
    await admin.api.spaces.updateSpaceById(spaceId, { visibility: 'public' } as never);
    await deliverUntil(() => reports.some((r) => r.type === 'space_visibility_updated'));
    expect(reports.find((r) => r.type === 'space_visibility_updated')).toEqual({
      type: 'space_visibility_updated',
      spaceId,
      previousVisibility: 'private',
      visibility: 'public',
    });
  });

  it('is installed on a space with a configuration of its own: space_installation_setup', async () => {
    const { data } = await admin.api.integrations.installIntegrationOnSpace('quire-notify', installationId, {
      space: spaceId,
    });
    expect(data.space).toBe(spaceId);
    const setups = () => reports.filter((r) => r.type === 'space_installation_setup');
    await deliverUntil(() => setups().length === 1);
    expect(setups()[0]).toEqual({
      type: 'space_installation_setup',
      spaceId,
      status: 'active',
      previous: null,
      configuration: {},
    });
    await admin.api.integrations.updateIntegrationSpaceInstallation('quire-notify', installationId, spaceId, {
      configuration: { channel: '#docs' },
    });
    await deliverUntil(() => setups().length === 2);
    expect(setups()[1]).toMatchObject({
      previous: { status: 'active', configuration: {} },
      configuration: { channel: '#docs' },
    });
  });

  it('hears only of the spaces it is installed on once it selects them', async () => {
    await admin.api.integrations.updateIntegrationInstallation('quire-notify', installationId, {
      space_selection: 'selected' as never,
    });
    const other = (await admin.api.orgs.createSpace(orgId, { title: 'Not selected' })).data.id;
    for (const space of [other, spaceId]) {
      const crId = await newChangeRequest(admin.api, space, 'Selected or not');
      await write(admin.api, space, crId, [insert(`Page in ${space}`, 'Text.')]);
      await admin.api.spaces.mergeChangeRequest(space, crId);
    }
    const merged = (await admin.api.spaces.getCurrentRevision(spaceId)).data.id;
    await deliverUntil(() =>
      reports.some((r) => r.type === 'space_content_updated' && r.revisionId === merged),
    );
    // The other space's merge came first and was never sent.
    expect(reports.filter((r) => r.spaceId === other)).toEqual([]);
    const { data: events } = await admin.api.integrations.listIntegrationEvents('quire-notify', {
      limit: 100,
    });
    expect(events.items.filter((e) => (e.payload as { spaceId?: string }).spaceId === other)).toEqual([]);
    await admin.api.integrations.updateIntegrationInstallation('quire-notify', installationId, {
      space_selection: 'all' as never,
    });
  });

  it("answers requests to its public endpoint with the script's fetch handler", async () => {
    const { data } = await admin.api.integrations.getIntegrationByName('quire-notify');
    const response = await fetch(data.urls.publicEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'a webhook',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ method: 'POST', body: 'a webhook', integration: 'quire-notify' });
  });

  it('acts as a member of its own organization only', async () => {
    const other = await createOrg(admin, 'Elsewhere');
    const otherSpace = (await admin.api.orgs.createSpace(other, { title: 'Secret' })).data.id;
    const { data: installation } = await admin.api.integrations.getIntegrationInstallationById(
      'quire-notify',
      installationId,
    );
    expect(installation.id).toBe(installationId);
    const own = await fetch(`${server.url}/v1/spaces/${spaceId}`, {
      headers: { authorization: `Bearer ${await installationToken()}` },
    });
    expect(own.status).toBe(200);
    const elsewhere = await fetch(`${server.url}/v1/spaces/${otherSpace}`, {
      headers: { authorization: `Bearer ${await installationToken()}` },
    });
    expect(elsewhere.status).toBe(404);
  });
});

describe('a new version', () => {
  it('runs from the next event on', async () => {
    // A bare module script (no @gitbook/runtime): it reads the event form itself.
    const script = `export default {
      async fetch(request) {
        const form = await request.formData();
        const event = JSON.parse(form.get('event'));
        const environment = JSON.parse(form.get('environment'));
        await fetch(environment.secrets.REPORT_URL, {
          method: 'POST',
          body: JSON.stringify({ type: 'v' + environment.integration.version + ':' + event.type, spaceId: event.spaceId }),
        });
        return new Response('ok');
      },
    };`;
    const { data: current } = await admin.api.integrations.getIntegrationByName('quire-notify');
    const { data: next } = await admin.api.integrations.publishIntegration('quire-notify', {
      organization: orgId,
      title: current.title,
      description: current.description ?? '',
      scopes: current.scopes,
      script,
    } as never);
    expect(next.version).toBe(current.version + 1);
    const crId = await newChangeRequest(admin.api, spaceId, 'After the new version');
    await write(admin.api, spaceId, crId, [insert('Changelog', 'v2.')]);
    await admin.api.spaces.mergeChangeRequest(spaceId, crId);
    const type = `v${next.version}:space_content_updated`;
    await deliverUntil(() => reports.some((r) => r.type === type));
    expect(reports.find((r) => r.type === type)?.spaceId).toBe(spaceId);
  });
});

describe('when the integration is unpublished', () => {
  it('its installation leaves the organization, and a token still alive reaches nothing', async () => {
    const token = await installationToken();
    const read = () =>
      fetch(`${server.url}/v1/spaces/${spaceId}`, { headers: { authorization: `Bearer ${token}` } });
    expect((await read()).status).toBe(200);
    await admin.api.integrations.unpublishIntegration('quire-notify');
    expect((await read()).status).toBe(404);
    const left = await server.app.quire.deps.db
      .selectFrom('members')
      .innerJoin('users', 'users.id', 'members.user_id')
      .select('users.email')
      .where('members.org_id', '=', orgId)
      .where('users.email', '=', `installation-${installationId.toLowerCase()}@integrations.invalid`)
      .execute();
    expect(left).toEqual([]);
  });
});

/** The token the installation's script is given (the same the runtime hands out). */
async function installationToken(): Promise<string> {
  return server.app.quire.services.integrationIdentities.installationToken(
    { id: installationId, org_id: orgId, integration_name: 'quire-notify' },
    { title: 'Notify', scopes: ['space:content:read'] },
  );
}
