import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { signVisitorToken, verifyVisitorToken } from '../../src/publish/visitor-token.js';

const KEY = 'site-key-0123456789';
const NOW = Date.parse('2026-11-21T10:00:00Z');
const NOW_S = NOW / 1000;

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A token with any header, signed with HMAC-SHA256 over what it says (whatever `alg` claims). */
function handMade(header: object, claims: unknown, key = KEY): string {
  const signingInput = `${b64(header)}.${b64(claims)}`;
  return `${signingInput}.${createHmac('sha256', key).update(signingInput).digest('base64url')}`;
}

describe('visitor tokens', () => {
  it('accepts a token signed with the site key and returns its claims', async () => {
    const token = signVisitorToken({ sub: 'v1', plan: 'pro', exp: NOW_S + 60 }, KEY);
    expect(await verifyVisitorToken(token, KEY, NOW)).toEqual({
      ok: true,
      claims: { sub: 'v1', plan: 'pro', exp: NOW_S + 60 },
    });
  });

  it('accepts what a backend signs with a JWT library', async () => {
    const token = await new SignJWT({ plan: 'pro', unsigned: { region: 'eu' } })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(NOW_S)
      .setExpirationTime(NOW_S + 3600)
      .sign(new TextEncoder().encode(KEY));
    expect(await verifyVisitorToken(token, KEY, NOW)).toMatchObject({
      ok: true,
      claims: { plan: 'pro', unsigned: { region: 'eu' }, exp: NOW_S + 3600 },
    });
  });

  it('refuses expired, premature, forged and malformed tokens', async () => {
    const expired = signVisitorToken({ exp: NOW_S - 3600 }, KEY);
    expect(await verifyVisitorToken(expired, KEY, NOW)).toEqual({ ok: false, reason: 'expired' });
    const early = signVisitorToken({ nbf: NOW_S + 3600 }, KEY);
    expect(await verifyVisitorToken(early, KEY, NOW)).toEqual({ ok: false, reason: 'not yet valid' });
    const forged = signVisitorToken({ plan: 'pro' }, 'another-key');
    expect(await verifyVisitorToken(forged, KEY, NOW)).toEqual({ ok: false, reason: 'bad signature' });
    const [, body] = signVisitorToken({ plan: 'free' }, KEY).split('.');
    const [head, , signature] = signVisitorToken({ plan: 'pro' }, KEY).split('.');
    expect(await verifyVisitorToken(`${head}.${body}.${signature}`, KEY, NOW)).toEqual({
      ok: false,
      reason: 'bad signature',
    });
    expect(await verifyVisitorToken('abc', KEY, NOW)).toEqual({ ok: false, reason: 'malformed token' });
    expect(await verifyVisitorToken('a.b.c', KEY, NOW)).toEqual({ ok: false, reason: 'malformed token' });
    const huge = signVisitorToken({ pad: 'x'.repeat(9000) }, KEY);
    expect(await verifyVisitorToken(huge, KEY, NOW)).toEqual({ ok: false, reason: 'malformed token' });
  });

  it('checks the signature before the claims', async () => {
    const expiredAndForged = signVisitorToken({ exp: NOW_S - 3600 }, 'another-key');
    expect(await verifyVisitorToken(expiredAndForged, KEY, NOW)).toEqual({
      ok: false,
      reason: 'bad signature',
    });
  });

  it('allows 30 seconds of clock skew on exp and nbf, not more', async () => {
    const justExpired = signVisitorToken({ exp: NOW_S - 20 }, KEY);
    expect((await verifyVisitorToken(justExpired, KEY, NOW)).ok).toBe(true);
    const almostValid = signVisitorToken({ nbf: NOW_S + 20 }, KEY);
    expect((await verifyVisitorToken(almostValid, KEY, NOW)).ok).toBe(true);
    expect(await verifyVisitorToken(signVisitorToken({ exp: NOW_S - 40 }, KEY), KEY, NOW)).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(await verifyVisitorToken(signVisitorToken({ nbf: NOW_S + 40 }, KEY), KEY, NOW)).toEqual({
      ok: false,
      reason: 'not yet valid',
    });
  });

  it('refuses claims that are not an object or whose times are not numbers', async () => {
    for (const claims of [['pro'], 'pro', { exp: 'tomorrow' }, { nbf: '2026-01-01' }]) {
      expect(await verifyVisitorToken(handMade({ alg: 'HS256' }, claims), KEY, NOW)).toEqual({
        ok: false,
        reason: 'malformed claims',
      });
    }
  });

  it('refuses unsigned (alg none) tokens', async () => {
    for (const alg of ['none', 'None', 'NONE']) {
      const token = `${b64({ alg })}.${b64({ plan: 'pro' })}.`;
      expect(await verifyVisitorToken(token, KEY, NOW)).toEqual({
        ok: false,
        reason: 'unsupported algorithm',
      });
    }
  });

  it('refuses every algorithm but HS256, even with a valid HMAC over the token', async () => {
    for (const alg of ['HS384', 'HS512', 'RS256', 'ES256']) {
      expect(await verifyVisitorToken(handMade({ alg }, { plan: 'pro' }), KEY, NOW)).toEqual({
        ok: false,
        reason: 'unsupported algorithm',
      });
    }
    expect(await verifyVisitorToken(handMade({}, { plan: 'pro' }), KEY, NOW)).toMatchObject({ ok: false });
  });

  it('refuses a token signed with the wrong key, and one of another site', async () => {
    const other = signVisitorToken({ plan: 'pro' }, 'site-key-of-another-site');
    expect(await verifyVisitorToken(other, KEY, NOW)).toEqual({ ok: false, reason: 'bad signature' });
    const token = signVisitorToken({ plan: 'pro' }, KEY);
    expect(await verifyVisitorToken(token, `${KEY}x`, NOW)).toEqual({ ok: false, reason: 'bad signature' });
    expect(await verifyVisitorToken(token, KEY.slice(0, -1), NOW)).toEqual({
      ok: false,
      reason: 'bad signature',
    });
  });
});
