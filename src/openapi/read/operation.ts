import { entries, field, isObject, items, type JsonObject, LIMITS, text } from './read.js';
import type { SpecReader } from './spec-reader.js';

/**
 * An operation of a spec as the reference draws it: found by path and method (or a webhook by
 * name and method), with the path item's parameters merged in, its servers and its security.
 */

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  /** The parameter object, reference followed. */
  object: JsonObject;
  required: boolean;
  /** Its schema, or the schema of its first `content` media type. */
  schema: unknown;
}

export interface Operation {
  method: string;
  /** The path (`/pets/{id}`), or the webhook's name. */
  path: string;
  webhook: boolean;
  operation: JsonObject;
  parameters: Parameter[];
  /** Requirement alternatives: any one of them, each naming schemes (all of them) with scopes. */
  security: Array<Array<{ name: string; scopes: string[] }>>;
  /** The base URL requests go to, variables filled in with their defaults; '' when none. */
  server: string;
}

/** `paths[path][method]` of the document, or undefined when the spec has no such operation. */
export function findOperation(reader: SpecReader, path: unknown, method: unknown): Operation | undefined {
  if (typeof path !== 'string' || typeof method !== 'string') return undefined;
  const paths = reader.resolve(field(reader.root, 'paths')).value;
  return fromPathItem(reader, field(paths, path), path, method, false);
}

/** `webhooks[name][method]` of a 3.1 document. */
export function findWebhook(reader: SpecReader, name: unknown, method: unknown): Operation | undefined {
  if (typeof name !== 'string' || typeof method !== 'string') return undefined;
  const webhooks = reader.resolve(field(reader.root, 'webhooks')).value;
  return fromPathItem(reader, field(webhooks, name), name, method, true);
}

function fromPathItem(
  reader: SpecReader,
  pathItemValue: unknown,
  path: string,
  methodValue: string,
  webhook: boolean,
): Operation | undefined {
  const method = methodValue.toLowerCase();
  if (!(METHODS as readonly string[]).includes(method)) return undefined;
  const pathItem = reader.resolve(pathItemValue).value;
  const operation = reader.resolve(field(pathItem, method)).value;
  if (!isObject(pathItem) || !isObject(operation)) return undefined;
  return {
    method,
    path: path.slice(0, 2048),
    webhook,
    operation,
    parameters: mergeParameters(reader, field(pathItem, 'parameters'), field(operation, 'parameters')),
    security: securityOf(reader, operation),
    server: serverUrl(
      field(operation, 'servers') ?? field(pathItem, 'servers') ?? field(reader.root, 'servers'),
    ),
  };
}

const LOCATIONS = new Set(['path', 'query', 'header', 'cookie']);

/** Path-item parameters, overridden by the operation's own of the same name and location. */
function mergeParameters(reader: SpecReader, shared: unknown, own: unknown): Parameter[] {
  const byKey = new Map<string, Parameter>();
  for (const list of [shared, own]) {
    for (const value of items(reader.resolve(list).value, LIMITS.parameters)) {
      const object = reader.resolve(value).value;
      if (!isObject(object)) continue;
      const name = text(object.name, LIMITS.name);
      const location = object.in;
      if (name === undefined || typeof location !== 'string' || !LOCATIONS.has(location)) continue;
      const [, firstMedia] = entries(field(object, 'content'), 1)[0] ?? [];
      byKey.set(`${location}\u0000${name}`, {
        name,
        in: location as Parameter['in'],
        object,
        // Path parameters are always required, whatever the spec says.
        required: location === 'path' || object.required === true,
        schema: field(object, 'schema') ?? field(firstMedia, 'schema'),
      });
    }
  }
  return [...byKey.values()];
}

/** The operation's security, else the document's; `[]` means none, `{}` among them "optional". */
function securityOf(reader: SpecReader, operation: JsonObject): Operation['security'] {
  const raw = Object.hasOwn(operation, 'security') ? operation.security : field(reader.root, 'security');
  return items(raw, 20)
    .filter(isObject)
    .map((requirement) =>
      entries(requirement, 10).map(([name, scopes]) => ({
        name: name.slice(0, LIMITS.name),
        scopes: items(scopes, 50)
          .filter((s): s is string => typeof s === 'string')
          .map((s) => s.slice(0, LIMITS.name)),
      })),
    );
}

