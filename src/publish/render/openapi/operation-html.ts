import {
  mediaTypesOf,
  type Operation,
  operationTitle,
  preferredMedia,
  requestBodyOf,
  responsesOf,
  schemeWords,
  securityScheme,
} from '../../../openapi/read/operation.js';
import { firstLine } from '../../../openapi/read/plain-text.js';
import {
  entries,
  field,
  isObject,
  items,
  type JsonObject,
  LIMITS,
  text,
} from '../../../openapi/read/read.js';
import { type SchemaMode, typeText, viewSchema } from '../../../openapi/read/schema-info.js';
import { escapeHtml } from '../escape.js';
import { type BlockState, headingTag } from './block-state.js';
import { methodBadge } from './card-html.js';
import { codeSampleHtml, syntaxFor } from './code-sample-html.js';
import { curlCommand } from './curl.js';
import { descriptionHtml } from './description-html.js';
import { explicitExample, mediaExample } from './example.js';
import { jsonText } from './json-text.js';
import { blockHeading } from './outline.js';
import { rowHtml, schemaTreeHtml } from './schema-html.js';

/**
 * One operation (or webhook) as an API reference: heading and endpoint, description,
 * authorization, parameters by location, request body, responses, then a curl sample and
 * response examples. Everything reads without script: expandable parts are `<details>`.
 */

export interface OperationOptions {
  fullWidth?: boolean;
}

export function operationHtml(op: Operation, state: BlockState, options: OperationOptions = {}): string {
  const title = operationTitle(op);
  const preferred = op.webhook ? `webhook ${op.method} ${op.path}` : `${op.method} ${op.path}`;
  const heading = blockHeading(state.ctx, state.level, title, preferred, 'oa-title');
  const deprecated = op.operation.deprecated === true;
  const endpoint = op.webhook
    ? `${methodBadge(op.method)}<span class="oa-webhook-label">Webhook</span><code class="oa-url"><span class="oa-path">${escapeHtml(op.path)}</span></code>`
    : `${methodBadge(op.method)}<code class="oa-url">${op.server ? `<span class="oa-server">${escapeHtml(op.server)}</span>` : ''}<span class="oa-path">${pathHtml(op.path)}</span></code>`;
  const flags = deprecated ? '<span class="oa-flag oa-deprecated">Deprecated</span>' : '';
  const classes = ['oa-card', 'oa-operation', op.webhook ? 'oa-is-webhook' : ''];
  if (deprecated) classes.push('oa-is-deprecated');
  if (options.fullWidth) classes.push('full-width');
  return (
    `<section class="${classes.filter(Boolean).join(' ')}" data-method="${escapeHtml(op.method)}">` +
    `<header class="oa-head">${heading}<div class="oa-endpoint">${endpoint}${flags}</div></header>` +
    descriptionHtml(op.operation.description, state) +
    securityHtml(op, state) +
    parametersHtml(op, state) +
    requestBodyHtml(op, state) +
    responsesHtml(op, state) +
    samplesHtml(op, state) +
    '</section>'
  );
}

/** Path parameters stand out in the path: `/pets/<var>{id}</var>`. */
function pathHtml(path: string): string {
  return path
    .split(/(\{[^{}/]{1,200}\})/)
    .map((part, i) =>
      i % 2 === 1 ? `<span class="oa-path-param">${escapeHtml(part)}</span>` : escapeHtml(part),
    )
    .join('');
}

function section(state: BlockState, title: string, body: string, className = ''): string {
  if (!body) return '';
  const tag = headingTag(state, 1);
  return (
    `<section class="oa-section${className ? ` ${className}` : ''}">` +
    `<${tag} class="oa-section-title">${escapeHtml(title)}</${tag}>${body}</section>`
  );
}

function securityHtml(op: Operation, state: BlockState): string {
  const alternatives = op.security;
  if (alternatives.length === 0) return '';
  const optional = alternatives.some((alternative) => alternative.length === 0);
  const shown = alternatives.filter((alternative) => alternative.length > 0);
  if (shown.length === 0) return '';
  const rows = shown.map((alternative, i) => {
    const schemes = alternative.map(({ name, scopes }) => {
      const { scheme } = securityScheme(state.reader, name);
      const scopeHtml =
        scopes.length > 0
          ? `<dl class="oa-facts"><div><dt>Scopes</dt><dd>${scopes.map((s) => `<code>${escapeHtml(s)}</code>`).join(' ')}</dd></div></dl>`
          : '';
      return (
        `<div class="oa-prop-head"><code class="oa-name">${escapeHtml(name)}</code>` +
        `<span class="oa-type">${escapeHtml(schemeWords(scheme))}</span></div>` +
        descriptionHtml(field(scheme, 'description'), state, 'oa-prop-desc') +
        scopeHtml
      );
    });
    const or = i > 0 ? '<p class="oa-or">or</p>' : '';
    return `${or}<li class="oa-prop oa-security">${schemes.join('<p class="oa-and">and</p>')}</li>`;
  });
  const note = optional ? '<p class="oa-muted">Authorization is optional.</p>' : '';
  return section(state, 'Authorization', `<ul class="oa-props">${rows.join('')}</ul>${note}`);
}

