import { describe, expect, it } from 'vitest';
import {
  ConditionSyntaxError,
  evaluateCondition,
  evaluateText,
  parseCondition,
} from '../../src/publish/conditions.js';

const claims = {
  plan: 'pro',
  seats: 12,
  admin: true,
  roles: ['editor', 'admin'],
  'team-id': 'T-7',
  email: 'ada@example.com',
  company: { name: 'Acme', size: 40 },
  unsigned: { beta: true, locale: 'fr' },
  empty: '',
  zero: 0,
  nothing: null,
};

const holds = (text: string, given: Record<string, unknown> = claims) =>
  evaluateCondition(parseCondition(text), given);

function syntaxError(text: string): ConditionSyntaxError {
  try {
    parseCondition(text);
  } catch (error) {
    if (error instanceof ConditionSyntaxError) return error;
    throw error;
  }
  throw new Error(`expected "${text}" not to parse`);
}

describe('parseCondition', () => {
  it('builds a tree with JavaScript precedence', () => {
    expect(parseCondition('visitor.claims.a == 1 || !visitor.claims.b && visitor.claims.c')).toEqual({
      type: 'logical',
      operator: '||',
      left: {
        type: 'compare',
        operator: '==',
        left: { type: 'claim', path: ['a'] },
        right: { type: 'literal', value: 1 },
      },
      right: {
        type: 'logical',
        operator: '&&',
        left: { type: 'not', operand: { type: 'claim', path: ['b'] } },
        right: { type: 'claim', path: ['c'] },
      },
    });
  });

  it('reads quoted keys, strings with escapes, negative and decimal numbers', () => {
    expect(parseCondition('visitor.claims["team-id"].includes("T")')).toEqual({
      type: 'includes',
      target: { type: 'claim', path: ['team-id'] },
      value: { type: 'literal', value: 'T' },
    });
    expect(parseCondition(`'it\\'s \\u00e9'`)).toEqual({ type: 'literal', value: "it's é" });
    expect(parseCondition('-1.5e2')).toEqual({ type: 'literal', value: -150 });
    expect(parseCondition('visitor.claims')).toEqual({ type: 'claim', path: [] });
  });

  it.each([
    ['', 'Empty expression', 0],
    ['visitor.claims.a ==', 'Expected a value, found end of expression', 19],
    ['visitor.claims.a = 1', 'Unexpected "="', 17],
    ['visitor.claims.a == "open', 'Unterminated string', 20],
    ['(visitor.claims.a', 'Expected ")" to close "("', 17],
    ['user.plan == "pro"', 'Unknown name "user"', 0],
    ['visitor.plan', 'Expected "claims" after "visitor."', 8],
    ['visitor.claims.a visitor.claims.b', 'Unexpected "visitor"; join conditions with && or ||', 17],
    ['1 < visitor.claims.a < 3', 'Comparisons cannot be chained', 21],
    ['visitor.claims.a.toString()', 'Unexpected "("', 25],
    ['visitor.claims.a.includes(', 'Expected a value, found end of expression', 26],
    ['visitor.claims.a.includes("x"', 'Expected ")" to close includes(', 29],
    ['visitor.claims[0]', 'Expected a quoted claim name', 15],
    ['visitor.claims.a; process.exit()', 'Unexpected ";"', 16],
    ['`x`', 'Unexpected "`"', 0],
  ])('refuses %j with a positioned message', (text, reason, position) => {
    const error = syntaxError(text);
    expect(error.reason).toContain(reason);
    expect(error.position).toBe(position);
    expect(error.message).toContain(`at character ${position + 1}`);
  });

  it('refuses expressions that are too long or nested too deeply', () => {
    expect(syntaxError(`"${'a'.repeat(1100)}"`).reason).toContain('longer than 1024');
    expect(syntaxError(`${'('.repeat(100)}true${')'.repeat(100)}`).reason).toContain('nested too deeply');
    expect(syntaxError(`${'!'.repeat(100)}true`).reason).toContain('nested too deeply');
  });
});

