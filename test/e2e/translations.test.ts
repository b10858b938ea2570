import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { rawRequest } from '../helpers/client.js';
import { insert, markdownOf, newChangeRequest, seed, write } from '../helpers/content.js';
import { killedServerHolder } from '../helpers/dead-holder.js';
import { failure } from '../helpers/expect-error.js';
import { addMember, createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startGitServer } from '../helpers/git-server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { publishedSite, visit } from '../helpers/sites.js';
import { startTranslationServer, type TranslationServer } from '../helpers/translation-server.js';

/**
 * Translations end to end, against a translation service on loopback (OpenAI-compatible
 * protocol): the first run, incremental runs, deletions, failures, a restart in the middle,
 * the translated space as a site's language variant, and every bad input.
 */

let service: TranslationServer;
let server: TestServer;
let admin: TestUser;
let writer: TestUser;
let outsider: TestUser;
let orgId: string;
let otherOrg: string;
let spaceId: string;
let pages: Map<string, string>;

const GETTING_STARTED = [
  'Welcome to **Acme**. Read the [install guide](install.md) first.',
  '',
  '{% hint style="warning" %}',
  'Back up your data _before_ you upgrade.',
  '{% endhint %}',
  '',
  '## Configure',
  '',
  'Set `ACME_HOME` and run the command below.',
  '',
  '```bash',
  'export ACME_HOME=/opt/acme',
  'acme start --port 8080',
  '```',
].join('\n');

beforeAll(async () => {
  service = await startTranslationServer();
  server = await startTestServer({
    env: {
      QUIRE_TRANSLATION_PROVIDER: 'openai',
      QUIRE_TRANSLATION_URL: service.url,
      QUIRE_TRANSLATION_MODEL: 'test-model',
      // No test here waits for a request to time out. At 500 ms, a request answered late on a
      // loaded machine (CI) was abandoned and its segments sent again by the run's retry.
      QUIRE_TRANSLATION_TIMEOUT_MS: '10000',
      QUIRE_TRANSLATION_DEBOUNCE_MS: '0',
      // The git server of the reusable-content test (translation services need no allowance).
      QUIRE_OUTBOUND_ALLOW: '127.0.0.1',
    },
  });
  admin = await createUser(server, { name: 'Tia Translator' });
  writer = await createUser(server, { name: 'Will Writer' });
  outsider = await createUser(server, { name: 'Oli Outsider' });
  orgId = await createOrg(admin, 'Multilingual');
  otherOrg = await createOrg(outsider, 'Other');
  await addMember(admin, orgId, writer, 'edit');
  spaceId = (await admin.api.orgs.createSpace(orgId, { title: 'Handbook', language: 'en' } as never)).data.id;
  pages = await seed(admin.api, spaceId, [
    insert('Getting started', GETTING_STARTED),
    insert('Install', 'Download the installer and run it.'),
    insert('FAQ', 'Questions people ask.\n\nAnswers we give.'),
  ]);
});
afterAll(async () => {
  await server?.close();
  await service?.close();
});
beforeEach(() => {
  service.requests.length = 0;
  service.failures.length = 0;
});

const api = () => admin.api.orgs;
const runJobs = () => server.app.quire.services.jobs.runDue();

/** Runs queued jobs until the translation's run count reaches `runs`. */
async function runUntil(id: string, runs: number) {
  await vi.waitFor(
    async () => {
      await runJobs();
      const { data } = await api().getTranslation(orgId, id);
      expect(data.stats.runs).toBe(runs);
      expect(data.status).toBe('completed');
    },
    { timeout: 20_000, interval: 50 },
  );
  return (await api().getTranslation(orgId, id)).data;
}

let translationId: string;

