import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What a kept conversion was made by (stored-documents.ts): a hash of the modules the conversion
 * runs (conversion.ts and every module it imports, followed through their relative imports)
 * and of the installed packages (package-lock.json). Fidelity fixes change what markdown converts
 * to; a row converted by other code is not used, and the fill converts every page again, so a
 * new release of Quire never serves its predecessor's documents. Hashed rather than a version
 * number to bump by hand: forgetting to bump would serve the old documents, silently and for as
 * long as the page's markdown stays the same.
 */
export function converterStamp(): Promise<string> {
  // Code that cannot be read is nobody's: its rows are its own, refilled by each process.
  stamp ??= stampOf(join(dirname(fileURLToPath(import.meta.url)), here('conversion'))).catch(
    () => `unread-${randomUUID()}`,
  );
  return stamp;
}

let stamp: Promise<string> | undefined;

/** A sibling module's file name, as this module's own: `.ts` from the sources, `.js` once built. */
function here(name: string): string {
  return `${name}${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`;
}

/**
 * A relative import or re-export, static or dynamic. Group 1 is `type` for an import of types
 * only, which runs nothing; group 2 the path.
 */
const RELATIVE_IMPORT =
  /(?:\b(?:import|export)\s+(type\s+)?(?:[\w*{}\s,$]*?\s+from\s*)?|\bimport\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/**
 * The stamp of the module `entry` and those it imports, relative imports followed: a hash of
 * their paths (relative to the entry's directory) and text, and of the package-lock.json above
 * them, if any.
 */
export async function stampOf(entry: string): Promise<string> {
  const files = await moduleGraph(entry);
  const hash = createHash('sha256');
  const base = dirname(entry);
  for (const [file, text] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    hash.update(`${relative(base, file)}\0${text}\0`);
  const lock = findUp(base, 'package-lock.json');
  if (lock) hash.update(await readFile(lock));
  return hash.digest('base64url').slice(0, 22);
}

/** The files of the modules `entry` imports, transitively through relative imports, with their text. */
export async function moduleGraph(entry: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const pending = [resolve(entry)];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    const text = await readFile(file, 'utf8');
    files.set(file, text);
    for (const match of text.matchAll(RELATIVE_IMPORT)) {
      if (match[1]) continue;
      const target = moduleFile(resolve(dirname(file), match[2]!));
      if (target && !files.has(target)) pending.push(target);
    }
  }
  return files;
}

/** The file an import names: as written, or its TypeScript source (`./x.js` is `./x.ts` in src). */
function moduleFile(path: string): string | undefined {
  if (existsSync(path)) return path;
  const source = path.replace(/\.js$/, '.ts');
  return source !== path && existsSync(source) ? source : undefined;
}

function findUp(from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, name);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}
