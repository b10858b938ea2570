import { describe, expect, it, vi } from 'vitest';
import { type PostedPage, pagePostings } from '../../src/search/postings/build.js';
import {
  CHUNK_BITS,
  chunkOf,
  decode,
  EntryReader,
  encode,
  PAGE_WORDS,
  PositionList,
  PositionsLocator,
  type Posting,
  pageMarks,
  positionsIndex,
  positionsIndexLength,
  rewrite,
  sectionsIn,
  type TermRows,
} from '../../src/search/postings/codec.js';
import { type RankInput, type ResolvedMatch, rankPostings } from '../../src/search/postings/rank.js';
import { rankAside, rankingThreads, rankingWarmUps } from '../../src/search/postings/rank-threads.js';
import { warmUpInputs } from '../../src/search/postings/warm-up.js';
import { pack, rankPacked } from '../../src/search/postings/wire.js';

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Postings of a chunk's pages `from`, a few sections each, some past position 64. */
function chunkPostings(next: () => number, from: readonly number[]): Posting[] {
  const out: Posting[] = [];
  for (const page of from) {
    let position = Math.floor(next() * 3);
    for (let n = 1 + Math.floor(next() * 3); n > 0; n--) {
      out.push({
        page,
        position,
        weight: 1 + Math.floor(next() * (next() < 0.1 ? 5_000_000 : 20)),
        flags: Math.floor(next() * 4),
        length: 1 + Math.floor(next() * 300),
        at: [
          ...new Set(Array.from({ length: 1 + Math.floor(next() * 3) }, () => Math.floor(next() * 200_000))),
        ].sort((a, b) => a - b),
      });
      position += 1 + Math.floor(next() * (next() < 0.2 ? 90 : 3));
    }
  }
  return out;
}

