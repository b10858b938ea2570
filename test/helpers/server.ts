import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { GitBookAPI } from '@gitbook/api';
import { buildApp } from '../../src/app.js';
import { bootstrapIfEmpty } from '../../src/bootstrap.js';
import type { Clock } from '../../src/clock.js';
import { type Config, loadConfig } from '../../src/config.js';
import { type Database, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { App } from '../../src/http/types.js';
import { newId } from '../../src/ids.js';
import { apiClient } from './client.js';
import { freePort } from './net.js';

export interface TestServer {
  url: string;
  app: App;
  database: Database;
  config: Config;
  admin: { userId: string; orgId: string; token: string; api: GitBookAPI };
  close(): Promise<void>;
}

export interface TestServerOptions {
  clock?: Clock;
  env?: Record<string, string>;
  /** Run the background worker; by default tests run due jobs themselves (jobs.runDue()). */
  worker?: boolean;
  /** Capture the server's log lines (level debug) into this array. */
  logs?: string[];
  /** SQLite in a file of the data directory, as `quire serve` keeps it, rather than in memory. */
  fileDatabase?: boolean;
}

/**
 * A real listening Quire server on a fresh database: SQLite in memory, or a new PostgreSQL
 * schema when DATABASE_URL is set (dropped on close).
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const port = await freePort();
  const databaseUrl = process.env.DATABASE_URL;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-test-'));
  const config = loadConfig({
    PORT: String(port),
    QUIRE_PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'silent',
    QUIRE_RATE_LIMIT: '100000',
    QUIRE_ADMIN_EMAIL: 'admin@quire.test',
    QUIRE_DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...options.env,
  });
  const schema = databaseUrl ? `test_${newId(12).toLowerCase()}` : undefined;
  const database = await openDatabase({
    databaseUrl,
    sqliteFile: options.fileDatabase ? path.join(dataDir, 'quire.db') : ':memory:',
    ...(schema ? { pgSchema: schema } : {}),
    pgPoolSize: 4,
  });
  await migrateToLatest(database);
  // QUIRE_TEST_LOG=error (or any level) shows the server's logs while debugging a test.
  const captured = options.logs;
  const logger = captured
    ? { level: 'debug', stream: { write: (line: string) => void captured.push(line) } }
    : process.env.QUIRE_TEST_LOG
      ? { level: process.env.QUIRE_TEST_LOG, stream: process.stderr }
      : false;
  const app = await buildApp({
    config,
    database,
    logger,
    jobs: options.worker ? { pollMs: 50 } : false,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const boot = await bootstrapIfEmpty(config, app.quire.services, database);
  if (!boot?.generatedToken) throw new Error('test server bootstrap did not issue a token');
  const admin = await app.quire.services.users.findByEmail(boot.email);
  await app.listen({ port, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    app,
    database,
    config,
    admin: {
      userId: admin!.id,
      orgId: boot.orgId,
      token: boot.generatedToken,
      api: apiClient(url, boot.generatedToken),
    },
    async close() {
      await app.close();
      if (schema && databaseUrl) {
        const { sql } = await import('kysely');
        await sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).execute(database.db);
      }
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
