import type { Clock } from '../../src/clock.js';

/** Small helpers for tests of comments and replies. */

/**
 * Real time, but never the same instant twice: each reading is at least 1 ms after the previous
 * one. Things stamped one after the other are ordered by their timestamps whatever the speed of
 * the machine, so a test of "ordered by postedAt" does not depend on timing.
 */
export function steadyClock(): Clock {
  let last = 0;
  return {
    now() {
      last = Math.max(Date.now(), last + 1);
      return new Date(last);
    },
  };
}

/** The markdown of a comment's or reply's body, trimmed; undefined when the body has none. */
export function markdownOf(item: { body: unknown }): string | undefined {
  const markdown = (item.body as { markdown?: unknown }).markdown;
  return typeof markdown === 'string' ? markdown.trim() : undefined;
}

export interface DocumentNode {
  object?: string;
  type?: string;
  text?: string;
  nodes?: DocumentNode[];
  leaves?: Array<{ text: string; marks?: Array<{ type: string }> }>;
}

/** The document of a body asked for with `format=document`; undefined when the body has none. */
export function documentOf(item: { body: unknown }): { object: string; nodes: DocumentNode[] } | undefined {
  return (item.body as { document?: { object: string; nodes: DocumentNode[] } }).document;
}

/** The plain text of a document node (its leaves, concatenated). */
export function textOf(node: DocumentNode): string {
  if (node.leaves) return node.leaves.map((leaf) => leaf.text).join('');
  if (typeof node.text === 'string') return node.text;
  return (node.nodes ?? []).map(textOf).join('');
}

/** The mark types used anywhere inside a document node. */
export function marksOf(node: DocumentNode): string[] {
  const own = (node.leaves ?? []).flatMap((leaf) => (leaf.marks ?? []).map((mark) => mark.type));
  return [...own, ...(node.nodes ?? []).flatMap(marksOf)];
}

interface ListPage<T> {
  items: T[];
  next?: { page: string };
}

/** Every item of a paginated list, following `next.page`; fails past `maxPages` pages. */
export async function walk<T>(
  fetchPage: (page: string | undefined) => Promise<ListPage<T>>,
  maxPages = 50,
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let page: string | undefined;
  for (let pages = 1; pages <= maxPages; pages++) {
    const answer = await fetchPage(page);
    items.push(...answer.items);
    if (!answer.next) return { items, pages };
    page = answer.next.page;
  }
  throw new Error(`the list did not end within ${maxPages} pages`);
}

interface Reactions {
  reactions: Array<{ emoji: string; count: number; users: Array<{ user: { id: string } }> }>;
}

/**
 * Reactions as `{emoji: {count, users (user ids, sorted)}}`, for comparisons that ignore order;
 * fails when an emoji appears twice.
 */
export function reactionsOf(item: Reactions): Record<string, { count: number; users: string[] }> {
  const out: Record<string, { count: number; users: string[] }> = {};
  for (const reaction of item.reactions) {
    if (out[reaction.emoji]) throw new Error(`the reaction ${reaction.emoji} is listed twice`);
    out[reaction.emoji] = { count: reaction.count, users: reaction.users.map((u) => u.user.id).sort() };
  }
  return out;
}

/** Repliers as `{userId: count}`, for comparisons that ignore order; fails when a user appears twice. */
export function repliersOf(item: {
  repliers: Array<{ count: number; user: { id: string } }>;
}): Record<string, number> {
  const out: Record<string, number> = {};
  for (const replier of item.repliers) {
    if (replier.user.id in out) throw new Error(`the replier ${replier.user.id} is listed twice`);
    out[replier.user.id] = replier.count;
  }
  return out;
}
