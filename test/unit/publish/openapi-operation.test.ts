import { describe, expect, it } from 'vitest';
import { count, dangers, tags, withAttr } from './html-check.js';
import { draw, operation, textOf } from './openapi-render.js';
import { petstore } from './openapi-specs.js';
import { links } from './sample-site.js';

const specs = { petstore };

describe('an OpenAPI operation', () => {
  const { html, headings } = draw([operation('petstore', '/pets', 'get')], specs);
  const text = textOf(html);

  it('shows the method, the server URL from servers[0] with its variables filled in, and the path', () => {
    expect(html).toContain('<span class="method-badge method-get">GET</span>');
    expect(html).toContain(
      '<code class="oa-url"><span class="oa-server">https://eu.petstore.example.com/v1</span><span class="oa-path">/pets</span></code>',
    );
  });

  it('has the summary as a heading with a stable anchor, in the page outline', () => {
    expect(html).toMatch(
      /<h2 id="get-pets" class="heading oa-title"><span class="heading-text">List all pets<\/span><a class="anchor" href="#get-pets"/,
    );
    expect(headings).toEqual([{ id: 'get-pets', title: 'List all pets', level: 1 }]);
  });

  it('draws the description as markdown: marks and links, no raw HTML', () => {
    expect(html).toContain('<strong>newest first</strong>');
    expect(html).toContain('<code>cursor</code>');
    expect(withAttr(html, 'href', 'https://docs.example.com/paging')).toHaveLength(1);
  });

  it('names the security scheme and its type', () => {
    expect(text).toContain('Authorization bearerAuth HTTP bearer (JWT) A token from /login');
  });

  it('groups parameters by location, with type, required, description, default, enum and example', () => {
    const order = ['Query parameters', 'Header parameters', 'Cookie parameters'].map((t) => text.indexOf(t));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text).not.toContain('Path parameters');
    // The shared parameter of components.parameters, through its $ref.
    expect(text).toContain(
      'limit integer · int32 How many items to return at one time (max 100) Default 20 Minimum 1 Maximum 100',
    );
    expect(text).toContain(
      'status string required Status values to filter by Possible values available pending sold Default available',
    );
    expect(text).toContain('tags string[] Tags to filter by');
    expect(text).toContain(
      'X-Request-Id string · uuid required Correlates the request in logs Example 9b2f0c1e-5a47-4c55-8d2b-2f4b4a8a1f00',
    );
  });

  it('lists responses by status code with description, headers and an expandable schema tree', () => {
    expect(html).toContain(
      '<details class="oa-response" open><summary class="oa-response-line"><span class="oa-status oa-status-2xx">200</span><span class="oa-response-summary">A paged array of pets</span></summary>',
    );
    expect(html).toContain('<span class="oa-status oa-status-default">default</span>');
    expect(text).toContain(
      'Headers X-Rate-Limit-Remaining integer · int32 Calls left in the current window Minimum 0',
    );
    // A header given as a $ref to components.headers.
    expect(text).toContain('X-Next string · uri A link to the next page of responses');
    // `Pets` is an array of `Pet`, whose allOf (NewPet + id, owner) is drawn merged.
    expect(html).toContain('<span class="oa-type">Pet[]</span><span class="oa-ref">Pets</span>');
    expect(text).toContain('id integer · int64 required read-only Example 10');
    expect(text).toContain('name string required Example doggie Min length 1 Max length 64');
    // Nested objects open on demand, without script.
    expect(html).toMatch(
      /<code class="oa-name">category<\/code><span class="oa-type">object<\/span><span class="oa-ref">Category<\/span><\/div><details class="oa-children"><summary><span class="oa-show">Show 2 properties<\/span>/,
    );
  });

  it('leaves write-only properties out of responses', () => {
    // Owner.password is writeOnly: the owner has 3 properties in a response.
    expect(html).toContain('Show 3 properties');
    expect(text).not.toContain('password');
  });

  it('cuts the recursive owner.manager with the name it refers to', () => {
    expect(html).toContain('<p class="oa-circular">Circular reference to <code>Owner</code></p>');
  });

  it('shows the named examples of the spec, an example made from the schema otherwise', () => {
    expect(html).toContain('<span class="code-title">200 · application/json · Two pets</span>');
    expect(html).toContain('<span class="code-title">200 · application/json · No pets</span>');
    expect(html).toContain('<span class="code-title">default · application/json</span>');
    // The made Error example: integer and string samples.
    expect(text).toMatch(/"code" : 1 , "message" : "text"/);
  });

  it('ends with a curl sample: required query and header parameters, the bearer token', () => {
    expect(html).toContain('<span class="code-title">cURL</span>');
    const curl = text.slice(text.indexOf('cURL'));
    expect(curl).toContain('--request GET');
    expect(curl).toContain("--url 'https://eu.petstore.example.com/v1/pets?status=available'");
    expect(curl).toContain("--header 'Authorization: Bearer YOUR_SECRET_TOKEN'");
    expect(curl).toContain("--header 'X-Request-Id: 9b2f0c1e-5a47-4c55-8d2b-2f4b4a8a1f00'");
    // Optional parameters stay out.
    expect(curl).not.toContain('limit=');
  });

  it('needs no script and is safe', () => {
    expect(count(html, 'script')).toBe(0);
    expect(dangers(html)).toEqual([]);
  });
});

