import http from 'node:http';
import { prng } from '../search/corpus.js';
import { type PageSpec, pathsOf, QUERIES, spacePages } from './content.js';
import type { HttpClient } from './http.js';
import { figureRow, latencyRow, log, secs } from './report.js';
import { compare, type Op, SAMPLES } from './sampling.js';
import { seedSpace } from './seed.js';
import { type InProcess, startInProcess } from './server.js';
import { WorkerClient } from './worker-client.js';

/**
 * Part `pages`: a space of BENCH_PAGES pages (default 100,000) and one of 100 pages in one
 * organization, each published as a site; every API read and write of a page, a merge, a
 * published page view and a space search, sampled on both, and their ratio.
 */

const SMALL_PAGES = 100;
/** What fetch asks for, and so the official client: Node's fetch sends this. */
const AS_FETCH = { 'accept-encoding': 'gzip, deflate' };
const IDENTITY = { 'accept-encoding': 'identity' };

interface Side {
  label: string;
  spaceId: string;
  specs: PageSpec[];
  ids: string[];
  paths: string[];
  /** Spec indexes of the bottom-level pages, in a random order. */
  leaves: number[];
  /** The published site's root URL path, ending with '/'. */
  siteRoot: string;
}

export async function pagesPart(pages: number): Promise<void> {
  log(`\n## pages: a space of ${pages.toLocaleString('en')} pages against one of ${SMALL_PAGES}`);
  const server = await startInProcess('pages');
  try {
    await run(server, pages);
  } finally {
    await server.close();
  }
}

