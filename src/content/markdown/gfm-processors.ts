import type { Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { type Processor, unified } from 'unified';

/**
 * CommonMark + GFM parsers, one of three per text. GFM's literal autolinks (`www.x.com`,
 * `https://x.com`, `a@b.co` in plain text) cost as much as the rest of the parse: the email
 * construct is registered on every letter and digit, so micromark breaks the text's data and
 * tries it at each one, and a transform then runs their patterns over every text node. The
 * bench pages of bench/scale parsed in 315 µs with them, 223 without the email construct, 182
 * without any of it; the GitBook fixtures in 2,002, 1,759 and 1,563 µs (scratch probe, best
 * of five runs). Most pages can hold none of them, and then the parse goes without:
 * - the email construct matches only at an `@` of the text;
 * - the www and protocol constructs only at `www.` or `http://`, `https://` (letters of any
 *   case);
 * - the transform matches `www.`, `http://`, `https://` or `@` in the decoded text, where an
 *   entity (`&...;`) can put any character and an escape a punctuation mark (`www\.`); an
 *   escape cannot make a letter, and `\@` holds an `@` already.
 * The same tree comes out (test/unit/markdown/gfm-processors.test.ts).
 */

/** `www.`, `http://` or `https://` in any case, or escaped (`www\\.` is `www.` once decoded), or an entity. */
const MAY_AUTOLINK = /www\\?\.|https?\\?:\\?\/\\?\/|&/i;

const full = unified().use(remarkParse).use(remarkGfm).freeze();
/** Without the email construct: for texts with no `@`. */
const withoutEmails = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(dropLiteralAutolinks, { constructs: ['emailAutolink'], transform: false })
  .freeze();
/** Without literal autolinks at all: for texts with no `@`, `www.`, `http://`, `https://` or entity. */
const withoutAutolinks = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(dropLiteralAutolinks, {
    constructs: ['emailAutolink', 'wwwAutolink', 'protocolAutolink'],
    transform: true,
  })
  .freeze();

/** The parser for `text` (after `protect`): the cheapest that parses it as the full one does. */
export function gfmProcessorFor(text: string): Processor<Root> {
  if (text.includes('@')) return full;
  return MAY_AUTOLINK.test(text) ? withoutEmails : withoutAutolinks;
}

/** What each parser holds, for the tests: constructs in its text and transforms on its trees. */
export const GFM_PROCESSORS = { full, withoutEmails, withoutAutolinks };

/**
 * The parts of micromark's and mdast-util-from-markdown's extensions this reads (their packages
 * come with remark's, not as dependencies of ours).
 */
type Construct = { name?: string };
type MicromarkExtension = { text?: Record<number, Construct | Construct[] | undefined> };
type FromMarkdownExtension = { enter?: Record<string, unknown>; transforms?: unknown[] };

interface DropOptions {
  /** Names of the micromark constructs taken out of every text construct record. */
  constructs: string[];
  /** Whether the literal autolinks' mdast transform goes too. */
  transform: boolean;
}

/**
 * A plugin after remark-gfm: removes literal-autolink constructs from its micromark extension
 * and, with `transform`, the tree transform of its mdast extension (the one that handles
 * `literalAutolink` tokens). Constructs are found by name: a construct record maps a character
 * code to one construct or a list.
 */
function dropLiteralAutolinks(this: Processor, options: DropOptions): void {
  const data = this.data() as {
    micromarkExtensions?: MicromarkExtension[];
    fromMarkdownExtensions?: Array<FromMarkdownExtension | FromMarkdownExtension[]>;
  };
  const names = new Set(options.constructs);
  data.micromarkExtensions = (data.micromarkExtensions ?? []).map((extension) => {
    if (!extension.text) return extension;
    const text: NonNullable<MicromarkExtension['text']> = {};
    for (const [code, value] of Object.entries(extension.text)) {
      const list = (Array.isArray(value) ? value : value ? [value] : []).filter(
        (construct) => !names.has(construct.name ?? ''),
      );
      if (list.length > 0) text[Number(code)] = list;
    }
    return { ...extension, text };
  });
  if (!options.transform) return;
  const withoutTransform = (extension: FromMarkdownExtension): FromMarkdownExtension =>
    extension.enter?.literalAutolink ? { ...extension, transforms: [] } : extension;
  data.fromMarkdownExtensions = (data.fromMarkdownExtensions ?? []).map((extension) =>
    Array.isArray(extension) ? extension.map(withoutTransform) : withoutTransform(extension),
  );
}
