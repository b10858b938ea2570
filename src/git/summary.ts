import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';

/**
 * SUMMARY.md, the table of contents of GitBook's git format:
 *
 *     # Table of contents
 *     * [Introduction](README.md)
 *     * [Guides](guides/README.md)
 *       * [A long title](guides/setup.md "Setup")
 *       * [Buttons](guides/inline.md#buttons)
 *     ## A group <a href="#a-group" id="a-group"></a>
 *     * [Reference](reference.md)
 *     * [External](https://example.com)
 *     * ```yaml
 *       type: builtin:openapi
 *       …
 *       ```
 *
 * Level-2+ headings open groups (GitBook's anchor gives the group's slug), a `***` line ends one
 * (the entries after it are at the top level again); list items are links
 * to a page file (the quoted link title is the sidebar title, a `#fragment` makes a link to that
 * anchor), to an external URL, or a fenced YAML block describing pages computed from a source
 * (OpenAPI references). Items nest by indentation. Lines that are none of these are reported
 * and skipped: one odd line never stops a repository from importing.
 */

export interface SummaryPage {
  kind: 'page';
  title: string;
  /** The sidebar title (`[Title](page.md "Sidebar title")`). */
  linkTitle?: string;
  /** Path of the page file, relative to the root (normalized, no `./`). */
  path: string;
  /** `page.md#anchor`: an entry pointing at a place in the page. */
  anchor?: string;
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

/** Pages computed from a source (GitBook writes OpenAPI references this way). */
export interface SummaryComputed {
  kind: 'computed';
  title: string;
  /** The YAML block as data. */
  source: Record<string, unknown>;
  line: number;
  children: SummaryEntry[];
}

export type SummaryEntry = SummaryPage | SummaryLink | SummaryComputed;

export interface SummaryGroup {
  /** Null for the entries before the first group heading. */
  title: string | null;
  /** The id of GitBook's anchor after the heading, when it has one. */
  slug?: string;
  line: number;
  entries: SummaryEntry[];
}

export interface ParsedSummary {
  groups: SummaryGroup[];
  /** Lines that were skipped, and why. */
  warnings: string[];
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
const LINK =
  /^\[((?:[^\]\\]|\\.)*)\]\(\s*(<[^>]*>|[^\s)]*(?:\([^\s)]*\)[^\s)]*)*)(?:\s+(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'))?\s*\)\s*$/;
const HEADING = /^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$/;
const GROUP_ANCHOR = /^(.*?)\s*<a\s+href="#([^"]*)"\s+id="([^"]*)"\s*>\s*<\/a>$/;
const FENCE = /^(`{3,}|~{3,})/;
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

export function parseSummary(text: string): ParsedSummary {
  const groups: SummaryGroup[] = [{ title: null, line: 0, entries: [] }];
  const warnings: string[] = [];
  // Open list items with their indentation, innermost last.
  let stack: Array<{ indent: number; entry: SummaryEntry }> = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const line = i + 1;
    if (raw.trim() === '' || /^\s*<!--.*-->\s*$/.test(raw)) continue;
    const heading = HEADING.exec(raw);
    if (heading) {
      stack = [];
      // The level-1 heading is the document's own title ("Table of contents").
      if (heading[1]!.length >= 2) groups.push({ line, entries: [], ...groupTitle(heading[2]!) });
      continue;
    }
    if (/^\s*(-{3,}|\*{3,}|_{3,})\s*$/.test(raw)) {
      // A separator ends the group: what follows is at the top level again.
      stack = [];
      groups.push({ title: null, line, entries: [] });
      continue;
    }
    const item = ITEM.exec(raw);
    if (!item) {
      if (FENCE.test(raw.trim())) i = fenceEnd(lines, i, raw.length - raw.trimStart().length);
      warnings.push(
        `SUMMARY.md line ${line}: "${raw.trim()}" is not a list item "* [Title](page.md)" or a heading; it was skipped`,
      );
      continue;
    }
    const indent = item[1]!.replace(/\t/g, '    ').length;
    const content = item[2]!.trim();
    let entry: SummaryEntry | undefined;
    try {
      if (FENCE.test(content)) {
        const column = raw.indexOf(content);
        const end = fenceEnd(lines, i, column);
        entry = computedEntry(lines.slice(i, end + 1), column, line);
        i = end;
      } else entry = linkEntry(content, line);
    } catch (error) {
      if (!(error instanceof SummaryError)) throw error;
      warnings.push(`${error.message}; the entry was skipped`);
      continue;
    }
    while (stack.length > 0 && stack[stack.length - 1]!.indent >= indent) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) parent.entry.children.push(entry);
    else groups[groups.length - 1]!.entries.push(entry);
    stack.push({ indent, entry });
  }
  return { groups: groups.filter((g, i) => g.title !== null || g.entries.length > 0 || i === 0), warnings };
}

function groupTitle(text: string): { title: string; slug?: string } {
  const anchor = GROUP_ANCHOR.exec(text);
  if (anchor && anchor[2] === anchor[3] && anchor[2] !== '')
    return { title: unescapeMarkdown(anchor[1]!).trim() || anchor[2]!, slug: anchor[2]! };
  return { title: unescapeMarkdown(text) };
}

function linkEntry(content: string, line: number): SummaryEntry {
  const link = LINK.exec(content);
  if (!link) throw new SummaryError(line, `list items must be links "* [Title](page.md)", got "${content}"`);
  const title = unescapeMarkdown(link[1]!).trim();
  let href = link[2]!.trim();
  if (href.startsWith('<')) href = href.slice(1, -1).trim();
  if (href === '') throw new SummaryError(line, `the link "${title}" has no target`);
  if (SCHEME.test(href)) return { kind: 'link', title, url: href, line, children: [] };
  const hash = href.indexOf('#');
  const entry: SummaryPage = {
    kind: 'page',
    title,
    path: normalizeRelative(hash >= 0 ? href.slice(0, hash) : href, line),
    line,
    children: [],
  };
  if (hash >= 0 && hash < href.length - 1) entry.anchor = decodeSafe(href.slice(hash + 1));
  const linkTitle = link[3] ?? link[4];
  if (linkTitle !== undefined && linkTitle.trim() !== '')
    entry.linkTitle = unescapeMarkdown(linkTitle.replace(/\\(["'])/g, '$1')).trim();
  return entry;
}

/**
 * The index of the line closing the fence that starts at `column` of line `start`: the closing
 * fence, or the line before the first one indented less than the fence (the item ended).
 */
function fenceEnd(lines: string[], start: number, column: number): number {
  const open = FENCE.exec(lines[start]!.slice(column))![1]!;
  for (let j = start + 1; j < lines.length; j++) {
    const current = lines[j]!;
    const trimmed = current.trim();
    if (trimmed.length >= open.length && trimmed === open[0]!.repeat(trimmed.length)) return j;
    if (trimmed !== '' && current.length - current.trimStart().length < column) return j - 1;
  }
  return lines.length - 1;
}

function computedEntry(block: string[], contentColumn: number, line: number): SummaryComputed {
  const closed = block.length > 1 && /^\s*(`{3,}|~{3,})\s*$/.test(block.at(-1)!);
  const body = block
    .slice(1, closed ? -1 : undefined)
    .map((l) => l.slice(Math.min(contentColumn, l.length - l.trimStart().length)));
  let source: unknown;
  try {
    source = parseYaml(body.join('\n'));
  } catch (error) {
    throw new SummaryError(line, `the YAML block is not valid (${(error as Error).message.split('\n')[0]})`);
  }
  if (
    !source ||
    typeof source !== 'object' ||
    Array.isArray(source) ||
    typeof (source as { type?: unknown }).type !== 'string'
  )
    throw new SummaryError(line, 'the YAML block does not name the "type" of the pages it computes');
  const data = source as Record<string, unknown>;
  const spec = (data.dependencies as { spec?: { ref?: { spec?: unknown } } } | undefined)?.spec?.ref?.spec;
  const title =
    typeof data.title === 'string' && data.title.trim()
      ? data.title.trim()
      : typeof spec === 'string' && spec.trim()
        ? spec.trim()
        : String(data.type);
  return { kind: 'computed', title, source: data, line, children: [] };
}

function decodeSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function unescapeMarkdown(text: string): string {
  return text.replace(/\\([\\`*_{}[\]()#+\-.!<>|~"'])/g, '$1');
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
    const indent = '  '.repeat(depth);
    for (const entry of list) {
      if (entry.kind === 'computed') {
        const yaml = stringifyYaml(entry.source, { lineWidth: 0 }).replace(/\n$/, '');
        const inner = yaml
          .split('\n')
          .map((l) => `${indent}  ${l}`)
          .join('\n');
        text += `${indent}* \`\`\`yaml\n${inner}\n${indent}  \`\`\`\n`;
      } else {
        let target = entry.kind === 'link' ? entry.url : encodePath(entry.path);
        if (entry.kind === 'page' && entry.anchor) target += `#${encodeURIComponent(entry.anchor)}`;
        const linkTitle =
          entry.kind === 'page' && entry.linkTitle ? ` "${entry.linkTitle.replace(/(["\\])/g, '\\$1')}"` : '';
        text += `${indent}* [${escapeTitle(entry.title)}](${target}${linkTitle})\n`;
      }
      text += entries(entry.children, depth + 1);
    }
    return text;
  };
  for (const [i, group] of groups.entries()) {
    // Top-level entries after a group follow GitBook's separator.
    if (group.title === null) {
      if (group.entries.length === 0) continue;
      out += i === 0 ? '\n' : '\n***\n\n';
    } else {
      const anchor = group.slug ? ` <a href="#${group.slug}" id="${group.slug}"></a>` : '';
      out += `\n## ${group.title}${anchor}\n\n`;
    }
    out += entries(group.entries, 0);
  }
  return out;
}
