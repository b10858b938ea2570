import path from 'node:path';
import type { BootstrapResult } from './bootstrap.js';
import { chromiumSource } from './browser/chromium.js';
import type { Config } from './config.js';
import { describeS3 } from './content/s3-blob-store.js';

export interface BannerFacts {
  config: Config;
  /** The address the server is bound to, e.g. http://127.0.0.1:8080. */
  listening: string;
  version: string;
  /** Migrations applied at this start (empty when the database was up to date). */
  migrations: readonly string[];
  /** What the first start created; undefined on later starts. */
  boot: BootstrapResult | undefined;
}

/**
 * What `quire serve` prints before its JSON logs, so someone starting it for the first time sees
 * where to go, where the data is, the admin token (once) and how to stop it.
 */
export function startupBanner({ config, listening, version, migrations, boot }: BannerFacts): string[] {
  const applied = migrations.length > 0 ? ` (${count(migrations.length, 'migration')} applied)` : '';
  const lines = [
    `Quire ${version} is listening on ${listening}`,
    `  Open   ${config.publicUrl} in a browser to sign in (the API is under /v1, its reference at /docs)`,
    `  Data   ${describeStore(config)}${applied}`,
    `  Translations  ${describeTranslation(config)}`,
    `  PDF    ${describePdf(config)}`,
  ];
  if (boot) {
    const token = boot.generatedToken;
    lines.push(
      `  Admin  ${boot.email}, admin of the new organization ${boot.orgId}`,
      token
        ? `  Admin API token (shown once, store it now): ${token}`
        : '  Admin API token: the value of QUIRE_ADMIN_TOKEN',
      `         try: curl -H "Authorization: Bearer ${token ?? '$QUIRE_ADMIN_TOKEN'}" ${config.publicUrl}/v1/user`,
    );
  }
  lines.push('  Stop   Ctrl+C (or SIGTERM)', `Logs follow as JSON lines (LOG_LEVEL=${config.logLevel}).`);
  return lines;
}

function describeStore(config: Config): string {
  const files = config.s3 ? `files in ${describeS3(config.s3)}` : `files in ${config.dataDir}`;
  if (!config.databaseUrl) return `SQLite database ${path.join(config.dataDir, 'quire.db')}, ${files}`;
  // Never print the password: only where the database is.
  const url = new URL(config.databaseUrl);
  const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
  return `PostgreSQL ${user}${url.host}${url.pathname}, ${files}`;
}

function describeTranslation(config: Config): string {
  const t = config.translation;
  if (!t) return 'off: no service configured (QUIRE_TRANSLATION_PROVIDER; see the README)';
  if (t.provider === 'pseudo') return 'pseudo-localisation (for trying the feature; not real translations)';
  return `${t.provider} at ${t.url}${t.model ? ` (${t.model})` : ''}`;
}

function describePdf(config: Config): string {
  const source = chromiumSource(config.pdf.chromiumPath);
  if (source === undefined)
    return 'off: no Chromium (QUIRE_CHROMIUM_PATH); print URLs lead to print-ready HTML';
  return source === 'packaged' ? 'Chromium from the @sparticuz/chromium package' : `Chromium at ${source}`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
