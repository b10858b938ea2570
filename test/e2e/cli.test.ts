import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLI_HOOK_MS,
  type CliServer,
  type IsolatedStore,
  isolatedStore,
  runCli,
  startCliServer,
} from '../helpers/cli.js';
import { apiClient } from '../helpers/client.js';
import { failure } from '../helpers/expect-error.js';

const QUIET = { LOG_LEVEL: 'warn', PORT: '0' };

describe('quire CLI against a running server', () => {
  let store: IsolatedStore;
  let server: CliServer;

  beforeAll(async () => {
    store = await isolatedStore();
    server = await startCliServer({
      ...store.env,
      ...QUIET,
      QUIRE_ADMIN_TOKEN: 'scripted-admin-token-0123456789abcdef',
    });
  }, CLI_HOOK_MS);
  afterAll(async () => {
    await server?.stop();
    await store?.cleanup();
  });

  it('bootstraps the admin with QUIRE_ADMIN_TOKEN so scripts know it', async () => {
    const admin = apiClient(server.url, 'scripted-admin-token-0123456789abcdef');
    const { data } = await admin.user.getAuthenticatedUser();
    expect(data.email).toBe('admin@localhost');
    const { data: orgs } = await admin.orgs.listOrganizationsForAuthenticatedUser();
    expect(orgs.items).toHaveLength(1);
    expect(orgs.items[0]!.permissions.admin).toBe(true);
    expect(server.output.join('\n')).not.toContain('scripted-admin-token');
  });

  it('creates users and tokens, printing only the token for scripts', async () => {
    const created = await runCli(
      ['user', 'create', '--email', 'Writer@Example.test', '--name', 'Wendy Writer'],
      store.env,
    );
    expect(created.code).toBe(0);
    expect(created.stdout.trim()).toMatch(/^[A-Za-z0-9]{20}$/);

    const token = await runCli(
      ['token', 'create', '--email', 'writer@example.test', '--label', 'ci'],
      store.env,
    );
    expect(token.code).toBe(0);
    expect(token.stdout).toMatch(/^quire_[A-Za-z0-9_-]{43}\n$/);
    const writer = apiClient(server.url, token.stdout.trim());
    const { data } = await writer.user.getAuthenticatedUser();
    expect(data).toMatchObject({
      id: created.stdout.trim(),
      displayName: 'Wendy Writer',
      email: 'writer@example.test',
    });

    const duplicate = await runCli(['user', 'create', '--email', 'writer@example.test'], store.env);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('already exists');
  });

  it('creates the user on token create when absent', async () => {
    const token = await runCli(['token', 'create', '--email', 'newcomer@example.test'], store.env);
    expect(token.code).toBe(0);
    expect(token.stderr).toContain('Created user newcomer@example.test');
    expect(token.stdout.trim().split('\n')).toHaveLength(1);
    const { data } = await apiClient(server.url, token.stdout.trim()).user.getAuthenticatedUser();
    expect(data.email).toBe('newcomer@example.test');
  });

  it('revokes a token so the running server refuses it at once', async () => {
    const token = (
      await runCli(['token', 'create', '--email', 'revoked@example.test'], store.env)
    ).stdout.trim();
    const client = apiClient(server.url, token);
    await client.user.getAuthenticatedUser();
    const expiring = await runCli(
      ['token', 'create', '--email', 'revoked@example.test', '--label', 'month', '--expires-in', '30'],
      store.env,
    );
    expect(expiring.code).toBe(0);
    const listed = await runCli(['token', 'list', '--email', 'revoked@example.test'], store.env);
    expect(listed.stdout).not.toContain(token);
    expect(listed.stdout).toMatch(/\tmonth\tcreated \S+\tlast used never\texpires 20\d\d-/);
    const revoked = await runCli(['token', 'revoke', '--token', token], store.env);
    expect(revoked.code).toBe(0);
    expect((await failure(client.user.getAuthenticatedUser())).code).toBe(401);
    const again = await runCli(['token', 'list', '--email', 'revoked@example.test'], store.env);
    expect(again.stdout).toContain('revoked');
  });

  it('creates organizations with an admin owner', async () => {
    const token = (
      await runCli(['token', 'create', '--email', 'owner@example.test'], store.env)
    ).stdout.trim();
    const org = await runCli(
      ['org', 'create', '--title', 'CLI Org', '--owner', 'owner@example.test'],
      store.env,
    );
    expect(org.code).toBe(0);
    const { data } = await apiClient(server.url, token).orgs.getOrganizationById(org.stdout.trim());
    expect(data).toMatchObject({ title: 'CLI Org', permissions: { admin: true } });
  });

  it('prints a one-time browser sign-in link the running server accepts once', async () => {
    await runCli(['user', 'create', '--email', 'browser@example.test'], store.env);
    const printed = await runCli(['login-link', '--email', 'browser@example.test'], store.env);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toMatch(/^http\S+\/login\/link\/quire_[A-Za-z0-9_-]{43}\n$/);
    const path = new URL(printed.stdout.trim()).pathname;
    const signIn = () => fetch(`${server.url}${path}`, { method: 'POST', redirect: 'manual' });
    const first = await signIn();
    expect(first.status).toBe(303);
    expect(first.headers.get('set-cookie')).toContain('quire_session=');
    expect((await signIn()).status).toBe(410);

    const unknown = await runCli(['login-link', '--email', 'nobody@example.test'], store.env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No user with the email nobody@example.test');
  });

  it('explains usage errors', async () => {
    const missing = await runCli(['token', 'create'], store.env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--email is required');
    const lifetime = await runCli(
      ['token', 'create', '--email', 'x@example.test', '--expires-in', '0'],
      store.env,
    );
    expect(lifetime.code).toBe(1);
    expect(lifetime.stderr).toContain('--expires-in must be a whole number of days');
    const unknown = await runCli(['frobnicate'], store.env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Usage: quire');
    const help = await runCli(['help'], store.env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('token revoke');
  });
});

describe('first start without QUIRE_ADMIN_TOKEN', () => {
  it('prints a banner with the URL, the data, a new admin token once and how to stop, before any log line', async () => {
    const store = await isolatedStore();
    try {
      const server = await startCliServer({ ...store.env, LOG_LEVEL: 'info', PORT: '0' });
      await waitFor(() => server.output.some((l) => l.startsWith('{')));
      const firstLog = server.output.findIndex((l) => l.startsWith('{'));
      const banner = server.output.slice(0, firstLog).join('\n');
      expect(banner).toMatch(/^Quire \S+ is listening on http:\/\/127\.0\.0\.1:\d+/);
      expect(banner).toContain(process.env.DATABASE_URL ? 'PostgreSQL' : store.env.QUIRE_DATA_DIR);
      expect(banner).toMatch(/migrations applied/);
      expect(banner).toContain('Ctrl+C');
      expect(banner).not.toContain('Applied migration');
      expect(server.output.slice(firstLog).every((l) => l.startsWith('{'))).toBe(true);
      const line = server.output.find((l) => l.includes('Admin API token'));
      const token = line?.match(/(quire_\S+)/)?.[1];
      expect(token).toBeDefined();
      const { data } = await apiClient(server.url, token).user.getAuthenticatedUser();
      expect(data.email).toBe('admin@localhost');
      await server.stop();

      const again = await startCliServer({ ...store.env, ...QUIET });
      const output = again.output.join('\n');
      expect(output).not.toContain('Admin API token');
      expect(output).not.toContain('migrations applied');
      expect((await apiClient(again.url, token).user.getAuthenticatedUser()).data.email).toBe(
        'admin@localhost',
      );
      await again.stop();
    } finally {
      await store.cleanup();
    }
  });
});

async function waitFor(condition: () => boolean, ms = 30_000): Promise<void> {
  for (const start = Date.now(); !condition(); ) {
    if (Date.now() - start > ms) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('configuration errors', () => {
  it('stop the process with a message naming the variable', async () => {
    for (const [env, variable] of [
      [{ PORT: 'eighty' }, 'PORT'],
      [{ DATABASE_URL: 'mysql://localhost/quire' }, 'DATABASE_URL'],
    ] as const) {
      const result = await runCli(['serve'], { QUIRE_DATA_DIR: '/tmp/quire-never-created', ...env });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`Configuration error: ${variable}`);
    }
  });
});
