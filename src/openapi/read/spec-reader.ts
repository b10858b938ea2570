import { field, isObject, type JsonObject } from './read.js';

/**
 * Local `$ref`s of a bundled OpenAPI document, resolved lazily: only what a block draws is
 * looked up, so one operation of a spec with thousands of schemas costs what that operation
 * references. Lookups are cached per document (a site keeps its parsed document between pages,
 * so the cache lives as long as the document does).
 */

export interface Resolved {
  /** The value the reference chain ends at; undefined when a reference does not resolve. */
  value: unknown;
  /** The name of the first reference followed (`Pet` for `#/components/schemas/Pet`), for display. */
  name?: string | undefined;
  /**
   * Identity of what the chain ended at (the last reference followed, else the value itself):
   * schemas on the path being drawn are kept by it, so a schema that contains itself is cut.
   */
  key: unknown;
  /** The reference that did not resolve (missing target, external, a loop of references). */
  broken?: string | undefined;
}

/** References followed in a row before a chain counts as endless. */
const MAX_HOPS = 32;
const MAX_SEGMENTS = 64;
const MAX_REF = 2048;
/** Distinct references cached per document; past it lookups still work, uncached. */
const MAX_CACHED = 20_000;

const MISSING = Symbol('missing');

export class SpecReader {
  private readonly cache = new Map<string, unknown>();

  constructor(readonly root: unknown) {}

  /** The value at a local JSON pointer (`#/components/schemas/Pet`, `#/paths/~1pets`). */
  at(ref: string): unknown {
    const cached = this.cache.get(ref);
    if (cached !== undefined) return cached === MISSING ? undefined : cached;
    const value = this.walk(ref);
    if (this.cache.size < MAX_CACHED) this.cache.set(ref, value === undefined ? MISSING : value);
    return value;
  }

  private walk(ref: string): unknown {
    if (ref.length > MAX_REF || !ref.startsWith('#')) return undefined;
    let pointer = ref.slice(1);
    try {
      pointer = decodeURIComponent(pointer);
    } catch {
      // Not percent-encoded after all: read as written.
    }
    if (pointer === '') return this.root;
    if (!pointer.startsWith('/')) return undefined;
    const segments = pointer.slice(1).split('/');
    if (segments.length > MAX_SEGMENTS) return undefined;
    let current: unknown = this.root;
    for (const raw of segments) {
      const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      if (Array.isArray(current)) {
        if (!/^(?:0|[1-9]\d{0,8})$/.test(segment)) return undefined;
        current = current[Number(segment)];
      } else if (isObject(current) && Object.hasOwn(current, segment)) {
        current = current[segment];
      } else {
        return undefined;
      }
    }
    return current;
  }

  /**
   * Follows `$ref` until a value that is not a reference. Fields written next to a `$ref`
   * (3.1 allows `description`, `summary`, and keywords of schemas) override the target's.
   */
  resolve(value: unknown): Resolved {
    let current = value;
    let name: string | undefined;
    let key: unknown;
    const overrides: JsonObject[] = [];
    const seen = new Set<string>();
    for (let hop = 0; isObject(current) && typeof current.$ref === 'string'; hop++) {
      const ref = current.$ref;
      const refName = name ?? this.refName(ref);
      if (hop >= MAX_HOPS || seen.has(ref)) return { value: undefined, name: refName, key: ref, broken: ref };
      seen.add(ref);
      if (hasSiblings(current)) overrides.push(current);
      const target = this.at(ref);
      if (target === undefined) return { value: undefined, name: refName, key: ref, broken: ref };
      name = refName;
      key = ref;
      current = target;
    }
    if (overrides.length > 0 && isObject(current)) {
      const merged: Record<string, unknown> = { ...current };
      // The outermost reference was written last by the author: its fields win.
      for (const over of overrides.reverse())
        for (const [k, v] of Object.entries(over)) if (k !== '$ref') merged[k] = v;
      current = merged;
    }
    return { value: current, name, key: key ?? current };
  }

  /** `Pet` for `#/components/schemas/Pet`; a bundled external schema (`#/x-ext/…`) by its title. */
  refName(ref: string): string {
    const segments = ref.split('/');
    let last = segments[segments.length - 1] ?? ref;
    try {
      last = decodeURIComponent(last);
    } catch {
      // Keep it as written.
    }
    last = last.replace(/~1/g, '/').replace(/~0/g, '~');
    if (segments[1] === 'x-ext') {
      const title = field(this.at(ref), 'title');
      if (typeof title === 'string' && title) return title.slice(0, 256);
    }
    return (last || ref).slice(0, 256);
  }
}

function hasSiblings(value: JsonObject): boolean {
  for (const key in value) if (key !== '$ref' && Object.hasOwn(value, key)) return true;
  return false;
}

const readers = new WeakMap<object, SpecReader>();

/** The reader of a document, shared by every block (and page) drawn from the same parsed object. */
export function readerFor(document: unknown): SpecReader {
  if (typeof document !== 'object' || document === null) return new SpecReader(document);
  let reader = readers.get(document);
  if (!reader) {
    reader = new SpecReader(document);
    readers.set(document, reader);
  }
  return reader;
}

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
