import type { Actor } from '../../auth/actor.js';
import type { SitesTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { invalidField } from '../../errors.js';
import { sharedJsonAjv } from '../../validation.js';
import type { SiteAccessor } from './access.js';
import type { SiteAdaptiveSchema, TemplateCondition } from './settings-schemas.js';

/**
 * The adaptive schema: a JSON Schema (draft-07) of the claims a site's visitors carry, which
 * conditions read as `visitor.claims.<name>` (signed, from the visitor token) and
 * `visitor.claims.unsigned.<name>` (unsigned, from the URL). API.md 2.8 and the official
 * SiteAdaptiveJSONSchema fix its shape, checked here rule by rule so a refusal names the rule:
 *
 * - the root is `{type: "object", properties, additionalProperties: false}` (`$schema` optional);
 * - `properties.unsigned`, if present, is `{type: "object", properties, additionalProperties: false}`
 *   holding the unsigned claims;
 * - every other property is a claim: boolean, number, string (optionally an `enum` of strings),
 *   an array of those, or an object of claims (closed with `additionalProperties: false`);
 *   each has a `description` and nothing else.
 */

type Json = Record<string, unknown>;

export const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const UNSIGNED_DESCRIPTION = 'Unsigned claims of the site visitor.';
const MAX_DEPTH = 4;
const MAX_CLAIMS = 200;
const PRIMITIVES = ['boolean', 'string', 'number'];

const EMPTY_SCHEMA = { type: 'object', properties: {}, additionalProperties: false };

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

class SchemaChecker {
  private claims = 0;

  constructor(private readonly field: string) {}

  check(input: unknown): Json {
    const root = this.object(input, this.field);
    this.onlyKeys(root, ['$schema', 'type', 'properties', 'additionalProperties'], this.field);
    if (root.$schema !== undefined && root.$schema !== DRAFT_07)
      this.fail('.$schema', `must be "${DRAFT_07}": the schema is JSON Schema draft-07`);
    if (root.type !== 'object')
      this.fail('.type', 'must be "object": the claims of a visitor form an object');
    if (root.additionalProperties !== false)
      this.fail('.additionalProperties', 'must be false: visitors carry only the claims the schema names');
    const properties = this.object(root.properties, `${this.field}.properties`);
    const out: Json = { ...(root.$schema ? { $schema: DRAFT_07 } : {}), type: 'object', properties: {} };
    for (const [name, claim] of Object.entries(properties)) {
      const path = `.properties.${name}`;
      (out.properties as Json)[name] =
        name === 'unsigned' ? this.unsigned(claim, path) : this.claim(name, claim, path, 1);
    }
    out.additionalProperties = false;
    return out;
  }

  private unsigned(value: unknown, path: string): Json {
    const node = this.object(value, this.field + path);
    this.onlyKeys(node, ['type', 'description', 'properties', 'additionalProperties'], this.field + path);
    if (node.type !== 'object') this.fail(`${path}.type`, 'must be "object": unsigned claims form an object');
    if (node.description !== undefined && node.description !== UNSIGNED_DESCRIPTION)
      this.fail(`${path}.description`, `must be "${UNSIGNED_DESCRIPTION}" (or left out)`);
    if (node.additionalProperties !== false)
      this.fail(
        `${path}.additionalProperties`,
        'must be false: visitors carry only the claims the schema names',
      );
    const properties = this.object(node.properties, `${this.field}${path}.properties`);
    const claims: Json = {};
    for (const [name, claim] of Object.entries(properties))
      claims[name] = this.claim(name, claim, `${path}.properties.${name}`, 1);
    return {
      type: 'object',
      description: UNSIGNED_DESCRIPTION,
      properties: claims,
      additionalProperties: false,
    };
  }

  private claim(name: string, value: unknown, path: string, depth: number, primitiveOnly = false): Json {
    if (name.length === 0 || name.length > 64) this.fail(path, 'needs a claim name of 1 to 64 characters');
    if (++this.claims > MAX_CLAIMS)
      this.fail(path, `is one claim too many: a schema holds at most ${MAX_CLAIMS}`);
    const node = this.object(value, this.field + path);
    const types = primitiveOnly ? PRIMITIVES : [...PRIMITIVES, 'array', 'object'];
    if (typeof node.type !== 'string' || !types.includes(node.type))
      this.fail(`${path}.type`, `must be one of ${types.map((t) => `"${t}"`).join(', ')}`);
    if (typeof node.description !== 'string')
      this.fail(`${path}.description`, 'is required: every claim says in a string what it means');
    const description = node.description as string;
    switch (node.type) {
      case 'boolean':
      case 'number':
        this.onlyKeys(node, ['type', 'description'], this.field + path);
        return { type: node.type, description };
      case 'string': {
        this.onlyKeys(node, ['type', 'description', 'enum'], this.field + path);
        if (node.enum === undefined) return { type: 'string', description };
        const values = node.enum;
        if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === 'string'))
          this.fail(`${path}.enum`, 'must be a non-empty array of strings');
        if (new Set(values as string[]).size !== (values as string[]).length)
          this.fail(`${path}.enum`, 'must not repeat a value');
        return { type: 'string', description, enum: values };
      }
      case 'array':
        this.onlyKeys(node, ['type', 'description', 'items'], this.field + path);
        this.claims--;
        return {
          type: 'array',
          description,
          items: this.claim(name, node.items, `${path}.items`, depth, true),
        };
      default: {
        this.onlyKeys(node, ['type', 'description', 'properties', 'additionalProperties'], this.field + path);
        if (depth >= MAX_DEPTH)
          this.fail(path, `nests objects too deeply: at most ${MAX_DEPTH} levels of claims`);
        if (node.additionalProperties !== false)
          this.fail(
            `${path}.additionalProperties`,
            'must be false: an object claim holds only the claims it names',
          );
        const properties = this.object(node.properties, `${this.field}${path}.properties`);
        const inner: Json = {};
        for (const [key, claim] of Object.entries(properties))
          inner[key] = this.claim(key, claim, `${path}.properties.${key}`, depth + 1);
        return { type: 'object', description, properties: inner, additionalProperties: false };
      }
    }
  }

  private object(value: unknown, field: string): Json {
    if (!isObject(value)) throw invalidField(field, 'must be an object');
    return value;
  }

  private onlyKeys(node: Json, allowed: string[], field: string): void {
    const extra = Object.keys(node).find((key) => !allowed.includes(key));
    if (extra !== undefined)
      throw invalidField(field, `must not have the property "${extra}" (allowed: ${allowed.join(', ')})`);
  }

  private fail(path: string, rule: string): never {
    throw invalidField(this.field + path, rule);
  }
}

