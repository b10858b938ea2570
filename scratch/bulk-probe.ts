// Probe GET /healthz every 5 ms while one content write of N inserts runs, then its merge, then the sync.
import { startTestServer } from '../test/helpers/server.js';
import { createOrg, createUser } from '../test/helpers/factories.js';
import type { Actor } from '../src/auth/actor.js';
import http from 'node:http';

const N = Number(process.env.N ?? 1000);
const server = await startTestServer({ fileDatabase: true });
const owner = await createUser(server, { name: 'Bulk' });
const orgId = await createOrg(owner, 'Bulk org');
const { services } = server.app.quire;
const actor: Actor = { userId: owner.id, tokenId: 'test', email: owner.email };
const spaceId = (await owner.api.orgs.createSpace(orgId, { title: 'Bulk' })).data.id;
const page = (n: number) => `---\ndescription: Page ${n}.\n---\n\n# Page ${n}\n\nText of page ${n} with **bold** and a [link](../other.md).\n\n{% hint style="info" %}\nA hint ${n}.\n{% endhint %}\n\n| a | b |\n| - | - |\n| 1 | 2 |\n`;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const times: Array<[number, number, string]> = [];
let phase = 'idle';
let probing = true;
const probe = (async () => {
  while (probing) {
    const t = performance.now();
    await new Promise<void>((resolve, reject) => {
      http.get(`${server.url}/healthz`, { agent }, (res) => { res.resume(); res.on('end', () => resolve()); }).on('error', reject);
    });
    times.push([t, performance.now() - t, phase]);
    await new Promise((r) => setTimeout(r, 5));
  }
})();
const gaps: Record<string, number> = {};
let last = performance.now();
const ticker = setInterval(() => {
  const now = performance.now();
  gaps[phase] = Math.max(gaps[phase] ?? 0, now - last);
  last = now;
}, 1);
await new Promise((r) => setTimeout(r, 200));
const cr = await services.changeRequests.create(actor, spaceId, { subject: 'Bulk' });
let t = performance.now();
phase = 'write';
await services.contentWrites.apply(actor, spaceId, cr.row.id, Array.from({ length: N }, (_, n) => ({ operation: 'insert_page' as const, title: `Page ${n}`, document: { markdown: page(n) } })));
const writeMs = performance.now() - t;
t = performance.now();
phase = 'merge';
await services.merges.merge(actor, spaceId, cr.row.id);
const mergeMs = performance.now() - t;
t = performance.now();
phase = 'sync';
await services.searchEngine.indexer.sync(spaceId);
const syncMs = performance.now() - t;
phase = 'after';
await new Promise((r) => setTimeout(r, 100));
probing = false;
clearInterval(ticker);
console.log('longest event loop gap by phase (ms):', Object.fromEntries(Object.entries(gaps).map(([k, v]) => [k, Math.round(v)])));
await probe;
console.log(times.slice().sort((a, b) => b[1] - a[1]).slice(0, 5).map((x) => `${x[1].toFixed(1)} ms from ${x[2]}`).join(', '));
for (const p of ['write', 'merge', 'sync']) {
  const xs = times.filter((x) => x[2] === p).map((x) => x[1]).sort((a, b) => a - b);
  console.log(p, { n: xs.length, max: xs.at(-1)?.toFixed(1), p50: xs[xs.length >> 1]?.toFixed(1) });
}
console.log({ N, writeMs: Math.round(writeMs), mergeMs: Math.round(mergeMs), syncMs: Math.round(syncMs) });
await server.close();
process.exit(0);
