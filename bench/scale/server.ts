import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.js';
import type { Actor } from '../../src/auth/actor.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { newId } from '../../src/ids.js';
import { freePort } from '../lib.js';
import { settle } from '../settle.js';
import { WorkerClient } from './worker-client.js';

/**
 * The server of the latency parts: the whole app built in this process (`buildApp`, as
 * bench/content does) on a store of its own (a SQLite file in a temporary directory, or a fresh
 * PostgreSQL schema dropped at the end), listening on loopback and called over HTTP. No
 * background worker runs (`jobs: false`): the bench brings the search index up to date itself
 * before it samples, so no job competes with the samples; a search still syncs inline the
 * spaces that changed since (what a reader gets right after a merge).
 */
export async function startInProcess(label: string) {
  const dir = mkdtempSync(path.join(tmpdir(), `quire-bench-scale-${label}-`));
  const schema = `bench_scale_${newId(8).toLowerCase()}`;
  const database = await openDatabase({
    databaseUrl: process.env.DATABASE_URL,
    sqliteFile: path.join(dir, 'quire.db'),
    pgSchema: schema,
  });
  await migrateToLatest(database);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    PORT: String(port),
    LOG_LEVEL: 'warn',
    QUIRE_RATE_LIMIT: '0',
    QUIRE_SITE_RATE_LIMIT: '0',
    QUIRE_DATA_DIR: dir,
    QUIRE_PUBLIC_URL: url,
    // Postings on or off for a run (unset: the default).
    ...(process.env.QUIRE_SEARCH_POSTINGS_PAGES
      ? { QUIRE_SEARCH_POSTINGS_PAGES: process.env.QUIRE_SEARCH_POSTINGS_PAGES }
      : {}),
  });
  const app = await buildApp({ config, database, logger: false, jobs: false });
  const { services } = app.quire;
  await app.listen({ port, host: '127.0.0.1' });

  const owner = await services.users.create({ email: 'owner@bench.test', displayName: 'Owner' });
  const token = (await services.tokens.create(owner.id, 'bench')).token;
  const actor: Actor = { userId: owner.id, tokenId: 'bench', email: owner.email };
  const client = new WorkerClient(url, token);
  /** A second connection for published pages (no token: a visitor). */
  const visitor = new WorkerClient(url);
  /** A third, with the token, for requests made while the others are sampled. */
  const background = new WorkerClient(url, token);

  return {
    url,
    database,
    db: database.db,
    dialect: database.dialect,
    services,
    actor,
    owner,
    client,
    visitor,
    background,
    /** Settles the database after the bulk load (bench/settle.ts). */
    settle: () => settle(database, schema),
    async close() {
      client.close();
      visitor.close();
      background.close();
      await app.close();
      if (database.dialect === 'postgres')
        await sql
          .raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
          .execute(database.db)
          .catch(() => {});
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
export type InProcess = Awaited<ReturnType<typeof startInProcess>>;
