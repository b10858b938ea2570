import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/client.js';
import { type Change, insert, markdownOf, newChangeRequest, seed, write } from '../helpers/content.js';
import { failure } from '../helpers/expect-error.js';
import { addMember, createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let admin: TestUser;
let orgId: string;
let files: Server;
let filesUrl: string;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAYAAAC56t6BAAAAEklEQVR42mNk+M9QzwAEjDAGACCDAv8cI7IoAAAAAElFTkSuQmCC',
  'base64',
);

beforeAll(async () => {
  files = createServer((req, res) => {
    if (req.url === '/logo.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  const address = files.address();
  filesUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  server = await startTestServer({ env: { QUIRE_OUTBOUND_ALLOW: '127.0.0.1' } });
  admin = await createUser(server, { name: 'Author' });
  orgId = await createOrg(admin, 'CR org');
});
afterAll(async () => {
  await server.close();
  files.close();
});

async function space(title: string) {
  return (await admin.api.orgs.createSpace(orgId, { title })).data.id;
}

/** The change request's head revision: it must not move when a write is refused. */
async function head(spaceId: string, crId: string) {
  return (await admin.api.spaces.getChangeRequestById(spaceId, crId)).data.revision;
}

async function refused(
  spaceId: string,
  crId: string,
  changes: unknown[],
  expected: { status: number; text: string },
) {
  const before = await head(spaceId, crId);
  const res = await rawRequest(server.url, 'POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content`, {
    token: admin.token,
    body: { changes },
  });
  expect(res.status, JSON.stringify(changes).slice(0, 200)).toBe(expected.status);
  expect(res.text).toContain(expected.text);
  expect(await head(spaceId, crId)).toBe(before);
}

describe('change requests', () => {
  it('creates, reads by id and number, and patches them', async () => {
    const s = await space('CRUD');
    const res = await admin.api.spaces.createChangeRequest(s, { subject: 'First' });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({
      object: 'change-request',
      number: 1,
      status: 'draft',
      subject: 'First',
      outdated: false,
    });
    expect(res.data.revision).toBe(res.data.revisionInitial);
    expect((await admin.api.spaces.getChangeRequestById(s, '1')).data.id).toBe(res.data.id);
    const second = (await admin.api.spaces.createChangeRequest(s, { subject: 'Second' })).data;
    expect(second.number).toBe(2);
    const description = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'paragraph',
          nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Why', marks: [] }] }],
        },
      ],
    };
    const { data } = await admin.api.spaces.updateChangeRequestById(s, res.data.id, {
      subject: 'Renamed',
      status: 'open',
      description,
    } as never);
    expect(data).toMatchObject({ subject: 'Renamed', status: 'open', description });
    const minimal = await rawRequest(server.url, 'PATCH', `/v1/spaces/${s}/change-requests/${second.id}`, {
      token: admin.token,
      body: { subject: 'Quiet' },
      headers: { prefer: 'return=minimal' },
    });
    expect(minimal.status).toBe(204);
    expect(minimal.headers.get('preference-applied')).toBe('return=minimal');
    const bad = await rawRequest(server.url, 'PATCH', `/v1/spaces/${s}/change-requests/${second.id}`, {
      token: admin.token,
      body: { status: 'merged' },
    });
    expect(bad.status).toBe(400);
    expect((await failure(admin.api.spaces.getChangeRequestById(s, '99'))).code).toBe(404);
  });

  it('lists by status, creator, contributor and requested reviewer, in a space and an organization', async () => {
    const s = await space('Lists');
    const other = await createUser(server);
    await addMember(admin, orgId, other, 'edit');
    const mine = await newChangeRequest(admin.api, s, 'Mine');
    const theirs = (await other.api.spaces.createChangeRequest(s, { subject: 'Theirs' })).data.id;
    await admin.api.spaces.updateChangeRequestById(s, mine, { status: 'open' } as never);
    await other.api.spaces.updateChangeRequestById(s, theirs, { status: 'open' } as never);
    await write(other.api, s, mine, [insert('By other', 'x')]);
    await admin.api.spaces.requestReviewersForChangeRequest(s, theirs, { users: [other.id] });

    const subjects = async (query: Record<string, unknown>) =>
      (await admin.api.spaces.listChangeRequestsForSpace(s, query as never)).data.items
        .map((cr) => cr.subject)
        .sort();
    expect(await subjects({})).toEqual(['Mine', 'Theirs']);
    expect(await subjects({ creator: other.id })).toEqual(['Theirs']);
    expect(await subjects({ contributor: other.id })).toEqual(['Mine']);
    expect(await subjects({ requestedReviewer: other.id })).toEqual(['Theirs']);
    expect(await subjects({ status: 'draft' })).toEqual([]);
    const { data: org } = await admin.api.orgs.listChangeRequestsForOrganization(orgId, {
      creator: admin.id,
    } as never);
    expect(org.items.map((cr) => cr.id)).toContain(mine);
    expect(org.items.map((cr) => cr.id)).not.toContain(theirs);
    const { data: contributors } = await admin.api.spaces.getContributorsByChangeRequestId(s, mine);
    expect(contributors.items).toEqual([
      expect.objectContaining({ count: 1, user: expect.objectContaining({ id: other.id }) }),
    ]);
    const { data: reviewers } = await admin.api.spaces.getRequestedReviewersByChangeRequestId(s, theirs);
    expect(reviewers.items).toEqual([
      expect.objectContaining({ kind: 'user', user: expect.objectContaining({ id: other.id }) }),
    ]);
    expect(
      (await admin.api.spaces.removeRequestedReviewerFromChangeRequest(s, theirs, other.id)).status,
    ).toBe(204);
    expect((await admin.api.spaces.getRequestedReviewersByChangeRequestId(s, theirs)).data.items).toEqual([]);
  });

  it('reviews: only reviewers, not the author, and listed with their state', async () => {
    const s = await space('Reviews');
    const reviewer = await createUser(server);
    const reader = await createUser(server);
    await addMember(admin, orgId, reviewer, 'review');
    await addMember(admin, orgId, reader, 'read');
    const cr = await newChangeRequest(admin.api, s);
    expect(
      (await failure(admin.api.spaces.submitChangeRequestReview(s, cr, { status: 'approved' } as never)))
        .code,
    ).toBe(403);
    expect(
      (await failure(reader.api.spaces.submitChangeRequestReview(s, cr, { status: 'approved' } as never)))
        .code,
    ).toBe(403);
    const { data: review } = await reviewer.api.spaces.submitChangeRequestReview(s, cr, {
      status: 'approved',
    } as never);
    expect(review).toMatchObject({ object: 'change-request-review', status: 'approved', outdated: false });
    await write(admin.api, s, cr, [insert('After review', 'x')]);
    const { data: reviews } = await admin.api.spaces.getReviewsByChangeRequestId(s, cr);
    expect(reviews.items).toEqual([expect.objectContaining({ id: review.id, outdated: true })]);
    expect((await admin.api.spaces.getChangeRequestReviewById(s, cr, review.id)).data.id).toBe(review.id);
  });
});

