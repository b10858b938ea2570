import { describe, expect, it } from 'vitest';
import {
  operationSearchText,
  schemasSearchText,
  webhookSearchText,
} from '../../../src/openapi/read/search-text.js';
import {
  operationMarkdown,
  schemasMarkdown,
  webhookMarkdown,
} from '../../../src/publish/render/openapi/index.js';
import { events, petstore } from './openapi-specs.js';

describe('operationMarkdown', () => {
  const md = operationMarkdown(petstore, '/pets', 'get')!;

  it('gives method and URL, summary, description and authorization', () => {
    expect(md.startsWith('## List all pets\n\n`GET https://eu.petstore.example.com/v1/pets`\n\n')).toBe(true);
    expect(md).toContain('Returns the pets of the store, **newest first**.');
    expect(md).toContain('**Authorization:** `bearerAuth` (HTTP bearer (JWT))');
  });

  it('gives parameters as tables by location, with their facts', () => {
    expect(md).toContain(
      '### Query parameters\n\n| Name | Type | Required | Description |\n| --- | --- | --- | --- |\n' +
        '| `limit` | integer · int32 | no | How many items to return at one time (max 100). Default: `20`. Minimum: `1`. Maximum: `100`. |\n' +
        '| `status` | string | yes | Status values to filter by. Possible values: `available`, `pending`, `sold`. Default: `available`. |',
    );
    expect(md).toContain('### Header parameters');
    expect(md).toContain('| `X-Request-Id` | string · uuid | yes | Correlates the request in logs |');
  });

  it('gives responses, and the properties of the success body briefly', () => {
    expect(md).toContain('| `200` | A paged array of pets | `application/json`: `Pets` |');
    expect(md).toContain('| `default` | Unexpected error | `application/json`: `Error` |');
    expect(md).toContain('#### 200 response');
    expect(md).toContain('| `tag` | string, nullable | no |  |');
    expect(md).toContain('| `owner` | object (Owner) | no |  |');
  });

  it('gives the request body without read-only properties, and OAuth scopes', () => {
    const post = operationMarkdown(petstore, '/pets', 'post')!;
    expect(post).toContain(
      '### Request body\n\n`application/json`: `NewPet` (required)\n\nPet object that needs to be added to the store',
    );
    expect(post).toContain(
      '`petstore_auth` (OAuth 2.0, scopes `write:pets`, `read:pets`) or `api_key` (API key in header X-API-Key)',
    );
    const pet = operationMarkdown(petstore, '/pets/{petId}', 'get')!;
    expect(pet).toContain('| `petId` | integer · int64 | yes | Numeric ID of the pet to get |');
  });

  it('marks deprecated operations and takes a heading level', () => {
    const md3 = operationMarkdown(petstore, '/pets/{petId}', 'DELETE', { level: 3 })!;
    expect(
      md3.startsWith(
        '### Deletes a pet\n\n`DELETE https://eu.petstore.example.com/v1/pets/{petId}`\n\n> **Deprecated**',
      ),
    ).toBe(true);
    expect(md3).toContain('#### Path parameters');
  });

  it('keeps table cells on one line and their pipes escaped', () => {
    const spec = {
      openapi: '3.1.0',
      paths: {
        '/x': {
          get: {
            summary: 'X\nY',
            parameters: [{ name: 'a|b', in: 'query', description: 'one\ntwo | three' }],
            responses: {},
          },
        },
      },
    };
    const out = operationMarkdown(spec, '/x', 'get')!;
    expect(out).toContain('## X Y\n');
    expect(out).toContain('| `a\\|b` | any | no | one two \\| three |');
  });

  it('is undefined for an operation that is not there, or a document that is not a spec', () => {
    expect(operationMarkdown(petstore, '/pets', 'patch')).toBeUndefined();
    expect(operationMarkdown(null, '/pets', 'get')).toBeUndefined();
    expect(operationMarkdown({ paths: [] }, '/pets', 'get')).toBeUndefined();
  });
});

describe('webhookMarkdown and schemasMarkdown', () => {
  it('give a webhook with its payload', () => {
    const md = webhookMarkdown(events, 'newPet', 'post')!;
    expect(md).toContain('## A pet was added\n\n`POST newPet` (webhook)');
    expect(md).toContain('### Payload\n\n`application/json`: `PetEvent`\n\nThe new pet');
    expect(md).toContain('| `event` | string | yes | Constant: `pet.created`. |');
    expect(webhookMarkdown(events, 'newPet', 'get')).toBeUndefined();
  });

  it('give named schemas with their properties, leaving out unknown names', () => {
    const md = schemasMarkdown(petstore, ['Error', 'Nope'])!;
    expect(md).toBe(
      '## Error\n\nType: `object`\n\n| Name | Type | Required | Description |\n| --- | --- | --- | --- |\n' +
        '| `code` | integer · int32 | yes |  |\n| `message` | string | yes |  |\n',
    );
    expect(schemasMarkdown(petstore, ['Nope'])).toBeUndefined();
  });
});

describe('search text', () => {
  it('of an operation: summary as title; description, method and path, parameter names', () => {
    expect(operationSearchText(petstore, '/pets', 'get')).toEqual({
      title: 'List all pets',
      text:
        'List all pets\nReturns the pets of the store, newest first.\n\nSee paging for how cursor works.\n' +
        'GET /pets\nlistPets\nlimit status tags X-Request-Id session',
    });
  });

  it('of an operation without summary is titled by method and path', () => {
    const spec = { openapi: '3.1.0', paths: { '/x/{id}': { put: { responses: {} } } } };
    expect(operationSearchText(spec, '/x/{id}', 'put')).toEqual({
      title: 'PUT /x/{id}',
      text: 'PUT /x/{id}',
    });
    expect(operationSearchText(spec, '/x/{id}', 'get')).toBeUndefined();
  });

  it('of webhooks and schemas', () => {
    expect(webhookSearchText(events, 'newPet', 'post')?.text).toContain(
      'Sent to your endpoint when a pet is added',
    );
    expect(schemasSearchText(petstore, ['Pet', 'Tag'])).toEqual({
      title: 'Pet, Tag',
      text: 'Pet\nA pet of the store.\nname tag status category photoUrls tags birthday id owner\nTag\nid name',
    });
  });
});
