import { describe, expect, it } from 'vitest';
import { dangers } from './html-check.js';
import { draw, operation, schemas, textOf, webhook } from './openapi-render.js';
import { events, petstore } from './openapi-specs.js';

/** A spec with one operation whose 200 response has `schema`, and `components.schemas` as given. */
function responding(
  schema: unknown,
  components: Record<string, unknown> = {},
  requestSchema?: unknown,
): unknown {
  return {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/thing': {
        post: {
          summary: 'Make a thing',
          ...(requestSchema
            ? { requestBody: { content: { 'application/json': { schema: requestSchema } } } }
            : {}),
          responses: { '200': { description: 'OK', content: { 'application/json': { schema } } } },
        },
      },
    },
    components: { schemas: components },
  };
}

const drawThing = (spec: unknown) => draw([operation('s', '/thing', 'post')], { s: spec });

describe('schema trees', () => {
  it('show 3.0 nullable and 3.1 type arrays alike, with formats and constraints', () => {
    const text = textOf(
      drawThing(
        responding({
          type: 'object',
          required: ['a'],
          properties: {
            a: { type: 'string', nullable: true, format: 'date-time' },
            b: { type: ['integer', 'null'], minimum: 1, exclusiveMaximum: 10 },
            c: { type: ['string', 'integer'] },
            d: { type: 'string', pattern: '^[a-z]+$', minLength: 2 },
            e: { type: 'array', items: { type: 'string' }, minItems: 1, uniqueItems: true },
            f: { type: 'number', minimum: 0, exclusiveMinimum: true, multipleOf: 0.5 },
          },
        }),
      ).html,
    );
    expect(text).toContain('a string · date-time nullable required');
    expect(text).toContain('b integer nullable Minimum 1 Less than 10');
    expect(text).toContain('c string | integer');
    expect(text).toContain('d string Min length 2 Pattern ^[a-z]+$');
    expect(text).toContain('e string[] Min items 1 Unique items yes');
    expect(text).toContain('f number Greater than 0 Multiple of 0.5');
  });

  it('merge allOf, nested allOf included, and show anyOf branches', () => {
    const spec = responding(
      { $ref: '#/components/schemas/Admin' },
      {
        Base: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
        User: {
          allOf: [{ $ref: '#/components/schemas/Base' }, { properties: { email: { type: 'string' } } }],
        },
        Admin: {
          description: 'An administrator.',
          allOf: [
            { $ref: '#/components/schemas/User' },
            { required: ['level'], properties: { level: { type: 'integer' } } },
          ],
        },
        Contact: {
          anyOf: [
            { type: 'string', format: 'email' },
            { type: 'object', title: 'Phone', properties: { number: { type: 'string' } } },
          ],
        },
      },
    );
    const text = textOf(drawThing(spec).html);
    expect(text).toContain(
      'object Admin An administrator. id string required email string level integer required',
    );
    const any = textOf(
      drawThing(
        responding(
          { type: 'object', properties: { contact: { $ref: '#/components/schemas/Contact' } } },
          (spec as never as { components: { schemas: Record<string, unknown> } }).components.schemas,
        ),
      ).html,
    );
    expect(any).toContain('contact string · email | Phone Contact Show 2 options');
    expect(any).toContain('Any of string · email Phone object number string');
  });

  it('show maps (additionalProperties) and broken references by name, never failing', () => {
    const { html } = drawThing(
      responding({
        type: 'object',
        properties: {
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          gone: { $ref: '#/components/schemas/Gone' },
          remote: { $ref: 'https://example.com/schemas.json#/Pet' },
          list: { type: 'array', items: { $ref: '#/components/schemas/Missing' } },
        },
      }),
    );
    const text = textOf(html);
    expect(text).toContain(
      'labels object Show additional properties Hide additional properties additional properties string',
    );
    expect(text).toContain('gone Gone Refers to Gone , which is not in the specification.');
    expect(text).toContain('remote Pet Refers to Pet');
    expect(text).toContain('list Missing[] Refers to Missing');
  });

  it('leave read-only properties out of requests and write-only ones out of responses', () => {
    const user = {
      type: 'object',
      properties: {
        id: { type: 'string', readOnly: true },
        password: { type: 'string', writeOnly: true },
        name: { type: 'string' },
      },
    };
    const { html } = drawThing(
      responding(
        { $ref: '#/components/schemas/User' },
        { User: user },
        { $ref: '#/components/schemas/User' },
      ),
    );
    const text = textOf(html);
    const body = text.slice(text.indexOf('Body'), text.indexOf('Responses'));
    const response = text.slice(text.indexOf('Responses'), text.indexOf('Request sample'));
    expect(body).toContain('password string write-only');
    expect(body).not.toContain('id string');
    expect(response).toContain('id string read-only');
    expect(response).not.toContain('password');
  });

  it('terminate on cycles of references, of schemas and of objects', () => {
    const chain = responding(
      { $ref: '#/components/schemas/A' },
      {
        A: { $ref: '#/components/schemas/B' },
        B: { $ref: '#/components/schemas/A' },
        Self: { $ref: '#/components/schemas/Self' },
        Node: {
          type: 'object',
          properties: {
            next: { $ref: '#/components/schemas/Node' },
            all: { allOf: [{ $ref: '#/components/schemas/Node' }] },
          },
        },
        Loop: {
          allOf: [{ $ref: '#/components/schemas/Loop' }],
          oneOf: [{ $ref: '#/components/schemas/Loop' }],
        },
      },
    );
    expect(textOf(drawThing(chain).html)).toContain('Refers to A');
    for (const name of ['Self', 'Node', 'Loop']) {
      const spec = responding(
        { $ref: `#/components/schemas/${name}` },
        (chain as { components: { schemas: object } }).components.schemas as Record<string, unknown>,
      );
      const { html } = drawThing(spec);
      expect(html).toContain('oa-operation');
    }
    // A document handed in as objects may loop without any $ref.
    const node: Record<string, unknown> = { type: 'object' };
    node.properties = { self: node, list: { type: 'array', items: node } };
    const { html } = drawThing(responding(node));
    expect(html).toContain('Circular reference to');
  });

  it('stop at the depth bound and at the row budget of a block', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 60; i++) deep = { type: 'object', properties: { [`level${i}`]: deep } };
    const deepHtml = drawThing(responding(deep)).html;
    expect(deepHtml).toContain('Nested too deep to show here.');
    expect((deepHtml.match(/class="oa-prop"/g) ?? []).length).toBeLessThan(30);

    const wide: Record<string, unknown> = {};
    for (let i = 0; i < 300; i++)
      wide[`field${i}`] = {
        type: 'object',
        properties: Object.fromEntries(
          Array.from({ length: 30 }, (_, j) => [`p${j}`, { type: 'string', description: `Field ${j}` }]),
        ),
      };
    const { html } = drawThing(responding({ type: 'object', properties: wide }));
    const rows = (html.match(/class="oa-prop"/g) ?? []).length;
    expect(rows).toBeLessThanOrEqual(2000);
    expect(html).toContain('not shown');
  });

  it('keep a page of huge descriptions and enums to a bounded size', () => {
    const long = 'word '.repeat(4000);
    const properties = Object.fromEntries(
      Array.from({ length: 300 }, (_, i) => [
        `p${i}`,
        {
          type: 'string',
          description: long,
          enum: Array.from({ length: 60 }, (_, j) => `${j}${'v'.repeat(400)}`),
        },
      ]),
    );
    const { html } = drawThing(responding({ type: 'object', properties }));
    expect(html.length).toBeLessThan(2_000_000);
    expect(html).toContain('<code class="oa-name">p299</code>');
  });

  it('draw enums with many values cut, and values of any type', () => {
    const text = textOf(
      drawThing(
        responding({
          type: 'object',
          properties: {
            big: { type: 'integer', enum: Array.from({ length: 80 }, (_, i) => i) },
            odd: { enum: [null, true, { a: 1 }, [1, 2]], default: { a: 1 } },
          },
        }),
      ).html,
    );
    expect(text).toContain('48 49 and 30 more');
    expect(text).toContain('odd any nullable Possible values null true {"a":1} [1,2] Default {"a":1}');
  });
});

