import { describe, expect, it } from 'vitest';
import { type MergeInput, mergeContents } from '../../src/content/merge.js';
import { objectHash } from '../../src/content/objects.js';
import { indexPages } from '../../src/content/page-indexes.js';
import type { FileNode, PageNode, RevisionContent, VariableValue } from '../../src/content/tree.js';

const T0 = '2024-01-01T00:00:00.000Z';
const T1 = '2024-02-01T00:00:00.000Z';
const T2 = '2024-03-01T00:00:00.000Z';

/** An in-memory body store that counts reads. */
function bodies() {
  const texts = new Map<string, string>();
  const loaded: string[] = [];
  return {
    loaded,
    put(text: string): string {
      const hash = objectHash(text);
      texts.set(hash, text);
      return hash;
    },
    async load(hash: string): Promise<string> {
      loaded.push(hash);
      const text = texts.get(hash);
      if (text === undefined) throw new Error(`no body ${hash}`);
      return text;
    },
  };
}

function page(id: string, fields: Partial<PageNode> = {}): PageNode {
  return {
    id,
    type: 'document',
    parent: null,
    order: 0,
    title: id,
    slug: id,
    body: null,
    createdAt: T0,
    updatedAt: T0,
    ...fields,
  };
}

function file(id: string, fields: Partial<FileNode> = {}): FileNode {
  return { id, name: `${id}.png`, contentType: 'image/png', size: 1, blob: `blob-${id}`, ...fields };
}

function content(
  pages: PageNode[],
  files: FileNode[] = [],
  variables: Record<string, VariableValue> = {},
): RevisionContent {
  return {
    pages: new Map(pages.map((p) => [p.id, p])),
    files: new Map(files.map((f) => [f.id, f])),
    reusableContents: new Map(),
    variables,
  };
}

/** A new revision sharing every node of `from` except those edited, added or deleted. */
function edit(
  from: RevisionContent,
  changes: { set?: PageNode[]; del?: string[]; files?: FileNode[]; delFiles?: string[] } = {},
  variables?: Record<string, VariableValue>,
): RevisionContent {
  const pages = new Map(from.pages);
  for (const p of changes.set ?? []) pages.set(p.id, p);
  for (const id of changes.del ?? []) pages.delete(id);
  const files = new Map(from.files);
  for (const f of changes.files ?? []) files.set(f.id, f);
  for (const id of changes.delFiles ?? []) files.delete(id);
  return { ...from, pages, files, variables: variables ?? from.variables };
}

/** The page as it is in `c`, with some fields changed and a later `updatedAt`. */
function changed(c: RevisionContent, id: string, fields: Partial<PageNode>, at = T1): PageNode {
  return { ...c.pages.get(id)!, ...fields, updatedAt: at };
}

function merge(base: RevisionContent, ours: RevisionContent, theirs: RevisionContent, store = bodies()) {
  const input: MergeInput = { base, ours, theirs, loadBody: store.load };
  return mergeContents(input);
}

