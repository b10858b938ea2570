import { describe, expect, it } from 'vitest';
import { documentTokens, queryTerms, stemmerOf, stemTerm } from '../../src/search/analyzer.js';
import { Highlighter, plainSnippet } from '../../src/search/highlight.js';
import { parseQuery, planQuery } from '../../src/search/query.js';

const terms = (text: string) => documentTokens(text).map((t) => t.term);

describe('analysing text', () => {
  it('cuts Chinese, Japanese and Korean runs into bigrams and their last character', () => {
    expect(terms('文档中心')).toEqual(['文档', '档中', '中心', '心']);
    expect(terms('Quire文档')).toEqual(['quire', '文档', '档']);
    expect(terms('インストール手順')).toEqual(['イン', 'ンス', 'スト', 'トー', 'ール', 'ル手', '手順', '順']);
    expect(terms('설치 가이드')).toEqual(['설치', '치', '가이', '이드', '드']);
    // Offsets point into the original text, for highlighting.
    expect(documentTokens('读 文档')[1]).toEqual({ term: '文档', start: 2, end: 4 });
  });

  it('makes any substring a phrase of bigrams, and one character a prefix', () => {
    expect(queryTerms('档中')).toEqual([{ term: '档中', prefix: false, bigram: true }]);
    expect(queryTerms('文档中')).toEqual([
      { term: '文档', prefix: false, bigram: true },
      { term: '档中', prefix: false, bigram: true },
    ]);
    expect(queryTerms('心')).toEqual([{ term: '心', prefix: true, bigram: true }]);
    const plan = planQuery(parseQuery('文档中 '));
    expect(plan.must).toEqual([{ kind: 'phrase', terms: ['文档', '档中'], prefixLast: false }]);
  });

  it('folds case, accents and compatibility forms, but keeps the marks other scripts need', () => {
    expect(terms('Crème BRÛLÉE ﬁne Ｑｕｉｒｅ')).toEqual(['creme', 'brulee', 'fine', 'quire']);
    expect(terms('Ёлка')).toEqual(['елка']);
    expect(terms('हिन्दी')).toEqual(['हिन्दी']);
    expect(terms("l'installation e-mail v1.2")).toEqual(['l', 'installation', 'e', 'mail', 'v1', '2']);
  });

  it('stems in the language of the space', () => {
    const en = stemmerOf('en')!;
    expect(stemTerm(en, 'configured')).toBe(stemTerm(en, 'configuration'));
    expect(stemTerm(en, 'libraries')).toBe(stemTerm(en, 'library'));
    const fr = stemmerOf('fr')!;
    expect(stemTerm(fr, 'développeurs')).toBe(stemTerm(fr, 'développeur'));
    expect(stemTerm(fr, 'chevaux')).toBe(stemTerm(fr, 'cheval'));
    expect(stemTerm(fr, 'Développement')).toBe('developp');
    expect(stemmerOf(null)).toBeUndefined();
    expect(stemmerOf('ja')).toBeUndefined();
  });
});

describe('highlighting', () => {
  it('marks the matched words and escapes the rest', () => {
    const h = new Highlighter(planQuery(parseQuery('proxy conf')));
    const text = 'Put <script> before the proxy; configure it & restart.';
    const match = h.match({ title: 'Network', heading: '', text });
    expect(match).toMatchObject({ all: true, content: true, hits: 2 });
    const snippet = h.snippet(text, match.spans);
    expect(snippet).toBe(
      'Put &lt;script&gt; before the <mark>proxy</mark>; <mark>configure</mark> it &amp; restart.',
    );
    expect(plainSnippet(snippet)).toBe(text);
  });

  it('marks CJK substrings, cuts long text around the first match', () => {
    const h = new Highlighter(planQuery(parseQuery('文档中 ')));
    const text = `${'前'.repeat(300)}文档中心${'后'.repeat(300)}`;
    const match = h.match({ title: '', heading: '', text });
    expect(match.all).toBe(true);
    const snippet = h.snippet(text, match.spans);
    expect(snippet).toContain('<mark>文档中</mark>心');
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet.length).toBeLessThan(260);
  });

  it('tells a title-only match from a match in the section', () => {
    const h = new Highlighter(planQuery(parseQuery('install ')));
    expect(h.match({ title: 'Install', heading: 'Usage', text: 'Run it.' })).toMatchObject({
      all: true,
      content: false,
    });
    expect(h.match({ title: 'Guide', heading: 'Usage', text: 'Run it.' }).all).toBe(false);
  });
});
