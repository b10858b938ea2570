import { markdownToDocument } from './src/content/markdown/index.js';
import { checkSchema } from './test/helpers/official-spec.js';
import { compileValidator } from './src/validation.js';
import { JsonDocument } from './src/content/document-schema.js';
import { readFileSync } from 'node:fs';
const md = readFileSync(0, 'utf8');
const doc = markdownToDocument(md);
console.log(JSON.stringify(checkSchema('JSONDocument', doc), null, 1).slice(0, 3000));
const v = compileValidator(JsonDocument);
try { v(doc, 'document'); console.log('own ok'); } catch (e) { console.log('own', (e as Error).message); }
