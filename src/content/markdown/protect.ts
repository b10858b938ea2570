/**
 * GitBook syntax CommonMark does not know, hidden from the CommonMark parser.
 *
 * A `{% %}` tag line would be glued to the paragraph around it (or continue a list item
 * lazily), and `$$…$$` math would lose backslashes to markdown escapes. Before parsing, each of
 * them is replaced by an HTML comment holding its index: a comment on its own line is a block
 * of its own and interrupts a paragraph, inside a line it is an atomic inline node. The parser
 * then turns the comments back into GitBook nodes. A comment that lands inside literal text
 * (a code block the line scan did not see, raw HTML) is put back as it was written.
 */

export interface Token {
  kind: 'tag' | 'math' | 'inline-math' | 'raw';
  /** The text the placeholder replaced. */
  source: string;
  /** The formula of math tokens. */
  formula?: string;
}

export interface Protected {
  text: string;
  tokens: Token[];
}

// U+E000 and U+E001 are private-use characters: markdown written by people does not hold them.
const MARK = '\uE000';
/** Put before a placeholder that starts a line, so the comment stays inline. */
export const INLINE_GUARD = '\uE001';
export const PLACEHOLDER = /\uE001?<!--\uE000(\d+)-->/g;
export const EXACT_PLACEHOLDER = /^<!--\uE000(\d+)-->$/;

