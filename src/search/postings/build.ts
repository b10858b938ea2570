import { type SectionTerms, termsOf } from '../analyzer.js';
import { BODY_AT, HEADING_AT, IN_HEADING, IN_TITLE, type Posting } from './codec.js';

/** A page as its postings see it: its number, its title and its sections' heading and text. */
export interface PostedPage {
  num: number;
  title: string;
  /** The terms, when worked out already (a sync works them out before its transaction). */
  titleTerms?: readonly string[] | undefined;
  sections: ReadonlyArray<{
    position: number;
    heading: string;
    text: string;
    terms?: SectionTerms | undefined;
  }>;
}

/** A row of a page's section with the page's number and title, as the index tables give them. */
export interface SectionOfPage {
  num: number;
  title: string;
  position: number;
  heading: string;
  body: string;
}

/** Section rows as pages, by number, in the order their numbers first come. */
export function pagesOf(rows: Iterable<SectionOfPage>): PostedPage[] {
  const out = new Map<
    number,
    PostedPage & { sections: Array<{ position: number; heading: string; text: string }> }
  >();
  for (const row of rows) {
    const num = Number(row.num);
    let page = out.get(num);
    if (!page) {
      page = { num, title: row.title, sections: [] };
      out.set(num, page);
    }
    page.sections.push({ position: Number(row.position), heading: row.heading, text: row.body });
  }
  return [...out.values()];
}

export interface PagePostings {
  terms: Map<string, Posting[]>;
  sections: number;
  /** Terms of all its sections, the title counted in each (the space's average length). */
  tokens: number;
}

const FIELDS = [
  { start: 0, weight: 10, flag: IN_TITLE },
  { start: HEADING_AT, weight: 4, flag: IN_HEADING },
  { start: BODY_AT, weight: 1, flag: 0 },
] as const;

/**
 * Every term of the page with its postings, a posting a section, in section order. The title
 * is in every section, as the engines index it (a title's words match each of its sections).
 */
export function pagePostings(page: PostedPage): PagePostings {
  const out = new Map<string, Posting[]>();
  let tokens = 0;
  const title = page.titleTerms ?? termsOf(page.title);
  const sections = [...page.sections].sort((a, b) => a.position - b.position);
  for (const section of sections) {
    const fields = [
      title,
      section.terms?.heading ?? termsOf(section.heading),
      section.terms?.text ?? termsOf(section.text),
    ];
    const length = fields[0]!.length + fields[1]!.length + fields[2]!.length;
    tokens += length;
    const here = new Map<string, Posting>();
    fields.forEach((terms, f) => {
      const { start, weight, flag } = FIELDS[f]!;
      // A title or heading longer than its span keeps its weight, not its later positions.
      const span = f === 2 ? Number.POSITIVE_INFINITY : HEADING_AT;
      terms.forEach((term, i) => {
        let posting = here.get(term);
        if (!posting) {
          posting = { page: page.num, position: section.position, weight: 0, flags: 0, length, at: [] };
          here.set(term, posting);
        }
        posting.weight += weight;
        posting.flags |= flag;
        if (i < span) posting.at.push(start + i);
      });
    });
    for (const [term, posting] of here) {
      const list = out.get(term);
      if (list) list.push(posting);
      else out.set(term, [posting]);
    }
  }
  return { terms: out, sections: sections.length, tokens };
}
