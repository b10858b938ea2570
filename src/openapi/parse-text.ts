import { parse as parseYaml } from 'yaml';
import type { JsonValue, SpecFormat } from './document.js';

/**
 * Specification files as text to JSON values. JSON is tried first (most specs, and the fastest
 * parser); anything else is read as YAML 1.2, which also reads JSON with comments or trailing
 * commas. Untrusted text: sizes are checked before parsing, YAML aliases are bounded (an alias
 * bomb expands exponentially), and the value is copied through JSON so that aliased nodes become
 * separate objects (the bundler rewrites refs in place and would rewrite a shared node twice)
 * and a self-referencing alias is refused instead of making a cycle.
 */

/** `yaml`'s own default: enough for real specs (merge keys), far from an exponential expansion. */
export const MAX_YAML_ALIASES = 100;

export class SpecParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpecParseError';
  }
}

export interface ParsedText {
  value: { [key: string]: JsonValue };
  format: SpecFormat;
}

export function parseSpecText(source: string, what: string, maxBytes: number): ParsedText {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const size = Buffer.byteLength(text);
  if (size > maxBytes) {
    throw new SpecParseError(`${what} is ${size} bytes, more than the limit of ${maxBytes} bytes`);
  }
  if (text.trim() === '') throw new SpecParseError(`${what} is empty`);
  const json = tryJson(text);
  if (json !== undefined) return { value: asObject(json, what), format: 'json' };
  let value: unknown;
  try {
    value = parseYaml(text, { maxAliasCount: MAX_YAML_ALIASES, merge: true, prettyErrors: false });
  } catch (error) {
    throw new SpecParseError(`${what} is neither JSON nor YAML: ${firstLine(error)}`);
  }
  let copy: string;
  try {
    copy = JSON.stringify(value) ?? 'null';
  } catch (error) {
    throw new SpecParseError(`${what} cannot be read as JSON: ${firstLine(error)}`);
  }
  // Aliases within the bound can still repeat a large node: the expansion is bounded too.
  if (copy.length > maxBytes * 4) {
    throw new SpecParseError(
      `${what} expands to ${copy.length} bytes through its YAML aliases; write it out`,
    );
  }
  const copied: unknown = JSON.parse(copy);
  return { value: asObject(copied, what), format: 'yaml' };
}

function tryJson(text: string): unknown {
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function asObject(value: unknown, what: string): { [key: string]: JsonValue } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new SpecParseError(`${what} is not an object of an OpenAPI or Swagger document`);
  }
  return value as { [key: string]: JsonValue };
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.slice(0, 300);
}
