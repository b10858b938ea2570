import type { JsonDocument } from '../../content/document-schema.js';
import type { Profile } from '../../content/markdown/containers.js';
import { markdownToDocument, parsedToDocument, parseMarkdown } from '../../content/markdown/index.js';
import type { LinkResolver } from '../../content/markdown/links.js';

/**
 * A page's markdown converted to the document the API and the published site answer, with the
 * questions the conversion asked of the tree's links: what the process's cache
 * (document-cache.ts), the database's rows (stored-documents.ts) and their fill
 * (document-fill.ts) keep. The converter's stamp (converter-stamp.ts) starts from this module.
 */

/** What converting a document asked of the tree's links, and what they answered. */
export type Asked = ['resolve', string, string] | ['href', string, string];

/** A document with the questions its conversion asked of the links. */
export interface Converted {
  document: JsonDocument;
  asked: Asked[];
}

/** A page's or reusable content's markdown converted for `profile`, its links resolved by `links`. */
export function convertFor(profile: Profile): (markdown: string, links: LinkResolver) => JsonDocument {
  return (markdown, links) => markdownToDocument(markdown, { links, profile });
}

/** Converts `markdown`, recording each question asked of `links` and its answer. */
export function convertRecording(
  markdown: string,
  links: LinkResolver,
  convert: (markdown: string, links: LinkResolver) => JsonDocument,
): Converted {
  const asked: Asked[] = [];
  const recording: LinkResolver = {
    resolve: (href) => {
      const ref = links.resolve(href);
      asked.push(['resolve', href, JSON.stringify(ref)]);
      return ref;
    },
    href: (ref) => {
      const href = links.href(ref);
      asked.push(['href', JSON.stringify(ref), href]);
      return href;
    },
  };
  return { document: convert(markdown, recording), asked };
}

/**
 * `markdown` converted for each of `profiles`, recording as `convertRecording` does, from one
 * parse: parsing is most of a conversion (0.18 of 0.23 ms for a bench/scale page).
 */
export function convertProfiles(
  markdown: string,
  links: LinkResolver,
  profiles: readonly Profile[],
): Converted[] {
  const tree = parseMarkdown(markdown);
  return profiles.map((profile) =>
    convertRecording(markdown, links, (_, recording) =>
      parsedToDocument(tree, { links: recording, profile }),
    ),
  );
}

/** Whether `links` answers each question as it was answered when the document was converted. */
export function answersAgain(asked: readonly Asked[], links: LinkResolver): boolean {
  return asked.every(([kind, question, answer]) =>
    kind === 'resolve'
      ? JSON.stringify(links.resolve(question)) === answer
      : links.href(JSON.parse(question)) === answer,
  );
}
