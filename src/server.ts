import path from 'node:path';
import { buildApp } from './app.js';
import { bootstrapIfEmpty } from './bootstrap.js';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import type { App } from './http/types.js';

/** The database the configuration names: PostgreSQL when DATABASE_URL is set, else SQLite. */
export function openConfiguredDatabase(config: Config): Promise<Database> {
  return openDatabase({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, 'quire.db'),
  });
}

export interface RunningServer {
  app: App;
  database: Database;
  url: string;
  close(): Promise<void>;
}

/** `quire serve`: migrate, bootstrap an empty database, listen. */
export async function serve(config: Config, print: (line: string) => void): Promise<RunningServer> {
  const database = await openConfiguredDatabase(config);
  const report = await migrateToLatest(database);
  for (const name of report.applied) print(`Applied migration ${name}`);

  const app = await buildApp({ config, database });
  const boot = await bootstrapIfEmpty(config, app.quire.services);
  if (boot) {
    print(`Created the admin user ${boot.email} and the organization ${boot.orgId}.`);
    if (boot.generatedToken) {
      print(`Admin API token (shown once, store it now): ${boot.generatedToken}`);
    } else {
      print('Admin API token: the value of QUIRE_ADMIN_TOKEN.');
    }
  }
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  print(`Quire is listening on ${url} (public URL ${config.publicUrl}, ${database.dialect})`);

  return {
    app,
    database,
    url,
    async close() {
      await app.close();
      await database.close();
    },
  };
}
