import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insert, markdownOf, newChangeRequest, seed, write } from '../helpers/content.js';
import { failure } from '../helpers/expect-error.js';
import { createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { type GitServer, startGitServer } from '../helpers/git-server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Git sync against a real smart-HTTP git server on loopback (git http-backend behind basic
 * authentication), loopback allowed explicitly for this server.
 */

let server: TestServer;
let git: GitServer;
let admin: TestUser;
let orgId: string;

beforeAll(async () => {
  server = await startTestServer({ env: { QUIRE_OUTBOUND_ALLOW: '127.0.0.1' } });
  git = await startGitServer();
  admin = await createUser(server);
  orgId = await createOrg(admin, 'Git org');
});
afterAll(async () => {
  await server.close();
  await git.close();
});

const HINT = '{% hint style="info" %}\nRemember **this**.\n{% endhint %}\n';
const TABS =
  '{% tabs %}\n{% tab title="npm" %}\n```bash\nnpm install quire\n```\n{% endtab %}\n\n{% tab title="yarn" %}\n```bash\nyarn add quire\n```\n{% endtab %}\n{% endtabs %}\n';
const EMBED = '{% embed url="https://www.youtube.com/watch?v=abc" %}\nA video\n{% endembed %}\n';
const CONTENT_REF = '{% content-ref url="install.md" %}\n[install.md](install.md)\n{% endcontent-ref %}\n';
const FILE_BLOCK = '{% file src=".gitbook/assets/guide.pdf" %}\nThe guide\n{% endfile %}\n';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const REPO_FILES: Record<string, string | Buffer> = {
  'docs/.gitbook.yaml':
    'root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n\nredirects:\n  old/setup: guides/setup.md\n',
  'docs/SUMMARY.md': [
    '# Table of contents',
    '',
    '* [Welcome](README.md)',
    '* [Getting started](getting-started/README.md)',
    '  * [Install](getting-started/install.md)',
    '',
    '## Guides',
    '',
    '* [Setup](guides/setup.md)',
    '* [Website](https://example.com)',
    '',
  ].join('\n'),
  'docs/README.md': `---\ndescription: The start of everything.\nicon: house\n---\n\n# Welcome\n\nHello from git.\n\n${HINT}\n![Logo](.gitbook/assets/logo.png)\n`,
  'docs/getting-started/README.md': `# Getting started\n\n${CONTENT_REF}`,
  'docs/getting-started/install.md': `---\nhidden: true\nlayout:\n  width: wide\n  title:\n    visible: true\n  description:\n    visible: false\n  tableOfContents:\n    visible: true\n  outline:\n    visible: true\n  pagination:\n    visible: true\n---\n\n# Install\n\n${TABS}`,
  'docs/guides/setup.md': `# Setup\n\n${EMBED}\n${FILE_BLOCK}\nSee [install](../getting-started/install.md).\n`,
  'docs/.gitbook/assets/logo.png': PNG,
  'docs/.gitbook/assets/guide.pdf': '%PDF-1.4 fake\n',
  'other/ignored.md': '# Not in the project\n',
};

async function space(title: string): Promise<string> {
  return (await admin.api.orgs.createSpace(orgId, { title })).data.id;
}

async function runJobs(): Promise<void> {
  await server.app.quire.services.jobs.runDue();
}

async function info(spaceId: string) {
  return (await admin.api.spaces.getSpaceGitInfo(spaceId)).data as {
    url?: string;
    updatedAt?: string;
    operation?: { state: string; direction: string; error?: string; warnings?: string[] };
  };
}

type PageView = {
  id: string;
  title: string;
  type: string;
  path?: string;
  pages?: PageView[];
  hidden?: boolean;
};

async function pages(spaceId: string): Promise<PageView[]> {
  return (await admin.api.spaces.listPages(spaceId)).data.pages as unknown as PageView[];
}

function flat(list: PageView[]): PageView[] {
  return list.flatMap((p) => [p, ...flat(p.pages ?? [])]);
}

