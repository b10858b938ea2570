import { describe, expect, it } from 'vitest';
import { encodeCursor, pageOfList } from '../../src/db/keyset.js';

const ids = Array.from({ length: 25 }, (_, i) => `id${String(i).padStart(2, '0')}`);

describe('pages of an in-memory list', () => {
  it('walks the whole list with next.page, counting it all', () => {
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const result = pageOfList(ids, (id) => id, { page, limit: 10 }, 'files');
      expect(result.count).toBe(25);
      seen.push(...result.items);
      page = result.next?.page;
    } while (page);
    expect(seen).toEqual(ids);
    expect(pageOfList(ids, (id) => id, {}, 'files').items).toHaveLength(25);
    expect(pageOfList(ids, (id) => id, { limit: 25 }, 'files').next).toBeUndefined();
  });

  it('refuses cursors of another list or of another shape', () => {
    const next = pageOfList(ids, (id) => id, { limit: 5 }, 'files').next!.page;
    expect(() => pageOfList(ids, (id) => id, { page: next }, 'backlinks')).toThrow(/not a cursor/);
    for (const page of ['junk', encodeCursor({ s: 'files', v: [3] }), encodeCursor({ s: 'files', v: [] })])
      expect(() => pageOfList(ids, (id) => id, { page }, 'files')).toThrow(/not a cursor/);
  });

  it('resumes after the last key even when that item is gone', () => {
    const next = pageOfList(ids, (id) => id, { limit: 5 }, 'files').next!.page;
    const without = ids.filter((id) => id !== 'id04' && id !== 'id05');
    expect(pageOfList(without, (id) => id, { page: next, limit: 2 }, 'files').items).toEqual([
      'id06',
      'id07',
    ]);
  });
});
