import { describe, expect, it } from 'vitest';
import { signVisitorToken, verifyVisitorToken } from '../../src/publish/visitor-token.js';

const KEY = 'site-key-0123456789';
const NOW = Date.parse('2026-11-21T10:00:00Z');

describe('visitor tokens', () => {
  it('accepts a token signed with the site key and returns its claims', () => {
    const token = signVisitorToken({ sub: 'v1', plan: 'pro', exp: NOW / 1000 + 60 }, KEY);
    expect(verifyVisitorToken(token, KEY, NOW)).toEqual({
      ok: true,
      claims: { sub: 'v1', plan: 'pro', exp: NOW / 1000 + 60 },
    });
  });

  it('refuses expired, premature, forged and malformed tokens', () => {
    const expired = signVisitorToken({ exp: NOW / 1000 - 3600 }, KEY);
    expect(verifyVisitorToken(expired, KEY, NOW)).toEqual({ ok: false, reason: 'expired' });
    const early = signVisitorToken({ nbf: NOW / 1000 + 3600 }, KEY);
    expect(verifyVisitorToken(early, KEY, NOW)).toEqual({ ok: false, reason: 'not yet valid' });
    const forged = signVisitorToken({ plan: 'pro' }, 'another-key');
    expect(verifyVisitorToken(forged, KEY, NOW)).toEqual({ ok: false, reason: 'bad signature' });
    const [, body] = signVisitorToken({ plan: 'free' }, KEY).split('.');
    const [head, , signature] = signVisitorToken({ plan: 'pro' }, KEY).split('.');
    expect(verifyVisitorToken(`${head}.${body}.${signature}`, KEY, NOW).ok).toBe(false);
    expect(verifyVisitorToken('abc', KEY, NOW)).toEqual({ ok: false, reason: 'malformed token' });
  });

  it('refuses unsigned (alg none) tokens', () => {
    const head = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    const body = Buffer.from(JSON.stringify({ plan: 'pro' })).toString('base64url');
    expect(verifyVisitorToken(`${head}.${body}.`, KEY, NOW)).toEqual({
      ok: false,
      reason: 'unsupported algorithm',
    });
  });
});