/** The schema in its canonical form, or a 400 naming the field and the rule it breaks. */
export function checkAdaptiveSchema(input: unknown, field = 'body.jsonSchema'): Json {
  const schema = new SchemaChecker(field).check(input);
  // Built only from the parts above, it is draft-07 by construction; ajv confirms it.
  const ajv = sharedJsonAjv();
  if (!ajv.validateSchema(schema))
    throw invalidField(field, `is not a valid JSON Schema draft-07: ${ajv.errorsText()}`);
  ajv.compile(schema);
  ajv.removeSchema(schema);
  return schema;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const access = (prefix: string, name: string) =>
  IDENTIFIER.test(name) ? `${prefix}.${name}` : `${prefix}[${JSON.stringify(name)}]`;

/** Ready-made conditions for each claim, in the schema's order. */
export function templateConditions(schema: Json): TemplateCondition[] {
  const out: TemplateCondition[] = [];
  const walk = (properties: unknown, prefix: string, label: string) => {
    if (!isObject(properties)) return;
    for (const [name, value] of Object.entries(properties)) {
      if (!isObject(value)) continue;
      const path = access(prefix, name);
      const shown = label ? `${label}.${name}` : name;
      if (prefix === 'visitor.claims' && name === 'unsigned') {
        walk(value.properties, path, 'unsigned');
        continue;
      }
      const about =
        typeof value.description === 'string' && value.description ? `${value.description}: ` : '';
      const add = (what: string, condition: string) =>
        out.push({ description: `${about}${what}`, condition });
      const items = isObject(value.items) ? value.items : undefined;
      switch (value.type) {
        case 'boolean':
          add(`${shown} is true`, `${path} == true`);
          add(`${shown} is not true`, `!${path}`);
          break;
        case 'number':
          add(`${shown} is greater than 0`, `${path} > 0`);
          break;
        case 'string':
          if (Array.isArray(value.enum))
            for (const v of value.enum)
              add(`${shown} is ${JSON.stringify(v)}`, `${path} == ${JSON.stringify(v)}`);
          else add(`${shown} is set`, `${path} != null`);
          break;
        case 'array':
          if (items && Array.isArray(items.enum))
            for (const v of items.enum)
              add(`${shown} includes ${JSON.stringify(v)}`, `${path}.includes(${JSON.stringify(v)})`);
          else add(`${shown} is set`, `${path} != null`);
          break;
        case 'object':
          walk(value.properties, path, shown);
          break;
      }
    }
  };
  walk(schema.properties, 'visitor.claims', '');
  return out;
}

/** A site's adaptive schema: read by members, replaced by managers. */
export class AdaptiveSchemaService {
  constructor(
    private readonly deps: Deps,
    private readonly access: SiteAccessor,
  ) {}

  async get(actor: Actor, orgId: string, siteId: string): Promise<SiteAdaptiveSchema> {
    const { site } = await this.access.site(actor, orgId, siteId, 'view');
    return present(site);
  }

  async update(
    actor: Actor,
    orgId: string,
    siteId: string,
    jsonSchema: unknown,
  ): Promise<SiteAdaptiveSchema> {
    const schema = checkAdaptiveSchema(jsonSchema);
    const now = this.deps.clock.now().toISOString();
    await this.access.command(actor, orgId, siteId, async (tx, site) => {
      await tx
        .updateTable('sites')
        .set({ adaptive_schema: JSON.stringify(schema), adaptive_schema_updated_at: now })
        .where('id', '=', site.id)
        .execute();
    });
    return { object: 'site-adaptive-schema', jsonSchema: schema, updatedAt: now };
  }

  async templateConditions(
    actor: Actor,
    orgId: string,
    siteId: string,
  ): Promise<{ items: TemplateCondition[] }> {
    const { site } = await this.access.site(actor, orgId, siteId, 'view');
    return { items: templateConditions(present(site).jsonSchema as Json) };
  }
}

/** A site that never had a schema has the empty one (no claims), as of its creation. */
function present(site: SitesTable): SiteAdaptiveSchema {
  return {
    object: 'site-adaptive-schema',
    jsonSchema: site.adaptive_schema ? (JSON.parse(site.adaptive_schema) as Json) : { ...EMPTY_SCHEMA },
    updatedAt: site.adaptive_schema_updated_at ?? site.created_at,
  };
}
