import { isIP } from 'node:net';
import path from 'node:path';
import { parseAllowEntry } from './http/allow-list.js';
import { decodeSecretsKey, SECRETS_KEY_BYTES } from './secret-box.js';

/**
 * The server's configuration. This module is the only place that reads `process.env`;
 * everything else receives a `Config`.
 */
export interface Config {
  port: number;
  host: string;
  /** PostgreSQL connection string; SQLite under `dataDir` when absent. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Absolute base URL without a trailing slash; every `urls.*` is built from it. */
  publicUrl: string;
  adminEmail: string;
  adminToken: string | undefined;
  /** Hosts, addresses and CIDR ranges (each optionally `:port`) outbound fetches may reach although private. */
  outboundAllow: string[];
  logLevel: LogLevel;
  /** API requests per minute per token (or per address without a valid one); 0 disables the limit. */
  rateLimitPerMinute: number;
  /** Published-site requests (pages, assets, file downloads) per minute per client address; 0 disables. */
  siteRateLimitPerMinute: number;
  /**
   * Which reverse proxies to believe about the client address (`X-Forwarded-For`), in the forms
   * Fastify's `trustProxy` takes: false (ignore the header), a number of proxy hops in front of
   * Quire, or the proxies' addresses and CIDR ranges.
   */
  trustProxy: false | number | string[];
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** How often OpenAPI specs with a source URL are fetched and processed again; 0: never. */
  openapiRefreshMinutes: number;
  /** How long one fetch of an OpenAPI spec (or of a file it refers to) may take. */
  openapiFetchTimeoutMs: number;
  /**
   * QUIRE_SECRETS_KEY: the AES-256 key of secrets stored in the database (integration secrets).
   * Unset: a key generated once into `dataDir` (src/secret-box.ts).
   */
  secretsKey: Buffer | undefined;
  /** How long an integration script may take on one event before its process is stopped. */
  integrationTimeoutMs: number;
  /** The V8 heap of one integration script. */
  integrationMemoryMb: number;
  /** The machine translation service translations use; undefined: translations do not run. */
  translation: TranslationConfig | undefined;
  /** How long after a merge into a translated space its translations run (merges in between wait with it). */
  translationDebounceMs: number;
  /** Printing change requests and spaces as PDF (src/areas/pdf). */
  pdf: PdfConfig;
  /**
   * Where uploaded files go when several Quire processes share them: an S3-compatible bucket.
   * Undefined: files under `dataDir/blobs`.
   */
  s3: S3Config | undefined;
  /**
   * From how many pages a search of one space is ranked from the space's postings rather than
   * by the database's full-text engine (src/search/postings/search.ts); 'off': postings are
   * neither kept nor used; undefined: the default, every space (`postingsPagesFor`).
   */
  searchPostingsPages: number | 'off' | undefined;
}

/** QUIRE_S3_*: the bucket files are stored in (src/content/s3-blob-store.ts). */
export interface S3Config {
  bucket: string;
  /** Base URL of an S3-compatible server; undefined: AWS S3 in `region`. */
  endpoint: string | undefined;
  region: string;
  /** Both or neither; neither: the AWS SDK's default credential chain (environment, profile, role). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** Key prefix without leading or trailing slashes; '' for none. */
  prefix: string;
  /** `http://endpoint/bucket/key` rather than `http://bucket.endpoint/key`. */
  forcePathStyle: boolean;
}

export interface PdfConfig {
  /**
   * QUIRE_CHROMIUM_PATH: the browser that prints. Unset: the system's Chromium, else the one the
   * `@sparticuz/chromium` package carries (src/browser/chromium.ts); `none`: no PDFs, the print
   * URLs lead to the print-ready HTML.
   */
  chromiumPath: string | undefined;
  /** How long one PDF may take to print, once it has its turn. */
  timeoutMs: number;
  /** The most content pages one PDF holds; a larger selection prints its first pages and says so. */
  maxPages: number;
}

export const TRANSLATION_PROVIDERS = ['openai', 'libretranslate', 'deepl', 'pseudo'] as const;
export type TranslationProviderName = (typeof TRANSLATION_PROVIDERS)[number];