const LOCATION_TITLES = [
  ['path', 'Path parameters'],
  ['query', 'Query parameters'],
  ['header', 'Header parameters'],
  ['cookie', 'Cookie parameters'],
] as const;

function parametersHtml(op: Operation, state: BlockState): string {
  let out = '';
  for (const [location, title] of LOCATION_TITLES) {
    const params = op.parameters.filter((p) => p.in === location);
    if (params.length === 0) continue;
    const rows = params.map((param) =>
      rowHtml(
        param.name,
        param.schema,
        {
          required: param.required,
          deprecated: param.object.deprecated === true,
          description: param.object.description,
          example: explicitExample(state.reader, param.object),
        },
        state,
        'request',
        [],
        1,
      ),
    );
    out += section(state, title, `<ul class="oa-props">${rows.join('')}</ul>`, 'oa-parameters');
  }
  return out;
}

/** The line naming a media type and the schema it carries. */
function mediaLabel(types: string[], media: unknown, state: BlockState): string {
  const names = types.map((type) => `<code class="oa-media-name">${escapeHtml(type)}</code>`).join('');
  const schema = field(media, 'schema');
  if (schema === undefined) return names;
  const view = viewSchema(state.reader, schema, []);
  const kind = typeText(state.reader, view, []);
  const name = view.name && view.name !== kind ? `<span class="oa-ref">${escapeHtml(view.name)}</span>` : '';
  return `${names}<span class="oa-type">${escapeHtml(kind)}</span>${name}`;
}

/**
 * The schema trees of a body's media types. Media types that carry the same schema (JSON and
 * XML of one `Pet`) share one tree; different ones each get a `<details>`, the first open.
 */
function contentHtml(holder: unknown, state: BlockState, mode: SchemaMode): string {
  const media = mediaTypesOf(holder);
  if (media.length === 0) return '';
  const groups: Array<{ types: string[]; media: unknown; key: unknown }> = [];
  for (const [type, value] of media) {
    const schema = field(value, 'schema');
    const key = schema === undefined ? undefined : state.reader.resolve(schema).key;
    const same = key !== undefined && groups.find((group) => group.key === key);
    if (same) same.types.push(type);
    else groups.push({ types: [type], media: value, key });
  }
  const tree = (value: unknown): string => {
    const schema = field(value, 'schema');
    if (schema === undefined) return '';
    const view = viewSchema(state.reader, schema, []);
    return (
      descriptionHtml(field(view.schema, 'description'), state, 'oa-prop-desc') +
      schemaTreeHtml(schema, state, mode)
    );
  };
  if (groups.length === 1) {
    const [group] = groups;
    return `<div class="oa-media"><p class="oa-media-line">${mediaLabel(group!.types, group!.media, state)}</p>${tree(group!.media)}</div>`;
  }
  return groups
    .map(
      (group, i) =>
        `<details class="oa-media oa-media-choice"${i === 0 ? ' open' : ''}><summary class="oa-media-line">${mediaLabel(group.types, group.media, state)}</summary>${tree(group.media)}</details>`,
    )
    .join('');
}

function requestBodyHtml(op: Operation, state: BlockState): string {
  const body = requestBodyOf(state.reader, op);
  if (!body) return '';
  const required =
    body.required === true ? '<p class="oa-flags"><span class="oa-flag oa-required">required</span></p>' : '';
  const inner =
    required + descriptionHtml(body.description, state, 'oa-prop-desc') + contentHtml(body, state, 'request');
  return section(state, op.webhook ? 'Payload' : 'Body', inner, 'oa-body');
}

function statusClass(status: string): string {
  const first = status.charAt(0);
  return /^[1-5]$/.test(first) ? `oa-status-${first}xx` : 'oa-status-default';
}

