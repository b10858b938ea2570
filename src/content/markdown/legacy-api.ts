import type { Container } from './containers.js';
import { type ToDocumentContext, Unrepresentable } from './context.js';
import { type AnyBlock, paragraph, text } from './document-types.js';
import { leaf, mark } from './inline-parts.js';
import type { FlowContent, GitbookBlock } from './syntax.js';

/**
 * GitBook's legacy hand-written API methods: the editable `{% swagger method= path= %}` block
 * (with `swagger-description`, `swagger-parameter` and `swagger-response`) and the older
 * `{% api-method %}` family. No document node holds them (GitBook converted them to OpenAPI
 * blocks, which need a spec), so API documents keep their markdown raw; on the site they are
 * drawn from the blocks documents do have: the method and path, the description, the
 * parameters as a list, each response as an expandable holding its example.
 */

/** The tags of both families, read here for the site. */
export const LEGACY_API_TAGS = new Set([
  'swagger-description',
  'swagger-parameter',
  'swagger-response',
  'api-method',
  'api-method-summary',
  'api-method-description',
  'api-method-spec',
  'api-method-request',
  'api-method-path-parameters',
  'api-method-query-parameters',
  'api-method-headers',
  'api-method-body-parameters',
  'api-method-form-data-parameters',
  'api-method-parameter',
  'api-method-response',
  'api-method-response-example',
  'api-method-response-example-description',
]);

const PARAMETER_SETS: Record<string, string> = {
  'api-method-path-parameters': 'path',
  'api-method-query-parameters': 'query',
  'api-method-headers': 'header',
  'api-method-body-parameters': 'body',
  'api-method-form-data-parameters': 'form data',
};

export function legacyApiMethod(
  node: GitbookBlock,
  ctx: ToDocumentContext,
  container: Container,
): AnyBlock[] {
  if (ctx.profile !== 'render') throw new Unrepresentable('legacy API method');
  const attrs = node.attrs;
  const method = (attrs.method ?? '').toUpperCase();
  const path = `${attrs.baseUrl ?? attrs.host ?? ''}${attrs.path ?? ''}`;
  if (!method || !path) throw new Unrepresentable('legacy API method');
  const out: AnyBlock[] = [
    paragraph([{ object: 'text', leaves: [leaf(`${method} `, [mark('bold')]), leaf(path, [mark('code')])] }]),
  ];
  if (attrs.summary) out.push(paragraph([text(attrs.summary)]));
  const parameters: AnyBlock[] = [];
  const responses: AnyBlock[] = [];
  const visit = (children: FlowContent[], location?: string) => {
    for (const child of children) {
      if (child.type !== 'gitbookBlock') {
        out.push(...ctx.children([child], container));
        continue;
      }
      switch (child.name) {
        case 'swagger-description':
        case 'api-method-description':
          out.push(...ctx.children(child.children, container));
          break;
        case 'api-method-summary':
          out.push(paragraph([{ object: 'text', leaves: [leaf(textOf(child.children), [mark('bold')])] }]));
          break;
        case 'swagger-parameter':
        case 'api-method-parameter':
          parameters.push(parameter(child, location, ctx));
          break;
        case 'swagger-response':
        case 'api-method-response-example':
          responses.push(response(child, ctx));
          break;
        default:
          visit(child.children, PARAMETER_SETS[child.name] ?? location);
      }
    }
  };
  visit(node.children);
  if (parameters.length > 0) {
    out.push(paragraph([{ object: 'text', leaves: [leaf('Parameters', [mark('bold')])] }]));
    out.push({ object: 'block', type: 'list-unordered', data: {}, nodes: parameters as never });
  }
  out.push(...responses);
  return out;
}

/** `name` (in, type, required): its description. */
function parameter(node: GitbookBlock, location: string | undefined, ctx: ToDocumentContext): AnyBlock {
  const attrs = node.attrs;
  const facts = [attrs.in ?? location, attrs.type, attrs.required === 'true' ? 'required' : undefined].filter(
    Boolean,
  );
  const head = paragraph([
    {
      object: 'text',
      leaves: [
        leaf(attrs.name ?? 'parameter', [mark('code')]),
        leaf(facts.length ? ` (${facts.join(', ')})` : '', []),
      ],
    },
  ]);
  return {
    object: 'block',
    type: 'list-item',
    data: {},
    nodes: [head, ...ctx.children(node.children, 'listItem')] as never,
  };
}

/** A response as an expandable: its status and description as the title, its example inside. */
function response(node: GitbookBlock, ctx: ToDocumentContext): AnyBlock {
  const attrs = node.attrs;
  const title = [attrs.status ?? attrs.httpCode, attrs.description].filter(Boolean).join(' — ') || 'Response';
  const body = ctx.children(
    node.children.flatMap((child) =>
      child.type === 'gitbookBlock' && child.name === 'api-method-response-example-description'
        ? child.children
        : [child],
    ),
    'expandable',
  );
  return {
    object: 'block',
    type: 'expandable',
    isVoid: true,
    data: {},
    fragments: [
      {
        object: 'fragment',
        fragment: 'expandable-title',
        type: 'expandable-title',
        nodes: [paragraph([text(title)])],
      },
      {
        object: 'fragment',
        fragment: 'expandable-body',
        type: 'expandable-body',
        nodes: (body.length > 0 ? body : [paragraph([text('')])]) as never,
      },
    ],
  };
}

function textOf(children: FlowContent[]): string {
  const parts: string[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const n = node as { value?: unknown; children?: unknown[] };
    if (typeof n.value === 'string') parts.push(n.value);
    for (const child of n.children ?? []) walk(child);
  };
  for (const child of children) walk(child);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}
