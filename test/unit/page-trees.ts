import { CowMap } from '../../src/content/cow-map.js';
import type { PageNode, PageType, RevisionContent } from '../../src/content/tree.js';

/** Generated page trees for the tests of indexes derived revision after revision. */

/** A seeded generator, so a failure repeats. */
export function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const SLUGS = ['intro', 'setup', 'guide', 'api', 'faq', 'Setup', ''];

export function node(
  id: string,
  type: PageType,
  parent: string | null,
  slug: string,
  order: number,
): PageNode {
  return {
    id,
    type,
    parent,
    order,
    title: id,
    slug,
    body: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

export function content(pages: ReadonlyMap<string, PageNode>): RevisionContent {
  return { pages, files: new Map(), reusableContents: new Map(), variables: {} } as RevisionContent;
}

/** A tree of groups, nested documents, links and hidden pages whose slugs often collide. */
export function generated(next: () => number, size: number): Map<string, PageNode> {
  const pages = new Map<string, PageNode>();
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  for (let i = 0; i < size; i++) {
    const id = `p${i}`;
    const ids = [...pages.keys()];
    const top = ids.length === 0 || next() < 0.2;
    const parent = top ? null : pick(ids.filter((p) => pages.get(p)!.type !== 'link'));
    const type: PageType = top && next() < 0.4 ? 'group' : next() < 0.15 ? 'link' : 'document';
    const page = node(
      id,
      type,
      parent ?? null,
      pick(SLUGS) || (next() < 0.5 ? '' : `s${i}`),
      Math.floor(next() * 5),
    );
    if (next() < 0.1) page.hidden = true;
    // Some pages imported from a repository, their files sometimes in the way of others'.
    if (type === 'document' && next() < 0.2) page.git = { oid: id, path: `${pick(SLUGS) || 'README'}.md` };
    pages.set(id, page);
  }
  return pages;
}

/** Edits a few pages: new bodies, renames, moves, reorders, inserts and removals. */
export function edit(
  next: () => number,
  pages: ReadonlyMap<string, PageNode>,
  count: number,
  serial: { n: number },
): { pages: CowMap<string, PageNode>; changed: Set<string> } {
  const edited = CowMap.of(pages);
  const changed = new Set<string>();
  const ids = () => [...edited.keys()];
  for (let i = 0; i < count; i++) {
    const all = ids();
    const id = all[Math.floor(next() * all.length)]!;
    const page = edited.get(id)!;
    const roll = next();
    if (roll < 0.3) edited.set(id, { ...page, body: `b${serial.n++}` });
    else if (roll < 0.45) edited.set(id, { ...page, slug: SLUGS[Math.floor(next() * SLUGS.length)]! });
    else if (roll < 0.55) edited.set(id, { ...page, order: Math.floor(next() * 5) });
    else if (roll < 0.65) {
      // A move, never under itself.
      const target = all[Math.floor(next() * all.length)]!;
      let loops = false;
      for (let at: string | null = target; at !== null; at = edited.get(at)?.parent ?? null)
        if (at === id) loops = true;
      edited.set(id, { ...page, parent: loops || next() < 0.2 ? null : target });
    } else if (roll < 0.75) {
      const newId = `n${serial.n++}`;
      edited.set(
        newId,
        node(newId, next() < 0.2 ? 'link' : 'document', next() < 0.3 ? null : id, 'setup', 1),
      );
      changed.add(newId);
    } else if (roll < 0.85) edited.delete(id);
    else if (roll < 0.9) edited.set(id, { ...page, type: page.type === 'group' ? 'document' : 'group' });
    else edited.set(id, { ...page, hidden: !page.hidden });
    changed.add(id);
  }
  return { pages: edited, changed };
}