describe('a translation into French', () => {
  it('is created pending, with empty instructions and zero stats', async () => {
    const created = await api().createTranslation(orgId, {
      source: { space: spaceId, language: 'en' },
      language: 'fr',
    } as never);
    expect(created.status).toBe(201);
    const t = created.data;
    translationId = t.id;
    expect(t).toMatchObject({
      object: 'translation',
      status: 'pending',
      source: { space: spaceId, language: 'en' },
      language: 'fr',
      instructions: { object: 'document', nodes: [] },
      permissions: { view: true, edit: true },
    });
    expect(Object.values(t.stats).every((n) => n === 0)).toBe(true);
    expect(t.result).toBeUndefined();
    expect(created.headers.get('location')).toBe(t.urls.location);
  });

  it('keeps the instructions it is given, and lists', async () => {
    const instructions = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'paragraph',
          data: {},
          nodes: [
            { object: 'text', leaves: [{ object: 'leaf', text: 'Use the formal "vous".', marks: [] }] },
          ],
        },
      ],
    };
    const { data } = await api().updateTranslation(orgId, translationId, { instructions } as never);
    expect(JSON.stringify(data.instructions)).toContain('formal');
    const { data: list } = await api().listTranslations(orgId);
    expect(list.items.map((t) => t.id)).toEqual([translationId]);
  });

  it('runs: a new French space with the same tree, prose translated, code untouched', async () => {
    expect((await api().runTranslation(orgId, translationId)).status).toBe(204);
    const t = await runUntil(translationId, 1);
    expect(t.result?.language).toBe('fr');
    const target = t.result!.space;
    expect(target).not.toBe(spaceId);
    const { data: space } = await admin.api.spaces.getSpaceById(target);
    expect(space.language).toBe('fr');
    expect(space.title).toBe('Handbook (fr)');

    const source = (await admin.api.spaces.getCurrentRevision(spaceId)).data.pages;
    const translated = (await admin.api.spaces.getCurrentRevision(target)).data.pages;
    const slugs = (list: typeof source) => list.map((p) => [p.id, (p as { slug?: string }).slug]);
    expect(slugs(translated)).toEqual(slugs(source));
    expect(translated.map((p) => p.title)).toEqual(['GETTING STARTED', 'INSTALL', 'FAQ']);

    const markdown = await markdownOf(admin.api, target, pages.get('Getting started')!);
    expect(markdown).toContain('WELCOME TO **ACME**');
    expect(markdown).toContain('{% hint style="warning" %}');
    expect(markdown).toContain('BACK UP YOUR DATA *BEFORE* YOU UPGRADE.');
    expect(markdown).toContain('`ACME_HOME`');
    expect(markdown).toContain('```bash\nexport ACME_HOME=/opt/acme\nacme start --port 8080\n```');
    expect(markdown).toContain('(install.md)');

    // The organization's instructions reached the model.
    const system = (service.requests[0]!.body.messages as Array<{ content: string }>)[0]!.content;
    expect(system).toContain('Use the formal "vous".');
    expect(service.segmentsSent().join('\n')).not.toContain('export ACME_HOME');
    expect(t.stats).toMatchObject({ runs: 1, latestPages: 3, totalPages: 3 });
    expect(t.stats.latestWords).toBeGreaterThan(20);
  });

  it('after a one-paragraph edit and its merge, runs again by itself and sends only that paragraph', async () => {
    const before = (await api().getTranslation(orgId, translationId)).data;
    const cr = await newChangeRequest(admin.api, spaceId, 'Reword the FAQ');
    await write(admin.api, spaceId, cr, [
      {
        operation: 'update_page',
        page: pages.get('FAQ'),
        document: { markdown: 'Questions people ask.\n\nAnswers we give gladly.' },
      },
    ]);
    await admin.api.spaces.mergeChangeRequest(spaceId, cr);
    const t = await runUntil(translationId, 2);
    expect(service.segmentsSent()).toEqual(['Answers we give gladly.']);
    expect(t.stats.latestPages).toBe(1);
    expect(t.result!.revision).not.toBe(before.result!.revision);
    const faq = await markdownOf(admin.api, t.result!.space, pages.get('FAQ')!);
    expect(faq).toBe('QUESTIONS PEOPLE ASK.\n\nANSWERS WE GIVE GLADLY.\n');
  });

  it('deletes the pages deleted in the source', async () => {
    const cr = await newChangeRequest(admin.api, spaceId, 'Drop install');
    await write(admin.api, spaceId, cr, [{ operation: 'delete_page', page: pages.get('Install') }]);
    await admin.api.spaces.mergeChangeRequest(spaceId, cr);
    const t = await runUntil(translationId, 3);
    expect(service.segmentsSent()).toEqual([]);
    const titles = (await admin.api.spaces.getCurrentRevision(t.result!.space)).data.pages.map(
      (p) => p.title,
    );
    expect(titles).toEqual(['GETTING STARTED', 'FAQ']);
  });

  it('is a language variant of a site: the French pages at the same paths', async () => {
    const t = (await api().getTranslation(orgId, translationId)).data;
    const site = await publishedSite(admin, orgId, [spaceId]);
    await api().addSpaceToSite(orgId, site.id, { spaceId: t.result!.space } as never);
    const siteSpaces = (await api().listSiteSpaces(orgId, site.id)).data.items;
    const french = siteSpaces.find((s) => s.space.id === t.result!.space)!;
    const english = siteSpaces.find((s) => s.space.id === spaceId)!;
    const page = await visit(french.urls.published!);
    expect(page.status).toBe(200);
    expect(page.body).toContain('WELCOME TO');
    const original = await visit(english.urls.published!);
    expect(original.body).toContain('Welcome to');
  });
});

