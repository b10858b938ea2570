import type { Corpus } from './corpus.js';

export type QueryKind = 'common' | 'rare' | 'phrase' | 'prefix' | 'two words' | 'three words';

export interface BenchQuery {
  kind: QueryKind;
  text: string;
}

/**
 * 200 queries as people type them, drawn from the corpus' own distribution: frequent words,
 * rare terms, quoted phrases, prefixes ("configu"), and two- and three-word queries.
 */
export function mixedQueries(corpus: Corpus, total = 200): BenchQuery[] {
  const plan: Array<[QueryKind, number]> = [
    ['common', 0.2],
    ['rare', 0.15],
    ['phrase', 0.15],
    ['prefix', 0.15],
    ['two words', 0.2],
    ['three words', 0.15],
  ];
  const out: BenchQuery[] = [];
  for (const [kind, share] of plan) {
    const n = kind === 'three words' ? total - out.length : Math.round(total * share);
    for (let i = 0; i < n; i++) out.push({ kind, text: make(corpus, kind) });
  }
  // Interleave the kinds, deterministically.
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(corpus.chance() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function make(corpus: Corpus, kind: QueryKind): string {
  switch (kind) {
    case 'common':
      return corpus.commonWord();
    case 'rare':
      return corpus.rareWord();
    case 'phrase':
      return `"${corpus.phrase()}"`;
    case 'prefix': {
      let word = corpus.contentWord();
      while (word.length < 6) word = corpus.contentWord();
      const cut = 3 + Math.floor(corpus.chance() * (word.length - 4));
      return word.slice(0, cut);
    }
    case 'two words':
      return corpus.chance() < 0.25
        ? `${corpus.rareWord()} ${corpus.contentWord()}`
        : `${corpus.contentWord()} ${corpus.contentWord()}`;
    case 'three words':
      return `${corpus.contentWord()} ${corpus.contentWord()} ${corpus.contentWord()}`;
  }
}
