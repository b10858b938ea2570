import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The key file made in the data directory when QUIRE_SECRETS_KEY is not set. */
export const SECRETS_KEY_FILE = 'secrets.key';
export const SECRETS_KEY_BYTES = 32;

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Strict base64 (the form `openssl rand -base64 32` prints); Buffer.from alone skips bad characters. */
export function decodeSecretsKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) || trimmed.length % 4 !== 0) return undefined;
  const key = Buffer.from(trimmed, 'base64');
  return key.length === SECRETS_KEY_BYTES ? key : undefined;
}

/**
 * The key of the data directory: read from `secrets.key`, or made there on first use, readable by
 * its owner only. A file others can read is refused rather than used, as ssh refuses such keys.
 */
export function dataDirSecretsKey(dataDir: string): Buffer {
  const file = path.join(dataDir, SECRETS_KEY_FILE);
  mkdirSync(dataDir, { recursive: true });
  // Written aside, then linked into place: link() fails if the name exists, so of two processes
  // starting together on one data directory exactly one key wins, and no one reads a half-written file.
  if (!existsSync(file)) {
    const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    writeFileSync(temp, `${randomBytes(SECRETS_KEY_BYTES).toString('base64')}\n`, {
      mode: 0o600,
      flag: 'wx',
    });
    try {
      linkSync(temp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(temp);
    }
  }
  if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) {
    throw new Error(
      `${file} can be read by other users; run \`chmod 600 ${file}\` (it encrypts the secrets stored in the database)`,
    );
  }
  const key = decodeSecretsKey(readFileSync(file, 'utf8'));
  if (!key) {
    throw new Error(`${file} does not hold a key: expected ${SECRETS_KEY_BYTES} bytes in base64`);
  }
  return key;
}

/**
 * AES-256-GCM for secrets kept in the database: `v1:<iv>:<tag>:<ciphertext>` (base64). The
 * `context` (for example the integration's name) is authenticated with the text, so a sealed value
 * copied to another row does not open there. The key is read on first use: a server that never
 * stores a secret never creates a key file.
 */
export class SecretBox {
  private key: Buffer | undefined;

  constructor(private readonly source: () => Buffer) {}

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keyNow(), iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64'));
    return [VERSION, ...parts].join(':');
  }

  /** Throws when the value was sealed with another key or context, or was changed. */
  open(sealed: string, context: string): string {
    const [version, iv, tag, body, extra] = sealed.split(':');
    if (version !== VERSION || iv === undefined || tag === undefined || body === undefined || extra) {
      throw new Error('not a sealed secret of this server');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.keyNow(), Buffer.from(iv, 'base64'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    try {
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    } catch {
      throw new Error(
        'a stored secret does not decrypt: QUIRE_SECRETS_KEY (or the data directory key) changed since it was stored',
      );
    }
  }

  /**
   * A stable secret for `label`, derived from the key (HMAC-SHA256): the same on every process
   * sharing the key, nothing stored, and no way back to the key from it.
   */
  derive(label: string): string {
    return createHmac('sha256', this.keyNow()).update(label, 'utf8').digest('base64url');
  }

  private keyNow(): Buffer {
    this.key ??= this.source();
    return this.key;
  }
}
