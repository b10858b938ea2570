import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { moduleGraph, stampOf } from '../../src/areas/content/converter-stamp.js';

/**
 * The stamp a kept document carries (src/areas/content/converter-stamp.ts): it follows the code
 * that runs, so that a release whose conversion changed never serves the documents of the one
 * before.
 */
describe('the converter stamp', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quire-stamp-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => writeFileSync(join(dir, name), text);

  it('changes with a module the entry runs, and only with those', async () => {
    file(
      'entry.ts',
      [
        "import { b } from './b.js';",
        "import type { C } from './c.js';",
        'export {',
        '  d,',
        "} from './d.js';",
        "export const e = () => import('./e.js');",
        "import './f.js';",
      ].join('\n'),
    );
    for (const name of ['b', 'c', 'd', 'e', 'f', 'unused']) file(`${name}.ts`, `export const ${name} = 1;`);
    const graph = await moduleGraph(join(dir, 'entry.ts'));
    expect([...graph.keys()].map((path) => path.slice(dir.length + 1)).sort()).toEqual([
      'b.ts',
      'd.ts',
      'e.ts',
      'entry.ts',
      'f.ts',
    ]);
    const before = await stampOf(join(dir, 'entry.ts'));
    file('unused.ts', 'export const unused = 2;');
    file('c.ts', 'export type C = string;');
    expect(await stampOf(join(dir, 'entry.ts'))).toBe(before);
    file('d.ts', 'export const d = 2;');
    const changed = await stampOf(join(dir, 'entry.ts'));
    expect(changed).not.toBe(before);
    file('d.ts', 'export const d = 1;');
    expect(await stampOf(join(dir, 'entry.ts'))).toBe(before);
  });

  it("covers the markdown converter's modules, those outside src/content among them", async () => {
    const root = join(import.meta.dirname, '../../src');
    const graph = await moduleGraph(join(root, 'areas/content/conversion.ts'));
    for (const module of [
      'content/markdown/index.ts',
      'content/markdown/parse.ts',
      'content/markdown/gitbook-blocks.ts',
      'content/markdown/gfm-processors.ts',
      'html-escape.ts',
    ])
      expect(graph.has(join(root, module))).toBe(true);
  });
});