describe('git import', () => {
  let spaceId: string;
  let firstCommit: string;

  it('imports a GitBook-format repository: nested pages, groups, assets and blocks', async () => {
    git.createRepo('docs');
    firstCommit = git.commit('docs', 'main', REPO_FILES, 'Initial docs');
    spaceId = await space('Imported');
    await admin.api.spaces.importGitRepository(spaceId, {
      url: git.repoUrl('docs'),
      ref: 'refs/heads/main',
      repoProjectDirectory: 'docs',
      repoCommitURL: 'https://git.example.com/acme/docs/commit',
      repoTreeURL: 'https://git.example.com/acme/docs/tree/main',
    });
    expect((await info(spaceId)).operation?.state).toBe('running');
    await runJobs();
    const state = await info(spaceId);
    expect(state.operation).toMatchObject({ state: 'success', direction: 'import' });
    expect(state.url).toBe('https://git.example.com/acme/docs/tree/main');

    const tree = await pages(spaceId);
    expect(tree.map((p) => [p.type, p.title])).toEqual([
      ['document', 'Welcome'],
      ['document', 'Getting started'],
      ['group', 'Guides'],
    ]);
    expect(tree[1]!.pages!.map((p) => p.title)).toEqual(['Install']);
    expect(tree[2]!.pages!.map((p) => [p.type, p.title])).toEqual([
      ['document', 'Setup'],
      ['link', 'Website'],
    ]);
    const all = flat(tree);
    const install = all.find((p) => p.title === 'Install')!;
    expect(install.path).toBe('getting-started/install');
    expect(install.hidden).toBe(true);

    const { data: welcome } = await admin.api.spaces.getPageById(spaceId, tree[0]!.id);
    expect(welcome).toMatchObject({ description: 'The start of everything.', icon: 'house' });
    expect((welcome as { git?: { path: string } }).git?.path).toBe('docs/README.md');

    // Blocks come through byte for byte.
    expect(await markdownOf(admin.api, spaceId, install.id)).toContain(TABS.trim());
    const setup = all.find((p) => p.title === 'Setup')!;
    const setupMd = await markdownOf(admin.api, spaceId, setup.id);
    expect(setupMd).toContain(EMBED.trim());
    expect(setupMd).toContain(FILE_BLOCK.trim());

    const files = (await admin.api.spaces.listFiles(spaceId)).data.items;
    expect(files.map((f) => f.name).sort()).toEqual(['guide.pdf', 'logo.png']);
    expect(files.find((f) => f.name === 'logo.png')).toMatchObject({ contentType: 'image/png' });

    const { data: revision } = await admin.api.spaces.getCurrentRevision(spaceId);
    expect(revision.git).toMatchObject({
      oid: firstCommit,
      message: 'Initial docs',
      createdByGitBook: false,
      ref: 'refs/heads/main',
      url: `https://git.example.com/acme/docs/commit/${firstCommit}`,
    });
  });

  it('edits through a change request, merges, exports, and the commit holds the change', async () => {
    const tree = await pages(spaceId);
    const welcome = tree[0]!;
    const crId = await newChangeRequest(admin.api, spaceId, 'Edit welcome');
    const before = await markdownOf(admin.api, spaceId, welcome.id);
    await write(admin.api, spaceId, crId, [
      {
        operation: 'update_page',
        page: welcome.id,
        document: { markdown: before.replace('Hello from git.', 'Hello from Quire.') },
      },
    ]);
    expect((await admin.api.spaces.mergeChangeRequest(spaceId, crId)).data.result).toBe('merge');

    await admin.api.spaces.exportToGitRepository(spaceId, {
      url: git.repoUrl('docs'),
      ref: 'refs/heads/main',
      commitMessage: 'Edit from Quire',
      repoProjectDirectory: 'docs',
    });
    await runJobs();
    expect((await info(spaceId)).operation).toMatchObject({ state: 'success', direction: 'export' });

    const log = git.git('docs', ['log', '--format=%s', 'main']).trim().split('\n');
    expect(log).toEqual(['Edit from Quire', 'Initial docs']);
    const changed = git.git('docs', ['diff', '--name-only', 'main~1', 'main']).trim().split('\n');
    expect(changed).toEqual(['docs/README.md']);
    const readme = git.git('docs', ['show', 'main:docs/README.md']);
    expect(readme).toContain('Hello from Quire.');
    expect(readme).toContain(HINT.trim());
    expect(
      readme.startsWith('---\ndescription: The start of everything.\nicon: house\n---\n\n# Welcome\n'),
    ).toBe(true);

    const { data: revision } = await admin.api.spaces.getCurrentRevision(spaceId);
    expect(revision.git).toMatchObject({ message: 'Edit from Quire', createdByGitBook: true });
  });

  it('imports the exported repository into another space and gets the same content (round trip)', async () => {
    const other = await space('Round trip');
    await admin.api.spaces.importGitRepository(other, {
      url: git.repoUrl('docs'),
      ref: 'refs/heads/main',
      repoProjectDirectory: 'docs',
    });
    await runJobs();
    const strip = (list: PageView[]): unknown =>
      list.map((p) => ({ title: p.title, type: p.type, path: p.path, pages: strip(p.pages ?? []) }));
    expect(strip(await pages(other))).toEqual(strip(await pages(spaceId)));
    const a = flat(await pages(spaceId)).filter((p) => p.type === 'document');
    const b = flat(await pages(other)).filter((p) => p.type === 'document');
    for (const [i, page] of a.entries())
      expect(await markdownOf(admin.api, other, b[i]!.id)).toBe(
        await markdownOf(admin.api, spaceId, page.id),
      );
  });

  it('exports over a branch that moved while the space did not change: nothing to commit, the space takes the remote change', async () => {
    git.commit(
      'docs',
      'main',
      { 'docs/guides/setup.md': '# Setup\n\nChanged on the remote.\n' },
      'Remote edit',
    );
    await admin.api.spaces.exportToGitRepository(spaceId, {
      url: git.repoUrl('docs'),
      ref: 'refs/heads/main',
      commitMessage: 'Should not land',
      repoProjectDirectory: 'docs',
    });
    await runJobs();
    const state = await info(spaceId);
    expect(state.operation).toMatchObject({ state: 'success', direction: 'export' });
    expect(state.operation?.warnings?.join('\n')).toMatch(/nothing to commit/);
    expect(git.git('docs', ['log', '-1', '--format=%s', 'main']).trim()).toBe('Remote edit');
    const setup = flat(await pages(spaceId)).find((p) => p.title === 'Setup')!;
    expect(await markdownOf(admin.api, spaceId, setup.id)).toBe('Changed on the remote.\n');
    const { data: revision } = await admin.api.spaces.getCurrentRevision(spaceId);
    expect(revision.git).toMatchObject({ message: 'Remote edit', createdByGitBook: false });

    // Importing afterwards finds nothing new.
    await admin.api.spaces.importGitRepository(spaceId, {
      url: git.repoUrl('docs'),
      ref: 'refs/heads/main',
      repoProjectDirectory: 'docs',
    });
    await runJobs();
    expect((await info(spaceId)).operation?.warnings?.[0]).toMatch(/nothing to import/);
    expect(await markdownOf(admin.api, spaceId, setup.id)).toBe('Changed on the remote.\n');
  });

  it('ignores an import triggered before the last applied one (timestamp order)', async () => {
    const s = await space('Ordered');
    git.createRepo('ordered');
    git.commit('ordered', 'main', { 'README.md': '# Home\n\nversion two\n' }, 'v2');
    await admin.api.spaces.importGitRepository(s, {
      url: git.repoUrl('ordered'),
      ref: 'refs/heads/main',
      timestamp: '2026-01-02T00:00:00.000Z',
    });
    await runJobs();
    const page = (await pages(s))[0]!;
    expect(await markdownOf(admin.api, s, page.id)).toBe('version two\n');
    git.commit('ordered', 'main', { 'README.md': '# Home\n\nversion three\n' }, 'v3');
    await admin.api.spaces.importGitRepository(s, {
      url: git.repoUrl('ordered'),
      ref: 'refs/heads/main',
      timestamp: '2026-01-01T00:00:00.000Z',
      force: true,
    });
    await runJobs();
    expect((await info(s)).operation?.warnings?.[0]).toMatch(/^ignored/);
    expect(await markdownOf(admin.api, s, page.id)).toBe('version two\n');
  });

  it('records failures and changes nothing: wrong credentials, unknown branch, missing repository, a repository without pages', async () => {
    const s = await space('Failures');
    const revision = (await admin.api.spaces.getSpaceById(s)).data.revision;
    const attempt = async (url: string, ref = 'refs/heads/main') => {
      await admin.api.spaces.importGitRepository(s, { url, ref });
      await runJobs();
      return info(s);
    };
    expect(
      (await attempt(git.repoUrl('docs', { user: 'git-user', password: 'wrong' }))).operation,
    ).toMatchObject({
      state: 'failure',
      error: expect.stringMatching(/refused the credentials/),
    });
    expect((await attempt(git.repoUrl('docs'), 'refs/heads/nope')).operation?.error).toMatch(
      /no branch nope/,
    );
    expect((await attempt(git.repoUrl('missing'))).operation?.error).toMatch(/no git repository/);

    git.createRepo('no-pages');
    git.commit('no-pages', 'main', { 'package.json': '{}\n', '.gitbook/assets/a.png': 'png' });
    expect((await attempt(git.repoUrl('no-pages'))).operation?.error).toMatch(
      /neither SUMMARY\.md nor README\.md nor any markdown page/,
    );

    expect((await admin.api.spaces.getSpaceById(s)).data.revision).toBe(revision);
    expect(await pages(s)).toEqual([]);
  });

  it('imports the rest of a repository around odd SUMMARY.md lines, escaping entries, a too-big page and unreadable front matter', async () => {
    const s = await space('Odd lines');
    git.createRepo('odd');
    git.commit('odd', 'main', {
      'SUMMARY.md':
        '# TOC\n\n* [Fine](README.md)\n* Not a link\n* [Out](../../etc/passwd.md)\n* [Big](big.md)\n* [Broken front matter](broken.md)\n* [Last](last.md)\n',
      'README.md': '# Hi\n',
      'big.md': `# Big\n\n${'x'.repeat(1024 * 1024 + 10)}\n`,
      'broken.md': '---\ndescription: [unclosed\n---\n\n# Broken\n\nStill here.\n',
      'last.md': '# Last\n',
    });
    await admin.api.spaces.importGitRepository(s, { url: git.repoUrl('odd'), ref: 'refs/heads/main' });
    await runJobs();
    const state = await info(s);
    expect(state.operation?.state).toBe('success');
    const warnings = state.operation?.warnings?.join('\n') ?? '';
    expect(warnings).toMatch(/SUMMARY\.md line 4: list items must be links/);
    expect(warnings).toMatch(/line 5: .*escapes the project directory/);
    expect(warnings).toMatch(/big\.md is larger than the 1024 KiB a page may hold/);
    expect(warnings).toMatch(/broken\.md: front matter is not valid YAML \(line \d+\)/);
    expect((await pages(s)).map((p) => p.title)).toEqual(['Hi', 'Broken', 'Last']);
    const broken = (await pages(s)).find((p) => p.title === 'Broken')!;
    expect(await markdownOf(admin.api, s, broken.id)).toBe('Still here.\n');
  });

  it('reports SUMMARY.md entries naming missing files and imports the rest', async () => {
    const s = await space('Missing');
    git.createRepo('missing-files');
    git.commit('missing-files', 'main', {
      'SUMMARY.md': '# TOC\n\n* [Home](README.md)\n* [Gone](gone.md)\n',
      'README.md': '# Home\n\nSee [gone](gone.md).\n',
    });
    await admin.api.spaces.importGitRepository(s, {
      url: git.repoUrl('missing-files'),
      ref: 'refs/heads/main',
    });
    await runJobs();
    const state = await info(s);
    expect(state.operation?.state).toBe('success');
    expect(state.operation?.warnings?.join('\n')).toMatch(/line 4: "gone\.md" does not exist/);
    expect((await pages(s)).map((p) => p.title)).toEqual(['Home']);
  });

  it('refuses bad input at once with a 400 naming the field', async () => {
    const s = await space('Bad input');
    const bad = async (body: Record<string, unknown>) =>
      failure(
        admin.api.spaces.importGitRepository(s, {
          url: git.repoUrl('docs'),
          ref: 'refs/heads/main',
          ...body,
        } as never),
      );
    expect(await bad({ url: 'ssh://git@example.com/repo.git' })).toMatchObject({ code: 400 });
    expect(await bad({ url: 'file:///etc' })).toMatchObject({ code: 400 });
    expect(await bad({ ref: 'main' })).toMatchObject({ code: 400 });
    expect(await bad({ repoProjectDirectory: '../outside' })).toMatchObject({ code: 400 });
    await expect(failure(admin.api.spaces.getSpaceGitInfo(s))).resolves.toMatchObject({ code: 404 });
  });

  it('never shows or stores the credentials', async () => {
    const state = JSON.stringify(await info(spaceId));
    expect(state).not.toContain(git.password);
    const db = server.database.db;
    const rows = JSON.stringify([
      await db.selectFrom('git_syncs').selectAll().execute(),
      await db.selectFrom('jobs').selectAll().execute(),
      await db.selectFrom('revisions').select('git').execute(),
    ]);
    expect(rows).not.toContain(git.password);
    expect(rows).not.toContain(Buffer.from(`${git.user}:${git.password}`).toString('base64'));
    expect(git.requests.some((r) => r.authorized)).toBe(true);
  });
});

