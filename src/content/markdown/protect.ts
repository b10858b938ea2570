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
const TAG = /^\{%-?\s*[A-Za-z][\w-]*(?:[^%]|%(?!\}))*-?%\}\s*$/;
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
      out.push(containers + indent + placeholder({ kind: 'tag', source: rest.trimEnd() }));
      continue;
    }
    const end = rest.trimEnd() === '$$' ? mathBlockEnd(lines, i, containers + indent) : null;
    if (end !== null) {
      const width = (containers + indent).length;
      const inner = lines.slice(i + 1, end).map((l) => l.slice(width));
      const source = ['$$', ...inner, '$$'].join('\n');
      out.push(containers + indent + placeholder({ kind: 'math', source, formula: inner.join('\n') }));
      i = end;
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