describe('writing content', () => {
  it('inserts pages from markdown and documents, nested and in order', async () => {
    const s = await space('Writes');
    const cr = await newChangeRequest(admin.api, s);
    const result = await write(admin.api, s, cr, [
      insert('Guides', '# Guides\n\nAll the guides.', { ref: 'guides' }),
      insert('Install', 'Run the installer.', { into: 'guides', ref: 'install' }),
      {
        operation: 'insert_page',
        title: 'Configure',
        into: 'guides',
        at: 0,
        document: {
          document: {
            object: 'document',
            data: {},
            nodes: [
              {
                object: 'block',
                type: 'heading-1',
                data: {},
                nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Configure', marks: [] }] }],
              },
              {
                object: 'block',
                type: 'paragraph',
                nodes: [
                  {
                    object: 'text',
                    leaves: [
                      { object: 'leaf', text: 'Edit the file.', marks: [{ object: 'mark', type: 'bold' }] },
                    ],
                  },
                ],
              },
            ],
          },
        },
      },
    ]);
    expect(result.changes.map((c) => c.object)).toEqual(['created_page', 'created_page', 'created_page']);
    const { data } = await admin.api.spaces.listPagesInChangeRequest(s, cr);
    expect(data.pages.map((p) => p.title)).toEqual(['Guides']);
    const guides = data.pages[0] as { pages: Array<{ title: string; path: string }> };
    expect(guides.pages.map((p) => [p.title, p.path])).toEqual([
      ['Configure', 'guides/configure'],
      ['Install', 'guides/install'],
    ]);
    const configure = (result.changes[2]!.page as { id: string }).id;
    expect(await markdownOf(admin.api, s, configure, cr)).toBe('## Configure\n\n**Edit the file.**\n');
    const { data: asDocument } = await admin.api.spaces.getPageInChangeRequestById(s, cr, configure, {
      format: 'document',
    } as never);
    expect((asDocument as { document: { nodes: unknown[] } }).document.nodes).toHaveLength(2);
    // main is untouched until the merge
    expect((await admin.api.spaces.listPages(s)).data.pages).toEqual([]);
  });

  it('updates, moves, deletes and reverts pages', async () => {
    const s = await space('Edits');
    const ids = await seed(admin.api, s, [
      insert('One', 'one'),
      insert('Two', 'two'),
      insert('Three', 'three'),
    ]);
    const cr = await newChangeRequest(admin.api, s);
    await write(admin.api, s, cr, [
      {
        operation: 'update_page',
        page: ids.get('One'),
        title: 'First',
        slug: 'first',
        emoji: '🥇',
        hidden: true,
      },
      { operation: 'update_page', page: ids.get('Three'), into: ids.get('Two') },
      { operation: 'delete_page', page: ids.get('Two') },
    ]);
    let pages = (await admin.api.spaces.listPagesInChangeRequest(s, cr)).data.pages;
    expect(
      pages.map((p) => [p.title, (p as { path: string }).path, (p as { hidden?: boolean }).hidden]),
    ).toEqual([['First', 'first', true]]);
    await write(admin.api, s, cr, [
      { operation: 'revert_page', page: ids.get('Two') },
      { operation: 'revert_page', page: ids.get('One') },
    ]);
    pages = (await admin.api.spaces.listPagesInChangeRequest(s, cr)).data.pages;
    expect(pages.map((p) => p.title).sort()).toEqual(['One', 'Two']);
  });

  it('stores files from base64 and from an allowed URL, served at their downloadURL', async () => {
    const s = await space('Files');
    const cr = await newChangeRequest(admin.api, s);
    const result = await write(admin.api, s, cr, [
      {
        operation: 'insert_files',
        files: [
          { name: 'pixel.png', base64: PNG.toString('base64') },
          { name: 'logo.png', url: `${filesUrl}/logo.png` },
        ],
      },
    ]);
    expect(result.insertedFiles.map((f) => f.name)).toEqual(['pixel.png', 'logo.png']);
    const { data: listed } = await admin.api.spaces.listFilesInChangeRequestById(s, cr);
    expect(listed.items).toHaveLength(2);
    const file = listed.items.find((f) => f.name === 'pixel.png')!;
    expect(file).toMatchObject({
      contentType: 'image/png',
      size: PNG.length,
      dimensions: { width: 2, height: 3 },
    });
    const download = await fetch(file.downloadURL);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await admin.api.spaces.getFileInChangeRequestById(s, cr, file.id)).data.id).toBe(file.id);
  });

  it('serves SVG as an image that cannot run script, and HTML only as a download', async () => {
    const s = await space('Active files');
    const cr = await newChangeRequest(admin.api, s);
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><script>alert(1)</script><rect width="8" height="8"/></svg>';
    await write(admin.api, s, cr, [
      {
        operation: 'insert_files',
        files: [
          { name: 'logo.svg', base64: Buffer.from(svg).toString('base64') },
          { name: 'page.html', base64: Buffer.from('<script>alert(1)</script>').toString('base64') },
        ],
      },
    ]);
    const files = (await admin.api.spaces.listFilesInChangeRequestById(s, cr)).data.items;
    const logo = await fetch(files.find((f) => f.name === 'logo.svg')!.downloadURL);
    expect(logo.headers.get('content-type')).toBe('image/svg+xml');
    expect(logo.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/);
    expect(logo.headers.get('x-content-type-options')).toBe('nosniff');
    const page = await fetch(files.find((f) => f.name === 'page.html')!.downloadURL);
    expect(page.headers.get('content-type')).toBe('application/octet-stream');
  });

  it('resolves files by the ref the batch gave them, in markdown and documents, wherever they are inserted', async () => {
    const s = await space('File refs');
    const cr = await newChangeRequest(admin.api, s);
    await write(admin.api, s, cr, [
      insert('Guide', '# Guide\n\n![Diagram](./diagram-ref)\n\nGet [the sheet](<sheet ref>).\n'),
      {
        operation: 'insert_files',
        files: [
          { name: 'diagram.png', base64: PNG.toString('base64'), ref: 'diagram-ref' },
          { name: 'cheat sheet.png', base64: PNG.toString('base64'), ref: 'sheet ref' },
        ],
      },
      {
        operation: 'insert_page',
        title: 'From a document',
        document: {
          document: {
            object: 'document',
            data: {},
            nodes: [
              {
                object: 'block',
                type: 'images',
                isVoid: false,
                data: {},
                nodes: [
                  {
                    object: 'block',
                    type: 'image',
                    isVoid: true,
                    data: { ref: { kind: 'file', file: 'diagram-ref' } },
                    fragments: [],
                  },
                ],
              },
            ],
          },
        },
      } as never,
    ]);
    await admin.api.spaces.mergeChangeRequest(s, cr);
    const files = (await admin.api.spaces.listFiles(s)).data.items;
    const diagram = files.find((f) => f.name === 'diagram.png')!;
    const sheet = files.find((f) => f.name === 'cheat sheet.png')!;
    const pages = (await admin.api.spaces.listPages(s)).data.pages;
    for (const title of ['Guide', 'From a document']) {
      const page = pages.find((p) => p.title === title)!;
      const { data } = await admin.api.spaces.getPageById(s, page.id, { format: 'document' });
      expect(JSON.stringify((data as { document: unknown }).document)).toContain(`"file":"${diagram.id}"`);
    }
    const guide = pages.find((p) => p.title === 'Guide')!;
    const { data: guideDoc } = await admin.api.spaces.getPageById(s, guide.id, { format: 'document' });
    expect(JSON.stringify((guideDoc as { document: unknown }).document)).toContain(`"file":"${sheet.id}"`);
    const old = (await import('../helpers/client.js')).apiClient146(server.url, admin.token);
    const { data: backlinks } = await old.spaces.listSpaceFileBacklinks(s, diagram.id);
    expect(backlinks.items.length).toBe(2);
  });

  it('keeps the page and file references of a written document: they read back the same', async () => {
    const s = await space('References');
    const ids = await seed(admin.api, s, [insert('Target', '# Target')]);
    const cr = await newChangeRequest(admin.api, s);
    const inserted = await write(admin.api, s, cr, [
      { operation: 'insert_files', files: [{ name: 'pixel.png', base64: PNG.toString('base64') }] },
    ]);
    const fileId = inserted.insertedFiles[0]!.id;
    const leaf = (text: string) => ({ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] });
    const inline = (ref: unknown, text: string) => ({
      object: 'inline',
      type: 'link',
      data: { ref },
      nodes: [leaf(text)],
    });
    const paragraph = {
      object: 'block',
      type: 'paragraph',
      nodes: [
        leaf('See '),
        inline({ kind: 'page', page: ids.get('Target') }, 'the target'),
        leaf(', '),
        inline({ kind: 'anchor', page: ids.get('Target'), anchor: 'usage' }, 'its usage'),
        leaf(' and '),
        inline({ kind: 'file', file: fileId }, 'the picture'),
        leaf('.'),
      ],
    };
    const result = await write(admin.api, s, cr, [
      {
        operation: 'insert_page',
        title: 'Linking',
        document: { document: { object: 'document', data: {}, nodes: [paragraph] } },
      },
    ]);
    const page = (result.changes[0]!.page as { id: string }).id;
    expect(await markdownOf(admin.api, s, page, cr)).toBe(
      'See [the target](/target), [its usage](/target#usage) and [the picture](.gitbook/assets/pixel.png).\n',
    );
    const { data } = await admin.api.spaces.getPageInChangeRequestById(s, cr, page, {
      format: 'document',
    } as never);
    const read = JSON.stringify((data as { document: unknown }).document);
    expect(read).toContain(JSON.stringify({ kind: 'page', page: ids.get('Target') }));
    expect(read).toContain(JSON.stringify({ kind: 'anchor', anchor: 'usage', page: ids.get('Target') }));
    expect(read).toContain(JSON.stringify({ kind: 'file', file: fileId }));

    const missing = {
      object: 'document',
      data: {},
      nodes: [{ object: 'block', type: 'paragraph', nodes: [inline({ kind: 'page', page: 'nope' }, 'x')] }],
    };
    await refused(s, cr, [{ operation: 'insert_page', title: 'Broken', document: { document: missing } }], {
      status: 400,
      text: 'body.changes.0.document.document',
    });
  });

  it('refuses bad changes with a 400 naming the change, leaving the change request as it was', async () => {
    const s = await space('Refusals');
    const ids = await seed(admin.api, s, [insert('Parent', 'p'), insert('Child', 'c'), insert('Taken', 't')]);
    await write(admin.api, s, await newChangeRequest(admin.api, s), [
      { operation: 'update_page', page: ids.get('Child'), into: ids.get('Parent') },
    ]);
    const cr = await newChangeRequest(admin.api, s);
    await write(admin.api, s, cr, [
      { operation: 'update_page', page: ids.get('Child'), into: ids.get('Parent') },
    ]);
    const many: Change[] = Array.from({ length: 51 }, (_, i) => insert(`P${i}`, 'x'));
    await refused(s, cr, many, { status: 400, text: 'body.changes' });
    await refused(s, cr, [insert('Fine', 'x'), { operation: 'update_page', page: 'nope', title: 'x' }], {
      status: 400,
      text: 'body.changes.1.page',
    });
    await refused(s, cr, [{ operation: 'update_page', page: ids.get('Parent'), into: ids.get('Child') }], {
      status: 400,
      text: 'inside itself',
    });
    await refused(s, cr, [{ operation: 'update_page', page: ids.get('Parent'), slug: 'taken' }], {
      status: 400,
      text: 'would have the path',
    });
    await refused(s, cr, [insert('Huge', 'x'.repeat(1024 * 1024 + 1))], {
      status: 400,
      text: 'body.changes.0.document.markdown',
    });
    await refused(
      s,
      cr,
      [{ operation: 'insert_files', files: [{ name: 'a.bin', base64: 'not base64!!' }] }],
      {
        status: 400,
        text: 'base64',
      },
    );
    await refused(
      s,
      cr,
      [{ operation: 'insert_files', files: [{ name: 'a.bin', url: 'http://10.0.0.1/secret' }] }],
      {
        status: 400,
        text: 'private',
      },
    );
    await refused(s, cr, [{ operation: 'explode_page', page: 'x' }], { status: 400, text: 'body.changes.0' });
  });

  it('refuses writes to a locked space and to merged change requests', async () => {
    const s = await space('Locked');
    const cr = await newChangeRequest(admin.api, s);
    await admin.api.spaces.updateSpaceById(s, { editMode: 'locked' } as never);
    const locked = await failure(write(admin.api, s, cr, [insert('Nope', 'x')]));
    expect(locked.code).toBe(403);
    expect(locked.message).toContain('locked');
    expect((await failure(admin.api.spaces.mergeChangeRequest(s, cr))).code).toBe(403);
    await admin.api.spaces.updateSpaceById(s, { editMode: 'live' } as never);
    await write(admin.api, s, cr, [insert('Yes', 'x')]);
    await admin.api.spaces.mergeChangeRequest(s, cr);
    expect((await failure(write(admin.api, s, cr, [insert('Late', 'x')]))).code).toBe(409);
  });

  it('keeps writing to readers and commenters refused', async () => {
    const s = await space('Roles');
    const commenter = await createUser(server);
    await addMember(admin, orgId, commenter, 'comment');
    expect((await failure(commenter.api.spaces.createChangeRequest(s, { subject: 'x' }))).code).toBe(403);
    const cr = await newChangeRequest(admin.api, s);
    expect((await failure(write(commenter.api, s, cr, [insert('x', 'x')]))).code).toBe(403);
    expect((await commenter.api.spaces.getChangeRequestById(s, cr)).data.id).toBe(cr);
  });
});