describe('git export over a branch that moved since the last sync', () => {
  const LINES = (tag: string) => Array.from({ length: 8 }, (_, i) => `Line ${i + 1} of ${tag}.`).join('\n\n');
  const FILES = {
    'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Alpha](alpha.md)\n* [Beta](beta.md)\n',
    'README.md': '# Home\n\nWelcome.\n',
    'alpha.md': `# Alpha\n\n${LINES('alpha')}\n`,
    'beta.md': `# Beta\n\n${LINES('beta')}\n`,
  };
  let s: string;
  let byTitle: Map<string, string>;

  const editInSpace = async (title: string, from: string, to: string) => {
    const id = byTitle.get(title)!;
    const crId = await newChangeRequest(admin.api, s, `Edit ${title}`);
    const before = await markdownOf(admin.api, s, id);
    expect(before).toContain(from);
    await write(admin.api, s, crId, [
      { operation: 'update_page', page: id, document: { markdown: before.replace(from, to) } },
    ]);
    expect((await admin.api.spaces.mergeChangeRequest(s, crId)).data.result).toBe('merge');
  };
  const exportIt = async (commitMessage: string, force = false) => {
    await admin.api.spaces.exportToGitRepository(s, {
      url: git.repoUrl('moving'),
      ref: 'refs/heads/main',
      commitMessage,
      ...(force ? { force: true } : {}),
    });
    await runJobs();
    return info(s);
  };
  const log = () => git.git('moving', ['log', '--format=%s', 'main']).trim().split('\n');

  beforeAll(async () => {
    git.createRepo('moving');
    git.commit('moving', 'main', FILES, 'Initial');
    s = await space('Moving');
    await admin.api.spaces.importGitRepository(s, { url: git.repoUrl('moving'), ref: 'refs/heads/main' });
    await runJobs();
    byTitle = new Map(flat(await pages(s)).map((p) => [p.title, p.id]));
  });

  it('merges a remote edit of another page: both changes in the space and in the pushed commit', async () => {
    git.commit(
      'moving',
      'main',
      {
        'beta.md': `# Beta\n\n${LINES('beta').replace('Line 3 of beta.', 'Line 3 edited on the remote.')}\n`,
      },
      'Remote beta',
    );
    await editInSpace('Alpha', 'Line 2 of alpha.', 'Line 2 edited in Quire.');
    const state = await exportIt('Quire alpha');
    expect(state.operation).toMatchObject({ state: 'success', direction: 'export' });
    expect(state.operation?.warnings).toBeUndefined();

    // The pushed commit is on top of the remote's: history kept, both changes in the files.
    expect(log()).toEqual(['Quire alpha', 'Remote beta', 'Initial']);
    expect(git.git('moving', ['diff', '--name-only', 'main~1', 'main']).trim().split('\n')).toEqual([
      'alpha.md',
    ]);
    const alpha = git.git('moving', ['show', 'main:alpha.md']);
    const beta = git.git('moving', ['show', 'main:beta.md']);
    expect(alpha).toContain('Line 2 edited in Quire.');
    expect(beta).toContain('Line 3 edited on the remote.');

    // The space shows the remote's change too, as a merge revision carrying the pushed commit.
    expect(await markdownOf(admin.api, s, byTitle.get('Beta')!)).toContain('Line 3 edited on the remote.');
    expect(await markdownOf(admin.api, s, byTitle.get('Alpha')!)).toContain('Line 2 edited in Quire.');
    const { data: revision } = await admin.api.spaces.getCurrentRevision(s);
    const head = git.git('moving', ['rev-parse', 'main']).trim();
    expect(revision.git).toMatchObject({ oid: head, message: 'Quire alpha', createdByGitBook: true });
    expect(revision.type).toBe('edits'); // a merge without a change request shows as edits
    expect(revision.parents).toHaveLength(2);
    const { data: remoteRevision } = await admin.api.spaces.getRevisionById(s, revision.parents[1]!);
    expect(remoteRevision.git).toMatchObject({ message: 'Remote beta', createdByGitBook: false });

    // In sync again: the next export is a plain fast-forward.
    await editInSpace('Home', 'Welcome.', 'Welcome back.');
    expect((await exportIt('Quire home')).operation?.state).toBe('success');
    expect(log()[0]).toBe('Quire home');
  });

  it('refuses when the remote changed the same lines: conflicts recorded, nothing changed', async () => {
    const remoteHead = git.commit(
      'moving',
      'main',
      { 'alpha.md': `# Alpha\n\n${LINES('alpha').replace('Line 5 of alpha.', 'Line 5 by the remote.')}\n` },
      'Remote alpha',
    );
    await editInSpace('Alpha', 'Line 5 of alpha.', 'Line 5 by Quire.');
    const revision = (await admin.api.spaces.getSpaceById(s)).data.revision;
    const state = await exportIt('Conflicting');
    expect(state.operation?.state).toBe('failure');
    expect(state.operation?.error).toMatch(/conflict/);
    expect(state.operation?.warnings?.join('\n')).toMatch(/Alpha|alpha/);
    expect(git.git('moving', ['rev-parse', 'main']).trim()).toBe(remoteHead);
    expect((await admin.api.spaces.getSpaceById(s)).data.revision).toBe(revision);
    const alpha = await markdownOf(admin.api, s, byTitle.get('Alpha')!);
    expect(alpha).toContain('Line 5 by Quire.');
    expect(alpha).not.toContain('Line 5 by the remote.');
  });

  it('with force, commits the space content on top of the remote head (history kept, no forced push)', async () => {
    const remoteHead = git.git('moving', ['rev-parse', 'main']).trim();
    const state = await exportIt('Forced', true);
    expect(state.operation?.state).toBe('success');
    expect(log().slice(0, 2)).toEqual(['Forced', 'Remote alpha']);
    expect(git.git('moving', ['rev-parse', 'main~1']).trim()).toBe(remoteHead);
    const alpha = git.git('moving', ['show', 'main:alpha.md']);
    expect(alpha).toContain('Line 5 by Quire.');
    expect(alpha).not.toContain('Line 5 by the remote.');
  });
});

