import { markdownToDocument, documentToMarkdown, extractLinks } from './src/content/markdown/index.js';
import { readFileSync } from 'node:fs';
const one = readFileSync('/tmp/in.md', 'utf8');
let md = ''; while (md.length < 50_000) md += one + '\n';
console.log(md.length);
for (let i = 0; i < 3; i++) {
  let t = performance.now(); const doc = markdownToDocument(md); const a = performance.now() - t;
  t = performance.now(); const out = documentToMarkdown(doc); const b = performance.now() - t;
  t = performance.now(); extractLinks(md); const c = performance.now() - t;
  console.log(a.toFixed(1), b.toFixed(1), c.toFixed(1), out.length);
}