/** Operator configuration only: never taken from API input. */
export interface TranslationConfig {
  provider: TranslationProviderName;
  /** Base URL of the service (not for `pseudo`). */
  url: string | undefined;
  apiKey: string | undefined;
  /** The model of an OpenAI-compatible server. */
  model: string | undefined;
  /** One request to the service. */
  timeoutMs: number;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$|^[^\s@]+@localhost$/;

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) {
    throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  }
  return value;
}

function httpUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(
      name,
      `expected an absolute http(s) URL such as https://docs.example.com, got "${raw}"`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(name, `expected an http or https URL, got "${url.protocol}"`);
  }
  if (url.search || url.hash) throw new ConfigError(name, 'must not contain a query string or a fragment');
  return url.toString().replace(/\/+$/, '');
}

function databaseUrl(env: Env): string | undefined {
  const raw = read(env, 'DATABASE_URL');
  if (raw === undefined) return undefined;
  if (!/^postgres(ql)?:\/\//.test(raw)) {
    throw new ConfigError(
      'DATABASE_URL',
      'expected a PostgreSQL URL such as postgres://user:pass@127.0.0.1:5432/quire',
    );
  }
  try {
    new URL(raw);
  } catch {
    throw new ConfigError('DATABASE_URL', 'is not a valid URL');
  }
  return raw;
}

function outboundAllow(env: Env): string[] {
  const raw = read(env, 'QUIRE_OUTBOUND_ALLOW');
  if (raw === undefined) return [];
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    // Host, address or CIDR range, each with an optional :port (src/http/allow-list.ts).
    const parsed = parseAllowEntry(entry);
    if ('error' in parsed) throw new ConfigError('QUIRE_OUTBOUND_ALLOW', parsed.error);
  }
  return entries;
}

