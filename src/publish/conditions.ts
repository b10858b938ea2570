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
  | { type: 'claim'; path: string[] }
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
    const condition = this.or();
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
    const left = this.unary();
    const token = this.peek();
    const operator = token.kind === 'punct' ? COMPARISONS[token.value] : undefined;
    if (!operator) return left;
    this.next();
    const right = this.unary();
    const after = this.peek();
    if (after.kind === 'punct' && COMPARISONS[after.value]) {
      throw new ConditionSyntaxError(
        'Comparisons cannot be chained; join them with && or add parentheses',
        after.at,
      );
    }
    return { type: 'compare', operator, left, right };
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
          const inner = this.nested(token.at, () => this.or());
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
        break;
      default:
        throw new ConditionSyntaxError(
          `Unknown name "${token.value}"; read claims as visitor.claims.<name>`,
          token.at,
        );
    }
    this.expectPunct('.', 'after visitor');
    const claims = this.next();
    if (claims.kind !== 'name' || claims.value !== 'claims') {
      throw new ConditionSyntaxError(
        `Expected "claims" after "visitor.", found ${describe(claims)}`,
        claims.at,
      );
    }
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
    return { type: 'claim', path };
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

function evaluate(condition: Condition, claims: unknown): unknown {
  switch (condition.type) {
    case 'literal':
      return condition.value;
    case 'claim': {
      let value: unknown = claims;
      for (const key of condition.path) value = ownValue(value, key);
      return value ?? null;
    }
    case 'not':
      return !truthy(evaluate(condition.operand, claims));
    case 'logical': {
      const left = truthy(evaluate(condition.left, claims));
      if (condition.operator === '&&') return left && truthy(evaluate(condition.right, claims));
      return left || truthy(evaluate(condition.right, claims));
    }
    case 'compare': {
      const left = evaluate(condition.left, claims);
      const right = evaluate(condition.right, claims);
      if (condition.operator === '==') return same(left, right);
      if (condition.operator === '!=') return !same(left, right);
      return order(condition.operator, left, right);
    }
    case 'includes': {
      const target = evaluate(condition.target, claims);
      const value = evaluate(condition.value, claims);
      if (Array.isArray(target)) return target.some((item) => same(item, value));
      return typeof target === 'string' && typeof value === 'string' && target.includes(value);
    }
  }
}

/**
 * Whether a visitor with `claims` (the verified token's payload, unsigned claims under
 * `unsigned`) satisfies the condition.
 */
export function evaluateCondition(condition: Condition, claims: Record<string, unknown>): boolean {
  return truthy(evaluate(condition, claims));
}
