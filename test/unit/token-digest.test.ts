import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { digestToken, hashesMatch, parseBearer } from '../../src/auth/tokens.js';

describe('token digests', () => {
  it('are the SHA-256 of the token, with its first 16 hex digits as the lookup', () => {
    const { hash, lookup } = digestToken('quire_abc');
    expect(hash).toBe(createHash('sha256').update('quire_abc').digest('hex'));
    expect(lookup).toBe(hash.slice(0, 16));
  });

  it('match only the same digest', () => {
    const { hash } = digestToken('quire_abc');
    expect(hashesMatch(hash, digestToken('quire_abc').hash)).toBe(true);
    expect(hashesMatch(hash, digestToken('quire_abd').hash)).toBe(false);
    // One digit apart, at either end.
    const last = hash.slice(0, -1) + (hash.endsWith('0') ? '1' : '0');
    const first = (hash.startsWith('0') ? '1' : '0') + hash.slice(1);
    expect(hashesMatch(hash, last)).toBe(false);
    expect(hashesMatch(hash, first)).toBe(false);
    expect(hashesMatch(hash, hash.slice(0, 32))).toBe(false);
    expect(hashesMatch(hash, '')).toBe(false);
  });

  it('come from a well-formed bearer header only', () => {
    expect(parseBearer('Bearer quire_abc')).toBe('quire_abc');
    expect(parseBearer('bearer   quire_abc  ')).toBe('quire_abc');
    expect(parseBearer('Basic abc')).toBeNull();
    expect(parseBearer(undefined)).toBeNull();
  });
});