describe('openapi-schemas blocks', () => {
  it('draw each named schema as a titled tree, grouped in one card under the title', () => {
    const { html, headings } = draw(
      [schemas('petstore', ['Pet', 'Animal', 'Nope'], { grouped: true, title: 'Models' })],
      { petstore },
    );
    expect(headings).toEqual([{ id: 'schemas-models', title: 'Models', level: 1 }]);
    expect((html.match(/<section class="oa-card oa-schemas">/g) ?? []).length).toBe(1);
    expect(html).toContain(
      '<details class="oa-schema"><summary class="oa-schema-line"><span class="oa-schema-name">Pet</span><span class="oa-type">object</span></summary>',
    );
    expect(textOf(html)).toContain('Pet object A pet of the store. name string required');
    expect(html).toContain(
      '<p class="oa-missing">The schema “Nope” is not in the OpenAPI specification “petstore”.</p>',
    );
    expect(html).toContain('<span class="code-title">Example</span>');
  });

  it('draw each schema in its own card when not grouped, a single one open', () => {
    const two = draw([schemas('petstore', ['Tag', 'Category'], { grouped: false })], { petstore }).html;
    expect((two.match(/<section class="oa-card oa-schemas">/g) ?? []).length).toBe(2);
    const one = draw([schemas('petstore', ['TreeNode'])], { petstore }).html;
    expect(one).toContain('<details class="oa-schema" open>');
    expect(one).toContain(
      '<span class="oa-type">TreeNode[]</span></div><p class="oa-circular">Circular reference to <code>TreeNode</code></p>',
    );
  });

  it('name a schema block whose names are all unknown, or whose spec is missing', () => {
    expect(draw([schemas('petstore', [])], { petstore }).html).toContain(
      'No schema of the OpenAPI specification “petstore” is named here.',
    );
    expect(draw([schemas('gone', ['Pet'])], { petstore }).html).toContain(
      'The OpenAPI specification “gone” is not available.',
    );
  });
});