describe('merging page edits', () => {
  it('combines edits to different pages without reading bodies', async () => {
    const store = bodies();
    const base = content([page('a'), page('b'), page('c')]);
    const ours = edit(base, { set: [changed(base, 'a', { title: 'A' })] });
    const theirs = edit(base, { set: [changed(base, 'b', { title: 'B', body: store.put('new\n') })] });
    const result = await merge(base, ours, theirs, store);
    expect(result.conflicts).toEqual([]);
    expect(result.content.pages.get('a')!.title).toBe('A');
    expect(result.content.pages.get('b')).toBe(theirs.pages.get('b'));
    expect(result.content.pages.get('c')).toBe(base.pages.get('c'));
    expect([...result.changedPages]).toEqual(['b']);
    expect(store.loaded).toEqual([]);
  });

  it('merges edits to different lines of one page', async () => {
    const store = bodies();
    const base = content([page('a', { body: store.put('one\ntwo\nthree\nfour\nfive\n') })]);
    const ours = edit(base, {
      set: [changed(base, 'a', { body: store.put('ONE\ntwo\nthree\nfour\nfive\n') })],
    });
    const theirs = edit(base, {
      set: [changed(base, 'a', { body: store.put('one\ntwo\nthree\nfour\nFIVE\nsix\n') }, T2)],
    });
    const result = await merge(base, ours, theirs, store);
    expect(result.conflicts).toEqual([]);
    expect(result.mergedBodies.get('a')).toBe('ONE\ntwo\nthree\nfour\nFIVE\nsix\n');
    expect(result.changedPages.has('a')).toBe(true);
    expect(result.content.pages.get('a')!.updatedAt).toBe(T2);
    expect(store.loaded).toHaveLength(3);
  });

  it('reports edits to the same lines as a body conflict', async () => {
    const store = bodies();
    const base = content([page('a', { body: store.put('one\ntwo\nthree\nfour\nfive\n') })]);
    const ours = edit(base, {
      set: [changed(base, 'a', { body: store.put('one\nTWO\nTHREE\nfour\nfive\n') })],
    });
    const theirs = edit(base, { set: [changed(base, 'a', { body: store.put('one\n2\n3\nfour\nfive\n') })] });
    const result = await merge(base, ours, theirs, store);
    expect(result.conflicts).toEqual([
      { kind: 'body', page: 'a', path: 'a', message: 'both sides changed lines 2-3 of a' },
    ]);
    expect(result.mergedBodies.size).toBe(0);
  });

  it('keeps a move from one side and an edit from the other', async () => {
    const store = bodies();
    const base = content([page('guides'), page('setup')]);
    const ours = edit(base, { set: [changed(base, 'setup', { parent: 'guides' })] });
    const body = store.put('# Setup\n');
    const theirs = edit(base, { set: [changed(base, 'setup', { body, title: 'Set up' }, T2)] });
    const result = await merge(base, ours, theirs, store);
    expect(result.conflicts).toEqual([]);
    expect(result.content.pages.get('setup')).toMatchObject({
      parent: 'guides',
      body,
      title: 'Set up',
      updatedAt: T2,
    });
    expect(store.loaded).toEqual([]);
  });

  it('takes a field changed on one side only, and the same change made on both', async () => {
    const base = content([page('a')]);
    const ours = edit(base, { set: [changed(base, 'a', { title: 'Same', emoji: '1f600' })] });
    const theirs = edit(base, { set: [changed(base, 'a', { title: 'Same', description: 'About a' })] });
    const result = await merge(base, ours, theirs);
    expect(result.conflicts).toEqual([]);
    expect(result.content.pages.get('a')).toMatchObject({
      title: 'Same',
      emoji: '1f600',
      description: 'About a',
    });
  });

  it('reports a title changed differently on both sides', async () => {
    const base = content([page('a')]);
    const ours = edit(base, { set: [changed(base, 'a', { title: 'Ours' })] });
    const theirs = edit(base, { set: [changed(base, 'a', { title: 'Theirs' })] });
    const result = await merge(base, ours, theirs);
    expect(result.conflicts).toEqual([
      {
        kind: 'field',
        page: 'a',
        path: 'a',
        field: 'title',
        message: 'both sides changed the title of a ("Ours" and "Theirs")',
      },
    ]);
  });

  it('lets the incoming order win when both sides reorder a page', async () => {
    const base = content([page('a', { order: 1 })]);
    const ours = edit(base, { set: [changed(base, 'a', { order: 5 })] });
    const theirs = edit(base, { set: [changed(base, 'a', { order: 7 })] });
    const result = await merge(base, ours, theirs);
    expect(result.conflicts).toEqual([]);
    expect(result.content.pages.get('a')!.order).toBe(7);
  });

  it('ignores a change of updatedAt alone', async () => {
    const base = content([page('a')]);
    const ours = edit(base, { set: [changed(base, 'a', { title: 'A' })] });
    const theirs = edit(base, { set: [changed(base, 'a', {}, T2)] });
    const result = await merge(base, ours, theirs);
    expect(result.content).toBe(ours);
    expect(result.changedPages.size).toBe(0);
  });
});