/** Names proxy-addr gives to address ranges, accepted in QUIRE_TRUST_PROXY lists. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function trustProxy(env: Env): false | number | string[] {
  const name = 'QUIRE_TRUST_PROXY';
  const raw = read(env, name);
  if (raw === undefined) return false;
  const lower = raw.toLowerCase();
  if (['false', 'off', 'no', '0'].includes(lower)) return false;
  // One hop: the right-most X-Forwarded-For entry, the one the proxy in front of Quire added.
  if (['true', 'on', 'yes'].includes(lower)) return 1;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 16) throw new ConfigError(name, `expected at most 16 proxy hops, got ${hops}`);
    return hops;
  }
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0)
    throw new ConfigError(name, `expected true, a number of hops or addresses, got "${raw}"`);
  for (const entry of entries) {
    if (PROXY_RANGE_NAMES.has(entry.toLowerCase())) continue;
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    const prefixOk =
      prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
    if (family === 0 || !prefixOk || extra !== undefined) {
      throw new ConfigError(
        name,
        `"${entry}" is not a proxy address or CIDR range; use true, a number of hops, or a comma-separated list such as 10.0.0.1, 172.16.0.0/12`,
      );
    }
  }
  return entries;
}

function secretsKey(env: Env): Buffer | undefined {
  const raw = read(env, 'QUIRE_SECRETS_KEY');
  if (raw === undefined) return undefined;
  const key = decodeSecretsKey(raw);
  if (!key) {
    throw new ConfigError(
      'QUIRE_SECRETS_KEY',
      `must be ${SECRETS_KEY_BYTES} random bytes in base64 (44 characters), such as the output of \`openssl rand -base64 32\``,
    );
  }
  return key;
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const host = read(env, 'HOST') ?? '127.0.0.1';
  if (!/^[a-zA-Z0-9.:_-]+$/.test(host))
    throw new ConfigError('HOST', `"${host}" is not a host name or address`);

  const publicRaw = read(env, 'QUIRE_PUBLIC_URL');
  const publicUrl = publicRaw ? httpUrl('QUIRE_PUBLIC_URL', publicRaw) : `http://localhost:${port}`;

  const adminEmail = (read(env, 'QUIRE_ADMIN_EMAIL') ?? 'admin@localhost').toLowerCase();
  if (!EMAIL.test(adminEmail)) {
    throw new ConfigError('QUIRE_ADMIN_EMAIL', `"${adminEmail}" is not an email address`);
  }

  const adminToken = read(env, 'QUIRE_ADMIN_TOKEN');
  if (adminToken !== undefined && !/^[\x21-\x7e]{32,256}$/.test(adminToken)) {
    throw new ConfigError(
      'QUIRE_ADMIN_TOKEN',
      'must be 32 to 256 printable characters without spaces (for example the output of `openssl rand -hex 32`)',
    );
  }

  const logLevel = (read(env, 'LOG_LEVEL') ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }

  return {
    port,
    host,
    databaseUrl: databaseUrl(env),
    dataDir: path.resolve(read(env, 'QUIRE_DATA_DIR') ?? './data'),
    publicUrl,
    adminEmail,
    adminToken,
    outboundAllow: outboundAllow(env),
    logLevel: logLevel as LogLevel,
    rateLimitPerMinute: integer(env, 'QUIRE_RATE_LIMIT', 3000, 0, 10_000_000),
    siteRateLimitPerMinute: integer(env, 'QUIRE_SITE_RATE_LIMIT', 6000, 0, 10_000_000),
    trustProxy: trustProxy(env),
    bodyLimit: integer(env, 'QUIRE_BODY_LIMIT', 5 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    openapiRefreshMinutes: integer(env, 'QUIRE_OPENAPI_REFRESH_MINUTES', 6 * 60, 0, 366 * 24 * 60),
    openapiFetchTimeoutMs: integer(env, 'QUIRE_OPENAPI_FETCH_TIMEOUT_MS', 30_000, 100, 600_000),
    secretsKey: secretsKey(env),
    integrationTimeoutMs: integer(env, 'QUIRE_INTEGRATION_TIMEOUT_MS', 15_000, 100, 600_000),
    integrationMemoryMb: integer(env, 'QUIRE_INTEGRATION_MEMORY_MB', 128, 16, 4096),
    translation: translationConfig(env),
    translationDebounceMs: integer(env, 'QUIRE_TRANSLATION_DEBOUNCE_MS', 60_000, 0, 24 * 60 * 60 * 1000),
    pdf: {
      chromiumPath: read(env, 'QUIRE_CHROMIUM_PATH'),
      timeoutMs: integer(env, 'QUIRE_PDF_TIMEOUT_MS', 120_000, 1000, 30 * 60_000),
      maxPages: integer(env, 'QUIRE_PDF_MAX_PAGES', 500, 1, 100_000),
    },
    s3: s3Config(env),
    searchPostingsPages: searchPostingsPages(env),
  };
}

function searchPostingsPages(env: Env): number | 'off' | undefined {
  const name = 'QUIRE_SEARCH_POSTINGS_PAGES';
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  if (raw.toLowerCase() === 'off') return 'off';
  return integer(env, name, 0, 0, 1_000_000_000);
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const lower = raw.toLowerCase();
  if (['true', 'on', 'yes', '1'].includes(lower)) return true;
  if (['false', 'off', 'no', '0'].includes(lower)) return false;
  throw new ConfigError(name, `expected true or false, got "${raw}"`);
}

/** AWS's rules for new bucket names, which S3-compatible servers follow too. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** Key prefix segments: the characters S3 calls safe in keys. */
const PREFIX_SEGMENT = /^[A-Za-z0-9!_.*'()-]+$/;

function s3Config(env: Env): S3Config | undefined {
  const bucket = read(env, 'QUIRE_S3_BUCKET');
  if (bucket === undefined) {
    // A setting without the bucket would silently keep files on local disk, which a deployment of
    // several processes cannot share: say so instead.
    const stray = Object.keys(env).find(
      (name) => name.startsWith('QUIRE_S3_') && read(env, name) !== undefined,
    );
    if (stray !== undefined)
      throw new ConfigError(
        'QUIRE_S3_BUCKET',
        `is needed when ${stray} is set (files stay on local disk without it)`,
      );
    return undefined;
  }
  if (!BUCKET.test(bucket) || bucket.includes('..')) {
    throw new ConfigError(
      'QUIRE_S3_BUCKET',
      `"${bucket}" is not a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit`,
    );
  }

  const endpointRaw = read(env, 'QUIRE_S3_ENDPOINT');
  const endpoint = endpointRaw === undefined ? undefined : httpUrl('QUIRE_S3_ENDPOINT', endpointRaw);
  if (endpoint !== undefined) {
    const url = new URL(endpoint);
    // The banner and error messages show the endpoint: keys belong in their own variables.
    if (url.username || url.password)
      throw new ConfigError(
        'QUIRE_S3_ENDPOINT',
        'must not contain credentials; set QUIRE_S3_ACCESS_KEY_ID and QUIRE_S3_SECRET_ACCESS_KEY',
      );
  }

  const region = read(env, 'QUIRE_S3_REGION') ?? 'us-east-1';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(region))
    throw new ConfigError('QUIRE_S3_REGION', `"${region}" is not a region name such as us-east-1`);

  const accessKeyId = read(env, 'QUIRE_S3_ACCESS_KEY_ID');
  const secretAccessKey = read(env, 'QUIRE_S3_SECRET_ACCESS_KEY');
  if (accessKeyId !== undefined && secretAccessKey === undefined)
    throw new ConfigError('QUIRE_S3_SECRET_ACCESS_KEY', 'is needed with QUIRE_S3_ACCESS_KEY_ID');
  if (secretAccessKey !== undefined && accessKeyId === undefined)
    throw new ConfigError('QUIRE_S3_ACCESS_KEY_ID', 'is needed with QUIRE_S3_SECRET_ACCESS_KEY');

  const prefix = (read(env, 'QUIRE_S3_PREFIX') ?? '').replace(/^\/+|\/+$/g, '');
  if (
    prefix !== '' &&
    (prefix.length > 512 ||
      prefix
        .split('/')
        .some((segment) => !PREFIX_SEGMENT.test(segment) || segment === '.' || segment === '..'))
  ) {
    throw new ConfigError(
      'QUIRE_S3_PREFIX',
      `"${prefix.slice(0, 80)}" is not a key prefix: up to 512 characters of letters, digits and !_.*'()- in segments separated by single slashes`,
    );
  }

  return {
    bucket,
    endpoint,
    region,
    accessKeyId,
    secretAccessKey,
    prefix,
    // Virtual-host addressing needs a DNS name per bucket, which S3-compatible servers rarely have.
    forcePathStyle: boolean(env, 'QUIRE_S3_FORCE_PATH_STYLE', endpoint !== undefined),
  };
}

