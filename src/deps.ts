import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Database, Db, Dialect } from './db/database.js';
import type { Urls } from './http/urls.js';

/** What every service is built from. */
export interface Deps {
  config: Config;
  database: Database;
  db: Db;
  dialect: Dialect;
  clock: Clock;
  urls: Urls;
  log: FastifyBaseLogger;
}
