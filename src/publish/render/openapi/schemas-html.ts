import { escapeHtml } from '../escape.js';
import type { BlockState } from './block-state.js';
import { codeSampleHtml } from './code-sample-html.js';
import { descriptionHtml } from './description-html.js';
import { exampleFromSchema } from './example.js';
import { jsonText } from './json-text.js';
import { blockHeading } from './outline.js';
import { field, isObject, LIMITS } from './read.js';
import { schemaTreeHtml } from './schema-html.js';
import { typeText, viewSchema } from './schema-info.js';
import type { SpecReader } from './spec-reader.js';

/**
 * The `openapi-schemas` block: named schemas of `components.schemas`, each a titled tree in a
 * `<details>`; grouped (the default), all in one card under the block's title.
 */

/**
 * A reference to `components.schemas[name]`, undefined when there is no such schema. Drawn
 * through its reference, the schema is known by its pointer: a property that refers back to
 * it is a cycle from the first repeat on.
 */
export function namedSchema(reader: SpecReader, name: string): { $ref: string } | undefined {
  const schemas = reader.resolve(field(field(reader.root, 'components'), 'schemas')).value;
  if (!isObject(schemas) || !Object.hasOwn(schemas, name)) return undefined;
  const segment = name.replace(/~/g, '~0').replace(/\//g, '~1');
  return { $ref: `#/components/schemas/${encodeURIComponent(segment)}` };
}

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
