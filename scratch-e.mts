import { markdownToDocument, documentToMarkdown } from './src/content/markdown/index.js';
import { readFileSync } from 'node:fs';
const md = readFileSync(0, 'utf8');
const doc = markdownToDocument(md);
const out = documentToMarkdown(doc);
const doc2 = markdownToDocument(out);
const a = doc.nodes, b = doc2.nodes;
for (let i = 0; i < Math.max(a.length, b.length); i++) if (JSON.stringify(a[i]) !== JSON.stringify(b[i])) { console.log(i, JSON.stringify(a[i]), '\n', JSON.stringify(b[i])); }
