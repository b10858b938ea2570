import { headingId } from '../../../content/slugs.js';
import { attr, escapeHtml } from '../escape.js';
import { icon } from '../icons.js';
import type { RenderContext } from '../render-context.js';

/**
 * The headings OpenAPI blocks add to the page outline. An operation sits one level below the
 * document heading before it (a `## Pets` section holding its operations), or at the top level
 * on a page with no heading above it; headings of other OpenAPI blocks do not count, so
 * operations in a row stay siblings.
 */

const own = new WeakMap<RenderContext, Set<string>>();

/** The outline level (1..3) for a block's heading at this point of the page. */
export function blockLevel(ctx: RenderContext): number {
  const mine = own.get(ctx);
  for (let i = ctx.headings.length - 1; i >= 0; i--) {
    const heading = ctx.headings[i]!;
    if (!mine?.has(heading.id)) return Math.min(heading.level + 1, 3);
  }
  return 1;
}

/**
 * A block heading drawn as the document's headings are (`h2` for level 1, with an anchor link),
 * its id the stable `preferred` one (`get-pets-id`) unless the page already has it.
 */
export function blockHeading(
  ctx: RenderContext,
  level: number,
  title: string,
  preferred: string,
  className: string,
): string {
  const id = ctx.headingId(headingId(preferred).slice(0, 100) || undefined, title);
  let mine = own.get(ctx);
  if (!mine) {
    mine = new Set();
    own.set(ctx, mine);
  }
  mine.add(id);
  ctx.outline({ id, title, level });
  const tag = `h${level + 1}`;
  return (
    `<${tag} id="${id}" class="heading ${className}"><span class="heading-text">${escapeHtml(title)}</span>` +
    `<a class="anchor" href="#${id}"${attr('aria-label', `Link to section: ${title || id}`)}>${icon('link')}</a></${tag}>`
  );
}
