import { describe, expect, it } from 'vitest';
import { draw, operation } from './openapi-render.js';

/**
 * Schemas that refer to one another (an order's customer, whose last order is an order…) are
 * drawn in full once per block and named where they come again, so one operation stays a page
 * of reasonable size.
 */
const address = {
  type: 'object',
  properties: { line1: { type: 'string', description: 'Street and number.' }, city: { type: 'string' } },
};
const spec = {
  openapi: '3.1.0',
  info: { title: 'Shop', version: '1' },
  paths: {
    '/orders': {
      post: {
        summary: 'Create an order',
        requestBody: {
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } },
        },
        responses: {
          '201': {
            description: 'Created.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Address: address,
      Order: {
        type: 'object',
        properties: {
          billing: { $ref: '#/components/schemas/Address' },
          shipping: { $ref: '#/components/schemas/Address' },
          returns: { type: 'array', items: { $ref: '#/components/schemas/Address' } },
        },
      },
    },
  },
};

describe('repeated schemas', () => {
  it('draws a named schema once per block and names it where it comes again', () => {
    const { html } = draw([operation('shop', '/orders', 'post')], { shop: spec });
    // Address is drawn under `billing` of the request body, then named under `shipping`,
    // `returns` and everywhere in the response.
    expect(html.match(/Street and number\./g)).toHaveLength(1);
    expect(html.match(/Properties of <code>Address<\/code> as shown above/g)?.length).toBe(5);
    // Each body still starts with its own rows.
    expect(html.match(/<code class="oa-name">billing<\/code>/g)).toHaveLength(2);
  });

  it('starts again in the next block', () => {
    const { html } = draw([operation('shop', '/orders', 'post'), operation('shop', '/orders', 'post')], {
      shop: spec,
    });
    expect(html.match(/Street and number\./g)).toHaveLength(2);
  });
});