describe('merging additions and deletions', () => {
  it('reports a page deleted on one side and edited on the other, either way round', async () => {
    const base = content([page('a'), page('b')]);
    const deleted = edit(base, { del: ['a'] });
    const edited = edit(base, { set: [changed(base, 'a', { title: 'A' })] });
    expect((await merge(base, deleted, edited)).conflicts).toEqual([
      {
        kind: 'delete-edit',
        page: 'a',
        path: 'a',
        message: 'a was deleted on the target side and edited on the incoming side',
      },
    ]);
    expect((await merge(base, edited, deleted)).conflicts).toEqual([
      {
        kind: 'delete-edit',
        page: 'a',
        path: 'a',
        message: 'a was deleted on the incoming side and edited on the target side',
      },
    ]);
  });

  it('deletes a page deleted on one side and unchanged on the other, or deleted on both', async () => {
    const base = content([page('a'), page('b'), page('c')]);
    const ours = edit(base, { del: ['a'], set: [changed(base, 'c', { title: 'C' })] });
    const theirs = edit(base, { del: ['a', 'b'] });
    const result = await merge(base, ours, theirs);
    expect(result.conflicts).toEqual([]);
    expect([...result.content.pages.keys()]).toEqual(['c']);
    expect([...result.changedPages]).toEqual(['b']);
  });

  it('adds a page added on one side, and one added identically on both', async () => {
    const base = content([page('a')]);
    const ours = edit(base, { set: [page('both'), page('mine')] });
    const theirs = edit(base, { set: [page('both'), page('new', { parent: 'a' })] });
    const result = await merge(base, ours, theirs);
    expect(result.conflicts).toEqual([]);
    expect([...result.content.pages.keys()].sort()).toEqual(['a', 'both', 'mine', 'new']);
    expect([...result.changedPages]).toEqual(['new']);
  });

  it('reports a page added differently on both sides', async () => {
    const store = bodies();
    const base = content([page('a')]);
    const ours = edit(base, { set: [page('x', { title: 'Mine', body: store.put('mine\n') })] });
    const theirs = edit(base, { set: [page('x', { title: 'Yours', body: store.put('yours\n') })] });
    const result = await merge(base, ours, theirs, store);
    expect(result.conflicts.map((c) => c.kind).sort()).toEqual(['body', 'field']);
    expect(store.loaded).toEqual([]);
  });
});

describe('checking the merged structure', () => {
  it('reports a cycle made by two moves', async () => {
    const base = content([page('a'), page('b')]);
    const ours = edit(base, { set: [changed(base, 'a', { parent: 'b' })] });
    const theirs = edit(base, { set: [changed(base, 'b', { parent: 'a' })] });
    const result = await merge(base, ours, theirs);
    expect(result.conflicts).toHaveLength(1);
    expect(result.conflicts[0]).toMatchObject({
      kind: 'structure',
      message: expect.stringContaining('inside each other'),
    });
  });

  it('reports two pages renamed to the same path', async () => {
    const base = content([page('guides'), page('a', { parent: 'guides' }), page('b', { parent: 'guides' })]);
    const ours = edit(base, { set: [changed(base, 'a', { slug: 'setup' })] });
    const theirs = edit(base, { set: [changed(base, 'b', { slug: 'setup' })] });
    const result = await merge(base, ours, theirs);
    expect(result.conflicts).toEqual([
      {
        kind: 'structure',
        page: 'a',
        path: 'guides/setup',
        message: '2 pages would have the path guides/setup: "a", "b"',
      },
    ]);
  });

  it('does not blame the merge for a path collision one side already had', async () => {
    const base = content([page('a', { slug: 'same' }), page('b', { slug: 'same' }), page('c')]);
    const ours = edit(base, { set: [page('d')] });
    const theirs = edit(base, { set: [changed(base, 'c', { slug: 'see' })] });
    const result = await merge(base, ours, theirs);
    expect(result.conflicts).toEqual([]);
  });

  it('reports a page added under a parent the other side deleted', async () => {
    const base = content([page('a'), page('b')]);
    const ours = edit(base, { del: ['a'] });
    const theirs = edit(base, { set: [page('child', { parent: 'a' })] });
    const result = await merge(base, ours, theirs);
    expect(result.conflicts).toEqual([
      {
        kind: 'structure',
        page: 'child',
        path: 'a/child',
        message: 'a/child would be inside a page that the other side deleted',
      },
    ]);
  });

  it('reports a group moved off the top level', async () => {
    const base = content([page('g', { type: 'group' }), page('a')]);
    const ours = edit(base, { set: [changed(base, 'a', { title: 'A' })] });
    const theirs = edit(base, { set: [changed(base, 'g', { parent: 'a' })] });
    const result = await merge(base, ours, theirs);
    expect(result.conflicts).toMatchObject([{ kind: 'structure', page: 'g' }]);
  });
});

