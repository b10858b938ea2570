import { field, isObject, LIMITS } from '../../../openapi/read/read.js';
import { typeText, viewSchema } from '../../../openapi/read/schema-info.js';
import { namedSchema } from '../../../openapi/read/spec-reader.js';
import { escapeHtml } from '../escape.js';
import type { BlockState } from './block-state.js';
import { codeSampleHtml } from './code-sample-html.js';
import { descriptionHtml } from './description-html.js';
import { exampleFromSchema } from './example.js';
import { jsonText } from './json-text.js';
import { blockHeading } from './outline.js';
import { schemaTreeHtml } from './schema-html.js';

/**
 * The `openapi-schemas` block: named schemas of `components.schemas`, each a titled tree in a
 * `<details>`; grouped (the default), all in one card under the block's title.
 */

export function schemasHtml(
  names: string[],
  grouped: boolean,
  title: string | undefined,
  state: BlockState,
  missing: (name: string) => string,
): string {
  const open = names.length === 1;
  const parts = names.map((name) => {
    const schema = namedSchema(state.reader, name);
    if (schema === undefined) return missing(name);
    return schemaDetails(name, schema, state, open);
  });
  if (grouped) {
    const heading = title ? blockHeading(state.ctx, state.level, title, `schemas ${title}`, 'oa-title') : '';
    return `<section class="oa-card oa-schemas">${heading ? `<header class="oa-head">${heading}</header>` : ''}${parts.join('')}</section>`;
  }
  return parts.map((part) => `<section class="oa-card oa-schemas">${part}</section>`).join('');
}

function schemaDetails(name: string, schema: unknown, state: BlockState, open: boolean): string {
  const view = viewSchema(state.reader, schema, []);
  const type = typeText(state.reader, view, []);
  const example = exampleFromSchema(state.reader, schema, 'schema');
  const exampleHtml =
    example === undefined || (isObject(example) && Object.keys(example).length === 0)
      ? ''
      : codeSampleHtml(jsonText(example, { indent: 2, maxChars: 20_000 }), 'json', 'Example', state.ctx);
  return (
    `<details class="oa-schema"${open ? ' open' : ''}>` +
    `<summary class="oa-schema-line"><span class="oa-schema-name">${escapeHtml(name.slice(0, LIMITS.name))}</span>` +
    `<span class="oa-type">${escapeHtml(type)}</span></summary>` +
    `<div class="oa-schema-body">${descriptionHtml(field(view.schema, 'description'), state, 'oa-prop-desc')}` +
    `${schemaTreeHtml(schema, state, 'schema')}${exampleHtml}</div></details>`
  );
}
