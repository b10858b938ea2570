import { describe, expect, it } from 'vitest';
import { blobHash } from '../../src/content/blob-store.js';
import { canonicalJson } from '../../src/content/canonical-json.js';
import { canonicalHash } from '../../src/openapi/canonical-hash.js';
import { brokenLocalRefs } from '../../src/openapi/local-refs.js';
import { parseSpecText, SpecParseError } from '../../src/openapi/parse-text.js';

const MB = 1024 * 1024;

function parseError(text: string, maxBytes = MB): string {
  try {
    parseSpecText(text, 'The file', maxBytes);
  } catch (error) {
    expect(error).toBeInstanceOf(SpecParseError);
    return (error as Error).message;
  }
  throw new Error('expected a parse error');
}

/** `depth` levels of anchors, each repeating the one before `width` times. */
function aliasBomb(depth: number, width: number): string {
  const lines = [`l0: &l0 [${Array(width).fill('"x"').join(',')}]`];
  for (let i = 1; i < depth; i++)
    lines.push(
      `l${i}: &l${i} [${Array(width)
        .fill(`*l${i - 1}`)
        .join(',')}]`,
    );
  return lines.join('\n');
}

describe('reading specification text', () => {
  it('reads JSON and YAML, and says which', () => {
    expect(parseSpecText('{"openapi":"3.1.0"}', 'x', MB)).toEqual({
      value: { openapi: '3.1.0' },
      format: 'json',
    });
    expect(parseSpecText('openapi: 3.1.0\ninfo: {title: t}\n', 'x', MB)).toEqual({
      value: { openapi: '3.1.0', info: { title: 't' } },
      format: 'yaml',
    });
    // JSON with a comment is YAML's to read.
    expect(parseSpecText('{"a": 1, # note\n"b": 2}', 'x', MB).format).toBe('yaml');
    // A byte-order mark does not make JSON unreadable.
    expect(parseSpecText('\ufeff{"a":1}', 'x', MB)).toEqual({ value: { a: 1 }, format: 'json' });
  });

  it('reads YAML merge keys, and makes aliased nodes separate objects', () => {
    const { value } = parseSpecText(
      'base: &b {type: string}\none: *b\ntwo:\n  <<: *b\n  format: uuid\n',
      'x',
      MB,
    );
    expect(value).toEqual({
      base: { type: 'string' },
      one: { type: 'string' },
      two: { type: 'string', format: 'uuid' },
    });
    expect(value.one).not.toBe(value.base);
  });

  it('refuses what is not an object, empty text, and text over the limit', () => {
    expect(parseError('not: [valid')).toMatch(/neither JSON nor YAML/);
    expect(parseError('just words')).toMatch(/not an object/);
    expect(parseError('[1, 2]')).toMatch(/not an object/);
    expect(parseError('  \n')).toMatch(/empty/);
    expect(parseError('a: 1\na: 2\n')).toMatch(/unique/);
    expect(parseError(`{"a":"${'x'.repeat(200)}"}`, 100)).toMatch(/more than the limit of 100 bytes/);
  });

  it('stops alias bombs and self-referencing aliases', () => {
    expect(parseError(aliasBomb(9, 10))).toMatch(/alias/i);
    expect(parseError('a: &a\n  b: *a\n')).toMatch(/cannot be read as JSON/);
    // Within the alias bound, the expansion itself is bounded too.
    expect(
      parseError(`big: &big "${'y'.repeat(30_000)}"\nr: [${Array(50).fill('*big').join(',')}]`, 100_000),
    ).toMatch(/expands to/);
  });
});

describe('canonical hash', () => {
  it('is the SHA-256 of the canonical JSON, whatever the key order', () => {
    const a = { b: [1, { y: 'z', x: null }], a: 'é', c: { e: true, d: 1.5 } };
    const b = { c: { d: 1.5, e: true }, a: 'é', b: [1, { x: null, y: 'z' }] };
    expect(canonicalHash(a)).toBe(blobHash(Buffer.from(canonicalJson(a))));
    expect(canonicalHash(a)).toBe(canonicalHash(b));
    expect(canonicalHash({ ...a, a: 'e' })).not.toBe(canonicalHash(a));
    const big = { items: Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `item ${i}` })) };
    expect(canonicalHash(big)).toBe(blobHash(Buffer.from(canonicalJson(big))));
  });
});

describe('broken local refs', () => {
  it('names refs that point at nothing, once each', () => {
    const document = {
      components: { schemas: { Pet: { type: 'object' }, 'a/b': { type: 'string' } } },
      paths: {
        '/a': { $ref: '#/components/schemas/Pet' },
        '/b': { $ref: '#/components/schemas/a~1b' },
        '/c': { $ref: '#/components/schemas/Nope' },
        '/d': [{ $ref: '#/components/schemas/Nope' }, { $ref: '#/missing/deep/path' }],
        '/e': { $ref: 'https://example.com/other.json#/x' },
        '/f': { $ref: '#/components/schemas/Pet/properties' },
      },
    };
    expect(
      brokenLocalRefs(document)
        .map((i) => i.message)
        .sort(),
    ).toEqual([
      "Can't resolve reference: #/components/schemas/Nope",
      "Can't resolve reference: #/components/schemas/Pet/properties",
      "Can't resolve reference: #/missing/deep/path",
    ]);
    expect(brokenLocalRefs(document).every((i) => i.code === 'INVALID_REFERENCE')).toBe(true);
  });
});
