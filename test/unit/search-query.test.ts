import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { parseQuery, planQuery, stemRequests, toFts5, toTsQuery } from '../../src/search/query.js';

const plan = (q: string, expansions = new Map<string, string[]>()) => planQuery(parseQuery(q), expansions);

/** A real FTS5 table with the index's tokenizer: every compiled query must be valid syntax for it. */
const fts = new Database(':memory:');
fts.exec(
  `CREATE VIRTUAL TABLE search_fts USING fts5(title, heading, body, content='', contentless_delete=1, prefix='2 3', tokenize="unicode61 remove_diacritics 0 categories 'L* N* Co M*'")`,
);
fts
  .prepare('INSERT INTO search_fts (rowid, title, heading, body) VALUES (1, ?, ?, ?)')
  .run('install guide', 'proxy', 'run the installer behind a proxy or not');
const run = (match: string) =>
  fts.prepare('SELECT rowid FROM search_fts WHERE search_fts MATCH ?').all(match);

const HOSTILE = [
  'foo* OR bar',
  'title:(x)',
  '{title}: proxy',
  'NEAR(a b, 2)',
  '"unterminated phrase',
  'a AND',
  'AND OR NOT',
  '-',
  '--',
  '*',
  '"',
  '""',
  "'",
  '\\',
  '(',
  ')',
  '^proxy',
  'proxy:*',
  "'; DROP TABLE spaces; --",
  '" OR 1=1 --',
  '-"',
  '- -proxy',
  'a:b:c',
  '\u0000proxy',
  '😀 proxy',
  'x'.repeat(600),
];

describe('parsing a query', () => {
  it('reads words, phrases, exclusions and whether the last word is still being typed', () => {
    expect(parseQuery('install "reverse proxy" -docker conf')).toEqual([
      { text: 'install', quoted: false, negated: false, open: false },
      { text: 'reverse proxy', quoted: true, negated: false, open: false },
      { text: 'docker', quoted: false, negated: true, open: false },
      { text: 'conf', quoted: false, negated: false, open: true },
    ]);
    expect(parseQuery('conf ').at(-1)!.open).toBe(false);
    expect(parseQuery('"open phrase').at(-1)).toEqual({
      text: 'open phrase',
      quoted: true,
      negated: false,
      open: true,
    });
    expect(parseQuery('-"a phrase" x')[0]).toMatchObject({ text: 'a phrase', quoted: true, negated: true });
    // A lone minus or one inside a word is text.
    expect(parseQuery('- e-mail').map((c) => c.negated)).toEqual([false, false]);
  });

  it('plans words as terms with their stem expansions and the last word as a prefix', () => {
    const p = plan('configured proxy serv', new Map([['configured', ['configuration', 'configure']]]));
    expect(p.must).toEqual([
      { kind: 'any', terms: ['configured', 'configuration', 'configure'] },
      { kind: 'any', terms: ['proxy'] },
      { kind: 'any', terms: ['serv'], prefix: 'serv' },
    ]);
    expect(p.together).toEqual({ kind: 'phrase', terms: ['configured', 'proxy', 'serv'], prefixLast: true });
    expect(plan('proxy s').must[1]).toEqual({ kind: 'any', terms: ['s'] });
  });

  it('leaves out of a lean tsquery the terms a prefix covers, and keeps them for ranking', () => {
    const p = plan('proxy configur', new Map([['configur', ['configure', 'reconfigure']]]));
    expect(toTsQuery(p.must)).toBe("('proxy') & ('configur' | 'configure' | 'reconfigure' | 'configur':*)");
    expect(toTsQuery(p.must, { lean: true })).toBe("('proxy') & ('reconfigure' | 'configur':*)");
    expect(toTsQuery(p.must, { lean: true, weight: 'A' })).toBe(
      "('proxy':A) & ('reconfigure':A | 'configur':*A)",
    );
  });

  it('keeps phrases exact, and excluded words apart', () => {
    const p = plan('"Rate Limits" -beta', new Map([['limits', ['limit']]]));
    expect(p.must).toEqual([{ kind: 'phrase', terms: ['rate', 'limits'], prefixLast: false }]);
    expect(p.not).toEqual([{ kind: 'any', terms: ['beta'] }]);
    expect(p.together).toBeUndefined();
    // Only plain single words are stemmed.
    expect(stemRequests(parseQuery('"rate limits" configured e-mail -beta'))).toEqual([
      { word: 'configured', term: 'configured' },
      { word: 'beta', term: 'beta' },
    ]);
  });

  it('turns punctuation inside a word into a phrase of its parts', () => {
    expect(plan('e-mail ').must).toEqual([{ kind: 'phrase', terms: ['e', 'mail'], prefixLast: false }]);
    expect(plan('Crème Brûlée ').must).toEqual([
      { kind: 'any', terms: ['creme'] },
      { kind: 'any', terms: ['brulee'] },
    ]);
  });

  it('finds nothing to search for in operators and punctuation alone', () => {
    for (const q of ['', '   ', '"" - * ()', '-proxy', '-"a b"', '*** ::: ((( )))', '"', '-']) {
      expect(plan(q).must, q).toEqual([]);
    }
  });

  it('quotes every term, so hostile input compiles to valid FTS5 and tsquery text', () => {
    for (const q of HOSTILE) {
      const p = plan(q);
      for (const match of [p.must, p.not]) {
        if (match.length === 0) continue;
        const text = toFts5(match);
        expect(() => run(text), `${q} -> ${text}`).not.toThrow();
        expect(() => run(toFts5(match, { any: true }))).not.toThrow();
        // Outside quoted strings a tsquery holds only operators, weights and prefix marks.
        const outside = toTsQuery(match, { weight: 'A' }).replace(/'(?:[^']|'')*'/g, '');
        expect(outside, q).toMatch(/^[\s&|!()<>\-:*AB]*$/);
      }
    }
  });

  it('survives random input', () => {
    const alphabet = [
      'a',
      'b',
      'é',
      '文',
      '"',
      '-',
      '*',
      ':',
      '(',
      ')',
      ' ',
      "'",
      '{',
      '}',
      '^',
      '+',
      'OR',
      'NOT',
      'NEAR',
    ];
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let n = 0; n < 500; n++) {
      let q = '';
      const length = Math.floor(random() * 20);
      for (let i = 0; i < length; i++) q += alphabet[Math.floor(random() * alphabet.length)];
      const p = plan(q);
      if (p.must.length > 0) expect(() => run(toFts5(p.must)), q).not.toThrow();
      if (p.together) expect(() => run(toFts5([p.together!])), q).not.toThrow();
      if (p.not.length > 0) expect(() => run(toFts5(p.not, { any: true })), q).not.toThrow();
    }
  });

  it('matches in FTS5 as planned: prefix, phrase and exclusion', () => {
    expect(run(toFts5(plan('instal').must))).toHaveLength(1);
    expect(run(toFts5(plan('instal ').must))).toHaveLength(0);
    expect(run(toFts5(plan('"behind a proxy"').must))).toHaveLength(1);
    expect(run(toFts5(plan('"proxy behind"').must))).toHaveLength(0);
  });
});