describe('openapi-webhook blocks', () => {
  it('draw the webhook of a 3.1 spec: name, payload tree, payload example, expected responses', () => {
    const { html, headings } = draw([webhook('events', 'newPet', 'post')], { events });
    const text = textOf(html);
    expect(headings).toEqual([{ id: 'webhook-post-newpet', title: 'A pet was added', level: 1 }]);
    expect(html).toContain(
      '<span class="method-badge method-post">POST</span><span class="oa-webhook-label">Webhook</span><code class="oa-url"><span class="oa-path">newPet</span></code>',
    );
    expect(text).toContain('Payload The new pet application/json object PetEvent');
    expect(text).toContain('event string required Constant pet.created');
    expect(text).toContain('nickname string nullable Example Rexy');
    expect(text).toContain('weight number Greater than 0');
    expect(text).toContain('200 Return a 200 status to acknowledge the event');
    expect(html).toContain('<span class="code-title">Payload · application/json</span>');
    expect(text).toMatch(/"event" : "pet.created" , "nickname" : "Rexy" , "weight" : 0.5 , "pet" : \{/);
    expect(text).not.toContain('curl');
    expect(dangers(html)).toEqual([]);
  });

  it('name a webhook the spec does not have', () => {
    expect(draw([webhook('events', 'oldPet', 'post')], { events }).html).toContain(
      'The webhook POST oldPet is not in the OpenAPI specification “events”.',
    );
    expect(draw([webhook('petstore', 'newPet', 'post')], { petstore }).html).toContain('is not in');
  });
});
