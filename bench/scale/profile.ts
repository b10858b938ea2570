/**
 * bench/scale/profile.ts: where the time of the slow operations of bench/scale goes. Seeds one
 * space of BENCH_PAGES pages (default 100,000) in-process, like the `pages` part, then runs each
 * operation named in BENCH_OPS a few times under the V8 CPU profiler of this process (server and
 * client share it; the client's part is small) and prints the functions with the most self time
 * and the Quire functions with the most total time. Profiles are kept in BENCH_PROFILE_DIR when
 * set (open them in Chrome DevTools).
 *
 *   npx tsx bench/scale/profile.ts
 *   BENCH_OPS=list,revision,search,write,merge,view DATABASE_URL=postgres://... npx tsx bench/scale/profile.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { pathsOf, QUERIES, spacePages } from './content.js';
import { log } from './report.js';
import { seedSpace } from './seed.js';
import { startInProcess } from './server.js';

const PAGES = Number(process.env.BENCH_PAGES ?? 100_000);
const OPS = (process.env.BENCH_OPS ?? 'list,revision,page,search,write,merge,view').split(',');
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const DIR = process.env.BENCH_PROFILE_DIR;

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const server = await startInProcess('profile');
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
try {
  const { services, actor, owner, client, visitor } = server;
  const org = await services.orgs.create(owner.id, { title: 'Profile org' });
  const space = await services.spaces.create(actor, org.row.id, { title: 'Large', language: 'en' });
  const specs = spacePages(PAGES, 7);
  const seeded = await seedSpace(server, space.row.id, specs, 'seeding');
  const paths = pathsOf(specs);
  const spaceId = space.row.id;
  const leaves = specs.filter((s) => s.level === 2).map((s) => s.index);
  const leaf = (i: number) => leaves[(i * 7919) % leaves.length]!;
  if (OPS.some((op) => op.startsWith('search'))) {
    const t = performance.now();
    await services.searchEngine.indexer.sync(spaceId);
    log(`indexed in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  let siteRoot = '';
  if (OPS.some((op) => op.startsWith('view'))) {
    const site = await client.json<{ id: string }>('POST', `/v1/orgs/${org.row.id}/sites`, {
      title: 'Site',
      visibility: 'public',
      spaces: [spaceId],
    });
    const published = await client.json<{ urls: { published: string } }>(
      'POST',
      `/v1/orgs/${org.row.id}/sites/${site.json.id}/publish`,
    );
    siteRoot = new URL(published.json.urls.published).pathname.replace(/\/?$/, '/');
  }
  const ok = async (method: string, route: string, body?: unknown, c = client) => {
    const answer = await c.request(method, route, body);
    if (answer.status >= 300)
      throw new Error(`${method} ${route} -> ${answer.status}: ${answer.text.slice(0, 200)}`);
    return answer;
  };
  let round = 0;
  const edit = async () => {
    const cr = JSON.parse(
      (await ok('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: `p${round}` })).text,
    ) as { id: string };
    const i = leaf(round++);
    await ok('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, {
      changes: [
        { operation: 'update_page', page: seeded.ids[i], document: { markdown: `# Edited ${round}` } },
      ],
    });
    return { cr: cr.id, page: i };
  };
  /** Each op: [setup outside the profile, the profiled part]. */
  const ops: Record<string, () => Promise<() => Promise<unknown>>> = {
    list: async () => () => ok('GET', `/v1/spaces/${spaceId}/content/pages`),
    revision: async () => () => ok('GET', `/v1/spaces/${spaceId}/content`),
    page: async () => {
      const i = leaf(round++);
      return () => ok('GET', `/v1/spaces/${spaceId}/content/page/${seeded.ids[i]}`);
    },
    search: async () => {
      const q = QUERIES[round++ % QUERIES.length]!;
      return () => ok('GET', `/v1/spaces/${spaceId}/search?query=${encodeURIComponent(q)}`);
    },
    write: async () => {
      const cr = JSON.parse(
        (await ok('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: `w${round}` })).text,
      ) as { id: string };
      const i = leaf(round++);
      return () =>
        ok('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, {
          changes: [
            { operation: 'update_page', page: seeded.ids[i], document: { markdown: `# Edited ${round}` } },
          ],
        });
    },
    merge: async () => {
      const { cr } = await edit();
      return () => ok('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/merge`);
    },
    'search-after-merge': async () => {
      const { cr } = await edit();
      await ok('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/merge`);
      return () => ok('GET', `/v1/spaces/${spaceId}/search?query=edited`);
    },
    'list-after-merge': async () => {
      const { cr } = await edit();
      await ok('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/merge`);
      return () => ok('GET', `/v1/spaces/${spaceId}/content/pages`);
    },
    'view-after-merge': async () => {
      const { cr, page } = await edit();
      await ok('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/merge`);
      return () => ok('GET', `${siteRoot}${paths[page]}`, undefined, visitor);
    },
    view: async () => {
      const i = leaf(round++);
      return () => ok('GET', `${siteRoot}${paths[i]}`, undefined, visitor);
    },
  };

  for (const name of OPS) {
    const make = ops[name];
    if (!make) throw new Error(`unknown op ${name}; known: ${Object.keys(ops).join(', ')}`);
    for (let i = 0; i < 3; i++) await (await make())(); // warm-up
    const runs: Array<() => Promise<unknown>> = [];
    let total = 0;
    const profiles: Profile[] = [];
    for (let i = 0; i < RUNS; i++) {
      const run = await make();
      runs.push(run);
      await session.post('Profiler.start');
      const t = performance.now();
      await run();
      total += performance.now() - t;
      const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
      profiles.push(profile);
    }
    log(`\n== ${name}: ${(total / RUNS).toFixed(1)} ms per run (${RUNS} runs, profiled)`);
    summarize(profiles);
    if (DIR) {
      mkdirSync(DIR, { recursive: true });
      writeFileSync(path.join(DIR, `${name}.cpuprofile`), JSON.stringify(profiles.at(-1)));
    }
  }
} finally {
  session.disconnect();
  await server.close();
}

/** Self time by function, and total time of Quire's own functions (src/), over all profiles. */
function summarize(profiles: Profile[]) {
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let all = 0;
  for (const profile of profiles) {
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const name = (n: Node) => {
      const file = n.callFrame.url.replace(/^file:\/\//, '').replace(`${process.cwd()}/`, '');
      return `${n.callFrame.functionName || '(anonymous)'} ${file ? `${file}:${n.callFrame.lineNumber + 1}` : ''}`.trim();
    };
    profile.samples.forEach((id, i) => {
      const dt = (profile.timeDeltas[i] ?? 0) / 1000;
      all += dt;
      const node = byId.get(id)!;
      self.set(name(node), (self.get(name(node)) ?? 0) + dt);
      const seen = new Set<string>();
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        const n = byId.get(cur)!;
        if (!n.callFrame.url.includes('/src/')) continue;
        const key = name(n);
        if (seen.has(key)) continue;
        seen.add(key);
        inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
      }
    });
  }
  const top = (map: Map<string, number>, n: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(
        ([k, v]) =>
          `    ${((v / all) * 100).toFixed(1).padStart(5)}%  ${(v / profiles.length).toFixed(1).padStart(7)} ms  ${k}`,
      );
  log('  self time:');
  for (const line of top(self, 12)) log(line);
  log('  total time, Quire functions:');
  for (const line of top(inclusive, 14)) log(line);
}
