import { parse as parseYaml } from 'yaml';
import { parseMarkdown } from '../content/markdown/parse.js';
import { stringifyMarkdown } from '../content/markdown/stringify.js';
import type { FlowContent } from '../content/markdown/syntax.js';
import type { PageNode, RevisionContent } from '../content/tree.js';
import { Lru } from '../lru.js';
import { type Condition, evaluateCondition, evaluateText, parseCondition } from './conditions.js';

/**
 * Adaptive content as one visitor sees it: conditional blocks (`{% if %}`), page conditions
 * (`if:` in front matter) and expressions (`space.vars.x`), evaluated against the visitor's
 * claims and the space's and page's variables. A condition that does not parse is false: a
 * reader never sees a branch whose condition is false or cannot be read.
 */

const parsed = new Lru<string, Condition | null>(2048);

function compile(expression: string): Condition | null {
  let condition = parsed.get(expression);
  if (condition === undefined) {
    try {
      condition = parseCondition(expression);
    } catch {
      condition = null;
    }
    parsed.set(expression, condition);
  }
  return condition;
}

/** A page's own variables (`vars:` in its front matter), read once per page node. */
const pageVars = new WeakMap<PageNode, Record<string, unknown>>();

function varsOf(page: PageNode | undefined): Record<string, unknown> {
  if (!page?.fileHead) return {};
  let vars = pageVars.get(page);
  if (!vars) {
    vars = {};
    const fence = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---/.exec(page.fileHead);
    if (fence) {
      try {
        const data = parseYaml(fence[1]!) as { vars?: unknown } | null;
        if (data?.vars && typeof data.vars === 'object' && !Array.isArray(data.vars))
          vars = data.vars as Record<string, unknown>;
      } catch {
        // Front matter that does not read gives no variables.
      }
    }
    pageVars.set(page, vars);
  }
  return vars;
}

export class VisitorView {
  constructor(
    readonly claims: Record<string, unknown>,
    private readonly content: RevisionContent,
  ) {}

  /** Whether the expression holds for this visitor, on `page`. */
  holds(expression: string, page?: PageNode): boolean {
    const condition = compile(expression);
    if (!condition) return false;
    try {
      return evaluateCondition(condition, this.claims, {
        spaceVars: this.content.variables,
        pageVars: varsOf(page),
      });
    } catch {
      return false;
    }
  }

  /** The text an expression shows on `page` (`space.vars.PRODUCT_NAME`), or undefined. */
  text(expression: string, page?: PageNode): string | undefined {
    const condition = compile(expression);
    if (!condition) return undefined;
    try {
      return evaluateText(condition, {
        claims: this.claims,
        spaceVars: this.content.variables,
        pageVars: varsOf(page),
      });
    } catch {
      return undefined;
    }
  }

  /** Whether the visitor may see the page: its condition, and those of the pages above it. */
  shows(page: PageNode): boolean {
    for (let current: PageNode | undefined = page, guard = 0; current && guard < 1000; guard++) {
      if (current.condition && !this.holds(current.condition, current)) return false;
      current = current.parent ? this.content.pages.get(current.parent) : undefined;
    }
    return true;
  }

  /**
   * A page's markdown as this visitor may read it: conditional blocks whose condition is false
   * removed, those that hold replaced by their content.
   */
  markdown(markdown: string, page: PageNode): string {
    if (!markdown.includes('{%')) return markdown;
    const tree = parseMarkdown(markdown);
    let changed = false;
    const filter = (children: FlowContent[]): FlowContent[] =>
      children.flatMap((child) => {
        if (child.type === 'gitbookBlock' && child.name === 'if') {
          changed = true;
          const shown = this.holds(child.args, page) ? child.children : (child.alternate ?? []);
          return filter(shown);
        }
        if ('children' in child && Array.isArray(child.children) && child.type !== 'paragraph')
          (child as { children: FlowContent[] }).children = filter(child.children as FlowContent[]);
        return [child];
      });
    tree.children = filter(tree.children as FlowContent[]) as typeof tree.children;
    return changed ? stringifyMarkdown(tree) : markdown;
  }
}
