import { describe, expect, it } from 'vitest';
import { checkResponse } from '../helpers/official-spec.js';

/** The checker every e2e test relies on must itself reject what the official schema rejects. */
describe('official schema checker', () => {
  const user = {
    object: 'user',
    id: 'u1',
    displayName: 'U',
    urls: { location: 'http://x.test/v1/users/u1' },
  };

  it('accepts a valid body under both versions', () => {
    const result = checkResponse('GET', '/user', 200, user);
    expect(result.operations).toEqual(['getAuthenticatedUser@0.146', 'getAuthenticatedUser@0.202']);
    expect(result.problems).toEqual([]);
  });

  it('rejects a body missing a required field, in each version', () => {
    const { problems } = checkResponse('GET', '/users/u1', 200, { ...user, displayName: undefined });
    expect(problems.map((p) => p.version)).toEqual(['0.146', '0.202']);
    expect(problems[0]!.errors.join(' ')).toContain('displayName');
  });

  it('rejects a relative URL where the schema wants a URI', () => {
    const { problems } = checkResponse('GET', '/user', 200, { ...user, urls: { location: '/v1/users/u1' } });
    expect(problems.length).toBe(2);
  });

  it('treats 0.146 nullable roles as null-or-role', () => {
    const member = {
      object: 'member',
      id: 'u1',
      role: null,
      user,
      disabled: false,
      joinedAt: '2026-01-01T00:00:00.000Z',
      sso: false,
      spaces: 0,
      teams: 0,
      sites: 0,
    };
    expect(checkResponse('GET', '/orgs/o1/members/u1', 200, member).problems).toEqual([]);
    expect(
      checkResponse('GET', '/orgs/o1/members/u1', 200, { ...member, role: 'owner' }).problems.length,
    ).toBe(2);
  });

  it('checks the error shape and undeclared statuses', () => {
    expect(checkResponse('GET', '/user', 404, { error: { code: 404, message: 'gone' } }).problems).toEqual(
      [],
    );
    expect(
      checkResponse('GET', '/user', 404, { error: { code: 400, message: 'gone' } }).problems.length,
    ).toBe(2);
    expect(checkResponse('GET', '/user', 404, { message: 'gone' }).problems.length).toBe(2);
    expect(checkResponse('GET', '/user', 201, user).problems.length).toBe(2);
  });
});
