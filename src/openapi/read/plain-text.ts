/**
 * Markdown of a spec's descriptions as plain words, for search text and one-line summaries. Not
 * a markdown parser: it drops the marks readers do not search for (emphasis, link targets, HTML
 * tags, heading and list markers) and keeps the words.
 */
export function plainText(markdown: string, max = 20_000): string {
  return markdown
    .slice(0, max)
    .replace(/```[^\n]*\n?/g, '')
    .replace(/<[^>\n]{0,500}>/g, ' ')
    .replace(/!\[([^\]\n]*)\]\([^)\n]*\)/g, '$1')
    .replace(/\[([^\]\n]*)\]\([^)\n]*\)/g, '$1')
    .replace(/^\s{0,3}(?:#{1,6}|>|[-+*]|\d{1,9}[.)])\s+/gm, '')
    .replace(/(\*\*|__|~~|`)/g, '')
    .replace(/(^|\W)[*_](\S[^*_\n]*?)[*_](?=\W|$)/g, '$1$2')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The first line of a description as plain words, at most `max` characters. */
export function firstLine(markdown: unknown, max = 200): string {
  if (typeof markdown !== 'string') return '';
  const line = plainText(markdown.trim().slice(0, 4000)).split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max)}…` : line;
}
