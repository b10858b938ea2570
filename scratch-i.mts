import { unified } from 'unified';
import remarkParse from 'remark-parse';
const p0 = unified().use(remarkParse).freeze();
const prose = 'Lorem ipsum dolor sit amet, **consectetur** adipiscing elit, sed do [eiusmod](http://x) tempor.\n\n';
let md = ''; while (md.length < 50_000) md += prose;
const times = [];
for (let i = 0; i < 40; i++) { const t = performance.now(); p0.parse(md); times.push((performance.now() - t).toFixed(0)); }
console.log(times.join(' '));
let x = 0; const t = performance.now(); for (let i = 0; i < 1e8; i++) x += i % 7; console.log('loop', (performance.now() - t).toFixed(0), x);