describe('when the service fails', () => {
  it('keeps the previous revision when the service stays down, then catches up', async () => {
    const before = (await api().getTranslation(orgId, translationId)).data;
    const cr = await newChangeRequest(admin.api, spaceId, 'More FAQ');
    await write(admin.api, spaceId, cr, [insert('Support', 'Write to us any time.')]);
    await admin.api.spaces.mergeChangeRequest(spaceId, cr);
    service.failures.push(...Array.from({ length: 12 }, () => ({ kind: 'status' as const, status: 500 })));
    for (let i = 0; i < 4; i++) await runJobs();
    const during = (await api().getTranslation(orgId, translationId)).data;
    expect(during.result!.revision).toBe(before.result!.revision);
    expect(during.stats.runs).toBe(before.stats.runs);
    // The service is back: the next run goes through.
    service.failures.length = 0;
    await api().runTranslation(orgId, translationId);
    const t = await runUntil(translationId, before.stats.runs + 1);
    const titles = (await admin.api.spaces.getCurrentRevision(t.result!.space)).data.pages.map(
      (p) => p.title,
    );
    expect(titles).toContain('SUPPORT');
  });

  it('a page whose tags come back broken keeps its previous text; the rest goes through', async () => {
    const runs = (await api().getTranslation(orgId, translationId)).data.stats.runs;
    const cr = await newChangeRequest(admin.api, spaceId, 'Two edits');
    await write(admin.api, spaceId, cr, [
      {
        operation: 'update_page',
        page: pages.get('FAQ'),
        document: { markdown: 'Questions people **often** ask.\n\nAnswers we give gladly.' },
      },
      insert('Contact', 'Call **the hotline** today.'),
    ]);
    await admin.api.spaces.mergeChangeRequest(spaceId, cr);
    service.failures.push({ kind: 'break-tags', marker: 'often' }, { kind: 'break-tags', marker: 'often' });
    const t = await runUntil(translationId, runs + 1);
    const faq = await markdownOf(admin.api, t.result!.space, pages.get('FAQ')!);
    expect(faq).toBe('QUESTIONS PEOPLE ASK.\n\nANSWERS WE GIVE GLADLY.\n');
    const titles = (await admin.api.spaces.getCurrentRevision(t.result!.space)).data.pages.map(
      (p) => p.title,
    );
    expect(titles).toContain('CONTACT');
    // The next run tries the failed page again.
    await api().runTranslation(orgId, translationId);
    const next = await runUntil(translationId, runs + 2);
    expect(await markdownOf(admin.api, next.result!.space, pages.get('FAQ')!)).toContain('**OFTEN**');
  });

  it('what a run translated before it stopped is not asked again', async () => {
    const runs = (await api().getTranslation(orgId, translationId)).data.stats.runs;
    const cr = await newChangeRequest(admin.api, spaceId, 'Many pages');
    const many = Array.from({ length: 60 }, (_, i) => insert(`Topic ${i}`, `Topic number ${i} explained.`));
    await write(admin.api, spaceId, cr, many.slice(0, 30));
    await write(admin.api, spaceId, cr, many.slice(30));
    await admin.api.spaces.mergeChangeRequest(spaceId, cr);
    // The first request (50 segments) is answered; then the service is down until the run gives up.
    service.failures.push(
      { kind: 'ok' },
      ...Array.from({ length: 30 }, () => ({ kind: 'status' as const, status: 503 })),
    );
    for (let i = 0; i < 4; i++) await runJobs();
    const answered = new Set(service.requests[0]!.segments);
    expect(answered.size).toBe(50);
    expect((await api().getTranslation(orgId, translationId)).data.stats.runs).toBe(runs);
    service.requests.length = 0;
    service.failures.length = 0;
    await api().runTranslation(orgId, translationId);
    await runUntil(translationId, runs + 1);
    // Only what the stopped run did not get back is sent now: 120 segments, less the 50 kept.
    const sent = service.segmentsSent();
    expect(sent).toHaveLength(70);
    expect(sent.filter((segment) => answered.has(segment))).toEqual([]);
  });
});

