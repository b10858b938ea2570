import { describe, expect, it } from 'vitest';
import { shareNodeStrings } from '../../src/content/shared-strings.js';
import type { PageNode } from '../../src/content/tree.js';

/** A node as the store parses it: every string its own copy. */
function parsed(node: PageNode): PageNode {
  return JSON.parse(JSON.stringify(node)) as PageNode;
}

describe('shareNodeStrings', () => {
  it('keeps every value of every node, parents and timestamps included', () => {
    const pages = new Map<string, PageNode>();
    const nodes: PageNode[] = [];
    for (let i = 0; i < 50; i++) {
      const node: PageNode = {
        id: `page${i}`,
        type: 'document',
        parent: i === 0 ? null : `page${Math.floor((i - 1) / 3)}`,
        order: i,
        title: `Page ${i}`,
        slug: `page-${i}`,
        body: null,
        createdAt: `2024-01-0${1 + (i % 3)}T00:00:00Z`,
        updatedAt: `2024-02-0${1 + (i % 5)}T00:00:00Z`,
      };
      nodes.push(node);
      pages.set(node.id, parsed(node));
    }
    // A parent outside the tree (a node shared with another tree) keeps its own.
    const stray = parsed({ ...nodes[0]!, id: 'stray', parent: 'elsewhere' });
    pages.set('stray', stray);
    shareNodeStrings(pages);
    for (const node of nodes) expect(pages.get(node.id)).toEqual(node);
    expect(pages.get('stray')!.parent).toBe('elsewhere');
  });
});
