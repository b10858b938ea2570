import { headingId } from '../content/slugs.js';
import { operationSearchText, schemasSearchText, webhookSearchText } from '../openapi/read/search-text.js';
import type { ApiBlockText } from './sections.js';

/**
 * The words of a page's API blocks, for its search sections: read from the specifications of
 * the space's organization, with the heading ids the published page gives those blocks (the
 * preferred ids of `publish/render/openapi/operation-html.ts`), so a hit lands on the operation.
 */

/** Opening tags of the blocks that name a spec by slug, as the markdown of a page holds them. */
const SPEC_TAG = /\{%\s*openapi-(?:operation|schemas|webhook)\b[^%]*?\bspec="([^"]{1,100})"/g;

/** The spec slugs (lower case) a page's markdown draws. */
export function specSlugsIn(markdown: string): string[] {
  const slugs = new Set<string>();
  for (const match of markdown.matchAll(SPEC_TAG)) slugs.add(match[1]!.toLowerCase());
  return [...slugs];
}

const str = (value: unknown) => (typeof value === 'string' ? value : '');

/** Reads API blocks against `documents` (by lower-case slug); blocks of other specs say nothing. */
export function apiBlockText(documents: Map<string, unknown>): ApiBlockText {
  return (type, data) => {
    const ref = data.ref as { kind?: unknown; spec?: unknown } | undefined;
    const document = ref?.kind === 'openapi' ? documents.get(str(ref.spec).toLowerCase()) : undefined;
    if (document === undefined) return undefined;
    const method = str(data.method).toLowerCase();
    if (type === 'openapi-operation') {
      const found = operationSearchText(document, str(data.path), method);
      return (
        found && {
          text: found.text,
          heading: { title: found.title, preferredId: anchorOf(`${method} ${str(data.path)}`) },
        }
      );
    }
    if (type === 'openapi-webhook') {
      const found = webhookSearchText(document, str(data.name), method);
      return (
        found && {
          text: found.text,
          heading: { title: found.title, preferredId: anchorOf(`webhook ${method} ${str(data.name)}`) },
        }
      );
    }
    const names = Array.isArray(data.schemas)
      ? data.schemas.filter((n): n is string => typeof n === 'string')
      : [];
    const found = schemasSearchText(document, names);
    if (!found) return undefined;
    const title = str(data.title);
    return title
      ? { text: found.text, heading: { title, preferredId: anchorOf(`schemas ${title}`) } }
      : { text: found.text };
  };
}

function anchorOf(preferred: string): string {
  return headingId(preferred).slice(0, 100);
}
