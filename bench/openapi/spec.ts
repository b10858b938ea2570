/**
 * A real-world-sized OpenAPI 3.0 specification for bench/openapi, split the way large APIs
 * split theirs: an entry document in YAML with the paths, and the component schemas spread over
 * several JSON files that the paths reach through relative `$ref`s (`./schemas-3.json#/Invoice17`).
 * Schemas reference each other inside and across files, some recursively, so bundling has real
 * work to do. Deterministic: the same arguments give the same bytes.
 */
import { stringify } from 'yaml';

export interface SplitSpec {
  /** File name → text; `openapi.yaml` is the entry. */
  files: Map<string, string>;
  entry: string;
  operations: number;
  schemas: number;
  /** One operation the render benchmark draws: the busiest of the first tag. */
  sample: { path: string; method: string; tag: string };
}

const RESOURCES = [
  'Account',
  'Invoice',
  'Customer',
  'Payment',
  'Refund',
  'Subscription',
  'Plan',
  'Product',
  'Price',
  'Coupon',
  'Order',
  'Shipment',
  'Address',
  'Webhook',
  'Event',
  'Dispute',
  'Payout',
  'Transfer',
  'Balance',
  'TaxRate',
  'Report',
  'File',
  'Token',
  'Session',
  'Review',
];

/** `operations` paths split evenly over resources; `schemas` schemas over `files` JSON files. */
export function splitSpec(operations = 500, schemas = 1000, files = 10): SplitSpec {
  const perFile = Math.ceil(schemas / files);
  const schemaName = (i: number) => `${RESOURCES[i % RESOURCES.length]}${Math.floor(i / RESOURCES.length)}`;
  const fileOf = (i: number) => `schemas-${Math.floor(i / perFile)}.json`;
  const refTo = (i: number, from: string | null) =>
    from === fileOf(i) ? `#/${schemaName(i)}` : `./${fileOf(i)}#/${schemaName(i)}`;

  const out = new Map<string, string>();
  const byFile = new Map<string, Record<string, unknown>>();
  for (let i = 0; i < schemas; i++) {
    const file = fileOf(i);
    const own = byFile.get(file) ?? {};
    byFile.set(file, own);
    // Each schema points at two others (one usually in another file) and every 50th at itself.
    const next = (i * 7 + 3) % schemas;
    const other = (i * 13 + 11) % schemas;
    own[schemaName(i)] = {
      type: 'object',
      description: `A ${schemaName(i)} as the API returns it. Amounts are in the smallest currency unit.`,
      required: ['id', 'object', 'created'],
      properties: {
        id: { type: 'string', example: `${schemaName(i).toLowerCase()}_1Hx9`, maxLength: 64 },
        object: { type: 'string', enum: [schemaName(i).toLowerCase()] },
        created: { type: 'integer', format: 'int64', description: 'Seconds since the epoch.' },
        amount: { type: 'integer', minimum: 0, description: 'Amount in cents.' },
        currency: { type: 'string', pattern: '^[a-z]{3}$', default: 'usd' },
        status: { type: 'string', enum: ['draft', 'open', 'paid', 'void'], nullable: true },
        metadata: { type: 'object', additionalProperties: { type: 'string', maxLength: 500 } },
        related: { $ref: refTo(next, file) },
        items: { type: 'array', items: { $ref: refTo(other, file) }, maxItems: 100 },
        ...(i % 50 === 0 ? { parent: { $ref: refTo(i, file) } } : {}),
      },
    };
  }
  for (const [file, content] of byFile) out.set(file, JSON.stringify(content, null, 2));

  const paths: Record<string, Record<string, unknown>> = {};
  const verbs = ['get', 'post', 'patch', 'delete'] as const;
  let made = 0;
  let sample: SplitSpec['sample'] | undefined;
  for (let n = 0; made < operations; n++) {
    const resource = RESOURCES[n % RESOURCES.length]!;
    const round = Math.floor(n / RESOURCES.length);
    const base = `/v1/${resource.toLowerCase()}s${round ? `-${round}` : ''}`;
    const schema = n % schemas;
    const tag = `${resource}s`;
    const item = `${base}/{${resource.toLowerCase()}_id}`;
    for (const [path, verb] of [
      [base, 'get'],
      [base, 'post'],
      [item, 'get'],
      [item, 'patch'],
      [item, 'delete'],
    ] as const) {
      if (made >= operations) break;
      if (!verbs.includes(verb)) continue;
      made++;
      const operation: Record<string, unknown> = {
        operationId: `${verb}${resource}${round}${path === item ? 'ById' : ''}`,
        tags: [tag],
        summary: `${verb === 'get' ? (path === item ? 'Retrieve' : 'List') : verb === 'post' ? 'Create' : verb === 'patch' ? 'Update' : 'Delete'} ${resource.toLowerCase()}${path === item ? '' : 's'}`,
        description: `Use this endpoint to work with **${resource.toLowerCase()}s**. See [the guide](https://example.com/guides/${resource.toLowerCase()}) for details.`,
        parameters: [
          ...(path === item
            ? [
                {
                  name: `${resource.toLowerCase()}_id`,
                  in: 'path',
                  required: true,
                  schema: { type: 'string' },
                  description: `The id of the ${resource.toLowerCase()}.`,
                },
              ]
            : [
                {
                  name: 'limit',
                  in: 'query',
                  schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
                },
                { name: 'starting_after', in: 'query', schema: { type: 'string' } },
              ]),
          { $ref: '#/components/parameters/IdempotencyKey' },
        ],
        responses: {
          '200': {
            description: 'Success.',
            content: { 'application/json': { schema: { $ref: refTo(schema, null) } } },
          },
          '400': { $ref: '#/components/responses/BadRequest' },
          '401': { $ref: '#/components/responses/Unauthorized' },
          ...(path === item ? { '404': { $ref: '#/components/responses/NotFound' } } : {}),
        },
      };
      if (verb === 'post' || verb === 'patch')
        operation.requestBody = {
          required: true,
          content: { 'application/json': { schema: { $ref: refTo((schema + 1) % schemas, null) } } },
        };
      paths[path] ??= {};
      paths[path]![verb] = operation;
      if (!sample && verb === 'post') sample = { path, method: verb, tag };
    }
  }

  const entry = {
    openapi: '3.0.3',
    info: {
      title: 'Bench Payments API',
      version: '2026-11-01',
      description: 'A generated API of real size.',
    },
    servers: [{ url: 'https://api.example.com' }],
    security: [{ bearerAuth: [] }],
    tags: RESOURCES.map((r) => ({ name: `${r}s`, description: `Everything about ${r.toLowerCase()}s.` })),
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          schema: { type: 'string', maxLength: 255 },
          description: 'Makes a retried request safe.',
        },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['code', 'message'],
          properties: { code: { type: 'string' }, message: { type: 'string' } },
        },
      },
      responses: {
        BadRequest: {
          description: 'The request was not valid.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
        Unauthorized: {
          description: 'No valid token.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
        NotFound: {
          description: 'No such object.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    },
  };
  out.set('openapi.yaml', stringify(entry, { lineWidth: 0 }));
  return { files: out, entry: 'openapi.yaml', operations: made, schemas, sample: sample! };
}