describe('git export of a space made in Quire, then a remote edit', () => {
  it('matches the remote files to the pages by the paths they were exported to', async () => {
    const s = await space('Made here');
    const ids = await seed(admin.api, s, [
      insert('Start', 'Start here.\n'),
      insert('Second', 'One.\n\nTwo.\n\nThree.\n'),
    ]);
    git.createRepo('made-here');
    await admin.api.spaces.exportToGitRepository(s, {
      url: git.repoUrl('made-here'),
      ref: 'refs/heads/main',
      commitMessage: 'First export',
    });
    await runJobs();
    expect((await info(s)).operation?.state).toBe('success');
    const files = git.git('made-here', ['ls-tree', '-r', '--name-only', 'main']).trim().split('\n');
    const second = files.find((f) => /second/i.test(f))!;
    const text = git.git('made-here', ['show', `main:${second}`]);
    git.commit(
      'made-here',
      'main',
      { [second]: text.replace('Three.', 'Three, from the remote.') },
      'Remote second',
    );

    const crId = await newChangeRequest(admin.api, s, 'Start');
    await write(admin.api, s, crId, [
      { operation: 'update_page', page: ids.get('Start')!, document: { markdown: 'Start here, edited.\n' } },
    ]);
    await admin.api.spaces.mergeChangeRequest(s, crId);
    await admin.api.spaces.exportToGitRepository(s, {
      url: git.repoUrl('made-here'),
      ref: 'refs/heads/main',
      commitMessage: 'Second export',
    });
    await runJobs();
    expect((await info(s)).operation).toMatchObject({ state: 'success' });
    expect(flat(await pages(s)).map((p) => p.title)).toEqual(['Start', 'Second']);
    expect(await markdownOf(admin.api, s, ids.get('Second')!)).toContain('Three, from the remote.');
    expect(git.git('made-here', ['show', `main:${second}`])).toContain('Three, from the remote.');
    expect(git.git('made-here', ['log', '--format=%s', 'main']).trim().split('\n')).toEqual([
      'Second export',
      'Remote second',
      'First export',
    ]);
  });
});

