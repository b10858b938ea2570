import { pageSlug } from '../content/slugs.js';

/**
 * The pages an API reference is made of, read from a processed specification: one per tag (or
 * one per operation) and, when asked, one for the models. Both the `api-reference` template
 * (which writes them into a space as markdown) and the published site's computed pages (SUMMARY
 * `builtin:openapi` entries, drawn on the fly) take their pages from here, so a reference looks
 * the same whichever way it was made. The document is untrusted JSON: every field is checked.
 */

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface ReferenceOperation {
  path: string;
  method: string;
  summary: string;
}

export interface ReferencePage {
  /** Unique among the pages of one reference. */
  slug: string;
  title: string;
  description?: string;
  operations: ReferenceOperation[];
  /** Component schema names: set on the models page only. */
  schemas?: string[];
}

export type Grouping = 'by-tag' | 'by-operation';

/** Bounds for a hostile document: a reference never has more pages or operations than this. */
const MAX_PAGES = 500;
const MAX_OPERATIONS = 5000;
const MAX_SCHEMAS = 100;

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function text(value: unknown, max = 500): string {
  return typeof value === 'string' ? value.slice(0, max) : '';
}

/** Every operation of the document in its own order, with its tags. */
export function operationsOf(document: unknown): Array<ReferenceOperation & { tags: string[] }> {
  const paths = record(record(document)?.paths);
  const out: Array<ReferenceOperation & { tags: string[] }> = [];
  if (!paths) return out;
  for (const [path, item] of Object.entries(paths)) {
    const methods = record(item);
    if (!methods || !path.startsWith('/')) continue;
    for (const method of HTTP_METHODS) {
      const operation = record(methods[method]);
      if (!operation) continue;
      const tags = Array.isArray(operation.tags)
        ? operation.tags.filter((t): t is string => typeof t === 'string' && t.trim() !== '')
        : [];
      out.push({ path, method, summary: text(operation.summary) || `${method.toUpperCase()} ${path}`, tags });
      if (out.length >= MAX_OPERATIONS) return out;
    }
  }
  return out;
}

/** Names of `components.schemas`, in the document's order. */
export function schemaNames(document: unknown): string[] {
  const schemas = record(record(record(document)?.components)?.schemas);
  return schemas ? Object.keys(schemas) : [];
}

/** The pages of a reference: tags in the order the document declares them, then as first used. */
export function referencePages(
  document: unknown,
  options: { grouping?: Grouping; models?: boolean } = {},
): ReferencePage[] {
  const operations = operationsOf(document);
  const pages: ReferencePage[] = [];
  const taken = new Set<string>();
  const slugFor = (title: string) => {
    const base = pageSlug(title);
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    taken.add(slug);
    return slug;
  };

  if (options.grouping === 'by-operation') {
    for (const operation of operations.slice(0, MAX_PAGES)) {
      const { tags: _tags, ...op } = operation;
      pages.push({ slug: slugFor(op.summary), title: op.summary, operations: [op] });
    }
  } else {
    const declared = new Map<string, string>();
    const tagList = record(document)?.tags;
    if (Array.isArray(tagList))
      for (const tag of tagList) {
        const name = text(record(tag)?.name, 200);
        if (name && !declared.has(name)) declared.set(name, text(record(tag)?.description, 5000));
      }
    const groups = new Map<string, ReferenceOperation[]>();
    for (const name of declared.keys()) groups.set(name, []);
    const untagged: ReferenceOperation[] = [];
    for (const { tags, ...op } of operations) {
      if (tags.length === 0) untagged.push(op);
      // An operation with several tags is listed under its first, as GitBook does.
      else {
        const name = tags[0]!.slice(0, 200);
        if (!groups.has(name)) groups.set(name, []);
        groups.get(name)!.push(op);
      }
    }
    for (const [name, ops] of groups) {
      if (ops.length === 0 || pages.length >= MAX_PAGES) continue;
      const description = declared.get(name);
      pages.push({
        slug: slugFor(name),
        title: name,
        ...(description ? { description } : {}),
        operations: ops,
      });
    }
    if (untagged.length > 0 && pages.length < MAX_PAGES)
      pages.push({ slug: slugFor('Other operations'), title: 'Other operations', operations: untagged });
  }

  if (options.models) {
    const names = schemaNames(document).slice(0, MAX_SCHEMAS);
    if (names.length > 0)
      pages.push({ slug: slugFor('Models'), title: 'Models', operations: [], schemas: names });
  }
  return pages;
}

/** A tag value for a `{% … %}` attribute: GitBook's tags have no escape for `"`, so it is left out. */
function attr(value: string): string {
  return value.replace(/"/g, '');
}

/** The markdown of one reference page, as GitBook writes it: the blocks that draw its operations. */
export function referencePageMarkdown(spec: string, page: ReferencePage): string {
  // The title is the page's own; the markdown holds only what the page shows below it.
  const parts: string[] = [];
  if (page.description) parts.push(page.description);
  for (const op of page.operations)
    parts.push(
      `{% openapi-operation spec="${attr(spec)}" path="${attr(op.path)}" method="${op.method}" %}\n{% endopenapi-operation %}`,
    );
  if (page.schemas && page.schemas.length > 0)
    parts.push(
      `{% openapi-schemas spec="${attr(spec)}" schemas="${page.schemas
        .filter((name) => !name.includes(','))
        .map(attr)
        .join(',')}" grouped="false" %}\n{% endopenapi-schemas %}`,
    );
  return `${parts.join('\n\n')}\n`;
}