describe('postings codec', () => {
  it('rewrites a chunk from its bytes exactly as encoding the changed postings would', () => {
    const next = random(11);
    const chunk = 5;
    const base = chunk << 10;
    for (let round = 0; round < 300; round++) {
      const pick = (share: number) =>
        Array.from({ length: 1024 }, (_, i) => base + i).filter(() => next() < share);
      const old = chunkPostings(next, pick(next() < 0.5 ? 0.02 : 0.3));
      const oldPages = [...new Set(old.map((p) => p.page))];
      // Pages written: some held the term, some did not; the first and last often among them.
      const written = [...new Set([...pick(0.01), ...oldPages.filter(() => next() < 0.1)])];
      if (next() < 0.3 && oldPages.length > 0) written.push(oldPages[0]!, oldPages.at(-1)!);
      const pages = [...new Set(written)].sort((a, b) => a - b);
      const added = chunkPostings(
        next,
        pages.filter(() => next() < 0.6),
      );
      const gone = new Set(pages);
      const expected = [...old.filter((p) => !gone.has(p.page)), ...added].sort(
        (a, b) => a.page - b.page || a.position - b.position,
      );
      const blobs = encode(chunk, old);
      const result = rewrite(chunk, blobs.entries, blobs.positions, pages, added);
      const want = encode(chunk, expected);
      expect(result.removed).toBe(old.length - old.filter((p) => !gone.has(p.page)).length);
      expect(Buffer.from(result.entries).equals(want.entries)).toBe(true);
      expect(Buffer.from(result.positions).equals(want.positions)).toBe(true);
    }
  });

  it('decodes what it encodes: pages, positions past 64, large values and positions', () => {
    const next = random(7);
    const chunk = 3;
    const postings: Posting[] = [];
    let page = chunk << 10;
    for (let i = 0; i < 400; i++) {
      if (i === 0 || next() < 0.4) page += 1 + Math.floor(next() * 3);
      if (chunkOf(page) !== chunk) break;
      const previous = postings.at(-1);
      const position =
        previous && previous.page === page
          ? previous.position + 1 + Math.floor(next() * 80)
          : Math.floor(next() * 5);
      const at = Array.from({ length: 1 + Math.floor(next() * 4) }, () => Math.floor(next() * 300_000)).sort(
        (a, b) => a - b,
      );
      postings.push({
        page,
        position,
        weight: Math.floor(next() * 5_000_000),
        flags: Math.floor(next() * 4),
        length: Math.floor(next() * 70_000),
        at: [...new Set(at)],
      });
    }
    const { entries, positions } = encode(chunk, postings);
    expect(decode(chunk, entries, positions)).toEqual(postings);
    expect(sectionsIn(entries)).toBe(postings.length);
    // The ranking's reader gives the same sections in order, each with its index.
    const reader = new EntryReader();
    reader.start(chunk << 10, entries);
    for (const [i, expected] of postings.entries()) {
      expect(reader.next()).toBe(true);
      expect([reader.page, reader.position, reader.weight, reader.flags, reader.length]).toEqual([
        expected.page,
        expected.position,
        expected.weight,
        expected.flags,
        expected.length,
      ]);
      expect(reader.ordinal).toBe(i);
    }
    expect(reader.next()).toBe(false);
    // The locator finds each section's positions by its index, asked in any order: forwards
    // past sections never asked, and back to ones before the last found. A ranking asks in runs
    // that go forwards, each from the row's start again (one a term of the leading word), with
    // the locator reset from another chunk's row: every such order is asked here.
    const order = postings.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const ascending = postings.map((_, i) => i);
    const some = (share: number) => ascending.filter(() => next() < share);
    const orders = [
      [...order, ...order.slice().reverse()],
      [...ascending, ...ascending],
      [...some(0.5), ...some(0.3), ...ascending, ...some(0.9)],
      [...some(0.2), ...ascending.slice(100), ...ascending.slice(17)],
    ];
    const other = encode(
      chunk,
      postings.slice(0, 200).map((p) => ({ ...p, at: [...p.at, 400_000] })),
    );
    // And with the offsets found beforehand, as the cache keeps them.
    const index = new Int32Array(positionsIndexLength(postings.length));
    positionsIndex(positions, postings.length, index);
    const locator = new PositionsLocator();
    for (const indexed of [undefined, index])
      for (const asked of orders) {
        locator.reset(other.positions);
        for (let i = 0; i < 200; i += 7) locator.read(i, new PositionList());
        locator.reset(positions, indexed);
        for (const i of asked) {
          const at = new PositionList();
          locator.read(i, at);
          expect(at.toArray(), `section ${i}`).toEqual(postings[i]!.at);
        }
      }
  });

  it('marks the pages a row holds, and has in a title or a heading, as the decoder reads them', () => {
    const next = random(11);
    const chunk = 5;
    const postings: Posting[] = [];
    let page = chunk << 10;
    // Pages up to the chunk's last, so every word of the bitmaps is written, bit 31 included.
    while (true) {
      page += 1 + Math.floor(next() * 6);
      if (chunkOf(page) !== chunk) break;
      for (let position = 0; position < 1 + Math.floor(next() * 3); position++)
        postings.push({ page, position, weight: 3, flags: Math.floor(next() * 4), length: 9, at: [1] });
    }
    const { entries, positions } = encode(chunk, postings);
    const marks = new Uint32Array(PAGE_WORDS * 3).fill(0xffffffff);
    pageMarks(entries, marks);
    const pagesOf = (from: number) => {
      const out: number[] = [];
      for (let p = 0; p < 1024; p++) if (marks[from + (p >>> 5)]! & (1 << (p & 31))) out.push(p);
      return out;
    };
    const base = chunk << 10;
    const read = decode(chunk, entries, positions);
    const where = (flag: number) => [
      ...new Set(read.filter((p) => p.flags & flag).map((p) => p.page - base)),
    ];
    expect(pagesOf(0)).toEqual([...new Set(read.map((p) => p.page - base))]);
    expect(pagesOf(PAGE_WORDS)).toEqual(where(1));
    expect(pagesOf(2 * PAGE_WORDS)).toEqual(where(2));
    expect(pagesOf(0).length).toBeGreaterThan(150);
  });

  it('refuses postings out of order or outside their chunk', () => {
    const posting = (page: number, position: number): Posting => ({
      page,
      position,
      weight: 1,
      flags: 0,
      length: 1,
      at: [0],
    });
    expect(() => encode(0, [posting(5, 1), posting(5, 1)])).toThrow(/out of order/);
    expect(() => encode(0, [posting(6, 0), posting(5, 3)])).toThrow(/out of order/);
    expect(() => encode(0, [posting(1024, 0)])).toThrow(/out of order/);
  });
});

