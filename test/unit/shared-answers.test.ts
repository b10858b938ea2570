import fastJsonStringify from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { isSharedAnswer, presentShared } from '../../src/http/shared-answers.js';
import { responseSerializerCompiler } from '../../src/http/validators.js';

const schema = {
  type: 'object',
  properties: { id: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
} as const;

describe('shared answers', () => {
  it('presents a frozen input once and hands out the same frozen answer', () => {
    let calls = 0;
    const present = presentShared((row: { id: string }) => {
      calls++;
      return { id: row.id, tags: ['a'] };
    });
    const row = Object.freeze({ id: 'x' });
    const first = present(row);
    expect(present(row)).toBe(first);
    expect(calls).toBe(1);
    expect(isSharedAnswer(first)).toBe(true);
    expect(() => first.tags.push('b')).toThrow();
  });

  it('presents an input that may still change every time, and does not share the answer', () => {
    let calls = 0;
    const present = presentShared((row: { id: string }) => {
      calls++;
      return { id: row.id };
    });
    const row = { id: 'x' };
    const first = present(row);
    row.id = 'y';
    expect(present(row).id).toBe('y');
    expect(calls).toBe(2);
    expect(isSharedAnswer(first)).toBe(false);
  });

  it('serializes a shared answer once per schema, and any other value every time', () => {
    const serialize = responseSerializerCompiler()({
      schema,
      method: 'GET',
      url: '/',
      httpStatus: '200',
    }) as (data: unknown) => string;
    let reads = 0;
    const answer = () => {
      const value = { tags: ['a'] } as { id?: string; tags: string[] };
      Object.defineProperty(value, 'id', {
        enumerable: true,
        get: () => {
          reads++;
          return 'x';
        },
      });
      return value;
    };
    const shared = presentShared(() => answer())(Object.freeze({}));
    reads = 0; // freezing read it once
    const expected = fastJsonStringify(schema)({ id: 'x', tags: ['a'] });
    expect(serialize(shared)).toBe(expected);
    expect(serialize(shared)).toBe(expected);
    expect(reads).toBe(1);

    const unshared = answer();
    serialize(unshared);
    serialize(unshared);
    expect(reads).toBe(3);
  });

  it('keeps answers apart per schema', () => {
    const compile = responseSerializerCompiler();
    const other = { type: 'object', properties: { id: { type: 'string' } } } as const;
    const shared = presentShared(() => ({ id: 'x', tags: ['a'] }))(Object.freeze({}));
    const full = compile({ schema, method: 'GET', url: '/', httpStatus: '200' }) as (d: unknown) => string;
    const idOnly = compile({ schema: other, method: 'GET', url: '/', httpStatus: '200' }) as (
      d: unknown,
    ) => string;
    expect(full(shared)).toBe('{"id":"x","tags":["a"]}');
    expect(idOnly(shared)).toBe('{"id":"x"}');
  });
});