describe('standalone import', () => {
  it('produces a revision without moving the space; GET revisions/{id} finds it', async () => {
    const s = await space('Standalone');
    const before = (await admin.api.spaces.getSpaceById(s)).data.revision;
    git.createRepo('standalone');
    const commit = git.commit(
      'standalone',
      'main',
      {
        'SUMMARY.md': '# TOC\n\n* [Home](README.md)\n* [Other](other.md)\n',
        'README.md': '# Home\n\nStandalone home.\n',
        'other.md': '# Other\n\nMore.\n',
      },
      'Standalone commit',
    );
    await admin.api.spaces.importGitRepository(s, {
      url: git.repoUrl('standalone'),
      ref: 'refs/heads/main',
      standalone: true,
    });
    await runJobs();
    expect((await info(s)).operation).toMatchObject({ state: 'success', direction: 'import' });
    expect((await admin.api.spaces.getSpaceById(s)).data.revision).toBe(before);
    expect(await pages(s)).toEqual([]);

    const rows = await server.database.db
      .selectFrom('revisions')
      .select(['id', 'git'])
      .where('space_id', '=', s)
      .where('id', '!=', before)
      .execute();
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.git!)).toMatchObject({ oid: commit, message: 'Standalone commit' });
    const { data: revision } = await admin.api.spaces.getRevisionById(s, rows[0]!.id);
    expect(revision.id).toBe(rows[0]!.id);
    expect(revision.git).toMatchObject({ oid: commit, createdByGitBook: false });
    expect((revision.pages as PageView[]).map((p) => p.title)).toEqual(['Home', 'Other']);

    // A later regular import still sees the branch as new (standalone records no sync point).
    await admin.api.spaces.importGitRepository(s, { url: git.repoUrl('standalone'), ref: 'refs/heads/main' });
    await runJobs();
    expect((await pages(s)).map((p) => p.title)).toEqual(['Home', 'Other']);
  });
});

