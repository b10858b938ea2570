import path from 'node:path';
import pino from 'pino';
import { buildApp } from './app.js';
import { startupBanner } from './banner.js';
import { bootstrapIfEmpty } from './bootstrap.js';
import { systemClock } from './clock.js';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import type { App } from './http/types.js';
import { Urls } from './http/urls.js';
import { createServices, type Services } from './services.js';
import { VERSION } from './version.js';

/** The database the configuration names: PostgreSQL when DATABASE_URL is set, else SQLite. */
export function openConfiguredDatabase(config: Config): Promise<Database> {
  return openDatabase({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, 'quire.db'),
  });
}

/** `quire migrate`: the names of the migrations applied. */
export async function migrateConfigured(config: Config): Promise<string[]> {
  const database = await openConfiguredDatabase(config);
  try {
    return (await migrateToLatest(database)).applied;
  } finally {
    await database.close();
  }
}

/** Runs an admin command (`quire user create` ...) against the configured database, migrated first. */
export async function withServices<T>(config: Config, run: (services: Services) => Promise<T>): Promise<T> {
  const database = await openConfiguredDatabase(config);
  try {
    await migrateToLatest(database);
    const services = createServices({
      config,
      database,
      db: database.db,
      dialect: database.dialect,
      clock: systemClock,
      urls: new Urls(config.publicUrl),
      log: pino({ level: 'warn' }),
    });
    return await run(services);
  } finally {
    await database.close();
  }
}

export interface RunningServer {
  app: App;
  database: Database;
  url: string;
  close(): Promise<void>;
}

/**
 * `quire serve`: migrate, bootstrap an empty database, listen, then print the start-up banner.
 * Log lines written while starting (background jobs begin before the socket is bound) are held
 * back until the banner is out, so it is the first thing on the terminal.
 */
export async function serve(config: Config, print: (line: string) => void): Promise<RunningServer> {
  const database = await openConfiguredDatabase(config);
  const logs = new HeldStream(pino.destination({ dest: 1, sync: false }));
  try {
    const report = await migrateToLatest(database);
    const app = await buildApp({ config, database, logger: { level: config.logLevel, stream: logs } });
    const boot = await bootstrapIfEmpty(config, app.quire.services, database);
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    const lines = startupBanner({
      config,
      listening: url,
      version: VERSION,
      migrations: report.applied,
      boot,
    });
    for (const line of lines) print(line);
    return {
      app,
      database,
      url,
      async close() {
        await app.close();
        await database.close();
      },
    };
  } finally {
    logs.release();
  }
}

/** A log stream that keeps what is written until `release`, then passes everything through. */
class HeldStream {
  private held: string[] | undefined = [];

  constructor(private readonly target: { write(line: string): unknown }) {}

  write(line: string): void {
    if (this.held) this.held.push(line);
    else this.target.write(line);
  }

  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const line of held) this.target.write(line);
  }
}
