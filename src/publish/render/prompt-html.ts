import type { Block } from '../../content/document-schema.js';
import { escapeHtml } from './escape.js';
import { faIcon } from './fa-icons.js';
import { icon } from './icons.js';
import { nodeText } from './refs.js';
import type { RenderContext } from './render-context.js';

/**
 * The AI prompt block: a card titled by its description, holding the prompt text (its one code
 * block) and a copy button. It is a `<details>`: closed for `hidden` (the schema's default),
 * open for `full`, open and cut to ten lines with a "show more" toggle for `partial`. All of it
 * works without script, but for the copy button, which the site script shows and wires.
 */

type Prompt = Extract<Block, { type: 'prompt' }>;

const PARTIAL_LINES = 10;

export function renderPrompt(block: Prompt, ctx: RenderContext): string {
  const data = (block.data ?? {}) as { description?: unknown; icon?: unknown; defaultExpanded?: unknown };
  const code = (Array.isArray(block.nodes) ? block.nodes : []).find(
    (node) => (node as { type?: unknown })?.type === 'code',
  ) as { nodes?: unknown[] } | undefined;
  const lines = (Array.isArray(code?.nodes) ? code.nodes : []).map((line) =>
    nodeText(line, ctx).replace(/\r/g, ''),
  );
  const text = lines.join('\n');
  const description =
    typeof data.description === 'string' && data.description.trim() ? data.description : 'Prompt';
  if (text.trim() === '' && description === 'Prompt') return '';
  const expanded =
    data.defaultExpanded === 'full' || data.defaultExpanded === 'partial' ? data.defaultExpanded : 'hidden';
  const partial = expanded === 'partial' && lines.length > PARTIAL_LINES;
  const glyph = faIcon(typeof data.icon === 'string' && data.icon ? data.icon : 'wand-magic-sparkles');
  const more = partial
    ? '<details class="code-more"><summary>' +
      `<span class="code-more-show">Show ${lines.length - PARTIAL_LINES} more lines</span>` +
      '<span class="code-more-hide">Show fewer lines</span></summary></details>'
    : '';
  return (
    `<div class="prompt${partial ? ` prompt-partial collapse-${PARTIAL_LINES}` : ''}">` +
    `<details class="prompt-details"${expanded === 'hidden' ? '' : ' open'}>` +
    '<summary class="prompt-header">' +
    `<span class="prompt-icon">${glyph}</span>` +
    `<span class="prompt-title">${escapeHtml(description)}</span>` +
    icon('chevronDown', 'icon prompt-chevron') +
    '</summary>' +
    `<pre class="prompt-text" tabindex="0"><code>${escapeHtml(text)}</code></pre>` +
    more +
    '</details>' +
    `<button type="button" class="copy-button prompt-copy" data-copy hidden aria-label="Copy prompt">${icon('copy')}${icon('check', 'icon icon-done')}<span class="copy-label">Copy</span></button>` +
    '</div>'
  );
}
