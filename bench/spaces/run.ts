/**
 * bench/spaces: an organization with 10,000 spaces in 200 collections nested 5 deep, and a user
 * in 50 teams. Measures listing every space page by page (limit 100) as that user, the ratio of
 * the last page's latency to the first (keyset pagination keeps it flat), and one permission
 * resolution for a space 5 collections deep.
 *
 *   npm run bench:spaces                            # SQLite
 *   DATABASE_URL=postgres://... npm run bench:spaces  # PostgreSQL
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.js';
import type { Actor } from '../../src/auth/actor.js';
import { digestToken } from '../../src/auth/tokens.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { newId } from '../../src/ids.js';
import { freePort, median } from '../lib.js';

const SPACES = Number(process.env.BENCH_SPACES ?? 10_000);
const CHAINS = 40;
const DEPTH = 5;
const TEAMS = 50;
const log = (line: string) => process.stdout.write(`${line}\n`);

const dir = mkdtempSync(path.join(tmpdir(), 'quire-bench-spaces-'));
const schema = `bench_${newId(8).toLowerCase()}`;
const database = await openDatabase({
  databaseUrl: process.env.DATABASE_URL,
  sqliteFile: path.join(dir, 'quire.db'),
  pgSchema: schema,
});
await migrateToLatest(database);
const port = await freePort();
const config = loadConfig({ PORT: String(port), LOG_LEVEL: 'warn', QUIRE_RATE_LIMIT: '0' });
const app = await buildApp({ config, database, logger: false, jobs: false });
const { services } = app.quire;
const db = database.db;

log(
  `seeding ${SPACES} spaces in ${CHAINS * DEPTH} collections (${CHAINS} chains ${DEPTH} deep), ${TEAMS} teams on ${database.dialect}`,
);
const seedStart = performance.now();
const owner = await services.users.create({ email: 'owner@bench.test', displayName: 'Owner' });
const org = await services.orgs.create(owner.id, { title: 'Bench org' });
const orgId = org.row.id;
const reader = await services.users.create({ email: 'reader@bench.test', displayName: 'Reader' });
const readerToken = (await services.tokens.create(reader.id, 'bench')).token;
const now = new Date().toISOString();

await db.transaction().execute(async (tx) => {
  await tx
    .insertInto('members')
    .values({
      org_id: orgId,
      user_id: reader.id,
      role: 'read',
      joined_at: now,
      last_seen_at: null,
      disabled: 0,
      sso: 0,
    })
    .execute();
  const collections: string[] = [];
  for (let chain = 0; chain < CHAINS; chain++) {
    let parent: string | null = null;
    for (let level = 0; level < DEPTH; level++) {
      const id = newId();
      await tx
        .insertInto('collections')
        .values({
          id,
          org_id: orgId,
          parent_id: parent,
          title: `C${chain}.${level}`,
          description: null,
          // every other chain is closed to members by default: only team grants open it
          default_level: level === 0 && chain % 2 === 1 ? null : 'inherit',
          position: (level + 1) * 65536,
          created_at: now,
          updated_at: now,
          deleted_at: null,
        })
        .execute();
      collections.push(id);
      parent = id;
    }
  }
  for (let t = 0; t < TEAMS; t++) {
    const teamId = newId();
    await tx
      .insertInto('teams')
      .values({ id: teamId, org_id: orgId, title: `Team ${t}`, created_at: now })
      .execute();
    await tx
      .insertInto('team_members')
      .values({ team_id: teamId, user_id: reader.id, org_id: orgId, role: 'member', joined_at: now })
      .execute();
    // half the closed chains are opened to the reader through a team
    const chain = (t * 2 + 1) % CHAINS;
    if (t < CHAINS / 4) {
      await tx
        .insertInto('grants')
        .values({
          org_id: orgId,
          target_type: 'collection',
          target_id: collections[chain * DEPTH]!,
          principal_type: 'team',
          principal_id: teamId,
          role: 'edit',
          created_at: now,
        })
        .execute();
    }
  }
  const rows = [];
  for (let i = 0; i < SPACES; i++) {
    const id = newId();
    const created = new Date(Date.parse(now) + i).toISOString();
    rows.push({
      id,
      org_id: orgId,
      parent_id: collections[i % collections.length]!,
      title: `Space ${i}`,
      emoji: null,
      icon_url: null,
      visibility: 'private' as const,
      edit_mode: 'live' as const,
      language: null,
      default_level: 'inherit' as const,
      merge_rules: '{"type":"inherit"}',
      revision_id: `rev-${id}`,
      position: (Math.floor(i / collections.length) + 1) * 65536,
      comments: 0,
      change_requests: 0,
      change_requests_open: 0,
      change_requests_draft: 0,
      created_at: created,
      updated_at: created,
      deleted_at: null,
    });
    if (rows.length === 500) await tx.insertInto('spaces').values(rows.splice(0)).execute();
  }
  if (rows.length > 0) await tx.insertInto('spaces').values(rows).execute();
});
log(`seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

await app.listen({ port, host: '127.0.0.1' });
const base = `http://127.0.0.1:${port}/v1/orgs/${orgId}/spaces?limit=100`;
const headers = { authorization: `Bearer ${readerToken}` };

async function fetchPage(
  page?: string,
): Promise<{ ms: number; next?: string; count: number; items: number }> {
  const start = performance.now();
  const res = await fetch(page ? `${base}&page=${encodeURIComponent(page)}` : base, { headers });
  const body = (await res.json()) as { items: unknown[]; next?: { page: string }; count: number };
  if (res.status !== 200) throw new Error(`list answered ${res.status}: ${JSON.stringify(body)}`);
  return {
    ms: performance.now() - start,
    next: body.next?.page,
    count: body.count,
    items: body.items.length,
  };
}

// Walk every page once (warm-up), remembering the cursor of the last page.
let cursor: string | undefined;
let lastCursor: string | undefined;
let pages = 0;
let listed = 0;
let visible = 0;
const walkStart = performance.now();
do {
  const page = await fetchPage(cursor);
  pages++;
  listed += page.items;
  visible = page.count;
  lastCursor = cursor;
  cursor = page.next;
} while (cursor);
const walkMs = performance.now() - walkStart;
log(
  `listed ${listed} of ${visible} visible spaces in ${pages} pages: ${walkMs.toFixed(0)} ms (${(walkMs / pages).toFixed(1)} ms/page)`,
);

const first: number[] = [];
const last: number[] = [];
for (let i = 0; i < 30; i++) {
  first.push((await fetchPage()).ms);
  last.push((await fetchPage(lastCursor)).ms);
}
const firstMs = median(first);
const lastMs = median(last);
log(
  `first page median ${firstMs.toFixed(2)} ms, last page median ${lastMs.toFixed(2)} ms: ratio ${(lastMs / firstMs).toFixed(2)} (target <= 1.5)`,
);

// One permission resolution for a space 5 collections deep, as the reader (cache off the path:
// each round uses a space not asked for before).
const deepSpaces = await db
  .selectFrom('spaces')
  .select('id')
  .where('parent_id', 'in', db.selectFrom('collections').select('id').where('title', 'like', 'C%.4'))
  .limit(2000)
  .execute();
const reader_: Actor = {
  userId: reader.id,
  tokenId: (
    await db
      .selectFrom('api_tokens')
      .select('id')
      .where('lookup', '=', digestToken(readerToken).lookup)
      .executeTakeFirstOrThrow()
  ).id,
  email: reader.email,
};
const times: number[] = [];
let allowed = 0;
for (const { id } of deepSpaces) {
  const start = performance.now();
  try {
    await services.authz.space(reader_, id, 'view');
    allowed++;
  } catch {
    // a closed chain: resolution still ran to the end
  }
  times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
log(
  `permission resolution, space 5 collections deep: median ${median(times).toFixed(3)} ms, p99 ${times[Math.floor(times.length * 0.99)]!.toFixed(3)} ms over ${times.length} spaces (${allowed} readable; target < 1 ms)`,
);

await app.close();
if (process.env.DATABASE_URL)
  await sql
    .raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    .execute(db)
    .catch(() => {});
await database.close();
rmSync(dir, { recursive: true, force: true });