describe('reading content', () => {
  it('reads the current revision, pages by id and path, and past revisions', async () => {
    const s = await space('Reads');
    const ids = await seed(admin.api, s, [insert('Home', '# Home\n\nWelcome.', { slug: 'home' })]);
    const first = (await admin.api.spaces.getSpaceById(s)).data.revision;
    await seed(admin.api, s, [insert('More', 'more')]);
    const { data: revision } = await admin.api.spaces.getCurrentRevision(s);
    expect(revision.pages.map((p) => p.title)).toEqual(['Home', 'More']);
    const { data: old } = await admin.api.spaces.getRevisionById(s, first);
    expect(old.pages.map((p) => p.title)).toEqual(['Home']);
    const { data: byPath } = await admin.api.spaces.getPageByPath(s, 'home', { format: 'markdown' } as never);
    expect(byPath).toMatchObject({ id: ids.get('Home'), markdown: '# Home\n\nWelcome.' });
    const { data: inRevision } = await admin.api.spaces.getPageInRevisionById(s, first, ids.get('Home')!);
    expect(inRevision.id).toBe(ids.get('Home'));
    expect((await failure(admin.api.spaces.getPageById(s, 'missing'))).code).toBe(404);
    expect((await failure(admin.api.spaces.getRevisionById(s, 'missing'))).code).toBe(404);
    const stranger = await createUser(server);
    expect((await failure(stranger.api.spaces.getCurrentRevision(s))).code).toBe(404);
  });

  it('applies a built-in template into a new change request', async () => {
    const s = await space('Template');
    const res = await admin.api.spaces.applyTemplateToSpace(s, { id: 'knowledge-base' } as never);
    expect(res.status).toBe(201);
    const crs = (await admin.api.spaces.listChangeRequestsForSpace(s, { status: 'draft' } as never)).data
      .items;
    expect(crs).toHaveLength(1);
    const pages = (await admin.api.spaces.listPagesInChangeRequest(s, crs[0]!.id)).data.pages;
    expect(pages.map((p) => p.title)).toEqual(['Overview', 'How-to guides', 'Troubleshooting']);
    expect((pages[1] as { pages: Array<{ title: string }> }).pages.map((p) => p.title)).toEqual([
      'Set up your workspace',
    ]);
    const bad = await rawRequest(server.url, 'POST', `/v1/spaces/${s}/content/template`, {
      token: admin.token,
      body: { id: 'nope' },
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('getting-started');
  });
});

describe('links', () => {
  it('tracks links between pages and files, with their status', async () => {
    const s = await space('Links');
    const cr = await newChangeRequest(admin.api, s);
    await write(admin.api, s, cr, [
      { operation: 'insert_files', files: [{ name: 'diagram.png', base64: PNG.toString('base64') }] },
      insert('Target', '# Target\n\n## Section'),
      insert(
        'Source',
        [
          'See [the target](target.md), [a section](target.md#section) and [nowhere](missing.md).',
          '',
          '![diagram](.gitbook/assets/diagram.png)',
          '',
          `External [site](https://example.com) and [in app](${server.url}/app/o/x).`,
        ].join('\n'),
      ),
    ]);
    await admin.api.spaces.mergeChangeRequest(s, cr);
    const pages = (await admin.api.spaces.listPages(s)).data.pages;
    const target = pages.find((p) => p.title === 'Target')!.id;
    const source = pages.find((p) => p.title === 'Source')!.id;
    const { data: all } = await (await import('../helpers/client.js'))
      .apiClient146(server.url, admin.token)
      .spaces.listSpaceLinks(s);
    const statuses = all.items.map((u) => u.status).sort();
    expect(statuses).toEqual(['broken', 'in-app', 'ok', 'ok', 'ok', 'ok']);
    expect(all.stats).toMatchObject({ total: 6, broken: { total: 1 } });
    const { data: broken } = await (await import('../helpers/client.js'))
      .apiClient146(server.url, admin.token)
      .spaces.listSpaceLinks(s, { status: 'broken' } as never);
    expect(broken.items).toHaveLength(1);
    const old = (await import('../helpers/client.js')).apiClient146(server.url, admin.token);
    const { data: backlinks } = await old.spaces.listSpacePageBacklinks(s, target);
    expect(backlinks.items.map((l) => (l as { page: { id: string } }).page.id)).toEqual([source]);
    const file = (await admin.api.spaces.listFiles(s)).data.items[0]!;
    const { data: fileBacklinks } = await old.spaces.listSpaceFileBacklinks(s, file.id);
    expect(fileBacklinks.items).toHaveLength(1);
    const { data: pageLinks } = await old.spaces.listPageLinksInSpace(s, source);
    expect(pageLinks.items).toHaveLength(6);
    // deleting the target breaks the links to it
    const cr2 = await newChangeRequest(admin.api, s);
    await write(admin.api, s, cr2, [{ operation: 'delete_page', page: target }]);
    await admin.api.spaces.mergeChangeRequest(s, cr2);
    const { data: after } = await old.spaces.listSpaceLinks(s, { status: 'broken' } as never);
    expect(after.items.length).toBe(3);
  });
});