describe('evaluateCondition', () => {
  it.each([
    ['visitor.claims.plan == "pro"', true],
    ['visitor.claims.plan === "pro"', true],
    ['visitor.claims.plan != "pro"', false],
    ['visitor.claims.plan !== "free"', true],
    ['visitor.claims.seats > 10 && visitor.claims.seats <= 12', true],
    ['visitor.claims.seats >= 13', false],
    ['visitor.claims.plan < "zzz"', true],
    ['visitor.claims.seats > "10"', false],
    ['visitor.claims.seats == "12"', false],
    ['visitor.claims.admin', true],
    ['!visitor.claims.admin', false],
    ['!!visitor.claims.admin', true],
    ['visitor.claims.roles.includes("admin")', true],
    ['visitor.claims.roles.includes("owner")', false],
    ['visitor.claims.email.includes("@example.com")', true],
    ['"abc".includes("b")', true],
    ['visitor.claims.seats.includes(1)', false],
    ['visitor.claims["team-id"] == "T-7"', true],
    ['visitor.claims.company.name == "Acme" && visitor.claims.company.size > 10', true],
    ['visitor.claims.unsigned.beta', true],
    ['visitor.claims.unsigned.locale == "fr"', true],
    ['visitor.claims.missing == null', true],
    ['visitor.claims.nothing == null', true],
    ['visitor.claims.missing.deeper == null', true],
    ['visitor.claims.missing', false],
    ['visitor.claims.empty || visitor.claims.zero', false],
    ['(visitor.claims.plan == "free" || visitor.claims.plan == "pro") && visitor.claims.admin', true],
    ['visitor.claims.plan == "free" || visitor.claims.plan == "pro" && !visitor.claims.admin', false],
    ['true', true],
    ['null', false],
    ['0.5 > 0.25', true],
    ['-2 < -1', true],
  ])('%s → %s', (text, expected) => {
    expect(holds(text)).toBe(expected);
  });

  it('reads only own data properties of plain objects', () => {
    expect(holds('visitor.claims.constructor == null', {})).toBe(true);
    expect(holds('visitor.claims.__proto__ == null', {})).toBe(true);
    expect(holds('visitor.claims.toString', {})).toBe(false);
    expect(holds('visitor.claims.plan.length == 3')).toBe(false);
    expect(holds('visitor.claims.roles.length > 0')).toBe(false);
    // An own "__proto__" key (as JSON.parse makes one) is an ordinary claim.
    expect(holds('visitor.claims["__proto__"].x == 1', JSON.parse('{"__proto__": {"x": 1}}'))).toBe(true);
    let called = false;
    const withGetter = Object.defineProperty({}, 'secret', {
      enumerable: true,
      get() {
        called = true;
        return 'yes';
      },
    });
    expect(holds('visitor.claims.secret == "yes"', withGetter)).toBe(false);
    expect(called).toBe(false);
    class Custom {
      plan = 'pro';
    }
    expect(holds('visitor.claims.inner.plan == "pro"', { inner: new Custom() })).toBe(false);
  });

  it('never throws, whatever the claims hold', () => {
    const odd = { a: [null, { b: 1 }], n: Number.NaN, big: 1e308 };
    for (const text of [
      'visitor.claims.a.b.c',
      'visitor.claims.big > 1e400',
      'visitor.claims.a.includes(1)',
    ]) {
      expect(typeof holds(text, odd)).toBe('boolean');
    }
    expect(holds('visitor.claims.a.includes(null)', odd)).toBe(true);
    expect(holds('visitor.claims.n', odd)).toBe(false);
    expect(holds('visitor.claims.n == visitor.claims.n', odd)).toBe(false);
  });
});

describe('expressions GitBook pages write', () => {
  const scope = {
    claims,
    spaceVars: { REGION: 'eu', PRODUCT_NAME: 'Lumen', SEATS: 5 },
    pageVars: { code: 'T-1' },
  };

  it('read space and page variables beside claims', () => {
    expect(
      evaluateCondition(
        parseCondition('visitor.claims.admin === true && space.vars.REGION === "eu"'),
        claims,
        scope,
      ),
    ).toBe(true);
    expect(evaluateCondition(parseCondition('space.vars.REGION === "us"'), claims, scope)).toBe(false);
    expect(evaluateCondition(parseCondition('page.vars.code == "T-1"'), claims, scope)).toBe(true);
    // Without variables given, they read as missing.
    expect(evaluateCondition(parseCondition('space.vars.REGION === "eu"'), claims)).toBe(false);
  });

  it('pick and join texts with ? : and +', () => {
    expect(evaluateText(parseCondition('space.vars.PRODUCT_NAME + " Cloud"'), scope)).toBe('Lumen Cloud');
    expect(evaluateText(parseCondition('space.vars.SEATS + 1'), scope)).toBe('6');
    expect(evaluateText(parseCondition('visitor.claims.plan === "pro" ? "Pro" : "Free"'), scope)).toBe('Pro');
    expect(
      evaluateText(parseCondition('visitor.claims.missing ? "yes" : space.vars.PRODUCT_NAME'), scope),
    ).toBe('Lumen');
    // Objects never show their insides; missing values show nothing.
    expect(evaluateText(parseCondition('visitor.claims.company'), scope)).toBe('');
    expect(evaluateText(parseCondition('space.vars.NOPE'), scope)).toBe('');
  });

  it('refuse other roots and half ternaries, naming the problem', () => {
    expect(syntaxError('site.vars.X').message).toMatch(/Unknown name "site"/);
    expect(syntaxError('space.claims.X').message).toMatch(/Expected "vars" after "space\."/);
    expect(syntaxError('visitor.claims.a ? 1').message).toMatch(/Expected ":"/);
  });
});
