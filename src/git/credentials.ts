import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Credentials given in a git URL (`https://user:token@host/repo.git`). They are split off the
 * URL at once: the URL is stored and shown without them, and they reach git only through its
 * environment (an `http.extraHeader` set by GIT_CONFIG_* variables), never on a command line
 * (visible to every user of the machine) or in a stored remote. Between the request and the
 * background job they are kept sealed (AES-256-GCM) with a key kept in the data directory.
 */

export interface Credentials {
  username: string;
  password: string;
}

export interface SplitUrl {
  /** The URL without credentials. */
  url: string;
  credentials?: Credentials;
}

export function splitCredentials(raw: string): SplitUrl {
  const url = new URL(raw);
  if (!url.username && !url.password) return { url: url.toString() };
  const credentials = {
    username: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  };
  url.username = '';
  url.password = '';
  return { url: url.toString(), credentials };
}

/** Git configuration through the environment: an Authorization header for every HTTP request. */
export function credentialEnv(credentials: Credentials | undefined): Record<string, string> {
  if (!credentials) return {};
  const token = Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64');
  return {
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'http.extraHeader',
    GIT_CONFIG_VALUE_0: `Authorization: Basic ${token}`,
  };
}

/** Removes every spelling of the credentials from a text (error messages from git, say). */
export function redact(text: string, credentials: Credentials | undefined): string {
  if (!credentials) return text;
  let out = text;
  const secrets = [
    credentials.password,
    encodeURIComponent(credentials.password),
    Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64'),
  ].filter((s) => s.length >= 3);
  for (const secret of secrets) out = out.split(secret).join('***');
  return out;
}

export class CredentialSealer {
  private key: Buffer | undefined;

  constructor(private readonly dataDir: string) {}

  private loadKey(): Buffer {
    if (this.key) return this.key;
    const dir = path.join(this.dataDir, 'secrets');
    const file = path.join(dir, 'git-credentials.key');
    try {
      this.key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    } catch {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const key = randomBytes(32);
      try {
        writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
        chmodSync(file, 0o600);
        this.key = key;
      } catch {
        // Another process wrote it first.
        this.key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
      }
    }
    if (this.key.length !== 32) throw new Error('the git credential key in the data directory is damaged');
    return this.key;
  }

  seal(credentials: Credentials): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.loadKey(), iv);
    const data = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64');
  }

  open(sealed: string): Credentials {
    const raw = Buffer.from(sealed, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.loadKey(), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    return JSON.parse(text) as Credentials;
  }
}
