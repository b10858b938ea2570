/**
 * Visitor conditions: the small expression language of `condition` on site sections, site
 * spaces and header links, which decides what a visitor of an adaptive site sees.
 *
 *   visitor.claims.plan == "pro" && !visitor.claims.unsigned.beta
 *   visitor.claims.roles.includes("admin") || visitor.claims["team-id"] >= 10
 *
 * Values: string ('…' or "…"), number, true, false, null, and claims read under
 * `visitor.claims` by name (`.name`) or by quoted key (`["name"]`). Operators, loosest first:
 * `||`, `&&`, comparisons (`== != === !== < > <= >=`, not chained), `!`, then `.includes(x)`
 * on a claim or a string, and parentheses.
 *
 * Evaluation never runs code and never throws: a claim that is missing, or read through
 * something that is not a plain object, is null; only own data properties of plain objects
 * (what JSON gives) are read, so names like `__proto__` or `constructor` reach nothing else.
 * Equality is strict except that null equals a missing value; `<` and friends compare two
 * numbers or two strings and are false otherwise; `&&`, `||` and `!` use JavaScript truthiness.
 */

export type Literal = string | number | boolean | null;

export type Condition =
  | { type: 'literal'; value: Literal }
  /** A value read under `visitor.claims`, or (`root`) under `space.vars` / `page.vars`. */
  | { type: 'claim'; path: string[]; root?: 'space' | 'page' }
  | { type: 'ternary'; test: Condition; then: Condition; otherwise: Condition }
  | { type: 'add'; left: Condition; right: Condition }
  | { type: 'not'; operand: Condition }
  | { type: 'logical'; operator: '&&' | '||'; left: Condition; right: Condition }
  | { type: 'compare'; operator: CompareOperator; left: Condition; right: Condition }
  | { type: 'includes'; target: Condition; value: Condition };

export type CompareOperator = '==' | '!=' | '<' | '>' | '<=' | '>=';

/** A condition that does not parse; `position` is the 0-based offset of the problem. */
export class ConditionSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly position: number,
  ) {
    super(`${reason} at character ${position + 1}`);
    this.name = 'ConditionSyntaxError';
  }
}

export const MAX_CONDITION_LENGTH = 1024;
const MAX_DEPTH = 64;

type Token =
  | { kind: 'punct'; value: string; at: number }
  | { kind: 'string'; value: string; at: number }
  | { kind: 'number'; value: number; at: number }
  | { kind: 'name'; value: string; at: number }
  | { kind: 'end'; at: number };

const PUNCTUATION = [
  '===',
  '!==',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '<',
  '>',
  '!',
  '(',
  ')',
  '[',
  ']',
  '.',
  '?',
  ':',
  '+',
];
const COMPARISONS: Record<string, CompareOperator> = {
  '==': '==',
  '===': '==',
  '!=': '!=',
  '!==': '!=',
  '<': '<',
  '>': '>',
  '<=': '<=',
  '>=': '>=',
};
const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
  '\\': '\\',
  "'": "'",
  '"': '"',
};

function describe(token: Token): string {
  switch (token.kind) {
    case 'end':
      return 'end of expression';
    case 'string':
      return 'a string';
    case 'number':
      return `number ${token.value}`;
    default:
      return `"${token.value}"`;
  }
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const at = i;
    if (c === '"' || c === "'") {
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length) throw new ConditionSyntaxError('Unterminated string', at);
        const d = text[i]!;
        if (d === c) {
          i++;
          break;
        }
        if (d === '\n') throw new ConditionSyntaxError('Unterminated string', at);
        if (d === '\\') {
          const e = text[i + 1];
          if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            value += String.fromCharCode(Number.parseInt(text.slice(i + 2, i + 6), 16));
            i += 6;
            continue;
          }
          if (e === undefined || !(e in ESCAPES))
            throw new ConditionSyntaxError('Unknown escape in string', i);
          value += ESCAPES[e];
          i += 2;
          continue;
        }
        value += d;
        i++;
      }
      tokens.push({ kind: 'string', value, at });
      continue;
    }
    const number = /^(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    if (number) {
      i += number[0].length;
      if (i < text.length && /[A-Za-z_$0-9]/.test(text[i]!))
        throw new ConditionSyntaxError(`Unexpected "${text[i]}" after a number`, i);
      tokens.push({ kind: 'number', value: Number(number[0]), at });
      continue;
    }
    const name = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(text.slice(i));
    if (name) {
      i += name[0].length;
      tokens.push({ kind: 'name', value: name[0], at });
      continue;
    }
    const punct = PUNCTUATION.find((p) => text.startsWith(p, i));
    if (punct) {
      i += punct.length;
      tokens.push({ kind: 'punct', value: punct, at });
      continue;
    }
    if (c === '-' && /[\d.]/.test(text[i + 1] ?? '')) {
      tokens.push({ kind: 'punct', value: '-', at });
      i++;
      continue;
    }
    throw new ConditionSyntaxError(`Unexpected "${c}"`, at);
  }
  tokens.push({ kind: 'end', at: text.length });
  return tokens;
}