describe('credentials in the server log', () => {
  it('never appear, in successes or failures', async () => {
    const logs: string[] = [];
    const logged = await startTestServer({ env: { QUIRE_OUTBOUND_ALLOW: '127.0.0.1' }, logs });
    try {
      const user = await createUser(logged);
      const org = await createOrg(user, 'Logged');
      const s = (await user.api.orgs.createSpace(org, { title: 'Logged' })).data.id;
      const wrong = 'wr0ng-pa55word-xyz';
      git.createRepo('logged');
      git.commit('logged', 'main', { 'README.md': '# Home\n\nLogged.\n' });
      await user.api.spaces.importGitRepository(s, {
        url: git.repoUrl('logged', { user: git.user, password: wrong }),
        ref: 'refs/heads/main',
      });
      await logged.app.quire.services.jobs.runDue();
      await user.api.spaces.importGitRepository(s, { url: git.repoUrl('logged'), ref: 'refs/heads/main' });
      await logged.app.quire.services.jobs.runDue();
      await user.api.spaces.exportToGitRepository(s, {
        url: git.repoUrl('logged'),
        ref: 'refs/heads/main',
        commitMessage: 'Logged export',
        force: true,
      });
      await logged.app.quire.services.jobs.runDue();
      await user.api.spaces.importGitRepository(s, {
        url: git.repoUrl('logged'),
        ref: 'refs/heads/nope',
      });
      await logged.app.quire.services.jobs.runDue();

      const text = logs.join('\n');
      expect(text).toMatch(/git import done/);
      expect(text).toMatch(/git import failed/);
      for (const secret of [git.password, wrong]) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(encodeURIComponent(secret));
        expect(text).not.toContain(Buffer.from(`${git.user}:${secret}`).toString('base64'));
      }
    } finally {
      await logged.close();
    }
  });
});

describe('git import without loopback allowed', () => {
  it('refuses a loopback repository URL', async () => {
    const strict = await startTestServer();
    try {
      const user = await createUser(strict);
      const org = await createOrg(user, 'Strict');
      const s = (await user.api.orgs.createSpace(org, { title: 'Strict' })).data.id;
      const error = await failure(
        user.api.spaces.importGitRepository(s, { url: git.repoUrl('docs'), ref: 'refs/heads/main' }),
      );
      expect(error).toMatchObject({ code: 400 });
      expect(error.message).toMatch(/QUIRE_OUTBOUND_ALLOW/);
      expect(error.message).not.toContain(git.password);
    } finally {
      await strict.close();
    }
  });
});
