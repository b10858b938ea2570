import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { linkUrlProblem, safeHref, safeSrc } from '../../src/link-urls.js';
import { safeHref as rendererSafeHref } from '../../src/publish/render/escape.js';
import { compileValidator, LINK_URL, makeAjv, schemaError } from '../../src/validation.js';

/** The message of the 400 `check` throws for `value`. */
function refusal(check: (value: unknown, field: string) => void, value: unknown): string {
  try {
    check(value, 'body');
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    return (error as ApiError).message;
  }
  throw new Error('expected a refusal');
}

describe('link URLs: one rule for the renderer and the API', () => {
  const refused = [
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'JaVaScRiPt:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    ' javascript:alert(1)',
    '\u0001javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    '&#106;avascript:alert(1)',
    '&#x6A;avascript:alert(1)',
    '&#106avascript:alert(1)',
    'javascript&colon;alert(1)',
    'java&Tab;script:alert(1)',
    '   ',
  ];
  const accepted = [
    'https://example.com/a?b=1&c=2#d',
    'HTTP://EXAMPLE.COM/',
    'mailto:docs@example.com',
    '/docs/start',
    'guides/intro',
    '#section',
    '?q=1&r=2',
    'page?x=1&amp;y=2',
    '//cdn.example.com/x',
  ];

  it.each(refused.map((u) => [u]))('refuses %j at write time', (url) => {
    expect(linkUrlProblem(url)).toBeDefined();
  });

  it.each(accepted.map((u) => [u]))('accepts %j at write time and in pages', (url) => {
    expect(linkUrlProblem(url)).toBeUndefined();
    expect(safeHref(url)).toBe(url.trim());
  });

  it('never accepts at write time what the renderer would drop', () => {
    for (const url of [...refused, ...accepted]) {
      if (linkUrlProblem(url) === undefined) expect(safeHref(url), JSON.stringify(url)).toBeDefined();
    }
    // The renderer's safeHref is this one, not a copy.
    expect(rendererSafeHref).toBe(safeHref);
    expect(safeSrc('mailto:a@b.c')).toBeUndefined();
  });

  it('names the rule in the refusal', () => {
    expect(linkUrlProblem('JAVASCRIPT:alert(1)')).toContain('"javascript:" links are refused');
    expect(linkUrlProblem('java\tscript:x')).toContain('control characters');
    expect(linkUrlProblem('&#106;avascript:x')).toContain('character references');
  });

  it('is the x-link-url keyword of the schema validator', () => {
    const check = compileValidator(Type.Object({ url: Type.String({ [LINK_URL]: true }) }));
    expect(() => check({ url: 'https://example.com' }, 'body')).not.toThrow();
    expect(refusal(check, { url: 'data:text/html,x' })).toBe(
      'Invalid request: body.url must be an http(s), mailto or relative URL ("data:" links are refused)',
    );
  });
});

describe('one formatter for schema errors', () => {
  const Ref = Type.Union([
    Type.Object({ kind: Type.Literal('url'), url: Type.String() }),
    Type.Object({ kind: Type.Literal('page'), page: Type.String() }),
  ]);
  const Body = Type.Object({
    title: Type.String({ maxLength: 5 }),
    style: Type.Optional(Type.Enum(['a', 'b'])),
    to: Type.Optional(Ref),
    closed: Type.Optional(Type.Object({}, { additionalProperties: false })),
  });

  /** What a route schema says about `value` (the request validator's Ajv and the error handler's words). */
  function routeMessage(value: unknown): string {
    const validate = makeAjv({ coerce: false }).compile(Body);
    expect(validate(value)).toBe(false);
    return schemaError('body', validate.errors ?? []).message;
  }

  it.each([
    [{}, 'Invalid request: body.title is required'],
    [{ title: 'too long' }, 'Invalid request: body.title must NOT have more than 5 characters'],
    [{ title: 'x', style: 'c' }, 'Invalid request: body.style must be one of: "a", "b"'],
    [{ title: 'x', to: { kind: 'page' } }, 'Invalid request: body.to.page is required'],
    [{ title: 'x', to: { kind: 'url', url: 1 } }, 'Invalid request: body.to.url must be string'],
    [{ title: 'x', to: { kind: 'file' } }, 'Invalid request: body.to.kind must be one of: "url", "page"'],
    [{ title: 'x', closed: { extra: 1 } }, 'Invalid request: body.closed must not have the property "extra"'],
  ])('words %j the same from a route schema and from compileValidator', (value, message) => {
    expect(routeMessage(value)).toBe(message);
    expect(refusal(compileValidator(Body), value)).toBe(message);
  });

  it('quotes at most 100 characters of a property name', () => {
    const name = 'n'.repeat(5000);
    const message = refusal(compileValidator(Body), { title: 'x', closed: { [name]: 1 } });
    expect(message).toBe(`Invalid request: body.closed must not have the property "${'n'.repeat(100)}…"`);
  });
});
