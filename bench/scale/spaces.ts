import { prng } from '../search/corpus.js';
import { QUERIES, spacePages } from './content.js';
import { figureRow, latencyRow, log, progress, secs } from './report.js';
import { compare, type Op } from './sampling.js';
import { type InProcess, startInProcess } from './server.js';
import { WorkerClient } from './worker-client.js';

/**
 * Part `spaces`: an organization of BENCH_SPACES spaces (default 10,000) in 100 collections,
 * each space holding two small pages (merged from a change request, indexed for search),
 * against an organization of 100 spaces built the same way, in the same store. Sampled as the
 * organization's owner: list spaces (first and last page of 100, keyset cursor), GET space,
 * create space, update a space's title, and search across the organization; the search again as
 * a member with the read role, with one space of each organization closed to members.
 */

const SMALL_SPACES = 100;
const COLLECTIONS = 100;

interface Org {
  orgId: string;
  spaceIds: string[];
  /** The cursor of the last page of the spaces list (limit 100); undefined when one page. */
  lastCursor: string | undefined;
}

export async function spacesPart(spaces: number): Promise<void> {
  log(`\n## spaces: an organization of ${spaces.toLocaleString('en')} spaces against one of ${SMALL_SPACES}`);
  const server = await startInProcess('spaces');
  try {
    await run(server, spaces);
  } finally {
    await server.close();
  }
}

