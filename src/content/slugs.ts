/**
 * Slugs. Quire makes two kinds, on purpose different:
 *
 * - `headingId`: heading ids exactly as GitBook makes them (lowercase ASCII, words joined by
 *   `-`; `Slugger` numbers repeats: `setup`, `setup-1`), so `#anchors` in links keep pointing at
 *   the same headings in GitBook and in Quire, and an id equal to the generated one needs no
 *   markup in markdown (both directions walk headings in the same order with the same slugger).
 * - `titleSlug`: a URL path segment made from a title (page slugs, site section and site-space
 *   paths): the letters (with the marks their script writes them with) and digits of every
 *   script, Latin accents dropped, anything else one `-`.
 */

export const HEADING_ID = /^[-a-z0-9.+_]+$/;

export function headingId(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9._+-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * "Getting Started!" -> "getting-started", "Café" -> "cafe", "한국어 문서" -> "한국어-문서": at most `max`
 * characters, `fallback` when the title has no letter or digit.
 */
export function titleSlug(title: string, fallback: string, max: number): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]+/g, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return Array.from(slug).slice(0, max).join('').replace(/-+$/, '') || fallback;
}

/** Longest page slug made from a title (a slug given explicitly may be up to 100 characters). */
const PAGE_SLUG_MAX = 80;

/** The slug of a page (or a reusable content's file name) made from its title. */
export function pageSlug(title: string): string {
  return titleSlug(title, 'page', PAGE_SLUG_MAX);
}

export class Slugger {
  private readonly seen = new Set<string>();
  private readonly taken: string[] = [];

  /** The next id for a heading with this text, or undefined when the text has no slug. */
  slug(text: string): string | undefined {
    const base = headingId(text);
    if (!base) return undefined;
    let id = base;
    for (let n = 1; this.seen.has(id); n++) id = `${base}-${n}`;
    this.seen.add(id);
    this.taken.push(id);
    return id;
  }

  /** A point to go back to when a block that took ids turns out not to convert. */
  mark(): number {
    return this.taken.length;
  }

  rewind(mark: number): void {
    while (this.taken.length > mark) this.seen.delete(this.taken.pop()!);
  }
}

/**
 * The anchors of a page's headings as Quire draws them (the page and its search sections): the
 * document's own id when it is well formed, else `headingId` of the text (`section` when that is
 * empty), numbered when repeated.
 */
export class HeadingAnchors {
  private readonly used = new Set<string>();

  next(preferred: unknown, text: string): string {
    const base =
      typeof preferred === 'string' && HEADING_ID.test(preferred) && preferred.length <= 100
        ? preferred
        : headingId(text).slice(0, 80) || 'section';
    let id = base;
    for (let n = 1; this.used.has(id); n++) id = `${base}-${n}`;
    this.used.add(id);
    return id;
  }
}
