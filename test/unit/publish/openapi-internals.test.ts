import { describe, expect, it } from 'vitest';
import { findOperation } from '../../../src/openapi/read/operation.js';
import { readerFor, SpecReader } from '../../../src/openapi/read/spec-reader.js';
import { curlCommand, quote } from '../../../src/publish/render/openapi/curl.js';
import { exampleFromSchema } from '../../../src/publish/render/openapi/example.js';
import { jsonText } from '../../../src/publish/render/openapi/json-text.js';
import { petstore } from './openapi-specs.js';

describe('SpecReader', () => {
  const doc = {
    paths: { '/pets/{id}': { get: { ok: 1 } } },
    components: {
      schemas: {
        'a/b': { v: 'slash' },
        'm~n': { v: 'tilde' },
        'with space': { v: 'space' },
        Alias: { $ref: '#/components/schemas/Target', description: 'outer' },
        Target: { type: 'string', description: 'inner' },
        Loop1: { $ref: '#/components/schemas/Loop2' },
        Loop2: { $ref: '#/components/schemas/Loop1' },
      },
    },
    'x-ext': { abc123: { title: 'Remote Pet', type: 'object' } },
    list: ['zero', 'one'],
  };
  const reader = new SpecReader(doc);

  it('reads JSON pointers with ~0, ~1 and percent-encoding, arrays included', () => {
    expect(reader.at('#/paths/~1pets~1{id}/get')).toEqual({ ok: 1 });
    expect(reader.at('#/components/schemas/a~1b')).toEqual({ v: 'slash' });
    expect(reader.at('#/components/schemas/m~0n')).toEqual({ v: 'tilde' });
    expect(reader.at('#/components/schemas/with%20space')).toEqual({ v: 'space' });
    expect(reader.at('#/list/1')).toBe('one');
    expect(reader.at('#')).toBe(doc);
  });

  it('reads nothing outside the document or its own fields', () => {
    for (const ref of [
      '#/list/01',
      '#/list/-1',
      '#/nope',
      'other.json#/a',
      'https://x.test/a',
      '#/components/__proto__',
      '#/components/constructor',
      '#/paths/toString',
      'a',
    ])
      expect(reader.at(ref)).toBeUndefined();
  });

  it('follows chains, letting fields beside a $ref win, and names refs', () => {
    const resolved = reader.resolve({ $ref: '#/components/schemas/Alias' });
    expect(resolved.value).toEqual({ type: 'string', description: 'outer' });
    expect(resolved.name).toBe('Alias');
    expect(resolved.key).toBe('#/components/schemas/Target');
    expect(reader.resolve({ $ref: '#/x-ext/abc123' }).name).toBe('Remote Pet');
  });

  it('calls loops of references and missing targets broken', () => {
    expect(reader.resolve({ $ref: '#/components/schemas/Loop1' })).toMatchObject({
      value: undefined,
      broken: '#/components/schemas/Loop1',
    });
    expect(reader.resolve({ $ref: '#/components/schemas/Gone' })).toMatchObject({
      value: undefined,
      name: 'Gone',
    });
  });

  it('is shared per document object', () => {
    expect(readerFor(doc)).toBe(readerFor(doc));
    expect(readerFor({})).not.toBe(readerFor({}));
  });
});

describe('jsonText', () => {
  it('writes JSON like JSON.stringify', () => {
    const value = { a: [1, 'two', null, true, { b: {} }], c: [] };
    expect(jsonText(value)).toBe(JSON.stringify(value, null, 2));
    expect(jsonText(value, { indent: 0 })).toBe(JSON.stringify(value));
  });

  it('stops at its size and depth bounds and at cycles', () => {
    const big = Array.from({ length: 100_000 }, (_, i) => ({ i }));
    const text = jsonText(big, { maxChars: 1000 });
    expect(text.length).toBeLessThanOrEqual(1001);
    expect(text.endsWith('…')).toBe(true);
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(jsonText(loop, { indent: 0 })).toBe('{"self":{…}}');
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(jsonText(deep, { indent: 0, maxDepth: 3 })).toBe('[[[[…]]]]');
    expect(jsonText(Number.NaN)).toBe('null');
  });
});

describe('examples made from schemas', () => {
  const reader = readerFor(petstore);

  it('use the examples, defaults, enums and formats the schema gives', () => {
    expect(exampleFromSchema(reader, { $ref: '#/components/schemas/NewPet' }, 'request')).toEqual({
      name: 'doggie',
      tag: 'text',
      status: 'available',
      category: { id: 1, name: 'Dogs' },
      photoUrls: ['https://example.com'],
      tags: [{ id: 1, name: 'text' }],
      birthday: '2024-01-15',
    });
  });

  it('merge allOf, take the first oneOf branch, leave out read-only fields of requests', () => {
    const pet = exampleFromSchema(reader, { $ref: '#/components/schemas/Pet' }, 'response') as Record<
      string,
      unknown
    >;
    expect(pet.id).toBe(10);
    expect(pet.owner).toEqual({ name: 'text', email: 'name@example.com' });
    expect(
      exampleFromSchema(reader, { $ref: '#/components/schemas/Pet' }, 'request') as object,
    ).not.toHaveProperty('id');
    expect(exampleFromSchema(reader, { $ref: '#/components/schemas/Animal' }, 'response')).toEqual({
      petType: 'text',
      huntingSkill: 'lazy',
    });
  });

  it('stop where a schema repeats, and respect numeric bounds', () => {
    expect(exampleFromSchema(reader, { $ref: '#/components/schemas/TreeNode' }, 'response')).toEqual({
      value: 'text',
      children: [],
    });
    const r = new SpecReader({});
    expect(exampleFromSchema(r, { type: 'integer', minimum: 5 }, 'schema')).toBe(5);
    expect(exampleFromSchema(r, { type: 'integer', exclusiveMinimum: 5 }, 'schema')).toBe(6);
    expect(exampleFromSchema(r, { type: 'number', maximum: -3 }, 'schema')).toBe(-3);
    expect(exampleFromSchema(r, { type: ['null', 'boolean'] }, 'schema')).toBe(true);
    expect(exampleFromSchema(r, { type: 'null' }, 'schema')).toBe(null);
    expect(exampleFromSchema(r, { examples: ['first', 'second'] }, 'schema')).toBe('first');
  });
});

describe('curl commands', () => {
  it('quote for a POSIX shell', () => {
    expect(quote("it's")).toBe(`'it'\\''s'`);
    expect(quote('$(rm -rf ~) `x` "y"')).toBe(`'$(rm -rf ~) \`x\` "y"'`);
  });

  it('put api keys in the query when the scheme says so, and encode query values', () => {
    const spec = {
      openapi: '3.1.0',
      servers: [{ url: 'https://api.example.com/' }],
      security: [{ key: [] }],
      components: { securitySchemes: { key: { type: 'apiKey', in: 'query', name: 'api_key' } } },
      paths: {
        '/search': {
          get: {
            parameters: [
              { name: 'q', in: 'query', required: true, schema: { type: 'string' }, example: 'a b&c' },
            ],
            responses: {},
          },
        },
      },
    };
    const reader = readerFor(spec);
    expect(curlCommand(reader, findOperation(reader, '/search', 'get')!)).toBe(
      "curl -L \\\n  --request GET \\\n  --url 'https://api.example.com/search?q=a%20b%26c&api_key=YOUR_API_KEY'",
    );
  });
});