async function build(server: InProcess, count: number, label: string): Promise<Org> {
  const { services, actor, owner, client } = server;
  const org = await services.orgs.create(owner.id, { title: label });
  const orgId = org.row.id;
  const collections: string[] = [];
  for (let c = 0; c < Math.min(COLLECTIONS, count); c++)
    collections.push(
      (await services.collections.create(actor, orgId, { title: `Collection ${c + 1}` })).row.id,
    );
  const spaceIds: string[] = [];
  const pages = spacePages(2, count);
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const space = await services.spaces.create(actor, orgId, {
      title: `Space ${i + 1}`,
      language: 'en',
      // One space in ten at the top level, the others spread over the collections.
      ...(i % 10 === 0 ? {} : { parent: collections[i % collections.length]! }),
    });
    const cr = await services.changeRequests.create(actor, space.row.id, { subject: 'Start' });
    const outcome = await services.contentWrites.apply(
      actor,
      space.row.id,
      cr.row.id,
      pages.slice(-2).map((p, n) => ({
        operation: 'insert_page' as const,
        title: `${p.title} of space ${i + 1}`,
        document: { markdown: p.markdown.replace(/^# .*/, `# Space ${i + 1}, page ${n + 1}`) },
      })),
    );
    if (outcome.changes.length !== 2) throw new Error('seeding a space wrote no pages');
    await services.merges.merge(actor, space.row.id, cr.row.id);
    spaceIds.push(space.row.id);
    const elapsed = performance.now() - started;
    progress(
      `  ${label}: ${i + 1}/${count} spaces in ${secs(elapsed)} (${Math.round(((i + 1) / elapsed) * 1000)} spaces/s)`,
      i + 1 === count,
    );
  }
  const seedMs = performance.now() - started;
  const indexStart = performance.now();
  for (const [n, id] of spaceIds.entries()) {
    await services.searchEngine.indexer.sync(id);
    progress(
      `  ${label}: indexed ${n + 1}/${count} spaces in ${secs(performance.now() - indexStart)}`,
      n + 1 === count,
    );
  }
  const indexMs = performance.now() - indexStart;
  while ((await services.jobs.runDue()) > 0);
  if (count >= 1000) {
    figureRow({
      part: 'spaces',
      operation: `seed ${count.toLocaleString('en')} spaces (each created, 2 pages written and merged) through the services`,
      value: `${secs(seedMs)} (${Math.round((count / seedMs) * 1000)} spaces/s)`,
      numbers: { spaces: count, ms: seedMs },
      target: 'minutes',
      pass: seedMs < 15 * 60_000,
    });
    figureRow({
      part: 'spaces',
      operation: `search index of ${count.toLocaleString('en')} spaces of 2 pages`,
      value: `${secs(indexMs)} (${Math.round((count / indexMs) * 1000)} spaces/s)`,
      numbers: { spaces: count, ms: indexMs },
      target: 'minutes',
      pass: indexMs < 15 * 60_000,
    });
  }

  // Walk the whole list once (a warm-up too), keeping the last page's cursor.
  let cursor: string | undefined;
  let lastCursor: string | undefined;
  let listed = 0;
  do {
    const page = await client.json<{ items: unknown[]; next?: { page: string } }>(
      'GET',
      `/v1/orgs/${orgId}/spaces?limit=100${cursor ? `&page=${encodeURIComponent(cursor)}` : ''}`,
    );
    listed += page.json.items.length;
    lastCursor = cursor;
    cursor = page.json.next?.page;
  } while (cursor);
  if (listed !== count) throw new Error(`${label}: the list gave ${listed} spaces of ${count}`);
  return { orgId, spaceIds, lastCursor };
}

async function run(server: InProcess, spaces: number) {
  const { client } = server;
  const large = await build(server, spaces, `${spaces.toLocaleString('en')} spaces`);
  const small = await build(server, SMALL_SPACES, `${SMALL_SPACES} spaces`);

  const get = (path: string) =>
    client.request('GET', path).then((answer) => {
      if (answer.status !== 200)
        throw new Error(`GET ${path} -> ${answer.status}: ${answer.text.slice(0, 300)}`);
      return answer.ms;
    });
  const both = async (label: string, op: (org: Org) => Op, note?: string) => {
    const samples = await compare(label, op(large), op(small));
    latencyRow('spaces', label, samples.large, samples.small, note ? { note } : {});
  };
  const pick = (org: Org, seed: number) => {
    const random = prng(seed);
    return () => org.spaceIds[Math.floor(random() * org.spaceIds.length)]!;
  };

  await both(
    'list spaces, first page',
    (org) => () => get(`/v1/orgs/${org.orgId}/spaces?limit=100`),
    'limit 100',
  );
  await both(
    'list spaces, last page',
    (org) => () =>
      get(
        `/v1/orgs/${org.orgId}/spaces?limit=100${org.lastCursor ? `&page=${encodeURIComponent(org.lastCursor)}` : ''}`,
      ),
    'keyset cursor; the small organization has one page',
  );
  // Spaces never read before on either side. GET space is a kept read (kept-reads.ts): the next
  // row's 1,000 random reads of the 100-space organization are nearly all answered from what was
  // kept, those of the 10,000-space one nearly all routed and read from the database. This row
  // compares first reads with first reads.
  const firstReads = Math.min(80, SMALL_SPACES - 10);
  const unread = (org: Org, i: number) =>
    org === large
      ? org.spaceIds[((org.spaceIds.length >> 1) + (i < 0 ? -1 - i : 50 + i)) % org.spaceIds.length]!
      : org.spaceIds[i < 0 ? firstReads - 1 - i : i]!;
  const firstRead = await compare(
    'GET space (in an organization), first read of that space',
    (i) => get(`/v1/spaces/${unread(large, i)}`),
    (i) => get(`/v1/spaces/${unread(small, i)}`),
    { samples: firstReads, warmup: 10, both: true },
  );
  latencyRow(
    'spaces',
    'GET space (in an organization), first read of that space',
    firstRead.large,
    firstRead.small,
    { note: `${firstReads} spaces a side` },
  );
  await both('GET space (in an organization)', (org) => {
    const next = pick(org, 3);
    return () => get(`/v1/spaces/${next()}`);
  });
  await both('update a space title (PATCH)', (org) => {
    const next = pick(org, 5);
    return (i) =>
      client.json('PATCH', `/v1/spaces/${next()}`, { title: `Renamed ${i}` }).then((answer) => answer.ms);
  });
  await both(
    'organization search',
    (org) => (i) =>
      get(
        `/v1/orgs/${org.orgId}/search?query=${encodeURIComponent(QUERIES[((i % QUERIES.length) + QUERIES.length) % QUERIES.length]!)}`,
      ),
  );
  // A member reads through the visibility rules of their role, where the owner sees everything.
  const member = await server.services.users.create({ email: 'reader@bench.test', displayName: 'Reader' });
  await server.database.db.transaction().execute(async (tx) => {
    for (const org of [large, small]) await server.services.members.add(tx, org.orgId, member.id, 'read');
  });
  for (const org of [large, small])
    await client.json('PATCH', `/v1/spaces/${org.spaceIds[0]!}`, { defaultLevel: null });
  const reader = new WorkerClient(
    server.url,
    (await server.services.tokens.create(member.id, 'bench')).token,
  );
  try {
    await both(
      'organization search, as a member (read role, one space closed)',
      (org) => (i) =>
        reader
          .request(
            'GET',
            `/v1/orgs/${org.orgId}/search?query=${encodeURIComponent(QUERIES[((i % QUERIES.length) + QUERIES.length) % QUERIES.length]!)}`,
          )
          .then((answer) => {
            if (answer.status !== 200)
              throw new Error(`member search -> ${answer.status}: ${answer.text.slice(0, 300)}`);
            return answer.ms;
          }),
    );
  } finally {
    reader.close();
  }
  await both(
    'create a space',
    (org) => (i) =>
      client.json('POST', `/v1/orgs/${org.orgId}/spaces`, { title: `New ${i}` }).then((answer) => answer.ms),
  );
}
