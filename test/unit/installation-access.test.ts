import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { INSTALLATION_OPERATIONS, installationRefusal } from '../../src/auth/installation-access.js';

const require = createRequire(import.meta.url);
// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is untyped JSON
const spec: any = JSON.parse(readFileSync(require.resolve('@gitbook/api/spec/openapi.json'), 'utf8'));
// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is untyped JSON
const spec146: any = JSON.parse(readFileSync(require.resolve('gitbook-api-0146/spec/openapi.json'), 'utf8'));

describe('what an installation token may call', () => {
  it('opens only operations whose official security accepts installation tokens', () => {
    for (const operation of Object.keys(INSTALLATION_OPERATIONS)) {
      const [method, path] = operation.split(' ') as [string, string];
      const at = path.replace(/^\/v1/, '').replace(/^$/, '/');
      // The newest version that has the operation (conversations are in 0.146 only).
      const [document, official] = [spec, spec146]
        .map((d) => [d, d.paths[at]?.[method.toLowerCase()]] as const)
        .find(([, o]) => o) ?? [spec, undefined];
      expect(official, operation).toBeDefined();
      const security = JSON.stringify(official.security ?? document.security);
      expect(security, operation).toContain('integration-installation');
    }
  });

  it('asks for one of the scopes an operation needs, and refuses everything else', () => {
    const read = ['space:content:read'];
    expect(installationRefusal('GET', '/v1/spaces/:spaceId/content', read)).toBeUndefined();
    expect(installationRefusal('GET', '/v1/spaces/:spaceId', read)).toBeUndefined();
    expect(installationRefusal('GET', '/v1/', [])).toBeUndefined();
    expect(installationRefusal('POST', '/v1/spaces/:spaceId/git/import', read)).toBe(
      'POST /v1/spaces/{spaceId}/git/import needs the integration scope space:git:sync; this integration has space:content:read',
    );
    expect(installationRefusal('GET', '/v1/spaces/:spaceId/content', [])).toContain('has none');
    expect(installationRefusal('POST', '/v1/spaces/:spaceId/comments', read)).toBe(
      'POST /v1/spaces/{spaceId}/comments is not open to integration installation tokens',
    );
    expect(installationRefusal('DELETE', '/v1/orgs/:organizationId', ['space:content:write'])).toContain(
      'not open',
    );
  });
});
