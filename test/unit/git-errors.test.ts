import { describe, expect, it } from 'vitest';
import { classify } from '../../src/git/runner.js';

describe('git failures, as git reports them', () => {
  it('tells refused credentials from a missing repository, whatever the port in the URL', () => {
    const missing = (port: number) =>
      classify(
        'fetch',
        `remote: Not Found\nfatal: repository 'http://127.0.0.1:${port}/missing/' not found\n`,
        128,
      );
    for (const port of [40123, 34401, 4013, 54329])
      expect(missing(port).message).toMatch(/no git repository/);
    expect(
      classify('fetch', "fatal: Authentication failed for 'http://127.0.0.1:40123/docs/'\n", 128).message,
    ).toMatch(/refused the credentials/);
    expect(
      classify('fetch', 'error: The requested URL returned error: 401\nfatal: could not fetch\n', 128)
        .message,
    ).toMatch(/refused the credentials/);
    expect(
      classify('fetch', 'fatal: unable to access: The requested URL returned error: 403\n', 128).message,
    ).toMatch(/refused the credentials/);
    expect(classify('fetch', "fatal: couldn't find remote ref refs/heads/nope\n", 128).message).toMatch(
      /no such branch/,
    );
  });
});