const VOCABULARY = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma', 'kappa', 'theta'];

/** Pages over three chunks, one of them with more sections than a slot row holds. */
function corpus(seed: number, count = 160): PostedPage[] {
  const next = random(seed);
  const phrase = (n: number) =>
    Array.from({ length: n }, () => VOCABULARY[Math.floor(next() * VOCABULARY.length)]).join(' ');
  const pages: PostedPage[] = [];
  for (let i = 0; i < count; i++) {
    const num = 1 + i * 17 + Math.floor(next() * 10);
    const sectionCount = i === 5 ? 90 : 1 + Math.floor(next() * 4);
    const sections = Array.from({ length: sectionCount }, (_, position) => ({
      position,
      heading: position === 0 ? '' : phrase(Math.floor(next() * 3)),
      text: phrase(Math.floor(next() * 12)),
    }));
    // A word of one section past the 64 a page's slots address directly.
    if (i === 5) sections[80]!.text += ' zeta alpha';
    pages.push({ num, title: phrase(1 + Math.floor(next() * 3)), sections });
  }
  return pages;
}

function rowsOf(pages: PostedPage[]): Map<string, TermRows[]> {
  const byTerm = new Map<string, Map<number, Posting[]>>();
  for (const page of [...pages].sort((a, b) => a.num - b.num)) {
    for (const [term, list] of pagePostings(page).terms) {
      const chunks = byTerm.get(term) ?? new Map<number, Posting[]>();
      byTerm.set(term, chunks);
      const into = chunks.get(chunkOf(page.num)) ?? [];
      chunks.set(chunkOf(page.num), into);
      into.push(...list);
    }
  }
  const out = new Map<string, TermRows[]>();
  for (const [term, chunks] of byTerm)
    out.set(
      term,
      [...chunks].sort((a, b) => a[0] - b[0]).map(([chunk, list]) => ({ chunk, ...encode(chunk, list) })),
    );
  return out;
}

/**
 * The ranking's rules applied section by section, from the text itself: the reference the
 * chunked, slotted ranking must agree with.
 */
