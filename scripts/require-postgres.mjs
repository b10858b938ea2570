#!/usr/bin/env node
// Run by `npm run test:pg` before vitest: the PostgreSQL run must run on PostgreSQL. Without a
// usable DATABASE_URL the suite would quietly run on SQLite and pass, so stop here and say how.
import pg from 'pg';

const HOW =
  'Set DATABASE_URL=postgres://user:pass@127.0.0.1:5432/db (tests use a fresh schema of their own in it),\n' +
  'or run .ci/run, which starts a throwaway PostgreSQL cluster and runs the suite on it.';

function fail(problem) {
  process.stderr.write(`test:pg: ${problem}\n${HOW}\n`);
  process.exit(1);
}

const url = process.env.DATABASE_URL?.trim();
if (!url) fail('DATABASE_URL is not set, so the tests would run on SQLite.');
if (!/^postgres(ql)?:\/\//.test(url))
  fail(`DATABASE_URL is not a PostgreSQL URL (it starts "${url.split(':')[0]}:").`);

const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
try {
  await client.connect();
  const { rows } = await client.query('show server_version');
  process.stderr.write(`test:pg: running on PostgreSQL ${rows[0].server_version}\n`);
} catch (error) {
  const where = new URL(url);
  fail(`cannot reach PostgreSQL at ${where.hostname}:${where.port || 5432} (${error.message}).`);
} finally {
  await client.end().catch(() => {});
}