const DEFAULT_TRANSLATION_URLS: Partial<Record<TranslationProviderName, string>> = {
  deepl: 'https://api.deepl.com',
};

function translationConfig(env: Env): TranslationConfig | undefined {
  const provider = read(env, 'QUIRE_TRANSLATION_PROVIDER')?.toLowerCase();
  if (provider === undefined) return undefined;
  if (!(TRANSLATION_PROVIDERS as readonly string[]).includes(provider)) {
    throw new ConfigError(
      'QUIRE_TRANSLATION_PROVIDER',
      `must be one of ${TRANSLATION_PROVIDERS.join(', ')}, got "${provider}"`,
    );
  }
  const name = provider as TranslationProviderName;
  const rawUrl = read(env, 'QUIRE_TRANSLATION_URL') ?? DEFAULT_TRANSLATION_URLS[name];
  if (name !== 'pseudo' && rawUrl === undefined) {
    throw new ConfigError(
      'QUIRE_TRANSLATION_URL',
      `is needed for the ${name} provider (the base URL of the service, for example http://127.0.0.1:11434 for a local Ollama)`,
    );
  }
  const model = read(env, 'QUIRE_TRANSLATION_MODEL');
  if (name === 'openai' && model === undefined) {
    throw new ConfigError(
      'QUIRE_TRANSLATION_MODEL',
      'is needed for the openai provider (for example llama3.1)',
    );
  }
  const apiKey = read(env, 'QUIRE_TRANSLATION_API_KEY');
  if (name === 'deepl' && apiKey === undefined) {
    throw new ConfigError('QUIRE_TRANSLATION_API_KEY', 'is needed for the deepl provider');
  }
  return {
    provider: name,
    url: rawUrl === undefined ? undefined : httpUrl('QUIRE_TRANSLATION_URL', rawUrl),
    apiKey,
    model,
    timeoutMs: integer(env, 'QUIRE_TRANSLATION_TIMEOUT_MS', 60_000, 100, 600_000),
  };
}
