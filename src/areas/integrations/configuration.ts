import { invalidField } from '../../errors.js';
import { PROPERTY_VALUE_TYPES } from './manifest.js';
import type { IntegrationConfiguration } from './schemas.js';

/** A stored configuration is at most this many bytes of JSON. */
const MAX_BYTES = 64 * 1024;

/**
 * Checks a configuration an installation is given against the integration's form for that level
 * (`configurations.account` or `.space` of its manifest): each value has its property's type
 * (and is one of its `enum`), every required property is there, and no property the form does
 * not declare is set. A form drawn by the integration's own component (`componentId`), or no
 * form at all, leaves the object to the integration: only its size is bounded.
 */
export function checkConfiguration(
  form: IntegrationConfiguration | undefined,
  value: Record<string, unknown>,
  field: string,
): void {
  if (Buffer.byteLength(JSON.stringify(value)) > MAX_BYTES) {
    throw invalidField(field, `must be at most ${MAX_BYTES} bytes of JSON`);
  }
  const properties = form?.properties;
  if (!properties) return;
  for (const [name, given] of Object.entries(value)) {
    const property = properties[name];
    const at = `${field}.${name}`;
    if (!property) throw invalidField(at, "is not a property of the integration's configuration");
    if (property.type === 'button') continue;
    if (given === null) continue;
    const type = PROPERTY_VALUE_TYPES[property.type];
    if (typeof given !== type) throw invalidField(at, `must be a ${type}`);
    if (property.enum && !property.enum.includes(given as string)) {
      throw invalidField(at, `must be one of ${property.enum.join(', ')}`);
    }
  }
  for (const name of form.required ?? []) {
    if (value[name] === undefined || value[name] === null) {
      throw invalidField(`${field}.${name}`, 'is required by the integration');
    }
  }
}
