import { invalidField } from '../../errors.js';
import { quoted } from '../../validation.js';
import type {
  IntegrationBlock,
  IntegrationConfiguration,
  IntegrationConfigurations,
  PublishIntegrationBody,
} from './schemas.js';

/**
 * The rules of a published manifest that its JSON schema cannot say: images that really are
 * images, unique ids, configuration forms that match one official form, a CSP that cannot
 * smuggle a header line. Pure: each failure is a 400 naming the field and the rule.
 */

export const IMAGE_MAX_BYTES = 512 * 1024;
export const SCRIPT_MAX_BYTES = 2 * 1024 * 1024;

export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp';

/** The type the bytes are, by their magic numbers; undefined for anything else (SVG, HTML, …). */
export function sniffImage(data: Buffer): ImageType | undefined {
  if (data.length >= 8 && data.subarray(0, 8).equals(PNG)) return 'image/png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (
    data.length >= 12 &&
    data.toString('latin1', 0, 4) === 'RIFF' &&
    data.toString('latin1', 8, 12) === 'WEBP'
  ) {
    return 'image/webp';
  }
  return undefined;
}
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

/** A base64 image, checked: strict base64 (Buffer.from skips bad characters), size, then type. */
export function decodeImage(field: string, text: string): Buffer {
  const compact = text.replace(/\s+/g, '');
  // Checked before decoding: a huge value is refused without allocating its bytes.
  if (compact.length > Math.ceil(IMAGE_MAX_BYTES / 3) * 4) {
    throw invalidField(field, `must be at most ${IMAGE_MAX_BYTES / 1024} KB once decoded`);
  }
  if (compact === '' || !BASE64.test(compact)) throw invalidField(field, 'is not valid base64');
  const data = Buffer.from(compact, 'base64');
  if (data.length > IMAGE_MAX_BYTES) {
    throw invalidField(field, `must be at most ${IMAGE_MAX_BYTES / 1024} KB once decoded`);
  }
  if (!sniffImage(data)) {
    throw invalidField(field, 'must be a PNG, JPEG or WebP image (SVG, HTML and other formats are refused)');
  }
  return data;
}

export function checkScript(script: string): void {
  const bytes = Buffer.byteLength(script, 'utf8');
  if (bytes > SCRIPT_MAX_BYTES) {
    throw invalidField(
      'body.script',
      `must be at most ${SCRIPT_MAX_BYTES / 1024 / 1024} MB (it is ${(bytes / 1024 / 1024).toFixed(1)} MB)`,
    );
  }
}

function checkUniqueIds(field: string, items: ReadonlyArray<{ id: string }>): void {
  const seen = new Map<string, number>();
  items.forEach((item, i) => {
    const first = seen.get(item.id);
    if (first !== undefined) {
      throw invalidField(`${field}.${i}.id`, `${quoted(item.id)} is already the id of ${field}.${first}`);
    }
    seen.set(item.id, i);
  });
}

/** External links are shown to people as links: only web addresses. */
function checkExternalLinks(links: ReadonlyArray<{ url: string }>): void {
  links.forEach((link, i) => {
    if (!/^https?:\/\//i.test(link.url)) {
      throw invalidField(`body.externalLinks.${i}.url`, 'must be an http:// or https:// URL');
    }
  });
}

/** The JavaScript type of a configuration property's values (its default, and what installations set). */
export const PROPERTY_VALUE_TYPES: Record<string, string> = {
  string: 'string',
  number: 'number',
  boolean: 'boolean',
};

function checkConfiguration(field: string, config: IntegrationConfiguration): void {
  const { properties, required, componentId } = config;
  if (properties !== undefined && componentId !== undefined) {
    throw invalidField(field, 'must have either properties (a form) or componentId (a component), not both');
  }
  if (properties === undefined && componentId === undefined) {
    throw invalidField(field, 'must have properties (a form) or componentId (a component drawing the form)');
  }
  if (properties === undefined) {
    if (required !== undefined)
      throw invalidField(`${field}.required`, 'goes with properties, not componentId');
    return;
  }
  for (const [name, property] of Object.entries(properties)) {
    const at = `${field}.properties.${name}`;
    if (property.type === 'button') {
      if (property.callback_url === undefined)
        throw invalidField(`${at}.callback_url`, 'is required for a button');
      if (property.button_text === undefined)
        throw invalidField(`${at}.button_text`, 'is required for a button');
      if (property.default !== undefined) throw invalidField(`${at}.default`, 'is not allowed for a button');
    } else if (
      property.default !== undefined &&
      typeof property.default !== PROPERTY_VALUE_TYPES[property.type]
    ) {
      throw invalidField(`${at}.default`, `must be a ${property.type}, like the property`);
    }
  }
  required?.forEach((name, i) => {
    if (!Object.hasOwn(properties, name)) {
      throw invalidField(`${field}.required.${i}`, `${quoted(name)} is not one of the properties`);
    }
  });
}

