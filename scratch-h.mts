import { readFileSync } from 'node:fs';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import { protect } from './src/content/markdown/protect.js';
import { parseMarkdown } from './src/content/markdown/parse.js';
const one = readFileSync('/tmp/in.md', 'utf8');
let md = ''; while (md.length < 50_000) md += one + '\n';
const p = unified().use(remarkParse).use(remarkGfm).freeze();
const p0 = unified().use(remarkParse).freeze();
for (let i = 0; i < 3; i++) {
  let t = performance.now(); const { text } = protect(md); const a = performance.now() - t;
  t = performance.now(); p.parse(text); const b = performance.now() - t;
  t = performance.now(); p.parse(md); const c = performance.now() - t;
  t = performance.now(); p0.parse(md); const d = performance.now() - t;
  t = performance.now(); parseMarkdown(md); const e = performance.now() - t;
  console.log(a.toFixed(1), b.toFixed(1), c.toFixed(1), d.toFixed(1), e.toFixed(1));
}
