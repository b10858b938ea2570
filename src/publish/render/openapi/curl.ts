import {
  mediaTypesOf,
  type Operation,
  preferredMedia,
  requestBodyOf,
  securityScheme,
} from '../../../openapi/read/operation.js';
import { entries, field, isObject, text } from '../../../openapi/read/read.js';
import type { SpecReader } from '../../../openapi/read/spec-reader.js';
import { exampleFromSchema, explicitExample, mediaExample } from './example.js';
import { jsonText } from './json-text.js';

/**
 * A curl command for an operation: its method and URL (path parameters left as `{name}`
 * placeholders, required query parameters filled with examples), required headers and cookies,
 * the credentials its first security requirement asks for, and an example body. Every value is
 * single-quoted for a POSIX shell, so nothing in a spec can break out of its argument when a
 * reader pastes the command.
 */

export function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Parameter values the curl command shows: the spec's example, else one made from the schema. */
function parameterValue(reader: SpecReader, param: Operation['parameters'][number]): string {
  const given = explicitExample(reader, param.object);
  const value = given !== undefined ? given : exampleFromSchema(reader, param.schema, 'request');
  if (value === undefined || value === null) return `{${param.name}}`;
  return typeof value === 'string' ? value : jsonText(value, { indent: 0, maxChars: 200 });
}

/** Header parameters OpenAPI says to ignore: the spec's body and security decide them. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

export function curlCommand(reader: SpecReader, op: Operation): string {
  const args: string[] = [];
  const headers: string[] = [];
  const cookies: string[] = [];
  const query: string[] = [];

  for (const param of op.parameters) {
    if (!param.required || param.in === 'path') continue;
    const value = parameterValue(reader, param);
    if (param.in === 'query') query.push(`${encodeURIComponent(param.name)}=${encodeQuery(value)}`);
    else if (param.in === 'header' && !IGNORED_HEADERS.has(param.name.toLowerCase()))
      headers.push(`${param.name}: ${value}`);
    else if (param.in === 'cookie') cookies.push(`${param.name}=${value}`);
  }

  const requirement = op.security.find((alternative) => alternative.length > 0) ?? [];
  let user: string | undefined;
  for (const { name } of requirement) {
    const { scheme } = securityScheme(reader, name);
    const type = text(field(scheme, 'type'), 32)?.toLowerCase();
    if (type === 'http') {
      const kind = text(field(scheme, 'scheme'), 32)?.toLowerCase() ?? 'bearer';
      if (kind === 'basic') user = 'username:password';
      else if (kind === 'bearer') headers.unshift('Authorization: Bearer YOUR_SECRET_TOKEN');
      else headers.unshift(`Authorization: ${capitalize(kind)} YOUR_CREDENTIALS`);
    } else if (type === 'apikey') {
      const keyName = text(field(scheme, 'name'), 256) ?? name;
      const where = field(scheme, 'in');
      if (where === 'query') query.push(`${encodeURIComponent(keyName)}=YOUR_API_KEY`);
      else if (where === 'cookie') cookies.push(`${keyName}=YOUR_API_KEY`);
      else headers.unshift(`${keyName}: YOUR_API_KEY`);
    } else if (type === 'oauth2' || type === 'openidconnect') {
      headers.unshift('Authorization: Bearer YOUR_OAUTH2_TOKEN');
    }
  }

  const body = bodyArgs(reader, op, headers);
  const url = `${op.server}${op.path}${query.length > 0 ? `?${query.join('&')}` : ''}`;
  args.push('curl -L', `--request ${op.method.toUpperCase()}`, `--url ${quote(url)}`);
  if (user) args.push(`--user ${quote(user)}`);
  for (const header of headers) args.push(`--header ${quote(header)}`);
  if (cookies.length > 0) args.push(`--cookie ${quote(cookies.join('; '))}`);
  args.push(...body);
  return args.join(' \\\n  ');
}

function bodyArgs(reader: SpecReader, op: Operation, headers: string[]): string[] {
  const body = requestBodyOf(reader, op);
  const chosen = preferredMedia(mediaTypesOf(body));
  if (!chosen) return [];
  const [type, media] = chosen;
  const example = mediaExample(reader, media, 'request');
  const lower = type.toLowerCase();
  if (lower.startsWith('multipart/form-data')) {
    return fields(example).map(([name, value]) => {
      const binary = isBinary(reader, media, name);
      return `--form ${quote(`${name}=${binary ? '@path/to/file' : value}`)}`;
    });
  }
  headers.push(`Content-Type: ${type}`);
  if (lower.startsWith('application/x-www-form-urlencoded')) {
    return fields(example).map(([name, value]) => `--data-urlencode ${quote(`${name}=${value}`)}`);
  }
  if (lower === 'application/octet-stream' || /^(?:image|audio|video)\//.test(lower))
    return [`--data-binary ${quote('@path/to/file')}`];
  if (example === undefined) return [];
  const data = typeof example === 'string' ? example : jsonText(example, { indent: 2, maxChars: 8000 });
  return [`--data ${quote(data)}`];
}

/** Top-level fields of a form example, values as text. */
function fields(example: unknown): Array<[string, string]> {
  return entries(example, 50).map(([name, value]) => [
    name,
    typeof value === 'string' ? value : jsonText(value, { indent: 0, maxChars: 500 }),
  ]);
}

function isBinary(reader: SpecReader, media: unknown, name: string): boolean {
  const schema = reader.resolve(field(media, 'schema')).value;
  const property = reader.resolve(field(field(schema, 'properties'), name)).value;
  if (!isObject(property)) return false;
  return property.format === 'binary' || property.contentMediaType === 'application/octet-stream';
}

function encodeQuery(value: string): string {
  // Keep `{name}` placeholders readable: they are for the reader to replace.
  return /^\{[^{}]+\}$/.test(value) ? value : encodeURIComponent(value);
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
