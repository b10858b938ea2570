import type { TranslateRequest, TranslationProvider } from './provider.js';

const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'aàbƀcçdđeéfƒgĝhĥiîjĵkķlĺmɱnñoöpþqǫrŕsštţuüvṽwŵxẋyýzž'].reduce<string[][]>((pairs, char, i, all) => {
    if (i % 2 === 0) pairs.push([char, all[i + 1]!]);
    return pairs;
  }, []),
);

/**
 * Pseudo-localisation, built in: every letter outside the placeholder tags gets an accent, and
 * the text is bracketed and made about 30% longer, as translations into German or French often
 * are. For trying the feature and for seeing which layouts break on longer text; it is never
 * chosen unless the operator names it.
 */
export class PseudoProvider implements TranslationProvider {
  readonly name = 'pseudo';

  async translate(request: TranslateRequest): Promise<string[]> {
    return request.segments.map((segment) => pseudo(segment, request.target));
  }
}

export function pseudo(segment: string, target: string): string {
  // Tags and character references pass untouched; only text between them changes.
  const parts = segment.split(/(<[^>]*>|&[a-z]+;|&#\d+;)/g);
  let letters = 0;
  const text = parts
    .map((part, i) => {
      if (i % 2 === 1) return part;
      return [...part]
        .map((char) => {
          const lower = char.toLowerCase();
          const accented = ACCENTED[lower];
          if (!accented) return char;
          letters++;
          return char === lower ? accented : accented.toUpperCase();
        })
        .join('');
    })
    .join('');
  return `⟦${target}⟧ ${text}${'·'.repeat(Math.ceil(letters * 0.3))}`;
}
