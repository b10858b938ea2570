import { operationMarkdown, schemasMarkdown, webhookMarkdown } from './render/openapi/index.js';

/**
 * A page's `.md` view with its API blocks written out: where the stored markdown has
 * `{% openapi-operation spec="…" path="…" method="…" %}…{% endopenapi-operation %}`, a reader of
 * the markdown (an assistant, llms.txt) gets the operation itself. A block whose specification
 * or operation is missing keeps its tag.
 */

const BLOCK = /\{%\s*openapi-(operation|schemas|webhook)\b([^%]*)%\}[\s\S]*?\{%\s*endopenapi-\1\s*%\}/g;
const ATTRIBUTE = /(\w+)="([^"]*)"/g;

export function expandApiBlocks(markdown: string, documents: (slug: string) => unknown): string {
  return markdown.replace(BLOCK, (whole, kind: string, attributes: string) => {
    const attrs = new Map<string, string>();
    for (const [, name, value] of attributes.matchAll(ATTRIBUTE)) attrs.set(name!, value!);
    const document = documents(attrs.get('spec') ?? '');
    if (document === undefined) return whole;
    const method = (attrs.get('method') ?? '').toLowerCase();
    const written =
      kind === 'operation'
        ? operationMarkdown(document, attrs.get('path') ?? '', method)
        : kind === 'webhook'
          ? webhookMarkdown(document, attrs.get('name') ?? '', method)
          : schemasMarkdown(
              document,
              (attrs.get('schemas') ?? '')
                .split(',')
                .map((name) => name.trim())
                .filter(Boolean),
            );
    return written ? written.trimEnd() : whole;
  });
}
