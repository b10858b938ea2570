/**
 * SUMMARY.md, the table of contents of GitBook's git format:
 *
 *     # Table of contents
 *     * [Introduction](README.md)
 *     * [Guides](guides/README.md)
 *       * [Setup](guides/setup.md)
 *     ## A group
 *     * [Reference](reference.md)
 *     * [External](https://example.com)
 *
 * Level-2+ headings open groups; list items are links (to a page file or an external URL),
 * nested by indentation. A list item that is not a link is malformed and named by its line.
 */

export interface SummaryPage {
  kind: 'page';
  title: string;
  /** Path of the page file, relative to the root (normalized, no `./`). */
  path: string;
  line: number;
  children: SummaryEntry[];
}

export interface SummaryLink {
  kind: 'link';
  title: string;
  url: string;
  line: number;
  children: SummaryEntry[];
}

export type SummaryEntry = SummaryPage | SummaryLink;

export interface SummaryGroup {
  /** Null for the entries before the first group heading. */
  title: string | null;
  line: number;
  entries: SummaryEntry[];
}

export class SummaryError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`SUMMARY.md line ${line}: ${message}`);
    this.name = 'SummaryError';
  }
}

const ITEM = /^([ \t]*)[*+-][ \t]+(.*)$/;
const LINK = /^\[((?:[^\]\\]|\\.)*)\]\(\s*<?([^)>]*?)>?\s*\)\s*$/;
const HEADING = /^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$/;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Normalizes a path relative to the root; refuses one that leaves it. */
export function normalizeRelative(raw: string, line: number): string {
  let value = raw;
  try {
    value = decodeURI(raw);
  } catch {
    // Keep the text as written.
  }
  value = value.split('#')[0]!;
  if (value.startsWith('/'))
    throw new SummaryError(line, `"${raw}" is an absolute path; use a path relative to SUMMARY.md`);
  const parts: string[] = [];
  for (const part of value.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) throw new SummaryError(line, `"${raw}" escapes the project directory`);
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}

export function parseSummary(text: string): SummaryGroup[] {
  const groups: SummaryGroup[] = [{ title: null, line: 0, entries: [] }];
  // Open list items with their indentation, innermost last.
  let stack: Array<{ indent: number; entry: SummaryEntry }> = [];
  let inFence = false;
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = i + 1;
    if (/^\s*(```|~~~)/.test(raw)) inFence = !inFence;
    if (inFence || raw.trim() === '' || /^\s*<!--.*-->\s*$/.test(raw)) continue;
    const heading = HEADING.exec(raw);
    if (heading) {
      stack = [];
      // The level-1 heading is the document's own title ("Table of contents").
      if (heading[1]!.length >= 2) groups.push({ title: unescapeMarkdown(heading[2]!), line, entries: [] });
      continue;
    }
    const item = ITEM.exec(raw);
    if (!item) {
      if (/^(---+|\*\*\*+)\s*$/.test(raw.trim())) {
        stack = [];
        continue;
      }
      throw new SummaryError(
        line,
        `expected a list item "* [Title](page.md)" or a heading, got "${raw.trim()}"`,
      );
    }
    const indent = item[1]!.replace(/\t/g, '    ').length;
    const link = LINK.exec(item[2]!.trim());
    if (!link)
      throw new SummaryError(line, `list items must be links "* [Title](page.md)", got "${item[2]!.trim()}"`);
    const title = unescapeMarkdown(link[1]!).trim();
    const href = link[2]!.trim();
    if (href === '') throw new SummaryError(line, `the link "${title}" has no target`);
    const entry: SummaryEntry = SCHEME.test(href)
      ? { kind: 'link', title, url: href, line, children: [] }
      : { kind: 'page', title, path: normalizeRelative(href, line), line, children: [] };
    while (stack.length > 0 && stack[stack.length - 1]!.indent >= indent) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) parent.entry.children.push(entry);
    else groups[groups.length - 1]!.entries.push(entry);
    stack.push({ indent, entry });
  }
  return groups.filter((g) => g.title !== null || g.entries.length > 0);
}

function unescapeMarkdown(text: string): string {
  return text.replace(/\\([\\`*_{}[\]()#+\-.!<>])/g, '$1');
}

function escapeTitle(title: string): string {
  return title.replace(/([\\[\]])/g, '\\$1');
}

function encodePath(path: string): string {
  return path
    .split('/')
    .map((part) => encodeURIComponent(part).replace(/\(/g, '%28').replace(/\)/g, '%29'))
    .join('/');
}

/** Writes SUMMARY.md from groups, in GitBook's layout. */
export function writeSummary(groups: SummaryGroup[]): string {
  let out = '# Table of contents\n';
  const entries = (list: SummaryEntry[], depth: number): string => {
    let text = '';
    for (const entry of list) {
      const target = entry.kind === 'link' ? entry.url : encodePath(entry.path);
      text += `${'  '.repeat(depth)}* [${escapeTitle(entry.title)}](${target})\n`;
      text += entries(entry.children, depth + 1);
    }
    return text;
  };
  for (const group of groups) {
    out += group.title === null ? '\n' : `\n## ${group.title}\n\n`;
    out += entries(group.entries, 0);
  }
  return out;
}