describe('operations of the Petstore', () => {
  it('merge path-level parameters with their own, the operation winning', () => {
    const { html } = draw([operation('petstore', '/pets/{petId}', 'get')], specs);
    const text = textOf(html);
    expect(text).toContain('Path parameters petId integer · int64 required Numeric ID of the pet to get');
    expect(text).not.toContain('The id of the pet');
    expect(text).toContain('Query parameters fields string Fields to include');
    expect(html).toContain('<span class="oa-path">/pets/<span class="oa-path-param">{petId}</span></span>');
  });

  it('take the path-level parameters when they have none of their own', () => {
    const text = textOf(draw([operation('petstore', '/pets/{petId}', 'delete')], specs).html);
    expect(text).toContain('Path parameters petId integer · int64 required The id of the pet Minimum 1');
  });

  it('draw media types with one schema once, and say when authorization is optional', () => {
    const { html } = draw([operation('petstore', '/pets/{petId}', 'get')], specs);
    expect(html).toContain(
      '<code class="oa-media-name">application/json</code><code class="oa-media-name">application/xml</code><span class="oa-type">object</span><span class="oa-ref">Pet</span>',
    );
    expect(textOf(html)).toContain('api_key API key in header X-API-Key Authorization is optional.');
    expect(textOf(html)).toContain("--header 'X-API-Key: YOUR_API_KEY'");
  });

  it('draw a request body from components.requestBodies, one tree for media types sharing a schema', () => {
    const { html } = draw([operation('petstore', '/pets', 'post')], specs);
    const text = textOf(html);
    const body = text.slice(text.indexOf('Body'), text.indexOf('Responses'));
    expect(body).toContain('required Pet object that needs to be added to the store');
    expect(html).toContain(
      '<p class="oa-media-line"><code class="oa-media-name">application/json</code><code class="oa-media-name">application/x-www-form-urlencoded</code><span class="oa-type">object</span><span class="oa-ref">NewPet</span></p>',
    );
    expect(body).toContain('name string required');
    expect(body).toContain('tag string nullable');
  });

  it('show alternatives of security requirements with OAuth scopes', () => {
    const text = textOf(draw([operation('petstore', '/pets', 'post')], specs).html);
    expect(text).toContain(
      'petstore_auth OAuth 2.0 Scopes write:pets read:pets or api_key API key in header X-API-Key',
    );
  });

  it('send a JSON body in curl, with its content type, credentials of the first requirement', () => {
    const text = textOf(draw([operation('petstore', '/pets', 'post')], specs).html);
    const curl = text.slice(text.indexOf('cURL'));
    expect(curl).toContain("--header 'Authorization: Bearer YOUR_OAUTH2_TOKEN'");
    expect(curl).toContain("--header 'Content-Type: application/json'");
    expect(curl).toMatch(/--data '\{ "name": "doggie", "tag": "text", "status": "available",/);
    // Read-only `id` is not sent.
    expect(curl).not.toContain('"id": 10');
  });

  it('send multipart forms with files, and basic credentials', () => {
    const text = textOf(draw([operation('petstore', '/pets/{petId}/photo', 'post')], specs).html);
    expect(text).toContain("--user 'username:password'");
    expect(text).toContain("--form 'caption=At the beach'");
    expect(text).toContain("--form 'file=@path/to/file'");
    expect(text).toContain("--url 'https://eu.petstore.example.com/v1/pets/{petId}/photo'");
  });

  it('mark deprecated operations, and cookie credentials', () => {
    const { html } = draw([operation('petstore', '/pets/{petId}', 'delete')], specs);
    expect(html).toContain('<section class="oa-card oa-operation oa-is-deprecated" data-method="delete">');
    expect(html).toContain('<span class="oa-flag oa-deprecated">Deprecated</span>');
    expect(textOf(html)).toContain("--cookie 'SESSION=YOUR_API_KEY'");
    // A response without content or headers does not open.
    expect(html).toContain('<div class="oa-response oa-response-empty">');
  });

  it('show oneOf branches, named, with the discriminator', () => {
    const { html } = draw([operation('petstore', '/animals', 'get')], specs);
    expect(html).toContain('<span class="oa-type">Cat | Dog</span><span class="oa-ref">Animal</span>');
    expect(html).toContain(
      '<p class="oa-variants-label">One of <span class="oa-muted">chosen by <code>petType</code></span></p>',
    );
    expect(html).toContain(
      '<details class="oa-variant"><summary><span class="oa-variant-title">Cat</span><span class="oa-type">object</span></summary>',
    );
    expect(textOf(html)).toContain('huntingSkill string Possible values lazy clueless');
  });

  it('cut a recursive tree at its first repeat', () => {
    const { html } = draw([operation('petstore', '/trees/{treeId}', 'get')], specs);
    expect(html).toContain(
      '<span class="oa-type">TreeNode[]</span></div><p class="oa-circular">Circular reference to <code>TreeNode</code></p>',
    );
  });

  it('in a row under a document heading sit one level below it, each with its own anchor', () => {
    const heading = {
      object: 'block',
      type: 'heading-1',
      data: {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Pets', marks: [] }] }],
    };
    const { html, headings } = draw(
      [
        heading,
        operation('petstore', '/pets', 'get'),
        operation('petstore', '/pets', 'post'),
        operation('petstore', '/pets', 'get'),
      ],
      specs,
    );
    expect(headings).toEqual([
      { id: 'pets', title: 'Pets', level: 1 },
      { id: 'get-pets', title: 'List all pets', level: 2 },
      { id: 'post-pets', title: 'Create a pet', level: 2 },
      { id: 'get-pets-1', title: 'List all pets', level: 2 },
    ]);
    expect(html).toContain('<h3 id="post-pets" class="heading oa-title">');
    const ids = tags(html)
      .map((t) => t.attrs.get('id'))
      .filter(Boolean);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('OpenAPI notices', () => {
  it('name the specification the site does not have', () => {
    const { html, headings } = draw([operation('nope', '/pets', 'get')], specs);
    expect(html).toContain('<p class="api-note">The OpenAPI specification “nope” is not available.</p>');
    expect(html).toContain(
      '<span class="method-badge method-get">GET</span><code class="api-path">/pets</code>',
    );
    expect(headings).toEqual([]);
  });

  it('are drawn for a site without the hook, and when the hook throws', () => {
    const { renderDocument } = { renderDocument: draw };
    expect(renderDocument([operation('petstore', '/pets', 'get')], {}, links).html).toContain(
      'The OpenAPI specification “petstore” is not available.',
    );
    const throwing = {
      ...links,
      openapi: () => {
        throw new Error('db down');
      },
    };
    const html = draw([operation('petstore', '/pets', 'get')], {}, throwing).html;
    expect(html).toContain('is not available.');
  });

  it('name the operation the specification does not hold', () => {
    const { html } = draw(
      [operation('petstore', '/pets/{petId}', 'patch'), operation('petstore', '/nowhere', 'get')],
      specs,
    );
    expect(html).toContain(
      'The operation PATCH /pets/{petId} is not in the OpenAPI specification “petstore”.',
    );
    expect(html).toContain('The operation GET /nowhere is not in the OpenAPI specification “petstore”.');
  });

  it('are drawn for documents that are not specifications at all', () => {
    for (const document of [
      null,
      'text',
      42,
      [],
      { paths: 'x' },
      { paths: { '/pets': 'get' } },
      { paths: { '/pets': { get: [] } } },
    ]) {
      const { html } = draw([operation('odd', '/pets', 'get')], { odd: document });
      expect(html).toContain('class="api-placeholder api-operation"');
    }
  });

  it('for legacy swagger blocks name the file or the URL', () => {
    const swagger = (ref: unknown) => ({
      object: 'block',
      type: 'swagger',
      isVoid: true,
      data: { ref, path: '/pets', method: 'get' },
    });
    const missing = draw([swagger({ kind: 'url', url: 'https://api.example.com/openapi.json' })], specs).html;
    expect(missing).toContain(
      'The OpenAPI specification at https://api.example.com/openapi.json is not available.',
    );
    const found = draw(
      [
        swagger({ kind: 'file', file: 'file-cheatsheet' }),
        { ...(swagger({ kind: 'url', url: 'https://x.test/a.json' }) as object) },
      ],
      { 'file:file-cheatsheet': petstore, 'url:https://x.test/a.json': petstore },
    );
    expect(found.headings.map((h) => h.id)).toEqual(['get-pets', 'get-pets-1']);
  });
});
