import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../../src/server-flags.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe("a server's Node flags", () => {
  it('are the ones `npm start` and the `quire` command pass', () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const start = manifest.scripts.start!.split(' ');
    const shebang = readFileSync(path.join(ROOT, 'src/main.ts'), 'utf8').split('\n')[0]!;
    expect(shebang.startsWith('#!/usr/bin/env -S node ')).toBe(true);
    const fromShebang = shebang
      .split(' ')
      .slice(2)
      .filter((word) => word.startsWith('--'));
    const fromStart = start.filter((word) => word.startsWith('--'));
    expect(fromShebang).toEqual([...SERVER_NODE_FLAGS]);
    expect(fromStart).toEqual([...SERVER_NODE_FLAGS]);
  });
});