function checkConfigurations(configurations: IntegrationConfigurations): void {
  for (const level of ['account', 'space', 'site'] as const) {
    const config = configurations[level];
    if (config) checkConfiguration(`body.configurations.${level}`, config);
  }
}

/** The directives the official IntegrationContentSecurityPolicy object names. */
const CSP_DIRECTIVES = new Set([
  'base-uri',
  'block-all-mixed-content',
  'child-src',
  'connect-src',
  'default-src',
  'font-src',
  'form-action',
  'frame-ancestors',
  'frame-src',
  'img-src',
  'manifest-src',
  'media-src',
  'navigate-to',
  'object-src',
  'plugin-types',
  'prefetch-src',
  'referrer',
  'report-to',
  'report-uri',
  'require-sri-for',
  'require-trusted-types-for',
  'sandbox',
  'script-src',
  'script-src-attr',
  'script-src-elem',
  'style-src',
  'style-src-attr',
  'style-src-elem',
  'trusted-types',
  'upgrade-insecure-requests',
  'worker-src',
]);

/**
 * A policy ends up in a response header: a line break would start another header, and inside
 * one directive a `;` would start another directive.
 */
function checkCsp(csp: string | Record<string, string>): void {
  const field = 'body.contentSecurityPolicy';
  if (typeof csp === 'string') {
    if (/[\r\n\0]/.test(csp)) throw invalidField(field, 'must be one line (no line breaks)');
    return;
  }
  for (const [directive, value] of Object.entries(csp)) {
    if (!CSP_DIRECTIVES.has(directive)) {
      throw invalidField(field, `has ${quoted(directive)}, which is not a Content-Security-Policy directive`);
    }
    if (/[\r\n\0;]/.test(value)) {
      throw invalidField(`${field}.${directive}`, 'must be one directive value (no line breaks or ";")');
    }
  }
}

/**
 * The hosts the blocks unfurl, as `|host|host|` (lower case, wildcard labels dropped): what the
 * `blockDomain` filter matches, a domain or any of its subdomains.
 */
export function unfurlHosts(blocks: readonly IntegrationBlock[]): string {
  const hosts = new Set<string>();
  for (const pattern of blocks.flatMap((block) => block.urlUnfurl ?? [])) {
    const rest = pattern.trim().replace(/^(?:[a-z][a-z0-9+.-]*:)?\/\//i, '');
    const authority = rest.split(/[/?#]/, 1)[0] ?? '';
    const host = authority
      .slice(authority.lastIndexOf('@') + 1)
      .replace(/:[0-9*]*$/, '')
      .replace(/^(\*\.)+/, '')
      .toLowerCase();
    if (/^[a-z0-9_.-]+$/.test(host)) hosts.add(host);
  }
  return hosts.size === 0 ? '' : `|${[...hosts].join('|')}|`;
}

/** Every rule of a publish body beyond its schema, and the images decoded. */
export function checkManifest(body: PublishIntegrationBody): { icon?: Buffer; previewImages: Buffer[] } {
  checkScript(body.script);
  checkUniqueIds('body.blocks', body.blocks ?? []);
  checkUniqueIds('body.contentSources', body.contentSources ?? []);
  checkExternalLinks(body.externalLinks ?? []);
  if (body.configurations) checkConfigurations(body.configurations);
  if (body.contentSecurityPolicy !== undefined) checkCsp(body.contentSecurityPolicy);
  const previewImages = (body.previewImages ?? []).map((image, i) =>
    decodeImage(`body.previewImages.${i}`, image),
  );
  return body.icon === undefined
    ? { previewImages }
    : { icon: decodeImage('body.icon', body.icon), previewImages };
}