describe('merging files and variables', () => {
  it('merges files by id and reports two different changes of one file', async () => {
    const base = content([page('a')], [file('f1'), file('f2'), file('f3')]);
    const ours = edit(base, { files: [file('f1', { name: 'one.png' }), file('f4')], delFiles: ['f3'] });
    const theirs = edit(base, { files: [file('f2', { name: 'two.png' }), file('f5')] });
    const result = await merge(base, ours, theirs);
    expect(result.conflicts).toEqual([]);
    expect([...result.content.files.keys()].sort()).toEqual(['f1', 'f2', 'f4', 'f5']);
    expect(result.content.files.get('f2')!.name).toBe('two.png');
    expect([...result.changedFiles].sort()).toEqual(['f2', 'f5']);

    const clash = edit(base, { files: [file('f1', { name: 'uno.png' })], delFiles: ['f2'] });
    const conflicts = (await merge(base, ours, clash)).conflicts;
    expect(conflicts).toEqual([
      { kind: 'file', file: 'f1', message: 'the file one.png was changed on both sides' },
    ]);
    const deleteEdit = (await merge(base, theirs, clash)).conflicts;
    expect(deleteEdit).toMatchObject([{ kind: 'file', file: 'f2' }]);
  });

  it('merges variables key by key', async () => {
    const base = content([page('a')], [], { product: 'Quire', version: 1, old: true });
    const ours = edit(base, {}, { product: 'Quire', version: 2, old: true, mine: 'x' });
    const theirs = edit(base, {}, { product: 'Quire Docs', version: 1, theirs: 'y' });
    const result = await merge(base, ours, theirs);
    expect(result.conflicts).toEqual([]);
    expect(result.content.variables).toEqual({ product: 'Quire Docs', version: 2, mine: 'x', theirs: 'y' });

    const clash = edit(base, {}, { product: 'Quire', version: 3, old: true });
    expect((await merge(base, ours, clash)).conflicts).toEqual([
      {
        kind: 'field',
        page: '',
        path: '',
        field: 'variables.version',
        message: 'both sides changed the variable version',
      },
    ]);
  });
});

describe('fast paths', () => {
  it('answers with the incoming content when the target has not moved', async () => {
    const base = content([page('a'), page('b')]);
    const theirs = edit(base, { set: [changed(base, 'a', { title: 'A' })], del: ['b'] });
    const result = await merge(base, base, theirs);
    expect(result.content).toBe(theirs);
    expect([...result.changedPages].sort()).toEqual(['a', 'b']);
  });

  it('answers with the target when the incoming side has no changes', async () => {
    const base = content([page('a')]);
    const ours = edit(base, { set: [changed(base, 'a', { title: 'A' })] });
    expect((await merge(base, ours, base)).content).toBe(ours);
    expect((await merge(base, ours, edit(base))).content).toBe(ours);
  });
});

