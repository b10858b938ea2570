import { compileValidator } from '../validation.js';
import { type JsonDocument as Doc, JsonDocument } from './document-schema.js';

/** Throws a 400 naming the first node that breaks the document schema. */
export const validateDocument: (value: unknown, field: string) => asserts value is Doc =
  compileValidator<Doc>(JsonDocument);
