/**
 * bench/content/tree-present.ts: the first read of a large revision's whole page tree, in parts,
 * without HTTP or a database: a tree of 101,100 pages shaped like bench/scale's (100 groups x 10
 * sections x 100 pages) indexed (PageIndex), presented (presentPages), serialized and encoded,
 * five times. `listPages` and `GET revision` do exactly this once per revision, then send the
 * kept bytes (tree-json.ts).
 *
 *   npx tsx bench/content/tree-present.ts      # BENCH_PAGES_PER_SECTION (100) sets the size
 */

import { PageIndex } from '../../src/areas/content/page-index.js';
import { presentPages } from '../../src/areas/content/present.js';
import {
  DEFAULT_LAYOUT,
  type PageLayout,
  type PageNode,
  type RevisionContent,
} from '../../src/content/tree.js';
import { Urls } from '../../src/http/urls.js';

const LAYOUT = JSON.stringify(DEFAULT_LAYOUT);
const PER_SECTION = Number(process.env.BENCH_PAGES_PER_SECTION ?? 100);
const pages = new Map<string, PageNode>();
const now = new Date().toISOString();
let n = 0;
const id = () => `p${(n++).toString(36).padStart(19, '0')}`;
for (let g = 0; g < 100; g++) {
  const gid = id();
  pages.set(gid, {
    id: gid,
    type: 'group',
    parent: null,
    order: g,
    title: `Group ${g}`,
    slug: `group-${g}`,
    createdAt: now,
    updatedAt: now,
  });
  for (let s = 0; s < 10; s++) {
    const sid = id();
    pages.set(sid, {
      id: sid,
      type: 'document',
      parent: gid,
      order: s,
      title: `Section ${s}`,
      slug: `section-${s}`,
      createdAt: now,
      updatedAt: now,
      body: 'x',
    });
    for (let p = 0; p < PER_SECTION; p++) {
      const pid = id();
      pages.set(pid, {
        id: pid,
        type: 'document',
        parent: sid,
        order: p,
        title: `Page ${p} of the configuration guide`,
        slug: `page-${p}`,
        description: 'A page about configuration',
        // Stored pages carry their own layout, as parsed from the revision's tree.
        layout: JSON.parse(LAYOUT) as PageLayout,
        createdAt: now,
        updatedAt: now,
        body: 'x',
      });
    }
  }
}
const content: RevisionContent = { pages, files: new Map(), reusableContents: new Map(), variables: {} };
const urls = new Urls('http://127.0.0.1:8080');
for (let round = 0; round < 5; round++) {
  let t = performance.now();
  const index = PageIndex.build(content);
  const tIndex = performance.now() - t;
  t = performance.now();
  const presented = presentPages(content, { spaceId: 'space1234567890', urls, index, metadata: true });
  const tPresent = performance.now() - t;
  t = performance.now();
  const text = JSON.stringify({ pages: presented });
  const tStringify = performance.now() - t;
  t = performance.now();
  const bytes = Buffer.from(text);
  const tBuffer = performance.now() - t;
  console.log(
    `${pages.size} pages: index ${tIndex.toFixed(0)} ms, present ${tPresent.toFixed(0)} ms, stringify ${tStringify.toFixed(0)} ms, buffer ${tBuffer.toFixed(0)} ms, ${(bytes.length / 2 ** 20).toFixed(1)} MiB`,
  );
}