function reference(pages: PostedPage[], input: Omit<RankInput, 'rows' | 'after' | 'count'>) {
  const fields = (page: PostedPage, section: PostedPage['sections'][number]) => [
    page.title.split(' ').filter(Boolean),
    section.heading.split(' ').filter(Boolean),
    section.text.split(' ').filter(Boolean),
  ];
  const sections = pages.flatMap((page) => page.sections.map((section) => fields(page, section)));
  const holding = (term: string) => sections.filter((f) => f.some((words) => words.includes(term))).length;
  const idf = (term: string) => Math.log(1 + (input.sections - holding(term) + 0.5) / (holding(term) + 0.5));
  const phraseIn = (words: string[], steps: string[][]) =>
    words.some((_, start) => steps.every((alternatives, s) => alternatives.includes(words[start + s]!)));
  const inField = (match: ResolvedMatch, words: string[]) =>
    match.kind === 'any' ? match.terms.some((t) => words.includes(t)) : phraseIn(words, match.steps);
  const answer: Array<{ page: number; score: number }> = [];
  for (const page of pages) {
    if (input.hidden.has(page.num)) continue;
    const all = page.sections.map((section) => fields(page, section));
    if (input.not.some((match) => all.some((f) => f.some((words) => inField(match, words))))) continue;
    let best = -1;
    for (const f of all) {
      if (!input.must.every((match) => f.some((words) => inField(match, words)))) continue;
      const title = input.must.every((match) => inField(match, f[0]!));
      const heading = input.must.every((match) => inField(match, f[1]!));
      const together = input.together ? f.some((words) => inField(input.together!, words)) : false;
      const length = f[0]!.length + f[1]!.length + f[2]!.length;
      let bm = 0;
      for (const match of input.must)
        for (const alternatives of match.kind === 'any' ? [match.terms] : match.steps)
          for (const term of new Set(alternatives)) {
            const tf =
              10 * f[0]!.filter((w) => w === term).length +
              4 * f[1]!.filter((w) => w === term).length +
              f[2]!.filter((w) => w === term).length;
            if (tf === 0) continue;
            const norm = 1.2 * (1 - 0.75 + (0.75 * length) / input.averageLength);
            bm += (idf(term) * tf * 2.2) / (tf + norm);
          }
      const value = (title ? 4 : 0) + (heading ? 2 : 0) + (together ? 1 : 0) + bm / (1 + bm);
      if (value > best) best = value;
    }
    if (best >= 0) answer.push({ page: page.num, score: best });
  }
  return answer;
}