function responsesHtml(op: Operation, state: BlockState): string {
  const responses = responsesOf(state.reader, op);
  if (responses.length === 0) return '';
  const firstSuccess = responses.findIndex(([status]) => status.startsWith('2'));
  const rows = responses.map(([status, response], i) => {
    const summaryText = firstLine(response.description);
    const fullDescription = text(response.description, LIMITS.description)?.trim() ?? '';
    // The summary line says a one-line description already; longer ones are drawn in full inside.
    const description =
      fullDescription.includes('\n') || fullDescription.length > summaryText.length + 40
        ? descriptionHtml(fullDescription, state, 'oa-prop-desc')
        : '';
    const headers = headersHtml(response, state);
    const content = contentHtml(response, state, 'response');
    const summary =
      `<span class="oa-status ${statusClass(status)}">${escapeHtml(status)}</span>` +
      `<span class="oa-response-summary">${escapeHtml(summaryText)}</span>`;
    const body = description + headers + content;
    if (!body)
      return `<div class="oa-response oa-response-empty"><div class="oa-response-line">${summary}</div></div>`;
    const open = i === Math.max(firstSuccess, 0) ? ' open' : '';
    return (
      `<details class="oa-response"${open}><summary class="oa-response-line">${summary}</summary>` +
      `<div class="oa-response-body">${body}</div></details>`
    );
  });
  return section(
    state,
    'Responses',
    `<div class="oa-responses">${rows.join('')}</div>`,
    'oa-responses-section',
  );
}

function headersHtml(response: JsonObject, state: BlockState): string {
  const rows: string[] = [];
  for (const [name, value] of entries(field(response, 'headers'), LIMITS.parameters)) {
    if (name.toLowerCase() === 'content-type') continue;
    const header = state.reader.resolve(value).value;
    if (!isObject(header)) continue;
    const [, firstMedia] = entries(field(header, 'content'), 1)[0] ?? [];
    rows.push(
      rowHtml(
        name,
        field(header, 'schema') ?? field(firstMedia, 'schema'),
        {
          required: header.required === true,
          deprecated: header.deprecated === true,
          description: header.description,
          example: explicitExample(state.reader, header),
        },
        state,
        'response',
        [],
        1,
      ),
    );
  }
  if (rows.length === 0) return '';
  return `<div class="oa-headers"><p class="oa-sub-title">Headers</p><ul class="oa-props">${rows.join('')}</ul></div>`;
}

/** Examples a media type gives by name (`examples`), else its one example, own or made. */
function mediaExamples(
  media: unknown,
  state: BlockState,
  mode: SchemaMode,
): Array<{ label: string; value: unknown }> {
  const named: Array<{ label: string; value: unknown }> = [];
  for (const [name, example] of entries(field(media, 'examples'), 5)) {
    const resolved = state.reader.resolve(example).value;
    if (!isObject(resolved) || !Object.hasOwn(resolved, 'value')) continue;
    named.push({ label: text(resolved.summary, 120) ?? name.slice(0, 120), value: resolved.value });
  }
  if (named.length > 0) return named;
  const value = mediaExample(state.reader, media, mode);
  return value === undefined ? [] : [{ label: '', value }];
}

function exampleHtml(type: string, label: string, value: unknown, state: BlockState, prefix: string): string {
  const source = typeof value === 'string' ? value : jsonText(value, { indent: 2, maxChars: 20_000 });
  const title = [prefix, type, label].filter(Boolean).join(' · ');
  return codeSampleHtml(source, syntaxFor(type, value), title, state.ctx);
}

function samplesHtml(op: Operation, state: BlockState): string {
  let requests = '';
  for (const sample of items(
    field(op.operation, 'x-codeSamples') ?? field(op.operation, 'x-code-samples'),
    10,
  )) {
    const source = text(field(sample, 'source'), 50_000);
    if (source === undefined) continue;
    const lang = text(field(sample, 'lang'), 32) ?? 'text';
    const label = text(field(sample, 'label'), 120) ?? lang;
    requests += codeSampleHtml(source, lang.toLowerCase(), label, state.ctx);
  }
  if (op.webhook) {
    const chosen = preferredMedia(mediaTypesOf(requestBodyOf(state.reader, op)));
    if (chosen) {
      for (const { label, value } of mediaExamples(chosen[1], state, 'request'))
        requests += exampleHtml(chosen[0], label, value, state, 'Payload');
    }
  } else {
    requests += codeSampleHtml(curlCommand(state.reader, op), 'bash', 'cURL', state.ctx);
  }
  let responses = '';
  let shown = 0;
  for (const [status, response] of responsesOf(state.reader, op)) {
    const chosen = preferredMedia(mediaTypesOf(response));
    if (!chosen || shown >= 10) continue;
    for (const { label, value } of mediaExamples(chosen[1], state, 'response')) {
      responses += exampleHtml(chosen[0], label, value, state, status);
      shown += 1;
    }
  }
  return (
    section(state, op.webhook ? 'Payload example' : 'Request sample', requests, 'oa-samples') +
    section(state, 'Response examples', responses, 'oa-samples')
  );
}
