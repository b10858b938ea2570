import { describe, expect, it } from 'vitest';
import { startupBanner } from '../../src/banner.js';
import { loadConfig } from '../../src/config.js';

const boot = { email: 'admin@localhost', orgId: 'org123', generatedToken: 'quire_secret' };

describe('start-up banner', () => {
  it('names the URL, the SQLite file, the new token and how to stop', () => {
    const config = loadConfig({ PORT: '8080', QUIRE_DATA_DIR: '/srv/quire' });
    const text = startupBanner({
      config,
      listening: 'http://127.0.0.1:8080',
      version: '1.2.3',
      migrations: ['0001-a', '0002-b'],
      boot,
    }).join('\n');
    expect(text).toMatch(/^Quire 1\.2\.3 is listening on http:\/\/127\.0\.0\.1:8080\n/);
    expect(text).toContain('Open   http://localhost:8080 in a browser');
    expect(text).toContain('SQLite database /srv/quire/quire.db, files in /srv/quire (2 migrations applied)');
    expect(text).toContain('Admin API token (shown once, store it now): quire_secret');
    expect(text).toContain('Ctrl+C');
    expect(text).toContain('Translations  off: no service configured (QUIRE_TRANSLATION_PROVIDER');
    expect(text.split('\n').at(-1)).toMatch(/^Logs follow/);
  });

  it('names the translation service, never its key', () => {
    const config = loadConfig({
      QUIRE_TRANSLATION_PROVIDER: 'openai',
      QUIRE_TRANSLATION_URL: 'http://127.0.0.1:11434',
      QUIRE_TRANSLATION_MODEL: 'llama3.1',
      QUIRE_TRANSLATION_API_KEY: 'sk-secret',
    });
    const text = startupBanner({
      config,
      listening: 'x',
      version: '1',
      migrations: [],
      boot: undefined,
    }).join('\n');
    expect(text).toContain('Translations  openai at http://127.0.0.1:11434 (llama3.1)');
    expect(text).not.toContain('sk-secret');
  });

  it('shows where PostgreSQL is without its password, and no token on later starts', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://quire:s3cret@db.internal:5433/docs' });
    const text = startupBanner({
      config,
      listening: 'http://127.0.0.1:8080',
      version: '1.2.3',
      migrations: [],
      boot: undefined,
    }).join('\n');
    expect(text).toContain('PostgreSQL quire@db.internal:5433/docs');
    expect(text).not.toContain('s3cret');
    expect(text).not.toContain('migrations applied');
    expect(text).not.toContain('token');
  });

  it('says which bucket files are stored in, never its keys', () => {
    const banner = (env: Record<string, string>) =>
      startupBanner({
        config: loadConfig({ QUIRE_DATA_DIR: '/srv/quire', ...env }),
        listening: 'x',
        version: '1',
        migrations: [],
        boot: undefined,
      }).join('\n');
    const text = banner({
      QUIRE_S3_BUCKET: 'docs-files',
      QUIRE_S3_PREFIX: 'quire/blobs',
      QUIRE_S3_ENDPOINT: 'http://minio.internal:9000',
      QUIRE_S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      QUIRE_S3_SECRET_ACCESS_KEY: 'very-secret-key',
    });
    expect(text).toContain(
      'SQLite database /srv/quire/quire.db, files in s3://docs-files/quire/blobs at http://minio.internal:9000',
    );
    expect(text).not.toContain('AKIAEXAMPLE');
    expect(text).not.toContain('very-secret-key');
    expect(banner({ QUIRE_S3_BUCKET: 'docs-files', QUIRE_S3_REGION: 'eu-west-1' })).toContain(
      'files in s3://docs-files (AWS S3, eu-west-1)',
    );
  });

  it('does not print a token given through QUIRE_ADMIN_TOKEN', () => {
    const config = loadConfig({ QUIRE_ADMIN_TOKEN: 'given-token-0123456789abcdef0123456789' });
    const text = startupBanner({
      config,
      listening: 'http://127.0.0.1:8080',
      version: '1.2.3',
      migrations: [],
      boot: { ...boot, generatedToken: undefined },
    }).join('\n');
    expect(text).toContain('the value of QUIRE_ADMIN_TOKEN');
    expect(text).not.toContain('given-token');
  });
});