/** Container markers (block quotes, list items) and indentation before a line's content. */
const LINE = /^((?:[ \t]*(?:>[ \t]?|[-*+][ \t]+|\d{1,9}[.)][ \t]+))*)([ \t]*)(.*)$/;
/** One or more `{% %}` tags filling a line (GitBook writes `{% openapi … %}{% endopenapi %}`). */
const TAG = /^(?:\{%-?\s*@?[A-Za-z][\w-]*(?:\/[\w-]+)*(?:[^%]|%(?!\}))*-?%\}\s*)+$/;
const ONE_TAG = /\{%-?\s*@?[A-Za-z][\w-]*(?:\/[\w-]+)*(?:[^%]|%(?!\}))*-?%\}/g;
/** The start of a tag whose attributes run over several lines (`{% @mermaid/diagram content="…` ). */
const TAG_START = /^\{%-?\s*@?[A-Za-z][\w-]*(?:\/[\w-]+)*\s[^%]*$/;
const MAX_TAG_LINES = 200;
const FENCE_OPEN = /^(`{3,}|~{3,})(.*)$/;
const INLINE_MATH = /(?<!\\)\$\$(?!\$)([^`\n]*?[^`\n\\])\$\$/g;
const FRONTMATTER = /^---\n[\s\S]*?\n---[ \t]*(?=\n|$)/;

export function protect(markdown: string): Protected {
  const tokens: Token[] = [];
  const placeholder = (token: Token): string => {
    tokens.push(token);
    return `<!--${MARK}${tokens.length - 1}-->`;
  };

  let body = markdown;
  let head = '';
  const frontmatter = FRONTMATTER.exec(markdown);
  if (frontmatter) {
    head = placeholder({ kind: 'raw', source: frontmatter[0] });
    body = markdown.slice(frontmatter[0].length);
  }

  const lines = body.split('\n');
  const out: string[] = [];
  let fence: { char: string; length: number } | null = null;

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const [, containers = '', indent = '', rest = ''] = LINE.exec(line) ?? [];
    if (fence) {
      if (closesFence(rest, fence)) fence = null;
      out.push(line);
      continue;
    }
    // Four spaces may be indented code or the content of a nested list item: only fences need
    // telling apart (a placeholder that lands in code is put back by `restore`).
    const open = indent.length < 4 ? FENCE_OPEN.exec(rest) : null;
    if (open && !(open[1]!.startsWith('`') && open[2]!.includes('`'))) {
      fence = { char: open[1]![0]!, length: open[1]!.length };
      out.push(line);
      continue;
    }
    if (TAG.test(rest)) {
      const tags = rest.match(ONE_TAG)!;
      // An HTML block runs until a blank line and would swallow the tag (`</details>` then
      // `{% endupdate %}`, as GitBook writes them): a blank line ends it first.
      if (continuesHtml(out.at(-1))) out.push(containers.trimEnd());
      // Tags sharing a line become lines of their own (they pair like any others).
      for (const tag of tags) out.push(containers + indent + placeholder({ kind: 'tag', source: tag }));
      continue;
    }
    const end = TAG_START.test(rest) ? multilineTagEnd(lines, i) : null;
    if (end !== null) {
      const source = [rest, ...lines.slice(i + 1, end + 1)].join('\n').trimEnd();
      out.push(containers + indent + placeholder({ kind: 'tag', source }));
      // The lines the tag spans stay lines, blank, so line counts of what follows do not move.
      for (let j = i + 1; j <= end; j++) out.push('');
      i = end;
      continue;
    }
    const mathEnd = rest.trimEnd() === '$$' ? mathBlockEnd(lines, i, containers + indent) : null;
    if (mathEnd !== null) {
      const width = (containers + indent).length;
      const inner = lines.slice(i + 1, mathEnd).map((l) => l.slice(width));
      const source = ['$$', ...inner, '$$'].join('\n');
      out.push(containers + indent + placeholder({ kind: 'math', source, formula: inner.join('\n') }));
      i = mathEnd;
      continue;
    }
    const start = containers.length + indent.length;
    const replaced = rest.replace(INLINE_MATH, (source: string, formula: string, offset: number) => {
      const comment = placeholder({ kind: 'inline-math', source, formula });
      return offset === 0 ? INLINE_GUARD + comment : comment;
    });
    out.push(replaced === rest ? line : line.slice(0, start) + replaced);
  }
  return { text: head + out.join('\n'), tokens };
}

/** Puts back the source of every placeholder in a literal value. */
export function restore(value: string, tokens: Token[]): string {
  if (!value.includes(MARK)) return value;
  return value.replace(PLACEHOLDER, (whole, index: string) => tokens[Number(index)]?.source ?? whole);
}

/** Whether a line (container markers aside) is HTML, which an HTML block would go on after. */
function continuesHtml(line: string | undefined): boolean {
  const content = line?.replace(/^[\s>]*/, '') ?? '';
  return content.startsWith('<') && !content.startsWith(`<!--${MARK}`);
}

/**
 * The line ending a tag that opened on line `start` without closing there: the first line that
 * ends with `%}` within a few hundred lines. Only integration tags (`{% @name/block … %}`) run
 * over lines; GitBook's Mermaid block puts a whole diagram, quotes unescaped, in one attribute.
 */
function multilineTagEnd(lines: string[], start: number): number | null {
  if (!/^\s*\{%-?\s*@/.test(lines[start]!)) return null;
  for (let j = start + 1; j < lines.length && j <= start + MAX_TAG_LINES; j++) {
    if (lines[j]!.includes('{%')) return null;
    if (/%\}\s*$/.test(lines[j]!)) return j;
  }
  return null;
}

function closesFence(rest: string, fence: { char: string; length: number }): boolean {
  const trimmed = rest.trimEnd();
  if (trimmed.length < fence.length) return false;
  for (const char of trimmed) if (char !== fence.char) return false;
  return true;
}

/**
 * The line closing a `$$` block opened at `start`: every line until then carries the same
 * container prefix. Math blocks hold no blank line, which also keeps the scan short.
 */
function mathBlockEnd(lines: string[], start: number, prefix: string): number | null {
  const continuation = prefix.replace(/[-*+]|\d{1,9}[.)]/g, (m) => ' '.repeat(m.length));
  for (let j = start + 1; j < lines.length; j++) {
    const line = lines[j]!;
    if (!line.startsWith(continuation)) return null;
    const rest = line.slice(continuation.length);
    if (rest.trim() === '') return null;
    if (rest.trimEnd() === '$$') return j;
  }
  return null;
}