describe('reusable contents', () => {
  it('are translated with the pages that include them, and kept while unchanged', async () => {
    const git = await startGitServer();
    try {
      git.createRepo('docs');
      git.commit(
        'docs',
        'main',
        {
          'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n',
          'README.md': '# Welcome\n\nRead this first.\n\n{% include "./.gitbook/includes/warning.md" %}\n',
          '.gitbook/includes/warning.md': '---\ntitle: Warning\n---\n\nNever share your **API key**.\n',
        },
        'Docs',
      );
      const imported = (await admin.api.orgs.createSpace(orgId, { title: 'Imported' })).data.id;
      await admin.api.spaces.importGitRepository(imported, {
        url: git.repoUrl('docs'),
        ref: 'refs/heads/main',
      });
      await vi.waitFor(
        async () => {
          await runJobs();
          expect((await admin.api.spaces.getCurrentRevision(imported)).data.pages).toHaveLength(1);
        },
        { timeout: 20_000, interval: 50 },
      );
      const { data } = await api().createTranslation(orgId, {
        source: { space: imported, language: 'en' },
        language: 'de',
      } as never);
      await api().runTranslation(orgId, data.id);
      const t = await runUntil(data.id, 1);
      expect(service.segmentsSent()).toContain('Never share your <x id="1">API key</x>.');
      const { store, spaces } = server.app.quire.services;
      const { db } = server.database;
      const head = (await spaces.find(t.result!.space))!.revision_id;
      const tree = (
        await db.selectFrom('revisions').select('tree_hash').where('id', '=', head).executeTakeFirstOrThrow()
      ).tree_hash;
      const reusable = [...(await store.snapshot(db, tree)).content.reusableContents.values()];
      expect(reusable.map((r) => r.title)).toEqual(['Warning']);
      const body = (await store.readBodies(db, [reusable[0]!.body!])).get(reusable[0]!.body!);
      expect(body).toContain('NEVER SHARE YOUR **API KEY**.');
      // A run with nothing changed sends nothing and keeps it.
      service.requests.length = 0;
      await api().runTranslation(orgId, data.id);
      await runUntil(data.id, 2);
      expect(service.segmentsSent()).toEqual([]);
    } finally {
      await git.close();
    }
  });
});

describe('a server that died in the middle of a run', () => {
  it('is taken back at once by the next one, which sends only what the dead one did not get back', async () => {
    const runs = (await api().getTranslation(orgId, translationId)).data.stats.runs;
    const cr = await newChangeRequest(admin.api, spaceId, 'Even more pages');
    const more = Array.from({ length: 40 }, (_, i) => insert(`Chapter ${i}`, `Chapter ${i} in detail.`));
    await write(admin.api, spaceId, cr, more);
    await admin.api.spaces.mergeChangeRequest(spaceId, cr);
    // The first try gets one request (50 segments) answered, then the service fails it.
    service.failures.push(
      { kind: 'ok' },
      ...Array.from({ length: 3 }, () => ({ kind: 'status' as const, status: 503 })),
    );
    await runJobs();
    const answered = new Set(service.requests[0]!.segments);
    expect(answered.size).toBe(50);
    // Its retry was then running on a server that was killed, as that server left it.
    const { db } = server.database;
    const job = await db
      .selectFrom('jobs')
      .select(['id', 'attempts'])
      .where('kind', '=', 'translations.run')
      .where('status', '=', 'queued')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('jobs')
      .set({
        status: 'running',
        attempts: job.attempts + 1,
        locked_by: killedServerHolder(),
        locked_until: new Date(Date.now() + 600_000).toISOString(),
      })
      .where('id', '=', job.id)
      .execute();
    await db.updateTable('translations').set({ status: 'running' }).where('id', '=', translationId).execute();
    service.requests.length = 0;
    service.failures.length = 0;
    // The next server's worker takes it back at once (its holder is known to be gone).
    const t = await runUntil(translationId, runs + 1);
    const sent = service.segmentsSent();
    expect(sent).toHaveLength(30);
    expect(sent.filter((segment) => answered.has(segment))).toEqual([]);
    const titles = (await admin.api.spaces.getCurrentRevision(t.result!.space)).data.pages.map(
      (p) => p.title,
    );
    expect(titles).toContain('CHAPTER 39');
  });
});

