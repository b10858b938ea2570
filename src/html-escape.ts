/**
 * HTML escaping, for every part of Quire that writes HTML. Two flavours, on purpose:
 *
 * - `escapeHtml`: the HTML Quire serves (published pages, search snippets). All five special
 *   characters, so the text is safe as element content and inside any quoted attribute value.
 * - `escapeMarkdownHtml`: the HTML Quire writes into markdown (figures, buttons, tables...),
 *   escaped exactly as GitBook writes it (`&`, `<`, `>`, `"`; an apostrophe stays as it is), so
 *   a space exported to git gives back the files it was imported from, byte for byte. Attribute
 *   values there are always double-quoted.
 */

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const DECODE = new Map(Object.entries(ENTITIES).map(([ch, entity]) => [entity, ch]));

/** Text or attribute value as HTML for a page Quire serves. */
export function escapeHtml(value: string): string {
  // Documents come from API clients too: a number or null where a string belongs is drawn, not thrown on.
  return String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** The inverse of `escapeHtml` (only the references it writes). */
export function unescapeHtml(html: string): string {
  return html.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => DECODE.get(entity) ?? entity);
}

/** Text or double-quoted attribute value as HTML inside markdown, as GitBook writes it. */
export function escapeMarkdownHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ENTITIES[c]!);
}