describe('scale', () => {
  it('reads only the bodies of pages changed on both sides of a 5,000-page space', async () => {
    const store = bodies();
    const pages: PageNode[] = [];
    for (let i = 0; i < 50; i++) pages.push(page(`s${i}`, { order: i }));
    for (let i = 0; i < 4950; i++) {
      const text = `# Page ${i}\n\nfirst\n\nmiddle\n\nlast\n`;
      pages.push(page(`p${i}`, { parent: `s${i % 50}`, order: i, body: store.put(text) }));
    }
    const base = content(pages);
    const rewrite = (id: string, from: string, to: string) => {
      const text = `# Page ${id.slice(1)}\n\nfirst\n\nmiddle\n\nlast\n`.replace(from, to);
      return changed(base, id, { body: store.put(text) });
    };
    const ours = edit(base, {
      set: [rewrite('p1', 'middle', 'M'), rewrite('p2', 'first', 'F'), rewrite('p3', 'last', 'L')],
    });
    const theirs = edit(base, {
      set: [
        rewrite('p2', 'last', 'L'),
        rewrite('p3', 'first', 'F'),
        rewrite('p4', 'middle', 'M'),
        changed(base, 'p5', { title: 'Five' }),
        changed(base, 'p6', { slug: 'six' }),
        page('new', { parent: 's1' }),
      ],
      del: ['p7', 'p8'],
    });
    const loaded = store.loaded;
    const result = await merge(base, ours, theirs, store);
    expect(result.conflicts).toEqual([]);
    const bothChanged = ['p2', 'p3'];
    const expected = bothChanged.flatMap((id) => [base, ours, theirs].map((c) => c.pages.get(id)!.body!));
    expect(loaded.sort()).toEqual(expected.sort());
    expect([...result.mergedBodies.keys()].sort()).toEqual(bothChanged);
    expect(result.mergedBodies.get('p2')).toBe('# Page 2\n\nF\n\nmiddle\n\nL\n');
    expect([...result.changedPages].sort()).toEqual(['new', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8']);
    expect(result.content.pages.size).toBe(4999);
    expect(result.content.pages.get('p1')).toBe(ours.pages.get('p1'));
  });
});

describe('path collisions from the indexes', () => {
  it("finds exactly the collisions the walk over every page finds, given the target's indexes", async () => {
    let state = 5;
    const next = () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state / 2 ** 32;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const slugs = ['a', 'b', 'c', 'd', 'a/b', ''];
    let fresh = 0;
    const counts = { collisions: 0, placedWithout: 0 };
    for (let round = 0; round < 300; round++) {
      const pages: PageNode[] = [];
      for (let i = 0; i < 30; i++) {
        const parent = i < 6 || next() < 0.1 ? null : pick(pages).id;
        const group = parent === null && next() < 0.3;
        pages.push(
          page(`p${i}`, { parent, slug: pick(slugs), ...(group ? { type: 'group' as const } : {}) }),
        );
      }
      const base = content(pages);
      /** One side: moves, renames, retypes, adds and deletes (with the pages below), kept free of cycles. */
      const side = (): RevisionContent => {
        let c = base;
        for (let i = 0, n = 1 + Math.floor(next() * 4); i < n; i++) {
          const ids = [...c.pages.keys()];
          const id = pick(ids);
          const roll = next();
          if (roll < 0.3) c = edit(c, { set: [changed(c, id, { slug: pick(slugs) })] });
          else if (roll < 0.55) {
            const parent = next() < 0.2 ? null : pick(ids);
            let up: string | null = parent;
            while (up !== null && up !== id) up = c.pages.get(up)?.parent ?? null;
            if (up !== id) c = edit(c, { set: [changed(c, id, { parent })] });
          } else if (roll < 0.65) c = edit(c, { set: [changed(c, id, { type: 'link' })] });
          else if (roll < 0.85)
            c = edit(c, {
              set: [page(`n${fresh++}`, { parent: next() < 0.3 ? null : pick(ids), slug: pick(slugs) })],
            });
          else {
            const doomed = [id];
            for (let j = 0; j < doomed.length; j++)
              for (const p of c.pages.values()) if (p.parent === doomed[j]) doomed.push(p.id);
            c = edit(c, { del: doomed });
          }
        }
        return c;
      };
      const ours = side();
      const theirs = side();
      const walked = await merge(base, ours, theirs);
      const indexed = await mergeContents({
        base,
        ours,
        theirs,
        loadBody: bodies().load,
        oursIndexes: indexPages(ours.pages),
      });
      expect(indexed.conflicts).toEqual(walked.conflicts);
      const collisions = walked.conflicts.filter((c) => c.message.includes('would have the path'));
      if (collisions.length > 0) counts.collisions++;
      else counts.placedWithout++;
    }
    // Both outcomes were seen many times.
    expect(counts.collisions).toBeGreaterThan(30);
    expect(counts.placedWithout).toBeGreaterThan(30);
  });
});