describe('who may act', () => {
  it('admins only: members 403, everyone else 404, on every operation', async () => {
    for (const user of [writer, outsider]) {
      const expected = user === writer ? 403 : 404;
      expect((await failure(user.api.orgs.listTranslations(orgId))).code).toBe(expected);
      expect((await failure(user.api.orgs.getTranslation(orgId, translationId))).code).toBe(expected);
      expect((await failure(user.api.orgs.runTranslation(orgId, translationId))).code).toBe(expected);
      expect(
        (
          await failure(
            user.api.orgs.updateTranslation(orgId, translationId, {
              instructions: { object: 'document', data: {}, nodes: [] },
            } as never),
          )
        ).code,
      ).toBe(expected);
      expect((await failure(user.api.orgs.deleteTranslation(orgId, translationId))).code).toBe(expected);
    }
    expect((await failure(api().getTranslation(orgId, 'nope'))).code).toBe(404);
    expect((await failure(api().runTranslation(orgId, 'nope'))).code).toBe(404);
  });
});

describe('bad input', () => {
  const create = (body: unknown) =>
    rawRequest(server.url, 'POST', `/v1/orgs/${orgId}/translations`, {
      token: admin.token,
      body: body as object,
    });
  const message = (res: { body: unknown }) => (res.body as { error: { message: string } }).error.message;

  it('names the field and the rule', async () => {
    const foreign = (await outsider.api.orgs.createSpace(otherOrg, { title: 'Theirs' })).data.id;
    const before = (await api().listTranslations(orgId)).data.items.length;
    const cases: Array<[unknown, string]> = [
      [{ source: { space: spaceId, language: 'en' } }, 'language'],
      [{ source: { space: spaceId, language: 'en' }, language: 'xx' }, 'language'],
      [{ source: { space: spaceId, language: 'en' }, language: 'FR' }, 'language'],
      [{ source: { space: spaceId, language: 'en' }, language: 'en' }, 'body.language must differ'],
      [{ language: 'de' }, 'source'],
      [{ source: {}, language: 'de' }, 'source'],
      [{ source: { space: spaceId }, language: 'de' }, 'source'],
      [{ source: { space: 'nope', language: 'en' }, language: 'de' }, 'body.source.space'],
      [{ source: { space: foreign, language: 'en' }, language: 'de' }, 'body.source.space'],
      [
        { source: { space: spaceId, language: 'en' }, language: 'de', instructions: 'be nice' },
        'instructions',
      ],
      [
        { source: { space: spaceId, language: 'en' }, language: 'de', instructions: { object: 'page' } },
        'instructions',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(message(res), JSON.stringify(body)).toContain(field);
    }
    const duplicate = await create({ source: { space: spaceId, language: 'en' }, language: 'fr' });
    expect(duplicate.status).toBe(409);
    const put = await rawRequest(server.url, 'PUT', `/v1/orgs/${orgId}/translations/${translationId}`, {
      token: admin.token,
      body: {},
    });
    expect(put.status).toBe(400);
    expect(message(put)).toContain('instructions');
    // Nothing was made by any of them.
    expect((await api().listTranslations(orgId)).data.items).toHaveLength(before);
  });
});

describe('deleting', () => {
  it('answers 204 twice, then the translation is gone and its space stays', async () => {
    const t = (await api().getTranslation(orgId, translationId)).data;
    expect((await api().deleteTranslation(orgId, translationId)).status).toBe(204);
    expect((await api().deleteTranslation(orgId, translationId)).status).toBe(204);
    expect((await failure(api().getTranslation(orgId, translationId))).code).toBe(404);
    expect((await admin.api.spaces.getSpaceById(t.result!.space)).data.id).toBe(t.result!.space);
  });
});

describe('with no translation service configured', () => {
  it('a run answers 204 and changes nothing', async () => {
    const bare = await startTestServer();
    try {
      const owner = await createUser(bare);
      const org = await createOrg(owner, 'Bare');
      const space = (await owner.api.orgs.createSpace(org, { title: 'Docs' })).data.id;
      const { data } = await owner.api.orgs.createTranslation(org, {
        source: { space, language: 'en' },
        language: 'de',
      } as never);
      expect((await owner.api.orgs.runTranslation(org, data.id)).status).toBe(204);
      await bare.app.quire.services.jobs.runDue();
      const after = (await owner.api.orgs.getTranslation(org, data.id)).data;
      expect(after.status).toBe('pending');
      expect(after.stats.runs).toBe(0);
      expect(after.result).toBeUndefined();
    } finally {
      await bare.close();
    }
  });
});
