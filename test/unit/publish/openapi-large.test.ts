import { describe, expect, it } from 'vitest';
import { operationSearchText } from '../../../src/openapi/read/search-text.js';
import { operationMarkdown } from '../../../src/publish/render/openapi/index.js';
import { draw, operation } from './openapi-render.js';

/**
 * A large spec (1,000 schemas, 500 operations) as generated APIs have them: every schema has a
 * few scalar fields, a link to the next schema and a list of the one after. One operation of it
 * must be drawn from what it references, without walking the rest.
 */
function largeSpec(): { spec: Record<string, unknown>; touched: Set<string>; listed: { count: number } } {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < 1000; i++) {
    schemas[`Model${i}`] = {
      type: 'object',
      description: `Model number ${i}, with *markdown* in it.`,
      required: ['id'],
      properties: {
        id: { type: 'string', format: 'uuid' },
        name: { type: 'string', maxLength: 200 },
        count: { type: 'integer', minimum: 0 },
        createdAt: { type: 'string', format: 'date-time' },
        status: { type: 'string', enum: ['active', 'archived'] },
        next: { $ref: `#/components/schemas/Model${(i + 1) % 1000}` },
        related: { type: 'array', items: { $ref: `#/components/schemas/Model${(i + 2) % 1000}` } },
      },
    };
  }
  const touched = new Set<string>();
  const listed = { count: 0 };
  const watched = new Proxy(schemas, {
    get(target, key, receiver) {
      if (typeof key === 'string') touched.add(key);
      return Reflect.get(target, key, receiver);
    },
    getOwnPropertyDescriptor(target, key) {
      if (typeof key === 'string') touched.add(key);
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    ownKeys(target) {
      listed.count += 1;
      return Reflect.ownKeys(target);
    },
  });
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < 500; i++) {
    paths[`/resources${i}/{id}`] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        summary: `Get resource ${i}`,
        description: `Returns resource ${i}.`,
        responses: {
          '200': {
            description: 'OK',
            content: { 'application/json': { schema: { $ref: `#/components/schemas/Model${i}` } } },
          },
          '404': { description: 'Not found' },
        },
      },
      put: {
        summary: `Replace resource ${i}`,
        requestBody: {
          content: { 'application/json': { schema: { $ref: `#/components/schemas/Model${i}` } } },
        },
        responses: { '200': { description: 'OK' } },
      },
    };
  }
  const spec = {
    openapi: '3.1.0',
    info: { title: 'Large', version: '1' },
    paths,
    components: { schemas: watched },
  };
  return { spec, touched, listed };
}

describe('a large specification', () => {
  it('draws one operation from what it references only', () => {
    const { spec, touched, listed } = largeSpec();
    const { html } = draw([operation('big', '/resources250/{id}', 'get')], { big: spec });
    expect(html).toContain('Get resource 250');
    expect(html).toContain('<span class="oa-ref">Model250</span>');
    // Depth 8 below Model250 reaches at most Model250..Model266.
    expect(touched.size).toBeLessThanOrEqual(20);
    expect([...touched].every((name) => /^Model2[5-6]\d$/.test(name))).toBe(true);
    expect(listed.count).toBe(0);
    expect((html.match(/class="oa-prop"/g) ?? []).length).toBeLessThanOrEqual(2000);
  });

  it('draws it again from the references it resolved, and its markdown and search text without listing schemas', () => {
    const { spec, touched, listed } = largeSpec();
    const pages = [20, 21, 22, 23, 24].map((i) => [operation('big', `/resources${i}/{id}`, 'get')]);
    const first = pages.map((nodes) => draw(nodes, { big: spec }).html);
    expect(touched.size).toBeGreaterThan(0);
    // The document's references are resolved once (spec-reader.ts), for every page drawn from it.
    touched.clear();
    expect(pages.map((nodes) => draw(nodes, { big: spec }).html)).toEqual(first);
    expect([...touched]).toEqual([]);
    expect(operationMarkdown(spec, '/resources7/{id}', 'get')).toContain('`Model7`');
    expect(operationSearchText(spec, '/resources7/{id}', 'get')?.title).toBe('Get resource 7');
    expect(listed.count).toBe(0);
  });
});
