#!/usr/bin/env -S node --max-semi-space-size=64
import { parseArgs } from 'node:util';
import { parseTokenLifetime, tokenExpiry } from './auth/token-lifetime.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { ApiError } from './errors.js';
import type { Services } from './services.js';

// The server and its services load only for the commands that need them, so `help`, a usage
// error or a configuration error answers at once.
const server = () => import('./server.js');

const USAGE = `Usage: quire <command> [options]

Commands:
  serve                                  Start the server (the default; what \`npm start\` runs)
  migrate                                Apply database migrations and exit
  user create --email E [--name N]       Create a user
  token create --email E [--label L] [--expires-in DAYS]
                                         Create an API token (and the user if absent); prints only the token
  token list --email E                   List a user's tokens (ids, labels, dates; never the secrets)
  token revoke (--token T | --id ID)     Revoke a token at once
  org create --title T --owner E         Create an organization whose admin is E (created if absent)
  login-link --email E                   Print a one-time browser sign-in link for E (valid 15 minutes)
  help                                   Show this help

Configuration comes from the environment; see the README.`;

const SHUTDOWN_GRACE_MS = 10_000;

const err = (line: string) => process.stderr.write(`${line}\n`);
const out = (line: string) => process.stdout.write(`${line}\n`);

class UsageError extends Error {}

function option(values: Record<string, string | boolean | undefined>, name: string, required: true): string;
function option(
  values: Record<string, string | boolean | undefined>,
  name: string,
  required?: false,
): string | undefined;
function option(values: Record<string, string | boolean | undefined>, name: string, required = false) {
  const value = values[name];
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (required) throw new UsageError(`--${name} is required`);
  return undefined;
}

/** Runs an admin command against the configured database, migrated first. */
async function withServices<T>(config: Config, run: (services: Services) => Promise<T>): Promise<T> {
  return (await server()).withServices(config, run);
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      label: { type: 'string' },
      token: { type: 'string' },
      id: { type: 'string' },
      title: { type: 'string' },
      owner: { type: 'string' },
      'expires-in': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals.join(' ') || 'serve';
  if (values.help || command === 'help') {
    out(USAGE);
    return 0;
  }
  const config = loadConfig();

  switch (command) {
    case 'serve': {
      const running = await (await server()).serve(config, out);
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) {
          err(`Received ${signal} again, exiting without waiting`);
          process.exit(1);
        }
        stopping = true;
        err(`Received ${signal}, shutting down (finishing requests and the job in hand)`);
        // A job or a client that holds on must not keep the process alive for good: what is left
        // unfinished is recovered by the next start (jobs are leased).
        setTimeout(() => {
          err(`Shutdown took more than ${SHUTDOWN_GRACE_MS / 1000} s, exiting without waiting`);
          process.exit(1);
        }, SHUTDOWN_GRACE_MS).unref();
        running.close().then(
          () => process.exit(0),
          (error: unknown) => {
            err(`Shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
            process.exit(1);
          },
        );
      };
      process.on('SIGINT', () => stop('SIGINT'));
      process.on('SIGTERM', () => stop('SIGTERM'));
      return -1;
    }
    case 'migrate': {
      const applied = await (await server()).migrateConfigured(config);
      for (const name of applied) err(`Applied migration ${name}`);
      err(applied.length ? 'Database is up to date.' : 'Nothing to migrate; database is up to date.');
      return 0;
    }
    case 'user create':
      return withServices(config, async (services) => {
        const user = await services.users.create({
          email: option(values, 'email', true),
          displayName: option(values, 'name'),
        });
        out(user.id);
        err(`Created user ${user.email} (${user.display_name}).`);
        return 0;
      });
    case 'token create': {
      const parsed = parseTokenLifetime(option(values, 'expires-in'));
      if ('problem' in parsed) throw new UsageError(`--expires-in ${parsed.problem}`);
      const lifetime = parsed.days;
      return withServices(config, async (services) => {
        const { user, created } = await services.users.findOrCreate({ email: option(values, 'email', true) });
        if (created) err(`Created user ${user.email}.`);
        const issued = await services.tokens.create(
          user.id,
          option(values, 'label') ?? null,
          undefined,
          tokenExpiry(new Date(), lifetime),
        );
        out(issued.token);
        return 0;
      });
    }
    case 'token list':
      return withServices(config, async (services) => {
        const email = option(values, 'email', true);
        const user = await services.users.findByEmail(email);
        if (!user) throw new UsageError(`No user with the email ${email}`);
        for (const t of await services.tokens.list(user.id)) {
          const expiry = t.expiresAt ? `\texpires ${t.expiresAt}` : '';
          const state = t.revokedAt
            ? `revoked ${t.revokedAt}`
            : `last used ${t.lastUsedAt ?? 'never'}${expiry}`;
          out(`${t.id}\t${t.label ?? '-'}\tcreated ${t.createdAt}\t${state}`);
        }
        return 0;
      });
    case 'token revoke':
      return withServices(config, async (services) => {
        const target = option(values, 'token') ?? option(values, 'id');
        if (!target) throw new UsageError('give --token <token> or --id <token id>');
        const id = await services.tokens.revoke(target);
        err(`Revoked token ${id}.`);
        return 0;
      });
    case 'org create':
      return withServices(config, async (services) => {
        const { user, created } = await services.users.findOrCreate({ email: option(values, 'owner', true) });
        if (created) err(`Created user ${user.email}.`);
        const org = await services.orgs.create(user.id, { title: option(values, 'title', true) });
        out(org.row.id);
        err(`Created organization "${org.row.title}" with ${user.email} as admin.`);
        return 0;
      });
    case 'login-link':
      return withServices(config, async (services) => {
        const email = option(values, 'email', true);
        const link = await services.sessions.createLoginLink(email);
        if (!link) throw new UsageError(`No user with the email ${email}`);
        out(link.url);
        err(`Open it in a browser before ${link.expiresAt}; it signs ${email} in once.`);
        return 0;
      });
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    if (error instanceof ConfigError) {
      err(`Configuration error: ${error.message}`);
      err('Fix the environment variable and start again (see the README for every setting).');
    } else if (
      error instanceof UsageError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      err(`quire: ${(error as Error).message}\n\n${USAGE}`);
    } else if (error instanceof ApiError) {
      err(`quire: ${error.message}`);
    } else {
      err(`quire: ${(error as Error)?.stack ?? String(error)}`);
    }
    process.exit(1);
  },
);