class Parser {
  private index = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.index]!;
  }

  private next(): Token {
    const token = this.tokens[this.index]!;
    if (token.kind !== 'end') this.index++;
    return token;
  }

  private isPunct(value: string): boolean {
    const token = this.peek();
    return token.kind === 'punct' && token.value === value;
  }

  private expectPunct(value: string, context: string): void {
    const token = this.peek();
    if (token.kind === 'punct' && token.value === value) {
      this.index++;
      return;
    }
    throw new ConditionSyntaxError(`Expected "${value}" ${context}, found ${describe(token)}`, token.at);
  }

  parse(): Condition {
    if (this.peek().kind === 'end') throw new ConditionSyntaxError('Empty expression', 0);
    const condition = this.ternary();
    const rest = this.peek();
    if (rest.kind !== 'end') {
      throw new ConditionSyntaxError(`Unexpected ${describe(rest)}; join conditions with && or ||`, rest.at);
    }
    return condition;
  }

  private nested<T>(at: number, parse: () => T): T {
    if (++this.depth > MAX_DEPTH) throw new ConditionSyntaxError('Expression nested too deeply', at);
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  /** `test ? a : b`, loosest of all (GitBook's expressions use it to pick a text). */
  private ternary(): Condition {
    const test = this.or();
    if (!this.isPunct('?')) return test;
    const at = this.next().at;
    return this.nested(at, () => {
      const then = this.ternary();
      this.expectPunct(':', 'in "test ? a : b"');
      return { type: 'ternary', test, then, otherwise: this.ternary() };
    });
  }

  private or(): Condition {
    let left = this.and();
    while (this.isPunct('||')) {
      this.next();
      left = { type: 'logical', operator: '||', left, right: this.and() };
    }
    return left;
  }

  private and(): Condition {
    let left = this.comparison();
    while (this.isPunct('&&')) {
      this.next();
      left = { type: 'logical', operator: '&&', left, right: this.comparison() };
    }
    return left;
  }

  private comparison(): Condition {
    const left = this.additive();
    const token = this.peek();
    const operator = token.kind === 'punct' ? COMPARISONS[token.value] : undefined;
    if (!operator) return left;
    this.next();
    const right = this.additive();
    const after = this.peek();
    if (after.kind === 'punct' && COMPARISONS[after.value]) {
      throw new ConditionSyntaxError(
        'Comparisons cannot be chained; join them with && or add parentheses',
        after.at,
      );
    }
    return { type: 'compare', operator, left, right };
  }

  /** `a + b`: numbers add, anything else joins as text. */
  private additive(): Condition {
    let left = this.unary();
    while (this.isPunct('+')) {
      const at = this.next().at;
      const right = this.unary();
      left = this.nested(at, () => ({ type: 'add', left, right }));
    }
    return left;
  }

  private unary(): Condition {
    const token = this.peek();
    if (token.kind === 'punct' && token.value === '!') {
      this.next();
      return this.nested(token.at, () => ({ type: 'not', operand: this.unary() }));
    }
    return this.postfix();
  }

  private postfix(): Condition {
    let target = this.primary();
    while (this.isPunct('.')) {
      const dot = this.next();
      const name = this.next();
      if (name.kind !== 'name' || name.value !== 'includes') {
        throw new ConditionSyntaxError(
          `Expected "includes" after "." here, found ${describe(name)}`,
          name.kind === 'end' ? dot.at + 1 : name.at,
        );
      }
      this.expectPunct('(', 'after includes');
      const value = this.nested(name.at, () => this.or());
      this.expectPunct(')', 'to close includes(');
      target = { type: 'includes', target, value };
    }
    return target;
  }

  private primary(): Condition {
    const token = this.next();
    switch (token.kind) {
      case 'string':
        return { type: 'literal', value: token.value };
      case 'number':
        return { type: 'literal', value: token.value };
      case 'name':
        return this.name(token);
      case 'punct':
        if (token.value === '(') {
          const inner = this.nested(token.at, () => this.ternary());
          this.expectPunct(')', 'to close "("');
          return inner;
        }
        if (token.value === '-') {
          const number = this.next();
          if (number.kind !== 'number')
            throw new ConditionSyntaxError('Expected a number after "-"', number.at);
          return { type: 'literal', value: -number.value };
        }
        throw new ConditionSyntaxError(`Expected a value, found ${describe(token)}`, token.at);
      default:
        throw new ConditionSyntaxError('Expected a value, found end of expression', token.at);
    }
  }

  private name(token: Extract<Token, { kind: 'name' }>): Condition {
    switch (token.value) {
      case 'true':
        return { type: 'literal', value: true };
      case 'false':
        return { type: 'literal', value: false };
      case 'null':
      case 'undefined':
        return { type: 'literal', value: null };
      case 'visitor':
      case 'space':
      case 'page':
        break;
      default:
        throw new ConditionSyntaxError(
          `Unknown name "${token.value}"; read claims as visitor.claims.<name>, variables as space.vars.<name> or page.vars.<name>`,
          token.at,
        );
    }
    const member = token.value === 'visitor' ? 'claims' : 'vars';
    this.expectPunct('.', `after ${token.value}`);
    const claims = this.next();
    if (claims.kind !== 'name' || claims.value !== member) {
      throw new ConditionSyntaxError(
        `Expected "${member}" after "${token.value}.", found ${describe(claims)}`,
        claims.at,
      );
    }
    const root = token.value === 'visitor' ? undefined : (token.value as 'space' | 'page');
    const path: string[] = [];
    for (;;) {
      if (this.isPunct('[')) {
        this.next();
        const key = this.next();
        if (key.kind !== 'string')
          throw new ConditionSyntaxError(
            `Expected a quoted claim name in [ ], found ${describe(key)}`,
            key.at,
          );
        this.expectPunct(']', 'after the claim name');
        path.push(key.value);
        continue;
      }
      if (!this.isPunct('.')) break;
      const member = this.tokens[this.index + 1]!;
      const call = this.tokens[this.index + 2];
      // `.includes(` is the method, not a claim named "includes".
      if (
        member.kind === 'name' &&
        member.value === 'includes' &&
        call?.kind === 'punct' &&
        call.value === '('
      )
        break;
      this.next();
      if (member.kind !== 'name')
        throw new ConditionSyntaxError(
          `Expected a claim name after ".", found ${describe(member)}`,
          member.at,
        );
      this.next();
      path.push(member.value);
    }
    return root ? { type: 'claim', path, root } : { type: 'claim', path };
  }
}