async function run(server: InProcess, pages: number) {
  const { services, actor, owner, client, visitor, background } = server;
  const org = await services.orgs.create(owner.id, { title: 'Scale org' });
  const orgId = org.row.id;

  const setUp = async (label: string, leaves: number, seed: number): Promise<Side> => {
    const specs = spacePages(leaves, seed);
    const space = await services.spaces.create(actor, orgId, { title: label, language: 'en' });
    const seeded = await seedSpace(server, space.row.id, specs, `seeding ${label}`);
    if (leaves >= 1000)
      figureRow({
        part: 'pages',
        operation: `seed ${specs.length.toLocaleString('en')} pages (${leaves.toLocaleString('en')} + ${(specs.length - leaves).toLocaleString('en')} group and section pages) through the services`,
        value: `${secs(seeded.ms)} (${Math.round((specs.length / seeded.ms) * 1000)} pages/s)`,
        numbers: { pages: specs.length, ms: seeded.ms, writes: seeded.writes, merges: seeded.merges },
        target: 'minutes',
        pass: seeded.ms < 15 * 60_000,
        note: `${seeded.writes} writes of ≤ 1,000 inserts, ${seeded.merges} merges`,
      });
    const started = performance.now();
    const outcome = await services.searchEngine.indexer.sync(space.row.id);
    const indexMs = performance.now() - started;
    if (leaves >= 1000)
      figureRow({
        part: 'pages',
        operation: `search index of ${specs.length.toLocaleString('en')} pages, built from nothing`,
        value: `${secs(indexMs)} (${Math.round((specs.length / indexMs) * 1000)} pages/s)`,
        numbers: { pages: specs.length, ms: indexMs },
        target: 'minutes',
        pass: indexMs < 15 * 60_000,
        note: `indexer.sync answered ${outcome}`,
      });
    // Drain what the merges queued: search.index jobs (now no-ops) and the fill of the pages'
    // converted documents (content.documents), so that nothing waits behind the samples.
    const draining = performance.now();
    while ((await services.jobs.runDue()) > 0);
    const drainMs = performance.now() - draining;
    if (leaves >= 1000)
      figureRow({
        part: 'pages',
        operation: `documents of ${specs.length.toLocaleString('en')} pages converted and stored (3 profiles), the jobs queued by the seeding`,
        value: `${secs(drainMs)} (${Math.round((specs.length / drainMs) * 1000)} pages/s)`,
        numbers: { pages: specs.length, ms: drainMs },
        target: 'minutes',
        pass: drainMs < 15 * 60_000,
      });

    const site = await client.json<{ id: string }>('POST', `/v1/orgs/${orgId}/sites`, {
      title: label,
      visibility: 'public',
      spaces: [space.row.id],
    });
    const published = await client.json<{ urls: { published?: string } }>(
      'POST',
      `/v1/orgs/${orgId}/sites/${site.json.id}/publish`,
    );
    const root = new URL(published.json.urls.published!).pathname;
    const random = prng(seed);
    const leafIndexes = specs.filter((s) => s.level === 2).map((s) => s.index);
    for (let i = leafIndexes.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [leafIndexes[i], leafIndexes[j]] = [leafIndexes[j]!, leafIndexes[i]!];
    }
    return {
      label,
      spaceId: space.row.id,
      specs,
      ids: seeded.ids,
      paths: pathsOf(specs),
      leaves: leafIndexes,
      siteRoot: root.endsWith('/') ? root : `${root}/`,
    };
  };

  const large = await setUp(`${pages.toLocaleString('en')} pages`, pages, 7);
  const small = await setUp(`${SMALL_PAGES} pages`, SMALL_PAGES, 11);
  const settling = performance.now();
  await server.settle();
  log(`settled the database after the bulk load in ${secs(performance.now() - settling)}`);

  // The paths the bench computes are the ones the API answers.
  for (const side of [large, small]) {
    const leaf = side.leaves[0]!;
    const page = await client.json<{ id: string; path: string }>(
      'GET',
      `/v1/spaces/${side.spaceId}/content/page/${side.ids[leaf]}`,
    );
    if (page.json.path !== side.paths[leaf])
      throw new Error(
        `page ${page.json.id} has path ${page.json.path}, the bench expected ${side.paths[leaf]}`,
      );
  }

  const leafAt = (side: Side, i: number) =>
    side.leaves[((i % side.leaves.length) + side.leaves.length) % side.leaves.length]!;
  const get = (c: HttpClient, path: string, expect = 200) =>
    c.request('GET', path).then((answer) => {
      if (answer.status !== expect)
        throw new Error(`GET ${path} -> ${answer.status} (expected ${expect}): ${answer.text.slice(0, 300)}`);
      return answer.ms;
    });
  // Whole trees asked for as fetch asks (the official client): the encodings answered are
  // counted per row, and logged.
  const encodings = new Map<string, number>();
  const getAsFetch = (path: string, i: number) =>
    client.request('GET', path, undefined, AS_FETCH).then((answer) => {
      if (answer.status !== 200)
        throw new Error(`GET ${path} -> ${answer.status}: ${answer.text.slice(0, 300)}`);
      const encoding = `${String(answer.headers['content-encoding'] ?? 'identity')}${i < 0 ? ' (warming up)' : ''}`;
      encodings.set(encoding, (encodings.get(encoding) ?? 0) + 1);
      return answer.ms;
    });
  const logEncodings = (label: string) => {
    log(`  ${label}, both sizes: ${[...encodings].map(([name, n]) => `${n} in ${name}`).join(', ')}`);
    encodings.clear();
  };
  const both = async (label: string, op: (side: Side) => Op, note?: string) => {
    const samples = await compare(label, op(large), op(small));
    latencyRow('pages', label, samples.large, samples.small, note ? { note } : {});
  };

  log('reads (API):');
  await both('GET space', (side) => () => get(client, `/v1/spaces/${side.spaceId}`));
  // Pages never read before on either side: the page's document is made from its stored
  // markdown on its first read, then kept. The next row reads 1,000 pages of each side, which on
  // the 100-page space are its leaves over and over (warm after the first pass) and on the large
  // space are 1,000 pages read for the first time; this row compares first reads with first reads.
  const firstReads = Math.min(80, SAMPLES, small.leaves.length - 11);
  const unread = (side: Side, i: number) =>
    `/v1/spaces/${side.spaceId}/content/page/${side.ids[leafAt(side, side === large ? 5000 + i : 1 + (i < 0 ? firstReads - 1 - i : i))]}`;
  const firstRead = await compare(
    'GET page by id, first read of that page',
    (i) => get(client, unread(large, i)),
    (i) => get(client, unread(small, i)),
    { samples: firstReads, warmup: 10, both: true },
  );
  latencyRow('pages', 'GET page by id, first read of that page', firstRead.large, firstRead.small, {
    note: `${firstReads} pages a side`,
  });
  await both(
    'GET page by id',
    (side) => (i) => get(client, `/v1/spaces/${side.spaceId}/content/page/${side.ids[leafAt(side, i)]}`),
  );
  await both(
    'GET page by path',
    (side) => (i) =>
      get(
        client,
        `/v1/spaces/${side.spaceId}/content/path/${side.paths[leafAt(side, i)]!.split('/').map(encodeURIComponent).join('/')}`,
      ),
  );
  await both(
    'GET page by id, markdown',
    (side) => (i) =>
      get(client, `/v1/spaces/${side.spaceId}/content/page/${side.ids[leafAt(side, i + 7)]}?format=markdown`),
  );
  // The tree is held as bytes, not parsed: parsed, the 100,000-page tree is a hundred MB of
  // objects in the heap the server shares with this bench, for every collection after it.
  const treePath = `/v1/spaces/${large.spaceId}/content/pages`;
  const treeBody = (await client.raw('GET', treePath, IDENTITY)).body;
  // Its parts are compressed in the background after a first read that goes as it is.
  let treeGzip: Buffer | undefined;
  for (let tries = 0; tries < 100 && !treeGzip; tries++) {
    const answer = await client.raw('GET', treePath, AS_FETCH);
    if (answer.headers['content-encoding'] === 'gzip') treeGzip = answer.body;
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!treeGzip) throw new Error('the large tree was never answered in gzip');
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  log(`  the large tree: ${mib(treeBody.length)}, ${mib(treeGzip.length)} in gzip`);
  await both(
    'list pages (GET content/pages)',
    (side) => (i) => getAsFetch(`/v1/spaces/${side.spaceId}/content/pages`, i),
    `the whole tree in one answer, in gzip as fetch asks: ${mib(treeGzip.length)} (${mib(treeBody.length)} of JSON) at the large size`,
  );
  logEncodings('list pages');
  await both(
    'list pages, uncompressed (Accept-Encoding: identity)',
    (side) => () => get(client, `/v1/spaces/${side.spaceId}/content/pages`),
    `${mib(treeBody.length)} at the large size`,
  );
  // The floor of those answers: node:http in this process sending the same bytes, to the same
  // kind of client. Both send from the heap holding the 100,000-page space.
  for (const [label, body, encoding] of [
    ['node:http sending the same bytes as list pages, gzip (the floor)', treeGzip, 'gzip'],
    ['node:http sending the same bytes as list pages, uncompressed (the floor)', treeBody, undefined],
  ] as const) {
    const floor = await sameBytesFromNodeHttp(body, encoding);
    try {
      const samples = await compare(label, () => floor.get());
      latencyRow('pages', label, samples.large, undefined, {
        note: 'a bare node:http server in this process, no Quire code',
      });
    } finally {
      await floor.close();
    }
  }
  await both(
    'GET current revision (GET content)',
    (side) => (i) => getAsFetch(`/v1/spaces/${side.spaceId}/content`, i),
  );
  logEncodings('GET current revision');
  const queryOf = (i: number) => QUERIES[((i % QUERIES.length) + QUERIES.length) % QUERIES.length]!;
  const searched = await compare(
    'space search',
    (i) => get(client, `/v1/spaces/${large.spaceId}/search?query=${encodeURIComponent(queryOf(i))}`),
    (i) => get(client, `/v1/spaces/${small.spaceId}/search?query=${encodeURIComponent(queryOf(i))}`),
  );
  latencyRow('pages', 'space search', searched.large, searched.small, {
    note: 'a page of up to 100 hits (the default limit): the small space has fewer matches (hits logged)',
  });
  // As the official client asks (fetch takes gzip): the large space's 100-hit answers (about
  // 95 KB) are compressed for each request; most of the small space's are under 32 KB.
  await both(
    'space search, as fetch asks',
    (side) => (i) =>
      getAsFetch(`/v1/spaces/${side.spaceId}/search?query=${encodeURIComponent(queryOf(i))}`, i),
    'Accept-Encoding: gzip, deflate; answers of 32 KB and more go in gzip, compressed for each request',
  );
  logEncodings('space search, as fetch asks');
  // The same queries, 10 hits a page: answers of about the same size on both sides.
  const searchedTen = await compare(
    'space search, 10 hits a page',
    (i) => get(client, `/v1/spaces/${large.spaceId}/search?limit=10&query=${encodeURIComponent(queryOf(i))}`),
    (i) => get(client, `/v1/spaces/${small.spaceId}/search?limit=10&query=${encodeURIComponent(queryOf(i))}`),
  );
  latencyRow('pages', 'space search, 10 hits a page (limit=10)', searchedTen.large, searchedTen.small);
  for (const side of [large, small]) {
    const hits: number[] = [];
    for (const query of QUERIES)
      hits.push(
        (
          await client.json<{ items: unknown[] }>(
            'GET',
            `/v1/spaces/${side.spaceId}/search?query=${encodeURIComponent(query)}`,
          )
        ).json.items.length,
      );
    log(`  space search, hits of each query in ${side.label}: ${hits.join(', ')}`);
  }
  // Which queries make the tail: sample i searched queryOf(i).
  for (const query of QUERIES) {
    const times = searched.large.filter((_, i) => queryOf(i) === query).sort((a, b) => a - b);
    if (times.length > 0)
      log(
        `  space search "${query}": median ${times[times.length >> 1]!.toFixed(1)} ms, slowest ${times.at(-1)!.toFixed(1)} ms (${times.length} samples)`,
      );
  }

  // What other requests wait while a space is searched: GET space sampled while another
  // connection searches the space without a pause. A search that holds the server's thread
  // (SQLite statements run on it, unless on reader threads) makes every request behind it wait
  // for its end. The same GET of the small space runs beside searches of the small space.
  const busy = async (label: string, op: Op, spaceId: string) => {
    let searching = true;
    let searches = 0;
    const loop = (async () => {
      while (searching) {
        await get(
          background,
          `/v1/spaces/${spaceId}/search?query=${encodeURIComponent(QUERIES[searches % QUERIES.length]!)}`,
        );
        searches++;
      }
    })();
    try {
      return await compare(label, op);
    } finally {
      searching = false;
      await loop;
      log(`  ${label}: ${searches} searches beside it`);
    }
  };
  // Spaced out (the pause is not timed), so the samples span tens of searches of either space,
  // paused on the client's thread: arriving at any moment of the server's work (getAfter).
  const spaced = (spaceId: string) => async () => {
    const answer = await client.getAfter(5, `/v1/spaces/${spaceId}`);
    if (answer.status !== 200) throw new Error(`GET space -> ${answer.status}: ${answer.text.slice(0, 300)}`);
    return answer.ms;
  };
  const besideLarge = await busy(
    'GET space while its space is searched',
    spaced(large.spaceId),
    large.spaceId,
  );
  const besideSmall = await busy(
    'GET space while its space is searched (small)',
    spaced(small.spaceId),
    small.spaceId,
  );
  latencyRow(
    'pages',
    'GET space while another connection searches that space',
    besideLarge.large,
    besideSmall.large,
    {
      note: 'searches back to back on a second connection',
    },
  );

  log('published site:');
  // First views of pages never viewed (the revision is loaded, the page is not rendered yet),
  // then the same pages again (warm: rendered before; full 200, no If-None-Match).
  const view = (side: Side, i: number) => `${side.siteRoot}${side.paths[leafAt(side, 1000 + i)]}`;
  // The small space has 100 pages: 10 to warm up, then up to 80 never seen.
  const smallFirst = Math.min(80, SAMPLES);
  const firstViews = await compare(
    'published page view, first of that page',
    (i) => get(visitor, view(large, i)),
    (i) => get(visitor, view(small, i < 0 ? smallFirst - 1 - i : i)),
    { samples: smallFirst, warmup: 10 },
  );
  latencyRow('pages', 'published page view, first view of a page', firstViews.large, firstViews.small, {
    note: `small: ${smallFirst} pages`,
  });
  // Again, the pages seen above (rendered before): the warm view.
  const warmView = (side: Side, n: number) => (i: number) => get(visitor, view(side, ((i % n) + n) % n));
  const warm = await compare(
    'published page view (warm, 200)',
    warmView(large, firstViews.large.length),
    warmView(small, smallFirst),
  );
  latencyRow('pages', 'published page view (warm, 200)', warm.large, warm.small);

  log('writes (a change request, one page written, merged; then the page viewed and a search):');
  const create: Record<string, number[]> = { large: [], small: [] };
  const write: Record<string, number[]> = { large: [], small: [] };
  const merge: Record<string, number[]> = { large: [], small: [] };
  const afterMergeView: Record<string, number[]> = { large: [], small: [] };
  const afterMergeSearch: Record<string, number[]> = { large: [], small: [] };
  const afterMergeFill: Record<string, number[]> = { large: [], small: [] };
  const round = (key: 'large' | 'small', side: Side) => async (i: number) => {
    const sampling = i >= 0;
    const leaf = leafAt(side, 5000 + i * 3);
    const cr = await client.json<{ id: string }>('POST', `/v1/spaces/${side.spaceId}/change-requests`, {
      subject: `Edit ${i}`,
    });
    const written = await client.json(
      'POST',
      `/v1/spaces/${side.spaceId}/change-requests/${cr.json.id}/content`,
      {
        changes: [
          {
            operation: 'update_page',
            page: side.ids[leaf],
            document: { markdown: `${side.specs[leaf]!.markdown}\n\nEdited in round ${i}.` },
          },
        ],
      },
    );
    const merged = await client.json<{ result: string }>(
      'POST',
      `/v1/spaces/${side.spaceId}/change-requests/${cr.json.id}/merge`,
    );
    if (merged.json.result !== 'merge') throw new Error(`merge answered ${JSON.stringify(merged.json)}`);
    const viewed = await get(visitor, `${side.siteRoot}${side.paths[leaf]}`);
    const searched = await get(client, `/v1/spaces/${side.spaceId}/search?query=edited`);
    // The job the merge queued, run here (the bench's server runs no jobs): the page's documents
    // converted and stored for the next process that reads it.
    const filling = performance.now();
    const filled = await services.documentFill.fill(side.spaceId);
    const fillMs = performance.now() - filling;
    if (filled !== 1) throw new Error(`the fill after a merge of one page converted ${filled} pages`);
    if (sampling) {
      afterMergeFill[key]!.push(fillMs);
      create[key]!.push(cr.ms);
      write[key]!.push(written.ms);
      merge[key]!.push(merged.ms);
      afterMergeView[key]!.push(viewed);
      afterMergeSearch[key]!.push(searched);
    }
    return cr.ms + written.ms + merged.ms;
  };
  await compare('write rounds', round('large', large), round('small', small));
  latencyRow('pages', 'create a change request', create.large!, create.small);
  latencyRow('pages', 'write one page (update_page)', write.large!, write.small);
  latencyRow('pages', 'merge', merge.large!, merge.small);
  latencyRow(
    'pages',
    'published page view, first after a merge',
    afterMergeView.large!,
    afterMergeView.small,
    {
      note: 'the page just edited',
    },
  );
  latencyRow(
    'pages',
    "documents filled after a merge (the merge's background job)",
    afterMergeFill.large!,
    afterMergeFill.small,
    { note: 'the page written, converted for 3 profiles and stored' },
  );
  latencyRow('pages', 'space search right after a merge', afterMergeSearch.large!, afterMergeSearch.small, {
    note: 'syncs the index inline first',
  });

  // Apart from the rounds above: a tree of 56 MiB presented in each would slow the writes that
  // follow it (the collector at work) and blur their rows.
  const treeAfterMerge = (side: Side) => async (i: number) => {
    const leaf = leafAt(side, 9000 + i * 5);
    const cr = await client.json<{ id: string }>('POST', `/v1/spaces/${side.spaceId}/change-requests`, {
      subject: `Tree ${i}`,
    });
    await client.json('POST', `/v1/spaces/${side.spaceId}/change-requests/${cr.json.id}/content`, {
      changes: [{ operation: 'update_page', page: side.ids[leaf], title: `Retitled in round ${i}` }],
    });
    await client.json('POST', `/v1/spaces/${side.spaceId}/change-requests/${cr.json.id}/merge`);
    return getAsFetch(`/v1/spaces/${side.spaceId}/content/pages`, i);
  };
  const trees = await compare(
    'list pages, first after a merge',
    treeAfterMerge(large),
    treeAfterMerge(small),
  );
  latencyRow('pages', 'list pages, first after a merge', trees.large, trees.small, {
    note: 'the new revision presented, encoded and compressed (gzip, as fetch asks); the merge before it not timed',
  });
  logEncodings('list pages, first after a merge');
}

/** A bare node:http server answering `body` to every request, and a client of its own. */
async function sameBytesFromNodeHttp(body: Buffer, encoding?: string) {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': body.length,
      ...(encoding ? { 'content-encoding': encoding } : {}),
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const client = new WorkerClient(`http://127.0.0.1:${port}`);
  return {
    get: () => client.request('GET', '/').then((answer) => answer.ms),
    async close() {
      client.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