describe('ranking from postings', () => {
  const pages = corpus(11);
  const rows = rowsOf(pages);
  const stats = pages.reduce(
    (sum, page) => {
      const posted = pagePostings(page);
      return { sections: sum.sections + posted.sections, tokens: sum.tokens + posted.tokens };
    },
    { sections: 0, tokens: 0 },
  );
  const base = {
    rows,
    sections: stats.sections,
    averageLength: stats.tokens / stats.sections,
    hidden: new Set([pages[3]!.num, pages[40]!.num]),
  };
  const any = (...terms: string[]): ResolvedMatch => ({ kind: 'any', terms });
  const phrase = (...steps: string[][]): ResolvedMatch => ({ kind: 'phrase', steps });
  const queries: Array<[string, Pick<RankInput, 'must' | 'not' | 'together'>]> = [
    ['one word', { must: [any('alpha')], not: [] }],
    ['a word and its forms', { must: [any('alpha', 'beta')], not: [] }],
    [
      'two words, together ranked higher',
      { must: [any('gamma'), any('delta')], not: [], together: phrase(['gamma'], ['delta']) },
    ],
    ['a phrase', { must: [phrase(['omega'], ['sigma'])], not: [] }],
    ['a phrase ending in alternatives', { must: [phrase(['kappa'], ['theta', 'alpha'])], not: [] }],
    ['a word left out', { must: [any('beta')], not: [any('kappa')] }],
    ['a phrase left out', { must: [any('sigma')], not: [phrase(['alpha'], ['beta'])] }],
    [
      'three words',
      {
        must: [any('alpha'), any('beta'), any('gamma')],
        not: [],
        together: phrase(['alpha'], ['beta'], ['gamma']),
      },
    ],
    ['a word no page has', { must: [any('nothing')], not: [] }],
    ["a word only in a page's 81st section", { must: [any('zeta')], not: [] }],
    [
      'a phrase across that section and others',
      { must: [any('zeta'), any('alpha')], not: [], together: phrase(['zeta'], ['alpha']) },
    ],
  ];

  it.each(queries)('%s: the pages, scores and count of the reference', (_name, query) => {
    const expected = reference(pages, { ...base, ...query });
    const found = rankPostings({ ...base, ...query, count: 1000 })!;
    expect(found.total).toBe(expected.length);
    const rounded = (list: Array<{ page: number; score: number }>) =>
      list
        .map(({ page, score }) => ({ page, score: Math.round(score * 1e9) / 1e9 }))
        .sort((a, b) => b.score - a.score || a.page - b.page);
    expect(rounded(found.pages)).toEqual(rounded(expected));
    for (let i = 1; i < found.pages.length; i++) {
      const [a, b] = [found.pages[i - 1]!, found.pages[i]!];
      expect(a.score > b.score || (a.score === b.score && a.page < b.page)).toBe(true);
    }
  });

  it.each([1, 3, 7])(
    'pages through the answer %i at a time, each page once, with the same count',
    (limit) => {
      const query = queries[2]![1];
      const whole = rankPostings({ ...base, ...query, count: 1000 })!;
      const seen: Array<{ page: number; score: number }> = [];
      let after: { score: number; page: number } | undefined;
      for (;;) {
        const part = rankPostings({ ...base, ...query, count: limit, after })!;
        expect(part.total).toBe(whole.total);
        seen.push(...part.pages);
        if (!part.more) break;
        const last = part.pages.at(-1)!;
        after = { score: last.score, page: last.page };
      }
      expect(seen).toEqual(whole.pages);
    },
  );

  it.each([
    ['one word', 0, 'titles'],
    ['a word and its forms', 1, 'titles'],
    ['a word left out', 5, 'titles'],
    ['one word', 0, 'headings'],
    ['a word and its forms', 1, 'headings'],
  ] as const)(
    '%s (query %i), a few pages at a time, with it in many %s: each page once, as in the whole answer, and the whole count',
    (_name, index, where) => {
      // Once the best pages have the word in their title (or, titles aside, a heading), a
      // chunk's other pages are only counted: the pages of each part, their sections and
      // the count must be the whole answer's.
      const plain = where === 'titles' ? pages : pages.map((page) => ({ ...page, title: 'plain' }));
      const input = { ...base, rows: rowsOf(plain), ...queries[index]![1] };
      const whole = rankPostings({ ...input, count: 1000 })!;
      // Rows as the cache keeps the large ones, with their page marks found already.
      const marked = new Map(
        [...input.rows].map(([term, list]) => [
          term,
          list.map((row) => {
            const marks = new Uint32Array(PAGE_WORDS * 3);
            pageMarks(row.entries, marks);
            return { ...row, marks };
          }),
        ]),
      );
      // Enough of them that a part's best pages are all such pages.
      expect(whole.pages.filter((p) => p.score >= (where === 'titles' ? 4 : 2)).length).toBeGreaterThan(4);
      for (const [limit, rows] of [1, 3, 7].flatMap((l) => [
        [l, input.rows] as const,
        [l, marked] as const,
      ])) {
        const seen: typeof whole.pages = [];
        let after: { score: number; page: number } | undefined;
        for (;;) {
          const part = rankPostings({ ...input, rows, count: limit, after })!;
          expect(part.total, `limit ${limit}`).toBe(whole.total);
          seen.push(...part.pages);
          if (!part.more) break;
          const last = part.pages.at(-1)!;
          after = { score: last.score, page: last.page };
        }
        expect(seen, `limit ${limit}`).toEqual(whole.pages);
      }
    },
  );

  it('ranks a title match above a heading match above the words together above the text', () => {
    const made: PostedPage[] = [
      { num: 1, title: 'Other', sections: [{ position: 0, heading: '', text: 'gamma and then delta' }] },
      { num: 2, title: 'Other', sections: [{ position: 0, heading: '', text: 'about gamma delta here' }] },
      { num: 3, title: 'Other', sections: [{ position: 0, heading: 'delta gamma', text: 'x' }] },
      { num: 4, title: 'Gamma delta', sections: [{ position: 0, heading: '', text: 'x' }] },
      { num: 5, title: 'Gamma', sections: [{ position: 0, heading: '', text: 'delta' }] },
    ];
    const ranked = rankPostings({
      must: [any('gamma'), any('delta')],
      not: [],
      together: phrase(['gamma'], ['delta']),
      rows: rowsOf(made),
      sections: 5,
      averageLength: 4,
      hidden: new Set(),
      count: 10,
    })!;
    expect(ranked.pages.map((p) => p.page)).toEqual([4, 3, 2, 5, 1]);
    expect(ranked.pages.map((p) => Math.floor(p.score))).toEqual([5, 2, 1, 0, 0]);
  });

  it('finds every word in one section only on pages holding them all, in every chunk', () => {
    const page = (num: number, ...texts: string[]): PostedPage => ({
      num,
      title: 'plain',
      sections: texts.map((text, position) => ({ position, heading: '', text })),
    });
    const made = [
      // Chunk 0: no page holds both words.
      page(1, 'gamma alone'),
      page(2, 'delta alone'),
      // Chunk 1: one holds both in two sections, one in one section.
      page(1030, 'gamma here', 'delta there'),
      page(1031, 'intro', 'delta and gamma'),
      page(1032, 'delta'),
      // Chunk 2: only the second word's.
      page(2050, 'delta'),
    ];
    const ranked = rankPostings({
      must: [
        { kind: 'any', terms: ['gamma'] },
        { kind: 'any', terms: ['delta'] },
      ],
      not: [],
      together: { kind: 'phrase', steps: [['gamma'], ['delta']] },
      rows: rowsOf(made),
      sections: 9,
      averageLength: 2,
      hidden: new Set(),
      count: 10,
    })!;
    expect(ranked.total).toBe(1);
    expect(ranked.pages.map((p) => p.page)).toEqual([1031]);
  });
});

