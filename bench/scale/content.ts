import { prng, RARE, TECHNICAL } from '../search/corpus.js';

/**
 * The page tree of bench/scale: groups (top-level pages) of 10 sections of 100 pages each, so a
 * space of 100,000 pages is 100 groups x 10 sections x 100 pages (plus the 1,100 group and
 * section pages above them): three levels, wide and deep. Each page is small but real: a
 * heading, one or two paragraphs, sometimes a list or a code block (~0.5-1 KB of markdown).
 * Deterministic: the same count gives the same pages.
 */

export const SECTIONS_PER_GROUP = 10;
export const PAGES_PER_SECTION = 100;

export interface PageSpec {
  /** Index in the specs list, used as the change's `ref`. */
  index: number;
  /** Index of the parent page, or null at the top level. */
  parent: number | null;
  level: 0 | 1 | 2;
  title: string;
  slug: string;
  markdown: string;
}

const TITLE_WORDS = TECHNICAL.filter((w) => w.length > 3);
const capitalize = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

/**
 * The pages of a space with `leaves` pages at the bottom level, parents before their children
 * (groups first, then sections, then pages), so a page's parent exists when it is inserted.
 */
export function spacePages(leaves: number, seed = 7): PageSpec[] {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const sentence = (words: number) => {
    const out: string[] = [];
    for (let i = 0; i < words; i++) out.push(pick(TECHNICAL));
    // A rare word in about one sentence of 60, so some queries have few answers.
    if (random() < 1 / 60) out[Math.floor(random() * out.length)] = pick(RARE);
    return `${capitalize(out.join(' '))}.`;
  };
  const paragraph = () =>
    Array.from({ length: 2 + Math.floor(random() * 3) }, () => sentence(8 + Math.floor(random() * 8))).join(
      ' ',
    );
  const body = (title: string) => {
    const parts = [`# ${title}`, paragraph()];
    if (random() < 0.5) parts.push(paragraph());
    if (random() < 0.3) parts.push(Array.from({ length: 3 }, () => `- ${sentence(5)}`).join('\n'));
    if (random() < 0.25)
      parts.push(
        [
          '```bash',
          `quire ${pick(TITLE_WORDS)} --${pick(TITLE_WORDS)}=${Math.floor(random() * 1000)}`,
          `export QUIRE_${pick(TITLE_WORDS).toUpperCase()}=${pick(TITLE_WORDS)}`,
          '```',
        ].join('\n'),
      );
    if (random() < 0.5) parts.push(`## ${capitalize(pick(TITLE_WORDS))} ${pick(TITLE_WORDS)}`, paragraph());
    return parts.join('\n\n');
  };

  const sections = Math.ceil(leaves / PAGES_PER_SECTION);
  const groups = Math.ceil(sections / SECTIONS_PER_GROUP);
  const specs: PageSpec[] = [];
  const add = (parent: number | null, level: 0 | 1 | 2, label: string, n: number) => {
    const title = `${label} ${n + 1}: ${capitalize(pick(TITLE_WORDS))} ${pick(TITLE_WORDS)}`;
    specs.push({
      index: specs.length,
      parent,
      level,
      title,
      slug: `${label.toLowerCase()}-${n + 1}`,
      markdown: body(title),
    });
    return specs.length - 1;
  };
  const groupIndex: number[] = [];
  for (let g = 0; g < groups; g++) groupIndex.push(add(null, 0, 'Group', g));
  const sectionIndex: number[] = [];
  for (let s = 0; s < sections; s++)
    sectionIndex.push(add(groupIndex[Math.floor(s / SECTIONS_PER_GROUP)]!, 1, 'Section', s));
  for (let p = 0; p < leaves; p++) add(sectionIndex[Math.floor(p / PAGES_PER_SECTION)]!, 2, 'Page', p);
  return specs;
}

/** The path of every page (slugs joined from the top), as the API answers `path`. */
export function pathsOf(specs: PageSpec[]): string[] {
  const paths: string[] = [];
  for (const spec of specs)
    paths.push(spec.parent === null ? spec.slug : `${paths[spec.parent]!}/${spec.slug}`);
  return paths;
}

/** Queries for the search samples: common words, two words, a rare word, a title phrase. */
export const QUERIES = [
  'configuration',
  'deploy token',
  'database migration',
  'webhook',
  'idempotency',
  'access permission',
  'search index',
  'cluster replica',
  'quorum',
  'install package',
];