/** The first server's URL with `{variables}` replaced by their defaults, without a trailing `/`. */
function serverUrl(servers: unknown): string {
  const server = items(servers, 1)[0];
  const url = text(field(server, 'url'), 2048);
  if (url === undefined) return '';
  const variables = field(server, 'variables');
  return url
    .replace(/\{([^{}]{1,100})\}/g, (whole, name: string) => {
      const value = field(field(variables, name), 'default');
      return typeof value === 'string' ? value : whole;
    })
    .replace(/\/+$/, '');
}

export interface SecurityScheme {
  name: string;
  /** The scheme object, reference followed; undefined when the spec does not define it. */
  scheme: JsonObject | undefined;
}

export function securityScheme(reader: SpecReader, name: string): SecurityScheme {
  const schemes = reader.resolve(field(field(reader.root, 'components'), 'securitySchemes')).value;
  const scheme = reader.resolve(field(schemes, name)).value;
  return { name, scheme: isObject(scheme) ? scheme : undefined };
}

/** A scheme as words: `HTTP bearer (JWT)`, `API key in header X-API-Key`, `OAuth 2.0`. */
export function schemeWords(scheme: JsonObject | undefined): string {
  if (!scheme) return 'Undefined scheme';
  const type = text(scheme.type, 64)?.toLowerCase();
  switch (type) {
    case 'http': {
      const kind = text(scheme.scheme, 64)?.toLowerCase() ?? 'auth';
      const format = text(scheme.bearerFormat, 64);
      return `HTTP ${kind}${format ? ` (${format})` : ''}`;
    }
    case 'apikey': {
      const where = text(scheme.in, 16) ?? 'header';
      const name = text(scheme.name, LIMITS.name);
      return `API key in ${where}${name ? ` ${name}` : ''}`;
    }
    case 'oauth2':
      return 'OAuth 2.0';
    case 'openidconnect':
      return 'OpenID Connect';
    case 'mutualtls':
      return 'Mutual TLS';
    default:
      return type ?? 'Unknown scheme';
  }
}

/** The operation's heading: its summary, else its operationId, else `GET /path`. */
export function operationTitle(op: Operation): string {
  const summary = text(op.operation.summary, LIMITS.summary) ?? text(op.operation.operationId, LIMITS.name);
  return (summary ?? `${op.method.toUpperCase()} ${op.path}`).replace(/\s+/g, ' ').trim();
}

/** Response entries in the document's order, references followed. */
export function responsesOf(reader: SpecReader, op: Operation): Array<[string, JsonObject]> {
  const responses = reader.resolve(field(op.operation, 'responses')).value;
  const out: Array<[string, JsonObject]> = [];
  for (const [status, value] of entries(responses, LIMITS.responses)) {
    const response = reader.resolve(value).value;
    if (isObject(response)) out.push([status.slice(0, 16), response]);
  }
  return out;
}

/** The request body, reference followed. */
export function requestBodyOf(reader: SpecReader, op: Operation): JsonObject | undefined {
  const body = reader.resolve(field(op.operation, 'requestBody')).value;
  return isObject(body) ? body : undefined;
}

/** Media types of a body or response, in order. */
export function mediaTypesOf(holder: unknown): Array<[string, unknown]> {
  return entries(field(holder, 'content'), LIMITS.mediaTypes).map(([type, media]) => [
    type.slice(0, LIMITS.name),
    media,
  ]);
}

/** The JSON media type among several (`application/json`, `application/problem+json`), else the first. */
export function preferredMedia(media: Array<[string, unknown]>): [string, unknown] | undefined {
  return media.find(([type]) => /^application\/(?:[\w.-]+\+)?json\b/i.test(type)) ?? media[0];
}