/** Parses a condition; throws ConditionSyntaxError saying what is wrong and where. */
export function parseCondition(text: string): Condition {
  if (text.length > MAX_CONDITION_LENGTH) {
    throw new ConditionSyntaxError(
      `Expression longer than ${MAX_CONDITION_LENGTH} characters`,
      MAX_CONDITION_LENGTH,
    );
  }
  return new Parser(tokenize(text)).parse();
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** An own data property of a plain object (never a getter, never the prototype chain). */
function ownValue(container: unknown, key: string): unknown {
  if (!isPlainObject(container)) return undefined;
  const descriptor = Object.getOwnPropertyDescriptor(container, key);
  return descriptor && 'value' in descriptor ? descriptor.value : undefined;
}

function truthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (typeof value === 'number' && Number.isNaN(value)) return false;
  return true;
}

function same(a: unknown, b: unknown): boolean {
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  return a === b;
}

function order(operator: CompareOperator, a: unknown, b: unknown): boolean {
  if (!((typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string')))
    return false;
  switch (operator) {
    case '<':
      return a < b;
    case '>':
      return a > b;
    case '<=':
      return a <= b;
    default:
      return a >= b;
  }
}

/** What an expression reads: the visitor's claims, the space's and the page's variables. */
export interface Scope {
  claims: unknown;
  spaceVars?: unknown;
  pageVars?: unknown;
}

function evaluate(condition: Condition, scope: Scope): unknown {
  switch (condition.type) {
    case 'literal':
      return condition.value;
    case 'claim': {
      let value: unknown =
        condition.root === 'space'
          ? scope.spaceVars
          : condition.root === 'page'
            ? scope.pageVars
            : scope.claims;
      for (const key of condition.path) value = ownValue(value, key);
      return value ?? null;
    }
    case 'not':
      return !truthy(evaluate(condition.operand, scope));
    case 'logical': {
      const left = truthy(evaluate(condition.left, scope));
      if (condition.operator === '&&') return left && truthy(evaluate(condition.right, scope));
      return left || truthy(evaluate(condition.right, scope));
    }
    case 'compare': {
      const left = evaluate(condition.left, scope);
      const right = evaluate(condition.right, scope);
      if (condition.operator === '==') return same(left, right);
      if (condition.operator === '!=') return !same(left, right);
      return order(condition.operator, left, right);
    }
    case 'includes': {
      const target = evaluate(condition.target, scope);
      const value = evaluate(condition.value, scope);
      if (Array.isArray(target)) return target.some((item) => same(item, value));
      return typeof target === 'string' && typeof value === 'string' && target.includes(value);
    }
    case 'ternary':
      return truthy(evaluate(condition.test, scope))
        ? evaluate(condition.then, scope)
        : evaluate(condition.otherwise, scope);
    case 'add': {
      const left = evaluate(condition.left, scope);
      const right = evaluate(condition.right, scope);
      if (typeof left === 'number' && typeof right === 'number') return left + right;
      return `${textOf(left)}${textOf(right)}`;
    }
  }
}

/** A value as text: nothing for missing values, never an object's insides. */
function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  return '';
}

/**
 * Whether a visitor with `claims` (the verified token's payload, unsigned claims under
 * `unsigned`) satisfies the condition; `vars` are the space's and page's variables.
 */
export function evaluateCondition(
  condition: Condition,
  claims: Record<string, unknown>,
  vars: Omit<Scope, 'claims'> = {},
): boolean {
  return truthy(evaluate(condition, { claims, ...vars }));
}

/** An expression's value as the text a page shows (`space.vars.PRODUCT_NAME`). */
export function evaluateText(condition: Condition, scope: Scope): string {
  return textOf(evaluate(condition, scope));
}
