import { describe, expect, it } from 'vitest';
import { bodyOf, count, dangers, tags } from './html-check.js';
import { codeText, draw, operation, schemas, textOf, webhook } from './openapi-render.js';

const XSS = '<script>alert(1)</script><img src=x onerror=alert(2)>';

/** A spec whose every string a reader sees is hostile. */
const hostile = {
  openapi: '3.0.0',
  info: { title: XSS, version: '1' },
  servers: [{ url: 'javascript:alert(1)//"><script>alert(3)</script>' }],
  security: [{ 'k"ey<b>': ['scope"<i>'] }],
  paths: {
    '/a/{id"}': {
      get: {
        summary: `Sum ${XSS}`,
        description: `Click [here](javascript:alert(1)) or [there](data:text/html,x). <a href="javascript:alert(2)">raw</a>\n\n<script>alert(4)</script>\n\n![img](javascript:alert(5))\n\n{% openapi-operation spec="evil" path="/a/{id\\"}" method="get" %}\n[x](y)\n{% endopenapi-operation %}`,
        parameters: [
          {
            name: 'id"><script>',
            in: 'path',
            required: true,
            description: XSS,
            schema: { type: 'string', enum: [XSS, '"quoted"'], default: XSS, pattern: '<x>' },
            example: 'it\'s "<b>"',
          },
          {
            name: "h'eader",
            in: 'header',
            required: true,
            schema: { type: 'string' },
            example: "a'b; rm -rf ~",
          },
        ],
        requestBody: {
          content: {
            'application/json"><script>': {
              schema: {
                type: 'object',
                properties: {
                  [`na"me${XSS}`]: { type: `str${XSS}`, format: XSS, description: XSS, example: XSS },
                },
              },
            },
          },
        },
        responses: {
          [`200${XSS}`]: {
            description: XSS,
            headers: { [XSS]: { schema: { type: 'string' }, description: XSS } },
            content: { 'text/html': { example: XSS } },
          },
        },
        'x-codeSamples': [{ lang: 'html"><script>', label: XSS, source: XSS }],
      },
    },
  },
  webhooks: { [XSS]: { post: { summary: XSS, responses: {} } } },
  components: {
    securitySchemes: { 'k"ey<b>': { type: 'apiKey', in: 'header', name: `X-${XSS}`, description: XSS } },
    schemas: {
      [`S"${XSS}`]: {
        type: 'object',
        title: XSS,
        description: XSS,
        properties: { [XSS]: { $ref: `#/components/schemas/${XSS}` } },
      },
    },
  },
};

describe('hostile specifications', () => {
  const drawn = draw(
    [
      operation('h', '/a/{id"}', 'get'),
      webhook('h', XSS, 'post'),
      schemas('h', [`S"${XSS}`]),
      operation(`slug"${XSS}`, XSS, 'get" onclick="x'),
    ],
    { h: hostile },
  );
  const { html } = drawn;

  it('are escaped everywhere: no element, handler or unsafe URL comes from the spec', () => {
    expect(dangers(bodyOf(html))).toEqual([]);
    expect(count(html, 'script')).toBe(0);
    // An <img> in a description goes through the page sanitizer: no handler, no unsafe source.
    for (const img of tags(html).filter((t) => t.name === 'img'))
      expect([...img.attrs.keys()].sort()).toEqual(['alt', 'class', 'decoding', 'loading', 'src']);
    expect(html).not.toContain('<b>');
    expect(html).not.toMatch(/href="(?:javascript|data):/i);
    expect(tags(html).every((t) => [...t.attrs.keys()].every((name) => !name.startsWith('on')))).toBe(true);
  });

  it('still show what they say, as text', () => {
    const text = textOf(html);
    expect(text).toContain('Sum <script>alert(1)</script>');
    expect(text).toContain('id"><script>');
    // Raw HTML in a markdown description is never markup: its tags are dropped or shown as text.
    expect(html).not.toContain('<a href="javascript');
  });

  it('keep descriptions from drawing other OpenAPI blocks', () => {
    expect(html).not.toContain('“evil”');
    expect((html.match(/oa-operation/g) ?? []).length).toBe(2);
  });

  it('quote every value of the curl command for the shell', () => {
    const text = codeText(html);
    expect(text).toContain(`--header 'h'\\''eader: a'\\''b; rm -rf ~'`);
    expect(text).not.toMatch(/--header 'h'eader/);
  });

  it('give ids that stay ids', () => {
    for (const tag of tags(html)) {
      const id = tag.attrs.get('id');
      if (id !== undefined) expect(id).toMatch(/^[-A-Za-z0-9._+]+$/);
    }
  });

  it('name an unknown slug with quotes and markup escaped', () => {
    expect(html).toContain('The OpenAPI specification “slug&quot;&lt;script&gt;');
    expect(html).not.toContain('method-badge method-get" onclick');
  });
});

/** Values of every JSON type, for fields that should hold something else. */
const ODD: unknown[] = [
  null,
  true,
  0,
  -1,
  1e308,
  '',
  'x',
  [],
  [null],
  {},
  { $ref: 1 },
  { $ref: '#' },
  { $ref: '#/' },
  { $ref: '#/paths' },
];

function* shapes(): Generator<unknown> {
  const base = JSON.parse(JSON.stringify(hostile)) as Record<string, unknown>;
  const op = (base.paths as Record<string, Record<string, Record<string, unknown>>>)['/a/{id"}']!.get!;
  for (const value of ODD) {
    for (const key of [
      'summary',
      'description',
      'parameters',
      'requestBody',
      'responses',
      'security',
      'servers',
      'x-codeSamples',
      'deprecated',
    ]) {
      yield { ...base, paths: { '/a/{id"}': { get: { ...op, [key]: value } } } };
    }
    yield { ...base, components: value };
    yield { ...base, components: { schemas: value, securitySchemes: value } };
    yield {
      ...base,
      paths: {
        '/a/{id"}': {
          parameters: value,
          get: {
            parameters: [value, { name: 'p', in: 'query', schema: value, content: value, examples: value }],
            requestBody: {
              content: { 'application/json': { schema: value, examples: { a: value }, example: value } },
            },
            responses: {
              '200': {
                description: value,
                headers: { h: value },
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      properties: {
                        a: value,
                        b: {
                          type: value,
                          items: value,
                          enum: value,
                          allOf: value,
                          oneOf: [value],
                          required: value,
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    };
  }
}

describe('specifications of the wrong shape', () => {
  it('draw an operation or a notice, never throw', () => {
    let n = 0;
    for (const spec of shapes()) {
      const { html } = draw(
        [operation('s', '/a/{id"}', 'get'), webhook('s', XSS, 'post'), schemas('s', [`S"${XSS}`])],
        { s: spec },
      );
      expect(html).toMatch(/oa-operation|api-placeholder/);
      expect(dangers(html)).toEqual([]);
      n++;
    }
    expect(n).toBeGreaterThan(100);
  });

  it('survive a document that throws when read', () => {
    const trap = new Proxy(
      {},
      {
        get() {
          throw new Error('boom');
        },
        getOwnPropertyDescriptor() {
          throw new Error('boom');
        },
        ownKeys() {
          throw new Error('boom');
        },
        has() {
          throw new Error('boom');
        },
      },
    );
    const { html } = draw([operation('s', '/a', 'get')], { s: { openapi: '3.1.0', paths: trap } });
    expect(html).toContain('api-placeholder');
  });
});
