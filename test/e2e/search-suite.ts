import type { SearchPageResult, SearchSpaceResult } from '@gitbook/api';
import { SiteVisibility } from '@gitbook/api';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signVisitorToken } from '../../src/publish/visitor-token.js';
import type { RankCursor } from '../../src/search/hits.js';
import { SearchIndexer } from '../../src/search/indexer.js';
import { termsMatch } from '../../src/search/pg-terms.js';
import { PostgresSearchIndex } from '../../src/search/postgres-index.js';
import { parseQuery, planQuery, stemRequests } from '../../src/search/query.js';
import { SqliteSearchIndex } from '../../src/search/sqlite-index.js';
import { apiClient146, rawRequest } from '../helpers/client.js';
import { insert, newChangeRequest, seed, write } from '../helpers/content.js';
import { failure } from '../helpers/expect-error.js';
import { addMember, createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { cookiesOf, publishedSite, visit } from '../helpers/sites.js';

/**
 * Search through the API, run twice (search.test.ts, search-engine.test.ts): every space's
 * search ranked from its postings (search/postings), or, with postings off, by the database's
 * engine, which also ranks organizations and the searches the postings leave to it. Both must
 * answer by the same rules.
 */
export function searchSuite(env: Record<string, string>): void {
  let server: TestServer;
  let owner: TestUser;
  let orgId: string;

  beforeAll(async () => {
    server = await startTestServer({ env });
    owner = await createUser(server, { name: 'Search owner' });
    orgId = await createOrg(owner, 'Search org');
  });
  afterAll(async () => {
    await server.close();
  });

  async function space(title: string, language?: string): Promise<string> {
    return (await owner.api.orgs.createSpace(orgId, { title, ...(language ? { language } : {}) } as never))
      .data.id;
  }

  async function searchSpace(spaceId: string, query: string, extra: { page?: string; limit?: number } = {}) {
    return (await owner.api.spaces.searchSpaceContent(spaceId, { query, ...extra })).data;
  }

  const titles = (items: SearchPageResult[]) => items.map((item) => item.title);

  /** Every result of a search, page after page of `limit`, with each page's count. */
  async function pageThrough(spaceId: string, query: string, limit: number) {
    const items: SearchPageResult[] = [];
    const counts: Array<number | undefined> = [];
    let page: string | undefined;
    do {
      const found = await searchSpace(spaceId, query, { limit, ...(page ? { page } : {}) });
      items.push(...found.items);
      counts.push(found.count);
      page = found.next?.page;
    } while (page && items.length < 20);
    return { items, counts };
  }

  describe('space search', () => {
    let docs: string;
    let pages: Map<string, string>;
    beforeAll(async () => {
      docs = await space('Handbook', 'en');
      const top = await seed(owner.api, docs, [
        insert('Welcome', 'Start here. The **handbook** covers installation.'),
        insert('Guides', 'All the guides.'),
      ]);
      const nested = await seed(owner.api, docs, [
        insert(
          'Install',
          [
            'Run the installer on a fresh machine.',
            '',
            '## Requirements',
            '',
            'A machine with 2 GB of memory.',
            '',
            '## Behind a firewall',
            '',
            'Set HTTPS_PROXY so the installer reaches the registry through your firewall.',
          ].join('\n'),
          { into: top.get('Guides'), description: 'Getting Acme onto a machine' },
        ),
      ]);
      pages = new Map([...top, ...nested]);
    });

    it('answers pages with the sections that matched, their anchors and the ancestors', async () => {
      const result = await searchSpace(docs, 'firewall');
      expect(result.count).toBe(1);
      const [hit] = result.items;
      expect(hit).toMatchObject({
        id: pages.get('Install'),
        title: 'Install',
        description: 'Getting Acme onto a machine',
        path: 'guides/install',
        ancestors: [{ title: 'Guides' }],
        rank: 1,
        resultType: 'section',
      });
      expect(hit!.urls.app).toBe(`${server.url}/app/s/${docs}/guides/install`);
      expect(hit!.score).toBeGreaterThan(0);
      const section = hit!.sections![0]!;
      expect(section).toMatchObject({
        id: `${pages.get('Install')}#behind-a-firewall`,
        title: 'Behind a firewall',
        path: 'guides/install#behind-a-firewall',
        resultType: 'section',
      });
      expect(section.urls.app).toBe(`${server.url}/app/s/${docs}/guides/install#behind-a-firewall`);
      expect(section.body).toBe(
        'Set HTTPS_PROXY so the installer reaches the registry through your <mark>firewall</mark>.',
      );
      expect(hit!.sections).toHaveLength(1);
    });

    it('lists every section that matched, best first, and the first one for a title match', async () => {
      const machine = await searchSpace(docs, 'machine ');
      expect(machine.items[0]!.sections!.map((s) => s.title)).toEqual(['Install', 'Requirements']);
      const title = await searchSpace(docs, 'welcome ');
      expect(title.items.map((i) => [i.title, i.resultType])).toEqual([['Welcome', 'page']]);
      expect(title.items[0]!.sections).toEqual([
        expect.objectContaining({
          title: 'Welcome',
          path: 'welcome',
          body: 'Start here. The handbook covers installation.',
          resultType: 'page',
        }),
      ]);
    });

    it('requires every word, matches phrases exactly and leaves out excluded words', async () => {
      expect(titles((await searchSpace(docs, 'fresh memory')).items)).toEqual([]);
      expect(titles((await searchSpace(docs, 'installer registry')).items)).toEqual(['Install']);
      expect(titles((await searchSpace(docs, '"fresh machine"')).items)).toEqual(['Install']);
      expect(titles((await searchSpace(docs, '"machine fresh"')).items)).toEqual([]);
      expect(titles((await searchSpace(docs, 'handbook')).items)).toEqual(['Welcome']);
      expect(titles((await searchSpace(docs, 'install -firewall ')).items)).toEqual(['Welcome']);
    });

    it('matches the last word as a prefix while it is being typed', async () => {
      for (const typed of ['re', 'requ', 'requir', 'requireme']) {
        const found = await searchSpace(docs, `memory ${typed}`);
        expect(titles(found.items), typed).toEqual(['Install']);
      }
      expect(titles((await searchSpace(docs, 'requireme ')).items)).toEqual([]);
    });

    it('finds every word a typed prefix begins, however many there are', async () => {
      // A prefix that begins few indexed terms is searched as those terms; one that begins more
      // than fifty, as a prefix. Both must find the same pages.
      const id = await space('Prefixes', 'en');
      const letters = 'abcdefghijklmnopqrstuvwxyz';
      const made = Array.from(
        { length: 60 },
        (_, i) => `quagg${letters[i % 26]}${letters[Math.floor(i / 26)]}`,
      );
      await seed(owner.api, id, [
        ...Array.from({ length: 12 }, (_, i) =>
          insert(`Entry ${i}`, `Seen: ${made.slice(i * 5, i * 5 + 5).join(', ')}.`),
        ),
        insert('Quaint', 'A quaint quagmire.'),
        // Its word comes after all the others: a prefix searched by too few of its terms misses it.
        insert('Last', 'A quaggzz.'),
      ]);
      const count = async (query: string) => (await searchSpace(id, query, { limit: 5 })).count;
      expect(await count('quagg')).toBe(13);
      // quaggaa, quaggab and quaggac: words 0, 26 and 52, on pages 0, 5 and 10.
      expect(await count('quagga')).toBe(3);
      expect(await count('quaggab')).toBe(1);
      expect(await count('quagm')).toBe(1);
      expect(await count('qua')).toBe(14);
      // Words joined by punctuation are a phrase; being typed, its last word is a prefix too.
      expect(await count('seen-quagg')).toBe(12);
      expect(await count('seen-quagga')).toBe(1);
      expect(await count('a-quaggz')).toBe(1);
      expect(await count('a-quaggq')).toBe(0);
      expect(await count('"seen quagga"')).toBe(0);
      expect(await count('quagg ')).toBe(0);
    });

    it('pages through ranked results with an opaque cursor', async () => {
      const first = await searchSpace(docs, 'the', { limit: 1 });
      expect(first.count).toBe(3);
      expect(first.items).toHaveLength(1);
      expect(first.items[0]!.rank).toBe(1);
      const seen = [first.items[0]!.id];
      let next = first.next?.page;
      while (next) {
        const page = await searchSpace(docs, 'the', { limit: 1, page: next });
        expect(page.items[0]!.rank).toBe(seen.length + 1);
        seen.push(page.items[0]!.id);
        next = page.next?.page;
      }
      expect(new Set(seen).size).toBe(3);
      // A cursor belongs to its query and scope.
      const other = await failure(
        owner.api.spaces.searchSpaceContent(docs, { query: 'machine', page: first.next!.page }),
      );
      expect(other.code).toBe(400);
      expect(other.message).toContain('querystring.page');
      const junk = await failure(
        owner.api.spaces.searchSpaceContent(docs, { query: 'the', page: 'bm90IGEgY3Vyc29y' }),
      );
      expect(junk.code).toBe(400);
    });
  });

  describe('paging', () => {
    it('pages through pages of equal score, each once', async () => {
      const twins = await space('Twins');
      await seed(
        owner.api,
        twins,
        ['Twin A', 'Twin B', 'Twin C', 'Twin D', 'Twin E'].map((title) => insert(title, 'The yak grazes.')),
      );
      const { items, counts } = await pageThrough(twins, 'yak', 2);
      expect(counts).toEqual([5, 5, 5]);
      expect(new Set(items.map((item) => item.score)).size).toBe(1);
      expect(items.map((item) => item.rank)).toEqual([1, 2, 3, 4, 5]);
      expect(new Set(items.map((item) => item.id)).size).toBe(5);
    });

    it('pages through more title and heading matches than a page holds in the order of one answer', async () => {
      // More pages with a title or heading match than `limit`: a page of results is then ranked
      // among those alone; past them, among every match. Both must give the order of one answer.
      const tiers = await space('Tiers', 'en');
      await seed(owner.api, tiers, [
        insert('Zebra care', 'Feed the zebra twice a day. A zebra likes hay.'),
        insert('Zebra stripes', 'Stripes differ.\n\n## Habitat\n\nThe zebra roams the plains.'),
        insert('Zebra herds', 'A herd moves together.'),
        insert('Zebra hidden', 'Never shown: a zebra.', { hidden: true }),
        insert('Savanna', 'Grass.\n\n## Zebra crossings\n\nThe herd crosses the river.'),
        insert('Predators', 'Lions.\n\n## Zebra hunts\n\nThe lion stalks a zebra at dusk.'),
        insert('Grazers', 'Antelope, buffalo and the zebra graze here.'),
        insert('Water', 'At the river a zebra drinks, then a zebra herd follows.'),
        insert('Birds', 'Oxpeckers ride on a zebra.'),
        insert('Unrelated', 'Nothing to see.'),
      ]);
      const whole = await searchSpace(tiers, 'zebra', { limit: 50 });
      expect(whole.count).toBe(8);
      expect(titles(whole.items).slice(0, 3).sort()).toEqual(['Zebra care', 'Zebra herds', 'Zebra stripes']);
      expect(titles(whole.items).slice(3, 5).sort()).toEqual(['Predators', 'Savanna']);
      expect(titles(whole.items).slice(5).sort()).toEqual(['Birds', 'Grazers', 'Water']);
      for (const limit of [1, 2, 4]) {
        const paged = await pageThrough(tiers, 'zebra', limit);
        expect(new Set(paged.counts)).toEqual(new Set([8]));
        // The same pages, scores and matched sections, in the same order.
        expect(paged.items, `limit ${limit}`).toEqual(whole.items);
      }
      // Pages left out by a word count as left out, through the tiers (limit 1) or not.
      const without = await searchSpace(tiers, 'zebra -herd', { limit: 50 });
      expect(titles(without.items).sort()).toEqual([
        'Birds',
        'Grazers',
        'Predators',
        'Zebra care',
        'Zebra stripes',
      ]);
      expect(without.count).toBe(5);
      expect((await searchSpace(tiers, 'zebra -herd', { limit: 1 })).count).toBe(5);
    });
  });

  /** "rate limit" in every tier: in a title, a heading or a section's text, together or apart. */
  const RATE_LIMIT_TIERS = [
    insert('Requests', 'A rate applies to each request, up to a limit.'),
    insert('Limit on every rate', 'Nothing else here.'),
    insert('Throttles', 'Intro.\n\n## Limit for each rate\n\nNothing else here.'),
    insert('Tokens', 'Each token has a rate limit.'),
    insert('Quotas', 'Intro.\n\n## Rate limit\n\nNothing else here.'),
    insert('Rate limit', 'Nothing else here.'),
  ];

  describe('ranking', () => {
    it('puts the words together first within the title, the heading and the text tiers', async () => {
      const id = await space('Together corpus', 'en');
      await seed(owner.api, id, RATE_LIMIT_TIERS);
      // A title (4) with the words together (+1), then apart; a heading with them together (3),
      // then apart (2); a section with them together (1), then apart. On both engines.
      const expected = ['Rate limit', 'Limit on every rate', 'Quotas', 'Throttles', 'Tokens', 'Requests'];
      const found = await searchSpace(id, 'rate limit ');
      expect(titles(found.items)).toEqual(expected);
      // The tier is the score's whole part, the relevance within it the rest.
      expect(found.items.map((item) => Math.floor(item.score))).toEqual([5, 4, 3, 2, 1, 0]);
      // Ranked by the tiers alone (more tier pages than asked) or with every match: one order.
      expect(titles((await pageThrough(id, 'rate limit ', 1)).items)).toEqual(expected);
    });

    it('pages through more sections with the words together than a page holds in the order of one answer', async () => {
      // No title or heading has both words; three sections have them together, four apart, one
      // of those hidden. With fewer than three asked, a page of results is ranked among the pages
      // with the words together alone, and the other matches only counted: the count, the order
      // and the scores must be those of the whole answer.
      const id = await space('Together tier', 'en');
      await seed(owner.api, id, [
        insert('Gateways', 'Every gateway enforces a rate limit on each client.'),
        insert('Clients', 'Intro.\n\n## Bursts\n\nA burst above the rate limit is refused.'),
        insert('Backoff', 'Retry after the rate limit resets, then slow down.'),
        insert('Tokens', 'A token bucket refills at a fixed rate, up to its limit.'),
        insert('Quotas', 'The limit is per day; the rate is per second.'),
        insert('Headers', 'The response tells the rate and the limit left.'),
        insert('Secret', 'A hidden page with a rate and a limit.', { hidden: true }),
        insert('Unrelated', 'Nothing about either word.'),
      ]);
      const whole = await searchSpace(id, 'rate limit', { limit: 50 });
      expect(whole.count).toBe(6);
      expect(titles(whole.items).slice(0, 3).sort()).toEqual(['Backoff', 'Clients', 'Gateways']);
      expect(whole.items.slice(0, 3).every((item) => Math.floor(item.score) === 1)).toBe(true);
      expect(titles(whole.items).slice(3).sort()).toEqual(['Headers', 'Quotas', 'Tokens']);
      for (const limit of [1, 2, 4]) {
        const paged = await pageThrough(id, 'rate limit', limit);
        expect(new Set(paged.counts), `limit ${limit}`).toEqual(new Set([6]));
        expect(paged.items, `limit ${limit}`).toEqual(whole.items);
      }
      // A word left out counts as left out when only the words together are ranked: "day" leaves
      // out Quotas (apart), and the three pages with the words together still fill a page of one.
      const without = await searchSpace(id, 'rate limit -day', { limit: 50 });
      expect(without.count).toBe(5);
      expect(titles(without.items).sort()).toEqual(['Backoff', 'Clients', 'Gateways', 'Headers', 'Tokens']);
      const pagedWithout = await pageThrough(id, 'rate limit -day', 1);
      expect(new Set(pagedWithout.counts)).toEqual(new Set([5]));
      expect(pagedWithout.items).toEqual(without.items);
    });

    it('puts title matches above heading matches above text, and phrases above scattered words', async () => {
      const id = await space('Ranking corpus', 'en');
      await seed(owner.api, id, [
        insert('Troubleshooting', 'When a proxy refuses requests, check the logs.'),
        insert('Networking', '## Proxy\n\nSet the address of the gateway.'),
        insert('Proxy', 'How to configure the network.'),
        insert('Quotas', 'A token has a limit. Past it, requests are refused at a lower rate.'),
        insert('Throttling', 'The rate limit applies to every token.'),
      ]);
      expect(titles((await searchSpace(id, 'proxy ')).items)).toEqual([
        'Proxy',
        'Networking',
        'Troubleshooting',
      ]);
      expect(titles((await searchSpace(id, 'rate limit ')).items)).toEqual(['Throttling', 'Quotas']);
      const scores = (await searchSpace(id, 'proxy ')).items.map((i) => i.score);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    });
  });

  describe.skipIf(!!process.env.DATABASE_URL)('SQLite reader threads', () => {
    // A server whose database is a file, as `quire serve` keeps it: readers need one.
    let filed: TestServer;
    beforeAll(async () => {
      filed = await startTestServer({ fileDatabase: true, env });
    });
    afterAll(async () => {
      await filed.close();
    });

    it('rank and count as the server connection does, page after page', async () => {
      const { api } = filed.admin;
      const id = (
        await api.orgs.createSpace(filed.admin.orgId, { title: 'Readers corpus', language: 'en' } as never)
      ).data.id;
      await seed(api, id, [
        ...RATE_LIMIT_TIERS,
        insert('Rates', 'The rate of a token, the rate of a request, the rates of all.'),
        insert('Limits', 'Limits and limiting.'),
      ]);
      await filed.app.quire.services.jobs.runDue();
      const { deps } = filed.app.quire;
      const readers = deps.database.readers!;
      // The server's own index reads this small space on its connection; this one, from no pages
      // up, on the readers.
      const inline = new SqliteSearchIndex(deps.db);
      const threaded = new SqliteSearchIndex(deps.db, readers, 0);
      // And ranked from the space's postings, read on this connection or on the readers.
      const posted = new SqliteSearchIndex(deps.db, undefined, undefined, 0);
      const postedThreaded = new SqliteSearchIndex(deps.db, readers, 0, 0);
      const read = vi.spyOn(readers, 'all');
      const scope = { spaceIds: [id], includeHidden: false };
      for (const text of ['rate limit ', 'rate', 'rat', 'limit', '"rate limit"', 'rate -token', 'okapi']) {
        const clauses = parseQuery(text);
        const plan = planQuery(clauses, await inline.expansions(['en'], stemRequests(clauses)));
        for (const limit of [1, 2, 50]) {
          let cursor: RankCursor | undefined;
          for (let page = 0; page < 10; page++) {
            const expected = await inline.rank(plan, scope, cursor, limit);
            expect(
              await threaded.rank(plan, scope, cursor, limit),
              `${text} limit ${limit} page ${page}`,
            ).toEqual(expected);
            expect(
              await postedThreaded.rank(plan, scope, cursor, limit),
              `${text} limit ${limit} page ${page}, from postings`,
            ).toEqual(await posted.rank(plan, scope, cursor, limit));
            const last = expected.pages.at(-1);
            if (!expected.more || !last) break;
            cursor = { score: last.score, spaceId: last.spaceId, pageId: last.pageId };
          }
        }
      }
      expect(read).toHaveBeenCalled();
      read.mockRestore();
    });

    it('rank an organization read in parts, side by side, as in one statement', async () => {
      const { api } = filed.admin;
      const { deps, services } = filed.app.quire;
      const newOrg = async (title: string) => (await api.orgs.createOrganization({ title })).data.id;
      const indexed = async (org: string, title: string, pages: ReturnType<typeof insert>[]) => {
        const id = (await api.orgs.createSpace(org, { title, language: 'en' } as never)).data.id;
        await seed(api, id, pages);
        await services.jobs.runDue();
        return id;
      };
      // A's numbers enclose B's space (A's parts scope each page by its spaces); C's numbers are
      // C's alone (each part's range is its scope).
      const [a, b, c] = [await newOrg('Parts A'), await newOrg('Parts B'), await newOrg('Parts C')];
      await indexed(a, 'A one', RATE_LIMIT_TIERS);
      await indexed(b, 'B one', [insert('Rate card', 'The rate limit of the neighbour.')]);
      const a2 = await indexed(a, 'A two', [
        insert('Rates', 'The rate of a token, the rate of a request, the rates of all.'),
        insert('Unlisted rate', 'A rate limit kept out of search.', { hidden: true }),
      ]);
      await indexed(a, 'A three', [insert('Limits', 'Limits and limiting, at a rate.')]);
      for (const title of ['C one', 'C two', 'C three'])
        await indexed(c, title, [
          ...RATE_LIMIT_TIERS,
          insert('Hidden limit', 'A rate limit.', { hidden: true }),
        ]);

      const readers = deps.database.readers!;
      const inline = new SqliteSearchIndex(deps.db);
      // Every organization of two space numbers and more read in parts.
      const parted = new SqliteSearchIndex(deps.db, readers, 0, undefined, 1);
      // Every organization's spaces listed through the caller's rules, none left out by number.
      const listed = new SqliteSearchIndex(deps.db, readers, 0, undefined, 1, 0);
      const every = {
        all: true,
        spaces: [],
        inherit: [],
        explicit: [],
        none: [],
        rootInherit: true,
        rootExplicit: true,
        rootNone: true,
      };
      const scopes = {
        'A, every space': { org: { orgId: a, visibility: every }, includeHidden: false },
        'A, one space': {
          org: {
            orgId: a,
            visibility: {
              ...every,
              all: false,
              spaces: [a2],
              rootInherit: false,
              rootExplicit: false,
              rootNone: false,
            },
          },
          includeHidden: false,
        },
        'C, every space': { org: { orgId: c, visibility: every }, includeHidden: false },
        'C, hidden pages too': { org: { orgId: c, visibility: every }, includeHidden: true },
      };
      const read = vi.spyOn(readers, 'all');
      for (const [name, scope] of Object.entries(scopes))
        for (const text of ['rate limit ', 'rate', 'limit', '"rate limit"', 'rate -token', 'okapi']) {
          const clauses = parseQuery(text);
          const plan = planQuery(clauses, await inline.expansions(['en'], stemRequests(clauses)));
          for (const limit of [1, 3, 50]) {
            let cursor: RankCursor | undefined;
            for (let page = 0; page < 30; page++) {
              const expected = await inline.rank(plan, scope, cursor, limit);
              read.mockClear();
              expect(
                await parted.rank(plan, scope, cursor, limit),
                `${name}: ${text} limit ${limit} page ${page}`,
              ).toEqual(expected);
              // One statement a part.
              expect(read.mock.calls.length).toBeGreaterThanOrEqual(2);
              expect(
                await listed.rank(plan, scope, cursor, limit),
                `${name}: ${text} limit ${limit} page ${page}, listed`,
              ).toEqual(expected);
              const last = expected.pages.at(-1);
              if (!expected.more || !last) break;
              cursor = { score: last.score, spaceId: last.spaceId, pageId: last.pageId };
            }
          }
        }
      read.mockRestore();
    });
  });

  describe.skipIf(!process.env.DATABASE_URL)('PostgreSQL indexes', () => {
    it("finds one space's sections, titles, headings and pages by their terms, in the indexes of 0025, 0026 and 0029", async () => {
      const { db } = server.app.quire.deps.database;
      for (const [table, index] of [
        ['search_sections', 'search_sections_terms'],
        ['search_page_titles', 'search_page_titles_terms'],
        ['search_section_headings', 'search_section_headings_terms'],
        ['search_pages', 'search_pages_terms'],
      ] as const) {
        // Any plan that can use the index does: the query names the very expression indexed.
        const plan = await db.transaction().execute(async (tx) => {
          await sql`SET LOCAL enable_seqscan = off`.execute(tx);
          return sql<{ 'QUERY PLAN': unknown }>`EXPLAIN (FORMAT JSON) SELECT COUNT(*) FROM ${sql.id(table)} x
          WHERE ${termsMatch(table, 'x', "'proxy'", { spaceIds: ['some-space'] })}`.execute(tx);
        });
        expect(JSON.stringify(plan.rows)).toContain(`"Index Name":"${index}"`);
      }
      // After a large write the statistics are taken and every pending GIN entry merged.
      await expect(new PostgresSearchIndex(db).optimize()).resolves.toBeUndefined();
    });

    it('ranks an organization read in parts, side by side, as in one statement', async () => {
      const parts = await createOrg(owner, 'Parts org');
      const seeded: string[] = [];
      for (const title of ['P one', 'P two', 'P three']) {
        const id = (await owner.api.orgs.createSpace(parts, { title, language: 'en' } as never)).data.id;
        seeded.push(id);
        await seed(owner.api, id, [
          ...RATE_LIMIT_TIERS,
          insert('Hidden limit', 'A rate limit.', { hidden: true }),
          insert(`Rates of ${title}`, 'The rate of a token, the rate of a request.'),
        ]);
      }
      // More spaces than a search names (MAX_SPACE_TERMS): the organization's are read as a set.
      for (let i = 0; i < 50; i++) await owner.api.orgs.createSpace(parts, { title: `Empty ${i}` } as never);
      await server.app.quire.services.jobs.runDue();
      const { db } = server.app.quire.deps.database;
      const whole = new PostgresSearchIndex(db);
      const parted = new PostgresSearchIndex(db, undefined, 1);
      // The organization's spaces listed in each statement, none left out by id (see leftOut).
      const listed = new PostgresSearchIndex(db, undefined, 1, -1);
      const rankPart = vi.spyOn(parted as never as { rankPart(): unknown }, 'rankPart');
      const every = {
        all: true,
        spaces: [],
        inherit: [],
        explicit: [],
        none: [],
        rootInherit: true,
        rootExplicit: true,
        rootNone: true,
      };
      // A member who may read the organization's spaces but the one closed to members.
      const oneClosed = { ...every, all: false, rootNone: false };
      await server.app.quire.deps.db
        .updateTable('spaces')
        .set({ default_level: null })
        .where('id', '=', seeded[0]!)
        .execute();
      for (const [includeHidden, visibility] of [
        [false, every],
        [true, every],
        [false, oneClosed],
      ] as const)
        for (const text of ['rate limit ', 'rate', 'limit', '"rate limit"', 'rate -token', 'okapi']) {
          const scope = { org: { orgId: parts, visibility }, includeHidden };
          const clauses = parseQuery(text);
          const plan = planQuery(clauses, await whole.expansions(['en'], stemRequests(clauses)));
          for (const limit of [1, 4, 50]) {
            let cursor: RankCursor | undefined;
            for (let page = 0; page < 30; page++) {
              const expected = await whole.rank(plan, scope, cursor, limit);
              rankPart.mockClear();
              expect(
                await parted.rank(plan, scope, cursor, limit),
                `${text} limit ${limit} page ${page}`,
              ).toEqual(expected);
              expect(rankPart.mock.calls.length).toBeGreaterThanOrEqual(2);
              expect(
                await listed.rank(plan, scope, cursor, limit),
                `${text} limit ${limit} page ${page}, listed`,
              ).toEqual(expected);
              const last = expected.pages.at(-1);
              if (!expected.more || !last) break;
              cursor = { score: last.score, spaceId: last.spaceId, pageId: last.pageId };
            }
          }
        }
    });
  });

  describe('languages', () => {
    it('stems English words in an English space', async () => {
      const id = await space('English docs', 'en');
      await seed(owner.api, id, [
        insert('Setup', 'The configuration of the libraries.'),
        insert('Other', 'Nothing relevant.'),
      ]);
      expect(titles((await searchSpace(id, 'configured library ')).items)).toEqual(['Setup']);
      expect(titles((await searchSpace(id, 'configures ')).items)).toEqual(['Setup']);
    });

    it('stems French words in a French space, accents or not', async () => {
      const id = await space('Documentation', 'fr');
      await seed(owner.api, id, [
        insert('Développement', 'Les développeurs montent les chevaux.'),
        insert('Autre', 'Rien à voir.'),
      ]);
      expect(titles((await searchSpace(id, 'développeur ')).items)).toEqual(['Développement']);
      expect(titles((await searchSpace(id, 'cheval ')).items)).toEqual(['Développement']);
      expect(titles((await searchSpace(id, 'developpement ')).items)).toEqual(['Développement']);
      expect((await searchSpace(id, 'cheval ')).items[0]!.sections![0]!.body).toContain(
        '<mark>chevaux</mark>',
      );
    });

    it('does not stem a space without a language, and follows a change of language', async () => {
      const id = await space('Plain');
      await seed(owner.api, id, [insert('Écurie', 'Les chevaux mangent.')]);
      expect(titles((await searchSpace(id, 'cheval ')).items)).toEqual([]);
      expect(titles((await searchSpace(id, 'chevaux ')).items)).toEqual(['Écurie']);
      await owner.api.spaces.updateSpaceById(id, { language: 'fr' } as never);
      expect(titles((await searchSpace(id, 'cheval ')).items)).toEqual(['Écurie']);
    });

    it('finds Chinese, Japanese and Korean text by any part of it', async () => {
      const id = await space('多语言', 'zh');
      await seed(owner.api, id, [
        insert('快速入门', '安装文档中心之前，请阅读本指南。'),
        insert('手順', 'インストール手順を確認してください。'),
        insert('안내', '설치 가이드를 참고하세요.'),
      ]);
      expect(titles((await searchSpace(id, '文档中心')).items)).toEqual(['快速入门']);
      expect(titles((await searchSpace(id, '档中')).items)).toEqual(['快速入门']);
      expect(titles((await searchSpace(id, '南')).items)).toEqual(['快速入门']);
      expect(titles((await searchSpace(id, 'ストー')).items)).toEqual(['手順']);
      expect(titles((await searchSpace(id, '가이')).items)).toEqual(['안내']);
      expect(titles((await searchSpace(id, '档案')).items)).toEqual([]);
      const hit = (await searchSpace(id, '文档中心')).items[0]!;
      expect(hit.sections![0]!.body).toBe('安装<mark>文档中心</mark>之前，请阅读本指南。');
    });
  });

  describe('bad input', () => {
    let id: string;
    beforeAll(async () => {
      id = await space('Input checks');
      await seed(owner.api, id, [insert('Page', 'Some text about proxies and (parentheses).')]);
    });

    it('refuses a missing, empty or too long query with a 400 naming the field', async () => {
      for (const path of [`/v1/spaces/${id}/search`, `/v1/orgs/${orgId}/search`]) {
        for (const query of ['', '?query=', '?query=%20%20', `?query=${'a'.repeat(513)}`]) {
          const res = await rawRequest(server.url, 'GET', `${path}${query}`, { token: owner.token });
          expect(res.status, `${path}${query}`).toBe(400);
          expect(JSON.stringify(res.body)).toContain('querystring');
        }
      }
    });

    it('answers normally to operators, punctuation and search-engine syntax', async () => {
      const hostile = [
        '"" - * ()',
        '-proxies',
        'proxies*',
        'proxies OR text',
        'title:(proxies)',
        '{body}: proxies',
        'NEAR(some text)',
        '"unterminated',
        '(parentheses)',
        "'; DROP TABLE spaces; --",
        'some AND',
        '\\',
        '^',
        'a'.repeat(512),
      ];
      for (const query of hostile) {
        for (const path of [`/v1/spaces/${id}/search`, `/v1/orgs/${orgId}/search`]) {
          const res = await rawRequest(server.url, 'GET', `${path}?query=${encodeURIComponent(query)}`, {
            token: owner.token,
          });
          expect(res.status, query).toBe(200);
        }
      }
      expect(titles((await searchSpace(id, '(parentheses)')).items)).toEqual(['Page']);
      expect(titles((await searchSpace(id, 'title:(proxies)')).items)).toEqual([]);
      expect((await searchSpace(id, '"" - * ()')).items).toEqual([]);
    });
  });

  describe('organization search and permissions', () => {
    let shared: string;
    let secret: string;
    let reader: TestUser;
    beforeAll(async () => {
      shared = await space('Shared manual');
      secret = await space('Board minutes');
      await seed(owner.api, shared, [insert('Budget', 'The zeppelin budget for next year.')]);
      await seed(owner.api, secret, [insert('Plans', 'Secret zeppelin plans.')]);
      await owner.api.spaces.updateSpaceById(secret, { defaultLevel: null } as never);
      reader = await createUser(server);
      await addMember(owner, orgId, reader, 'read');
    });

    it('groups hits by space, in rank order', async () => {
      const { data } = await owner.api.orgs.searchOrganizationContent(orgId, { query: 'zeppelin' });
      expect(data.count).toBe(2);
      const items = data.items as SearchSpaceResult[];
      expect(items.map((i) => i.title).sort()).toEqual(['Board minutes', 'Shared manual']);
      for (const item of items) {
        expect(item.type).toBe('space');
        expect(item.score).toBe(Math.max(...item.pages.map((p) => p.score)));
      }
      expect(items.flatMap((i) => i.pages.map((p) => p.rank)).sort()).toEqual([1, 2]);
    });

    it('covers only the spaces the caller may read', async () => {
      const { data } = await reader.api.orgs.searchOrganizationContent(orgId, { query: 'zeppelin' });
      expect(data.items.map((i) => i.id)).toEqual([shared]);
      expect(data.count).toBe(1);
      expect((await failure(reader.api.spaces.searchSpaceContent(secret, { query: 'zeppelin' }))).code).toBe(
        404,
      );
      const outsider = await createUser(server);
      expect(
        (await failure(outsider.api.orgs.searchOrganizationContent(orgId, { query: 'zeppelin' }))).code,
      ).toBe(404);
      // A deleted space is not searched.
      await owner.api.spaces.deleteSpaceById(shared);
      const after = await owner.api.orgs.searchOrganizationContent(orgId, { query: 'zeppelin' });
      expect(after.data.items.map((i) => i.id)).toEqual([secret]);
      await owner.api.spaces.restoreSpace(shared);
    });

    it('searches a member who may read every space as the owner, and not once a space is closed to them', async () => {
      const found = async () => {
        const { data } = await reader.api.orgs.searchOrganizationContent(orgId, { query: 'zeppelin' });
        return { count: data.count, ids: data.items.map((i) => i.id).sort() };
      };
      expect(await found()).toEqual({ count: 1, ids: [shared] });
      // Open to every member: the reader now sees each space of the organization.
      await owner.api.spaces.updateSpaceById(secret, { defaultLevel: 'inherit' } as never);
      expect(await found()).toEqual({ count: 2, ids: [shared, secret].sort() });
      // A new space closed to members, with nothing that matches, changes what the reader sees.
      const closed = (await owner.api.orgs.createSpace(orgId, { title: 'Closed' } as never)).data.id;
      await owner.api.spaces.updateSpaceById(closed, { defaultLevel: null } as never);
      expect(await found()).toEqual({ count: 2, ids: [shared, secret].sort() });
      await owner.api.spaces.updateSpaceById(secret, { defaultLevel: null } as never);
      expect(await found()).toEqual({ count: 1, ids: [shared] });
      await owner.api.spaces.deleteSpaceById(closed);
    });

    it('keeps organizations apart when their spaces were indexed in turn, and follows a transfer', async () => {
      // Spaces are numbered as they are first indexed: A1, then B1 of another organization,
      // then A2. This organization's numbers then enclose B1's, and its search must leave B1
      // out; the other's enclose none but its own, and it is searched by its range alone.
      const otherOrg = await createOrg(owner, 'Neighbour org');
      // More spaces than a search names by their terms (PostgreSQL's MAX_SPACE_TERMS): the
      // organization's own term finds its matches, and a transferred space's rows change term.
      for (const org of [orgId, otherOrg])
        for (let i = 0; i < 51; i++) await owner.api.orgs.createSpace(org, { title: `Filler ${i}` } as never);
      const indexed = async (org: string, title: string, pages: ReturnType<typeof insert>[]) => {
        const id = (await owner.api.orgs.createSpace(org, { title } as never)).data.id;
        await seed(owner.api, id, pages);
        await server.app.quire.services.jobs.runDue();
        return id;
      };
      const a1 = await indexed(orgId, 'Mountain notes', [insert('Peaks', 'A pika on the rocks.')]);
      const b1 = await indexed(otherOrg, 'Neighbour notes', [insert('Meadow', 'A pika in the grass.')]);
      const a2 = await indexed(orgId, 'Travel notes', [
        insert('Hut', 'A pika near the hut.'),
        insert('Unlisted', 'A pika kept out of search.', { hidden: true }),
      ]);
      const found = async (org: string) => {
        const { data } = await owner.api.orgs.searchOrganizationContent(org, { query: 'pika' });
        const items = data.items as SearchSpaceResult[];
        return {
          count: data.count,
          pages: items.flatMap((item) => item.pages.map((page) => `${item.id}:${page.title}`)).sort(),
        };
      };
      expect(await found(orgId)).toEqual({ count: 2, pages: [`${a1}:Peaks`, `${a2}:Hut`].sort() });
      expect(await found(otherOrg)).toEqual({ count: 1, pages: [`${b1}:Meadow`] });

      await apiClient146(server.url, owner.token).spaces.transferSpace(a2, { organization: otherOrg });
      expect(await found(orgId)).toEqual({ count: 1, pages: [`${a1}:Peaks`] });
      expect(await found(otherOrg)).toEqual({ count: 2, pages: [`${b1}:Meadow`, `${a2}:Hut`].sort() });
    });
  });

  describe('freshness', () => {
    it('re-indexes what a merge changed, in the background', async () => {
      const id = await space('Changing', 'en');
      const ids = await seed(owner.api, id, [
        insert('Parent', 'Top.', { slug: 'parent' }),
        insert('Stable', 'Nothing moves here.'),
      ]);
      const child = await seed(owner.api, id, [
        insert('Child', 'The walrus sleeps.', { into: ids.get('Parent') }),
      ]);
      const { services } = server.app.quire;
      await services.jobs.runDue();
      expect(titles((await searchSpace(id, 'walrus')).items)).toEqual(['Child']);

      const cr = await newChangeRequest(owner.api, id);
      await write(owner.api, id, cr, [
        { operation: 'update_page', page: child.get('Child')!, document: { markdown: 'The narwhal swims.' } },
        { operation: 'update_page', page: ids.get('Parent')!, title: 'Ocean', slug: 'ocean' },
      ]);
      await owner.api.spaces.mergeChangeRequest(id, cr);
      const db = server.app.quire.deps.db;
      const queued = await db
        .selectFrom('jobs')
        .select(['payload', 'status'])
        .where('kind', '=', 'search.index')
        .where('status', '=', 'queued')
        .execute();
      expect(queued.map((j) => JSON.parse(j.payload).spaceId)).toContain(id);
      const before = await db
        .selectFrom('search_spaces')
        .selectAll()
        .where('space_id', '=', id)
        .executeTakeFirstOrThrow();
      const current = await db
        .selectFrom('spaces')
        .select('revision_id')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(before.revision_id).not.toBe(current.revision_id);

      await services.jobs.runDue();
      const after = await db
        .selectFrom('search_spaces')
        .selectAll()
        .where('space_id', '=', id)
        .executeTakeFirstOrThrow();
      expect(after.revision_id).toBe(current.revision_id);
      expect(titles((await searchSpace(id, 'walrus')).items)).toEqual([]);
      const hit = (await searchSpace(id, 'narwhal')).items[0]!;
      // The child's text was re-read; its path and ancestors followed the renamed parent.
      expect(hit).toMatchObject({ title: 'Child', path: 'ocean/child', ancestors: [{ title: 'Ocean' }] });
    });

    it('ranks by the current title and headings after they change', async () => {
      const id = await space('Renamed', 'en');
      const ids = await seed(owner.api, id, [
        insert('Walrus guide', 'A walrus.'),
        insert('Seals', '## Walrus\n\nThe walrus, walrus and walrus again.'),
      ]);
      await server.app.quire.services.jobs.runDue();
      expect(titles((await searchSpace(id, 'walrus')).items)).toEqual(['Walrus guide', 'Seals']);

      const cr = await newChangeRequest(owner.api, id);
      await write(owner.api, id, cr, [
        { operation: 'update_page', page: ids.get('Walrus guide')!, title: 'Guide' },
        {
          operation: 'update_page',
          page: ids.get('Seals')!,
          document: { markdown: 'The walrus, walrus and walrus again.' },
        },
      ]);
      await owner.api.spaces.mergeChangeRequest(id, cr);
      await server.app.quire.services.jobs.runDue();
      // Neither has the word in its title or a heading any more: the text decides.
      expect(titles((await searchSpace(id, 'walrus')).items)).toEqual(['Seals', 'Guide']);
    });

    it('counts the pages that match now, ranked from the titles and headings alone or not', async () => {
      // limit 1: more pages have the word in a title or heading than the answer holds, so only
      // they are ranked and the others counted (a word alone: from the pages' terms).
      const id = await space('Counted', 'en');
      const ids = await seed(owner.api, id, [
        insert('Okapi', 'The okapi is shy.'),
        insert('Okapi stripes', 'Stripes on the legs.'),
        insert('Forest', '## Okapi trails\n\nPaths in the forest.\n\n## Okapi stripes\n\nSeen at dusk.'),
        insert('Giraffes', 'A cousin of the okapi, without stripes.'),
        insert('Rivers', 'Water.\n\n## Banks\n\nAn okapi drinks here.'),
        insert('Hidden okapi', 'An okapi.', { hidden: true }),
        insert('Plains', 'No such animal.'),
      ]);
      await server.app.quire.services.jobs.runDue();
      const counts = async () => ({
        word: (await searchSpace(id, 'okapi', { limit: 1 })).count,
        words: (await searchSpace(id, 'okapi stripes', { limit: 1 })).count,
        all: (await searchSpace(id, 'okapi', { limit: 50 })).count,
        prefix: (await searchSpace(id, 'oka', { limit: 1 })).count,
      });
      expect(await counts()).toEqual({ word: 5, words: 3, all: 5, prefix: 5 });

      const cr = await newChangeRequest(owner.api, id);
      await write(owner.api, id, cr, [
        { operation: 'delete_page', page: ids.get('Giraffes')! },
        { operation: 'update_page', page: ids.get('Rivers')!, document: { markdown: 'Water only.' } },
        {
          operation: 'update_page',
          page: ids.get('Plains')!,
          document: { markdown: 'An okapi strays here.' },
        },
      ]);
      await owner.api.spaces.mergeChangeRequest(id, cr);
      await server.app.quire.services.jobs.runDue();
      expect(await counts()).toEqual({ word: 4, words: 2, all: 4, prefix: 4 });
      expect(titles((await searchSpace(id, 'okapi', { limit: 50 })).items).sort()).toEqual([
        'Forest',
        'Okapi',
        'Okapi stripes',
        'Plains',
      ]);
    });

    it('catches up when a job was lost, and drops the index of purged spaces', async () => {
      const id = await space('Lost job', 'en');
      await seed(owner.api, id, [insert('First', 'The pangolin.')]);
      const { services, deps } = server.app.quire;
      await services.jobs.runDue();
      const cr = await newChangeRequest(owner.api, id);
      await write(owner.api, id, cr, [insert('Second', 'The okapi.')]);
      await owner.api.spaces.mergeChangeRequest(id, cr);
      await deps.db
        .deleteFrom('jobs')
        .where('kind', '=', 'search.index')
        .where('status', '=', 'queued')
        .execute();

      const { synced } = await services.searchEngine.reconcile();
      expect(synced).toBeGreaterThanOrEqual(1);
      const state = await deps.db
        .selectFrom('search_spaces')
        .selectAll()
        .where('space_id', '=', id)
        .executeTakeFirstOrThrow();
      const row = await deps.db
        .selectFrom('spaces')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(state.revision_id).toBe(row.revision_id);
      expect((await services.searchEngine.reconcile()).synced).toBe(0);

      await deps.db.deleteFrom('spaces').where('id', '=', id).execute();
      await services.searchEngine.reconcile();
      const left = await deps.db
        .selectFrom('search_sections')
        .select('id')
        .where('space_id', '=', id)
        .execute();
      expect(left).toEqual([]);
      expect(
        await deps.db
          .selectFrom('search_spaces')
          .select('space_id')
          .where('space_id', '=', id)
          .executeTakeFirst(),
      ).toBeUndefined();
    });

    it('finds the same after the index is optimized', async () => {
      const id = await space('Compacted', 'en');
      const { services, deps } = server.app.quire;
      // Each sync commits its own index segment.
      for (const animal of ['capybara', 'tapir', 'quokka']) {
        await seed(owner.api, id, [insert(`The ${animal}`, `The ${animal} and the wombat graze.`)]);
        await services.jobs.runDue();
      }
      const before = await searchSpace(id, 'wombat graz');
      expect(before.count).toBe(3);
      const segments = async () =>
        Number(
          (await sql<{ n: number }>`SELECT count(DISTINCT segid) AS n FROM search_fts_idx`.execute(deps.db))
            .rows[0]!.n,
        );
      if (deps.dialect === 'sqlite') expect(await segments()).toBeGreaterThan(1);
      await services.searchEngine.index.optimize();
      if (deps.dialect === 'sqlite') expect(await segments()).toBe(1);
      expect(await searchSpace(id, 'wombat graz')).toEqual(before);
      expect(titles((await searchSpace(id, 'tapir')).items)).toEqual(['The tapir']);
    });
  });

  describe('optimizing', () => {
    it('optimizes the index in the background once small syncs together wrote a thousand pages', async () => {
      const { services } = server.app.quire;
      const actor = { userId: owner.id, tokenId: 'test', email: owner.email };
      const optimize = vi.spyOn(services.searchEngine.index, 'optimize');
      try {
        for (let s = 0; s < 3; s++) {
          const id = await space(`Small sync ${s}`, 'en');
          const cr = await services.changeRequests.create(actor, id, { subject: 'Pages' });
          await services.contentWrites.apply(
            actor,
            id,
            cr.row.id,
            Array.from({ length: 350 }, (_, p) => ({
              operation: 'insert_page' as const,
              title: `Page ${p}`,
              document: { markdown: `The okapi ${p} of space ${s}.` },
            })),
          );
          await services.merges.merge(actor, id, cr.row.id);
          // Fewer than a thousand pages: the sync itself does not optimize.
          expect(await services.searchEngine.indexer.sync(id)).toBe('updated');
        }
        await vi.waitFor(() => expect(optimize).toHaveBeenCalled());
        await optimize.mock.results[0]!.value;
      } finally {
        optimize.mockRestore();
      }
    });

    it('on SQLite, waits until small syncs wrote half the pages indexed before it merges the index whole', async () => {
      const { deps, services } = server.app.quire;
      const actor = { userId: owner.id, tokenId: 'test', email: owner.email };
      // An indexer of its own: the server's counts what the other tests wrote.
      const indexer = new SearchIndexer(
        deps,
        { store: services.store, openapi: services.openapi },
        services.searchEngine.index,
      );
      const pagesOf = async (title: string, count: number) => {
        const id = await space(title, 'en');
        const cr = await services.changeRequests.create(actor, id, { subject: 'Pages' });
        await services.contentWrites.apply(
          actor,
          id,
          cr.row.id,
          Array.from({ length: count }, (_, p) => ({
            operation: 'insert_page' as const,
            title: `Page ${p}`,
            document: { markdown: `The tapir ${p} of ${title}.` },
          })),
        );
        await services.merges.merge(actor, id, cr.row.id);
        return id;
      };
      // A large index: its first sync merges it whole, before it answers.
      const optimize = vi.spyOn(services.searchEngine.index, 'optimize');
      try {
        // More than the other tests indexed, so that it is most of what is indexed.
        const held = await deps.db
          .selectFrom('search_pages')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        const large = Math.max(2400, Number(held.n) + 200);
        expect(await indexer.sync(await pagesOf('Large index', large))).toBe('updated');
        expect(optimize).toHaveBeenCalledTimes(1);
        // Then 1,050 pages in small syncs: past the 1,000 that PostgreSQL's statistics wait for,
        // short of half the 3,450 and more pages SQLite holds (merging them rewrites them all).
        for (let s = 0; s < 3; s++)
          expect(await indexer.sync(await pagesOf(`Small ${s}`, 350))).toBe('updated');
        // The background optimize begins before the sync answers.
        expect(optimize).toHaveBeenCalledTimes(deps.dialect === 'sqlite' ? 1 : 2);
        await optimize.mock.results.at(-1)!.value;
      } finally {
        optimize.mockRestore();
      }
    });
  });

  describe('a server with its worker running', () => {
    it('reconciles at start-up and indexes merges in the background', async () => {
      const live = await startTestServer({ worker: true, env });
      try {
        const api = live.admin.api;
        const { db } = live.app.quire.deps;
        const reconcile = await db
          .selectFrom('jobs')
          .select('kind')
          .where('kind', '=', 'search.reconcile')
          .execute();
        expect(reconcile.length).toBeGreaterThanOrEqual(1);
        const id = (await api.orgs.createSpace(live.admin.orgId, { title: 'Live' })).data.id;
        await seed(api, id, [insert('Live page', 'The axolotl regrows.')]);
        const current = await db
          .selectFrom('spaces')
          .select('revision_id')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        const deadline = Date.now() + 10_000;
        for (;;) {
          const state = await db
            .selectFrom('search_spaces')
            .select('revision_id')
            .where('space_id', '=', id)
            .executeTakeFirst();
          if (state?.revision_id === current.revision_id) break;
          if (Date.now() > deadline) throw new Error('the worker did not index the merge');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const { data } = await api.spaces.searchSpaceContent(id, { query: 'axolotl' });
        expect(titles(data.items)).toEqual(['Live page']);
      } finally {
        await live.close();
      }
    });
  });

  describe('published site search', () => {
    it('covers only the sections and pages the visitor may see', async () => {
      const base = await space('Site basics');
      const pro = await space('Site pro');
      await seed(owner.api, base, [
        insert('Intro', 'The quokka is friendly.'),
        insert('Draft', 'An unreleased quokka.', { hidden: true }),
      ]);
      await seed(owner.api, pro, [insert('Advanced', 'The quokka expert mode.')]);
      const site = await publishedSite(owner, orgId, [base], SiteVisibility.Public, 'Searchable');
      await owner.api.orgs.updateSiteById(orgId, site.id, { adaptiveContent: { enabled: true } } as never);
      await owner.api.orgs.addSectionToSite(orgId, site.id, { spaceId: base, title: 'Basics' } as never);
      const section = await owner.api.orgs.addSectionToSite(orgId, site.id, {
        spaceId: pro,
        title: 'Pro',
      } as never);
      await owner.api.orgs.updateSiteSectionById(orgId, site.id, section.data.id, {
        condition: 'visitor.claims.plan == "pro"',
      } as never);
      const published = (await owner.api.orgs.getSiteById(orgId, site.id)).data;
      const root = published.urls.published!.endsWith('/')
        ? published.urls.published!
        : `${published.urls.published}/`;

      const search = async (cookie?: string) => {
        const res = await visit(`${root}~search?q=quokka`, cookie ? { cookie } : {});
        expect(res.status).toBe(200);
        return (JSON.parse(res.body) as { results: Array<{ title: string; snippet: string }> }).results;
      };
      const anonymous = await search();
      expect(anonymous.map((r) => r.title)).toEqual(['Intro']);
      expect(anonymous[0]!.snippet).toBe('The quokka is friendly.');

      const { privateKey } = (await owner.api.orgs.getSitePublishingAuthById(orgId, site.id)).data;
      const token = signVisitorToken({ plan: 'pro', exp: Math.floor(Date.now() / 1000) + 600 }, privateKey);
      const cookie = cookiesOf((await visit(`${root}?jwt_token=${token}`)).headers);
      expect((await search(cookie)).map((r) => r.title).sort()).toEqual(['Advanced', 'Intro']);
    });
  });
}
