import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { postingsPagesFor } from '../../src/search/postings/search.js';

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: undefined,
      publicUrl: 'http://localhost:8080',
      adminEmail: 'admin@localhost',
      adminToken: undefined,
      outboundAllow: [],
      logLevel: 'info',
      rateLimitPerMinute: 3000,
      siteRateLimitPerMinute: 6000,
      trustProxy: false,
      openapiRefreshMinutes: 360,
      openapiFetchTimeoutMs: 30_000,
    });
    expect(config.dataDir.endsWith('/data')).toBe(true);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/quire',
      QUIRE_DATA_DIR: '/var/lib/quire',
      QUIRE_PUBLIC_URL: 'https://docs.example.com/',
      QUIRE_ADMIN_EMAIL: 'Root@Example.com',
      QUIRE_ADMIN_TOKEN: 'a'.repeat(40),
      QUIRE_OUTBOUND_ALLOW: '10.0.0.0/8, git.internal, 127.0.0.1',
      LOG_LEVEL: 'DEBUG',
      QUIRE_RATE_LIMIT: '0',
      QUIRE_SITE_RATE_LIMIT: '120',
      QUIRE_TRUST_PROXY: '10.0.0.1, 172.16.0.0/12, fd00::/8, loopback',
      QUIRE_BODY_LIMIT: '2048',
      QUIRE_OPENAPI_REFRESH_MINUTES: '0',
      QUIRE_OPENAPI_FETCH_TIMEOUT_MS: '5000',
      QUIRE_INTEGRATION_TIMEOUT_MS: '2000',
      QUIRE_INTEGRATION_MEMORY_MB: '64',
      QUIRE_TRANSLATION_PROVIDER: 'LibreTranslate',
      QUIRE_TRANSLATION_URL: 'http://127.0.0.1:5000/',
      QUIRE_TRANSLATION_API_KEY: 'key',
      QUIRE_TRANSLATION_TIMEOUT_MS: '9000',
      QUIRE_TRANSLATION_DEBOUNCE_MS: '0',
      QUIRE_CHROMIUM_PATH: '/opt/chromium/chrome',
      QUIRE_PDF_TIMEOUT_MS: '30000',
      QUIRE_PDF_MAX_PAGES: '50',
      QUIRE_S3_BUCKET: 'quire-files',
      QUIRE_S3_ENDPOINT: 'https://s3.internal:9000/',
      QUIRE_S3_REGION: 'eu-central-1',
      QUIRE_S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      QUIRE_S3_SECRET_ACCESS_KEY: 'secret/key+example',
      QUIRE_S3_PREFIX: '/docs/blobs/',
      QUIRE_S3_FORCE_PATH_STYLE: 'false',
      QUIRE_SEARCH_POSTINGS_PAGES: '500',
    });
    expect(config).toEqual({
      port: 9000,
      host: '0.0.0.0',
      databaseUrl: 'postgres://u:p@127.0.0.1:5432/quire',
      dataDir: '/var/lib/quire',
      publicUrl: 'https://docs.example.com',
      adminEmail: 'root@example.com',
      adminToken: 'a'.repeat(40),
      outboundAllow: ['10.0.0.0/8', 'git.internal', '127.0.0.1'],
      logLevel: 'debug',
      rateLimitPerMinute: 0,
      siteRateLimitPerMinute: 120,
      trustProxy: ['10.0.0.1', '172.16.0.0/12', 'fd00::/8', 'loopback'],
      bodyLimit: 2048,
      openapiRefreshMinutes: 0,
      openapiFetchTimeoutMs: 5000,
      integrationTimeoutMs: 2000,
      integrationMemoryMb: 64,
      translation: {
        provider: 'libretranslate',
        url: 'http://127.0.0.1:5000',
        apiKey: 'key',
        model: undefined,
        timeoutMs: 9000,
      },
      translationDebounceMs: 0,
      pdf: { chromiumPath: '/opt/chromium/chrome', timeoutMs: 30_000, maxPages: 50 },
      s3: {
        bucket: 'quire-files',
        endpoint: 'https://s3.internal:9000',
        region: 'eu-central-1',
        accessKeyId: 'AKIAEXAMPLE',
        secretAccessKey: 'secret/key+example',
        prefix: 'docs/blobs',
        forcePathStyle: false,
      },
      searchPostingsPages: 500,
    });
  });

  it('keeps search postings for every space unless told otherwise', () => {
    const setting = (value?: string) =>
      loadConfig(value === undefined ? {} : { QUIRE_SEARCH_POSTINGS_PAGES: value }).searchPostingsPages;
    expect(setting()).toBeUndefined();
    expect(postingsPagesFor(setting())).toBe(0);
    expect(postingsPagesFor(setting('2000'))).toBe(2_000);
    expect(postingsPagesFor(setting('off'))).toBeUndefined();
    expect(postingsPagesFor(setting('OFF'))).toBeUndefined();
    expect(() => setting('many')).toThrow(/QUIRE_SEARCH_POSTINGS_PAGES/);
  });

  it('keeps files on local disk unless QUIRE_S3_BUCKET is set', () => {
    expect(loadConfig({}).s3).toBeUndefined();
    expect(loadConfig({ QUIRE_S3_BUCKET: '' }).s3).toBeUndefined();
  });

  it('stores files in S3 with defaults for everything but the bucket', () => {
    // AWS itself: virtual-host addressing, the SDK's credential chain.
    expect(loadConfig({ QUIRE_S3_BUCKET: 'quire' }).s3).toEqual({
      bucket: 'quire',
      endpoint: undefined,
      region: 'us-east-1',
      accessKeyId: undefined,
      secretAccessKey: undefined,
      prefix: '',
      forcePathStyle: false,
    });
    // An S3-compatible server: path-style addressing unless told otherwise.
    const compatible = { QUIRE_S3_BUCKET: 'quire', QUIRE_S3_ENDPOINT: 'http://127.0.0.1:9000' };
    expect(loadConfig(compatible).s3).toMatchObject({
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
    });
    for (const [value, expected] of [
      ['true', true],
      ['1', true],
      ['yes', true],
      ['FALSE', false],
      ['0', false],
      ['off', false],
    ] as const) {
      expect(loadConfig({ ...compatible, QUIRE_S3_FORCE_PATH_STYLE: value }).s3?.forcePathStyle).toBe(
        expected,
      );
    }
    expect(
      loadConfig({ QUIRE_S3_BUCKET: 'quire', QUIRE_S3_FORCE_PATH_STYLE: 'true' }).s3?.forcePathStyle,
    ).toBe(true);
    expect(loadConfig({ QUIRE_S3_BUCKET: 'quire', QUIRE_S3_PREFIX: '/' }).s3?.prefix).toBe('');
    expect(loadConfig({ QUIRE_S3_BUCKET: 'my.bucket-1', QUIRE_S3_REGION: 'auto' }).s3).toMatchObject({
      bucket: 'my.bucket-1',
      region: 'auto',
    });
  });

  it('says what is wrong with the S3 settings', () => {
    const bucket = { QUIRE_S3_BUCKET: 'quire' };
    expect(() => loadConfig({ QUIRE_S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(
      'QUIRE_S3_BUCKET: is needed when QUIRE_S3_ENDPOINT is set',
    );
    expect(() => loadConfig({ QUIRE_S3_BUCKET: 'Quire_Files' })).toThrow(
      'QUIRE_S3_BUCKET: "Quire_Files" is not a bucket name',
    );
    expect(() => loadConfig({ ...bucket, QUIRE_S3_ENDPOINT: 'minio:9000' })).toThrow(
      'QUIRE_S3_ENDPOINT: expected an http or https URL, got "minio:"',
    );
    expect(() => loadConfig({ ...bucket, QUIRE_S3_ENDPOINT: 'http://key:secret@127.0.0.1:9000' })).toThrow(
      'QUIRE_S3_ENDPOINT: must not contain credentials',
    );
    expect(() => loadConfig({ ...bucket, QUIRE_S3_ACCESS_KEY_ID: 'AKIAEXAMPLE' })).toThrow(
      'QUIRE_S3_SECRET_ACCESS_KEY: is needed with QUIRE_S3_ACCESS_KEY_ID',
    );
    expect(() => loadConfig({ ...bucket, QUIRE_S3_SECRET_ACCESS_KEY: 'secret' })).toThrow(
      'QUIRE_S3_ACCESS_KEY_ID: is needed with QUIRE_S3_SECRET_ACCESS_KEY',
    );
    expect(() => loadConfig({ ...bucket, QUIRE_S3_PREFIX: 'a//b' })).toThrow(
      'QUIRE_S3_PREFIX: "a//b" is not a key prefix',
    );
    expect(() => loadConfig({ ...bucket, QUIRE_S3_FORCE_PATH_STYLE: 'maybe' })).toThrow(
      'QUIRE_S3_FORCE_PATH_STYLE: expected true or false, got "maybe"',
    );
  });

  it('bounds the PDF settings', () => {
    expect(() => loadConfig({ QUIRE_PDF_MAX_PAGES: '0' })).toThrow('QUIRE_PDF_MAX_PAGES: must be between 1');
    expect(() => loadConfig({ QUIRE_PDF_TIMEOUT_MS: 'soon' })).toThrow(
      'QUIRE_PDF_TIMEOUT_MS: expected a whole number',
    );
  });

  it('says what each translation service needs', () => {
    expect(() => loadConfig({ QUIRE_TRANSLATION_PROVIDER: 'google' })).toThrow(
      'QUIRE_TRANSLATION_PROVIDER: must be one of openai, libretranslate, deepl, pseudo, got "google"',
    );
    expect(() => loadConfig({ QUIRE_TRANSLATION_PROVIDER: 'openai' })).toThrow(
      /QUIRE_TRANSLATION_URL: is needed/,
    );
    expect(() =>
      loadConfig({ QUIRE_TRANSLATION_PROVIDER: 'openai', QUIRE_TRANSLATION_URL: 'http://127.0.0.1:11434' }),
    ).toThrow(/QUIRE_TRANSLATION_MODEL/);
    expect(() => loadConfig({ QUIRE_TRANSLATION_PROVIDER: 'deepl' })).toThrow(/QUIRE_TRANSLATION_API_KEY/);
    expect(loadConfig({ QUIRE_TRANSLATION_PROVIDER: 'pseudo' }).translation?.provider).toBe('pseudo');
    expect(loadConfig({}).translation).toBeUndefined();
  });

  it('builds the default public URL from PORT', () => {
    expect(loadConfig({ PORT: '3000' }).publicUrl).toBe('http://localhost:3000');
  });

  it('reads QUIRE_TRUST_PROXY as off, a number of hops, or proxy addresses', () => {
    const trust = (value: string) => loadConfig({ QUIRE_TRUST_PROXY: value }).trustProxy;
    expect(trust('')).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('0')).toBe(false);
    expect(trust('true')).toBe(1);
    expect(trust('1')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('192.0.2.7')).toEqual(['192.0.2.7']);
  });

  const bad: Array<[Record<string, string>, string]> = [
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ HOST: 'bad host' }, 'HOST'],
    [{ DATABASE_URL: 'mysql://localhost/quire' }, 'DATABASE_URL'],
    [{ QUIRE_PUBLIC_URL: 'docs.example.com' }, 'QUIRE_PUBLIC_URL'],
    [{ QUIRE_PUBLIC_URL: 'ftp://docs.example.com' }, 'QUIRE_PUBLIC_URL'],
    [{ QUIRE_PUBLIC_URL: 'https://docs.example.com/?x=1' }, 'QUIRE_PUBLIC_URL'],
    [{ QUIRE_ADMIN_EMAIL: 'not-an-email' }, 'QUIRE_ADMIN_EMAIL'],
    [{ QUIRE_ADMIN_TOKEN: 'short' }, 'QUIRE_ADMIN_TOKEN'],
    [{ QUIRE_ADMIN_TOKEN: `${'a'.repeat(20)} ${'b'.repeat(20)}` }, 'QUIRE_ADMIN_TOKEN'],
    [{ QUIRE_OUTBOUND_ALLOW: 'ok.example.com, bad host!' }, 'QUIRE_OUTBOUND_ALLOW'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ QUIRE_RATE_LIMIT: '-1' }, 'QUIRE_RATE_LIMIT'],
    [{ QUIRE_SITE_RATE_LIMIT: 'many' }, 'QUIRE_SITE_RATE_LIMIT'],
    [{ QUIRE_TRUST_PROXY: 'proxy.internal' }, 'QUIRE_TRUST_PROXY'],
    [{ QUIRE_TRUST_PROXY: '10.0.0.0/33' }, 'QUIRE_TRUST_PROXY'],
    [{ QUIRE_TRUST_PROXY: '99' }, 'QUIRE_TRUST_PROXY'],
    [{ QUIRE_BODY_LIMIT: '10' }, 'QUIRE_BODY_LIMIT'],
    [{ QUIRE_OPENAPI_REFRESH_MINUTES: 'hourly' }, 'QUIRE_OPENAPI_REFRESH_MINUTES'],
    [{ QUIRE_OPENAPI_FETCH_TIMEOUT_MS: '10' }, 'QUIRE_OPENAPI_FETCH_TIMEOUT_MS'],
    [{ QUIRE_S3_PREFIX: 'files' }, 'QUIRE_S3_BUCKET'],
    [{ QUIRE_S3_BUCKET: 'ab' }, 'QUIRE_S3_BUCKET'],
    [{ QUIRE_S3_BUCKET: 'a..b' }, 'QUIRE_S3_BUCKET'],
    [{ QUIRE_S3_BUCKET: '-quire' }, 'QUIRE_S3_BUCKET'],
    [{ QUIRE_S3_BUCKET: 'quire', QUIRE_S3_ENDPOINT: 'ftp://127.0.0.1' }, 'QUIRE_S3_ENDPOINT'],
    [{ QUIRE_S3_BUCKET: 'quire', QUIRE_S3_ENDPOINT: 'http://127.0.0.1:9000/?x=1' }, 'QUIRE_S3_ENDPOINT'],
    [{ QUIRE_S3_BUCKET: 'quire', QUIRE_S3_REGION: 'eu central' }, 'QUIRE_S3_REGION'],
    [{ QUIRE_S3_BUCKET: 'quire', QUIRE_S3_ACCESS_KEY_ID: 'AKIAEXAMPLE' }, 'QUIRE_S3_SECRET_ACCESS_KEY'],
    [{ QUIRE_S3_BUCKET: 'quire', QUIRE_S3_SECRET_ACCESS_KEY: 'secret' }, 'QUIRE_S3_ACCESS_KEY_ID'],
    [{ QUIRE_S3_BUCKET: 'quire', QUIRE_S3_PREFIX: 'a/../b' }, 'QUIRE_S3_PREFIX'],
    [{ QUIRE_S3_BUCKET: 'quire', QUIRE_S3_PREFIX: 'a b' }, 'QUIRE_S3_PREFIX'],
    [{ QUIRE_S3_BUCKET: 'quire', QUIRE_S3_FORCE_PATH_STYLE: 'sometimes' }, 'QUIRE_S3_FORCE_PATH_STYLE'],
  ];
  it.each(bad)('refuses %j, naming the variable', (env, variable) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
    expect((error as Error).message.startsWith(`${variable}: `)).toBe(true);
  });
});