describe('ranking on a thread', () => {
  /** Every ranking on one thread, or split over both (the default plan depends on the cores). */
  const ON_THREAD = { inlineBytes: 0, splitBytes: Number.POSITIVE_INFINITY, sliceMs: 2 };
  const SPLIT = { inlineBytes: 0, splitBytes: 0, sliceMs: 2 };

  it('ranks postings below the plan on the calling thread, starting no thread', async () => {
    const pages = corpus(5, 3000);
    const input: RankInput = {
      must: [{ kind: 'any', terms: ['alpha'] }],
      not: [],
      together: undefined,
      rows: rowsOf(pages),
      sections: 9000,
      averageLength: 12,
      hidden: new Set(),
      count: 10,
    };
    const here = { inlineBytes: Number.POSITIVE_INFINITY, splitBytes: 0, sliceMs: 2 };
    expect(await rankAside(input, here)).toEqual(rankPostings(input));
    expect(rankingThreads()).toBe(0);
  });

  it('gives the event loop a turn between the slices of a ranking on the calling thread', async () => {
    const pages = corpus(9, 7000);
    const input: RankInput = {
      must: [{ kind: 'any', terms: ['alpha', 'beta'] }],
      not: [{ kind: 'any', terms: ['theta'] }],
      together: undefined,
      rows: rowsOf(pages),
      sections: 20000,
      averageLength: 12,
      hidden: new Set(),
      count: 10,
    };
    expect(new Set(pages.map((page) => page.num >> CHUNK_BITS)).size).toBeGreaterThan(2);
    const order: string[] = [];
    setImmediate(() => order.push('a turn'));
    // Slices of no time: a turn after every chunk read.
    const ranked = await rankAside(input, {
      inlineBytes: Number.POSITIVE_INFINITY,
      splitBytes: 0,
      sliceMs: 0,
    });
    order.push('ranked');
    expect(order).toEqual(['a turn', 'ranked']);
    expect(ranked).toEqual(rankPostings(input));
    expect(rankingThreads()).toBe(0);
  });

  it('answers as on the server thread', async () => {
    const pages = corpus(5, 3000);
    const rows = rowsOf(pages);
    const warned = vi.spyOn(process, 'emitWarning');
    const input: RankInput = {
      must: [
        { kind: 'any', terms: ['alpha', 'beta'] },
        { kind: 'any', terms: ['gamma'] },
      ],
      not: [{ kind: 'any', terms: ['theta'] }],
      together: { kind: 'phrase', steps: [['alpha'], ['gamma']] },
      rows,
      sections: 9000,
      averageLength: 12,
      hidden: new Set([pages[0]!.num]),
      count: 20,
    };
    const here = rankPostings(input);
    expect(here!.total).toBeGreaterThan(20);
    // Twice at once: both threads start and answer.
    const [first, second] = await Promise.all([
      rankAside(input, ON_THREAD),
      rankAside({ ...input, count: 5 }, ON_THREAD),
    ]);
    expect(first).toEqual(here);
    expect(second).toEqual(rankPostings({ ...input, count: 5 }));
    expect(warned).not.toHaveBeenCalled();
    expect(rankingThreads()).toBe(2);
    warned.mockRestore();
  });

  it('answers as on the server thread when the postings are split over both threads', async () => {
    const pages = corpus(9, 7000);
    const rows = rowsOf(pages);
    const input: RankInput = {
      must: [{ kind: 'any', terms: ['alpha', 'beta'] }],
      not: [{ kind: 'any', terms: ['theta'] }],
      together: undefined,
      rows,
      sections: 20000,
      averageLength: 12,
      hidden: new Set([pages[3]!.num]),
      count: 7,
    };
    const whole = rankPostings(input)!;
    expect(whole.total).toBeGreaterThan(100);
    expect(await rankAside(input, SPLIT)).toEqual(whole);
    // Page by page through the first 50, as a cursor does: the same pages in the same order.
    const seen: Array<{ page: number; score: number }> = [];
    let after: { score: number; page: number } | undefined;
    while (seen.length < 50) {
      const next = (await rankAside({ ...input, after }, SPLIT))!;
      expect(next.total).toBe(whole.total);
      seen.push(...next.pages);
      const last = next.pages.at(-1)!;
      after = { score: last.score, page: last.page };
    }
    expect(seen).toEqual(rankPostings({ ...input, count: seen.length })!.pages);
  });
  it('answers the same once its warm-up has run to the end', async () => {
    const pages = corpus(5, 3000);
    const input: RankInput = {
      must: [
        { kind: 'any', terms: ['alpha', 'beta'] },
        { kind: 'any', terms: ['gamma'] },
      ],
      not: [],
      together: { kind: 'phrase', steps: [['alpha'], ['gamma']] },
      rows: rowsOf(pages),
      sections: 9000,
      averageLength: 12,
      hidden: new Set(),
      count: 30,
    };
    await rankAside(input, ON_THREAD);
    await vi.waitFor(() => expect(rankingWarmUps()).toEqual([true, true]), { timeout: 30_000, interval: 50 });
    expect(await rankAside(input, ON_THREAD)).toEqual(rankPostings(input));
  });
});

describe("a ranking thread's warm-up", () => {
  it('ranks made-up rows that take the paths of real ones, as a search would', () => {
    const inputs = warmUpInputs();
    const rows = [...inputs[0]!.rows.values()].flat();
    // Rows with page marks (many sections) and without, all with a positions index.
    expect(rows.some((row) => row.marks !== undefined)).toBe(true);
    expect(rows.some((row) => row.marks === undefined)).toBe(true);
    expect(rows.every((row) => row.index !== undefined)).toBe(true);
    const scores = new Set<number>();
    for (const input of inputs) {
      const ranked = rankPostings(input)!;
      expect(ranked.pages).toHaveLength(input.count);
      expect(ranked.more).toBe(true);
      expect(rankPacked(pack(input))).toEqual(ranked);
      for (const page of ranked.pages) scores.add(Math.floor(page.score));
    }
    // A title match (4 and up), a heading's (2), the words together (1), the text alone (0).
    for (const tier of [0, 1, 2, 4])
      expect([...scores].some((score) => score >= tier && score < tier + 2)).toBe(true);
  });
});
